// Replays an on-line h-relation trace (core/online) against its instance and discipline, with integers only:
//   every round each processor sends at most one message and receives at most one;
//   ocpc      — a message is delivered in the round it is sent iff it is the only one sent to its destination then;
//   arbitrary — of the messages sent to one destination in a round, exactly one is delivered;
//   fifo      — a message is sent once; its sender is stalled (sends nothing) until it is delivered; a receiver with
//               a non-empty queue takes exactly one message per round, one of those that arrived earliest;
//   priority  — as fifo, but one of those of highest priority;
//   every message is delivered exactly once, never sent after its delivery.
// Returns the number of rounds, or the violations with witnesses (round, message, processor).
//
//   auto r = dancecard::online::check_online_trace(instance, run.trace);   r.holds() && r.rounds == run.rounds
#pragma once

#include <array>
#include <string>

#include "dancecard/checkers/report.hpp"
#include "dancecard/core/online/online.hpp"

namespace dancecard::online {

enum class online_violation_kind {
  bad_reference,        // a send or delivery names a message that does not exist
  out_of_order,         // sends or deliveries not in round order
  sends_twice,          // processor `processor` sends two messages in round `round`
  receives_twice,       // processor `processor` receives two messages in round `round`
  sent_after_delivery,  // message `message` sent again after it was delivered
  delivered_unsent,     // message `message` delivered in a round it was not sent (ocpc, arbitrary) or never queued
  collision_delivered,  // ocpc: message `message` delivered although others went to its destination in that round
  // ocpc: message `message` was alone but not delivered; arbitrary: no message of a collision delivered
  collision_lost,
  stalled_send,     // fifo, priority: processor `processor` sends while its message waits in a queue
  sent_twice,       // fifo, priority: message `message` queued twice
  queue_order,      // fifo: not one of the earliest; priority: not one of the highest priority
  idle_receiver,    // fifo, priority: processor `processor` has a queue but takes nothing in round `round`
  not_delivered,    // message `message` never delivered
  delivered_twice,  // message `message` delivered twice
};
inline constexpr std::size_t online_violation_kind_count = 14;
std::string_view to_string(online_violation_kind kind);

struct online_violation {
  online_violation_kind kind{};
  std::uint64_t round = 0;
  std::uint32_t message = 0;
  rank processor = 0;
};
std::string describe(const online_violation& v);

struct online_trace_report : report<online_violation> {
  std::array<std::uint64_t, online_violation_kind_count> count_by_kind{};
  std::uint64_t rounds = 0;  // the round after the last delivery
  std::uint64_t count(online_violation_kind k) const { return count_by_kind[static_cast<std::size_t>(k)]; }
};

online_trace_report check_online_trace(const online_instance& instance, const online_trace& trace,
                                       std::size_t max_witnesses = 10);
std::string describe(const online_trace_report& report);

}  // namespace dancecard::online
