// The heuristic torus searches (local search, tabu, invariant tabu) and the upward minimum search, with scripted
// solver answers where the solver is not the point.
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
#include "torus_test_support.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

using namespace torus_test;

TEST(torus_smt, pairing_minima_of_small_tori) {
  // 3 x 3: the counting bound ceil(8/4) = 2 is not reachable by any pairing; 3 steps are. Witnesses are simulated.
  const torus_minimum_result a =
      prove_torus_minimum(torus::network({3, 3}), torus_model::pairing, 60'000, {.engine = torus_engine::z3});
  ASSERT_EQ(a.status, proof_status::proven) << a.reason;
  EXPECT_EQ(a.minimum_steps, 3u);
  ASSERT_TRUE(a.at_minimum.witness.has_value());
  const gossip_report run = simulate_gossip(*a.at_minimum.witness);
  EXPECT_TRUE(run.holds());
  EXPECT_LE(run.steps, 3u);
  const torus_minimum_result b =
      prove_torus_minimum(torus::network({3, 4}), torus_model::pairing, 60'000, {.engine = torus_engine::z3});
  ASSERT_EQ(b.status, proof_status::proven) << b.reason;
  EXPECT_EQ(b.minimum_steps, 4u);
  // The pairings of a PU's ports: 3 in 2-D, 15 in 3-D.
  EXPECT_EQ(port_pairings(2).size(), 3u);
  EXPECT_EQ(port_pairings(3).size(), 15u);
}

// The upward search on scripted answers (the solver's verdicts by step count), so that every path is exercised.
namespace {
// heuristic_steps: the steps of the table the heuristic offers when a query runs out of time (0: none).
torus_minimum_result scripted(const std::map<std::uint64_t, solver_answer>& answers,
                              std::uint64_t heuristic_steps = 0) {
  const torus::network t({3, 5});
  return detail::search_torus_minimum(
      t, true, 0,
      [&](std::uint64_t T) {
        torus_query_result r;
        const auto it = answers.find(T);
        r.answer = it == answers.end() ? solver_answer::sat : it->second;
        r.reason = "scripted " + std::to_string(T);
        return r;
      },
      [&](std::uint64_t) {
        torus_query_result r;
        if (heuristic_steps == 0) return r;
        // A real table with that many steps: the search re-simulates what the heuristic offers.
        torus_heuristic_result h =
            search_torus_table(t, torus_model::pairing, 600'000,
                               {.seed = 1, .goal = heuristic_steps, .packets = 1, .max_evaluations = 1'000'000});
        EXPECT_EQ(h.steps, heuristic_steps);
        r.answer = solver_answer::sat;
        r.witness = std::move(h.table);
        r.reason = "heuristic";
        return r;
      });
}
}  // namespace

// The rounds of the invariant search (detail::ask_in_rounds) on scripted questions and a scripted clock: question q
// needs need[q] ms of its own solving in all (a resumed solver: what it got in earlier rounds counts) and then gives
// its answer; never[q]: out of time whatever it gets. The clock advances by what each call spends.
namespace {
struct scripted_rounds {
  std::vector<std::uint64_t> need;
  std::vector<solver_answer> answer;
  std::vector<std::uint64_t> given;                     // solving each question got so far
  std::vector<std::pair<std::size_t, unsigned>> calls;  // (question, ms) in order
  std::uint64_t clock = 0;
  detail::rounds_outcome run(unsigned budget_ms, unsigned cap_ms) {
    given.assign(need.size(), 0);
    return detail::ask_in_rounds(
        need.size(), budget_ms, cap_ms,
        [&](std::size_t q, unsigned ms) {
          calls.emplace_back(q, ms);
          const std::uint64_t wanted = need[q] - std::min(need[q], given[q]);
          const std::uint64_t spent = std::min<std::uint64_t>(wanted, ms);
          given[q] += spent;
          clock += std::max<std::uint64_t>(spent, 1);
          return spent == wanted ? answer[q] : solver_answer::unknown;
        },
        [&] { return clock; });
  }
};
constexpr std::uint64_t forever = std::uint64_t{1} << 40;
}  // namespace

TEST(torus_sat, invariant_search_rounds_ask_every_group_before_a_hard_one_takes_the_budget) {
  using enum solver_answer;
  // The first group never answers, three answer unsat at once, the last is sat after 15 s of solving. Budget 100 s:
  // the first round gives each of the 5 groups 10 s (half the budget shared out), the second 20 s — the sat group is
  // answered in round 2 after 10 + 5 s of its own. (Asked once each with at most an eighth of the budget, 12.5 s, it
  // would not be found at all.)
  scripted_rounds s{{forever, 1, 1, 1, 15'000}, {unknown, unsat, unsat, unsat, sat}, {}, {}, 0};
  const detail::rounds_outcome r = s.run(100'000, 0);
  ASSERT_TRUE(r.sat.has_value());
  EXPECT_EQ(*r.sat, 4u);
  EXPECT_EQ(r.rounds, 2u);
  EXPECT_EQ(r.queries, 7u);
  EXPECT_EQ(r.asked, 5u);
  EXPECT_EQ(r.unsat, 3u);
  EXPECT_EQ(r.unknown, 1u);
  const std::vector<std::pair<std::size_t, unsigned>> calls{{0, 10'000}, {1, 10'000}, {2, 10'000}, {3, 10'000},
                                                            {4, 10'000}, {0, 20'000}, {4, 20'000}};
  EXPECT_EQ(s.calls, calls);
  EXPECT_EQ(s.clock, 10'000u + 3 + 10'000 + 20'000 + 5'000);
}

TEST(torus_sat, invariant_search_rounds_stop_at_the_budget_and_at_the_cap) {
  using enum solver_answer;
  // Three groups that never answer, 10 s: rounds of 1,666 and 3,332 ms; the last call gets only what is left, and
  // the budget is spent exactly.
  scripted_rounds out_of_time{{forever, forever, forever}, {unknown, unknown, unknown}, {}, {}, 0};
  const detail::rounds_outcome r = out_of_time.run(10'000, 0);
  EXPECT_FALSE(r.sat.has_value());
  EXPECT_EQ(out_of_time.clock, 10'000u);
  EXPECT_EQ(r.rounds, 2u);
  EXPECT_EQ(r.asked, 3u);
  EXPECT_EQ(r.unknown, 3u);
  EXPECT_EQ(out_of_time.calls.back(), (std::pair<std::size_t, unsigned>{1, 10'000 - 3 * 1666 - 3332}));
  // A cap of 500 ms: the first round is already at the cap, so nothing is asked twice.
  scripted_rounds capped{{forever, forever, 200}, {unknown, unknown, unsat}, {}, {}, 0};
  const detail::rounds_outcome c = capped.run(100'000, 500);
  EXPECT_EQ(c.rounds, 1u);
  EXPECT_EQ(c.queries, 3u);
  EXPECT_EQ(c.unsat, 1u);
  EXPECT_EQ(c.unknown, 2u);
  // A budget smaller than the groups' first share: the groups after it are never asked.
  scripted_rounds tight{{forever, forever, forever, forever}, {unknown, unknown, unknown, unknown}, {}, {}, 0};
  const detail::rounds_outcome t = tight.run(250, 0);
  EXPECT_EQ(t.asked, 3u);  // 100, 100, 50 ms
  EXPECT_EQ(tight.clock, 250u);
  EXPECT_EQ(detail::ask_in_rounds(
                0, 1000, 0, [](std::size_t, unsigned) { return sat; }, [] { return 0; })
                .queries,
            0u);
}

TEST(torus_smt, upward_search_keeps_bounds_when_a_query_runs_out_of_time) {
  using enum solver_answer;
  // 3 x 5: counting bound ceil(14/4) = 4.
  const auto proven = scripted({{4, unsat}, {5, unsat}});
  EXPECT_EQ(proven.status, proof_status::proven);
  EXPECT_EQ(proven.minimum_steps, 6u);
  EXPECT_EQ(proven.proven_lower, 6u);
  EXPECT_EQ(proven.upper_bound, 6u);
  EXPECT_EQ(proven.below_minimum.reason, "scripted 5");
  // Unknown at 5, sat at 6: between 5 and 6, not proven.
  const auto between = scripted({{4, unsat}, {5, unknown}});
  EXPECT_EQ(between.status, proof_status::unknown);
  EXPECT_EQ(between.minimum_steps, 5u);
  EXPECT_EQ(between.proven_lower, 5u);
  EXPECT_EQ(between.upper_bound, 6u);
  ASSERT_TRUE(between.upper.has_value());
  EXPECT_EQ(between.upper->reason, "scripted 6");
  EXPECT_NE(between.reason.find("at least 5, at most 6"), std::string::npos) << between.reason;
  // Unknown at 4, unsat at 5 (so 4 is unsat too), sat at 6: proven after all.
  const auto recovered = scripted({{4, unknown}, {5, unsat}});
  EXPECT_EQ(recovered.status, proof_status::proven);
  EXPECT_EQ(recovered.minimum_steps, 6u);
  EXPECT_EQ(recovered.proven_lower, 6u);
  // Unknown at 5 with a 5-step table from the heuristic: proven (4 unsat), no further query.
  const auto closed = scripted({{4, unsat}, {5, unknown}}, 5);
  EXPECT_EQ(closed.status, proof_status::proven);
  EXPECT_EQ(closed.minimum_steps, 5u);
  EXPECT_EQ(closed.at_minimum.reason, "heuristic");
  // Unknown at 4 and 5 with a 6-step table: between 4 and 6.
  const auto wide = scripted({{4, unknown}, {5, unknown}}, 6);
  EXPECT_EQ(wide.status, proof_status::unknown);
  EXPECT_EQ(wide.proven_lower, 4u);
  EXPECT_EQ(wide.upper_bound, 6u);
  EXPECT_EQ(wide.minimum_steps, 4u);
  // A heuristic table below a certified unsat is reported, never taken as a minimum (here the script lies: 3 x 5
  // pairing does complete in 5 steps).
  const auto inconsistent = scripted({{4, unsat}, {5, unsat}, {6, unknown}}, 5);
  EXPECT_EQ(inconsistent.status, proof_status::unknown);
  EXPECT_NE(inconsistent.reason.find("inconsistent"), std::string::npos) << inconsistent.reason;
  // Three queries out of time end the search without a witness.
  const auto given_up = scripted({{4, unknown}, {5, unknown}, {6, unknown}});
  EXPECT_EQ(given_up.status, proof_status::unknown);
  EXPECT_EQ(given_up.proven_lower, 4u);
  EXPECT_EQ(given_up.upper_bound, 0u);
  EXPECT_NE(given_up.reason.find("3 queries ran out of time"), std::string::npos) << given_up.reason;
  // Unsat all the way to d·P = 30 steps: no pairing completes (refuted).
  std::map<std::uint64_t, solver_answer> never;
  for (std::uint64_t T = 4; T <= 30; ++T) never[T] = unsat;
  EXPECT_EQ(scripted(never).status, proof_status::refuted);
}

TEST(torus_smt, local_search_reaches_the_proven_minima_of_small_tori) {
  // Minima proven by the SAT search (docs/torus-limits.md): 4 x 4 needs 6 steps with pairings and 5 in general; 3 x 5
  // needs 5 in both. The local search must find tables that reach them, and its tables are simulated here again. A
  // work count ends the searches, the deadline far off, so the answers are the same on any machine under any load
  // (4 x 4 general: the pairing start spends its half, as the pairing minimum 6 is above the goal; then 5 within
  // about 62,000 more tables).
  struct expected {
    const char* dims;
    torus_model model;
    std::uint64_t minimum;
  };
  for (const expected& e : {expected{"4x4", torus_model::pairing, 6}, expected{"4x4", torus_model::general, 5},
                            expected{"3x5", torus_model::pairing, 5}, expected{"3x5", torus_model::general, 5}}) {
    const torus::network t = torus::network::parse(e.dims);
    const torus_heuristic_result h = search_torus_table(
        t, e.model, 600'000, {.seed = 7, .goal = e.minimum, .packets = 1, .max_evaluations = 1'000'000});
    ASSERT_TRUE(h.table.has_value()) << e.dims;
    EXPECT_EQ(h.steps, e.minimum) << e.dims << " " << to_string(e.model);
    const gossip_report run = simulate_gossip(*h.table);
    EXPECT_TRUE(run.holds()) << e.dims;
    EXPECT_EQ(run.steps, h.steps) << e.dims;
    // A pairing table forwards every in-port by exactly one out-port.
    if (e.model == torus_model::pairing) {
      EXPECT_TRUE(forwarding_cycles(*h.table, {.require_hamiltonian = false}).holds()) << e.dims;
    }
  }
  // The counting bound is a floor for the goal: 3 x 3 in general reaches 2 = ceil(8/4) and stops there, before the
  // work count (its pairing start, whose minimum is 3, spends its half first).
  const torus_heuristic_result floor =
      search_torus_table(torus::network({3, 3}), torus_model::general, 600'000,
                         {.seed = 1, .goal = 1, .packets = 1, .max_evaluations = 1'000'000});
  EXPECT_EQ(floor.steps, 2u);
  EXPECT_LT(floor.evaluations, 1'000'000u);
  EXPECT_GE(floor.evaluations, 500'000u);
}

// The work count ends a search whose goal is out of reach (4 x 4 pairing needs 6; the goal 5 is not met), long before
// the deadline: after the count, checked every burst of 64 changes, and with the same table on every run of the seed.
TEST(torus_smt, local_search_work_count_is_deterministic) {
  const torus::network t({4, 4});
  const torus_heuristic_result a = search_torus_table(t, torus_model::pairing, 600'000,
                                                      {.seed = 3, .goal = 5, .packets = 1, .max_evaluations = 10'000});
  const torus_heuristic_result b = search_torus_table(t, torus_model::pairing, 600'000,
                                                      {.seed = 3, .goal = 5, .packets = 1, .max_evaluations = 10'000});
  EXPECT_GE(a.evaluations, 10'000u);
  EXPECT_LT(a.evaluations, 10'000u + 64u);
  EXPECT_EQ(a.evaluations, b.evaluations);
  ASSERT_TRUE(a.table.has_value() && b.table.has_value());
  EXPECT_EQ(a.table->forward, b.table->forward);
  EXPECT_GE(a.steps, 6u);
  EXPECT_EQ(simulate_gossip(*a.table).steps, a.steps);
  // the general model's pairing start gets half the count, and the whole search stays within it
  const torus_heuristic_result g = search_torus_table(t, torus_model::general, 600'000,
                                                      {.seed = 3, .goal = 4, .packets = 1, .max_evaluations = 10'000});
  EXPECT_GE(g.evaluations, 10'000u);
  EXPECT_LT(g.evaluations, 10'000u + 2u * 64u);
}

// A start table: the search begins from its forwarding, so it never ends worse than the start, even with
// a work count of one burst (from a random table, 64 changes end far above 4 x 4's minimum 6, or with no table); in
// the general model too. Bad starts are refused.
TEST(torus_smt, local_search_from_a_start_table) {
  const torus::network t({4, 4});
  const torus_heuristic_result found = search_torus_table(
      t, torus_model::pairing, 600'000, {.seed = 3, .goal = 6, .packets = 1, .max_evaluations = 200'000});
  ASSERT_TRUE(found.table.has_value());
  ASSERT_EQ(found.steps, 6u);  // the proven minimum
  for (torus_model model : {torus_model::pairing, torus_model::general}) {
    const torus_heuristic_result again = search_torus_table(
        t, model, 600'000, {.seed = 5, .goal = 0, .packets = 1, .max_evaluations = 64, .start = found.table});
    ASSERT_TRUE(again.table.has_value());
    EXPECT_LE(again.steps, 6u);
    EXPECT_EQ(simulate_gossip(*again.table).steps, again.steps);
  }
  // general: an idle out-port of the start forwards straight on
  routing_table idle = *found.table;
  idle.forward_at(0, 0) = no_port;
  const torus_heuristic_result from_idle = search_torus_table(
      t, torus_model::general, 600'000, {.seed = 5, .goal = 0, .packets = 1, .max_evaluations = 64, .start = idle});
  ASSERT_TRUE(from_idle.table.has_value());
  for (std::uint32_t in : from_idle.table->forward) EXPECT_LT(in, t.ports());
  // a general table that is no pairing, a table of another torus, a table with switches
  routing_table unpaired = *found.table;
  unpaired.forward_at(0, 0) = unpaired.forward_at(0, 1);
  EXPECT_THROW(search_torus_table(t, torus_model::pairing, 1'000,
                                  {.seed = 1, .goal = 0, .packets = 1, .max_evaluations = 64, .start = unpaired}),
               std::invalid_argument);
  EXPECT_NO_THROW(search_torus_table(t, torus_model::general, 1'000,
                                     {.seed = 1, .goal = 0, .packets = 1, .max_evaluations = 64, .start = unpaired}));
  routing_table other = *found.table;
  other.network = torus::network({2, 8});
  EXPECT_THROW(search_torus_table(t, torus_model::pairing, 1'000,
                                  {.seed = 1, .goal = 0, .packets = 1, .max_evaluations = 64, .start = other}),
               std::invalid_argument);
  routing_table switched = *found.table;
  switched.switches.push_back({0, 0, 3, 1, 1});
  EXPECT_THROW(search_torus_table(t, torus_model::pairing, 1'000,
                                  {.seed = 1, .goal = 0, .packets = 1, .max_evaluations = 64, .start = switched}),
               std::invalid_argument);
}

// The tabu search: on 4 x 8 pairing it reaches the proven minimum 10 (9 is unsat with a checked DRAT
// proof, docs/torus-limits.md) within 8,000 iterations with seed 2 — a table that the SAT query took 2,112 s to find
// and that the local search does not reach in 30 s (docs/performance.md). The iteration count ends the search, so
// the answer is the same on any machine; the table is simulated here again and is a pairing at every PU.
TEST(torus_smt, tabu_search_reaches_the_4x8_pairing_minimum) {
  const torus::network t({4, 8});
  const torus_heuristic_result h =
      tabu_search_torus_table(t, torus_model::pairing, 600'000, {.seed = 2, .goal = 10, .max_iterations = 8'000});
  ASSERT_TRUE(h.table.has_value());
  EXPECT_EQ(h.steps, 10u);
  const gossip_report run = simulate_gossip(*h.table);
  EXPECT_TRUE(run.holds());
  EXPECT_EQ(run.steps, 10u);
  EXPECT_TRUE(forwarding_cycles(*h.table, {.require_hamiltonian = false}).holds());
  EXPECT_EQ(torus_missing_pairs(*h.table, 10), 0u);
  EXPECT_GT(torus_missing_pairs(*h.table, 9), 0u);
}

// Deterministic for a seed under an iteration count; the goal stops it (3 x 3 general: the counting bound 2, which its
// pairing start, whose minimum is 3, cannot reach); it never reports a table the simulator does not complete within
// its steps, and `closest` is what is missing one step below. Bad start tables are refused as by the local search.
TEST(torus_smt, tabu_search_is_deterministic_and_checks_its_tables) {
  const torus::network t({4, 4});
  const torus_heuristic_result a =
      tabu_search_torus_table(t, torus_model::general, 600'000, {.seed = 3, .goal = 0, .max_iterations = 400});
  const torus_heuristic_result b =
      tabu_search_torus_table(t, torus_model::general, 600'000, {.seed = 3, .goal = 0, .max_iterations = 400});
  ASSERT_TRUE(a.table.has_value() && b.table.has_value());
  EXPECT_EQ(a.table->forward, b.table->forward);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_GE(a.steps, 5u);  // 4 x 4 general needs 5 (proven)
  EXPECT_EQ(simulate_gossip(*a.table).steps, a.steps);
  if (a.steps > 5) {
    EXPECT_GT(a.closest, 0u);
  }
  const torus_heuristic_result floor = tabu_search_torus_table(torus::network({3, 3}), torus_model::general, 600'000,
                                                               {.seed = 1, .goal = 0, .max_iterations = 20'000});
  EXPECT_EQ(floor.steps, 2u);
  // from a start table: never worse than the start, even with one iteration
  const torus_heuristic_result found =
      tabu_search_torus_table(t, torus_model::pairing, 600'000, {.seed = 1, .goal = 6, .max_iterations = 5'000});
  ASSERT_TRUE(found.table.has_value());
  ASSERT_EQ(found.steps, 6u);  // the proven minimum of 4 x 4 pairing
  for (torus_model model : {torus_model::pairing, torus_model::general}) {
    const torus_heuristic_result again =
        tabu_search_torus_table(t, model, 600'000, {.seed = 5, .goal = 0, .max_iterations = 1, .start = found.table});
    ASSERT_TRUE(again.table.has_value());
    EXPECT_LE(again.steps, 6u);
  }
  routing_table unpaired = *found.table;
  unpaired.forward_at(0, 0) = unpaired.forward_at(0, 1);
  EXPECT_THROW(tabu_search_torus_table(t, torus_model::pairing, 1'000,
                                       {.seed = 1, .goal = 0, .max_iterations = 1, .start = unpaired}),
               std::invalid_argument);
  EXPECT_NO_THROW(tabu_search_torus_table(t, torus_model::general, 1'000,
                                          {.seed = 1, .goal = 0, .max_iterations = 1, .start = unpaired}));
  routing_table other = *found.table;
  other.network = torus::network({2, 8});
  EXPECT_THROW(tabu_search_torus_table(t, torus_model::pairing, 1'000,
                                       {.seed = 1, .goal = 0, .max_iterations = 1, .start = other}),
               std::invalid_argument);
  routing_table switched = *found.table;
  switched.switches.push_back({0, 0, 3, 1, 1});
  EXPECT_THROW(tabu_search_torus_table(t, torus_model::pairing, 1'000,
                                       {.seed = 1, .goal = 0, .max_iterations = 1, .start = switched}),
               std::invalid_argument);
  // the count refuses what it does not count
  routing_table two = *found.table;
  two.packets = 2;
  EXPECT_THROW(torus_missing_pairs(two, 6), std::invalid_argument);
  routing_table silent = *found.table;
  silent.inject_at(0, 0) = no_packet;
  EXPECT_THROW(torus_missing_pairs(silent, 6), std::invalid_argument);
  routing_table wild = *found.table;
  wild.forward_at(3, 1) = 4;  // 2-D: ports 0 … 3
  EXPECT_THROW(torus_missing_pairs(wild, 6), std::invalid_argument);
  // any horizon: after as many steps as links nothing new arrives (6 steps complete, so 2^64 - 1 does too)
  EXPECT_EQ(torus_missing_pairs(*found.table, UINT64_MAX), 0u);
  EXPECT_EQ(found.closest, 0u);  // stopped at its goal 6: nothing asked below
}

// The tabu search over the tables invariant under a group: 4 x 5 general needs 6 steps (proven), and a
// table invariant under the 5 translations by (0, 1) reaches it, as one invariant under a mixed group of 20
// automorphisms (reflections among them, so the stabilizers tie a PU's out-ports together); 3 x 9 general needs 8, and
// the 9 translations by (1, 2) reach it. Each table is simulated and checked invariant by the automorphisms themselves.
// Bad starts and groups are refused.
TEST(torus_smt, tabu_search_over_invariant_tables) {
  const torus::network t45({4, 5}), t39({3, 9});
  const std::vector<torus_symmetry_group> translations45 = invariant_group_list(t45, invariant_groups::translations);
  const std::vector<torus_symmetry_group> mixed45 = invariant_group_list(t45, invariant_groups::with_mixed);
  const std::vector<torus_symmetry_group> translations39 = invariant_group_list(t39, invariant_groups::translations);
  ASSERT_EQ(describe(t45, translations45[2]), "5 translations generated by (0,1)");
  ASSERT_EQ(describe(t39, translations39[3]), "9 translations generated by (1,2)");
  ASSERT_EQ(mixed45[28].order, 20u);
  ASSERT_FALSE(mixed45[28].automorphisms.empty());
  struct case_t {
    const torus::network& t;
    torus_symmetry_group group;
    std::uint64_t minimum;
  };
  for (const case_t& c :
       {case_t{t45, translations45[2], 6}, case_t{t45, mixed45[28], 6}, case_t{t39, translations39[3], 8}}) {
    SCOPED_TRACE(describe(c.t, c.group));
    const torus_heuristic_result h = tabu_search_torus_table(
        c.t, torus_model::general, 600'000, {.seed = 1, .goal = c.minimum, .max_iterations = 3'000, .group = c.group});
    ASSERT_TRUE(h.table.has_value());
    EXPECT_EQ(h.steps, c.minimum);
    const gossip_report run = simulate_gossip(*h.table);
    EXPECT_TRUE(run.holds());
    EXPECT_EQ(run.steps, c.minimum);
    std::vector<torus_automorphism> generators = c.group.automorphisms;
    for (const auto& shift : c.group.translations) generators.push_back(torus_automorphism{{0, 1, 2, 3}, shift});
    expect_invariant(*h.table, generators);
    // its table is a start the same search takes, and it never ends worse
    const torus_heuristic_result again =
        tabu_search_torus_table(c.t, torus_model::general, 600'000,
                                {.seed = 2, .goal = 0, .max_iterations = 1, .start = h.table, .group = c.group});
    ASSERT_TRUE(again.table.has_value());
    EXPECT_LE(again.steps, c.minimum);
  }
  // a start that is not invariant, and a translation of the wrong dimension, are refused
  routing_table broken =
      *tabu_search_torus_table(t45, torus_model::general, 600'000,
                               {.seed = 1, .goal = 0, .max_iterations = 1, .group = translations45[2]})
           .table;
  broken.forward_at(0, 0) = broken.forward_at(0, 0) == 1 ? 2 : 1;  // PU 0 alone: its orbit's other PUs keep theirs
  EXPECT_THROW(
      tabu_search_torus_table(t45, torus_model::general, 1'000,
                              {.seed = 1, .goal = 0, .max_iterations = 1, .start = broken, .group = translations45[2]}),
      std::invalid_argument);
  EXPECT_NO_THROW(tabu_search_torus_table(t45, torus_model::general, 1'000,
                                          {.seed = 1, .goal = 0, .max_iterations = 1, .start = broken}));
  torus_symmetry_group wrong;
  wrong.translations = {{0, 1, 0}};
  wrong.order = 5;
  EXPECT_THROW(tabu_search_torus_table(t45, torus_model::general, 1'000,
                                       {.seed = 1, .goal = 0, .max_iterations = 1, .group = wrong}),
               std::invalid_argument);
}

// The solver's start: 3 x 12 general under the point group of order 4 generated by (x1, x2) -> (-x1, x2)
// and (x1, x2) -> (x1, -x2 + 1), which fixes the PUs with x1 = 0. The pairing search under it completes no table, and
// the tabu search from its random start stays far above the group's 12 steps (22); a timed run asks
// the SAT query of the group from the goal up and starts from its table.
TEST(torus_smt, tabu_search_over_a_group_that_fixes_pus_starts_from_the_solver) {
  const torus::network t({3, 12});
  const torus_symmetry_group group = invariant_group_list(t, invariant_groups::point).at(1);
  ASSERT_EQ(describe(t, group), "4 automorphisms generated by (x1, x2) -> (-x1, x2); (x1, x2) -> (x1, -x2 + 1)");
  const std::vector<torus_automorphism>& generators = group.automorphisms;
  // without the solver
  const torus_heuristic_result alone = tabu_search_torus_table(
      t, torus_model::general, 600'000, {.seed = 1, .goal = 12, .max_iterations = 5'000, .group = group});
  if (alone.table) {
    EXPECT_GT(alone.steps, 14u);
  }
  // with it: after the pairing search's 2,500 iterations the SAT query over the group's tables is asked at the goal
  // (it needs about 2 s of the quarter of the budget it gets), and its table, simulated, ends the run
  const torus_heuristic_result solved =
      tabu_search_torus_table(t, torus_model::general, 600'000,
                              {.seed = 1,
                               .goal = 12,
                               .max_iterations = 5'000,
                               .group = group,
                               .solver = invariant_table_solver(t, torus_model::general)});
  ASSERT_TRUE(solved.table.has_value());
  EXPECT_EQ(solved.solver_queries, 1u);
  EXPECT_EQ(solved.solver_steps, 12u);
  EXPECT_EQ(solved.steps, 12u);
  expect_invariant(*solved.table, generators);
  // a search from that table by a count of iterations keeps it
  const torus_heuristic_result seeded =
      tabu_search_torus_table(t, torus_model::general, 600'000,
                              {.seed = 1, .goal = 12, .max_iterations = 100, .start = solved.table, .group = group});
  ASSERT_TRUE(seeded.table.has_value());
  EXPECT_EQ(seeded.steps, 12u);
  EXPECT_EQ(seeded.closest, 0u);
  const gossip_report run = simulate_gossip(*seeded.table);
  EXPECT_TRUE(run.holds());
  EXPECT_EQ(run.steps, 12u);
  expect_invariant(*seeded.table, generators);
  // and below the goal it goes on from that table: never worse than the solver's table
  const torus_heuristic_result lower =
      tabu_search_torus_table(t, torus_model::general, 600'000,
                              {.seed = 1, .goal = 11, .max_iterations = 2'000, .start = solved.table, .group = group});
  ASSERT_TRUE(lower.table.has_value());
  EXPECT_LE(lower.steps, 12u);
  expect_invariant(*lower.table, generators);
}

}  // namespace
}  // namespace dancecard
