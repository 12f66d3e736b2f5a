// Checks a collective schedule against its collective, network and port model, step by step, in time linear in the
// transfers (plus the state: n·K codes of 16 bits, recoded in one pass every 32,766 steps, or n·K·n bits for the
// combining collectives, K chunks):
//   - every transfer runs over a link, within the link's capacity times the step's rounds;
//   - the port model: one-port full duplex, one peer to send to and one to receive from per step; half duplex, one
//     partner per step; simplex, one link one way (a rank sends or receives);
//   - moves: a chunk moved away is no longer held by its sender after the step, and is moved at most once a step;
//   - causality: a rank sends only a chunk it holds when the step begins (all transfers of a step read the values
//     held at its start);
//   - no two writes of one chunk at one rank in a step that disagree (two reductions combine; two copies of the same
//     value are redundant, not a conflict);
//   - contributions: a reduction that would add a rank's contribution a second time is a violation, as is a reduction
//     in a collective that does not combine;
//   - the postcondition: every rank holds every chunk it wants, with every contribution (combining collectives).
// The report carries the figures (steps, rounds, transfers, the busiest link) and two lower bounds that hold for any
// schedule on the network: steps >= the farthest distance a chunk (or a contribution) must travel, and under one port
// >= ⌈log2 n⌉ (what a rank holds comes from at most twice as many ranks each step); rounds >= the most chunks a rank
// must receive over what its in-links (one port: its widest in-link) carry per round, and for up to 16 ranks the same
// over every cut of the network: the chunks that must leave a set of ranks over what its links out carry per round
// (non-combining collectives).
//
//   auto r = dancecard::collective::check_collective_schedule(dancecard::collective::ring_allgather(8));  // holds
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "dancecard/checkers/report.hpp"
#include "dancecard/core/collective/schedule.hpp"

namespace dancecard::collective {

enum class collective_violation_kind {
  out_of_range,          // a transfer names a rank or a chunk that does not exist, or a rank sends to itself
  not_a_link,            // from -> to is no link of the network
  over_capacity,         // more chunks over from -> to in the step than capacity × rounds
  port_conflict,         // the port model is broken: a second peer (`other` names it)
  not_held,              // from sends a chunk it does not hold at the start of the step
  write_conflict,        // two writes of one chunk at one rank in one step that disagree: different values, or a
                         // copy beside a reduction (reductions combine; two copies of one value are only redundant)
  double_counted,        // a reduction would count the contribution of rank `other` twice
  reduce_forbidden,      // a reduction in a collective that does not combine
  missing,               // at the end, rank `to` lacks chunk `chunk`
  missing_contribution,  // at the end, rank `to`'s chunk `chunk` lacks the contribution of rank `other`
  redundant,             // (exact) a copy brings rank `to` the value of chunk `chunk` it already holds, or brings
                         // it twice in one step
  moved_twice,           // a second move of one chunk from one rank in one step (`other`: the first move's place)
};
inline constexpr std::size_t collective_violation_kind_count = 12;
std::string_view to_string(collective_violation_kind kind);

/// Steps are numbered from 0, transfers within a step from 0; `step` is the number of steps for the postcondition's
/// kinds (missing, missing_contribution).
struct collective_violation {
  collective_violation_kind kind{};
  std::size_t step = 0, index = 0;  // the step and the transfer's place in it
  std::uint64_t chunk = 0;
  rank from = 0, to = 0;
  rank other = 0;
};
std::string describe(const collective_violation& v);

struct collective_report : report<collective_violation> {
  std::array<std::uint64_t, collective_violation_kind_count> count_by_kind{};
  std::uint64_t count(collective_violation_kind k) const { return count_by_kind[static_cast<std::size_t>(k)]; }
  std::uint64_t steps = 0, rounds = 0, transfers = 0;
  std::uint64_t busiest_link_chunks = 0;  // the most chunks one link carries over the whole schedule
  rank busiest_from = 0, busiest_to = 0;
  // Lower bounds for any schedule of this collective on this network (0: not computed — where the searches would
  // visit more than 2^27 links for the steps; combining collectives for the rounds); unreachable: some chunk can never
  // reach a rank that wants it.
  std::uint64_t step_bound = 0, round_bound = 0;
  /// The cut that gives round_bound, as a set of ranks (bit r: rank r inside; the chunks from inside to outside bound
  /// the rounds); 0 where not recorded (more than 32 ranks).
  std::uint32_t round_bound_cut = 0;
  bool unreachable = false;
};

struct collective_check_options {
  std::size_t max_witnesses = 10;
  // A copy that brings a rank the value it already holds is a violation too: the dance-party and h-relation papers'
  // "exactly once" (collective/adapters.hpp). Off, such a transfer only wastes its link.
  bool exact = false;
};
/// require (std::invalid_argument): a valid collective (require_valid) whose ranks are the network's, and a state
/// of at most 2^31 bytes.
collective_report check_collective_schedule(const schedule& s, const collective_check_options& options = {});
std::string describe(const collective_report& report);

}  // namespace dancecard::collective
