// Checks of the two structures the h-relation schedules are built from, for tests, the theorem book and users:
// an edge colouring of a bipartite multigraph, and an Euler orientation of an h-relation. Each returns "" when the
// structure is right, or one sentence saying what is wrong.
#pragma once

#include <string>
#include <vector>

#include "dancecard/core/hrel/edge_coloring.hpp"
#include "dancecard/core/hrel/instance.hpp"

namespace dancecard::hrel {

/// Exactly Δ classes, each a matching, every edge in exactly `multiplicity` classes.
std::string edge_coloring_problem(const bipartite_multigraph& graph,
                                  const std::vector<std::vector<std::size_t>>& classes);

/// Weights sum to Δ, each class a matching, every edge covered exactly `multiplicity` times counted with weight.
std::string weighted_decomposition_problem(const bipartite_multigraph& graph,
                                           const std::vector<weighted_matching>& classes);

/// forward[m] packets of message m oriented src → dst, the rest back: every PE at most ⌈h/2⌉ out and in.
std::string orientation_problem(const hrel_instance& instance, const std::vector<std::uint64_t>& forward);

}  // namespace dancecard::hrel
