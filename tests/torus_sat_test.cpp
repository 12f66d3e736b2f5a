// The exact torus queries: clausal minima against Z3, return exclusion, split queries, parity classes, translation-
// invariant tables and K packets per PU.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/torus.hpp"
#include "dancecard/search/torus_tables.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "torus_search.hpp"  // smt/src: the upward search, tested on scripted answers

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

TEST(torus_sat, clausal_minima_agree_with_z3_and_are_certified) {
  // The CNF encoding (CaDiCaL, DRAT checked) and the Z3 encoding are independent; on the pairing model they agree.
  for (const char* dims : {"3x3", "3x4"}) {
    const torus::network t = torus::network::parse(dims);
    const torus_minimum_result sat = prove_torus_minimum(t, torus_model::pairing, 60'000);
    const torus_minimum_result z3 = prove_torus_minimum(t, torus_model::pairing, 60'000, {.engine = torus_engine::z3});
    ASSERT_EQ(sat.status, proof_status::proven) << sat.reason;
    ASSERT_EQ(z3.status, proof_status::proven) << z3.reason;
    EXPECT_EQ(sat.minimum_steps, z3.minimum_steps) << dims;
    EXPECT_NE(sat.below_minimum.reason.find("DRAT proof checked"), std::string::npos) << sat.below_minimum.reason;
    ASSERT_TRUE(sat.at_minimum.witness.has_value());
    EXPECT_LE(simulate_gossip(*sat.at_minimum.witness).steps, sat.minimum_steps);
  }
  // The general model is at least as strong as the pairing model (a pairing is a general table): 4 x 4 needs 5
  // steps in the general model and 6 with pairings.
  const torus::network t({4, 4});
  const torus_minimum_result general = prove_torus_minimum(t, torus_model::general, 60'000);
  const torus_minimum_result pairing = prove_torus_minimum(t, torus_model::pairing, 60'000);
  ASSERT_EQ(general.status, proof_status::proven) << general.reason;
  ASSERT_EQ(pairing.status, proof_status::proven) << pairing.reason;
  EXPECT_EQ(general.minimum_steps, 5u);
  EXPECT_EQ(pairing.minimum_steps, 6u);
  // The translations-only break (the bench baseline) answers the same: 4 unsat, 5 sat on 4 x 4 general.
  EXPECT_EQ(solve_torus_clausal(t, torus_model::general, 4, 60'000, torus_symmetry::translations).answer,
            solver_answer::unsat);
  EXPECT_EQ(solve_torus_clausal(t, torus_model::general, 5, 60'000, torus_symmetry::translations).answer,
            solver_answer::sat);
  // A horizon below 2 steps cannot complete gossip on 3 x 3 (a PU hears only its 4 neighbours in step 1).
  EXPECT_EQ(solve_torus_clausal(torus::network({3, 3}), torus_model::general, 1, 10'000).answer, solver_answer::unsat);
  // The CNF reads as the question: one clause per (PU, other PU) goal not met in step 1, pairwise at-most-one;
  // the symmetry break's comparisons add 'equal so far' flags after those (2-D pairing: 4 per PU and relabelling),
  // and the arrival count a waste flag per PU and in-slot of step 2 (4 each) and a ladder over those slots for each
  // of the 4 packets a PU must learn after step 1 (3 flags each); no counter, as no slot may be wasted (8 packets, 8
  // slots).
  const cnf_formula f = torus_gossip_cnf(torus::network({3, 3}), torus_model::pairing, 2, {.base_only = true});
  EXPECT_EQ(f.variables, 9 * 3 + 9 * 4 * 9);
  EXPECT_EQ(torus_gossip_cnf(torus::network({3, 3}), torus_model::pairing, 2).variables,
            9 * 3 + 9 * 4 * 9 + (9 * 8 - 1) * 4 + 9 * (4 + 4 * 3));
}

// The return exclusion: a stream back at its sender within j forwards wastes T − j of the sender's slots,
// so walks with j <= T − 1 − s are excluded, s the slots the count lets a PU waste. On 5 x 5 general, s = 4(T − 1) −
// 20: at 7 steps s = 4 and j <= 2 — on sides of 5 only the U-turns, one unit clause per out-port (100); at 8 steps s =
// 8 and nothing; the pairing model has no U-turns. On 3 x 9 general at 7 (s = 2, j <= 4) the rings of 3 add walks.
TEST(torus_sat, return_exclusion_clauses) {
  auto returns = [](const cnf_formula& f) {
    for (const std::string& c : f.comments)
      if (c.starts_with("implied: no stream back")) return c;
    return std::string();
  };
  const torus::network t({5, 5});
  const cnf_formula with = torus_gossip_cnf(t, torus_model::general, 7);
  const cnf_formula without = torus_gossip_cnf(t, torus_model::general, 7, {.returns = false});
  EXPECT_EQ(returns(with),
            "implied: no stream back at its sender within 2 forwards (it would waste more than the 4 slots a PU may): "
            "100 clauses");
  EXPECT_EQ(returns(without), "");
  ASSERT_EQ(with.clauses.size(), without.clauses.size() + 100);
  std::set<int> u_turns;  // the added clauses are the last 100: ¬sel(pu, o, o) for every PU and out-port
  for (std::size_t k = without.clauses.size(); k < with.clauses.size(); ++k) {
    ASSERT_EQ(with.clauses[k].size(), 1u);
    u_turns.insert(-with.clauses[k][0]);
  }
  for (pu_index pu = 0; pu < t.size(); ++pu)
    for (std::uint32_t o = 0; o < 4; ++o)
      EXPECT_EQ(u_turns.count(torus_choice_variable(t, torus_model::general, pu, o, o)), 1u) << pu << " " << o;
  EXPECT_EQ(returns(torus_gossip_cnf(t, torus_model::general, 8)), "");
  EXPECT_EQ(returns(torus_gossip_cnf(t, torus_model::pairing, 7)),
            "implied: no stream back at its sender within 2 forwards (it would waste more than the 4 slots a PU may): "
            "0 clauses");
  // 3 x 9 at 7: per start link 1 U-turn, on the ring of 3 one walk of 2 (straight, straight) along x1, and 5 walks
  // of 3 and 21 of 4 besides; only the count of the shortest is pinned here: the U-turns are its unit clauses
  const cnf_formula ring = torus_gossip_cnf(torus::network({3, 9}), torus_model::general, 7);
  EXPECT_NE(returns(ring).find("within 4 forwards (it would waste more than the 2 slots"), std::string::npos)
      << returns(ring);
  std::size_t units = 0, pairs_on_the_ring = 0;
  const cnf_formula ring_without =
      torus_gossip_cnf(torus::network({3, 9}), torus_model::general, 7, {.returns = false});
  for (std::size_t k = ring_without.clauses.size(); k < ring.clauses.size(); ++k) {
    units += ring.clauses[k].size() == 1;
    pairs_on_the_ring += ring.clauses[k].size() == 2;
  }
  EXPECT_EQ(units, 27u * 4);
  EXPECT_EQ(pairs_on_the_ring, 27u * 2);  // from each PU, both ways round its ring of 3
  // At the counting bound with no slot to spare (3 x 3 general at 2 steps: s = 0, so no U-turn) a table still exists.
  const cnf_formula tight = torus_gossip_cnf(torus::network({3, 3}), torus_model::general, 2);
  EXPECT_NE(returns(tight).find("within 1 forwards (it would waste more than the 0 slots a PU may): 36 clauses"),
            std::string::npos)
      << returns(tight);
  EXPECT_EQ(solve_torus_clausal(torus::network({3, 3}), torus_model::general, 2, 60'000).answer, solver_answer::sat);
}

// A query split into cubes answers as the whole query: unsat only with every cube refuted (each proof checked) and
// the cover checked, sat with a simulated table; the split takes the PUs farthest from PU 0, every combination once.
TEST(torus_sat, split_queries_answer_as_the_whole_query) {
  const torus::network t34({3, 4});
  const torus_split_result unsat = solve_torus_cubes(t34, torus_model::pairing, 3, 60'000, {.cubes = 9, .jobs = 2});
  EXPECT_EQ(solve_torus_clausal(t34, torus_model::pairing, 3, 60'000).answer, solver_answer::unsat);
  ASSERT_EQ(unsat.query.answer, solver_answer::unsat) << unsat.query.reason;
  EXPECT_NE(unsat.query.reason.find("the cover checked"), std::string::npos) << unsat.query.reason;
  // PUs 6 = (1, 2) and 10 = (2, 2) are 3 hops from PU 0, the farthest on 3 x 4; 3 pairings each.
  EXPECT_EQ(unsat.split, (std::vector<std::string>{"PU 6's pairing", "PU 10's pairing"}));
  ASSERT_EQ(unsat.cubes.size(), 9u);
  EXPECT_EQ(unsat.refuted, 9u);
  std::set<std::vector<int>> distinct;
  for (const torus_cube_answer& c : unsat.cubes) {
    EXPECT_TRUE(c.asked);
    EXPECT_EQ(c.answer, solver_answer::unsat) << c.description;
    EXPECT_NE(c.reason.find("DRAT proof checked"), std::string::npos) << c.reason;
    ASSERT_EQ(c.literals.size(), 2u);
    auto pairing_of = [&](pu_index pu, int literal) {  // which of pu's pairings the literal chooses, or 3: none
      std::uint32_t k = 0;
      while (k < 3 && torus_choice_variable(t34, torus_model::pairing, pu, k) != literal) ++k;
      return k;
    };
    EXPECT_LT(pairing_of(6, c.literals[0]), 3u) << c.description;
    EXPECT_LT(pairing_of(10, c.literals[1]), 3u) << c.description;
    distinct.insert(c.literals);
  }
  EXPECT_EQ(distinct.size(), 9u);

  const torus_split_result sat = solve_torus_cubes(t34, torus_model::pairing, 4, 60'000, {.cubes = 9, .jobs = 2});
  ASSERT_EQ(sat.query.answer, solver_answer::sat) << sat.query.reason;
  ASSERT_TRUE(sat.query.witness.has_value());
  const gossip_report run = simulate_gossip(*sat.query.witness);
  ASSERT_TRUE(run.holds());
  EXPECT_LE(run.steps, 4u);
  EXPECT_GE(std::count_if(sat.cubes.begin(), sat.cubes.end(),
                          [](const torus_cube_answer& c) { return c.answer == solver_answer::sat; }),
            1);

  // The general model splits on out-ports: 4 x 4 needs 5 steps, so 4 is unsat and 5 sat, with one job or three. At 5
  // steps each out-port has its 4 in-ports; at 4 the return exclusion's unit clauses forbid the U-turns (a PU may
  // waste 1 slot, a U-turn wastes 3), so each group has 3 values and 16 cubes take 3 groups (27 cubes) — the cover
  // check accepts groups that are clauses less literals the unit clauses make false.
  const torus::network t44({4, 4});
  for (unsigned jobs : {1u, 3u}) {
    const torus_split_result g4 = solve_torus_cubes(t44, torus_model::general, 4, 60'000, {.cubes = 16, .jobs = jobs});
    EXPECT_EQ(g4.query.answer, solver_answer::unsat) << g4.query.reason;
    EXPECT_EQ(g4.cubes.size(), 27u);
    EXPECT_EQ(g4.split, (std::vector<std::string>{"PU 10's out-port 0", "PU 10's out-port 1",
                                                  "PU 10's out-port 2"}));  // (2, 2): 4 hops
    for (const auto& group : g4.groups) {
      EXPECT_EQ(group.size(), 3u);
      for (int literal : group)
        EXPECT_NE(literal, torus_choice_variable(t44, torus_model::general, 10, 0, 0));  // no U-turn at out-port 0
    }
    const torus_split_result g5 = solve_torus_cubes(t44, torus_model::general, 5, 60'000, {.cubes = 16, .jobs = jobs});
    ASSERT_EQ(g5.query.answer, solver_answer::sat) << g5.query.reason;
    EXPECT_EQ(g5.cubes.size(), 16u);
    EXPECT_LE(simulate_gossip(*g5.query.witness).steps, 5u);
  }
  // One cube is the whole query; below the counting bound the count's empty clause answers without a split.
  const torus_split_result whole = solve_torus_cubes(t44, torus_model::general, 4, 60'000, {.cubes = 1});
  EXPECT_EQ(whole.query.answer, solver_answer::unsat);
  ASSERT_EQ(whole.cubes.size(), 1u);
  EXPECT_EQ(whole.cubes[0].description, "the whole query");
  const torus_split_result below = solve_torus_cubes(t44, torus_model::general, 3, 60'000, {.cubes = 16});
  EXPECT_EQ(below.query.answer, solver_answer::unsat);
  EXPECT_TRUE(below.cubes.empty());
  EXPECT_NE(below.query.reason.find("counting bound"), std::string::npos) << below.query.reason;
  // A budget too small for any cube leaves the answer open, and says how many were refuted.
  const torus_split_result spent = solve_torus_cubes(torus::network({4, 5}), torus_model::general, 5, 1, {.cubes = 16});
  EXPECT_EQ(spent.query.answer, solver_answer::unknown);
  EXPECT_NE(spent.query.reason.find("cubes refuted with checked proofs"), std::string::npos) << spent.query.reason;
  // A cap per cube too small for any (1 ms) leaves every cube asked and open.
  const torus_split_result capped = solve_torus_cubes(torus::network({4, 5}), torus_model::general, 5, 60'000,
                                                      {.cubes = 16, .jobs = 2, .cube_budget_ms = 1});
  EXPECT_EQ(capped.query.answer, solver_answer::unknown);
  EXPECT_TRUE(
      std::all_of(capped.cubes.begin(), capped.cubes.end(), [](const torus_cube_answer& c) { return c.asked; }));
  EXPECT_NE(capped.query.reason.find("0 not asked"), std::string::npos) << capped.query.reason;
  EXPECT_THROW(solve_torus_cubes(t44, torus_model::general, 4, 1'000, {.cubes = 0}), std::invalid_argument);
  EXPECT_THROW(solve_torus_cubes(t44, torus_model::general, 4, 1'000, {.cubes = 65'537}), std::invalid_argument);
  EXPECT_THROW(solve_torus_cubes(t44, torus_model::general, 4, 1'000, {.cubes = 4, .jobs = 0}), std::invalid_argument);
}

// Translation-invariant tables: the orbits of a translation group, every subgroup once (Z3 x Z3 has 6 subgroups, Z4
// x Z4 has 15, Z2^3 has 16; the trivial one is left out), and a SAT query that finds 4 x 5's 6-step general table among
// tables invariant under a group of 10 translations — its decoded table simulated here again, and invariant.
// The arrival count's counters per step parity are added only where a class is tighter than the whole: on 4 x 8 at 8
// steps (all sides even: the 12 packets at odd distance beyond the neighbours fill the 12 slots of steps 3, 5, 7) at
// every PU, and the counter over all slots is then left out; on 5 x 5 (an odd side: walks of both parities reach
// almost every PU by step 6) nowhere, and the CNF is the same with or without them.
TEST(torus_sat, parity_classes_only_where_tighter) {
  auto has_classes = [](const cnf_formula& f) {
    return std::any_of(f.comments.begin(), f.comments.end(),
                       [](const std::string& c) { return c.starts_with("implied parity classes: at 32 PUs"); });
  };
  const cnf_formula even = torus_gossip_cnf(torus::network({4, 8}), torus_model::general, 8);
  const cnf_formula even_one =
      torus_gossip_cnf(torus::network({4, 8}), torus_model::general, 8, {.parity_classes = false});
  EXPECT_TRUE(has_classes(even));
  EXPECT_FALSE(has_classes(even_one));
  EXPECT_NE(even.clauses.size(), even_one.clauses.size());
  const cnf_formula odd = torus_gossip_cnf(torus::network({5, 5}), torus_model::general, 6);
  const cnf_formula odd_one =
      torus_gossip_cnf(torus::network({5, 5}), torus_model::general, 6, {.parity_classes = false});
  EXPECT_EQ(odd.dimacs(), odd_one.dimacs());
  // below the parity bound: the empty clause, and the answer says it rests on the count
  const torus_query_result below = solve_torus_clausal(torus::network({6, 6}), torus_model::pairing, 9, 10'000);
  EXPECT_EQ(below.answer, solver_answer::unsat);
  EXPECT_NE(below.reason.find("by the parity count alone"), std::string::npos) << below.reason;
  const torus_query_result counting = solve_torus_clausal(torus::network({4, 4}), torus_model::general, 3, 10'000);
  EXPECT_EQ(counting.answer, solver_answer::unsat);
  EXPECT_NE(counting.reason.find("by the counting bound alone"), std::string::npos) << counting.reason;
}

TEST(torus_sat, translation_invariant_tables) {
  const torus::network t({4, 4});
  const std::vector<pu_index> halves = translation_orbits(t, {{0, 2}});
  for (pu_index pu = 0; pu < t.size(); ++pu) {
    const auto c = t.coordinates(pu);
    EXPECT_EQ(halves[pu], t.index({c[0], c[1] % 2})) << pu;
  }
  EXPECT_THROW(translation_orbits(t, {{1}}), std::invalid_argument);
  // One subgroup per class under the automorphisms. Z3 x Z3: itself, and its four subgroups of order 3 in two classes
  // ((0,1) ~ (1,0) by the swap, (1,1) ~ (1,2) by a reflection).
  EXPECT_EQ(translation_subgroups(torus::network({3, 3})).size(), 3u);
  // Z4 x Z4 has 14 non-trivial subgroups: itself; three of order 8 (x1 even, x2 even: swapped; x1 + x2 even); six
  // cyclic of order 4 in three classes ((1,0) ~ (0,1), (1,1) ~ (1,3), (1,2) ~ (2,1)) and {0,2}²; three of order 2
  // ((2,0) ~ (0,2); (2,2)): nine classes
  EXPECT_EQ(translation_subgroups(t).size(), 9u);
  EXPECT_EQ(translation_orbits(t, translation_subgroups(t).front()),
            std::vector<pu_index>(16, 0));  // the whole group first
  // Z2 x Z2 x Z2 needs three generators for itself. Its 15 non-trivial subgroups: 7 of order 2 (a vector of weight 1, 2
  // or 3), 7 of order 4 (the kernels of the functionals of weight 1, 2 or 3) and itself; the axes permuted: 7 classes
  const auto cube = translation_subgroups(torus::network({2, 2, 2}));
  EXPECT_EQ(cube.size(), 7u);
  EXPECT_EQ(translation_orbits(torus::network({2, 2, 2}), cube.front()), std::vector<pu_index>(8, 0));
  EXPECT_THROW(torus_gossip_cnf(t, torus_model::pairing, 3, {.orbit = std::vector<pu_index>(15, 0)}),
               std::invalid_argument);
  std::vector<pu_index> not_a_group(16);
  for (pu_index pu = 0; pu < 16; ++pu) not_a_group[pu] = pu < 3 ? 0 : pu;  // {0, 1, 2} is no subgroup of Z4 x Z4
  EXPECT_THROW(torus_gossip_cnf(t, torus_model::pairing, 3, {.orbit = not_a_group}), std::invalid_argument);

  const torus::network t45({4, 5});
  const std::vector<pu_index> orbit = translation_orbits(t45, {{0, 1}, {2, 0}});
  EXPECT_EQ(std::count(orbit.begin(), orbit.end(), pu_index{0}), 10);
  // 5 steps is impossible for any table (docs/torus-limits.md), so for invariant ones too
  EXPECT_EQ(solve_torus_invariant(t45, torus_model::general, 5, orbit, 60'000).answer, solver_answer::unsat);
  const torus_query_result r = solve_torus_invariant(t45, torus_model::general, 6, orbit, 60'000);
  ASSERT_EQ(r.answer, solver_answer::sat) << r.reason;
  ASSERT_TRUE(r.witness.has_value());
  const gossip_report run = simulate_gossip(*r.witness);
  ASSERT_TRUE(run.holds()) << describe(run);
  EXPECT_LE(run.steps, 6u);
  for (pu_index pu = 0; pu < t45.size(); ++pu)
    for (std::uint32_t o = 0; o < 4; ++o)
      EXPECT_EQ(r.witness->forward_at(pu, o), r.witness->forward_at(orbit[pu], o)) << pu << " " << o;
  const torus_invariant_search_result found = search_invariant_table(t45, torus_model::general, 6, 60'000);
  ASSERT_TRUE(found.table.has_value());
  EXPECT_TRUE(simulate_gossip(*found.table, 6).holds());
  ASSERT_TRUE(found.group.has_value());
  EXPECT_GE(found.group->order, 2u);
  EXPECT_EQ(found.asked, found.unsat + found.unknown + 1);
  EXPECT_GE(found.queries, found.asked);
  EXPECT_LE(found.asked, found.groups);
  ASSERT_TRUE(found.group_index.has_value());
  EXPECT_TRUE(found.open_groups.empty());

  // The groups by number, as the search numbers them (translations, then point groups), and asked one by one.
  const std::vector<torus_symmetry_group> list = invariant_group_list(t45, invariant_groups::all);
  const auto translations = translation_subgroups(t45);
  const auto points = point_subgroups(t45);
  ASSERT_EQ(list.size(), translations.size() + points.size());
  for (std::size_t g = 0; g < translations.size(); ++g) EXPECT_EQ(list[g].translations, translations[g]);
  for (std::size_t g = 0; g < points.size(); ++g)
    EXPECT_EQ(list[translations.size() + g].automorphisms.size(), points[g].size());
  EXPECT_EQ(invariant_group_list(t45, invariant_groups::translations).size(), translations.size());
  EXPECT_EQ(invariant_group_list(t45, invariant_groups::point).size(), points.size());
  EXPECT_EQ(describe(t45, list[1]), "10 translations generated by (2,1)");
  EXPECT_EQ(list[1].order, 10u);
  // group 1 alone has the 6-step table; asked alone, group 0 (all 20 translations) has none
  const torus_invariant_search_result one =
      search_invariant_table(t45, torus_model::general, 6, 60'000, {.groups = invariant_groups::all, .only = {1}});
  ASSERT_TRUE(one.table.has_value());
  EXPECT_EQ(one.group_index, std::optional<std::size_t>(1));
  EXPECT_EQ(one.groups, 1u);
  ASSERT_TRUE(one.group.has_value());
  EXPECT_EQ(one.group->translations, list[1].translations);
  EXPECT_TRUE(simulate_gossip(*one.table, 6).holds());
  const torus_invariant_search_result none =
      search_invariant_table(t45, torus_model::general, 6, 60'000, {.groups = invariant_groups::all, .only = {0}});
  EXPECT_FALSE(none.table.has_value());
  EXPECT_EQ(none.unsat, 1u);
  EXPECT_TRUE(none.open_groups.empty());
  // on_answer hears of each answer as it comes, in the order asked: group 0 unsat, then group 1's table
  std::vector<invariant_group_answer> heard;
  const torus_invariant_search_result both = search_invariant_table(
      t45, torus_model::general, 6, 60'000,
      {.groups = invariant_groups::all, .only = {0, 1}, .on_answer = [&](const invariant_group_answer& a) {
         heard.push_back(a);
       }});
  ASSERT_TRUE(both.table.has_value());
  ASSERT_EQ(heard.size(), 2u);
  EXPECT_EQ(heard[0].group, 0u);
  EXPECT_EQ(heard[0].answer, solver_answer::unsat);
  EXPECT_FALSE(heard[0].certified);
  EXPECT_EQ(heard[1].group, 1u);
  EXPECT_EQ(heard[1].symmetry.translations, list[1].translations);
  EXPECT_EQ(heard[1].symmetry.order, list[1].order);
  EXPECT_EQ(heard[1].answer, solver_answer::sat);
  EXPECT_GT(heard[1].group_seconds, 0.0);
  EXPECT_LE(heard[0].search_seconds, heard[1].search_seconds);
  EXPECT_LE(heard[1].search_seconds, both.seconds);
  heard.clear();
  search_invariant_table(t45, torus_model::general, 6, 60'000,
                         {.groups = invariant_groups::all,
                          .certify = true,
                          .only = {0},
                          .on_answer = [&](const invariant_group_answer& a) { heard.push_back(a); }});
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_TRUE(heard[0].certified);  // unsat with its DRAT proof checked
  // a query out of time is not an answer: only the unsat ones are heard
  heard.clear();
  const torus_invariant_search_result short_of_time = search_invariant_table(
      torus::network({5, 6}), torus_model::general, 8, 1,
      {.groups = invariant_groups::all, .on_answer = [&](const invariant_group_answer& a) { heard.push_back(a); }});
  EXPECT_FALSE(short_of_time.table.has_value());
  EXPECT_EQ(heard.size(), short_of_time.unsat);
  for (const invariant_group_answer& a : heard) EXPECT_EQ(a.answer, solver_answer::unsat);
  EXPECT_THROW(search_invariant_table(t45, torus_model::general, 6, 1'000,
                                      {.groups = invariant_groups::all, .only = {list.size()}}),
               std::invalid_argument);
  // out of time: the groups left open are named, to be asked again (5 x 6 general at 8 steps: no group answers in 1 ms)
  const torus_invariant_search_result hurried =
      search_invariant_table(torus::network({5, 6}), torus_model::general, 8, 1, {.groups = invariant_groups::all});
  EXPECT_FALSE(hurried.table.has_value());
  EXPECT_EQ(hurried.open_groups.size(), hurried.groups - hurried.unsat);
  EXPECT_FALSE(hurried.open_groups.empty());
}

// k packets per PU, no packet held (torus_packets_cnf). Section 3.1's tables — two packets per PU, on two Hamiltonian
// cycles — fixed in the CNF by unit clauses are models exactly from their simulated step count on.
TEST(torus_packets, section_3_1_tables_are_models_from_their_step_count_on) {
  for (const char* dims : {"2x4", "4x4", "4x6"}) {
    const torus::network t = torus::network::parse(dims);
    const routing_table table = hamiltonian_2d(t);
    ASSERT_EQ(table.packets, 2u);
    const gossip_report run = simulate_gossip(table);
    ASSERT_TRUE(run.holds()) << describe(run);
    const auto pairings = port_pairings(2);
    for (std::uint64_t steps : {run.steps - 1, run.steps}) {
      cnf_formula f = torus_packets_cnf(t, torus_model::pairing, 2, steps, {.base_only = true});
      for (pu_index pu = 0; pu < t.size(); ++pu) {
        std::vector<std::uint32_t> rule(4);
        for (std::uint32_t o = 0; o < 4; ++o) rule[o] = table.forward_at(pu, o);
        const std::size_t c =
            static_cast<std::size_t>(std::find(pairings.begin(), pairings.end(), rule) - pairings.begin());
        ASSERT_LT(c, pairings.size()) << dims << " PU " << pu;
        for (std::uint32_t j = 0; j < 3; ++j)
          f.clauses.push_back({j == c ? torus_choice_variable(t, torus_model::pairing, pu, j)
                                      : -torus_choice_variable(t, torus_model::pairing, pu, j)});
        for (std::uint32_t o = 0; o < 4; ++o)
          for (std::uint32_t q = 0; q < 2; ++q)
            f.clauses.push_back({q == table.inject_at(pu, o)
                                     ? torus_injection_variable(t, torus_model::pairing, 2, pu, o, q)
                                     : -torus_injection_variable(t, torus_model::pairing, 2, pu, o, q)});
      }
      const clausal_result solved = solve_with_proof(f, 60'000);
      EXPECT_EQ(solved.answer, steps == run.steps ? solver_answer::sat : solver_answer::unsat)
          << dims << " in " << steps;
    }
  }
}

// The least steps with k packets per PU: on 2 x 5 two packets need the counting bound ceil(2·9/4) = 5 in both models
// (Theorem 3's count ceil(P/2) = 5 without held packets), 4 steps are unsat by counting alone; the witness is a
// two-packet table, simulated. Bad packet counts are refused.
TEST(torus_packets, least_steps_with_k_packets) {
  const torus::network t({2, 5});
  for (torus_model model : {torus_model::pairing, torus_model::general}) {
    const torus_minimum_result r = prove_torus_minimum(t, model, 60'000, {.packets = 2});
    ASSERT_EQ(r.status, proof_status::proven) << r.reason;
    EXPECT_EQ(r.minimum_steps, 5u);
    EXPECT_EQ(r.lower_bound, 5u);
    ASSERT_TRUE(r.at_minimum.witness.has_value());
    EXPECT_EQ(r.at_minimum.witness->packets, 2u);
    const gossip_report run = simulate_gossip(*r.at_minimum.witness);
    ASSERT_TRUE(run.holds()) << describe(run);
    EXPECT_EQ(run.steps, 5u);
  }
  // the general search asks the pairing model first: its witness, a pairing table, is a general table
  const torus_minimum_result seven =
      prove_torus_minimum(torus::network({2, 7}), torus_model::general, 60'000, {.packets = 2});
  ASSERT_EQ(seven.status, proof_status::proven) << seven.reason;
  EXPECT_EQ(seven.minimum_steps, 7u);
  EXPECT_NE(seven.reason.find("a pairing table"), std::string::npos) << seven.reason;
  // and then the tables invariant under translations: 2 x 5 general with three packets needs 8 steps, one more than
  // the counting bound, and no pairing table completes within them (the pairing minimum is 10, P)
  const torus_minimum_result three = prove_torus_minimum(t, torus_model::general, 60'000, {.packets = 3});
  ASSERT_EQ(three.status, proof_status::proven) << three.reason;
  EXPECT_EQ(three.minimum_steps, 8u);
  EXPECT_NE(three.reason.find("witness invariant under"), std::string::npos) << three.reason;
  EXPECT_NE(three.reason.find("7 steps: unsat, DRAT proof checked"), std::string::npos) << three.reason;
  ASSERT_TRUE(three.at_minimum.witness.has_value());
  EXPECT_EQ(three.at_minimum.witness->packets, 3u);
  const gossip_report three_run = simulate_gossip(*three.at_minimum.witness);
  ASSERT_TRUE(three_run.holds()) << describe(three_run);
  EXPECT_EQ(three_run.steps, 8u);
  const torus_query_result below = solve_torus_packets(t, torus_model::general, 2, 4, 60'000);
  EXPECT_EQ(below.answer, solver_answer::unsat);
  EXPECT_NE(below.reason.find("by the counting bound alone"), std::string::npos) << below.reason;
  // one packet per PU: the same minimum as the one-packet CNF (3 x 3 general: 2, pairing: 3)
  EXPECT_EQ(
      detail::prove_packets_minimum(torus::network({3, 3}), torus_model::general, 60'000, {.packets = 1}).minimum_steps,
      2u);
  EXPECT_EQ(
      detail::prove_packets_minimum(torus::network({3, 3}), torus_model::pairing, 60'000, {.packets = 1}).minimum_steps,
      3u);
  EXPECT_THROW(torus_packets_cnf(t, torus_model::general, 0, 5), std::invalid_argument);
  EXPECT_THROW(torus_packets_cnf(t, torus_model::general, 5, 5), std::invalid_argument);
  EXPECT_THROW(prove_torus_minimum(t, torus_model::general, 1'000, {.packets = 5}), std::invalid_argument);
}

// The local search with k packets per PU (injections chosen for each forwarding by torus_injection_chooser): with two
// packets, 4 x 4 and 3 x 5 in the pairing model reach their proven minima, the counting bound ceil(2(P - 1)/4) = 8 and
// 7 (prove torus --packets 2; Section 3.1's table on 4 x 4), the table carries two packets, every PU sends both, and it
// completes in exactly the steps reported. Bad packet counts are refused.
TEST(torus_packets, local_search_reaches_the_counting_bound_with_two_packets) {
  for (const char* dims : {"4x4", "3x5"}) {
    const torus::network t = torus::network::parse(dims);
    // ended by the work count, not the clock (4 x 4 reaches 8 after about 276,000 tables, 3 x 5 7 after 583,000)
    const torus_heuristic_result h = search_torus_table(
        t, torus_model::pairing, 600'000, {.seed = 1, .goal = 0, .packets = 2, .max_evaluations = 2'000'000});
    ASSERT_TRUE(h.table.has_value()) << dims;
    EXPECT_EQ(h.steps, counting_bound(t, 2)) << dims;
    EXPECT_EQ(h.table->packets, 2u);
    for (pu_index pu = 0; pu < t.size(); ++pu)
      for (std::uint32_t q = 0; q < 2; ++q)
        EXPECT_NE(std::count(h.table->inject.begin() + pu * 4, h.table->inject.begin() + pu * 4 + 4, q), 0)
            << dims << " PU " << pu;
    const gossip_report run = simulate_gossip(*h.table);
    ASSERT_TRUE(run.holds()) << describe(run);
    EXPECT_EQ(run.steps, h.steps) << dims;
  }
  EXPECT_THROW(
      search_torus_table(torus::network({3, 3}), torus_model::pairing, 100, {.seed = 1, .goal = 0, .packets = 0}),
      std::invalid_argument);
  EXPECT_THROW(
      search_torus_table(torus::network({3, 3}), torus_model::pairing, 100, {.seed = 1, .goal = 0, .packets = 5}),
      std::invalid_argument);
  EXPECT_THROW(torus_injection_chooser(torus::network({3, 3}), 5), std::invalid_argument);
}

// The k-packet minimum search goes on past a query out of time as the one-packet search does: scripted answers for
// 3 x 5 with two packets (unknown at the counting bound 7 and at 8, unsat nowhere) and the local search's table as the
// heuristic give "at least 7, at most U" with U the table's simulated steps; the bounds are the k-packet ones.
TEST(torus_packets, minimum_search_takes_the_local_search_upper_bound) {
  const torus::network t({3, 5});
  std::vector<std::uint64_t> asked;
  const torus_minimum_result r = detail::search_torus_minimum(
      t, true, 0,
      [&](std::uint64_t T) {
        asked.push_back(T);
        torus_query_result q;
        q.reason = "scripted out of time";
        return q;
      },
      [&](std::uint64_t T) { return detail::local_search_witness(t, torus_model::pairing, 2, T + 3, 30'000); }, 2);
  EXPECT_EQ(r.lower_bound, 7u);
  EXPECT_EQ(r.parity_bound, 7u);
  EXPECT_EQ(r.proven_lower, 7u);
  EXPECT_EQ(r.status, proof_status::unknown);
  ASSERT_TRUE(r.upper.has_value());
  ASSERT_TRUE(r.upper->witness.has_value());
  EXPECT_EQ(r.upper->witness->packets, 2u);
  const gossip_report run = simulate_gossip(*r.upper->witness);
  ASSERT_TRUE(run.holds());
  EXPECT_EQ(r.upper_bound, run.steps);
  // three queries out of time end the search, all below the upper bound
  ASSERT_EQ(asked.size(), std::min<std::uint64_t>(3, run.steps - 7));
  for (std::size_t i = 0; i < asked.size(); ++i) EXPECT_EQ(asked[i], 7 + i);
  EXPECT_NE(r.reason.find("at most " + std::to_string(run.steps)), std::string::npos) << r.reason;
}

// Translation-invariant tables with k packets (search_invariant_table with packets = 3): 3 x 4 in the general model
// with three packets per PU reaches the counting bound ceil(3·11/4) = 9 by a table invariant under a translation group
// (the full query at 9 runs out of minutes); the table carries three packets and is simulated here again. One packet
// per PU asks what search_invariant_table asks (4 x 4 general in 5 steps: a table). Bad packet counts are refused.
TEST(torus_packets, invariant_tables_with_k_packets) {
  const torus::network t({3, 4});
  const torus_invariant_search_result r = search_invariant_table(t, torus_model::general, 9, 120'000, {.packets = 3});
  ASSERT_TRUE(r.table.has_value());
  ASSERT_TRUE(r.group.has_value());
  EXPECT_GT(r.group->order, 1u);
  EXPECT_EQ(r.table->packets, 3u);
  const gossip_report run = simulate_gossip(*r.table);
  ASSERT_TRUE(run.holds()) << describe(run);
  EXPECT_EQ(run.steps, 9u);
  // invariant: every PU makes its orbit's choices
  const std::vector<pu_index> orbit = translation_orbits(t, r.group->translations);
  for (pu_index pu = 0; pu < t.size(); ++pu)
    for (std::uint32_t o = 0; o < 4; ++o) {
      EXPECT_EQ(r.table->forward_at(pu, o), r.table->forward_at(orbit[pu], o)) << pu;
      EXPECT_EQ(r.table->inject_at(pu, o), r.table->inject_at(orbit[pu], o)) << pu;
    }
  // below the counting bound every group is unsat at once (the CNF holds the empty clause)
  const torus_invariant_search_result below =
      search_invariant_table(t, torus_model::general, 8, 60'000, {.packets = 3});
  EXPECT_FALSE(below.table.has_value());
  EXPECT_EQ(below.unsat, below.groups);
  const torus_invariant_search_result one =
      search_invariant_table(torus::network({4, 4}), torus_model::general, 5, 60'000, {.packets = 1});
  ASSERT_TRUE(one.table.has_value());
  EXPECT_TRUE(simulate_gossip(*one.table, 5).holds());
  EXPECT_THROW(search_invariant_table(t, torus_model::general, 9, 1'000, {.packets = 5}), std::invalid_argument);
  EXPECT_THROW(torus_packets_cnf(t, torus_model::general, 2, 9, {.orbit = {0, 0, 0}}), std::invalid_argument);
}

}  // namespace
}  // namespace dancecard
