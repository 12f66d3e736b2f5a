// JSON and matrix-text reading and writing for dance schedules, with positioned error messages.
#include "dancecard/formats/dance_io.hpp"

#include "json_support.hpp"

#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

namespace dancecard::dance {

namespace {

using json = nlohmann::json;
using dancecard::detail::line_column;
using dancecard::detail::type_name;

std::uint64_t read_count(const json& v, const std::string& place, const char* what) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer())
    throw format_error(place, std::string(what) + " must be non-negative, got " + dancecard::detail::excerpt(v));
  throw format_error(place, std::string("expected ") + what + " (an integer), got " + type_name(v));
}

}  // namespace

namespace {

// Reads {"format": <format_name>, "n": N, "rounds": [[[a, b], ...], ...]}: calls begin(n), then round() before
// the pairs of every round and pair(a, b) for each. Shared by the dance (pairs) and directed (transfers) formats.
template <class Begin, class Round, class Pair>
void read_rounds_document(std::string_view text, std::string_view format_name, Begin begin, Round round_start,
                          Pair pair_found) {
  const json doc =
      dancecard::detail::parse_document(text, format_name, {"format", "n", "rounds", "algorithm", "comment"});
  if (!doc.contains("n")) throw format_error("n", "missing; expected the number of people");
  const json& jn = doc["n"];
  if (jn.is_number_integer() && !jn.is_number_unsigned())
    throw format_error("n", "must be a positive integer, got " + dancecard::detail::excerpt(jn));
  const std::uint64_t n = read_count(jn, "n", "the number of people");
  if (n == 0) throw format_error("n", "must be a positive integer, got 0");
  if (n > max_readable_people)
    throw format_error(
        "n", "is " + std::to_string(n) + ", above the supported maximum " + std::to_string(max_readable_people));
  for (const char* key : {"algorithm", "comment"})
    if (doc.contains(key) && !doc[key].is_string())
      throw format_error(key, "expected a string, got " + type_name(doc[key]));
  if (!doc.contains("rounds")) throw format_error("rounds", "missing; expected an array of rounds");
  const json& rounds = doc["rounds"];
  if (!rounds.is_array()) throw format_error("rounds", "expected an array of rounds, got " + type_name(rounds));
  begin(static_cast<rank>(n));
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    const std::string round_place = "rounds[" + std::to_string(r) + "]";
    const json& round = rounds[r];
    if (!round.is_array()) throw format_error(round_place, "expected an array of pairs, got " + type_name(round));
    round_start();
    for (std::size_t k = 0; k < round.size(); ++k) {
      const std::string pair_place = round_place + "[" + std::to_string(k) + "]";
      const json& pair = round[k];
      if (!pair.is_array() || pair.size() != 2)
        throw format_error(pair_place,
                           "expected a pair [a, b], got " +
                               (pair.is_array() ? "an array of " + std::to_string(pair.size()) : type_name(pair)));
      rank ends[2];
      for (std::size_t e = 0; e < 2; ++e) {
        const std::string place = pair_place + "[" + std::to_string(e) + "]";
        const std::uint64_t p = read_count(pair[e], place, "a rank");
        if (p >= n)
          throw format_error(place, "rank " + std::to_string(p) + " is out of range for n = " + std::to_string(n) +
                                        " (ranks are 0-based: 0.." + std::to_string(n - 1) + ")");
        ends[e] = static_cast<rank>(p);
      }
      pair_found(ends[0], ends[1]);
    }
  }
}

template <class Schedule, class Pairs>
void write_rounds_document(std::ostream& out, std::string_view format_name, const Schedule& schedule,
                           std::string_view algorithm, Pairs pairs_of_round) {
  out << "{\"format\": \"" << format_name << "\", \"n\": " << schedule.people();
  if (!algorithm.empty()) out << ", \"algorithm\": " << json(std::string(algorithm)).dump();
  out << ", \"rounds\": [";
  for (std::size_t r = 0; r < schedule.rounds(); ++r) {
    out << (r == 0 ? "\n  [" : ",\n  [");
    bool first = true;
    for (auto [a, b] : pairs_of_round(r)) {
      out << (first ? "" : ", ") << '[' << a << ", " << b << ']';
      first = false;
    }
    out << ']';
  }
  out << (schedule.rounds() > 0 ? "\n]}\n" : "]}\n");
}

}  // namespace

dance_schedule read_dance_json(std::string_view text) {
  std::optional<dance_schedule> schedule;
  read_rounds_document(
      text, dance_format_name, [&](rank n) { schedule.emplace(n); }, [&] { schedule->begin_round(); },
      [&](rank a, rank b) { schedule->add_dance(a, b); });
  return std::move(*schedule);
}

directed_schedule read_directed_json(std::string_view text) {
  std::optional<directed_schedule> schedule;
  read_rounds_document(
      text, directed_format_name, [&](rank n) { schedule.emplace(n); }, [&] { schedule->begin_round(); },
      [&](rank a, rank b) { schedule->add_transfer(a, b); });
  return std::move(*schedule);
}

void write_directed_json(std::ostream& out, const directed_schedule& schedule, std::string_view algorithm) {
  write_rounds_document(out, directed_format_name, schedule, algorithm, [&](std::size_t r) {
    std::vector<std::pair<rank, rank>> pairs;
    for (transfer t : schedule.round(r)) pairs.emplace_back(t.from, t.to);
    return pairs;
  });
}

void write_dance_json(std::ostream& out, const dance_schedule& schedule, std::string_view algorithm) {
  write_rounds_document(out, dance_format_name, schedule, algorithm, [&](std::size_t r) {
    std::vector<std::pair<rank, rank>> pairs;
    for (couple d : schedule.round(r)) pairs.emplace_back(d.first, d.second);
    return pairs;
  });
}

partner_matrix read_partner_matrix(std::string_view text) {
  std::vector<std::vector<std::uint64_t>> rows;
  std::vector<std::size_t> row_line;
  std::size_t line_number = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    ++line_number;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::uint64_t> row;
    std::size_t i = 0;
    while (i < line.size()) {
      if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == ',') {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' && line[j] != ',') ++j;
      std::string_view token = line.substr(i, j - i);
      std::uint64_t value = 0;
      auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
      const std::string place = "line " + std::to_string(line_number) + ", column " + std::to_string(i + 1);
      if (ec != std::errc() || ptr != token.data() + token.size())
        throw format_error(
            place, "expected a positive integer (a 1-based person), got " + dancecard::detail::quoted_excerpt(token));
      if (value == 0) throw format_error(place, "entry 0: persons are numbered from 1");
      row.push_back(value);
      i = j;
    }
    if (!row.empty()) {
      if (!rows.empty() && row.size() != rows.front().size())
        throw format_error("line " + std::to_string(line_number),
                           "row has " + std::to_string(row.size()) + " entries, but the first row (line " +
                               std::to_string(row_line.front()) + ") has " + std::to_string(rows.front().size()));
      rows.push_back(std::move(row));
      row_line.push_back(line_number);
      if (rows.size() > max_readable_people)
        throw format_error("line " + std::to_string(line_number),
                           "more than " + std::to_string(max_readable_people) + " rows");
    }
    pos = end + 1;
  }
  if (rows.empty()) throw format_error("line 1", "empty matrix: expected one row of partners per person");
  const std::uint64_t n = rows.size();
  partner_matrix matrix(static_cast<rank>(n), rows.front().size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t r = 0; r < rows[i].size(); ++r) {
      if (rows[i][r] > n)
        throw format_error("line " + std::to_string(row_line[i]) + ", entry " + std::to_string(r + 1),
                           "person " + std::to_string(rows[i][r]) + " is out of range for n = " + std::to_string(n) +
                               " rows (persons are 1-based: 1.." + std::to_string(n) + ")");
      matrix.set(static_cast<rank>(i + 1), r + 1, static_cast<std::uint32_t>(rows[i][r]));
    }
  return matrix;
}

void write_partner_matrix(std::ostream& out, const partner_matrix& matrix) {
  for (rank i = 1; i <= matrix.people(); ++i) {
    for (std::size_t r = 1; r <= matrix.rounds(); ++r) out << (r == 1 ? "" : " ") << matrix.at(i, r);
    out << '\n';
  }
}

std::variant<dance_schedule, partner_matrix> read_dance_input(std::string_view text) {
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    throw format_error("line 1", "empty input: expected a JSON schedule or a matrix");
  if (text[first] == '{' || text[first] == '[' || text[first] == '"') return read_dance_json(text);
  return read_partner_matrix(text);
}

}  // namespace dancecard::dance
