// Symmetries of a network: rank permutations that map every link onto a link of the same capacity (automorphisms).
// smt/collective_synthesis looks first for a schedule that the network's translations (on other networks, its
// automorphisms) map onto itself — far fewer free choices, and any schedule it finds is still judged by the collective
// checker — while every refutation stays a refutation of the whole model (an invariant schedule is only one of the
// schedules).
//
//   auto gens = dancecard::collective::translations(dancecard::collective::hypercube_topology(4));
//   gens.size() == 4   // r -> r xor 1, r xor 2, r xor 4, r xor 8
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dancecard/core/collective/topology.hpp"

namespace dancecard::collective {

/// A permutation of the ranks: perm[r] is where rank r goes.
using rank_permutation = std::vector<rank>;

/// Whether `perm` is a permutation of the network's ranks that maps each link (a, b, capacity) onto the link
/// (perm[a], perm[b]) of the same capacity.
bool is_automorphism(const topology& network, const rank_permutation& perm);

/// Generators of the translations of a built-in network, recognised by its name and kept only where
/// is_automorphism holds for the network given: ring:N and complete:N, r -> r + 1 mod N; hypercube:D, r -> r xor 2^j
/// for each j; torus:AxB…, a step along each dimension. The group they generate moves rank 0 to every rank (it acts
/// transitively), so a schedule it leaves unchanged is fixed by what it does with the chunks of rank 0. Empty for
/// other networks (dgx1, files) and for one rank.
std::vector<rank_permutation> translations(const topology& network);

/// The group `generators` make, one element per rank — out[v] the element that takes rank 0 to v — when it acts
/// regularly on the n ranks: exactly one element takes rank 0 to each rank (the translations of a ring, complete graph,
/// hypercube or torus do). Then a schedule the group leaves unchanged is rank 0's part of it moved by out[v] for every
/// v. nullopt where some rank is not reached from 0, or where two elements take 0 to the same rank (a reflection of a
/// ring among the generators, say), or where a generator is not a permutation of n ranks.
std::optional<std::vector<rank_permutation>> regular_elements(const std::vector<rank_permutation>& generators, rank n);

/// The most ranks automorphism_generators searches (a capacity matrix of n² entries).
inline constexpr rank max_automorphism_ranks = 256;

/// Generators of the whole automorphism group of any network (dgx1, files, built-ins), found by a stabiliser chain:
/// for each rank b from the last to the first, an automorphism that fixes 0 … b − 1 and takes b to each rank of its
/// orbit not yet reached. Each generator is an automorphism; together they make the whole group, unless the search
/// spends `max_nodes` nodes first (then a subgroup). Empty where only the identity is, for one rank, and above
/// max_automorphism_ranks. DGX-1's group has order 4: it keeps the 8-cycle of doubled NVLinks (0 1 3 2 6 7 5 4) and
/// turns it half round, or reflects it.
std::vector<rank_permutation> automorphism_generators(const topology& network, std::uint64_t max_nodes = 1'000'000);

}  // namespace dancecard::collective
