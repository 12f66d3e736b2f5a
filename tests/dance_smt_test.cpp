// SMT encodings: optimality of T(n) for small n, edge colouring, side conditions, and the unsat side.
#include <gtest/gtest.h>

#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard {

using namespace dancecard::dance;
namespace {

constexpr unsigned timeout = 60'000;

TEST(dance_optimality, proven_for_small_n_with_checked_witnesses) {
  for (rank n = 2; n <= 12; ++n) {
    const auto r = prove_dance_optimum(n, {.timeout_ms = timeout});
    EXPECT_EQ(r.status, proof_status::proven) << "n = " << n << ": " << r.reason;
    ASSERT_TRUE(r.at_claimed.witness.has_value());
    EXPECT_EQ(r.at_claimed.witness->schedule().rounds(), optimal_rounds(n));
    EXPECT_TRUE(r.at_claimed.witness->report().holds());
    EXPECT_EQ(r.below_claimed.answer, solver_answer::unsat);
  }
}

TEST(dance_optimality, free_search_finds_witnesses_too) {
  for (rank n : {7u, 10u}) {
    const auto r = prove_dance_optimum(n, {.timeout_ms = timeout, .rotational_search = false});
    EXPECT_EQ(r.status, proof_status::proven) << r.reason;
    EXPECT_EQ(r.at_claimed.encoding.find("rotational"), std::string::npos);
  }
}

TEST(dance_optimality, plain_encoding_also_proves_small_odd_lower_bounds) {
  const auto r = prove_dance_optimum(7, {.timeout_ms = timeout, .lower_bound_encoding = dance_encoding::plain});
  EXPECT_EQ(r.status, proof_status::proven) << r.reason;
}

TEST(dance_optimality, the_solver_below_is_skipped_only_beside_an_accepted_certificate) {
  // Without solve_below_when_certified the checked certificate alone carries the lower bound: Z3 is not asked.
  optimality_options o{.timeout_ms = timeout, .clausal_budget_ms = 0, .solve_below_when_certified = false};
  auto r = prove_dance_optimum(9, o);
  EXPECT_EQ(r.status, proof_status::proven) << r.reason;
  EXPECT_FALSE(r.solver_below);
  EXPECT_EQ(r.below_claimed.answer, solver_answer::unknown);
  EXPECT_NE(r.reason.find("solver not asked, cutting planes checked"), std::string::npos) << r.reason;
  // With no certificate to lean on, Z3 is asked whatever the option says.
  o.certify = false;
  r = prove_dance_optimum(9, o);
  EXPECT_EQ(r.status, proof_status::proven) << r.reason;
  EXPECT_TRUE(r.solver_below);
  EXPECT_EQ(r.below_claimed.answer, solver_answer::unsat);
}

TEST(dance_optimality, n_below_two_is_a_caller_error) { EXPECT_THROW(prove_dance_optimum(1), std::invalid_argument); }

TEST(dance_existence, one_round_more_than_optimal_is_sat_without_full_rounds) {
  dance_query q{.n = 6, .rounds = 6, .requirements = {}};
  const auto r = solve_dance_existence(q, {.timeout_ms = timeout});
  EXPECT_EQ(r.answer, solver_answer::sat);
  EXPECT_EQ(r.encoding.find("full rounds"), std::string::npos);
}

TEST(dance_existence, petersen_graph_needs_four_colours) {
  // The Petersen graph is cubic but has chromatic index 4 (it is not 3-edge-colourable).
  std::vector<std::pair<rank, rank>> petersen;
  for (rank i = 0; i < 5; ++i) {
    petersen.emplace_back(i, (i + 1) % 5);          // outer cycle
    petersen.emplace_back(i, i + 5);                // spokes
    petersen.emplace_back(i + 5, (i + 2) % 5 + 5);  // inner pentagram
  }
  dance_query q{.n = 10, .rounds = 3, .requirements = {}};
  q.requirements.required_pairs = petersen;
  EXPECT_EQ(solve_dance_existence(q, {.timeout_ms = timeout}).answer, solver_answer::unsat);
  EXPECT_EQ(solve_dance_existence(q, {.timeout_ms = timeout, .encoding = dance_encoding::plain}).answer,
            solver_answer::unsat);
  q.rounds = 4;
  const auto r = solve_dance_existence(q, {.timeout_ms = timeout});
  ASSERT_EQ(r.answer, solver_answer::sat);
  EXPECT_NE(r.witness->report().checked.find("15 required pairs"), std::string::npos);
}

TEST(dance_existence, side_conditions_are_honoured_and_checked) {
  dance_query q{.n = 6, .rounds = 5, .requirements = {}};
  q.requirements.fixed = {{0, 5, 0}, {1, 2, 4}};
  q.requirements.forbidden = {{0, 1, 1}, {0, 1, 2}};
  q.requirements.unavailable = {};
  const auto r = solve_dance_existence(q, {.timeout_ms = timeout});
  ASSERT_EQ(r.answer, solver_answer::sat) << r.reason;
  const dance_schedule& s = r.witness->schedule();
  auto meets_in = [&](rank a, rank b, std::size_t round) {
    for (couple d : s.round(round))
      if ((d.first == a && d.second == b) || (d.first == b && d.second == a)) return true;
    return false;
  };
  EXPECT_TRUE(meets_in(0, 5, 0));
  EXPECT_TRUE(meets_in(1, 2, 4));
  EXPECT_FALSE(meets_in(0, 1, 1));
  EXPECT_FALSE(meets_in(0, 1, 2));
}

TEST(dance_existence, an_unavailable_person_in_every_round_is_unsat) {
  dance_query q{.n = 4, .rounds = 3, .requirements = {}};
  for (std::size_t r = 0; r < 3; ++r) q.requirements.unavailable.push_back({2, r});
  EXPECT_EQ(solve_dance_existence(q, {.timeout_ms = timeout}).answer, solver_answer::unsat);
}

TEST(dance_existence, contradictory_fixed_dances_are_unsat) {
  dance_query q{.n = 4, .rounds = 3, .requirements = {}};
  q.requirements.fixed = {{0, 1, 0}, {0, 2, 0}};
  EXPECT_EQ(solve_dance_existence(q, {.timeout_ms = timeout}).answer, solver_answer::unsat);
}

TEST(dance_existence, smtlib_export_names_variables_after_their_meaning) {
  const std::string text = dance_query_smtlib({.n = 4, .rounds = 3, .requirements = {}});
  EXPECT_NE(text.find("meet_r0_p0_p1"), std::string::npos);
  EXPECT_NE(text.find("busy_r2_p3"), std::string::npos);
}

}  // namespace
}  // namespace dancecard
