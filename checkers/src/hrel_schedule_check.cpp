// The h-relation schedule checker: holdings per (PE, message) as exact rationals, updated slot by slot.
#include "dancecard/checkers/hrel_schedule_check.hpp"

#include <cstdint>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace dancecard::hrel {

std::string_view to_string(hrel_violation_kind kind) {
  switch (kind) {
    case hrel_violation_kind::port_busy:
      return "port_busy";
    case hrel_violation_kind::amount_not_positive:
      return "amount_not_positive";
    case hrel_violation_kind::amount_exceeds_slot:
      return "amount_exceeds_slot";
    case hrel_violation_kind::not_yet_held:
      return "not_yet_held";
    case hrel_violation_kind::message_incomplete:
      return "message_incomplete";
    case hrel_violation_kind::bad_reference:
      return "bad_reference";
    case hrel_violation_kind::bad_duration:
      return "bad_duration";
  }
  return "?";
}

std::string describe(const hrel_violation& v) {
  std::ostringstream s;
  s << to_string(v.kind) << ": ";
  switch (v.kind) {
    case hrel_violation_kind::port_busy:
      s << "PE " << v.pe << " is in transfers " << v.first << " and " << v.second << " of slot " << v.slot;
      break;
    case hrel_violation_kind::amount_not_positive:
      s << "transfer " << v.first << " of slot " << v.slot << " moves " << v.amount.to_string() << " packets";
      break;
    case hrel_violation_kind::amount_exceeds_slot:
      s << "transfer " << v.first << " of slot " << v.slot << " moves " << v.amount.to_string()
        << " packets in a slot of " << v.held.to_string();
      break;
    case hrel_violation_kind::not_yet_held:
      s << "transfer " << v.first << " of slot " << v.slot << ": PE " << v.pe << " sends " << v.amount.to_string()
        << " of message " << v.message << " but holds " << v.held.to_string() << " at the start of the slot";
      break;
    case hrel_violation_kind::message_incomplete:
      s << "message " << v.message << " has " << v.held.to_string() << " of " << v.amount.to_string()
        << " packets at its destination at the end";
      break;
    case hrel_violation_kind::bad_reference:
      s << "transfer " << v.first << " of slot " << v.slot << " names a PE or message that does not exist";
      break;
    case hrel_violation_kind::bad_duration:
      s << "slot " << v.slot << " has duration " << v.held.to_string();
      break;
  }
  return s.str();
}

hrel_report check_hrel_schedule(const hrel_instance& instance, const hrel_schedule& schedule, duplex mode,
                                std::size_t max_witnesses) {
  hrel_report out;
  const rank P = instance.pes();
  const auto& messages = instance.messages();
  out.checked = std::string(mode == duplex::half ? "half" : "full") + "-duplex schedule of " +
                std::to_string(schedule.slots.size()) + " slots for P = " + std::to_string(P) + ", " +
                std::to_string(messages.size()) + " messages (PEs, messages, slots and transfers numbered from 0)";
  auto add = [&](hrel_violation v) {
    ++out.count_by_kind[static_cast<std::size_t>(v.kind)];
    out.add(std::move(v), max_witnesses);
  };
  // held[(pe, message)]: packets of the message at the PE; absent = 0. Sources start with their whole message.
  std::map<std::pair<rank, std::size_t>, rational> held;
  auto whole = [&](std::size_t m) {
    if (messages[m].packets > static_cast<std::uint64_t>(INT64_MAX))
      throw std::overflow_error("message " + std::to_string(m) + " has " + std::to_string(messages[m].packets) +
                                " packets, beyond the exact numbers of the checker (|a| < 2^63)");
    return rational(static_cast<std::int64_t>(messages[m].packets));
  };
  for (std::size_t m = 0; m < messages.size(); ++m) held[{messages[m].src, m}] = whole(m);
  // Ports: the transfer (index) that last used each PE as sender / receiver in the current slot. Allocated once and
  // reset where a slot wrote, so a slot costs its transfers, not P (a million empty slots on P = 100,000 PEs would
  // otherwise fill 10^11 entries).
  std::vector<std::size_t> as_sender(P, SIZE_MAX), as_receiver(P, SIZE_MAX);
  std::vector<rank> booked;  // the PEs written in the current slot
  for (std::size_t s = 0; s < schedule.slots.size(); ++s) {
    for (rank pe : booked) as_sender[pe] = as_receiver[pe] = SIZE_MAX;
    booked.clear();
    try {
      const hrel_slot& slot = schedule.slots[s];
      out.makespan += slot.duration;
      if (slot.duration <= rational(0)) add({hrel_violation_kind::bad_duration, s, 0, 0, 0, 0, slot.duration, {}});
      std::vector<std::pair<std::pair<rank, std::size_t>, rational>> moves_out, moves_in;
      for (std::size_t k = 0; k < slot.transfers.size(); ++k) {
        const hrel_transfer& t = slot.transfers[k];
        if (t.from >= P || t.to >= P || t.from == t.to || t.message >= messages.size()) {
          add({hrel_violation_kind::bad_reference, s, k, 0, 0, 0, {}, {}});
          continue;
        }
        if (t.amount <= rational(0))
          add({hrel_violation_kind::amount_not_positive, s, k, 0, t.message, t.from, {}, t.amount});
        if (t.amount > slot.duration)
          add({hrel_violation_kind::amount_exceeds_slot, s, k, 0, t.message, t.from, slot.duration, t.amount});
        auto book = [&](rank pe, std::vector<std::size_t>& same, std::vector<std::size_t>& other) {
          std::size_t clash = same[pe];
          if (mode == duplex::half && clash == SIZE_MAX) clash = other[pe];
          if (clash != SIZE_MAX) add({hrel_violation_kind::port_busy, s, clash, k, 0, pe, {}, {}});
          same[pe] = k;
          booked.push_back(pe);
        };
        book(t.from, as_sender, as_receiver);
        book(t.to, as_receiver, as_sender);
        moves_out.push_back({{t.from, t.message}, t.amount});
        moves_in.push_back({{t.to, t.message}, t.amount});
      }
      // Causality: what a PE sends of a message in this slot must be held at the start of the slot.
      std::map<std::pair<rank, std::size_t>, rational> sending;
      std::map<std::pair<rank, std::size_t>, std::size_t> first_transfer;
      for (std::size_t k = 0; k < slot.transfers.size(); ++k) {
        const hrel_transfer& t = slot.transfers[k];
        if (t.from >= P || t.to >= P || t.from == t.to || t.message >= messages.size()) continue;
        sending[{t.from, t.message}] += t.amount;
        first_transfer.try_emplace({t.from, t.message}, k);
      }
      for (const auto& [key, amount] : sending) {
        const rational have = held.count(key) ? held[key] : rational(0);
        if (amount > have)
          add({hrel_violation_kind::not_yet_held, s, first_transfer[key], 0, key.second, key.first, have, amount});
      }
      for (const auto& [key, amount] : moves_out) held[key] -= amount;
      for (const auto& [key, amount] : moves_in) held[key] += amount;
    } catch (const std::overflow_error& e) {  // name the slot where the sums left 64-bit rationals
      throw std::overflow_error("slot " + std::to_string(s) + ": " + e.what());
    }
  }
  for (std::size_t m = 0; m < messages.size(); ++m) {
    const std::pair<rank, std::size_t> key{messages[m].dst, m};
    const rational have = held.count(key) ? held[key] : rational(0);
    const rational packets = whole(m);
    if (have != packets) add({hrel_violation_kind::message_incomplete, 0, 0, 0, m, messages[m].dst, have, packets});
  }
  return out;
}

std::string describe(const hrel_report& report) {
  std::string text = describe_report<hrel_violation_kind>(report, report.count_by_kind);
  if (report.holds()) text.insert(text.find('\n'), "; makespan " + report.makespan.to_string());
  return text;
}

}  // namespace dancecard::hrel
