// Full-duplex directed schedules: the MPI pairwise all-to-all schedules in both models, conversions, the checker.
#include <gtest/gtest.h>

#include <bit>
#include <sstream>

#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/formats/dance_io.hpp"

namespace dancecard {

using namespace dancecard::dance;
namespace {

TEST(mpi_schedules, which_model_each_satisfies_for_p_2_to_64) {
  for (rank p = 2; p <= 64; ++p) {
    const directed_schedule ompi = openmpi_pairwise_schedule(p);
    const directed_schedule mpich = mpich_pairwise_schedule(p);
    // Full duplex: both are valid all-to-all schedules in the optimal p - 1 rounds.
    EXPECT_TRUE(check_directed_schedule(ompi).holds()) << p;
    EXPECT_TRUE(check_directed_schedule(mpich).holds()) << p;
    EXPECT_EQ(ompi.rounds(), p - 1u);
    EXPECT_EQ(mpich.rounds(), p - 1u);
    // Half duplex: the XOR exchange of a power of two is a dance schedule (it is Q_p); the shift is not (p >= 3).
    const bool xor_schedule = std::has_single_bit(p);
    EXPECT_EQ(check_dance_schedule(dance_view(mpich)).holds(), xor_schedule) << p;
    EXPECT_EQ(check_dance_schedule(dance_view(ompi)).holds(), p == 2) << p;
    if (xor_schedule) {
      EXPECT_EQ(to_partner_matrix(dance_view(mpich)), to_partner_matrix(searching_schedule(p))) << p;
    }
  }
}

TEST(mpi_schedules, the_shift_fails_half_duplex_with_a_double_booking) {
  const dance_report r = check_dance_schedule(dance_view(openmpi_pairwise_schedule(5)));
  ASSERT_FALSE(r.holds());
  EXPECT_GT(r.count(dance_violation_kind::person_booked_twice), 0u);
}

TEST(directed, a_half_duplex_schedule_converts_to_twice_the_rounds) {
  for (rank n = 1; n <= 30; ++n) {
    const dance_schedule g = factorization_schedule(n);
    const directed_schedule d = to_directed(g);
    EXPECT_EQ(d.rounds(), 2 * g.rounds());
    EXPECT_TRUE(check_directed_schedule(d).holds()) << n << ": " << describe(check_directed_schedule(d));
    EXPECT_EQ(to_partner_matrix(dance_view(d)).people(), n);
  }
}

TEST(directed_check, witnesses_name_rank_partner_and_round) {
  directed_schedule s(3);
  s.begin_round();
  s.add_transfer(0, 1);
  s.add_transfer(0, 2);  // 0 sends twice
  s.add_transfer(2, 1);  // 1 receives twice
  s.begin_round();
  s.add_transfer(1, 1);  // to itself
  s.add_transfer(0, 1);  // repeated
  const directed_report r = check_directed_schedule(s);
  ASSERT_FALSE(r.holds());
  EXPECT_EQ(r.count(directed_violation_kind::sends_twice), 1u);
  EXPECT_EQ(r.count(directed_violation_kind::receives_twice), 1u);
  EXPECT_EQ(r.count(directed_violation_kind::self_transfer), 1u);
  EXPECT_EQ(r.count(directed_violation_kind::ordered_pair_repeated), 1u);
  EXPECT_EQ(r.count(directed_violation_kind::ordered_pair_missing), 3u);  // 1→0, 1→2, 2→0
  EXPECT_EQ(describe(r.witnesses[0]), "sends_twice: 0 sends to both 1 and 2 in round 0");
}

TEST(directed_json, round_trips_and_reports_places) {
  const directed_schedule s = openmpi_pairwise_schedule(5);
  std::ostringstream out;
  write_directed_json(out, s, "openmpi");
  EXPECT_EQ(read_directed_json(out.str()), s);
  try {
    read_directed_json(R"({"format": "dancecard.directed/1", "n": 3, "rounds": [[[0, 3]]]})");
    FAIL() << "accepted an out-of-range rank";
  } catch (const format_error& e) {
    EXPECT_STREQ(e.what(), "rounds[0][0][1]: rank 3 is out of range for n = 3 (ranks are 0-based: 0..2)");
  }
  EXPECT_THROW(read_directed_json(R"({"format": "dancecard.dance/1", "n": 3, "rounds": []})"), format_error);
}

}  // namespace
}  // namespace dancecard

#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/smt/directed.hpp"

namespace dancecard {
namespace {

TEST(directed_optimality, n_minus_one_rounds_proven_with_both_certificates) {
  for (rank n = 2; n <= 9; ++n) {
    const auto r = prove_directed_optimum(n, {.timeout_ms = 60'000, .clausal_budget_ms = 20'000});
    EXPECT_EQ(r.status, proof_status::proven) << n << ": " << r.reason;
    ASSERT_TRUE(r.at_claimed.witness.has_value());
    EXPECT_EQ(r.at_claimed.witness->schedule().rounds(), n - 1u);
    ASSERT_TRUE(r.certificate.has_value());
    EXPECT_EQ(r.certificate->status, "checked") << r.certificate->detail;
    ASSERT_TRUE(r.clausal.has_value());
    EXPECT_EQ(r.clausal->status, "checked") << n << ": " << r.clausal->detail;
  }
}

TEST(directed_optimality, the_certificate_needs_every_message_of_rank_zero) {
  for (rank n = 2; n <= 100; ++n)
    EXPECT_EQ(certificates::check_cutting_planes(directed_lower_bound_certificate(n)).outcome, verdict::holds) << n;
  std::string cert = directed_lower_bound_certificate(6);
  cert.replace(cert.find(" 1 send:0:5"), 11, "");
  EXPECT_EQ(certificates::check_cutting_planes(cert).outcome, verdict::violated);
}

TEST(directed_optimality, the_cnf_at_the_optimum_has_a_model_that_is_a_schedule) {
  const rank n = 6;
  const cnf_formula cnf = directed_query_cnf(n, n - 1);
  const clausal_result solved = solve_with_proof(cnf, 20'000);
  ASSERT_EQ(solved.answer, solver_answer::sat);
  directed_schedule s(n);
  for (std::size_t r = 0; r < n - 1; ++r) {
    s.begin_round();
    for (int v : solved.model)
      if (static_cast<std::size_t>(v - 1) % (n - 1) == r) {
        const std::size_t pair = static_cast<std::size_t>(v - 1) / (n - 1);
        s.add_transfer(static_cast<rank>(pair / n), static_cast<rank>(pair % n));
      }
  }
  EXPECT_TRUE(check_directed_schedule(s).holds()) << describe(check_directed_schedule(s));
}

}  // namespace
}  // namespace dancecard
