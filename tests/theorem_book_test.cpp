// Each kind of theorem-book row fed a deliberately false input: a wrong printed table, a false erratum, a failing
// size, a wrong constant, a damaged certificate, a wrong stored table. Every one must come out violated, so that a
// row built on these functions holds only after a comparison that could have failed.
#include <gtest/gtest.h>

#include "claim_rows.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/formats/torus_catalogue.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

TEST(theorem_book_rows, a_printed_table_holds_only_when_every_entry_agrees) {
  EXPECT_EQ(table_row(searching_schedule(8), paper::Q8, "Q_8").outcome, claim_verdict::holds);
  paper::matrix_rows wrong = paper::Q8;
  std::swap(wrong[0][1], wrong[0][2]);  // person 1 meets 4 in round 2 and 3 in round 3
  const claim_result r = table_row(searching_schedule(8), wrong, "Q_8");
  EXPECT_EQ(r.outcome, claim_verdict::violated);
  EXPECT_NE(r.evidence.find("entry (1, 2)"), std::string::npos) << r.evidence;
  // the right table of another generator
  EXPECT_EQ(table_row(divide_and_conquer_schedule(8), paper::Q8, "Q_8").outcome, claim_verdict::violated);
}

TEST(theorem_book_rows, an_erratum_holds_only_where_the_checker_rejects_the_printed_table) {
  EXPECT_EQ(table_row(divide_and_conquer_schedule(6), paper::D6, "D_6", paper::D6_errata).outcome,
            claim_verdict::holds);
  // without the erratum the printed D_6 differs from the generator
  EXPECT_EQ(table_row(divide_and_conquer_schedule(6), paper::D6, "D_6").outcome, claim_verdict::violated);
  // an erratum claimed on a table that the checker accepts as printed
  const std::vector<paper::erratum> invented = {{1, 1, 2, 3}};
  const claim_result r = table_row(searching_schedule(8), paper::Q8, "Q_8", invented);
  EXPECT_EQ(r.outcome, claim_verdict::violated);
  // an erratum whose printed value is not what the table says
  const std::vector<paper::erratum> misread = {{5, 3, 4, 6}};
  EXPECT_EQ(table_row(divide_and_conquer_schedule(6), paper::D6, "D_6", misread).outcome, claim_verdict::violated);
}

TEST(theorem_book_rows, a_property_over_sizes_names_the_first_failing_size) {
  const claim_result fine = for_each_n(
      1, 20, [](std::uint64_t) { return std::string(); }, "nothing to find");
  EXPECT_EQ(fine.outcome, claim_verdict::holds);
  const claim_result r = for_each_n(
      1, 20, [](std::uint64_t n) { return n >= 7 ? std::string("too many") : std::string(); }, "");
  EXPECT_EQ(r.outcome, claim_verdict::violated);
  EXPECT_EQ(r.evidence, "n = 7: too many");
  // a generator checked against a wrong round count
  const claim_result rounds = for_each_n(
      2, 10,
      [](std::uint64_t n) {
        const dance_schedule s = factorization_schedule(static_cast<rank>(n));
        return s.rounds() == n - 1 ? std::string() : "t = " + std::to_string(s.rounds());
      },
      "");
  EXPECT_EQ(rounds.outcome, claim_verdict::violated);
  EXPECT_EQ(rounds.evidence, "n = 3: t = 3");
}

TEST(theorem_book_rows, a_constant_agrees_only_within_its_tolerance) {
  const rational tolerance(15, 100);
  EXPECT_TRUE(within(rational(1906, 1000), rational(208, 100), tolerance));
  EXPECT_FALSE(within(rational(1925, 1000), rational(157, 100), tolerance));                    // 22.6 % above
  EXPECT_FALSE(within(rational(1300, 1000), rational(157, 100), tolerance));                    // 17.2 % below
  EXPECT_TRUE(within(rational(157, 100) * rational(115, 100), rational(157, 100), tolerance));  // the edge is inside
}

TEST(theorem_book_rows, a_damaged_certificate_fails_its_row) {
  certificate_totals good;
  EXPECT_TRUE(good.add(7));
  EXPECT_TRUE(good.failure.empty());
  const std::string text = dance_lower_bound_certificate(7);
  const std::string instance = dance_certificate_instance(7, optimal_rounds(7) - 1);
  // the last derivation step's line cut off
  std::string cut = text.substr(0, text.rfind('\n', text.size() - 2) + 1);
  certificate_totals damaged;
  EXPECT_FALSE(damaged.add(cut, instance));
  EXPECT_FALSE(damaged.failure.empty());
  EXPECT_NE(damaged.summary().find("REJECTED"), std::string::npos) << damaged.summary();
  // a valid certificate of another instance (n = 7 in 5 rounds refutes less than T(7) - 1 = 6 rounds claims)
  certificate_totals other;
  EXPECT_FALSE(other.add(text, dance_certificate_instance(7, optimal_rounds(7) - 2)));
}

TEST(theorem_book_rows, a_stored_table_holds_only_in_its_model_and_stated_steps) {
  const torus::network t({4, 4});
  const auto found = catalogued_torus_table(t, "general");
  ASSERT_TRUE(found.has_value());
  const std::uint64_t steps = found->first.steps;
  EXPECT_EQ(stored_table_failure(t, "general", steps, found->second), "");
  EXPECT_NE(stored_table_failure(t, "general", steps - 1, found->second), "");  // one step fewer than it takes
  EXPECT_NE(stored_table_failure(t, "general", steps + 1, found->second), "");  // completes earlier than stated
  EXPECT_NE(stored_table_failure(torus::network({4, 5}), "general", steps, found->second), "");
  // a general table read as a pairing table breaks the pairing rule somewhere (4 x 4 general needs 5, pairing 6)
  EXPECT_NE(stored_table_failure(t, "pairing", steps, found->second).find("breaks the pairing model"),
            std::string::npos);
  // one out-port of one PU sent nowhere: gossip no longer completes in the stated steps, or at all
  routing_table damaged = found->second;
  for (std::uint32_t port = 0; port < t.ports(); ++port) damaged.forward_at(0, port) = no_port;
  EXPECT_NE(stored_table_failure(t, "general", steps, damaged), "");
  // a packet injected after step 1
  routing_table injected = found->second;
  injected.inject_at(3, 1) = 1;
  EXPECT_NE(stored_table_failure(t, "general", steps, injected), "");
}

}  // namespace
}  // namespace dancecard
