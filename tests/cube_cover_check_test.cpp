// The cover check of a split query: groups that must be clauses, combinations that must each hold a cube.
#include <gtest/gtest.h>

#include "dancecard/checkers/cube_cover_check.hpp"

namespace dancecard {

using namespace dancecard::certificates;
namespace {

// x1 ∨ x2 ∨ x3 and x4 ∨ x5: every model makes one literal of each true, so the 6 pairs cover every model.
const std::vector<std::vector<int>> formula = {{1, 2, 3}, {-1, -2}, {5, 4}, {-4, -5}, {1, -6}};

TEST(cube_cover, the_full_product_of_two_clauses_covers_the_formula) {
  std::vector<std::vector<int>> cubes;
  for (int a : {1, 2, 3})
    for (int b : {4, 5}) cubes.push_back({b, a});  // order inside a cube and of the cubes does not matter
  const cube_cover_report r = check_cube_cover(formula, {{1, 2, 3}, {4, 5}}, cubes);
  EXPECT_TRUE(r.holds()) << describe(r);
  EXPECT_EQ(r.combinations, 6u);
  // A group given in another order than its clause is the same set.
  EXPECT_TRUE(check_cube_cover(formula, {{3, 1, 2}, {4, 5}}, cubes).holds());
}

TEST(cube_cover, a_missing_cube_is_named) {
  std::vector<std::vector<int>> cubes;
  for (int a : {1, 2, 3})
    for (int b : {4, 5})
      if (!(a == 2 && b == 5)) cubes.push_back({a, b});
  const cube_cover_report r = check_cube_cover(formula, {{1, 2, 3}, {4, 5}}, cubes);
  ASSERT_EQ(r.outcome, verdict::violated);
  ASSERT_EQ(r.witnesses.size(), 1u);
  EXPECT_EQ(r.witnesses[0].kind, cube_cover_violation_kind::combination_uncovered);
  EXPECT_EQ(r.witnesses[0].combination, (std::vector<int>{2, 5}));
  EXPECT_NE(describe(r).find("the combination {2 5} contains no cube"), std::string::npos) << describe(r);
}

TEST(cube_cover, a_group_that_is_no_clause_proves_nothing) {
  // {1, 2} is not a clause: a model with x3 true satisfies none of its literals, so cubes over it miss that model.
  std::vector<std::vector<int>> cubes = {{1}, {2}};
  const cube_cover_report r = check_cube_cover(formula, {{1, 2}}, cubes);
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.witnesses[0].kind, cube_cover_violation_kind::group_not_a_clause);
  EXPECT_EQ(r.witnesses[0].group, 0u);
  // Nor does a negated group: {-1, -2} is a clause, but {1, 2} are its negations.
  EXPECT_EQ(check_cube_cover(formula, {{-1, 6}}, {{-1}, {6}}).outcome, verdict::violated);
}

TEST(cube_cover, a_group_may_leave_out_literals_that_unit_clauses_make_false) {
  // x1 ∨ x2 ∨ x3 with the unit ¬x3: every model makes x1 or x2 true, so {1, 2} covers; without the unit it does not.
  const std::vector<std::vector<int>> with_unit = {{1, 2, 3}, {-3}};
  EXPECT_TRUE(check_cube_cover(with_unit, {{1, 2}}, {{1}, {2}}).holds());
  EXPECT_EQ(check_cube_cover({{1, 2, 3}}, {{1, 2}}, {{1}, {2}}).outcome, verdict::violated);
  // a unit that makes a literal true does not let it go
  EXPECT_EQ(check_cube_cover({{1, 2, 3}, {3}}, {{1, 2}}, {{1}, {2}}).outcome, verdict::violated);
  // nor may a group hold a literal outside the clause
  EXPECT_EQ(check_cube_cover(with_unit, {{1, 2, 4}}, {{1}, {2}, {4}}).outcome, verdict::violated);
}

TEST(cube_cover, a_smaller_cube_covers_every_combination_that_contains_it) {
  // The cube {1} holds wherever x1 does, so it covers (1, 4) and (1, 5) alone.
  const std::vector<std::vector<int>> cubes = {{1}, {2, 4}, {2, 5}, {3, 4}, {3, 5}};
  EXPECT_TRUE(check_cube_cover(formula, {{1, 2, 3}, {4, 5}}, cubes).holds());
  // No groups: the one (empty) combination needs the empty cube — the whole formula.
  EXPECT_TRUE(check_cube_cover(formula, {}, {{}}).holds());
  EXPECT_EQ(check_cube_cover(formula, {}, {{1}}).outcome, verdict::violated);
}

TEST(cube_cover, too_many_branches_are_not_claimed) {
  // 23 groups {2g + 1, 2g + 2}; the last group's two cubes {45}, {46} cover everything, but the cubes {2g + 1, 46} make
  // every earlier group worth branching on: 2^23 branches before the last group, past the search's 2^22.
  std::vector<std::vector<int>> clauses, cubes = {{45}, {46}};
  for (int g = 0; g < 23; ++g) {
    clauses.push_back({2 * g + 1, 2 * g + 2});
    if (g < 22) cubes.push_back({2 * g + 1, 46});
  }
  const cube_cover_report r = check_cube_cover(clauses, clauses, cubes);
  EXPECT_EQ(r.outcome, verdict::unknown) << describe(r);
  EXPECT_NE(r.problem.find("2^22"), std::string::npos);
  // without those cubes the groups before the last are chosen once each: 24 branches, and it holds
  const cube_cover_report quick = check_cube_cover(clauses, clauses, {{45}, {46}});
  EXPECT_TRUE(quick.holds()) << describe(quick);
  EXPECT_EQ(quick.combinations, std::uint64_t{1} << 23);
}

TEST(cube_cover, a_split_refined_cube_by_cube_is_checked_without_the_whole_product) {
  // Split on {1, 2}; the cube {2} too hard, split again on {3, 4}; {2, 4} again on {5, 6}: a tree of 4 cubes.
  const std::vector<std::vector<int>> clauses = {{1, 2}, {3, 4}, {5, 6}};
  std::vector<std::vector<int>> tree = {{1}, {2, 3}, {2, 4, 5}, {2, 4, 6}};
  EXPECT_TRUE(check_cube_cover(clauses, clauses, tree).holds());
  tree.pop_back();  // {2, 4, 6} lost: the combination (2, 4, 6) is named
  const cube_cover_report r = check_cube_cover(clauses, clauses, tree);
  ASSERT_EQ(r.outcome, verdict::violated) << describe(r);
  EXPECT_EQ(r.witnesses[0].combination, (std::vector<int>{2, 4, 6}));
  // 30 groups of 2 refined along one path: 31 cubes, 2^30 combinations, decided
  std::vector<std::vector<int>> groups, path;
  std::vector<int> prefix;
  for (int g = 0; g < 30; ++g) {
    groups.push_back({2 * g + 1, 2 * g + 2});
    std::vector<int> leaf = prefix;
    leaf.push_back(2 * g + 1);
    path.push_back(leaf);
    prefix.push_back(2 * g + 2);
  }
  path.push_back(prefix);
  EXPECT_TRUE(check_cube_cover(groups, groups, path).holds());
  path.erase(path.begin() + 17);
  EXPECT_EQ(check_cube_cover(groups, groups, path).outcome, verdict::violated);
}

}  // namespace
}  // namespace dancecard
