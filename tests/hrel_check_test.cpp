// h-relation foundations: exact rationals, instances (h), and the schedule checker (ports, rate, causality, delivery).
#include <gtest/gtest.h>

#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/formats/hrel_io.hpp"

#include <sstream>

namespace dancecard {
namespace {

TEST(rational, exact_arithmetic_in_lowest_terms) {
  EXPECT_EQ(rational(6, 5) * rational(3), rational(18, 5));
  EXPECT_EQ(rational(1, 5) + rational(1, 5) + rational(3, 5), rational(1));
  EXPECT_EQ(rational(2, -4), rational(-1, 2));
  EXPECT_EQ((rational(12, 5)).to_string(), "12/5");
  EXPECT_EQ(rational::parse("12/5"), rational(12, 5));
  EXPECT_EQ(rational::parse("-3"), rational(-3));
  EXPECT_LT(rational(12, 5), rational(5, 2));
  EXPECT_THROW(rational::parse("1.5"), std::invalid_argument);
  EXPECT_THROW(rational::parse("1/0"), std::invalid_argument);
  EXPECT_THROW(rational(1, 0), std::domain_error);
  EXPECT_THROW(rational(INT64_MAX) + rational(1), std::overflow_error);
}

const hrel_instance triangle(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}});

hrel_slot slot(rational duration, std::vector<hrel_transfer> transfers) { return {duration, std::move(transfers)}; }

TEST(hrel_instance, h_in_both_models) {
  const hrel_instance two(6, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {3, 4, 1}, {4, 5, 1}, {5, 3, 1}});
  EXPECT_EQ(two.h_half_duplex(), 2u);
  EXPECT_EQ(two.h_full_duplex(), 1u);
  EXPECT_THROW(hrel_instance(3, {{0, 0, 1}}), std::invalid_argument);
  EXPECT_THROW(hrel_instance(3, {{0, 1, 1}, {0, 1, 2}}), std::invalid_argument);
  EXPECT_THROW(hrel_instance(3, {{0, 3, 1}}), std::invalid_argument);
}

TEST(hrel_check, the_direct_triangle_takes_three_slots_half_duplex) {
  const hrel_schedule s{3, {slot(1, {{0, 1, 0, 1}}), slot(1, {{1, 2, 1, 1}}), slot(1, {{2, 0, 2, 1}})}};
  const hrel_report r = check_hrel_schedule(triangle, s, duplex::half);
  EXPECT_TRUE(r.holds()) << describe(r);
  EXPECT_EQ(r.makespan, rational(3));
}

TEST(hrel_check, full_duplex_runs_the_triangle_in_one_slot_half_duplex_does_not) {
  const hrel_schedule s{3, {slot(1, {{0, 1, 0, 1}, {1, 2, 1, 1}, {2, 0, 2, 1}})}};
  EXPECT_TRUE(check_hrel_schedule(triangle, s, duplex::full).holds());
  const hrel_report r = check_hrel_schedule(triangle, s, duplex::half);
  EXPECT_EQ(r.count(hrel_violation_kind::port_busy), 3u);
}

TEST(hrel_check, forwarding_in_pieces_is_accepted) {
  // Message 0 -> 1 goes half directly and half through PE 2, in pieces of 1/2.
  const hrel_instance one(3, {{0, 1, 1}});
  const hrel_schedule s{3, {slot(rational(1, 2), {{0, 1, 0, rational(1, 2)}}), slot(rational(1, 2), {{0, 2, 0, rational(1, 2)}}),
                            slot(rational(1, 2), {{2, 1, 0, rational(1, 2)}})}};
  const hrel_report r = check_hrel_schedule(one, s, duplex::half);
  EXPECT_TRUE(r.holds()) << describe(r);
  EXPECT_EQ(r.makespan, rational(3, 2));
}

TEST(hrel_check, forwarding_before_arrival_is_caught) {
  // Full duplex lets PE 2 receive and send in one slot, but it cannot send what it is only now receiving.
  const hrel_instance one(3, {{0, 1, 1}});
  const hrel_schedule s{3, {slot(1, {{0, 2, 0, 1}, {2, 1, 0, 1}})}};
  const hrel_report r = check_hrel_schedule(one, s, duplex::full);
  ASSERT_EQ(r.count(hrel_violation_kind::not_yet_held), 1u) << describe(r);
  EXPECT_EQ(r.witnesses[0].pe, 2u);
  EXPECT_EQ(r.witnesses[0].held, rational(0));
}

TEST(hrel_check, a_changed_amount_leaves_the_message_incomplete) {
  const hrel_schedule s{3, {slot(1, {{0, 1, 0, rational(4, 5)}}), slot(1, {{1, 2, 1, 1}}), slot(1, {{2, 0, 2, 1}})}};
  const hrel_report r = check_hrel_schedule(triangle, s, duplex::half);
  ASSERT_EQ(r.count(hrel_violation_kind::message_incomplete), 1u);
  EXPECT_EQ(describe(r.witnesses[0]), "message_incomplete: message 0 has 4/5 of 1 packets at its destination at the end");
}

TEST(hrel_check, rate_and_reference_errors_are_violations_not_exceptions) {
  const hrel_schedule s{3, {slot(rational(1, 2), {{0, 1, 0, 1}}), slot(0, {}), slot(1, {{1, 7, 1, 1}, {1, 2, 9, 1}})}};
  const hrel_report r = check_hrel_schedule(triangle, s, duplex::half);
  EXPECT_EQ(r.count(hrel_violation_kind::amount_exceeds_slot), 1u);
  EXPECT_EQ(r.count(hrel_violation_kind::bad_duration), 1u);
  EXPECT_EQ(r.count(hrel_violation_kind::bad_reference), 2u);
}

TEST(hrel_formats, round_trip_and_positioned_errors) {
  std::ostringstream instance_text;
  write_hrel_instance(instance_text, triangle);
  EXPECT_EQ(read_hrel_instance(instance_text.str()), triangle);
  const hrel_schedule s{3, {slot(rational(1, 5), {{0, 1, 0, rational(1, 5)}}), slot(2, {{1, 2, 1, 1}})}};
  std::ostringstream schedule_text;
  write_hrel_schedule(schedule_text, s);
  EXPECT_EQ(read_hrel_schedule(schedule_text.str()), s);
  auto error_of = [](const std::string& text) {
    try {
      read_hrel_instance(text);
    } catch (const format_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of(R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 0, "dst": 5, "packets": 1}]})"),
            "messages[0].dst: PE 5 out of range for P = 3");
  EXPECT_EQ(error_of(R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 0, "dst": 1, "packets": 0}]})"),
            "messages[0].packets: expected an integer >= 1, got 0");
  EXPECT_EQ(error_of(R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 1, "dst": 1, "packets": 2}]})"),
            "messages[0]: a message from PE 1 to itself");
  EXPECT_EQ(error_of(R"({"format": "dancecard.hrel/1", "P": 0, "messages": []})"), "P: expected an integer >= 1, got 0");
  EXPECT_EQ(error_of("{\"format\": \"dancecard.hrel/1\",\n \"P\": 3, \"messages\": [").rfind("line 2, column", 0), 0u);
}

}  // namespace
}  // namespace dancecard
