// Cutting-planes certificates of the h-relation counting arguments: the theorem book's small optima are certified one
// slot below, the checker's hrel instance reads its own model, and damaged certificates or instance lines are refused.
#include <gtest/gtest.h>

#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/core/hrel/families.hpp"
#include "dancecard/smt/hrel_certificates.hpp"
#include "dancecard/smt/hrel_encoding.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::hrel;
using namespace dancecard::certificates;
namespace {

const hrel_instance one_triangle(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}});
const hrel_instance two_triangles(6, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {3, 4, 1}, {4, 5, 1}, {5, 3, 1}});

std::string replace_first(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

cutting_planes_report check(const std::optional<std::string>& certificate) {
  EXPECT_TRUE(certificate.has_value());
  return certificate ? check_cutting_planes(*certificate) : cutting_planes_report{};
}

TEST(hrel_certificates, the_theorem_books_small_optima_are_certified_one_slot_below) {
  // two triangles without forwarding: 3 slots (odd set: a triangle holds one move a slot); with forwarding in pieces
  // of 1/5: 12 slots, of 1/10: 24 (Section 2.5: 2kV = 60 over 3 + 2 moves a slot); one triangle in fifths: 15.
  struct row {
    const hrel_instance* instance;
    unsigned k;
    bool forwarding;
    std::size_t optimum;
  };
  for (const row& r : {row{&two_triangles, 1, false, 3}, row{&two_triangles, 5, true, 12},
                       row{&two_triangles, 10, true, 24}, row{&one_triangle, 5, true, 15}}) {
    const hrel_counting_bounds b = hrel_certified_bounds(*r.instance, r.k, r.forwarding);
    EXPECT_EQ(b.best(), r.optimum) << r.k;
    const cutting_planes_report report =
        check(hrel_lower_bound_certificate(*r.instance, r.k, r.forwarding, r.optimum - 1));
    EXPECT_EQ(report.outcome, verdict::holds) << describe(report);
    EXPECT_FALSE(hrel_lower_bound_certificate(*r.instance, r.k, r.forwarding, r.optimum).has_value());
  }
  const hrel_counting_bounds direct = hrel_certified_bounds(two_triangles, 1, false);
  EXPECT_EQ(direct.per_pe, 2u);
  EXPECT_EQ(direct.odd_set, 3u);
  EXPECT_EQ(hrel_certified_bounds(two_triangles, 5, true).global, 12u);
  EXPECT_EQ(hrel_certified_bounds(two_triangles, 5, true).odd_set, 0u);  // not an argument with forwarding
}

// Where a generator's schedule meets the certificate, it is the witness and no solver is asked: two triangles in
// pieces of 1/10 (the forwarding schedule, 24 slots; 23 refuted). Where it does not, it only bounds the search: one
// triangle in fifths, where the solver finds the witness itself when they are switched off.
TEST(hrel_certificates, the_generators_schedules_witness_where_the_certificate_meets_them) {
  const hrel_optimum_result two = prove_hrel_optimum(two_triangles, {.granularity = 10, .forwarding = true});
  ASSERT_EQ(two.status, proof_status::proven) << two.reason;
  EXPECT_EQ(two.optimum, rational(12, 5));
  EXPECT_EQ(two.certified_bound, 24u);
  EXPECT_EQ(two.below_optimum.answer, solver_answer::unknown);  // not asked
  ASSERT_TRUE(two.at_optimum.witness);
  EXPECT_TRUE(check_hrel_schedule(two_triangles, *two.at_optimum.witness, duplex::half).holds());
  EXPECT_NE(two.reason.find("the forwarding schedule (Sections 2.2-2.4) refined to 24 slots"), std::string::npos)
      << two.reason;
  // Without forwarding the forwarding schedule is no candidate; the direct one (3 slots) meets the odd-set bound.
  const hrel_optimum_result direct = prove_hrel_optimum(two_triangles, {.granularity = 1});
  ASSERT_EQ(direct.status, proof_status::proven) << direct.reason;
  EXPECT_EQ(direct.optimum, rational(3));
  EXPECT_NE(direct.reason.find("the direct schedule (Section 2.1)"), std::string::npos) << direct.reason;
  // Every pair of 9 PEs exchanging one packet: Section 4.1's schedule takes P = 9 slots, the counting bound, which
  // is the witness in halves with forwarding (the solver finds none at 18 slots of 1/2 within 120 s). No solver is
  // asked when the schedule serves; the time limit only ends a failing run as unknown instead of a long search.
  const hrel_instance all_pairs = regular_relation(9, 1, 0, 1);
  const hrel_optimum_result regular =
      prove_hrel_optimum(all_pairs, {.granularity = 2, .forwarding = true, .timeout_ms = 60'000});
  ASSERT_EQ(regular.status, proof_status::proven) << regular.reason;
  EXPECT_EQ(regular.optimum, rational(9));
  EXPECT_NE(regular.reason.find("the regular schedule (Section 4.1) refined to 18 slots"), std::string::npos)
      << regular.reason;
  // Switched off, the solver finds a witness of its own.
  const hrel_optimum_result own =
      prove_hrel_optimum(one_triangle, {.granularity = 5, .forwarding = true, .generator_witnesses = false});
  ASSERT_EQ(own.status, proof_status::proven) << own.reason;
  EXPECT_EQ(own.optimum, rational(3));
  EXPECT_EQ(own.reason.find("schedule (Section"), std::string::npos) << own.reason;
}

TEST(hrel_certificates, the_per_pe_argument_holds_with_forwarding) {
  // a star: PE 0 sends 3 packets to each of 4 others; 12 slots at k = 1, whatever relays
  const hrel_instance star(5, {{0, 1, 3}, {0, 2, 3}, {0, 3, 3}, {0, 4, 3}});
  const hrel_counting_bounds b = hrel_certified_bounds(star, 1, true);
  EXPECT_EQ(b.per_pe, 12u);
  EXPECT_EQ(b.best(), 12u);
  const cutting_planes_report r = check(hrel_lower_bound_certificate(star, 1, true, 11));
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  // leaving out one PE's final holdings leaves relays through it free: rejected
  const auto cert = hrel_lower_bound_certificate(star, 1, true, 11);
  ASSERT_TRUE(cert);
  EXPECT_EQ(check_cutting_planes(replace_first(*cert, " 1 final:2:0", "")).outcome, verdict::violated);
}

TEST(hrel_certificates, a_certificate_fails_on_a_slot_count_that_suffices) {
  const auto cert = hrel_lower_bound_certificate(two_triangles, 5, true, 11);
  ASSERT_TRUE(cert);
  // 12 slots suffice (the forwarding schedule): the same derivation must not reach a contradiction
  const cutting_planes_report r = check_cutting_planes(replace_first(*cert, "slots=11", "slots=12"));
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_FALSE(r.malformed) << describe(r);
  // without forwarding the direct triangles need 3 slots of 1: 2 are refuted, and the forwarding=0 certificate read
  // as forwarding=1 lacks the relays' holdings
  const auto direct = hrel_lower_bound_certificate(two_triangles, 1, false, 2);
  ASSERT_TRUE(direct);
  EXPECT_EQ(check_cutting_planes(*direct).outcome, verdict::holds);
  EXPECT_EQ(check_cutting_planes(replace_first(*direct, "forwarding=0", "forwarding=1")).outcome, verdict::violated);
}

TEST(hrel_certificates, hand_written_derivations_read_the_model_as_documented) {
  // one message 0 -> 1 of 2 packets, one slot: deliver:0 is x(0,0,1) >= 2 on a 0/1 variable — a contradiction at once
  auto r = check_cutting_planes(
      "dancecard.cp/1\ninstance hrel pes=2 k=1 slots=1 forwarding=0 messages=0>1*2\n"
      "c 1 sum 1 deliver:0\ncontradiction #1\n");
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  // with one packet the same is no contradiction
  r = check_cutting_planes(
      "dancecard.cp/1\ninstance hrel pes=2 k=1 slots=1 forwarding=0 messages=0>1*1\n"
      "c 1 sum 1 deliver:0\ncontradiction #1\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  // causality: hold:1:0:0 is −x(0,1,0) − x(0,1,2) >= 0 (in slot 0 only the source holds a piece of message 0). The
  // instance is infeasible anyway (PE 0 has two pieces to send in one slot), but this derivation needs hold: summed
  // with deliver:0, deliver:1, busy:0:0 and final:2:1 it leaves only the relay x(0,1,2) at +1, and hold takes it away
  r = check_cutting_planes(
      "dancecard.cp/1\n"
      "instance hrel pes=3 k=1 slots=1 forwarding=1 messages=0>2*1,0>1*1\n"
      "c 1 sum 1 hold:1:0:0 1 deliver:0 1 deliver:1 1 busy:0:0 1 final:2:1\n"
      "contradiction #1\n");
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  // the same without hold: the relay's +1 stays, so it is no contradiction
  r = check_cutting_planes(
      "dancecard.cp/1\n"
      "instance hrel pes=3 k=1 slots=1 forwarding=1 messages=0>2*1,0>1*1\n"
      "c 1 sum 1 deliver:0 1 deliver:1 1 busy:0:0 1 final:2:1\n"
      "contradiction #1\n");
  EXPECT_EQ(r.outcome, verdict::violated);
}

TEST(hrel_certificates, malformed_hrel_instance_lines_are_reported) {
  const std::string head = "dancecard.cp/1\ninstance hrel ";
  for (const char* line : {"pes=3 k=1 slots=2 forwarding=1 messages=0>1*1,0>1*2",              // the same pair twice
                           "pes=3 k=1 slots=2 forwarding=1 messages=0>0*1",                    // src = dst
                           "pes=3 k=1 slots=2 forwarding=1 messages=0>3*1",                    // dst out of range
                           "pes=3 k=1 slots=2 forwarding=1 messages=0>1*0",                    // no packets
                           "pes=3 k=1 slots=2 forwarding=2 messages=0>1*1",                    // forwarding not 0|1
                           "pes=3 k=0 slots=2 forwarding=1 messages=0>1*1",                    // k = 0
                           "pes=3 k=1 slots=2 messages=0>1*1",                                 // a field missing
                           "pes=3 k=1 slots=2 forwarding=1 messages=0-1*1",                    // not src>dst*packets
                           "pes=3 k=1 slots=2 forwarding=1 messages=",                         // no messages
                           "pes=3 k=2 slots=2 forwarding=1 messages=0>1*9223372036854775807",  // k·packets past int64
                           "pes=100000 k=1 slots=1000 forwarding=1 messages=0>1*1"}) {         // 10^13 variables
    const cutting_planes_report r = check_cutting_planes(head + line + "\n");
    EXPECT_TRUE(r.malformed) << line << ": " << describe(r);
    EXPECT_EQ(r.line, 2u) << line;
  }
  // a move that does not exist without forwarding, and axioms out of range
  for (const char* step : {"c 1 sum 1 lower:0:1:2:0", "c 1 sum 1 busy:3:0", "c 1 sum 1 hold:0:0:2",
                           "c 1 sum 1 deliver:1", "c 1 sum 1 final:0", "c 1 sum 1 upper:0:0:0:0"}) {
    const cutting_planes_report r = check_cutting_planes(
        "dancecard.cp/1\ninstance hrel pes=3 k=1 slots=2 forwarding=0 messages=0>1*1\n" + std::string(step) + "\n");
    EXPECT_TRUE(r.malformed) << step << ": " << describe(r);
    EXPECT_EQ(r.line, 3u) << step;
  }
}

}  // namespace
}  // namespace dancecard
