// The h-relation query split into cubes (smt/hrel_cubes.hpp): its groups are clauses of the formula with exactly one
// literal true in a witness, the split answers as the whole query (unsat with every cube's proof and the cover
// checked; sat with a schedule the half-duplex checker accepts), and a damaged model is no witness.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "dancecard/core/hrel/families.hpp"
#include "dancecard/smt/hrel_cubes.hpp"

namespace dancecard::hrel {
namespace {

// Every cube of the plan solved (no budget: these cubes take milliseconds), then the plan's verdict.
std::pair<solver_answer, std::string> split_and_solve(const hrel_cube_query& q, const hrel_instance& instance,
                                                      unsigned k, bool forwarding, std::size_t slots,
                                                      std::uint64_t wanted) {
  cubes::cube_plan plan(q.groups, wanted);
  while (auto id = plan.take()) {
    cubes::cube_result r = cubes::solve_cube(q.formula, plan.cubes()[*id].literals, {});
    if (r.answer == solver_answer::sat && !hrel_cube_witness(instance, k, forwarding, slots, r.model).first)
      r.answer = solver_answer::unknown;
    plan.record(*id, std::move(r));
  }
  return plan.verdict(q.formula.clauses);
}

TEST(hrel_cubes, the_groups_are_clauses_of_the_formula_and_slot_zero_is_the_sources) {
  const hrel_instance two = triangles(2, 2);
  const hrel_cube_query q = hrel_cubes_of(two, 2, true, 5);
  std::set<std::vector<int>> clauses;
  for (std::vector<int> c : q.formula.clauses) {
    std::sort(c.begin(), c.end());
    clauses.insert(c);
  }
  ASSERT_FALSE(q.groups.empty());
  std::size_t slot_zero = 0;
  for (const cubes::split_group& g : q.groups) {
    std::vector<int> sorted = g.literals;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(clauses.count(sorted), 1u) << g.name;
    EXPECT_EQ(g.literals.size(), 6u) << g.name;  // "sends none" and one value per other PE
    EXPECT_EQ(g.values.size(), g.literals.size());
    slot_zero += g.name.rfind("slot 0,", 0) == 0;
  }
  EXPECT_EQ(slot_zero, 6u);  // one per message, at its source
  EXPECT_EQ(q.groups[0].name, "slot 0, PE 0, message 0 (0->1)");
  EXPECT_EQ(q.groups[0].values[2], "slot 0: PE 0 sends a piece of message 0 (0->1) to PE 2");
}

TEST(hrel_cubes, the_split_answers_as_the_whole_query) {
  const hrel_instance two = triangles(2, 2);  // with forwarding, pieces of 1/2: 6 slots, not 5 (prove hrel)
  const hrel_cube_query below = hrel_cubes_of(two, 2, true, 5);
  auto [answer, reason] = split_and_solve(below, two, 2, true, 5, 8);
  EXPECT_EQ(answer, solver_answer::unsat) << reason;
  EXPECT_NE(reason.find("all 36 cubes refuted"), std::string::npos) << reason;
  const hrel_cube_query at = hrel_cubes_of(two, 2, true, 6);
  std::tie(answer, reason) = split_and_solve(at, two, 2, true, 6, 8);
  EXPECT_EQ(answer, solver_answer::sat) << reason;
  // without forwarding each group is "the source sends m or not": two values
  const hrel_cube_query direct = hrel_cubes_of(two, 1, false, 2);
  EXPECT_EQ(direct.groups[0].literals.size(), 2u);
  std::tie(answer, reason) = split_and_solve(direct, two, 1, false, 2, 4);
  EXPECT_EQ(answer, solver_answer::unsat) << reason;
  std::tie(answer, reason) = split_and_solve(hrel_cubes_of(two, 1, false, 3), two, 1, false, 3, 4);
  EXPECT_EQ(answer, solver_answer::sat) << reason;
}

TEST(hrel_cubes, a_model_with_a_move_taken_out_is_no_witness) {
  const hrel_instance two = triangles(2, 2);
  const hrel_cube_query q = hrel_cubes_of(two, 1, false, 3);
  const cubes::cube_result r = cubes::solve_cube(q.formula, {}, {});
  ASSERT_EQ(r.answer, solver_answer::sat);
  auto [schedule, reason] = hrel_cube_witness(two, 1, false, 3, r.model);
  ASSERT_TRUE(schedule.has_value()) << reason;
  EXPECT_EQ(reason, "delivers every message in 3 slots of 1/1 (half-duplex checker)");
  // the move variables come first (1 .. 3 slots x 6 messages without forwarding): drop the first true one
  std::vector<int> damaged = r.model;
  const auto first_move = std::find_if(damaged.begin(), damaged.end(), [](int v) { return v > 0 && v <= 18; });
  ASSERT_NE(first_move, damaged.end());
  damaged.erase(first_move);
  std::tie(schedule, reason) = hrel_cube_witness(two, 1, false, 3, damaged);
  EXPECT_FALSE(schedule.has_value());
  EXPECT_NE(reason.find("is rejected by the half-duplex checker"), std::string::npos) << reason;
  EXPECT_THROW(hrel_cubes_of(two, 0, false, 3), std::invalid_argument);
}

}  // namespace
}  // namespace dancecard::hrel
