// Hamilton decompositions of small tori by SAT search: d edge-disjoint Hamiltonian cycles where no explicit
// construction is built (odd sizes in 2-D, d = 3). CaDiCaL finds an edge colouring in which every colour is a
// 2-factor; a colour class with several cycles gets a cut: some edge of that colour must leave the vertex set of one
// of its cycles (true of every Hamiltonian cycle, so no solution is lost); repeated until every class is one cycle.
//
//   auto r = dancecard::torus::search_hamilton_decomposition(dancecard::torus::network({5, 7}), 10'000);
//   if (r.system) /* checkers/torus_check: check_cycle_system(*r.system, 0) holds, every cycle has P PUs */;
#pragma once

#include <optional>
#include <string>

#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::torus {

struct hamilton_search_result {
  solver_answer answer = solver_answer::unknown;  // sat: found; unsat: no decomposition exists; unknown: budget
  std::optional<cycle_system> system;
  std::uint64_t cuts = 0;  // subtour cuts added
  double seconds = 0;
  std::string reason;
};

/// require: every n_j >= 3 (so that the torus is a simple 2d-regular graph), at most 4096 PUs.
hamilton_search_result search_hamilton_decomposition(const torus::network& network, unsigned budget_ms);

}  // namespace dancecard::torus
