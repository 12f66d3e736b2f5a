// The dance checker's verdicts and witnesses on hand-made broken schedules, matrices and requirements.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <tuple>

#include "dancecard/checkers/dance_check.hpp"

namespace dancecard {

using namespace dancecard::dance;
namespace {

dance_schedule make(rank n, std::vector<std::vector<std::pair<rank, rank>>> rounds) {
  dance_schedule s(n);
  for (const auto& round : rounds) {
    s.begin_round();
    for (auto [a, b] : round) s.add_dance(a, b);
  }
  return s;
}

const dance_schedule k4 = make(4, {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}});

TEST(dance_check, accepts_the_format_example) {
  const dance_report r = check_dance_schedule(k4);
  EXPECT_TRUE(r.holds());
  EXPECT_EQ(r.violation_count, 0u);
  EXPECT_NE(r.checked.find("n = 4 over 3 rounds"), std::string::npos);
}

TEST(dance_check, names_the_pair_that_never_meets) {
  const dance_report r = check_dance_schedule(make(4, {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}}));
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.count(dance_violation_kind::pair_never_meets), 2u);
  EXPECT_EQ(r.witnesses[0].kind, dance_violation_kind::pair_never_meets);
  EXPECT_EQ(std::pair(r.witnesses[0].a, r.witnesses[0].b), std::pair(0u, 3u));
  EXPECT_EQ(std::pair(r.witnesses[1].a, r.witnesses[1].b), std::pair(1u, 2u));
}

TEST(dance_check, names_the_pair_that_meets_twice_with_both_rounds) {
  const dance_report r =
      check_dance_schedule(make(4, {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}, {{1, 0}}}));
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.violation_count, 1u);
  EXPECT_EQ(r.witnesses[0].kind, dance_violation_kind::pair_meets_twice);
  EXPECT_EQ(std::pair(r.witnesses[0].a, r.witnesses[0].b), std::pair(0u, 1u));
  EXPECT_EQ(r.witnesses[0].other_round, 0u);
  EXPECT_EQ(r.witnesses[0].round, 3u);
}

TEST(dance_check, names_the_person_booked_twice_in_a_round) {
  const dance_report r = check_dance_schedule(make(3, {{{0, 1}, {0, 2}}, {{1, 2}}}));
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.count(dance_violation_kind::person_booked_twice), 1u);
  const auto& w = r.witnesses[0];
  EXPECT_EQ(w.kind, dance_violation_kind::person_booked_twice);
  EXPECT_EQ(w.a, 0u);
  EXPECT_EQ(w.b, 1u);
  EXPECT_EQ(w.c, 2u);
  EXPECT_EQ(w.round, 0u);
}

TEST(dance_check, reports_self_dances) {
  const dance_report r = check_dance_schedule(make(2, {{{0, 1}}, {{1, 1}}}));
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.witnesses[0].kind, dance_violation_kind::self_dance);
  EXPECT_EQ(r.witnesses[0].round, 1u);
}

TEST(dance_check, self_dances_count_apart_from_the_pairs) {
  // Pairs met: {0, 1} twice. Never met: the other 5 pairs. Three self-dances, none of which meets a pair.
  const dance_report r = check_dance_schedule(make(4, {{{0, 1}, {2, 2}}, {{0, 1}, {3, 3}}, {{1, 1}}}), {});
  EXPECT_EQ(r.count(dance_violation_kind::self_dance), 3u) << describe(r);
  EXPECT_EQ(r.count(dance_violation_kind::pair_meets_twice), 1u) << describe(r);
  EXPECT_EQ(r.count(dance_violation_kind::pair_never_meets), 5u) << describe(r);
  EXPECT_EQ(r.violation_count, 9u);
  // every pair met once beside self-dances: only those
  const dance_report s = check_dance_schedule(make(3, {{{0, 1}, {2, 2}}, {{0, 2}, {1, 1}}, {{1, 2}, {0, 0}}}), {});
  EXPECT_EQ(s.violation_count, 3u) << describe(s);
  EXPECT_EQ(s.count(dance_violation_kind::self_dance), 3u) << describe(s);
}

// The counts against a plain account of the same dances, on random schedules whose dances name their persons in
// either order, across the 64-bit words and blocks of the pair bits (n up to 150).
TEST(dance_check, counts_agree_with_a_plain_account_whatever_the_order_of_a_dance) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const rank n = 2 + static_cast<rank>(rng() % 149);
    const std::size_t rounds = rng() % (trial % 3 == 0 ? 3 : 2 * n);
    dance_schedule s(n);
    std::set<std::pair<rank, rank>> met;
    std::uint64_t selves = 0, repeats = 0, booked = 0;
    for (std::size_t r = 0; r < rounds; ++r) {
      s.begin_round();
      std::vector<int> seen(n, 0);
      const std::size_t dances = rng() % (n / 2 + 2);
      for (std::size_t k = 0; k < dances; ++k) {
        const rank a = static_cast<rank>(rng() % n), b = rng() % 16 == 0 ? a : static_cast<rank>(rng() % n);
        s.add_dance(a, b);
        if (a == b) {
          ++selves;
          continue;  // a self-dance books no one twice by itself (it is its own kind)
        }
        booked += (seen[a]++ > 0) + (seen[b]++ > 0);
        if (!met.insert({std::min(a, b), std::max(a, b)}).second) ++repeats;
      }
    }
    dance_requirements req;
    req.max_witnesses = 1'000'000;
    const dance_report rep = check_dance_schedule(s, req);
    const std::uint64_t pairs = std::uint64_t{n} * (n - 1) / 2;
    EXPECT_EQ(rep.count(dance_violation_kind::self_dance), selves) << trial;
    EXPECT_EQ(rep.count(dance_violation_kind::pair_meets_twice), repeats) << trial;
    EXPECT_EQ(rep.count(dance_violation_kind::pair_never_meets), pairs - met.size()) << trial;
    // never-met witnesses in order, each truly unmet
    std::pair<rank, rank> previous{0, 0};
    for (const dance_violation& v : rep.witnesses) {
      if (v.kind != dance_violation_kind::pair_never_meets) continue;
      EXPECT_LT(v.a, v.b);
      EXPECT_EQ(met.count({v.a, v.b}), 0u) << trial;
      EXPECT_LT(previous, std::make_pair(v.a, v.b));
      previous = {v.a, v.b};
    }
    if (selves == 0) {
      EXPECT_EQ(rep.count(dance_violation_kind::person_booked_twice) > 0, booked > 0) << trial;
    }
  }
}

// With a required pair set: the pairs not allowed, repeated and never met against a plain account, on random graphs
// and schedules across the 8 × 8 blocks and 64-bit words of the pair bits (n up to 150).
TEST(dance_check, required_pairs_counts_agree_with_a_plain_account) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const rank n = 2 + static_cast<rank>(rng() % 149);
    std::set<std::pair<rank, rank>> required;
    std::vector<std::pair<rank, rank>> listed;
    const std::size_t edges = rng() % (3 * n);
    for (std::size_t k = 0; k < edges; ++k) {
      const rank a = static_cast<rank>(rng() % n), b = static_cast<rank>(rng() % n);
      if (a == b) continue;
      listed.push_back(rng() % 2 ? std::pair{a, b} : std::pair{b, a});  // either order, duplicates allowed
      required.insert({std::min(a, b), std::max(a, b)});
    }
    dance_schedule s(n);
    std::set<std::pair<rank, rank>> met;
    std::uint64_t not_allowed = 0, repeats = 0;
    const std::size_t rounds = 1 + rng() % n;
    for (std::size_t r = 0; r < rounds; ++r) {
      s.begin_round();
      const std::size_t dances = rng() % (n / 2 + 1);
      for (std::size_t k = 0; k < dances; ++k) {
        rank a, b;
        if (!listed.empty() && rng() % 4 != 0) {
          std::tie(a, b) = listed[rng() % listed.size()];
        } else {
          a = static_cast<rank>(rng() % n), b = static_cast<rank>(rng() % n);
          if (a == b) continue;
        }
        s.add_dance(a, b);
        const std::pair<rank, rank> p{std::min(a, b), std::max(a, b)};
        if (required.count(p) == 0)
          ++not_allowed;
        else if (!met.insert(p).second)
          ++repeats;
      }
    }
    dance_requirements req;
    req.required_pairs = listed;
    req.max_witnesses = 1'000'000;
    const dance_report rep = check_dance_schedule(s, req);
    EXPECT_EQ(rep.count(dance_violation_kind::pair_not_allowed), not_allowed) << trial;
    EXPECT_EQ(rep.count(dance_violation_kind::pair_meets_twice), repeats) << trial;
    EXPECT_EQ(rep.count(dance_violation_kind::pair_never_meets), required.size() - met.size()) << trial;
    std::pair<rank, rank> previous{0, 0};
    std::size_t named = 0;
    for (const dance_violation& v : rep.witnesses) {
      if (v.kind != dance_violation_kind::pair_never_meets) continue;
      EXPECT_EQ(required.count({v.a, v.b}), 1u) << trial;
      EXPECT_EQ(met.count({v.a, v.b}), 0u) << trial;
      EXPECT_LT(previous, std::make_pair(v.a, v.b)) << trial;
      previous = {v.a, v.b};
      ++named;
    }
    EXPECT_EQ(named, required.size() - met.size()) << trial;
  }
}

TEST(dance_check, keeps_few_witnesses_but_counts_all) {
  dance_schedule empty(100);
  dance_requirements req;
  req.max_witnesses = 3;
  const dance_report r = check_dance_schedule(empty, req);
  EXPECT_EQ(r.witnesses.size(), 3u);
  EXPECT_EQ(r.violation_count, 100u * 99 / 2);
  EXPECT_NE(describe(r).find("4950 violations in all"), std::string::npos);
}

TEST(dance_check, same_pair_twice_in_one_round_is_both_double_booking_and_repetition) {
  const dance_report r = check_dance_schedule(make(4, {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}, {2, 0}}, {{0, 3}, {1, 2}}}));
  EXPECT_EQ(r.count(dance_violation_kind::person_booked_twice), 2u);
  EXPECT_EQ(r.count(dance_violation_kind::pair_meets_twice), 1u);
  bool named = false;
  for (const auto& w : r.witnesses)
    named |=
        w.kind == dance_violation_kind::pair_meets_twice && w.a == 0 && w.b == 2 && w.round == 1 && w.other_round == 1;
  EXPECT_TRUE(named);
}

TEST(dance_check, violations_in_one_round_do_not_hide_later_ones) {
  // Round 0 is broken (person 0 twice); round 2 repeats {0, 3} from round 1: both must be found.
  const dance_report r =
      check_dance_schedule(make(4, {{{0, 1}, {0, 2}}, {{0, 3}, {1, 2}}, {{3, 0}}, {{1, 3}}, {{2, 3}}}));
  EXPECT_EQ(r.count(dance_violation_kind::person_booked_twice), 1u);
  EXPECT_EQ(r.count(dance_violation_kind::pair_meets_twice), 1u);
  EXPECT_EQ(r.count(dance_violation_kind::pair_never_meets), 0u);
}

TEST(dance_check, never_met_count_is_exact_at_word_boundaries) {
  // n(n-1)/2 is a multiple of 64 for n = 128 and n = 129; nothing beyond the last pair may be counted.
  for (rank n : {127u, 128u, 129u, 130u}) {
    const dance_report r = check_dance_schedule(dance_schedule(n));
    EXPECT_EQ(r.violation_count, static_cast<std::uint64_t>(n) * (n - 1) / 2) << n;
  }
}

TEST(dance_check, n_equal_one_with_no_rounds_holds) { EXPECT_TRUE(check_dance_schedule(dance_schedule(1)).holds()); }

TEST(dance_check, matrix_asymmetry_is_reported_with_both_entries) {
  partner_matrix m = to_partner_matrix(k4);
  m.set(1, 1, 3);  // P(1,1) = 3 but P(3,1) = 4
  const dance_report r = check_partner_matrix(m);
  ASSERT_EQ(r.outcome, verdict::violated);
  const auto& w = r.witnesses[0];
  EXPECT_EQ(w.kind, dance_violation_kind::asymmetric_entry);
  EXPECT_EQ(w.a, 0u);
  EXPECT_EQ(w.b, 2u);
  EXPECT_EQ(w.c, 3u);
  EXPECT_NE(describe(w).find("P(1, 1) = 3 but P(3, 1) = 4"), std::string::npos);
}

TEST(dance_check, matrix_entries_out_of_range_are_reported) {
  partner_matrix m = to_partner_matrix(k4);
  m.set(2, 2, 9);
  const dance_report r = check_partner_matrix(m);
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.witnesses[0].kind, dance_violation_kind::entry_out_of_range);
}

TEST(dance_check, edge_colouring_of_a_required_graph) {
  // The 4-cycle 0-1-2-3-0 coloured with 2 colours.
  dance_requirements req;
  req.required_pairs = std::vector<std::pair<rank, rank>>{{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  EXPECT_TRUE(check_dance_schedule(make(4, {{{0, 1}, {2, 3}}, {{1, 2}, {3, 0}}}), req).holds());
  const dance_report r = check_dance_schedule(make(4, {{{0, 1}, {2, 3}}, {{1, 2}, {3, 0}}, {{0, 2}}}), req);
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.witnesses[0].kind, dance_violation_kind::pair_not_allowed);
  EXPECT_EQ(r.witnesses[0].round, 2u);
}

TEST(dance_check, side_conditions_fixed_forbidden_unavailable_and_round_budget) {
  dance_requirements req;
  req.fixed = {{0, 3, 0}};
  req.forbidden = {{1, 2, 2}};
  req.unavailable = {{3, 1}};
  req.max_rounds = 2;
  const dance_report r = check_dance_schedule(k4, req);
  EXPECT_EQ(r.count(dance_violation_kind::fixed_dance_missing), 1u);
  EXPECT_EQ(r.count(dance_violation_kind::forbidden_dance_present), 1u);
  EXPECT_EQ(r.count(dance_violation_kind::unavailable_person_dances), 1u);
  EXPECT_EQ(r.count(dance_violation_kind::too_many_rounds), 1u);
  EXPECT_EQ(r.violation_count, 4u);
}

TEST(dance_check, requirements_naming_unknown_ranks_are_caller_errors) {
  dance_requirements req;
  req.fixed = {{0, 7, 0}};
  EXPECT_THROW(check_dance_schedule(k4, req), std::invalid_argument);
}

TEST(dance_check, unvalidated_ranks_are_compared_as_the_rounds_are_read) {
  // In range: the same report as the checked view, on a valid and on a broken schedule.
  const dance_schedule broken = make(4, {{{0, 1}, {2, 3}}, {{0, 1}, {2, 3}}, {{0, 3}, {1, 1}}});
  for (const dance_schedule* s : {&k4, &broken}) {
    const std::optional<dance_report> r = check_dance_schedule_unvalidated(*s);
    ASSERT_TRUE(r);
    const dance_report plain = check_dance_schedule(*s);
    EXPECT_EQ(r->outcome, plain.outcome);
    EXPECT_EQ(r->count_by_kind, plain.count_by_kind);
    EXPECT_EQ(describe(*r), describe(plain));
  }
  // Out of range, in the first round, the last, as the largest rank there is (a negative int32 reads so), and with
  // required pairs (the slow path): nothing.
  for (const rank bad : {rank{4}, rank{5}, ~rank{0}}) {
    for (std::size_t round : {0u, 2u}) {
      std::vector<couple> dances{{0, 1}, {2, 3}, {0, 2}, {1, 3}, {0, 3}, {1, 2}};
      dances[2 * round + 1].second = bad;
      const std::vector<std::size_t> offsets{0, 2, 4, 6};
      const dance_schedule_view view(4, dances, offsets);
      EXPECT_FALSE(check_dance_schedule_unvalidated(view)) << bad << " in round " << round;
      dance_requirements pairs;
      pairs.required_pairs = std::vector<std::pair<rank, rank>>{{0, 1}, {2, 3}, {0, 2}, {1, 3}, {0, 3}, {1, 2}};
      EXPECT_FALSE(check_dance_schedule_unvalidated(view, pairs)) << bad << " in round " << round;
    }
  }
}

TEST(checked_dance_schedule, exists_only_for_accepted_schedules) {
  EXPECT_TRUE(checked_dance_schedule::accept(k4, {}).has_value());
  dance_report rejection;
  EXPECT_FALSE(checked_dance_schedule::accept(dance_schedule(3), {}, &rejection).has_value());
  EXPECT_EQ(rejection.count(dance_violation_kind::pair_never_meets), 3u);
}

}  // namespace
}  // namespace dancecard
