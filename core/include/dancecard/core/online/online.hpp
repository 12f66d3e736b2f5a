// On-line h-relations under contention (Adler, Byers, Karp, "Scheduling parallel communication: the h-relation
// problem"): n processors, each with a list of messages to send; in every round a processor sends at most one
// message and receives at most one. What happens to colliding messages is the contention discipline:
//   ocpc      — two or more messages to one receiver in a round are all lost (senders must retransmit);
//   arbitrary — the receiver takes one of them, chosen at random; the others are lost; senders learn the outcome;
//   fifo      — messages queue at the receiver, which takes the head each round; a sender is stalled (cannot send)
//               while its message waits in a queue;
//   priority  — as fifo, but the receiver takes the message of highest priority.
// Protocols use only on-line knowledge: a processor knows h, n and its own messages' destinations (and, under ocpc
// and arbitrary, whether its last transmission arrived).
//
//   auto instance = dancecard::online::total_exchange(64);
//   auto run = dancecard::online::simulate_online(instance, {.discipline = dancecard::online::contention::fifo,
//                                                    .protocol = dancecard::online::online_protocol::fifo_staged}, 7);
//   run.finished && run.rounds > 0   // run.trace holds every send and delivery, for checkers/online_trace_check
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dancecard/core/dance/schedule.hpp"

namespace dancecard::online {

struct online_message {
  rank src = 0, dst = 0;
  friend bool operator==(const online_message&, const online_message&) = default;
};

/// n processors and their messages (several messages may share a source and destination).
class online_instance {
 public:
  /// require: processors >= 1; every message src != dst, both < processors (std::invalid_argument otherwise).
  online_instance(rank processors, std::vector<online_message> messages);
  rank processors() const noexcept { return processors_; }
  const std::vector<online_message>& messages() const noexcept { return messages_; }
  /// The most messages any processor sends, or receives.
  std::uint64_t h() const;

 private:
  rank processors_;
  std::vector<online_message> messages_;
};

/// h random permutations: every processor sends exactly h and receives exactly h messages (self-messages are
/// re-drawn). require: n >= 2.
online_instance random_online_relation(rank n, std::uint64_t h, std::uint64_t seed);
/// Every ordered pair (i, j), i != j, one message: an (n − 1)-relation (the paper's Section 7 experiments).
online_instance total_exchange(rank n);
/// Theorem 1's difficult h-relation: processor 0 sends to j_1..j_h; each j receives h − 1 more messages from
/// distinct blocking processors; each blocking processor sends h messages, its other h − 1 to fresh processors.
/// Processors: 1 + h + h(h − 1) + h(h − 1)². require: 2 <= h <= 40.
online_instance difficult_relation(std::uint64_t h);

enum class contention { ocpc, arbitrary, fifo, priority };
std::string_view to_string(contention c);

enum class online_protocol {
  ggt,       // ocpc (also valid under arbitrary): Geréb-Graus–Tsantilas phases, parameter epsilon
  weighted,  // arbitrary: Theorem 10's stages, send to j with probability 1 − exp(−d_ij / h_{k−1}), parameter beta
  equal,     // arbitrary: every round a uniformly random unsent message (the equal-probability baseline)
  fifo_staged,      // fifo (also priority): Theorem 4's stages of K·h_{i−1} rounds, parameters K and mu
  random_priority,  // priority: random priorities, each processor sends in decreasing priority
};
std::string_view to_string(online_protocol p);
/// The discipline and the protocol by the names to_string gives them; nullopt for another name.
std::optional<contention> parse_contention(std::string_view name);
std::optional<online_protocol> parse_online_protocol(std::string_view name);
/// The paper's protocol for a discipline: ggt (ocpc), weighted (arbitrary), fifo-staged (fifo), random-priority
/// (priority).
online_protocol paper_protocol(contention c);
/// Whether protocol p is defined for discipline c (ggt: ocpc, arbitrary; weighted, equal: arbitrary; fifo-staged:
/// fifo, priority; random-priority: priority).
bool runs_under(contention c, online_protocol p);

struct online_options {
  contention discipline = contention::fifo;
  online_protocol protocol = online_protocol::fifo_staged;
  double epsilon = 0.25;  // ggt
  double beta = 0.1;      // weighted
  double K = 2.5;         // fifo_staged: stage length K·h_{i−1}
  double mu = 0.267;      // fifo_staged: h_i = mu·h_{i−1}
  bool keep_trace = true;
  std::uint64_t max_rounds = 0;  // 0: 100·h + 10,000
};

/// One transmission: in `round`, message `message` left its source (with `priority` under the priority
/// discipline). Deliveries: in `round`, message `message` reached its destination.
struct online_send {
  std::uint64_t round = 0;
  std::uint32_t message = 0;
  std::uint64_t priority = 0;
};
struct online_delivery {
  std::uint64_t round = 0;
  std::uint32_t message = 0;
};
struct online_trace {
  contention discipline = contention::fifo;
  std::vector<online_send> sends;           // in round order
  std::vector<online_delivery> deliveries;  // in round order
};

struct online_run {
  bool finished = false;     // every message delivered within max_rounds
  std::uint64_t rounds = 0;  // the round after the last delivery (rounds are numbered from 0)
  std::uint64_t transmissions = 0;
  online_trace trace;
};

/// Runs `options.protocol` under `options.discipline`, seeded: the same seed gives the same trace.
/// require: the protocol is valid for the discipline (std::invalid_argument otherwise).
online_run simulate_online(const online_instance& instance, const online_options& options, std::uint64_t seed);

}  // namespace dancecard::online
