// The combining collectives asked directly (combining_steps_cnf): the generated all-reduce and reduce-scatter
// schedules are models of it, every single damage of them is a model exactly when the checker accepts the damaged
// schedule, and the least steps it proves are those of the checker's and the classic algorithms' bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "dancecard/core/collective/generators.hpp"
#include "dancecard/smt/collective_synthesis.hpp"
#include "dancecard/smt/cube_and_conquer.hpp"

namespace dancecard::collective {
namespace {

// The formula of the schedule's network, collective and steps, its rounds spread as the schedule has them, with its
// transfers as units (the numbering of the formula's comment: value(k, r, u, t), then copy and reduce per chunk,
// link and step, then the extra rounds t-major). nullopt where a transfer repeats (the formula has one variable each).
std::optional<cnf_formula> pinned(const schedule& s, port_model ports) {
  synthesis_options options;
  options.ports = ports;
  std::uint64_t R = 0;
  for (const step& st : s.steps) R += st.rounds;
  options.total_rounds = static_cast<std::uint32_t>(R);
  const std::uint64_t S = s.steps.size(), n = s.coll.ranks, K = s.coll.chunk_count(), L = s.network.links().size();
  cnf_formula f = combining_steps_cnf(s.network, s.coll, S, options);
  const int values = static_cast<int>((S + 1) * n * K * n);
  auto transfer_var = [&](std::uint64_t k, std::size_t l, std::uint64_t t, bool reduce) {
    return values + 1 + static_cast<int>(((t * L + l) * K + k) * 2) + reduce;
  };
  std::set<std::tuple<std::uint64_t, std::size_t, std::uint64_t, bool>> on;
  for (std::uint64_t t = 0; t < S; ++t)
    for (const transfer& x : s.steps[t].transfers) {
      const std::size_t l = s.network.link_index(x.from, x.to);
      if (l == L || !on.insert({x.chunk, l, t, x.op == transfer_op::reduce}).second) return std::nullopt;
    }
  for (std::uint64_t t = 0; t < S; ++t)
    for (std::size_t l = 0; l < L; ++l)
      for (std::uint64_t k = 0; k < K; ++k)
        for (const bool reduce : {false, true}) {
          const int v = transfer_var(k, l, t, reduce);
          f.clauses.push_back({on.count({k, l, t, reduce}) != 0 ? v : -v});
        }
  const int first_extra = values + static_cast<int>(S * L * K * 2) + 1;
  const std::uint64_t extra = R - S;
  for (std::uint64_t t = 0; t < S; ++t)
    for (std::uint64_t j = 1; j <= extra; ++j) {
      const int v = first_extra + static_cast<int>(t * extra + j - 1);
      f.clauses.push_back({s.steps[t].rounds >= 1 + j ? v : -v});
    }
  return f;
}

// all-port where the schedule's own port model is half duplex (a half-duplex schedule is one of them)
port_model encodable(port_model p) { return p == port_model::one_port_full_duplex ? p : port_model::all_port; }

std::vector<schedule> generated() {
  return {ring_allreduce(3),
          ring_allreduce(4),
          ring_allreduce(3, 2),
          ring_reduce_scatter(5),
          recursive_halving_reduce_scatter(4),
          rabenseifner_allreduce(4),
          binomial_reduce(5, 2),
          double_binary_tree_allreduce(5, 2)};
}

TEST(collective_combining, the_classic_algorithms_are_models) {
  for (const schedule& s : generated()) {
    ASSERT_TRUE(check_collective_schedule(s).holds()) << s.algorithm;
    const std::optional<cnf_formula> f = pinned(s, encodable(s.ports));
    ASSERT_TRUE(f) << s.algorithm;
    EXPECT_EQ(solve_for_model(*f, 0).answer, solver_answer::sat) << s.algorithm << " on " << s.network.name();
  }
}

TEST(collective_combining, every_single_damage_is_a_model_exactly_when_the_checker_accepts_it) {
  std::size_t compared = 0, rejected = 0;
  for (const schedule& s : generated()) {
    const port_model ports = encodable(s.ports);
    std::vector<schedule> damaged;
    for (std::size_t t = 0; t < s.steps.size(); ++t)
      for (std::size_t i = 0; i < s.steps[t].transfers.size(); ++i) {
        schedule drop = s, flip = s, other = s;
        drop.steps[t].transfers.erase(drop.steps[t].transfers.begin() + static_cast<std::ptrdiff_t>(i));
        transfer& x = flip.steps[t].transfers[i];
        x.op = x.op == transfer_op::reduce ? transfer_op::copy : transfer_op::reduce;
        transfer& y = other.steps[t].transfers[i];
        y.chunk = (y.chunk + 1) % s.coll.chunk_count();
        damaged.insert(damaged.end(), {drop, flip, other});
      }
    for (schedule& d : damaged) {
      d.ports = ports;
      const std::optional<cnf_formula> f = pinned(d, ports);
      if (!f) continue;  // a transfer twice: not one the formula writes
      const bool accepted = check_collective_schedule(d).holds();
      const bool model = solve_for_model(*f, 0).answer == solver_answer::sat;
      EXPECT_EQ(model, accepted) << s.algorithm << " on " << s.network.name() << "\n"
                                 << describe(check_collective_schedule(d));
      ++compared;
      rejected += !accepted;
    }
  }
  EXPECT_GT(compared, 300u);
  EXPECT_GT(rejected, compared / 2);  // most damages break the schedule (508 of 512) …
  EXPECT_GT(compared, rejected);      // … and some do not (a redundant copy dropped): both verdicts are compared
}

TEST(collective_combining, least_steps_of_all_reduce_directly) {
  synthesis_options options;
  options.budget_ms = 0;  // small queries: no time limit, so the answer never depends on the machine's speed
  struct cell {
    const char* network;
    std::uint64_t steps;
  };
  for (const cell& c : {cell{"ring:3", 2}, cell{"ring:4", 3}, cell{"complete:4", 2}, cell{"hypercube:2", 3}}) {
    const topology net = *builtin_topology(c.network);
    const least_steps_result r = prove_least_steps(net, {collective_kind::allreduce, net.size(), 1, 0}, options);
    ASSERT_EQ(r.status, proof_status::proven) << c.network << ": " << r.reason;
    EXPECT_EQ(r.steps, c.steps) << c.network;
    ASSERT_TRUE(r.witness);
    const collective_report check = check_collective_schedule(*r.witness);
    EXPECT_TRUE(check.holds()) << describe(check);
    EXPECT_GE(r.steps, check.step_bound);
    EXPECT_NE(r.queries[r.steps - 1].detail.find("DRAT proof checked"), std::string::npos);
  }
  // One port: the ring's all-reduce in 2(n − 1) steps is NCCL's ring; fewer exist with both directions in use.
  options.ports = port_model::one_port_full_duplex;
  const least_steps_result ring = prove_least_steps(ring_topology(4), {collective_kind::allreduce, 4, 1, 0}, options);
  ASSERT_EQ(ring.status, proof_status::proven) << ring.reason;
  EXPECT_LE(ring.steps, ring_allreduce(4).steps.size());
}

TEST(collective_combining, reduce_scatter_directly_agrees_with_the_inversion) {
  synthesis_options options;
  options.budget_ms = 0;
  for (const char* name : {"ring:4", "ring:5", "hypercube:2", "complete:3"}) {
    const topology net = *builtin_topology(name);
    const collective rs{collective_kind::reduce_scatter, net.size(), 1, 0};
    const least_steps_result inverted = prove_least_steps(net, rs, options);
    ASSERT_EQ(inverted.status, proof_status::proven) << name;
    // directly: the least S whose formula has a model, and S − 1 none
    const cnf_formula at = combining_steps_cnf(net, rs, inverted.steps, options);
    EXPECT_EQ(solve_for_model(at, 0).answer, solver_answer::sat) << name;
    const cnf_formula below = combining_steps_cnf(net, rs, inverted.steps - 1, options);
    EXPECT_EQ(solve_for_model(below, 0).answer, solver_answer::unsat) << name;
  }
}

TEST(collective_combining, the_split_groups_are_clauses_and_the_split_answers_as_the_whole_query) {
  const topology ring = ring_topology(4);
  const collective allreduce(collective_kind::allreduce, 4, 1);
  for (const std::uint64_t steps : {2u, 3u}) {  // all-reduce on ring:4 needs 3 steps
    synthesis_options options;
    options.total_rounds =
        static_cast<std::uint32_t>(steps + 1);  // one extra round: fresh variables before the groups'
    const cnf_formula f = combining_steps_cnf(ring, allreduce, steps, options);
    const std::vector<cubes::split_group> groups = collective_split_groups(ring, allreduce, steps, options);
    ASSERT_EQ(groups.size(), 48u);  // 4 chunks at each of 4 ranks, each 3 other contributions
    std::set<std::vector<int>> clauses;
    for (std::vector<int> c : f.clauses) {
      std::sort(c.begin(), c.end());
      clauses.insert(c);
    }
    for (const cubes::split_group& g : groups) {
      std::vector<int> less = g.literals;  // the clause holds ¬value(k, r, u, S) too, which the postcondition falsifies
      std::sort(less.begin(), less.end());
      EXPECT_EQ(g.literals.size(), 4u) << g.name;  // copy, held before, a reduction over each of 2 in-links
      EXPECT_TRUE(std::any_of(clauses.begin(), clauses.end(), [&](const std::vector<int>& c) {
        return c.size() == less.size() + 1 && std::includes(c.begin(), c.end(), less.begin(), less.end());
      })) << g.name;
    }
    EXPECT_EQ(groups[0].name, "rank 0's chunk 0 gets 2's contribution");  // two hops: the farthest first
    cubes::cube_plan plan(groups, 8);
    while (auto id = plan.take()) {
      cubes::cube_result r = cubes::solve_cube(f, plan.cubes()[*id].literals, {});
      if (r.answer == solver_answer::sat &&
          !check_collective_schedule(decode_combining_model(ring, allreduce, steps, options, r.model, f.variables, "t"))
               .holds())
        r.answer = solver_answer::unknown;
      plan.record(*id, std::move(r));
    }
    const auto [answer, reason] = plan.verdict(f.clauses);
    EXPECT_EQ(answer, steps == 3 ? solver_answer::sat : solver_answer::unsat) << reason;
  }
}

TEST(collective_combining, refused_where_nothing_combines) {
  EXPECT_THROW(combining_steps_cnf(ring_topology(3), {collective_kind::allgather, 3, 1, 0}, 2), std::invalid_argument);
  EXPECT_THROW(collective_steps_cnf(ring_topology(3), {collective_kind::allreduce, 3, 1, 0}, 2), std::invalid_argument);
  synthesis_options half;
  half.ports = port_model::one_port_half_duplex;
  EXPECT_THROW(combining_steps_cnf(ring_topology(3), {collective_kind::allreduce, 3, 1, 0}, 2, half),
               std::invalid_argument);
}

}  // namespace
}  // namespace dancecard::collective
