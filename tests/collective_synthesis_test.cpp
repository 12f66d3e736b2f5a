// Least steps of collectives, proven: a witness the collective checker accepts and a DRAT proof one step below that
// the DRAT checker accepts, on networks whose answers are known (SCCL's DGX-1 all-gather, rings, the hypercube) and
// against the checker's own lower bounds; the (C, S, R) frontier built from them.
#include <gtest/gtest.h>

#include <tuple>

#include "dancecard/checkers/msccl_import.hpp"
#include "dancecard/smt/collective_frontier.hpp"
#include "dancecard/smt/collective_synthesis.hpp"

namespace dancecard::collective {
namespace {

least_steps_result least(const topology& net, collective_kind kind, std::uint32_t chunks,
                         synthesis_options options = {}) {
  options.budget_ms = 0;  // small queries: no time limit, so the answer never depends on the machine's speed
  return prove_least_steps(net, {kind, net.size(), chunks, 0}, options);
}

void expect_proven(const least_steps_result& r, std::uint64_t steps) {
  ASSERT_EQ(r.status, proof_status::proven) << r.reason;
  EXPECT_EQ(r.steps, steps) << r.reason;
  ASSERT_TRUE(r.witness);
  EXPECT_TRUE(check_collective_schedule(*r.witness).holds());
  EXPECT_EQ(r.witness->steps.size(), steps);
  ASSERT_EQ(r.queries.size(), steps + 1);
  if (steps > 0) {  // refuted by CaDiCaL with a checked DRAT proof, or by a cut with a checked cutting-planes one
    const std::string& below = r.queries[steps - 1].detail;
    EXPECT_TRUE(below.find("DRAT proof checked") != std::string::npos ||
                below.find("cutting-planes certificate checked") != std::string::npos)
        << below;
  }
}

TEST(collective_synthesis, dgx1_allgather_in_two_steps_as_sccl_reports) {
  expect_proven(least(dgx1_topology(), collective_kind::allgather, 1), 2);  // SCCL's (C, S, R) = (1, 2, 2)
}

TEST(collective_synthesis, dgx1_allgather_2_2_3_with_rounds_distributed_over_the_steps) {
  synthesis_options options;
  options.budget_ms = 0;
  options.cut_certificates = false;  // 2 rounds refuted by CaDiCaL and DRAT (collective_cut_test: by the cut)
  const least_steps_result r =
      prove_least_rounds(dgx1_topology(), {collective_kind::allgather, 8, 2, 0}, 2, 8, options);  // SCCL's (2, 2, 3)
  ASSERT_EQ(r.status, proof_status::proven) << r.reason;
  ASSERT_TRUE(r.witness);
  EXPECT_EQ(r.witness->rounds(), 3u);
  EXPECT_EQ(r.witness->steps.size(), 2u);
  EXPECT_TRUE(check_collective_schedule(*r.witness).holds());
  ASSERT_EQ(r.queries.size(), 2u);  // 2 rounds refuted, 3 found
  EXPECT_NE(r.queries[0].detail.find("DRAT proof checked"), std::string::npos) << r.queries[0].detail;
  EXPECT_THROW(collective_steps_cnf(dgx1_topology(), {collective_kind::allgather, 8, 1, 0}, 3,
                                    synthesis_options{.total_rounds = 2}),
               std::invalid_argument);  // fewer rounds than steps
}

TEST(collective_synthesis, rings_and_the_hypercube) {
  synthesis_options one_port;
  one_port.ports = port_model::one_port_full_duplex;
  for (rank n : {3u, 4u, 6u}) {
    expect_proven(least(ring_topology(n), collective_kind::allgather, 1), n / 2);            // all-port: the diameter
    expect_proven(least(ring_topology(n), collective_kind::allgather, 1, one_port), n - 1);  // one chunk in a step
  }
  synthesis_options doubling = one_port;
  doubling.rounds_per_step = 4;  // recursive doubling's last step moves 4 chunks
  expect_proven(least(hypercube_topology(3), collective_kind::allgather, 1, doubling), 3);
}

TEST(collective_synthesis, never_below_the_checkers_bounds) {
  // DGX-1 all-to-all, one chunk per pair: the cut between the quads needs 3 rounds (16 chunks over 6), one a step.
  const least_steps_result r = least(dgx1_topology(), collective_kind::alltoall, 1);
  ASSERT_EQ(r.status, proof_status::proven) << r.reason;
  const collective_report check = check_collective_schedule(*r.witness);
  EXPECT_GE(r.steps, check.round_bound);
  EXPECT_GE(r.steps, check.step_bound);
  EXPECT_GE(check.round_bound, 3u);
}

TEST(collective_synthesis, reduce_scatter_and_reduce_by_inversion) {
  // DGX-1's links are the same both ways, so the reduce-scatter takes the all-gather's 2 steps; a one-way ring turned
  // round is a one-way ring the other way: its all-gather and so its reduce-scatter take n − 1 steps.
  const least_steps_result rs = least(dgx1_topology(), collective_kind::reduce_scatter, 1);
  expect_proven(rs, 2);
  for (const step& st : rs.witness->steps)
    for (const transfer& t : st.transfers) EXPECT_EQ(t.op, transfer_op::reduce);
  std::vector<link> one_way;
  for (rank r = 0; r < 5; ++r) one_way.push_back({r, (r + 1) % 5, 1});
  expect_proven(least(topology("one-way ring", 5, one_way), collective_kind::reduce_scatter, 1), 4);
  expect_proven(least(hypercube_topology(3), collective_kind::reduce, 2), 3);  // the binomial tree's depth
}

TEST(collective_synthesis, combining_collectives_and_half_duplex_are_refused) {
  EXPECT_THROW(collective_steps_cnf(ring_topology(4), {collective_kind::allreduce, 4, 1, 0}, 2), std::invalid_argument);
  synthesis_options half;
  half.ports = port_model::one_port_half_duplex;
  EXPECT_THROW(collective_steps_cnf(ring_topology(4), {collective_kind::allgather, 4, 1, 0}, 2, half),
               std::invalid_argument);
}

TEST(collective_synthesis, a_formula_past_the_clause_limit_is_a_resource_limit_and_the_answer_unknown) {
  synthesis_options small;
  small.max_clauses = 100;
  const collective ag{collective_kind::allgather, 6, 1, 0};
  EXPECT_THROW(collective_steps_cnf(ring_topology(6), ag, 2, small), formula_too_large);
  EXPECT_THROW(combining_steps_cnf(ring_topology(6), {collective_kind::allreduce, 6, 1, 0}, 2, small),
               formula_too_large);
  EXPECT_THROW(quotient_steps_cnf(ring_topology(6), ag, 4, small), formula_too_large);
  EXPECT_NO_THROW(collective_steps_cnf(ring_topology(6), ag, 2));  // the default limit
  // Asked of the solver: unknown at the first query whose formula passes it, naming the limit; never a crash.
  small.cut_certificates = false;
  small.symmetric_witnesses = false;
  const least_steps_result r = prove_least_steps(ring_topology(6), ag, small);
  EXPECT_EQ(r.status, proof_status::unknown);
  EXPECT_NE(r.reason.find("max_clauses"), std::string::npos) << r.reason;
  ASSERT_FALSE(r.queries.empty());
  EXPECT_EQ(r.queries.back().answer, solver_answer::unknown);
  // With the invariant witnesses the quotient is smaller: still a witness where only the whole formula is too large.
  synthesis_options quotient_only;
  quotient_only.cut_certificates = false;
  quotient_only.total_rounds = 3;  // as prove_least_rounds asks 3 rounds in 3 steps
  quotient_only.max_clauses = collective_steps_cnf(ring_topology(6), ag, 3, quotient_only).clauses.size() - 1;
  EXPECT_THROW(collective_steps_cnf(ring_topology(6), ag, 3, quotient_only), formula_too_large);
  EXPECT_NO_THROW(quotient_steps_cnf(ring_topology(6), ag, 3, quotient_only));
  const least_steps_result q = prove_least_rounds(ring_topology(6), ag, 3, 0, quotient_only);
  EXPECT_EQ(q.status, proof_status::proven) << q.reason;
}

TEST(collective_synthesis, where_the_whole_formula_is_too_large_the_invariant_query_goes_on) {
  // The 16-rank hypercube's (4, 4, 15): the invariant query, capped at one conflict, has no answer yet; the whole
  // formula (16 times the quotient's variables) passes the limit; the invariant query then goes on, uncapped, and its
  // witness is judged by the checker.
  const topology net = hypercube_topology(4);
  const collective ag{collective_kind::allgather, 16, 4, 0};
  synthesis_options options;
  options.budget_ms = 0;
  options.symmetric_conflicts = 1;
  options.total_rounds = 15;
  const std::optional<quotient_query> q = quotient_steps_cnf(net, ag, 4, options);
  ASSERT_TRUE(q);
  resumable_solve capped(q->formula);
  ASSERT_EQ(capped.solve(0, nullptr, 1).answer, solver_answer::unknown);  // the path below is taken
  options.max_clauses = 2 * q->formula.clauses.size();
  EXPECT_THROW(collective_steps_cnf(net, ag, 4, options), formula_too_large);
  options.total_rounds.reset();
  const least_steps_result r = prove_least_rounds(net, ag, 4, 11, options);
  ASSERT_EQ(r.status, proof_status::proven) << r.reason;
  EXPECT_EQ(check_collective_schedule(*r.witness).rounds, 15u);
  EXPECT_NE(r.queries.back().detail.find("invariant under the network's translations"), std::string::npos);
}

// The frontier of all-gather on ring:4 for C ≤ 3, S = 2, 3. Each rank must take in 3·C chunks over two in-links, so
// R ≥ ⌈3C/2⌉: 2, 3, 5. With S = 2, (1, 2, 2) and (2, 2, 3) reach it; (3, 2, 5) is beaten by (2, 2, 3) (fewer rounds,
// and rounds per chunk 3/2 < 5/3); one more step never lowers R here, so S = 3 only repeats or loses.
TEST(collective_frontier, ring_4_allgather) {
  frontier_options o{.max_chunks = 3, .max_extra_steps = 1, .max_extra_rounds = 8, .synthesis = {}};
  o.synthesis.budget_ms = 0;  // no time limit: the answer never depends on the machine's speed
  const frontier_result f = prove_frontier(ring_topology(4), {collective_kind::allgather, 4, 1, 0}, o);
  ASSERT_EQ(f.status, proof_status::proven) << f.reason;
  EXPECT_EQ(f.least_steps, 2u);
  ASSERT_EQ(f.points.size(), 6u);
  const std::uint64_t expected_rounds[] = {2, 3, 5, 3, 3, 5};  // (C, S) = (1, 2) … (3, 2), (1, 3) … (3, 3)
  for (std::size_t i = 0; i < 6; ++i) {
    const frontier_point& p = f.points[i];
    EXPECT_EQ(p.rounds, expected_rounds[i]) << "C = " << p.chunks << ", S = " << p.steps;
    ASSERT_TRUE(p.witness);
    EXPECT_EQ(p.witness->rounds(), p.rounds);
    EXPECT_EQ(p.witness->steps.size(), p.steps);
    EXPECT_TRUE(check_collective_schedule(*p.witness).holds());
    EXPECT_GE(p.rounds, p.cut_bound);
  }
  ASSERT_EQ(f.frontier, (std::vector<std::size_t>{0, 1}));
  EXPECT_FALSE(f.points[0].corner);  // (2, 2, 3) has the same steps and fewer rounds per chunk
  EXPECT_TRUE(f.points[1].corner);
  EXPECT_FALSE(f.points[4].on_frontier);  // (2, 3, 3): (2, 2, 3) is as good with fewer steps
}

// A star of five ranks: every leaf takes in 4·C chunks over its one link, so one round a step needs 4 steps for C = 1,
// but two steps of 1 and 3 rounds do it (the leaves to the hub, then the hub to the leaves). SCCL's steps count from
// what any number of rounds allows: the frontier starts at 2 steps, where (1, 2, 4) reaches the leaves' bound.
TEST(collective_frontier, steps_count_from_what_any_rounds_allow) {
  std::vector<link> links;
  for (rank leaf = 1; leaf < 5; ++leaf) links.insert(links.end(), {link{0, leaf, 1}, link{leaf, 0, 1}});
  const topology star("star:5", 5, links);
  synthesis_options one_round;
  one_round.budget_ms = 0;
  EXPECT_EQ(prove_least_steps(star, {collective_kind::allgather, 5, 1, 0}, one_round).steps, 4u);
  frontier_options o{.max_chunks = 2, .max_extra_steps = 2, .max_extra_rounds = 2, .synthesis = {}};
  o.synthesis.budget_ms = 0;
  const frontier_result f = prove_frontier(star, {collective_kind::allgather, 5, 1, 0}, o);
  ASSERT_EQ(f.status, proof_status::proven) << f.reason;
  EXPECT_EQ(f.least_steps, 2u);
  ASSERT_EQ(f.points.size(), 6u);
  for (const frontier_point& p : f.points) {
    EXPECT_EQ(p.rounds, 4u * p.chunks) << "C = " << p.chunks << ", S = " << p.steps;
    ASSERT_TRUE(p.witness);
    EXPECT_EQ(p.witness->steps.size(), p.steps);
    EXPECT_TRUE(check_collective_schedule(*p.witness).holds());
  }
  ASSERT_EQ(f.frontier, (std::vector<std::size_t>{0}));  // (1, 2, 4); more steps or chunks only repeat 4 a chunk
  EXPECT_TRUE(f.points[0].corner);
}

TEST(collective_frontier, rounds_beyond_the_range_leave_the_frontier_unknown) {
  // DGX-1, two steps, no rounds asked above the cut bound: C = 3 needs 5 rounds where the cut asks 4, so its point is
  // unsettled, and the frontier with it.
  frontier_options o{.max_chunks = 3, .max_extra_steps = 0, .max_extra_rounds = 0, .synthesis = {}};
  o.synthesis.budget_ms = 0;
  const frontier_result f = prove_frontier(dgx1_topology(), {collective_kind::allgather, 8, 1, 0}, o);
  EXPECT_EQ(f.status, proof_status::unknown);
  ASSERT_EQ(f.points.size(), 3u);
  EXPECT_EQ(f.points[1].status, proof_status::proven);
  EXPECT_EQ(f.points[1].rounds, 3u);
  EXPECT_EQ(f.points[2].status, proof_status::unknown);
  EXPECT_EQ(f.points[2].cut_bound, 4u);
  EXPECT_EQ(f.points[2].rounds, 0u);
  EXPECT_EQ(f.frontier, (std::vector<std::size_t>{0, 1}));
  o.max_extra_rounds = 1;  // one round more settles it: 5
  const frontier_result g = prove_frontier(dgx1_topology(), {collective_kind::allgather, 8, 1, 0}, o);
  EXPECT_EQ(g.status, proof_status::proven) << g.reason;
  EXPECT_EQ(g.points[2].rounds, 5u);
  EXPECT_THROW(
      prove_frontier(ring_topology(4), {collective_kind::allgather, 4, 1, 0}, {.max_chunks = 0, .synthesis = {}}),
      std::invalid_argument);
}

TEST(collective_synthesis, allreduce_directly_needs_no_more_steps_than_the_composition) {
  for (rank n : {3u, 4u, 6u}) {
    synthesis_options o;
    o.budget_ms = 0;
    const least_steps_result r = prove_least_steps(ring_topology(n), {collective_kind::allreduce, n, 1, 0}, o);
    ASSERT_EQ(r.status, proof_status::proven) << r.reason;
    ASSERT_TRUE(r.witness) << r.reason;
    EXPECT_EQ(r.witness->coll.kind, collective_kind::allreduce);
    EXPECT_TRUE(check_collective_schedule(*r.witness).holds());
    EXPECT_LE(r.steps, 2 * (n / 2)) << n;  // the composition: reduce-scatter and all-gather, each the ring's diameter
    EXPECT_GE(r.steps, n / 2) << n;        // the diameter
  }
}

// SCCL's DGX-1 points exported as MSCCL-IR and imported back on DGX-1 keep their steps and rounds: the import's list
// schedule finds the rounds the k-synchronous witness had.
TEST(collective_synthesis, sccl_points_survive_export_and_import) {
  for (auto [chunks, steps, rounds] : {std::tuple{2u, 2u, 3u}, std::tuple{6u, 3u, 7u}}) {
    synthesis_options o;
    o.budget_ms = 0;
    const least_steps_result r =
        prove_least_rounds(dgx1_topology(), {collective_kind::allgather, 8, chunks, 0}, steps, 8, o);
    ASSERT_TRUE(r.witness) << r.reason;
    const msccl_import_result back = import_msccl(to_msccl(*r.witness), {.network = dgx1_topology()});
    ASSERT_TRUE(back.imported) << back.reason;
    EXPECT_EQ(back.imported->steps.size(), steps);
    EXPECT_EQ(back.imported->rounds(), rounds);
    EXPECT_TRUE(check_collective_schedule(*back.imported).holds());
  }
}

}  // namespace
}  // namespace dancecard::collective
