// Supply of off-cycle packets along a cycle system with the fewest steps, by SAT (Section 4.3.4 and its Table 1, for
// any cycle system, closed trails included). A PU off cycle c gets c's packets over links no cycle
// uses: from an adjacent PU on c (delay 1, "direct"), or relayed by an adjacent PU that gets them directly over one
// of its own free links (delay 2). One CNF holds both choices: which free link brings which cycle, directly or by
// which relay (at most one per link), and, per direct supplying link and step, the direction of the cycle it forwards
// (time_independent: one direction; one_switch: at most one change; scheduled: any sequence). Every PU must hold every
// packet within `steps` — along a cycle through both, or on a stream — and get every cycle it is off running in both
// directions (the locality check_supply asks). CaDiCaL solves it; a model is decoded into a routing table and
// simulated (checkers/torus_check) before it counts. An unsat answer is CaDiCaL's — with a checked DRAT proof when
// options.certify — and speaks of this class of supplies only, never of routings in general.
//
//   auto system = dancecard::torus::zigzag_cycles(dancecard::torus::network({4, 4, 4, 5}));
//   auto r = dancecard::torus::best_cycle_supply(system, dancecard::torus::supply_policy::scheduled, 60'000);
//   if (r.table) /* simulate_gossip(*r.table).steps == r.steps == 73 <= Theorem 7's bound 74 */;
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::torus {

/// What the found supply uses: free links bringing a cycle directly, by a relay, or nothing.
struct supply_assignment {
  std::uint64_t direct_links = 0, relay_links = 0, idle_links = 0;
  std::uint64_t single_stream = 0;  // (PU, cycle it is off) pairs served by one stream only
};

struct supply_search_result {
  solver_answer answer = solver_answer::unknown;  // sat: `table` completes within `steps` (simulated);
                                                  // unsat: no supply of this class does (CaDiCaL; certified if asked)
  std::optional<routing_table> table;
  std::uint64_t steps = 0;  // sat: the simulated step count; otherwise the steps asked (the largest, for best_*)
  supply_assignment assignment;
  std::uint64_t queries = 0;
  std::string below;  // best_cycle_supply, sat: the answer one step below ("" when steps = 1 or nothing was asked)
  double seconds = 0;
  std::string reason;
};

struct supply_search_options {
  bool locality = true;  // false: leave out the both-directions clauses (gossip only)
  bool certify = false;  // unsat only with a DRAT proof that checkers/drat_check accepts (slower; else answer unknown)
};
/// "Is there a supply over free links (direct or one relay) with a direction schedule of the policy under which every
/// PU holds every packet within `steps`?" A closed trail that passes a PU several times is allowed (Section 4.3's
/// zigzags): that PU forwards both ways on every pass, and as a supplier chooses a pass and a direction. Throws
/// std::invalid_argument when a PU lies on no cycle or a link is used twice.
supply_search_result schedule_cycle_supply(const cycle_system& system, std::uint64_t steps, supply_policy policy,
                                           unsigned budget_ms, const supply_search_options& options = {});

/// The fewest steps for this class of supplies: asks steps = ⌈(m − 1)/2⌉ for the longest cycle, then downward while sat
/// or upward while unsat (up to max_steps, 0: twice the longest cycle), within budget_ms overall, each query with a
/// share of what is left (a quarter for the first, half for the others, all for the last candidate). When a query runs
/// out of time, step counts further up are asked at doubling gaps until one is sat, then the gap to the greatest step
/// count without a table is halved until it closes or the budget is spent. The answer is the least sat step count's
/// (its simulated table), unknown or unsat when none was sat — then `reason` is the last query's. A sat result's
/// `below` gives the query one step lower: unsat (least for the class; with a checked DRAT proof when
/// options.certify), unknown (not proven least), or "" when it was not asked (not proven least either).
supply_search_result best_cycle_supply(const cycle_system& system, supply_policy policy, unsigned budget_ms,
                                       std::uint64_t max_steps = 0, const supply_search_options& options = {});

namespace detail {
/// best_cycle_supply's walk over step counts with the query as a parameter (tests script its answers): starts at
/// `first`, caps at max_steps, jumps `gap` (doubling) after a query out of time; query(steps, budget_ms) must be
/// monotone in steps as far as it answers sat or unsat.
supply_search_result search_least_supply(std::uint64_t first, std::uint64_t max_steps, std::uint64_t gap,
                                         unsigned budget_ms,
                                         const std::function<supply_search_result(std::uint64_t, unsigned)>& query);
}  // namespace detail

}  // namespace dancecard::torus
