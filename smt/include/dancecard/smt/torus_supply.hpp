// Supply of off-cycle packets along a cycle system with the fewest steps, by SAT (Section 4.3.4 and its Table 1, for
// any cycle system whose PUs lie at most once on each cycle). A PU off cycle c gets c's packets over links no cycle
// uses: from an adjacent PU on c (delay 1, "direct"), or relayed by an adjacent PU that gets them directly (delay 2).
// Which free link carries which cycle, and which direct stream a relay passes on, is a relay assignment found first
// (every needed cycle two streams where the free links allow, directs preferred); then CaDiCaL chooses, per direct
// supplying link and step, the direction of the cycle it forwards, so that every PU has every needed cycle's packets
// within `steps`. The answer is decoded into a routing table and simulated (checkers/torus_check) before it counts.
//
//   auto system = dancecard::zigzag_cycles(dancecard::torus({4, 4, 4, 5}));
//   auto r = dancecard::best_cycle_supply(system, dancecard::supply_policy::one_switch, 60'000);
//   if (r.table) /* simulate_gossip(*r.table).steps == r.steps <= Theorem 7's bound */;
#pragma once

#include <optional>
#include <string>

#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard {

/// The relay assignment: for every PU and free in-port, the cycle whose packets arrive on it and whether directly.
struct supply_assignment {
  std::uint64_t direct_links = 0, relay_links = 0, idle_links = 0;
  std::uint64_t single_stream = 0;  // (PU, needed cycle) pairs that get one stream only (the free links allow no more)
};

struct supply_search_result {
  solver_answer answer = solver_answer::unknown;  // sat: `table` completes within `steps` (simulated);
                                                  // unsat: no direction schedule of the policy does, for this
                                                  // assignment (not a statement about other routings)
  std::optional<routing_table> table;
  std::uint64_t steps = 0;  // sat: the simulated step count; otherwise the steps asked (the largest, for best_*)
  supply_assignment assignment;
  std::uint64_t queries = 0;
  double seconds = 0;
  std::string reason;
};

/// "Is there a direction schedule of the policy (time_independent: every supplying link forwards one direction;
/// one_switch: it may change once; scheduled: any sequence) under which every PU has every packet of every needed
/// cycle within `steps`?" Throws std::invalid_argument when a PU lies twice on one cycle, lies on no cycle, or has a
/// needed cycle that no free link can bring (directly or by one relay).
supply_search_result schedule_cycle_supply(const cycle_system& system, std::uint64_t steps, supply_policy policy, unsigned budget_ms);

/// The fewest steps: asks steps = ⌈(m − 1)/2⌉ for the longest cycle (the circulation on it) and upward, up to
/// max_steps (0: twice the longest cycle), within budget_ms overall; the first answer whose simulated table completes
/// within the steps asked.
supply_search_result best_cycle_supply(const cycle_system& system, supply_policy policy, unsigned budget_ms, std::uint64_t max_steps = 0);

}  // namespace dancecard
