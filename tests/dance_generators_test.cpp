// The dance-party generators against the paper's printed tables (exact expected values) and closed forms.
#include <gtest/gtest.h>

#include "dance_paper_tables.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/dance/round_counts.hpp"

namespace dancecard {

using namespace dancecard::dance;
namespace {

paper::matrix_rows rows_of(const dance_schedule& s) {
  const partner_matrix m = to_partner_matrix(s);
  paper::matrix_rows rows(m.people(), std::vector<std::uint32_t>(m.rounds()));
  for (rank i = 1; i <= m.people(); ++i)
    for (std::size_t r = 1; r <= m.rounds(); ++r) rows[i - 1][r - 1] = m.at(i, r);
  return rows;
}

std::vector<paper::factor> factors_of(const dance_schedule& s) {
  std::vector<paper::factor> out;
  for (std::size_t r = 0; r < s.rounds(); ++r) {
    out.emplace_back();
    for (couple d : s.round(r)) out.back().emplace_back(d.first, d.second);
  }
  return out;
}

TEST(sequential, reproduces_printed_S4) { EXPECT_EQ(rows_of(sequential_schedule(4)), paper::S4); }

TEST(searching, reproduces_printed_Q8) { EXPECT_EQ(rows_of(searching_schedule(8)), paper::Q8); }

TEST(searching, reproduces_printed_Q6) { EXPECT_EQ(rows_of(searching_schedule(6)), paper::Q6); }

TEST(searching, is_xor_schedule_for_powers_of_two) {
  const dance_schedule q = searching_schedule(32);
  const partner_matrix m = to_partner_matrix(q);
  for (rank i = 0; i < 32; ++i)
    for (std::size_t r = 1; r <= 31; ++r) EXPECT_EQ(m.at(i + 1, r), (i ^ r) + 1);
}

TEST(searching, equals_the_xor_schedule_restricted_to_n_for_every_n_up_to_300) {
  // Proposition 2's proof: Q_n is Q_(2^k) with the dummies removed, and Q_(2^k)(i, r) = i xor r.
  for (rank n = 1; n <= 300; ++n) {
    const partner_matrix m = to_partner_matrix(searching_schedule(n));
    const std::size_t rounds = (std::size_t{1} << ceil_log2(n)) - 1;
    ASSERT_EQ(m.rounds(), rounds) << n;
    for (rank i = 0; i < n; ++i)
      for (std::size_t r = 1; r <= rounds; ++r) {
        const std::size_t partner = i ^ r;
        ASSERT_EQ(m.at(i + 1, r), partner < n ? partner + 1 : i + 1) << "n = " << n << ", i = " << i << ", r = " << r;
      }
  }
}

TEST(divide_and_conquer, reproduces_printed_D6_up_to_its_misprint) {
  paper::matrix_rows corrected = paper::D6;
  for (const auto& e : paper::D6_errata) {
    ASSERT_EQ(corrected[e.row - 1][e.column - 1], e.printed);
    corrected[e.row - 1][e.column - 1] = e.corrected;
  }
  EXPECT_EQ(rows_of(divide_and_conquer_schedule(6)), corrected);
}

TEST(divide_and_conquer, printed_D6_misprint_is_rejected_by_the_checker) {
  partner_matrix printed(6, 6);
  for (rank i = 1; i <= 6; ++i)
    for (std::size_t r = 1; r <= 6; ++r) printed.set(i, r, paper::D6[i - 1][r - 1]);
  const dance_report report = check_partner_matrix(printed);
  ASSERT_FALSE(report.holds());
  EXPECT_EQ(report.violation_count, 1u);
  EXPECT_EQ(report.witnesses[0].kind, dance_violation_kind::pair_never_meets);
  EXPECT_EQ(report.witnesses[0].a, 4u);  // persons 5 and 6, 1-based
  EXPECT_EQ(report.witnesses[0].b, 5u);
}

TEST(divide_and_conquer, matches_printed_round_count_table) {
  for (const auto& row : paper::divide_table) {
    EXPECT_EQ(divide_and_conquer_schedule(static_cast<rank>(row.n)).rounds(), row.t) << "n = " << row.n;
    EXPECT_EQ(divide_rounds_definition(row.n), row.t) << "n = " << row.n;
    EXPECT_EQ(divide_rounds_theorem(row.n), row.t) << "n = " << row.n;
    EXPECT_EQ(two_adic_valuation(row.n), row.beta) << "n = " << row.n;
  }
}

TEST(factorization, reproduces_printed_G6) { EXPECT_EQ(rows_of(factorization_schedule(6)), paper::G6); }

TEST(factorization, reproduces_printed_G5) { EXPECT_EQ(rows_of(factorization_schedule(5)), paper::G5); }

TEST(factorization, reproduces_printed_K6_factors_in_order) {
  EXPECT_EQ(factors_of(one_factorization(3)), paper::K6_factors);
}

TEST(factorization, reproduces_printed_K5_factors_in_order) {
  EXPECT_EQ(factors_of(near_one_factorization(3)), paper::K5_factors);
}

TEST(factorization, intro_examples_are_what_the_paper_prints) {
  // The paper's introduction shows optimal schedules for n = 2, 3, 4; they are valid and have T(n) rounds.
  for (const auto* rows : {&paper::intro_n2, &paper::intro_n3, &paper::intro_n4}) {
    partner_matrix m(static_cast<rank>(rows->size()), rows->front().size());
    for (rank i = 1; i <= m.people(); ++i)
      for (std::size_t r = 1; r <= m.rounds(); ++r) m.set(i, r, (*rows)[i - 1][r - 1]);
    EXPECT_TRUE(check_partner_matrix(m).holds());
    EXPECT_EQ(m.rounds(), optimal_rounds(m.people()));
  }
}

TEST(round_counts, closed_forms_at_known_points) {
  EXPECT_EQ(searching_rounds(1), 0u);
  EXPECT_EQ(searching_rounds(5), 7u);
  EXPECT_EQ(searching_rounds(8), 7u);
  EXPECT_EQ(searching_rounds(9), 15u);
  EXPECT_EQ(divide_rounds_definition(0), 0u);
  EXPECT_EQ(divide_rounds_definition(1), 0u);
  EXPECT_EQ(divide_rounds_definition(2), 1u);
  EXPECT_EQ(divide_rounds_definition(3), 3u);
  EXPECT_EQ(divide_rounds_definition(10), 11u);  // Proposition 3 checks from the README
  EXPECT_EQ(divide_rounds_definition(14), 14u);
  EXPECT_EQ(optimal_rounds(2), 1u);
  EXPECT_EQ(optimal_rounds(7), 7u);
  EXPECT_EQ(optimal_rounds(64), 63u);
  EXPECT_EQ(sequential_rounds(4), 6u);
  EXPECT_EQ(factorization_rounds(5), 5u);
  EXPECT_EQ(factorization_rounds(6), 5u);
}

TEST(round_counts, theorem_1_equals_definition_1) {
  for (std::uint64_t n = 2; n <= 100'000; ++n) ASSERT_EQ(divide_rounds_theorem(n), divide_rounds_definition(n)) << n;
}

TEST(round_counts, reject_zero_where_undefined) {
  EXPECT_THROW(optimal_rounds(0), std::invalid_argument);
  EXPECT_THROW(divide_rounds_theorem(1), std::invalid_argument);
  EXPECT_THROW(two_adic_valuation(0), std::invalid_argument);
}

TEST(generators, every_algorithm_gives_a_valid_schedule_for_small_n) {
  for (dance_algorithm a : all_dance_algorithms)
    for (rank n = 1; n <= 40; ++n) {
      const dance_report r = check_dance_schedule(generate(a, n));
      EXPECT_TRUE(r.holds()) << name(a) << " n = " << n << ": " << describe(r);
    }
}

TEST(generators, factorization_handles_twenty_thousand_people) {
  const dance_schedule g = factorization_schedule(20'000);
  EXPECT_EQ(g.rounds(), 19'999u);
  EXPECT_EQ(g.dance_count(), 20'000ull * 19'999 / 2);
  EXPECT_TRUE(check_dance_schedule(g).holds());
}

TEST(generators, names_round_trip) {
  for (dance_algorithm a : all_dance_algorithms) EXPECT_EQ(parse_dance_algorithm(name(a)), a);
  EXPECT_FALSE(parse_dance_algorithm("quick").has_value());
}

TEST(schedule, matrix_round_trip_preserves_valid_schedules) {
  const dance_schedule g = factorization_schedule(9);
  const dance_schedule back = from_partner_matrix(to_partner_matrix(g));
  EXPECT_EQ(to_partner_matrix(back), to_partner_matrix(g));
  EXPECT_EQ(back.dance_count(), g.dance_count());
}

TEST(schedule, matrix_conversions_cross_the_32_round_blocks) {
  // S_12 has 66 rounds: the blocked transposes handle two full blocks and a partial one.
  const dance_schedule s = sequential_schedule(12);
  const partner_matrix m = to_partner_matrix(s);
  ASSERT_EQ(m.rounds(), 66u);
  for (std::size_t r = 0; r < s.rounds(); ++r)
    for (couple d : s.round(r)) {
      EXPECT_EQ(m.at(d.first + 1, r + 1), d.second + 1);
      EXPECT_EQ(m.at(d.second + 1, r + 1), d.first + 1);
    }
  EXPECT_EQ(from_partner_matrix(m), s);
  std::size_t visited = 0;
  for_each_round(m, [&](std::size_t r, std::span<const std::uint32_t> column) {
    EXPECT_EQ(r, ++visited);
    for (rank i = 1; i <= 12; ++i) EXPECT_EQ(column[i - 1], m.at(i, r));
  });
  EXPECT_EQ(visited, 66u);
}

TEST(schedule, rejects_out_of_range_ranks_and_zero_people) {
  EXPECT_THROW(dance_schedule(0), std::invalid_argument);
  dance_schedule s(3);
  EXPECT_THROW(s.add_dance(0, 1), std::logic_error);  // no round yet
  s.begin_round();
  EXPECT_THROW(s.add_dance(0, 3), std::out_of_range);
}

}  // namespace
}  // namespace dancecard
