// JSON reading and writing for h-relation instances and schedules.
#include "dancecard/formats/hrel_io.hpp"

#include "json_support.hpp"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>

namespace dancecard::hrel {

namespace {

using json = nlohmann::json;

using dancecard::detail::parse_document;
using dancecard::detail::unsigned_at;

rank pes_of(const json& doc) {
  if (!doc.contains("P")) throw format_error("P", "missing; expected the number of PEs");
  const std::uint64_t P = unsigned_at(doc["P"], "P", 1);
  if (P > max_readable_people)
    throw format_error("P", "above the supported maximum " + std::to_string(max_readable_people));
  return static_cast<rank>(P);
}

rational exact_at(const json& v, const std::string& place) {
  // an unsigned value above 2^63 - 1 would wrap to a negative int64
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    throw format_error(
        place, "is " + dancecard::detail::excerpt(v) + ", beyond the exact numbers dancecard reads (|a| < 2^63)");
  try {
    if (v.is_number_integer()) return rational(v.get<std::int64_t>());
    if (v.is_string()) return rational::parse(v.get<std::string>());
  } catch (const std::exception& e) {
    // the reason quotes the text it could not read: only when that is short
    if (std::string_view(e.what()).size() <= 120) throw format_error(place, e.what());
    throw format_error(
        place, "expected an exact number (an integer or a string \"a/b\"), got " + dancecard::detail::excerpt(v));
  }
  throw format_error(place,
                     "expected an exact number (an integer or a string \"a/b\"), got " + dancecard::detail::excerpt(v));
}

json exact_json(const rational& r) { return r.denominator() == 1 ? json(r.numerator()) : json(r.to_string()); }

}  // namespace

hrel_instance read_hrel_instance(std::string_view text) {
  const json doc = parse_document(text, hrel_format_name, {"format", "P", "messages", "comment", "family"});
  const rank P = pes_of(doc);
  if (!doc.contains("messages") || !doc["messages"].is_array()) throw format_error("messages", "expected an array");
  std::vector<hrel_message> messages;
  for (std::size_t k = 0; k < doc["messages"].size(); ++k) {
    const json& m = doc["messages"][k];
    const std::string place = "messages[" + std::to_string(k) + "]";
    if (!m.is_object() || !m.contains("src") || !m.contains("dst") || !m.contains("packets"))
      throw format_error(place, "expected {\"src\": ..., \"dst\": ..., \"packets\": ...}");
    dancecard::detail::only_keys(m, place, {"src", "dst", "packets"});
    const std::uint64_t src = unsigned_at(m["src"], place + ".src", 0), dst = unsigned_at(m["dst"], place + ".dst", 0);
    if (src >= P)
      throw format_error(place + ".src", "PE " + std::to_string(src) + " out of range for P = " + std::to_string(P));
    if (dst >= P)
      throw format_error(place + ".dst", "PE " + std::to_string(dst) + " out of range for P = " + std::to_string(P));
    messages.push_back(
        {static_cast<rank>(src), static_cast<rank>(dst), unsigned_at(m["packets"], place + ".packets", 1)});
  }
  try {
    return hrel_instance(P, std::move(messages));
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    const auto colon = what.find(": ");
    throw format_error(what.substr(0, colon), what.substr(colon + 2));
  }
}

void write_hrel_instance(std::ostream& out, const hrel_instance& instance) {
  out << "{\"format\": \"" << hrel_format_name << "\", \"P\": " << instance.pes() << ", \"messages\": [";
  for (std::size_t k = 0; k < instance.messages().size(); ++k) {
    const hrel_message& m = instance.messages()[k];
    out << (k == 0 ? "\n  " : ",\n  ") << "{\"src\": " << m.src << ", \"dst\": " << m.dst
        << ", \"packets\": " << m.packets << "}";
  }
  out << (instance.messages().empty() ? "]}\n" : "\n]}\n");
}

hrel_schedule read_hrel_schedule(std::string_view text) {
  const json doc = parse_document(text, hrel_schedule_format_name, {"format", "P", "slots", "comment", "algorithm"});
  hrel_schedule s;
  s.pes = pes_of(doc);
  if (!doc.contains("slots") || !doc["slots"].is_array()) throw format_error("slots", "expected an array");
  for (std::size_t k = 0; k < doc["slots"].size(); ++k) {
    const json& slot = doc["slots"][k];
    const std::string place = "slots[" + std::to_string(k) + "]";
    if (!slot.is_object() || !slot.contains("duration") || !slot.contains("transfers") || !slot["transfers"].is_array())
      throw format_error(place, "expected {\"duration\": ..., \"transfers\": [...]}");
    dancecard::detail::only_keys(slot, place, {"duration", "transfers"});
    hrel_slot out{exact_at(slot["duration"], place + ".duration"), {}};
    for (std::size_t j = 0; j < slot["transfers"].size(); ++j) {
      const json& t = slot["transfers"][j];
      const std::string tp = place + ".transfers[" + std::to_string(j) + "]";
      if (!t.is_object() || !t.contains("from") || !t.contains("to") || !t.contains("message") || !t.contains("amount"))
        throw format_error(tp, "expected {\"from\", \"to\", \"message\", \"amount\"}");
      dancecard::detail::only_keys(t, tp, {"from", "to", "message", "amount"});
      // Ranges of PEs and messages are judged by the checker against the instance (a bad_reference violation).
      out.transfers.push_back(
          {static_cast<rank>(std::min<std::uint64_t>(unsigned_at(t["from"], tp + ".from", 0), UINT32_MAX)),
           static_cast<rank>(std::min<std::uint64_t>(unsigned_at(t["to"], tp + ".to", 0), UINT32_MAX)),
           unsigned_at(t["message"], tp + ".message", 0), exact_at(t["amount"], tp + ".amount")});
    }
    s.slots.push_back(std::move(out));
  }
  return s;
}

void write_hrel_schedule(std::ostream& out, const hrel_schedule& schedule) {
  json slots = json::array();
  for (const hrel_slot& slot : schedule.slots) {
    json transfers = json::array();
    for (const hrel_transfer& t : slot.transfers)
      transfers.push_back({{"from", t.from}, {"to", t.to}, {"message", t.message}, {"amount", exact_json(t.amount)}});
    slots.push_back({{"duration", exact_json(slot.duration)}, {"transfers", transfers}});
  }
  out << json{{"format", hrel_schedule_format_name}, {"P", schedule.pes}, {"slots", slots}}.dump(1) << "\n";
}

}  // namespace dancecard::hrel
