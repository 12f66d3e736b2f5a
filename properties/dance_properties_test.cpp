// Properties of the dance-party generators, checker and simulator, under RapidCheck (run by ctest).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "dancecard/checkers/allgather_simulation.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/properties/dance_properties.hpp"
#include "dancecard/properties/generators.hpp"

namespace dancecard {

using namespace dancecard::dance;
namespace {

using properties::algorithm;
using properties::max_people;
using properties::people;

std::uint64_t closed_form_rounds(dance_algorithm a, std::uint64_t n) {
  switch (a) {
    case dance_algorithm::sequential:
      return sequential_rounds(n);
    case dance_algorithm::searching:
      return searching_rounds(n);
    case dance_algorithm::divide:
      return divide_rounds_definition(n);
    case dance_algorithm::factorization:
      return factorization_rounds(n);
  }
  return 0;
}

RC_GTEST_PROP(dance_generators, every_output_passes_the_checker_with_the_closed_form_round_count, ()) {
  const dance_algorithm a = *algorithm();
  const rank n = *people(max_people(a));
  RC_TAG(name(a));
  RC_CLASSIFY(std::has_single_bit(n), "power of two");
  const dance_schedule s = generate(a, n);
  const dance_report r = check_dance_schedule(s);
  RC_ASSERT(r.holds());
  RC_ASSERT(s.rounds() == closed_form_rounds(a, n));
  if (n >= 2 && a == dance_algorithm::divide) RC_ASSERT(s.rounds() == divide_rounds_theorem(n));
}

RC_GTEST_PROP(factorization, has_the_optimal_number_of_rounds, ()) {
  const rank n = *people(3000);
  RC_ASSERT(factorization_schedule(n).rounds() == optimal_rounds(n));
}

RC_GTEST_PROP(proposition_1, removing_a_dummy_person_keeps_a_schedule_valid, ()) {
  const dance_algorithm a = *algorithm();
  const rank n = *rc::gen::inRange<rank>(2, std::min<rank>(max_people(a), 600) + 1);
  const rank dummy = *rc::gen::inRange<rank>(0, n);
  const dance_schedule bigger = generate(a, n);
  const dance_schedule reduced = remove_person(bigger, dummy);
  RC_ASSERT(reduced.people() == n - 1);
  RC_ASSERT(reduced.rounds() == bigger.rounds());
  RC_ASSERT(check_dance_schedule(reduced).holds());
}

RC_GTEST_PROP(allgather_simulation, completes_for_every_generator, ()) {
  const dance_algorithm a = *algorithm();
  const rank n = *people(std::min<rank>(max_people(a), 150));
  const dance_schedule s = generate(a, n);
  const allgather_report r = simulate_allgather(to_partner_matrix(s));
  RC_ASSERT(r.outcome == verdict::holds);
  RC_ASSERT(r.all_blocks_everywhere);
  RC_ASSERT(r.messages == static_cast<std::uint64_t>(n) * (n - 1));
  RC_ASSERT(r.steps <= 2 * s.rounds());
}

// ---- the reusable properties, on dancecard's own generators ----

RC_GTEST_PROP(reusable_properties, factorization_is_valid_and_optimal, ()) {
  properties::dance_generator_is_valid(factorization_schedule, {.max_people = 500, .max_gap = 0});
}

RC_GTEST_PROP(reusable_properties, divide_and_conquer_is_valid_within_its_gap, ()) {
  // Theorem 1: t(D_n) - T(n) = floor(log2(n-1)) + 2 - beta(n) - b(n) (+1 for odd n) stays below 2 log2 n.
  properties::dance_generator_is_valid(divide_and_conquer_schedule, {.max_people = 500, .max_gap = 20});
}

RC_GTEST_PROP(reusable_properties, every_generator_completes_allgather, ()) {
  const dance_algorithm a = *algorithm();
  properties::dance_generator_completes_allgather([a](rank n) { return generate(a, n); },
                                                  {.max_people = 100, .max_gap = std::nullopt});
}

// A user's scheduler with a bug that only shows for odd n >= 7: the reusable property must catch it and RapidCheck
// must shrink the counterexample to the smallest such n.
TEST(reusable_properties, a_broken_generator_fails_at_its_smallest_failing_n) {
  auto broken = [](rank n) {
    dance_schedule s = factorization_schedule(n);
    if (n < 7 || n % 2 == 0) return s;
    dance_schedule damaged(n);  // the last round is dropped
    for (std::size_t r = 0; r + 1 < s.rounds(); ++r) {
      damaged.begin_round();
      for (couple d : s.round(r)) damaged.add_dance(d.first, d.second);
    }
    return damaged;
  };
  const rc::detail::TestResult result = rc::detail::checkTestable(
      [&] { properties::dance_generator_is_valid(broken, {.max_people = 200, .max_gap = std::nullopt}); });
  rc::detail::FailureResult failure;
  ASSERT_TRUE(result.match(failure)) << "the broken generator passed";
  const bool smallest = failure.description.find("smallest failing n = 7:") != std::string::npos ||
                        failure.description.find("smallest failing n = 7 (") != std::string::npos;
  EXPECT_TRUE(smallest) << failure.description;
  EXPECT_NE(failure.description.find("pair_never_meets"), std::string::npos) << failure.description;
}

// ---- two ways of running the same check must agree ----

RC_GTEST_PROP(consistency, matrix_and_pair_forms_get_the_same_verdict, ()) {
  const dance_algorithm a = *algorithm();
  const rank n = *people(std::min<rank>(max_people(a), 200));
  dance_schedule s = generate(a, n);
  const bool damage = *rc::gen::arbitrary<bool>() && s.dance_count() > 0;
  if (damage) {  // drop the last dance: still a symmetric matrix, but a pair never meets
    const std::size_t last = s.dance_count() - 1;
    dance_schedule cut(n);
    for (std::size_t r = 0; r < s.rounds(); ++r) {
      cut.begin_round();
      for (std::size_t k = s.round_offsets()[r]; k < s.round_offsets()[r + 1]; ++k)
        if (k != last) cut.add_dance(s.all_dances()[k].first, s.all_dances()[k].second);
    }
    s = cut;
  }
  const dance_report by_pairs = check_dance_schedule(s);
  const dance_report by_matrix = check_partner_matrix(to_partner_matrix(s));
  RC_ASSERT(by_pairs.outcome == by_matrix.outcome);
  RC_ASSERT(by_pairs.violation_count == by_matrix.violation_count);
  RC_ASSERT(by_pairs.holds() == !damage);
}

RC_GTEST_PROP(consistency, simulating_the_schedule_or_its_matrix_gives_the_same_run, ()) {
  const dance_algorithm a = *algorithm();
  const rank n = *people(std::min<rank>(max_people(a), 120));
  const dance_schedule s = generate(a, n);
  const allgather_report direct = simulate_allgather(s);
  const allgather_report via_matrix = simulate_allgather(to_partner_matrix(s));
  RC_ASSERT(direct.outcome == via_matrix.outcome);
  RC_ASSERT(direct.steps == via_matrix.steps);
  RC_ASSERT(direct.messages == via_matrix.messages);
}

RC_GTEST_PROP(consistency, matrix_round_trip_keeps_every_valid_schedule, ()) {
  const dance_algorithm a = *algorithm();
  const rank n = *people(std::min<rank>(max_people(a), 300));
  const dance_schedule s = generate(a, n);
  const dance_schedule back = from_partner_matrix(to_partner_matrix(s));
  RC_ASSERT(back.rounds() == s.rounds());
  RC_ASSERT(back.dance_count() == s.dance_count());
  RC_ASSERT(to_partner_matrix(back) == to_partner_matrix(s));
}

// ---- mutations: a valid schedule, damaged in one place, must be rejected with a witness at the damage ----

struct editable {
  rank n;
  std::vector<std::vector<couple>> rounds;
  dance_schedule build() const {
    dance_schedule s(n);
    for (const auto& round : rounds) {
      s.begin_round();
      for (couple d : round) s.add_dance(d.first, d.second);
    }
    return s;
  }
};

editable valid_schedule(rank min_people) {
  const dance_algorithm a = *algorithm();
  const rank n = *rc::gen::inRange<rank>(min_people, std::min<rank>(max_people(a), 120) + 1);
  const dance_schedule s = generate(a, n);
  editable e{n, {}};
  for (std::size_t r = 0; r < s.rounds(); ++r) e.rounds.emplace_back(s.round(r).begin(), s.round(r).end());
  return e;
}

bool same_pair(const dance_violation& v, rank a, rank b) { return (v.a == std::min(a, b) && v.b == std::max(a, b)); }

dance_report check_all_witnesses(const dance_schedule& s) {
  dance_requirements req;
  req.max_witnesses = 1000;
  return check_dance_schedule(s, req);
}

// A random (round, dance index) of a non-empty round.
std::pair<std::size_t, std::size_t> some_dance(const editable& e, std::size_t min_dances = 1) {
  std::vector<std::size_t> candidates;
  for (std::size_t r = 0; r < e.rounds.size(); ++r)
    if (e.rounds[r].size() >= min_dances) candidates.push_back(r);
  RC_PRE(!candidates.empty());
  const std::size_t r = *rc::gen::elementOf(candidates);
  const std::size_t k = *rc::gen::inRange<std::size_t>(0, e.rounds[r].size());
  return {r, k};
}

RC_GTEST_PROP(mutations, dropping_a_dance_is_caught_naming_the_pair, ()) {
  editable e = valid_schedule(2);
  auto [r, k] = some_dance(e);
  const couple dropped = e.rounds[r][k];
  e.rounds[r].erase(e.rounds[r].begin() + static_cast<std::ptrdiff_t>(k));
  const dance_report report = check_all_witnesses(e.build());
  RC_ASSERT(report.outcome == verdict::violated);
  RC_ASSERT(report.violation_count == 1u);
  RC_ASSERT(report.witnesses[0].kind == dance_violation_kind::pair_never_meets);
  RC_ASSERT(same_pair(report.witnesses[0], dropped.first, dropped.second));
}

RC_GTEST_PROP(mutations, duplicating_a_dance_is_caught_naming_pair_and_both_rounds, ()) {
  editable e = valid_schedule(2);
  auto [r, k] = some_dance(e);
  const couple copy = e.rounds[r][k];
  e.rounds.push_back({copy});  // a new last round, so nobody is double booked
  const dance_report report = check_all_witnesses(e.build());
  RC_ASSERT(report.violation_count == 1u);
  const dance_violation& w = report.witnesses[0];
  RC_ASSERT(w.kind == dance_violation_kind::pair_meets_twice);
  RC_ASSERT(same_pair(w, copy.first, copy.second));
  RC_ASSERT(w.other_round == r);
  RC_ASSERT(w.round == e.rounds.size() - 1);
}

RC_GTEST_PROP(mutations, swapping_two_partners_is_caught_naming_the_damaged_pairs, ()) {
  editable e = valid_schedule(4);
  auto [r, k] = some_dance(e, 2);
  std::size_t other = *rc::gen::inRange<std::size_t>(0, e.rounds[r].size());
  RC_PRE(other != k);
  couple& x = e.rounds[r][k];
  couple& y = e.rounds[r][other];
  const couple old_x = x, old_y = y;
  std::swap(x.second, y.second);  // (a, b), (c, d) -> (a, d), (c, b)
  const dance_report report = check_all_witnesses(e.build());
  RC_ASSERT(report.outcome == verdict::violated);
  RC_ASSERT(report.count(dance_violation_kind::pair_never_meets) == 2u);
  RC_ASSERT(report.count(dance_violation_kind::pair_meets_twice) == 2u);
  bool names_old = false, names_new = false;
  for (const auto& w : report.witnesses) {
    if (w.kind == dance_violation_kind::pair_never_meets)
      names_old |= same_pair(w, old_x.first, old_x.second) || same_pair(w, old_y.first, old_y.second);
    if (w.kind == dance_violation_kind::pair_meets_twice)
      names_new |=
          (same_pair(w, x.first, x.second) || same_pair(w, y.first, y.second)) && (w.round == r || w.other_round == r);
  }
  RC_ASSERT(names_old);
  RC_ASSERT(names_new);
}

RC_GTEST_PROP(mutations, moving_a_dance_into_a_busy_round_is_caught_naming_person_and_round, ()) {
  editable e = valid_schedule(3);
  auto [r, k] = some_dance(e);
  const couple moved = e.rounds[r][k];
  // Rounds (other than r) in which one of the two dancers is already busy.
  std::vector<std::size_t> busy;
  for (std::size_t t = 0; t < e.rounds.size(); ++t) {
    if (t == r) continue;
    for (couple d : e.rounds[t])
      if (d.first == moved.first || d.second == moved.first || d.first == moved.second || d.second == moved.second) {
        busy.push_back(t);
        break;
      }
  }
  RC_PRE(!busy.empty());
  const std::size_t target = *rc::gen::elementOf(busy);
  e.rounds[r].erase(e.rounds[r].begin() + static_cast<std::ptrdiff_t>(k));
  e.rounds[target].push_back(moved);
  const dance_report report = check_all_witnesses(e.build());
  RC_ASSERT(report.outcome == verdict::violated);
  bool names_it = false;
  for (const auto& w : report.witnesses)
    names_it |= w.kind == dance_violation_kind::person_booked_twice && w.round == target &&
                (w.a == moved.first || w.a == moved.second);
  RC_ASSERT(names_it);
}

RC_GTEST_PROP(mutations, a_damaged_schedule_never_completes_all_gather_silently, ()) {
  editable e = valid_schedule(2);
  auto [r, k] = some_dance(e);
  e.rounds[r].erase(e.rounds[r].begin() + static_cast<std::ptrdiff_t>(k));
  const allgather_report sim = simulate_allgather(e.build());
  RC_ASSERT(sim.outcome == verdict::violated);
  RC_ASSERT(sim.missing_block.has_value());
}

// ---- the checker against a plain account: every count and every witness, on schedules damaged in several places ----

// Constraints (i)–(iii) counted with ordered maps, dance by dance, with no bit square: the witnesses the checker names
// with room for all of them — each round's self-dances and double bookings in dance order, then every repeated pair
// (with the round it first met in), then every pair never met, (0, 1), (0, 2), …
std::vector<dance_violation> plain_account(const dance_schedule& s) {
  std::vector<dance_violation> bookings, repeats, never;
  std::map<std::pair<rank, rank>, std::size_t> first_round;
  for (std::size_t r = 0; r < s.rounds(); ++r) {
    std::map<rank, rank> partner;
    for (const couple d : s.round(r)) {
      if (d.first == d.second) {
        bookings.push_back({dance_violation_kind::self_dance, d.first, d.first, 0, r, 0});
        continue;
      }
      for (auto [p, q] : {std::pair{d.first, d.second}, std::pair{d.second, d.first}}) {
        if (auto it = partner.find(p); it != partner.end())
          bookings.push_back({dance_violation_kind::person_booked_twice, p, it->second, q, r, 0});
        partner[p] = q;
      }
      const std::pair key{std::min(d.first, d.second), std::max(d.first, d.second)};
      if (auto [it, fresh] = first_round.emplace(key, r); !fresh)
        repeats.push_back({dance_violation_kind::pair_meets_twice, key.first, key.second, 0, r, it->second});
    }
  }
  for (rank a = 0; a < s.people(); ++a)
    for (rank b = a + 1; b < s.people(); ++b)
      if (!first_round.contains({a, b})) never.push_back({dance_violation_kind::pair_never_meets, a, b, 0, 0, 0});
  bookings.insert(bookings.end(), repeats.begin(), repeats.end());
  bookings.insert(bookings.end(), never.begin(), never.end());
  return bookings;
}

// A valid schedule of up to 200 people (so up to four strips of 64 rows in the checker's square), its dances named as
// generated or reversed, then up to six edits: a person of a dance replaced by any rank (a self-dance, a double
// booking, a repeat, a pair lost), a dance dropped, or a dance added to a round.
RC_GTEST_PROP(dance_checker, agrees_with_a_plain_account_on_damaged_schedules, ()) {
  const dance_algorithm a = *algorithm();
  const rank n = *people(std::min<rank>(max_people(a), 200));
  const dance_schedule valid = generate(a, n);
  std::vector<std::vector<couple>> rounds;
  for (std::size_t r = 0; r < valid.rounds(); ++r) rounds.emplace_back(valid.round(r).begin(), valid.round(r).end());
  const auto edits = *rc::gen::inRange(0, 7);
  for (int e = 0; e < edits && !rounds.empty(); ++e) {
    auto& round = rounds[*rc::gen::inRange<std::size_t>(0, rounds.size())];
    const rank x = *rc::gen::inRange<rank>(0, n), y = *rc::gen::inRange<rank>(0, n);
    switch (round.empty() ? 2 : *rc::gen::inRange(0, 3)) {
      case 0: {
        couple& d = round[*rc::gen::inRange<std::size_t>(0, round.size())];
        (*rc::gen::arbitrary<bool>() ? d.first : d.second) = x;
        break;
      }
      case 1:
        round.erase(round.begin() + *rc::gen::inRange<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(round.size())));
        break;
      default:
        round.push_back({x, y});
    }
  }
  // the generators name the smaller rank first; the checker folds dances named the other way from the lower triangle
  const int order = *rc::gen::inRange(0, 3);  // 0: as generated, 1: every dance reversed, 2: every other dance
  RC_TAG(order == 0 ? "as generated" : order == 1 ? "reversed" : "every other reversed");
  dance_schedule s(n);
  std::size_t k = 0;
  for (const auto& round : rounds) {
    s.begin_round();
    for (const couple d : round)
      if (order == 1 || (order == 2 && k++ % 2 == 1))
        s.add_dance(d.second, d.first);
      else
        s.add_dance(d.first, d.second);
  }
  const std::vector<dance_violation> expected = plain_account(s);
  dance_requirements req;
  req.max_witnesses = expected.size() + 1;
  const dance_report r = check_dance_schedule(s, req);
  RC_ASSERT(r.holds() == expected.empty());
  RC_ASSERT(r.violation_count == expected.size());
  std::array<std::uint64_t, dance_violation_kind_count> counts{};
  for (const dance_violation& v : expected) ++counts[static_cast<std::size_t>(v.kind)];
  RC_ASSERT(r.count_by_kind == counts);
  RC_ASSERT(r.witnesses.size() == expected.size());
  const auto fields = [](const dance_violation& v) {
    return std::tuple(v.kind, v.a, v.b, v.c, v.round, v.other_round);
  };
  for (std::size_t i = 0; i < expected.size(); ++i) RC_ASSERT(fields(r.witnesses[i]) == fields(expected[i]));
  RC_TAG(expected.empty() ? "valid" : "violated");
}

}  // namespace
}  // namespace dancecard
