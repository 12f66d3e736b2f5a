// The cutting-planes checker: the dance lower-bound certificates are accepted, damaged ones are rejected.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/smt/dance_certificates.hpp"
#include "dancecard/smt/optimality.hpp"
#include "text_edit.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::certificates;
namespace {

using testing_support::replace_first;

TEST(cutting_planes, a_small_certificate_of_a_huge_instance_allocates_for_what_it_touches) {
  // dance n=4000 rounds=12 has 95,976,000 variables: one coefficient each was 768 MB at once, for a certificate of a
  // hundred bytes. Now only the pages its references touch are allocated.
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const cutting_planes_report r = check_cutting_planes(
      "dancecard.cp/1\ninstance dance n=4000 rounds=12\nc 1 sum 1 person:0:0 1 person:1:0\ncontradiction #1\n");
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  EXPECT_EQ(r.outcome, verdict::violated) << describe(r);  // a valid step, but no contradiction
  EXPECT_FALSE(r.malformed);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 200 * 1024) << "KB";  // far below the 768 MB of a dense array
}

TEST(cutting_planes, one_reference_named_many_times_is_the_same_as_its_multipliers_summed) {
  std::string repeated = "dancecard.cp/1\ninstance dance n=3 rounds=2\nc 1 sum";
  for (int k = 0; k < 2'000; ++k) repeated += " 1 person:0:0";
  repeated += "\ncontradiction #1\n";
  const cutting_planes_report many = check_cutting_planes(repeated);
  const cutting_planes_report once =
      check_cutting_planes("dancecard.cp/1\ninstance dance n=3 rounds=2\nc 1 sum 2000 person:0:0\ncontradiction #1\n");
  EXPECT_EQ(many.outcome, once.outcome);
  EXPECT_EQ(many.problem, once.problem);
  EXPECT_EQ(many.steps, once.steps);
}

TEST(cutting_planes, a_zero_divisor_is_malformed_like_a_negative_multiplier) {
  const std::string head =
      "dancecard.cp/1\ninstance dance n=3 rounds=2\nc 1 sum 1 person:0:0 1 person:1:0 1 person:2:0\n";
  const cutting_planes_report zero = check_cutting_planes(head + "c 2 div 0 #1\ncontradiction #2\n");
  EXPECT_TRUE(zero.malformed) << describe(zero);
  EXPECT_NE(zero.problem.find("a divisor must be at least 1"), std::string::npos) << zero.problem;
  const cutting_planes_report negative = check_cutting_planes(head + "c 2 sum -1 #1\ncontradiction #2\n");
  EXPECT_TRUE(negative.malformed) << describe(negative);
}

TEST(cutting_planes, dance_lower_bound_certificates_are_accepted_for_n_up_to_60) {
  for (rank n = 2; n <= 60; ++n) {
    const cutting_planes_report r = check_cutting_planes(dance_lower_bound_certificate(n));
    EXPECT_EQ(r.outcome, verdict::holds) << "n = " << n << ": " << describe(r);
    EXPECT_EQ(r.instance, "dance n=" + std::to_string(n) + " rounds=" + std::to_string(optimal_rounds(n) - 1));
  }
}

// cutting_planes_certificate (what prove dance, prove hrel and the theorem book check certificates with) accepts a
// certificate only for the instance it is asked about: a valid refutation of 5 people in 4 rounds does not certify
// "5 people in 3 rounds", and the detail names both.
TEST(cutting_planes, a_certificate_counts_only_for_the_instance_it_refutes) {
  EXPECT_EQ(dance_certificate_instance(5, 4), "dance n=5 rounds=4");
  const certificate_check right = cutting_planes_certificate(dance_lower_bound_certificate(5),
                                                             dance_certificate_instance(5, optimal_rounds(5) - 1));
  EXPECT_TRUE(right.accepted) << right.detail;
  EXPECT_EQ(right.status, "checked");
  const certificate_check other =
      cutting_planes_certificate(dance_lower_bound_certificate(5), dance_certificate_instance(5, 3));
  EXPECT_FALSE(other.accepted);
  EXPECT_EQ(other.status, "rejected");
  EXPECT_EQ(other.detail, "it refutes another instance: dance n=5 rounds=4 (expected dance n=5 rounds=3)");
  EXPECT_EQ(other.steps, right.steps);  // the derivation itself was checked and holds
}

TEST(cutting_planes, a_hand_written_refutation_of_three_people_in_two_rounds) {
  // Each round holds at most one dance of three people; three pairs do not fit into two rounds.
  const std::string proof =
      "dancecard.cp/1\n"
      "instance dance n=3 rounds=2\n"
      "c 1 sum 1 person:0:0 1 person:1:0 1 person:2:0   # -2(x01 + x02 + x12) >= -3 in round 0\n"
      "c 2 div 2 #1                                      # -(x01 + x02 + x12) >= -1\n"
      "c 3 sum 1 person:0:1 1 person:1:1 1 person:2:1\n"
      "c 4 div 2 #3\n"
      "c 5 sum 1 #2 1 #4 1 pair:0:1 1 pair:0:2 1 pair:1:2 # 0 >= 1\n"
      "contradiction #5\n";
  const auto r = check_cutting_planes(proof);
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.steps, 5u);
}

TEST(cutting_planes, the_same_argument_fails_when_the_rounds_suffice) {
  // Three rounds are enough for three people, so no valid derivation can reach 0 >= 1.
  const std::string cert = dance_lower_bound_certificate(3);
  const auto r = check_cutting_planes(replace_first(cert, "rounds=2", "rounds=3"));
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_FALSE(r.malformed);
  EXPECT_NE(r.problem.find("is not a contradiction"), std::string::npos) << r.problem;
}

TEST(cutting_planes, dropping_the_rounding_is_rejected) {
  // Without the division by 2 (which rounds -3/2 up to -1) the sum stays satisfiable.
  std::string cert = dance_lower_bound_certificate(5);
  cert = replace_first(cert, "div 2", "div 1");
  const auto r = check_cutting_planes(cert);
  EXPECT_EQ(r.outcome, verdict::violated) << describe(r);
}

TEST(cutting_planes, a_missing_axiom_in_the_final_sum_is_rejected) {
  // For n = 3 the counting argument has no slack (0 >= (n-1)/2 = 1), so every pair axiom is needed.
  const auto r = check_cutting_planes(replace_first(dance_lower_bound_certificate(3), " 1 pair:0:2", ""));
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_NE(r.problem.find("not a contradiction"), std::string::npos) << r.problem;
}

TEST(cutting_planes, even_n_needs_every_pair_of_person_zero) {
  const auto r = check_cutting_planes(replace_first(dance_lower_bound_certificate(8), " 1 pair:0:7", ""));
  EXPECT_EQ(r.outcome, verdict::violated);
}

TEST(cutting_planes, references_to_deleted_or_future_constraints_are_rejected) {
  const std::string cert = dance_lower_bound_certificate(5);
  auto r = check_cutting_planes(replace_first(cert, "c 2 div 2 #1", "c 2 div 2 #3"));
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_NE(r.problem.find("not derived"), std::string::npos) << r.problem;
  r = check_cutting_planes(replace_first(cert, "c 4 div 2 #3\ndel #3", "c 4 div 2 #3\ndel #3\ndel #3"));
  EXPECT_EQ(r.outcome, verdict::violated);
  r = check_cutting_planes(replace_first(cert, "c 4 div", "c 7 div"));
  EXPECT_NE(r.problem.find("out of order"), std::string::npos) << r.problem;
}

TEST(cutting_planes, malformed_text_is_reported_as_such) {
  auto r = check_cutting_planes("");
  EXPECT_TRUE(r.malformed);
  r = check_cutting_planes("dancecard.cp/2\n");
  EXPECT_TRUE(r.malformed);
  r = check_cutting_planes("dancecard.cp/1\ninstance tori n=3\n");
  EXPECT_TRUE(r.malformed);
  r = check_cutting_planes("dancecard.cp/1\ninstance dance n=3 rounds=2\nc 1 sum -1 pair:0:1\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_EQ(r.line, 3u);
  r = check_cutting_planes("dancecard.cp/1\ninstance dance n=3 rounds=2\nc 1 sum 1 pair:0:3\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("out of range"), std::string::npos);
  r = check_cutting_planes("dancecard.cp/1\ninstance dance n=3 rounds=2\nc 1 sum 1 pair:0:1\n");
  EXPECT_FALSE(r.malformed);
  EXPECT_NE(r.problem.find("without deriving a contradiction"), std::string::npos);
}

TEST(cutting_planes, overflowing_multipliers_are_rejected_not_wrapped) {
  const auto r = check_cutting_planes(
      "dancecard.cp/1\ninstance dance n=3 rounds=2\nc 1 sum 9223372036854775807 pair:0:1 9223372036854775807 pair:0:1\n"
      "contradiction #1\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_NE(r.problem.find("overflow"), std::string::npos) << r.problem;
}

// A coefficient and right side of INT64_MIN (valid: 2^63 − 1 copies of x ≤ 1 and one more), divided: rounding up
// without negating (the old -((-a) / k) was undefined at INT64_MIN, and wrapping would have turned INT64_MIN·x ≥
// INT64_MIN into x ≥ 1 — with the same for a second round, a refutation of dance n=3 in 3 rounds, which exist).
TEST(cutting_planes, dividing_the_least_int64_rounds_up_without_overflow) {
  const auto r = check_cutting_planes(
      "dancecard.cp/1\ninstance dance n=3 rounds=3\n"
      "c 1 sum 9223372036854775807 upper:0:1:0 1 upper:0:1:0\nc 2 div 2 #1\n"
      "c 3 sum 9223372036854775807 upper:0:1:1 1 upper:0:1:1\nc 4 div 2 #3\n"
      "c 5 div 4611686018427387904 #2\nc 6 div 4611686018427387904 #4\nc 7 sum 1 #5 1 #6 1 "
      "pair-atmost:0:1\ncontradiction #7\n");
  EXPECT_EQ(r.outcome, verdict::violated) << describe(r);
  EXPECT_FALSE(r.malformed);
  EXPECT_EQ(r.steps, 7u);
  // #2 is -2^62 x(0,1,0) >= -2^62, #5 is -x(0,1,0) >= -1 and #6 likewise, so #7 is -2 x(0,1,0) - 2 x(0,1,1) - x(0,1,2)
  // >= -3: satisfiable (the wrapped division would have made #5 and #6 x >= 1 and #7 0 >= 1)
  EXPECT_NE(r.problem.find("#7 is not a contradiction"), std::string::npos) << r.problem;
  EXPECT_NE(r.problem.find("the right side is -3"), std::string::npos) << r.problem;
}

}  // namespace
}  // namespace dancecard
