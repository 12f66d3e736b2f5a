// h-relation foundations: exact rationals, instances (h), and the schedule checker (ports, rate, causality, delivery).
#include <gtest/gtest.h>

#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/checkers/hrel_structure_check.hpp"
#include "dancecard/formats/hrel_io.hpp"

#include <sstream>

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::hrel;
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

TEST(hrel_check, a_slot_costs_its_transfers_not_the_number_of_pes) {
  // 100,000 PEs, 100,000 empty slots before the one transfer: the ports of a slot are reset where it wrote, not
  // re-allocated for every PE in every slot (10^10 entries), and a PE busy in one slot is free in the next.
  const hrel_instance two(100'000, {{0, 1, 1}, {1, 0, 1}});
  hrel_schedule s{100'000, {}};
  for (int k = 0; k < 100'000; ++k) s.slots.push_back(slot(1, {}));
  s.slots.push_back(slot(1, {{0, 1, 0, 1}}));
  s.slots.push_back(slot(1, {{1, 0, 1, 1}}));
  const hrel_report r = check_hrel_schedule(two, s, duplex::half);
  EXPECT_TRUE(r.holds()) << describe(r);
  EXPECT_EQ(r.makespan, rational(100'002));
  s.slots.back().transfers.push_back({1, 0, 1, 1});  // the same transfer twice: both its PEs are busy twice
  EXPECT_EQ(check_hrel_schedule(two, s, duplex::half).count(hrel_violation_kind::port_busy), 2u);
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
  const hrel_schedule s{
      3,
      {slot(rational(1, 2), {{0, 1, 0, rational(1, 2)}}), slot(rational(1, 2), {{0, 2, 0, rational(1, 2)}}),
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
  EXPECT_EQ(describe(r.witnesses[0]),
            "message_incomplete: message 0 has 4/5 of 1 packets at its destination at the end");
}

TEST(hrel_check, rate_and_reference_errors_are_violations_not_exceptions) {
  const hrel_schedule s{3, {slot(rational(1, 2), {{0, 1, 0, 1}}), slot(0, {}), slot(1, {{1, 7, 1, 1}, {1, 2, 9, 1}})}};
  const hrel_report r = check_hrel_schedule(triangle, s, duplex::half);
  EXPECT_EQ(r.count(hrel_violation_kind::amount_exceeds_slot), 1u);
  EXPECT_EQ(r.count(hrel_violation_kind::bad_duration), 1u);
  EXPECT_EQ(r.count(hrel_violation_kind::bad_reference), 2u);
}

// Found by fuzzing the CLI: a sum past 64-bit rationals escaped the checker as an uncaught exception.
// Now it is a std::overflow_error naming the slot (the CLI's bad input, exit 2), never a number wrapped round.
TEST(hrel_check, sums_beyond_64_bit_rationals_throw_naming_the_slot) {
  const rational big(std::int64_t{1} << 62);
  const hrel_schedule durations{3, {slot(big, {}), slot(big, {}), slot(1, {})}};
  try {
    check_hrel_schedule(triangle, durations, duplex::half);
    ADD_FAILURE() << "no overflow";
  } catch (const std::overflow_error& e) {
    EXPECT_EQ(std::string(e.what()), "slot 1: rational: overflow");
  }
  // PE 1 sends message 0 twice in slot 1, 2^62 packets each: what it sends sums to 2^63
  const hrel_schedule amounts{3, {slot(1, {{0, 1, 0, 1}}), slot(1, {{1, 0, 0, big}, {1, 2, 0, big}})}};
  EXPECT_THROW(check_hrel_schedule(triangle, amounts, duplex::full), std::overflow_error);
}

TEST(hrel_formats, round_trip_and_positioned_errors) {
  std::ostringstream instance_text;
  write_hrel_instance(instance_text, triangle);
  EXPECT_EQ(read_hrel_instance(instance_text.str()), triangle);
  const hrel_schedule s{3, {slot(rational(1, 5), {{0, 1, 0, rational(1, 5)}}), slot(2, {{1, 2, 1, 1}})}};
  std::ostringstream schedule_text;
  write_hrel_schedule(schedule_text, s);
  EXPECT_EQ(read_hrel_schedule(schedule_text.str()), s);
  // the reader's format_error message, or "" when `read` accepts the text
  auto error_of = [](const std::string& text, auto read) {
    try {
      read(text);
    } catch (const format_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  auto instance_error_of = [&](const std::string& text) { return error_of(text, read_hrel_instance); };
  EXPECT_EQ(
      instance_error_of(R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 0, "dst": 5, "packets": 1}]})"),
      "messages[0].dst: PE 5 out of range for P = 3");
  EXPECT_EQ(
      instance_error_of(R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 0, "dst": 1, "packets": 0}]})"),
      "messages[0].packets: expected an integer >= 1, got 0");
  EXPECT_EQ(
      instance_error_of(R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 1, "dst": 1, "packets": 2}]})"),
      "messages[0]: a message from PE 1 to itself");
  EXPECT_EQ(instance_error_of(R"({"format": "dancecard.hrel/1", "P": 0, "messages": []})"),
            "P: expected an integer >= 1, got 0");
  EXPECT_EQ(
      instance_error_of("{\"format\": \"dancecard.hrel/1\",\n \"P\": 3, \"messages\": [").rfind("line 2, column", 0),
      0u);
  // The format is checked before the keys: a schedule given where the instance goes (arguments swapped) is named.
  EXPECT_EQ(instance_error_of(schedule_text.str()),
            "format: expected \"dancecard.hrel/1\", got \"dancecard.hrel-schedule/1\": this is an h-relation schedule, "
            "not an h-relation "
            "instance (the wrong file, or arguments swapped?)");
  EXPECT_EQ(instance_error_of(R"({"format": "dancecard.hrel/1", "P": 3, "message": []})"),
            "message: unknown key (expected format, P, messages, comment, family)");
  EXPECT_EQ(instance_error_of(R"({"P": 3, "messages": []})"), "format: missing; expected \"dancecard.hrel/1\"");
  // an amount of 2^63 was read as -2^63 (nlohmann converts an unsigned value to int64 by wrapping)
  auto schedule_error_of = [&](const std::string& text) { return error_of(text, read_hrel_schedule); };
  EXPECT_EQ(
      schedule_error_of(R"({"format": "dancecard.hrel-schedule/1", "P": 3, "slots": [{"duration": 1, "transfers": )"
                        R"([{"from": 0, "to": 1, "message": 0, "amount": 9223372036854775808}]}]})"),
      "slots[0].transfers[0].amount: is 9223372036854775808, beyond the exact numbers dancecard reads (|a| < 2^63)");
  EXPECT_EQ(schedule_error_of(R"({"format": "dancecard.hrel-schedule/1", "P": 3, )"
                              R"("slots": [{"duration": 9223372036854775807, "transfers": []}]})"),
            "");
}

}  // namespace
}  // namespace dancecard

#include <algorithm>
#include <random>

#include "dancecard/core/hrel/edge_coloring.hpp"

namespace dancecard {
namespace {

TEST(edge_coloring, small_regular_and_irregular_multigraphs) {
  const bipartite_multigraph regular{2, 2, {{0, 0, 2}, {0, 1, 1}, {1, 1, 2}, {1, 0, 1}}};
  EXPECT_EQ(edge_coloring_problem(regular, color_bipartite_edges(regular)), "");
  const bipartite_multigraph star{1, 5, {{0, 0, 1}, {0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {0, 4, 1}}};
  EXPECT_EQ(edge_coloring_problem(star, color_bipartite_edges(star)), "");
  const bipartite_multigraph heavy{3, 3, {{0, 1, 1'000'003}, {1, 2, 7}, {2, 0, 5}}};
  const auto classes = color_bipartite_edges(heavy);
  EXPECT_EQ(classes.size(), 1'000'003u);
  EXPECT_EQ(edge_coloring_problem(heavy, classes), "");
  EXPECT_TRUE(color_bipartite_edges(bipartite_multigraph{3, 3, {}}).empty());
}

TEST(edge_coloring, the_check_rejects_wrong_colourings) {
  const bipartite_multigraph g{2, 2, {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}}};
  EXPECT_EQ(edge_coloring_problem(g, {{0, 3}, {1, 2}}), "");
  EXPECT_EQ(edge_coloring_problem(g, {{0, 1}, {2, 3}}), "class 0 is not a matching");
  EXPECT_EQ(edge_coloring_problem(g, {{0, 3}, {1}}), "edge 2 is coloured 0 times, its multiplicity is 1");
  EXPECT_EQ(edge_coloring_problem(g, {{0, 3}, {1, 2}, {}}), "3 colours for maximum degree 2");
  const hrel_instance line(3, {{0, 1, 2}, {1, 2, 2}});  // h = 4 at PE 1
  EXPECT_EQ(orientation_problem(line, {1, 1}), "");
  EXPECT_EQ(orientation_problem(line, {2, 0}), "PE 1 has 0 out and 4 in, above ceil(h/2) = 2");
}

TEST(edge_coloring, random_multigraphs_get_exactly_delta_colours) {
  std::mt19937_64 random(20261122);
  for (int trial = 0; trial < 300; ++trial) {
    const std::uint32_t left = 1 + random() % 12, right = 1 + random() % 12;
    bipartite_multigraph g{left, right, {}};
    const int edges = static_cast<int>(random() % 40);
    for (int e = 0; e < edges; ++e)
      g.edges.push_back({static_cast<std::uint32_t>(random() % left), static_cast<std::uint32_t>(random() % right),
                         1 + random() % (trial % 3 == 0 ? 50 : 3)});
    for (colouring_engine engine :
         {colouring_engine::euler_hopcroft_karp, colouring_engine::euler_multiplicities, colouring_engine::alon})
      EXPECT_EQ(edge_coloring_problem(g, color_bipartite_edges(g, engine)), "")
          << "trial " << trial << ", engine " << static_cast<int>(engine);
  }
}

TEST(edge_coloring, unions_of_random_permutations_by_unit_copies_and_by_multiplicities) {
  // Δ random permutations on n + n vertices (parallel edges where two coincide): the default lays out unit copies,
  // the comparison engine works on multiplicities; both must give exactly Δ matchings covering every edge once.
  std::mt19937_64 random(20261129);
  for (const std::uint32_t delta : {1u, 2u, 7u, 37u, 64u, 100u}) {
    const std::uint32_t n = 500 + static_cast<std::uint32_t>(random() % 500);
    bipartite_multigraph g{n, n, {}};
    std::vector<std::uint32_t> perm(n);
    for (std::uint32_t c = 0; c < delta; ++c) {
      for (std::uint32_t i = 0; i < n; ++i) perm[i] = i;
      std::shuffle(perm.begin(), perm.end(), random);
      for (std::uint32_t i = 0; i < n; ++i) g.edges.push_back({i, perm[i], 1});
    }
    for (colouring_engine engine : {colouring_engine::euler_hopcroft_karp, colouring_engine::euler_multiplicities}) {
      const auto classes = color_bipartite_edges(g, engine);
      EXPECT_EQ(classes.size(), delta);
      EXPECT_EQ(edge_coloring_problem(g, classes), "") << "Δ = " << delta << ", engine " << static_cast<int>(engine);
    }
  }
}

}  // namespace
}  // namespace dancecard

#include "dancecard/core/hrel/schedules.hpp"

namespace dancecard {
namespace {

hrel_instance random_instance(std::mt19937_64& random, rank max_pes, std::uint64_t max_packets) {
  const rank P = 2 + static_cast<rank>(random() % (max_pes - 1));
  std::vector<hrel_message> messages;
  for (rank a = 0; a < P; ++a)
    for (rank b = 0; b < P; ++b)
      if (a != b && random() % 3 == 0) messages.push_back({a, b, 1 + random() % max_packets});
  return hrel_instance(P, std::move(messages));
}

TEST(hrel_schedules, full_duplex_routes_every_instance_in_exactly_h_rounds) {
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 200; ++trial) {
    const hrel_instance instance = random_instance(random, 12, trial % 2 ? 6 : 1);
    const hrel_schedule s = full_duplex_schedule(instance);
    const hrel_report r = check_hrel_schedule(instance, s, duplex::full);
    ASSERT_TRUE(r.holds()) << describe(r);
    EXPECT_EQ(r.makespan, rational(static_cast<std::int64_t>(instance.h_full_duplex())));
  }
}

TEST(hrel_schedules, euler_orientation_balances_every_pe) {
  std::mt19937_64 random(8);
  for (int trial = 0; trial < 200; ++trial) {
    const hrel_instance instance = random_instance(random, 12, 7);
    EXPECT_EQ(orientation_problem(instance, euler_orientation(instance)), "") << "trial " << trial;
  }
}

TEST(hrel_schedules, direct_half_duplex_within_three_ceil_half_h) {
  std::mt19937_64 random(9);
  for (int trial = 0; trial < 200; ++trial) {
    const hrel_instance instance = random_instance(random, 12, trial % 2 ? 5 : 1);
    const hrel_schedule s = direct_schedule(instance);
    const hrel_report r = check_hrel_schedule(instance, s, duplex::half);
    ASSERT_TRUE(r.holds()) << describe(r);
    EXPECT_LE(r.makespan, rational(static_cast<std::int64_t>(3 * ((instance.h_half_duplex() + 1) / 2))));
  }
}

TEST(hrel_schedules, copies_of_a_triangle_take_three_half_h_direct) {
  // The footnote instance of Section 2.1: h/2 packets on each arc of a triangle (h even) — 3h/2 slots.
  for (std::uint64_t half_h = 1; half_h <= 6; ++half_h) {
    const hrel_instance triangle_copies(3, {{0, 1, half_h}, {1, 2, half_h}, {2, 0, half_h}});
    const hrel_report r = check_hrel_schedule(triangle_copies, direct_schedule(triangle_copies), duplex::half);
    ASSERT_TRUE(r.holds()) << describe(r);
    EXPECT_EQ(r.makespan, rational(static_cast<std::int64_t>(3 * half_h)));
  }
}

}  // namespace
}  // namespace dancecard
