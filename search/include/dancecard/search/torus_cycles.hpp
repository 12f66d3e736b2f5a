// Hamilton decompositions of tori found by search rather than built by a construction of the papers: for the tori
// that no construction in core/torus/cycles.hpp covers, or to compare against them. Every result is walked; none is a
// proof that the search always succeeds.
//
//   if (auto system = dancecard::torus::switch_search_decomposition(dancecard::torus::network({3, 5, 7})))
//     assert(dancecard::torus::check_cycle_system(*system).holds());
#pragma once

#include <cstdint>
#include <optional>

#include "dancecard/core/torus/cycles.hpp"

namespace dancecard::torus {

/// d edge-disjoint Hamiltonian cycles of any torus with every n_j >= 3, by randomized square switches (Kotzig's
/// merging generalised): class k starts as the rings along x_k; switching a unit square in the (x_k, x_l) plane whose
/// x_k links are of one class and x_l links of another keeps every class a 2-factor and, when a class's two links lie
/// on different cycles, merges them. First every switch that merges in both classes; then switches that lower the
/// total number of cycles, and (three times in ten) ones that keep it, in rounds over the squares in a seeded random
/// order; an attempt that gets stuck (a round changes nothing) or runs out of max_rounds restarts from the rings with
/// another seed, up to 20 attempts. Not a proof that it always succeeds: none (std::nullopt) when every attempt
/// fails; a result is walked and must be d Hamiltonian cycles. Deterministic for a seed.
/// require (std::invalid_argument): every n_j >= 3.
std::optional<cycle_system> switch_search_decomposition(const torus::network& network, std::uint64_t seed = 1,
                                                        std::uint64_t max_rounds = 100);

}  // namespace dancecard::torus
