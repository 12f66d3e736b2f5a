// Cube and conquer's plan and solve (smt/cube_and_conquer.hpp) on pigeonhole formulas: the first cubes, a cube's
// certified answer, the division of a cube that spends its budget, resuming from recorded results, and the verdict
// with the cover check.
#include <gtest/gtest.h>

#include "dancecard/smt/cube_and_conquer.hpp"

namespace dancecard::cubes {
namespace {

// p pigeons in h holes: x(i, j) = i·h + j + 1; each pigeon in some hole (a clause: the split's groups), no hole twice.
cnf_formula pigeons(int p, int h, std::vector<split_group>* groups = nullptr) {
  cnf_formula f;
  f.variables = p * h;
  for (int i = 0; i < p; ++i) {
    std::vector<int> somewhere;
    split_group g{"pigeon " + std::to_string(i), {}, {}};
    for (int j = 0; j < h; ++j) {
      somewhere.push_back(i * h + j + 1);
      g.literals.push_back(i * h + j + 1);
      g.values.push_back("pigeon " + std::to_string(i) + " in hole " + std::to_string(j));
    }
    f.clauses.push_back(somewhere);
    if (groups) groups->push_back(g);
  }
  for (int j = 0; j < h; ++j)
    for (int a = 0; a < p; ++a)
      for (int b = a + 1; b < p; ++b) f.clauses.push_back({-(a * h + j + 1), -(b * h + j + 1)});
  return f;
}

TEST(cube_plan, the_first_cubes_are_every_combination_of_the_first_groups) {
  std::vector<split_group> groups;
  pigeons(4, 3, &groups);
  const cube_plan plan(groups, 5);  // 3 is too few, 9 enough: two groups
  ASSERT_EQ(plan.cubes().size(), 9u);
  EXPECT_EQ(plan.first_groups(), 2u);
  EXPECT_EQ(plan.cubes()[0].literals, (std::vector<int>{1, 4}));
  EXPECT_EQ(plan.cubes()[1].literals, (std::vector<int>{1, 5}));  // the last group fastest
  EXPECT_EQ(plan.cubes()[8].description, "pigeon 0 in hole 2, pigeon 1 in hole 2");
  const cube_plan whole(groups, 1);
  ASSERT_EQ(whole.cubes().size(), 1u);
  EXPECT_TRUE(whole.cubes()[0].literals.empty());
  EXPECT_THROW(cube_plan({{"one", {1}, {"x"}}}, 2), std::invalid_argument);
}

TEST(cube_plan, a_cube_is_refuted_with_a_checked_proof_or_satisfied) {
  const cnf_formula f = pigeons(3, 2);
  const cube_result unsat = solve_cube(f, {1}, {});
  EXPECT_EQ(unsat.answer, solver_answer::unsat) << unsat.reason;
  EXPECT_NE(unsat.reason.find("DRAT proof checked"), std::string::npos);
  EXPECT_GT(unsat.proof_bytes, 0u);
  std::uint64_t kept = 0;
  solve_cube(f, {2}, {}, nullptr, [&](const drat_trace& proof) { kept = proof.bytes(); });
  EXPECT_GT(kept, 0u);
  const cube_result sat = solve_cube(pigeons(2, 2), {1}, {});
  ASSERT_EQ(sat.answer, solver_answer::sat);
  EXPECT_NE(std::find(sat.model.begin(), sat.model.end(), 4), sat.model.end());  // pigeon 1 in hole 1
}

TEST(cube_plan, a_cube_that_spends_its_budget_is_divided_by_the_next_group) {
  std::vector<split_group> groups;
  const cnf_formula f = pigeons(8, 7, &groups);  // hard for CDCL: 100 conflicts refute no cube of one pigeon
  cube_plan plan(groups, 7);
  ASSERT_EQ(plan.cubes().size(), 7u);
  for (int round = 0; round < 3; ++round) {
    const std::optional<std::size_t> id = plan.take();
    ASSERT_TRUE(id.has_value());
    cube_result r = solve_cube(f, plan.cubes()[*id].literals, {.conflicts = 100});
    ASSERT_EQ(r.answer, solver_answer::unknown);
    EXPECT_TRUE(r.budget_spent) << r.reason;
    EXPECT_NE(r.reason.find("100 conflicts"), std::string::npos) << r.reason;
    plan.record(*id, std::move(r));
  }
  ASSERT_EQ(plan.cubes().size(), 7u + 3 * 7);
  const cube& child = plan.cubes()[7];  // cube 0 = {pigeon 0 in hole 0}, divided by pigeon 1's group
  EXPECT_EQ(child.literals, (std::vector<int>{1, 8}));
  EXPECT_EQ(child.groups, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(child.parent, std::optional<std::size_t>(0));
  EXPECT_EQ(plan.cubes()[0].status, cube_status::divided);
  EXPECT_EQ(plan.waiting(), 4u + 21u);
  EXPECT_EQ(plan.verdict(f.clauses).first, solver_answer::unknown);
  // without dividing, a cube out of budget is open
  const std::optional<std::size_t> id = plan.take();
  plan.record(*id, solve_cube(f, plan.cubes()[*id].literals, {.conflicts = 100}), false);
  EXPECT_EQ(plan.cubes()[*id].status, cube_status::open);
}

TEST(cube_plan, the_verdict_needs_every_leaf_refuted_and_the_cover) {
  std::vector<split_group> groups;
  const cnf_formula f = pigeons(4, 3, &groups);
  cube_plan plan(groups, 3);
  // cube 1 = {pigeon 0 in hole 1} comes back out of budget and is divided; every leaf is then refuted
  while (const std::optional<std::size_t> id = plan.take()) {
    if (*id == 1) {
      cube_result spent;
      spent.budget_spent = true;
      plan.record(*id, spent);
      continue;
    }
    plan.record(*id, solve_cube(f, plan.cubes()[*id].literals, {}));
  }
  ASSERT_EQ(plan.cubes().size(), 6u);
  const auto [answer, reason] = plan.verdict(f.clauses);
  EXPECT_EQ(answer, solver_answer::unsat) << reason;
  EXPECT_NE(reason.find("all 5 cubes refuted"), std::string::npos) << reason;
  EXPECT_NE(reason.find("2 groups"), std::string::npos) << reason;

  // resumed: the same split with the results read back solves nothing again
  cube_plan again(groups, 3);
  EXPECT_TRUE(again.restore_divided({2}));
  for (const cube& c : plan.cubes())
    if (c.status == cube_status::refuted) {
      EXPECT_TRUE(again.restore_refuted(c.literals, c.result));
    }
  EXPECT_FALSE(again.take().has_value());
  EXPECT_EQ(again.verdict(f.clauses).first, solver_answer::unsat);
  EXPECT_FALSE(again.restore_divided({99}));  // no such cube
  // a refuted cube lost: the verdict is not unsat
  cube_plan lost(groups, 3);
  EXPECT_TRUE(lost.restore_refuted(plan.cubes()[0].literals, plan.cubes()[0].result));
  EXPECT_EQ(lost.verdict(f.clauses).first, solver_answer::unknown);
}

}  // namespace
}  // namespace dancecard::cubes
