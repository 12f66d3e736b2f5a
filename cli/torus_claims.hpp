// What the torus paper's theorem-book rows share (torus_claims.cpp, torus_zigzag_claims.cpp, torus_sat_claims.cpp).
#pragma once

#include <algorithm>
#include <string>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/cycles.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;

// "" when the system is d pairwise edge-disjoint Hamiltonian cycles and gossip with d packets per PU along them takes
// floor(P/2) steps exactly; otherwise what is wrong.
inline std::string hamilton_problem(const cycle_system& system) {
  const torus::network& t = system.network;
  const cycle_system_report cycles = check_cycle_system(system, 0);
  if (!cycles.holds() || cycles.lengths.size() != t.dimension() ||
      std::any_of(cycles.lengths.begin(), cycles.lengths.end(), [&](std::uint64_t l) { return l != t.size(); }))
    return t.name() + ": " + describe(cycles);
  const gossip_report run =
      simulate_gossip(cycle_routing(system, supply_policy::time_independent, packets_per_pu::per_cycle));
  if (!run.holds() || run.steps != t.size() / 2)
    return t.name() + ": " + std::to_string(run.steps) + " steps, not floor(P/2)";
  return "";
}

}  // namespace dancecard
