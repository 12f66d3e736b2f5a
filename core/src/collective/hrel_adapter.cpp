// An h-relation slot schedule (Sibeyn, "h-relations with forwarding, half duplex") as a collective schedule: the
// messages cut into pieces of 1/g packet, g the least common denominator of the slots' durations and the transfers'
// amounts, so that every amount is a whole number of chunks and every slot a whole number of rounds.
#include <deque>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

#include "dancecard/core/collective/adapters.hpp"

namespace dancecard::collective {

namespace {

constexpr std::uint64_t chunk_limit = std::uint64_t{1} << 32;

// The least common multiple of the denominators, or an error past 2^32.
std::uint64_t least_denominator(const hrel::hrel_schedule& schedule) {
  std::uint64_t g = 1;
  auto join = [&](const rational& r, const std::string& where) {
    const auto d = static_cast<std::uint64_t>(r.denominator());
    g = g / std::gcd(g, d) * d;
    if (g > chunk_limit) throw std::invalid_argument("from_hrel: " + where + " makes the pieces finer than 2^-32");
  };
  for (std::size_t s = 0; s < schedule.slots.size(); ++s) {
    join(schedule.slots[s].duration, "slot " + std::to_string(s));
    for (std::size_t k = 0; k < schedule.slots[s].transfers.size(); ++k)
      join(schedule.slots[s].transfers[k].amount, "transfer " + std::to_string(k) + " of slot " + std::to_string(s));
  }
  return g;
}

// r · g as a whole number (r = p/q with q dividing g), or an error past `limit`.
std::uint64_t scaled(const rational& r, std::uint64_t g, std::uint64_t limit, const std::string& where) {
  const auto factor = g / static_cast<std::uint64_t>(r.denominator());
  const auto p = static_cast<std::uint64_t>(r.numerator());
  if (p > limit / factor)
    throw std::invalid_argument("from_hrel: " + where + " is more than " + std::to_string(limit) + " pieces");
  return p * factor;
}

}  // namespace

schedule from_hrel(const hrel::hrel_instance& instance, const hrel::hrel_schedule& slots, port_model ports) {
  const rank P = instance.pes();
  const auto& messages = instance.messages();
  if (P > 4096) throw std::invalid_argument("from_hrel: at most 4096 PEs");
  if (slots.pes != P)
    throw std::invalid_argument("from_hrel: the schedule has " + std::to_string(slots.pes) + " PEs, the instance " +
                                std::to_string(P));
  const std::uint64_t g = least_denominator(slots);
  std::vector<std::uint64_t> counts(std::size_t{P} * P, 0);
  std::uint64_t total = 0;
  for (std::size_t m = 0; m < messages.size(); ++m) {
    const std::uint64_t pieces = scaled(
        rational(static_cast<std::int64_t>(std::min<std::uint64_t>(messages[m].packets, std::uint64_t{1} << 62))), g,
        chunk_limit, "message " + std::to_string(m));
    counts[std::size_t{messages[m].src} * P + messages[m].dst] = pieces;
    total += pieces;
    if (total > chunk_limit) throw std::invalid_argument("from_hrel: more than 2^32 pieces in all");
  }
  schedule out{complete_topology(P), ports, alltoallv_collective(P, counts), {}, "h-relation"};
  // Which pieces each PE holds of each message, oldest first: a transfer hands on the oldest (pieces are
  // interchangeable in the h-relation model, so any choice gives its verdict).
  std::map<std::pair<std::size_t, rank>, std::deque<std::uint64_t>> held;
  for (std::size_t m = 0; m < messages.size(); ++m) {
    std::deque<std::uint64_t>& q = held[{m, messages[m].src}];
    const std::uint64_t first = out.coll.offsets[std::size_t{messages[m].src} * P + messages[m].dst];
    for (std::uint64_t k = 0; k < counts[std::size_t{messages[m].src} * P + messages[m].dst]; ++k)
      q.push_back(first + k);
  }
  out.steps.reserve(slots.slots.size());
  for (std::size_t s = 0; s < slots.slots.size(); ++s) {
    const hrel::hrel_slot& slot = slots.slots[s];
    const std::string where = "slot " + std::to_string(s);
    if (slot.duration <= rational(0)) throw std::invalid_argument("from_hrel: " + where + " has no positive duration");
    step& st = out.steps.emplace_back();
    st.rounds = static_cast<std::uint32_t>(scaled(slot.duration, g, std::uint64_t{1} << 30, where));
    std::vector<std::pair<std::pair<std::size_t, rank>, std::uint64_t>> arrivals;  // land when the slot ends
    for (std::size_t k = 0; k < slot.transfers.size(); ++k) {
      const hrel::hrel_transfer& t = slot.transfers[k];
      const std::string what = "transfer " + std::to_string(k) + " of " + where;
      if (t.from >= P || t.to >= P || t.from == t.to || t.message >= messages.size())
        throw std::invalid_argument("from_hrel: " + what + " names a PE or message that does not exist");
      if (t.amount <= rational(0)) throw std::invalid_argument("from_hrel: " + what + " moves nothing");
      const std::uint64_t pieces = scaled(t.amount, g, chunk_limit, what);
      std::deque<std::uint64_t>& from = held[{t.message, t.from}];
      for (std::uint64_t i = 0; i < pieces; ++i) {
        std::uint64_t chunk = 0;
        if (!from.empty()) {
          chunk = from.front();
          from.pop_front();
          arrivals.push_back({{t.message, t.to}, chunk});
        } else {
          // More than the sender holds: the message's first piece, which the sender either lacks (not held) or
          // has moved in this slot already (moved twice) — the h-relation checker's "not yet held" either way.
          const hrel::hrel_message& msg = messages[t.message];
          chunk = out.coll.offsets[std::size_t{msg.src} * P + msg.dst];
        }
        st.transfers.push_back({chunk, t.from, t.to, transfer_op::move});
      }
    }
    for (const auto& [key, chunk] : arrivals) held[key].push_back(chunk);
  }
  return out;
}

}  // namespace dancecard::collective
