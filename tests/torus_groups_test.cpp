// Symmetry groups of tori against brute force (containment, one group per class, the hypercube stabilizer), and the
// tables invariant under point and mixed groups.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/group_orbits.hpp"  // smt/src: which listed group holds a conjugate of which
#include "dancecard/core/torus/torus.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "torus_test_support.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

using namespace torus_test;

// The automorphisms of a small port-labelled torus by brute force, for the group tests below: each as (the map on
// PUs, the port relabelling), composed and inverted here; all of them are each signed permutation of the axes keeping
// sizes (port 2j + b -> 2π(j) + (b xor s_j)), then each shift.
struct brute_automorphisms {
  using element = std::pair<std::vector<pu_index>, std::vector<std::uint32_t>>;  // PU map, port relabelling
  const torus::network& t;
  std::vector<std::uint32_t> identity_ports;
  std::vector<element> all;
  explicit brute_automorphisms(const torus::network& network) : t(network), identity_ports(network.ports()) {
    const std::uint32_t d = t.dimension();
    for (std::uint32_t p = 0; p < 2 * d; ++p) identity_ports[p] = p;
    std::vector<std::uint32_t> perm(d);
    for (std::uint32_t j = 0; j < d; ++j) perm[j] = j;
    do {
      bool keeps = true;
      for (std::uint32_t j = 0; j < d; ++j) keeps = keeps && t.dims()[perm[j]] == t.dims()[j];
      if (!keeps) continue;
      for (std::uint32_t signs = 0; signs < (1u << d); ++signs) {
        std::vector<std::uint32_t> ports(2 * d);
        for (std::uint32_t j = 0; j < d; ++j)
          for (std::uint32_t b = 0; b < 2; ++b) ports[2 * j + b] = 2 * perm[j] + (b ^ ((signs >> j) & 1u));
        for (pu_index v = 0; v < t.size(); ++v) all.push_back(of({ports, t.coordinates(v)}));
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  element of(const torus_automorphism& phi) const {
    element e{std::vector<pu_index>(t.size()), phi.ports};
    for (pu_index pu = 0; pu < t.size(); ++pu) e.first[pu] = apply_automorphism(t, phi, pu);
    return e;
  }
  element translation(const std::vector<std::uint32_t>& shift) const { return of({identity_ports, shift}); }
  element compose(const element& second, const element& first) const {  // second ∘ first
    element e{std::vector<pu_index>(t.size()), std::vector<std::uint32_t>(t.ports())};
    for (pu_index pu = 0; pu < t.size(); ++pu) e.first[pu] = second.first[first.first[pu]];
    for (std::uint32_t p = 0; p < t.ports(); ++p) e.second[p] = second.second[first.second[p]];
    return e;
  }
  element inverse(const element& g) const {
    element e{std::vector<pu_index>(t.size()), std::vector<std::uint32_t>(t.ports())};
    for (pu_index pu = 0; pu < t.size(); ++pu) e.first[g.first[pu]] = pu;
    for (std::uint32_t p = 0; p < t.ports(); ++p) e.second[g.second[p]] = p;
    return e;
  }
  std::set<element> closure(const std::vector<element>& generators) const {
    std::set<element> closed{translation(std::vector<std::uint32_t>(t.dimension(), 0))};
    std::vector<element> frontier(closed.begin(), closed.end());
    while (!frontier.empty()) {
      const element e = frontier.back();
      frontier.pop_back();
      for (const element& gen : generators)
        if (element next = compose(gen, e); closed.insert(next).second) frontier.push_back(std::move(next));
    }
    return closed;
  }
  // the generators of a listed group (its translations' shifts, or its automorphisms)
  std::vector<element> generators_of(const torus_symmetry_group& g) const {
    std::vector<element> gens;
    for (const auto& shift : g.translations) gens.push_back(translation(shift));
    for (const torus_automorphism& a : g.automorphisms) gens.push_back(of(a));
    return gens;
  }
  // the class of a group under conjugation: the least sorted ψ G ψ⁻¹ over every automorphism ψ
  std::vector<element> class_key(const std::set<element>& group) const {
    std::vector<element> best;
    for (const element& psi : all) {
      const element psi_inverse = inverse(psi);
      std::vector<element> image;
      for (const element& g : group) image.push_back(compose(compose(psi, g), psi_inverse));
      std::sort(image.begin(), image.end());
      if (best.empty() || image < best) best = std::move(image);
    }
    return best;
  }
};

// detail::group_containment against brute force (brute_automorphisms): every group of the list closed under
// composition, and every automorphism ψ tried as the conjugator of the smaller group's generators. The lists with the
// mixed groups on the smaller tori (a mixed group may hold a conjugate of a translation group, of a point group or of
// another mixed group).
TEST(torus_groups, containment_of_conjugates_against_brute_force) {
  using element = brute_automorphisms::element;
  for (const char* dims : {"3x3", "4x4", "3x4", "6x6", "2x3x3"}) {
    const torus::network t = torus::network::parse(dims);
    const brute_automorphisms b(t);
    const bool mixed = t.dimension() == 2 && t.size() <= 16;
    const std::vector<torus_symmetry_group> list =
        invariant_group_list(t, mixed ? invariant_groups::with_mixed : invariant_groups::all);
    std::vector<std::vector<element>> generators;
    std::vector<std::set<element>> elements;
    for (const torus_symmetry_group& g : list) {
      std::vector<element> gens = b.generators_of(g);
      std::set<element> closed = b.closure(gens);
      EXPECT_EQ(closed.size(), g.order) << dims << " " << describe(t, g);
      generators.push_back(std::move(gens));
      elements.push_back(std::move(closed));
    }
    const std::vector<element>& conjugators = b.all;
    const detail::group_containment containment(t, list);
    const std::size_t unmixed =
        invariant_group_list(t, invariant_groups::all).size();  // the mixed groups are numbered from here
    std::size_t contained = 0, mixed_over_translations = 0, mixed_over_point = 0;
    for (std::size_t big = 0; big < list.size(); ++big)
      for (std::size_t small = 0; small < list.size(); ++small) {
        bool expected = false;
        if (list[small].order < list[big].order)
          for (const element& psi : conjugators) {
            const element psi_inverse = b.inverse(psi);
            expected = std::all_of(generators[small].begin(), generators[small].end(), [&](const element& h) {
              return elements[big].count(b.compose(b.compose(psi, h), psi_inverse)) != 0;
            });
            if (expected) break;
          }
        ASSERT_EQ(containment.contains_conjugate(big, small), expected)
            << dims << ": " << describe(t, list[big]) << " / " << describe(t, list[small]);
        contained += expected ? 1 : 0;
        if (expected && big >= unmixed && small < unmixed)
          (list[small].automorphisms.empty() ? mixed_over_translations : mixed_over_point) += 1;
      }
    EXPECT_GT(contained, 0u) << dims;
    if (mixed) {
      EXPECT_GT(list.size(), unmixed) << dims;
      EXPECT_GT(mixed_over_translations, 0u) << dims;
      EXPECT_GT(mixed_over_point, 0u) << dims;
    }
  }
}

// mixed_subgroups against brute force (brute_automorphisms): every subgroup of the automorphisms — the joins of the
// cyclic ones, closed here — that holds a translation other than the identity and an element that is not a
// translation, one per class under conjugation by every automorphism. mixed_subgroups must give one group of each
// class and none twice, each of them mixed, the largest first; with_mixed lists all's groups, then these — one group of
// every class of non-trivial subgroups.
TEST(torus_groups, mixed_subgroups_one_per_class_against_brute_force) {
  using element = brute_automorphisms::element;
  for (const char* dims : {"3x3", "3x4", "3x5", "4x4"}) {
    const torus::network t = torus::network::parse(dims);
    const brute_automorphisms b(t);
    auto is_translation = [&](const element& e) { return e.second == b.identity_ports; };
    auto is_mixed = [&](const std::set<element>& g) {
      return std::count_if(g.begin(), g.end(), is_translation) > 1 && !std::all_of(g.begin(), g.end(), is_translation);
    };
    std::set<std::set<element>> subgroups, cyclic;
    for (const element& e : b.all) cyclic.insert(b.closure({e}));
    std::vector<std::set<element>> pending(cyclic.begin(), cyclic.end());
    subgroups.insert(cyclic.begin(), cyclic.end());
    while (!pending.empty()) {
      const std::set<element> base = std::move(pending.back());
      pending.pop_back();
      for (const std::set<element>& c : cyclic) {
        std::vector<element> generators(base.begin(), base.end());
        generators.insert(generators.end(), c.begin(), c.end());
        std::set<element> joined = b.closure(generators);
        if (subgroups.insert(joined).second) pending.push_back(std::move(joined));
      }
    }
    std::set<std::vector<element>> expected;
    for (const std::set<element>& g : subgroups)
      if (is_mixed(g)) expected.insert(b.class_key(g));
    const std::vector<std::vector<torus_automorphism>> found = mixed_subgroups(t);
    std::set<std::vector<element>> got;
    std::size_t previous_order = SIZE_MAX;
    for (const auto& generators : found) {
      std::vector<element> gens;
      for (const torus_automorphism& a : generators) gens.push_back(b.of(a));
      const std::set<element> g = b.closure(gens);
      EXPECT_TRUE(is_mixed(g)) << dims << " " << describe(t, generators);
      EXPECT_TRUE(got.insert(b.class_key(g)).second)
          << dims << ": conjugate to a group before it: " << describe(t, generators);
      EXPECT_LE(g.size(), previous_order) << dims;
      previous_order = g.size();
    }
    EXPECT_EQ(got, expected) << dims << ": " << got.size() << " classes found, " << expected.size()
                             << " by brute force";
    EXPECT_FALSE(expected.empty()) << dims;
    const std::vector<torus_symmetry_group> all = invariant_group_list(t, invariant_groups::all),
                                            with_mixed = invariant_group_list(t, invariant_groups::with_mixed);
    ASSERT_EQ(with_mixed.size(), all.size() + found.size()) << dims;
    for (std::size_t g = 0; g < all.size(); ++g) EXPECT_EQ(describe(t, with_mixed[g]), describe(t, all[g])) << dims;
    for (std::size_t g = 0; g < found.size(); ++g)
      EXPECT_EQ(with_mixed[all.size() + g].automorphisms, found[g]) << dims;
    // with the translation groups and the point groups, one group of every class of non-trivial subgroups, once
    std::set<std::vector<element>> every, listed;
    for (const std::set<element>& g : subgroups)
      if (g.size() > 1) every.insert(b.class_key(g));
    for (const torus_symmetry_group& g : with_mixed)
      EXPECT_TRUE(listed.insert(b.class_key(b.closure(b.generators_of(g)))).second) << dims << " " << describe(t, g);
    EXPECT_EQ(listed, every) << dims << ": " << listed.size() << " classes listed, " << every.size()
                             << " by brute force";
  }
  EXPECT_THROW(mixed_subgroups(torus::network({16, 17})), std::invalid_argument);
}

// The lists with the mixed groups on 3-D tori, where point_groups and mixed_groups conjugate by more relabellings than
// the 2-D tori above have (48 on 3 × 3 × 3): each group's order is its closure's, and no two groups of one order are
// conjugate — some automorphism ψ with ψ A ψ⁻¹ = B, tried on A's generators against B's elements by brute force — so
// no class is listed twice.
TEST(torus_groups, no_two_listed_groups_are_conjugate_on_3d_tori) {
  using element = brute_automorphisms::element;
  for (const char* dims : {"3x3x3", "2x3x3"}) {
    const torus::network t = torus::network::parse(dims);
    const brute_automorphisms b(t);
    const std::vector<torus_symmetry_group> list = invariant_group_list(t, invariant_groups::with_mixed);
    std::vector<std::vector<element>> generators;
    std::vector<std::set<element>> elements;
    for (const torus_symmetry_group& g : list) {
      generators.push_back(b.generators_of(g));
      elements.push_back(b.closure(generators.back()));
      EXPECT_EQ(elements.back().size(), g.order) << dims << " " << describe(t, g);
    }
    std::vector<element> inverses;
    for (const element& psi : b.all) inverses.push_back(b.inverse(psi));
    std::size_t pairs = 0;
    for (std::size_t a = 0; a < list.size(); ++a)
      for (std::size_t c = a + 1; c < list.size(); ++c) {
        if (list[a].order != list[c].order) continue;
        ++pairs;
        for (std::size_t k = 0; k < b.all.size(); ++k) {
          const bool conjugate = std::all_of(generators[a].begin(), generators[a].end(), [&](const element& h) {
            return elements[c].count(b.compose(b.compose(b.all[k], h), inverses[k])) != 0;
          });
          ASSERT_FALSE(conjugate) << dims << ": " << describe(t, list[a]) << " is conjugate to "
                                  << describe(t, list[c]);
        }
      }
    EXPECT_GT(pairs, 1000u) << dims;
  }
}

// detail::hypercube_stabilizer: on 4 × 4 and the 2 × 4 × 4 tori (sides of 4 in any place) the 24 bit permutations,
// each a bijection of the PUs fixing PU 0 that carries every link to a link (neighbour(x, o) to neighbour(map x,
// ports[x][o])), leaving the other sides' ports alone, relabelling PU 0's ports of the sides of 4 in 24 different ways
// (every permutation of them), the identity first; nothing where fewer than two sides are 4.
TEST(torus_groups, hypercube_stabilizer_permutes_the_ports_of_the_sides_of_4) {
  for (const char* dims : {"4x4", "2x4x4", "4x2x4", "4x4x2", "3x4x4"}) {
    const torus::network t = torus::network::parse(dims);
    const std::vector<detail::local_automorphism> list = detail::hypercube_stabilizer(t);
    ASSERT_EQ(list.size(), 24u) << dims;
    std::set<std::vector<std::uint32_t>> at_0;
    for (const detail::local_automorphism& a : list) {
      EXPECT_EQ(a.map[0], 0u) << dims;
      EXPECT_EQ(std::set<pu_index>(a.map.begin(), a.map.end()).size(), t.size()) << dims;
      for (pu_index x = 0; x < t.size(); ++x) {
        EXPECT_EQ(std::set<std::uint32_t>(a.ports[x].begin(), a.ports[x].end()).size(), t.ports()) << dims;
        for (std::uint32_t o = 0; o < t.ports(); ++o) {
          EXPECT_EQ(t.neighbor(a.map[x], a.ports[x][o]), a.map[t.neighbor(x, o)])
              << dims << " PU " << x << " port " << o;
          if (t.dims()[o / 2] != 4) {
            EXPECT_EQ(a.ports[x][o], o) << dims;
          }
        }
      }
      at_0.insert(a.ports[0]);
    }
    EXPECT_EQ(at_0.size(), 24u) << dims;
    for (pu_index x = 0; x < t.size(); ++x) {  // the identity first
      EXPECT_EQ(list.front().map[x], x) << dims;
      for (std::uint32_t o = 0; o < t.ports(); ++o) EXPECT_EQ(list.front().ports[x][o], o) << dims;
    }
  }
  for (const char* dims : {"4x5", "3x3", "2x2x4", "4x6x8"})
    EXPECT_TRUE(detail::hypercube_stabilizer(torus::network::parse(dims)).empty()) << dims;
}

// A group that contains a conjugate of a group answered unsat is unsat too, and is not asked. 4 x 4 general in 4 steps
// (its minimum is 5): asked smallest first, the translations by (0, 2) rule out the groups by (0, 1) (which holds
// (0, 2)) and all 16 translations, and the reflection x1 -> -x1 the point groups of orders 8 and 4 that hold it; the
// translations by (2, 2) and the point reflection, of the same orders as the groups refuted, are asked.
TEST(torus_sat, groups_holding_a_refuted_group_are_refuted) {
  const torus::network t({4, 4});
  const std::vector<torus_symmetry_group> list = invariant_group_list(t, invariant_groups::all);
  ASSERT_EQ(list.size(), 35u);
  EXPECT_EQ(describe(t, list[7]), "2 translations generated by (0,2)");
  EXPECT_EQ(describe(t, list[3]), "4 translations generated by (0,1)");
  EXPECT_EQ(describe(t, list[8]), "2 translations generated by (2,2)");
  EXPECT_EQ(describe(t, list[27]), "2 automorphisms generated by (x1, x2) -> (-x1, x2)");
  EXPECT_EQ(describe(t, list[13]), "4 automorphisms generated by (x1, x2) -> (-x1, x2); (x1, x2) -> (x1, -x2)");
  EXPECT_EQ(describe(t, list[31]), "2 automorphisms generated by (x1, x2) -> (-x1, -x2)");
  std::vector<invariant_group_answer> heard;
  const std::vector<std::size_t> order{7, 3, 0, 8, 27, 9, 13, 31};
  const torus_invariant_search_result r =
      search_invariant_table(t, torus_model::general, 4, 60'000,
                             {.groups = invariant_groups::all,
                              .certify = true,
                              .only = order,
                              .on_answer = [&](const invariant_group_answer& a) { heard.push_back(a); }});
  EXPECT_FALSE(r.table.has_value());
  EXPECT_EQ(r.unsat, 8u);
  EXPECT_EQ(r.asked, 8u);
  EXPECT_EQ(r.implied, 4u);
  EXPECT_EQ(r.queries, 4u);  // solver calls: 7, 8, 27, 31
  ASSERT_EQ(heard.size(), 8u);
  const std::vector<std::optional<std::size_t>> implied_by{std::nullopt, 7,  7,  std::nullopt,
                                                           std::nullopt, 27, 27, std::nullopt};
  for (std::size_t i = 0; i < heard.size(); ++i) {
    EXPECT_EQ(heard[i].group, order[i]);
    EXPECT_EQ(heard[i].answer, solver_answer::unsat);
    EXPECT_EQ(heard[i].implied_by, implied_by[i]) << order[i];
    EXPECT_EQ(heard[i].certified, !implied_by[i].has_value())
        << order[i];  // the DRAT proofs are the refuted groups' own
  }
  // largest first (the search's own order) every group is asked: nothing smaller was refuted before
  const torus_invariant_search_result largest_first =
      search_invariant_table(t, torus_model::general, 4, 60'000, {.groups = invariant_groups::all, .only = {0, 3, 7}});
  EXPECT_EQ(largest_first.implied, 0u);
  EXPECT_EQ(largest_first.queries, 3u);
  EXPECT_EQ(largest_first.unsat, 3u);
}

// Tables invariant under point groups (reflections, rotations, glide reflections: no translation but the identity).
// 3 x 7 needs 6 steps in the general model and no table invariant under translations reaches it
// (docs/torus-limits.md); a point group does. The decoded table is simulated here again, and checked invariant: the
// rule at φ(pu) is the rule at pu relabelled by φ's ports.
TEST(torus_sat, point_group_invariant_tables) {
  const torus::network t37({3, 7});
  const auto groups = point_subgroups(t37);
  ASSERT_FALSE(groups.empty());
  for (const auto& generators : groups)
    for (const torus_automorphism& g : generators)
      EXPECT_FALSE(std::is_sorted(g.ports.begin(), g.ports.end())) << describe(t37, g);  // not a translation
  const torus_invariant_search_result translated = search_invariant_table(t37, torus_model::general, 6, 60'000);
  EXPECT_FALSE(translated.table.has_value());
  const torus_invariant_search_result found =
      search_invariant_table(t37, torus_model::general, 6, 120'000, {.groups = invariant_groups::point});
  ASSERT_TRUE(found.table.has_value());
  ASSERT_TRUE(found.group.has_value());
  ASSERT_FALSE(found.group->automorphisms.empty());
  EXPECT_TRUE(found.group->translations.empty());
  EXPECT_GE(found.group->order, 2u);
  const gossip_report run = simulate_gossip(*found.table, 6);
  ASSERT_TRUE(run.holds()) << describe(run);
  EXPECT_EQ(run.steps, 6u);
  expect_invariant(*found.table, found.group->automorphisms);
  // 5 steps is impossible for any table of 4 x 5 (docs/torus-limits.md), so for every point group too — and each such
  // answer comes with a DRAT proof that the checker accepts when asked to certify
  const torus::network t45({4, 5});
  for (const auto& generators : point_subgroups(t45)) {
    EXPECT_EQ(solve_torus_symmetric(t45, torus_model::general, 5, generators, 60'000).answer, solver_answer::unsat);
    const torus_query_result certified = solve_torus_symmetric(t45, torus_model::general, 5, generators, 60'000, true);
    EXPECT_EQ(certified.answer, solver_answer::unsat) << certified.reason;
    EXPECT_NE(certified.reason.find("DRAT proof checked"), std::string::npos) << certified.reason;
  }
  const torus_invariant_search_result none =
      search_invariant_table(t45, torus_model::general, 5, 120'000, {.groups = invariant_groups::all, .certify = true});
  EXPECT_FALSE(none.table.has_value());
  EXPECT_EQ(none.unsat, none.groups);
  EXPECT_EQ(none.asked, none.groups);
  // certified and sat: the table as without
  const torus_invariant_search_result certified_sat = search_invariant_table(
      t37, torus_model::general, 6, 120'000, {.groups = invariant_groups::point, .certify = true});
  ASSERT_TRUE(certified_sat.table.has_value());
  EXPECT_TRUE(simulate_gossip(*certified_sat.table, 6).holds());
  // The reflection x1 -> -x1 and the point reflection; the rotation of a square torus has order 4.
  EXPECT_EQ(apply_automorphism(t45, {{1, 0, 2, 3}, {0, 0}}, t45.index({1, 2})), t45.index({3, 2}));
  EXPECT_EQ(describe(t45, {{1, 0, 3, 2}, {1, 0}}), "(x1, x2) -> (-x1 + 1, -x2)");
  const torus::network t44({4, 4});
  const torus_automorphism quarter{{2, 3, 1, 0}, {0, 0}};  // +x1 -> +x2, +x2 -> -x1
  pu_index pu = t44.index({1, 0});
  for (int k = 0; k < 3; ++k) {
    pu = apply_automorphism(t44, quarter, pu);
    EXPECT_NE(pu, t44.index({1, 0}));
  }
  EXPECT_EQ(apply_automorphism(t44, quarter, pu), t44.index({1, 0}));
  // Not automorphisms: swapping axes of different sizes, a port map that splits an axis's two ports, wrong lengths.
  EXPECT_THROW(apply_automorphism(t45, {{2, 3, 0, 1}, {0, 0}}, 0), std::invalid_argument);
  EXPECT_THROW(apply_automorphism(t45, {{0, 2, 1, 3}, {0, 0}}, 0), std::invalid_argument);
  EXPECT_THROW(apply_automorphism(t45, {{0, 1, 2, 3}, {0}}, 0), std::invalid_argument);
  EXPECT_THROW(torus_symmetric_cnf(t45, torus_model::general, 3, {{{2, 3, 0, 1}, {0, 0}}}), std::invalid_argument);
  EXPECT_THROW(point_subgroups(torus::network({16, 17})), std::invalid_argument);
}

// Tables invariant under mixed groups (translations with reflections, rotations or glide reflections), asked by their
// numbers after all's (invariant_groups::with_mixed): 4 × 5 has a 6-step general table invariant under one of them,
// with 20 automorphisms — translations and others. The decoded table is simulated here again and checked invariant
// under every generator. At 5 steps, which no table of 4 × 5 reaches, every mixed group is unsat with a checked proof.
TEST(torus_sat, mixed_group_invariant_tables) {
  const torus::network t45({4, 5});
  const std::size_t first = invariant_group_list(t45, invariant_groups::all).size();
  const std::vector<torus_symmetry_group> list = invariant_group_list(t45, invariant_groups::with_mixed);
  std::vector<std::size_t> mixed;
  for (std::size_t g = first; g < list.size(); ++g) mixed.push_back(g);
  ASSERT_FALSE(mixed.empty());
  const torus_invariant_search_result found = search_invariant_table(
      t45, torus_model::general, 6, 120'000, {.groups = invariant_groups::with_mixed, .only = mixed});
  ASSERT_TRUE(found.table.has_value());
  ASSERT_TRUE(found.group.has_value() && found.group_index.has_value());
  EXPECT_GE(*found.group_index, first);
  const gossip_report run = simulate_gossip(*found.table, 6);
  ASSERT_TRUE(run.holds()) << describe(run);
  bool translation = false, other = false;
  for (const torus_automorphism& g : found.group->automorphisms)
    (std::is_sorted(g.ports.begin(), g.ports.end()) ? translation : other) = true;
  expect_invariant(*found.table, found.group->automorphisms);
  EXPECT_TRUE(translation && other) << describe(t45, *found.group);
  const torus_invariant_search_result none = search_invariant_table(
      t45, torus_model::general, 5, 120'000, {.groups = invariant_groups::with_mixed, .certify = true, .only = mixed});
  EXPECT_FALSE(none.table.has_value());
  EXPECT_EQ(none.unsat, mixed.size());
  EXPECT_EQ(none.asked, mixed.size());
}

TEST(torus_sat, hamilton_decompositions_by_search) {
  for (const char* dims : {"3x5", "5x5", "3x3x3", "4x4x4"}) {
    const torus::network t = torus::network::parse(dims);
    const hamilton_search_result r = search_hamilton_decomposition(t, 60'000);
    ASSERT_EQ(r.answer, solver_answer::sat) << dims << ": " << r.reason;
    ASSERT_TRUE(r.system.has_value());
    const cycle_system_report cycles = check_cycle_system(*r.system, 0);  // simple, edge-disjoint, closed
    ASSERT_TRUE(cycles.holds()) << dims << ": " << describe(cycles);
    ASSERT_EQ(cycles.lengths.size(), t.dimension());
    for (std::uint64_t l : cycles.lengths) EXPECT_EQ(l, t.size()) << dims;
    const gossip_report run =
        simulate_gossip(cycle_routing(*r.system, supply_policy::time_independent, packets_per_pu::per_cycle));
    ASSERT_TRUE(run.holds());
    EXPECT_EQ(run.steps, t.size() / 2) << dims;  // ⌊P/2⌋: both ways along d Hamiltonian cycles, d packets per PU
  }
  EXPECT_THROW(search_hamilton_decomposition(torus::network({2, 4}), 1000), std::invalid_argument);
}

}  // namespace
}  // namespace dancecard
