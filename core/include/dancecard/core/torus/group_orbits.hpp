// The building blocks of the searches over invariant tables (the SAT queries in smt/, the tabu search in search/):
// a group's orbits on the PUs with the port relabellings that carry a PU's rule to its orbit's least PU, the port
// relabellings of the automorphisms that fix PU 0, and which groups contain conjugates of which. Installed for those
// libraries; not a stable interface (namespace detail).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "dancecard/core/torus/symmetry.hpp"

namespace dancecard::torus::detail {

/// The port relabellings σ of the automorphisms that fix PU 0: a permutation π of the dimensions that keeps every
/// size (n_π(j) = n_j) together with a reflection x_j → −x_j for each j in a sign set; σ(2j + b) = 2π(j) + (b xor s_j)
/// (port 2j is +x_j, 2j + 1 is −x_j). Every such map, followed by any translation, is an automorphism of the
/// port-labelled torus (also where n_j = 2, where +x_j and −x_j lead to the same PU over two links). The identity
/// comes first.
std::vector<std::vector<std::uint32_t>> port_relabellings(const torus::network& network);

/// The class of the translation subgroup H (its elements as PUs: translation by a PU's coordinates moves PU 0 there)
/// under conjugation by the torus's automorphisms: the least, over the port relabellings σ, of the sorted A_σ·H.
/// Conjugating by a translation keeps H, so the relabellings alone give the whole class.
std::vector<pu_index> translation_class_key(const torus::network& network,
                                            const std::vector<std::vector<std::uint32_t>>& relabellings,
                                            const std::vector<pu_index>& subgroup);

struct group_orbits {
  std::vector<pu_index> orbit;  // orbit[pu]: the least PU of pu's orbit
  // port_map[pu][o]: port o of pu is port port_map[pu][o] of orbit[pu] (σ⁻¹ of an element mapping orbit[pu] to pu)
  std::vector<std::vector<std::uint32_t>> port_map;
  // preimage[pu][a]: g⁻¹(a) for that same element g (mapping orbit[pu] to pu) — P² entries
  std::vector<std::vector<pu_index>> preimage;
  // stabilizer[r] for an orbit's least PU r: the port relabellings of the elements other than the identity that fix r
  std::vector<std::vector<std::vector<std::uint32_t>>> stabilizer;
  std::uint64_t order = 0;  // the group's order
  // The normalizer N of the group G (the automorphisms ψ = τ ∘ ρ of the torus with ψ G ψ⁻¹ = G), one element per left
  // coset ψG other than G itself, each as (σ_ψ, ψ⁻¹(0)): ψ carries a G-invariant table A to a G-invariant table whose
  // rule at PU 0 is σ_ψ·A_ψ⁻¹(0), and ψ, ψg (g in G) carry A to the same table. For the symmetry break of
  // torus_symmetric_cnf.
  std::vector<std::pair<std::vector<std::uint32_t>, pu_index>> normalizer;
};
group_orbits orbits_of(const torus::network& network, const std::vector<torus_automorphism>& generators);

/// point_subgroups and mixed_subgroups as listed groups, each with its order (known from the enumeration, so the
/// search's list needs no closure of its own).
std::vector<torus_symmetry_group> point_groups(const torus::network& network);
std::vector<torus_symmetry_group> mixed_groups(const torus::network& network);

/// An automorphism of the torus as a graph, its port relabelling possibly different at every PU: map[pu] is its image,
/// ports[pu][o] the port of map[pu] whose link is the image of pu's link o.
struct local_automorphism {
  std::vector<pu_index> map;
  std::vector<std::vector<std::uint32_t>> ports;
};

/// The automorphisms fixing PU 0 that the port relabellings miss, where m >= 2 sides are 4: C4 is the 4-cycle Q2 (the
/// Gray code 0, 1, 2, 3 -> 00, 01, 11, 10 along a side of 4; a step of ±1 flips one bit), so the product of those m
/// sides is the hypercube Q_2m, and every permutation of its 2m bits, the other coordinates kept, is an automorphism of
/// the torus that fixes PU 0 — and of the port-labelled question, whose rules a per-PU port relabelling carries as a
/// uniform one does (the links are mapped to links). At PU 0 they permute the 2m ports of those sides in every way:
/// (2m)! relabellings where the signed permutations give 2^m·m! (2 × 4 × 4: 24 against 8). Each bit permutation
/// once, the identity first; empty when fewer than two sides are 4.
std::vector<local_automorphism> hypercube_stabilizer(const torus::network& network);

/// A_σ·pu: pu's coordinates moved by the linear part of the port relabelling σ (a signed permutation of the axes
/// keeping sizes, as port_relabellings gives).
pu_index linear_image(const torus::network& network, const std::vector<std::uint32_t>& sigma, pu_index pu);

/// The groups of invariant_group_list as sets of automorphisms, to tell when one contains a conjugate of another: then
/// a table invariant under the larger group is invariant under that conjugate, so when no table invariant under the
/// smaller group completes (nor, moving tables by the conjugator, under any of its conjugates), none invariant under
/// the larger one does. For tori of at most 256 PUs (the invariant searches'); beyond, nothing is ever contained. It
/// keeps a reference to the torus, which must outlive it.
class group_containment {
 public:
  group_containment(const torus::network& network, const std::vector<torus_symmetry_group>& list);
  ~group_containment();
  group_containment(group_containment&&) noexcept;
  group_containment& operator=(group_containment&&) noexcept;
  /// Some automorphism ψ (a translation after a port relabelling) has ψ · list[small] · ψ⁻¹ ⊆ list[big], and
  /// list[small] is the smaller group. Checked on list[small]'s generators against list[big]'s elements.
  bool contains_conjugate(std::size_t big, std::size_t small) const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace dancecard::torus::detail
