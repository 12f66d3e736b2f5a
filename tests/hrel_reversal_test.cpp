// Time reversal of h-relation schedules: the reversal symmetries that the search finds are those that exist (brute
// force on small instances), a checked schedule run backwards and renamed is accepted again, and prove hrel's first
// witness of three triangles at 1/5 is one that the reversal keeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/core/hrel/families.hpp"
#include "dancecard/core/hrel/reversal.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "dancecard/smt/hrel_encoding.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::hrel;
namespace {

using message_set = std::set<std::tuple<rank, rank, std::uint64_t>>;

message_set messages_of(const hrel_instance& instance) {
  message_set out;
  for (const hrel_message& m : instance.messages()) out.emplace(m.src, m.dst, m.packets);
  return out;
}

// Whether π is an involution that maps the instance, every message turned round, onto itself: the definition, apart
// from the search.
bool is_reversal_symmetry(const hrel_instance& instance, const std::vector<rank>& pi) {
  if (pi.size() != instance.pes()) return false;
  for (rank x = 0; x < pi.size(); ++x)
    if (pi[x] >= pi.size() || pi[pi[x]] != x) return false;
  message_set turned;
  for (const hrel_message& m : instance.messages()) turned.emplace(pi[m.dst], pi[m.src], m.packets);
  return turned == messages_of(instance);
}

// Every involution of 0 … n − 1, by brute force over all permutations.
bool some_reversal_symmetry(const hrel_instance& instance) {
  std::vector<rank> pi(instance.pes());
  std::iota(pi.begin(), pi.end(), 0);
  do {
    if (is_reversal_symmetry(instance, pi)) return true;
  } while (std::next_permutation(pi.begin(), pi.end()));
  return false;
}

// A random instance on n PEs; with `symmetric`, closed under a random involution σ (every message's turned image
// added with its packets), so that σ is a reversal symmetry.
hrel_instance random_instance(rank n, bool symmetric, std::mt19937& rng) {
  std::vector<rank> sigma(n);
  std::iota(sigma.begin(), sigma.end(), 0);
  std::shuffle(sigma.begin(), sigma.end(), rng);
  std::vector<rank> pi(n);
  std::iota(pi.begin(), pi.end(), 0);
  for (rank i = 0; i + 1 < n; i += 2)
    if (rng() % 3 != 0) pi[sigma[i]] = sigma[i + 1], pi[sigma[i + 1]] = sigma[i];
  std::map<std::pair<rank, rank>, std::uint64_t> packets;
  const unsigned count = 1 + static_cast<unsigned>(rng() % (n + 2));
  for (unsigned i = 0; i < count; ++i) {
    const rank a = static_cast<rank>(rng() % n), b = static_cast<rank>(rng() % n);
    if (a == b) continue;
    const std::uint64_t w = 1 + rng() % 2;
    packets[{a, b}] = w;
    if (symmetric && pi[b] != pi[a]) packets[{pi[b], pi[a]}] = w;
  }
  std::vector<hrel_message> messages;
  for (const auto& [pair, w] : packets) messages.push_back({pair.first, pair.second, w});
  return hrel_instance(n, std::move(messages));
}

// A schedule's slots as sets of transfers: the order within a slot means nothing.
std::vector<std::multiset<std::tuple<rank, rank, std::size_t, rational>>> as_sets(const hrel_schedule& s) {
  std::vector<std::multiset<std::tuple<rank, rank, std::size_t, rational>>> out;
  for (const hrel_slot& slot : s.slots) {
    out.emplace_back();
    for (const hrel_transfer& x : slot.transfers) out.back().emplace(x.from, x.to, x.message, x.amount);
  }
  return out;
}

TEST(hrel_reversal, the_search_finds_a_symmetry_exactly_where_brute_force_does) {
  std::mt19937 rng(7);
  int found = 0, none = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const rank n = 2 + static_cast<rank>(rng() % 5);  // up to 6 PEs: 720 permutations
    const hrel_instance instance = random_instance(n, trial % 2 == 0, rng);
    const auto pi = reversal_symmetry(instance);
    EXPECT_EQ(pi.has_value(), some_reversal_symmetry(instance)) << "trial " << trial;
    if (pi) {
      EXPECT_TRUE(is_reversal_symmetry(instance, *pi)) << "trial " << trial;
    }
    (pi ? found : none)++;
  }
  EXPECT_GT(found, 50);  // both answers are exercised
  EXPECT_GT(none, 50);
}

TEST(hrel_reversal, directed_triangles_and_paths) {
  // Each directed triangle is reflected: 0 ↔ 0, 1 ↔ 2, and so on in every triangle.
  const auto pi = reversal_symmetry(triangles(3, 2));
  ASSERT_TRUE(pi.has_value());
  EXPECT_EQ(*pi, (std::vector<rank>{0, 2, 1, 3, 5, 4, 6, 8, 7}));
  // A path of equal messages turns round onto itself (0 ↔ 2); with unequal ones nothing maps 0 → 1 onto a message
  // into PE 0 … and none exists.
  EXPECT_EQ(reversal_symmetry(hrel_instance(3, {{0, 1, 1}, {1, 2, 1}})), (std::vector<rank>{2, 1, 0}));
  EXPECT_FALSE(reversal_symmetry(hrel_instance(3, {{0, 1, 1}, {1, 2, 2}})).has_value());
  EXPECT_THROW(reversed_messages(hrel_instance(3, {{0, 1, 1}, {1, 2, 2}}), {2, 1, 0}), std::invalid_argument);
}

TEST(hrel_reversal, checked_schedules_run_backwards_are_accepted_again) {
  std::mt19937 rng(11);
  int reversed = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const hrel_instance instance = random_instance(2 + static_cast<rank>(rng() % 9), true, rng);
    const auto pi = reversal_symmetry(instance);
    ASSERT_TRUE(pi.has_value()) << "trial " << trial;
    for (const hrel_schedule& schedule : {direct_schedule(instance), forwarding_schedule(instance)}) {
      ASSERT_TRUE(check_hrel_schedule(instance, schedule, duplex::half).holds());
      const hrel_schedule back = reversed_schedule(instance, schedule, *pi);
      const hrel_report report = check_hrel_schedule(instance, back, duplex::half);
      EXPECT_TRUE(report.holds()) << "trial " << trial << ": " << describe(report);
      EXPECT_EQ(back.makespan(), schedule.makespan());
      EXPECT_EQ(reversed_schedule(instance, back, *pi), schedule);  // π is an involution
      ++reversed;
    }
  }
  EXPECT_EQ(reversed, 400);
  // Run backwards without the renaming, a schedule of two triangles delivers the triangles turned round, not these.
  const hrel_instance two = triangles(2, 2);
  const hrel_schedule direct = direct_schedule(two);
  std::vector<rank> identity(two.pes());
  std::iota(identity.begin(), identity.end(), 0);
  hrel_schedule plain = direct;
  std::reverse(plain.slots.begin(), plain.slots.end());
  for (hrel_slot& slot : plain.slots)
    for (hrel_transfer& x : slot.transfers) std::swap(x.from, x.to);
  EXPECT_FALSE(check_hrel_schedule(two, plain, duplex::half).holds());
}

TEST(hrel_reversal, the_first_witness_of_three_triangles_in_fifths_is_one_the_reversal_keeps) {
  // 13 slots of 1/5 (12 are refuted by the counting certificate). The reversal-invariant CNF answers in seconds; the
  // test sets no time limit, so a busy machine only makes it slower.
  const hrel_instance nine = triangles(3, 2);
  hrel_proof_options options;
  options.granularity = 5;
  options.forwarding = true;
  const hrel_existence_result r = solve_hrel_clausal(nine, 13, options);
  ASSERT_EQ(r.answer, solver_answer::sat) << r.reason;
  ASSERT_TRUE(r.witness.has_value());
  EXPECT_TRUE(check_hrel_schedule(nine, *r.witness, duplex::half).holds());
  const auto pi = reversal_symmetry(nine);
  ASSERT_TRUE(pi.has_value());
  EXPECT_EQ(as_sets(reversed_schedule(nine, *r.witness, *pi)), as_sets(*r.witness));
}

}  // namespace
}  // namespace dancecard
