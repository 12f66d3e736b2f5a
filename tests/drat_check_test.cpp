// The DRAT checker: CaDiCaL's proofs of dance lower bounds are accepted; damaged proofs are rejected.
#include <gtest/gtest.h>

#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/smt/clausal.hpp"

namespace dancecard {
namespace {

// a ∨ b, a ∨ ¬b force a; under a, the four clauses (¬a ∨ ±c ∨ ±d) leave a 2-variable contradiction that unit
// propagation does not see. The refutation needs (a), then (c), then the empty clause — each step in its place.
//   a = 1, b = 2, c = 3, d = 4
constexpr const char* formula = "p cnf 4 6\n1 2 0\n1 -2 0\n-1 3 4 0\n-1 3 -4 0\n-1 -3 4 0\n-1 -3 -4 0\n";
constexpr const char* proof = "1 0\n3 0\n0\n";

TEST(drat_check, accepts_a_minimal_refutation) {
  const drat_report r = check_drat(formula, proof);
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.lemmas, 3u);
  EXPECT_EQ(r.checked_lemmas, 3u);
}

TEST(drat_check, rejects_a_flipped_literal) {
  // (¬a) is not RUP (a alone propagates nothing) and not RAT: its resolvent with (a ∨ b) is (¬a ∨ b), not RUP.
  const drat_report r = check_drat(formula, "-1 0\n3 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.line, 1u);
  EXPECT_NE(r.problem.find("neither RUP nor RAT"), std::string::npos) << r.problem;
}

TEST(drat_check, rejects_a_dropped_lemma) {
  const drat_report r = check_drat(formula, "3 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.line, 2u);
}

TEST(drat_check, rejects_a_lemma_out_of_order) {
  // The empty clause moved before (c): it no longer follows, and nothing after it is read.
  const drat_report r = check_drat(formula, "1 0\n0\n3 0\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.line, 2u);
}

TEST(drat_check, honours_deletions_even_of_units) {
  // Deleting (a) before the empty clause leaves nothing that propagates to a conflict.
  const drat_report r = check_drat(formula, "1 0\n3 0\nd 1 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.deletions, 1u);
}

TEST(drat_check, accepts_a_rat_lemma) {
  // With (c) first, it is not RUP but RAT on c: its resolvents with (¬a ∨ ¬c ∨ ±d) are blocked by the originals.
  const drat_report r = check_drat(formula, "3 0\n1 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.rat_lemmas, 1u);
}

TEST(drat_check, a_proof_without_conflict_is_rejected) {
  EXPECT_EQ(check_drat(formula, "1 0\n").outcome, verdict::violated);
  EXPECT_EQ(check_drat(formula, "").outcome, verdict::violated);
  // A satisfiable formula has no refutation at all.
  EXPECT_EQ(check_drat("p cnf 2 2\n1 2 0\n-1 0\n", "0\n").outcome, verdict::violated);
}

TEST(drat_check, malformed_inputs_are_reported_with_place) {
  auto r = check_drat("1 2 0\n", "0\n");
  EXPECT_TRUE(r.malformed);
  r = check_drat("p cnf 2 1\n1 3 0\n", "0\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_EQ(r.line, 2u);
  EXPECT_NE(r.problem.find("exceeds the declared 2 variables"), std::string::npos) << r.problem;
  r = check_drat("p cnf 2 2\n1 2 0\n", "0\n");
  EXPECT_TRUE(r.malformed);
  r = check_drat(formula, "1 x 0\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_EQ(r.line, 1u);
  r = check_drat(formula, std::string("a\x01\x02", 3));
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("binary"), std::string::npos);
}

TEST(clausal, cadical_proofs_of_dance_lower_bounds_are_accepted) {
  for (rank n : {3u, 4u, 5u, 6u, 8u}) {
    const cnf_formula cnf = dance_query_cnf({.n = n, .rounds = optimal_rounds(n) - 1, .requirements = {}});
    const clausal_result solved = solve_with_proof(cnf, 20'000);
    ASSERT_EQ(solved.answer, solver_answer::unsat) << "n = " << n;
    const drat_report r = check_drat(cnf.dimacs(), solved.proof);
    EXPECT_EQ(r.outcome, verdict::holds) << "n = " << n << ": " << describe(r);
  }
}

TEST(clausal, a_truncated_cadical_proof_is_not_accepted_blindly) {
  const cnf_formula cnf = dance_query_cnf({.n = 6, .rounds = 4, .requirements = {}});
  const clausal_result solved = solve_with_proof(cnf, 20'000);
  ASSERT_EQ(solved.answer, solver_answer::unsat);
  // Keep only the first line of the proof: far from a refutation.
  const std::string first_line = solved.proof.substr(0, solved.proof.find('\n') + 1);
  EXPECT_EQ(check_drat(cnf.dimacs(), first_line).outcome, verdict::violated);
}

TEST(clausal, the_cnf_at_the_optimum_is_satisfiable_and_its_model_is_a_schedule) {
  // The CNF says exactly (i)-(iii): a model at R = T(n) must decode to a schedule the checker accepts.
  for (rank n : {5u, 6u, 7u}) {
    const std::size_t rounds = optimal_rounds(n);
    const cnf_formula cnf = dance_query_cnf({.n = n, .rounds = rounds, .requirements = {}});
    const clausal_result solved = solve_with_proof(cnf, 20'000);
    ASSERT_EQ(solved.answer, solver_answer::sat);
    std::vector<std::pair<rank, rank>> pairs;
    for (rank a = 0; a < n; ++a)
      for (rank b = a + 1; b < n; ++b) pairs.emplace_back(a, b);
    dance_schedule s(n);
    for (std::size_t r = 0; r < rounds; ++r) {
      s.begin_round();
      for (int v : solved.model)
        if (static_cast<std::size_t>(v - 1) % rounds == r) {
          const auto& p = pairs[static_cast<std::size_t>(v - 1) / rounds];
          s.add_dance(p.first, p.second);
        }
    }
    EXPECT_TRUE(check_dance_schedule(s).holds()) << "n = " << n;
  }
}

}  // namespace
}  // namespace dancecard
