// The forwarding schedules of Sections 2.2–2.4, Lemma 1, the Section 2.5 bound, the weighted (Section 3)
// decomposition and the Section 4.1 regular schedule — every schedule through the half-duplex checker.
#include <gtest/gtest.h>

#include <random>

#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/checkers/hrel_structure_check.hpp"
#include "dancecard/core/hrel/bounds.hpp"
#include "dancecard/core/hrel/families.hpp"
#include "dancecard/core/hrel/schedules.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::hrel;
namespace {

rational integer(std::uint64_t v) { return rational(static_cast<std::int64_t>(v)); }
std::uint64_t half_up(std::uint64_t h) { return (h + 1) / 2; }

TEST(hrel_forwarding, two_triangles_take_twelve_fifths_in_twelve_rounds) {
  // Figure 1: two directed 3-cycles of unit packets.
  const hrel_instance two(6, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {3, 4, 1}, {4, 5, 1}, {5, 3, 1}});
  forwarding_report how;
  const hrel_schedule s = forwarding_schedule(two, decomposition::automatic, &how);
  const hrel_report r = check_hrel_schedule(two, s, duplex::half);
  ASSERT_TRUE(r.holds()) << describe(r);
  EXPECT_EQ(r.makespan, rational(12, 5));
  EXPECT_EQ(s.slots.size(), 12u);
  for (const hrel_slot& slot : s.slots) EXPECT_EQ(slot.duration, rational(1, 5));
  EXPECT_EQ(how.helped_by_cycle, 2u);
  // Forwarding really happens: some transfer goes between the two triangles.
  bool across = false;
  for (const hrel_slot& slot : s.slots)
    for (const hrel_transfer& t : slot.transfers) across = across || (t.from < 3) != (t.to < 3);
  EXPECT_TRUE(across);
  // ...and the direct schedule needs 3.
  EXPECT_EQ(check_hrel_schedule(two, direct_schedule(two), duplex::half).makespan, rational(3));
}

TEST(hrel_forwarding, a_lone_triangle_is_helped_by_an_idle_pe_or_a_path_end) {
  const hrel_instance idle(4, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}});
  const hrel_instance path(5, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {3, 4, 1}});
  for (const hrel_instance& instance : {idle, path}) {
    forwarding_report how;
    const hrel_report r =
        check_hrel_schedule(instance, forwarding_schedule(instance, decomposition::automatic, &how), duplex::half);
    ASSERT_TRUE(r.holds()) << describe(r);
    EXPECT_EQ(r.makespan, rational(12, 5));
    EXPECT_EQ(how.helped_by_single, 1u);
    EXPECT_EQ(how.removed_packets, 0u);
  }
}

TEST(hrel_forwarding, odd_pe_count_without_helpers_uses_the_matching) {
  // One triangle and nothing else (P = 3): no helper, one packet goes to M; 2 for the path, 1 for M.
  const hrel_instance triangle(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}});
  forwarding_report how;
  const hrel_report r =
      check_hrel_schedule(triangle, forwarding_schedule(triangle, decomposition::automatic, &how), duplex::half);
  ASSERT_TRUE(r.holds()) << describe(r);
  EXPECT_EQ(how.removed_packets, 1u);
  EXPECT_EQ(how.matching_sizes, std::vector<std::uint64_t>{1});
  EXPECT_EQ(r.makespan, rational(3));
}

// Theorem 1's upper bounds, Lemma 1, and what this implementation guarantees: 12/5 ⌈h/2⌉ for even P; for odd P
// plus one unit per M slot, where every M slot but the last holds at least ⌈P/4⌉ packets.
void expect_forwarding_bounds(const hrel_instance& instance, decomposition method, const std::string& tag) {
  forwarding_report how;
  const hrel_report r = check_hrel_schedule(instance, forwarding_schedule(instance, method, &how), duplex::half);
  ASSERT_TRUE(r.holds()) << tag << ": " << describe(r);
  const std::uint64_t P = instance.pes(), h = instance.h_half_duplex();
  EXPECT_LE(how.two_relations, half_up(h)) << tag;
  if (P % 2 == 0) {
    EXPECT_EQ(how.removed_packets, 0u) << tag;
    EXPECT_LE(r.makespan, theorem1_upper_bound(instance.pes(), h)) << tag;
    EXPECT_LE(r.makespan, rational(12, 5) * integer(half_up(h))) << tag;
    return;
  }
  if (method == decomposition::unit_colouring) {
    const std::uint64_t quarter = (P + 3) / 4;
    for (std::size_t i = 0; i + 1 < how.matching_sizes.size(); ++i)
      EXPECT_GE(how.matching_sizes[i], quarter) << tag << ": a forced M slot with fewer than ceil(P/4) packets";
    EXPECT_EQ(how.matching_time, integer(how.matching_sizes.size())) << tag;
    EXPECT_LE(r.makespan, theorem1_upper_bound(instance.pes(), h) + rational(1)) << tag;
  }
  EXPECT_LE(r.makespan, rational(12, 5) * integer(how.two_relations) + how.matching_time) << tag;
}

TEST(hrel_forwarding, random_and_skewed_instances_within_theorem1) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed)
    for (rank P : {2u, 3u, 4u, 5u, 9u, 16u, 33u})
      for (std::uint64_t h : {1u, 2u, 5u, 12u, 41u}) {
        const std::string tag =
            "P = " + std::to_string(P) + ", h = " + std::to_string(h) + ", seed " + std::to_string(seed);
        for (decomposition method : {decomposition::unit_colouring, decomposition::matching_peeling}) {
          expect_forwarding_bounds(random_relation(P, h, seed), method, "random " + tag);
          expect_forwarding_bounds(skewed_relation(P, h, seed), method, "skewed " + tag);
        }
      }
}

TEST(hrel_forwarding, the_printed_odd_bound_misses_the_last_partial_matching) {
  // Finding: Theorem 1's (6/5 + 2/P)(h + 1) for odd P counts ⌈h/2⌉/⌈P/4⌉ units for emptying M, but the last M
  // is emptied even when it is not full. For odd h, 12/5 ⌈h/2⌉ is exactly 6/5 (h + 1), so one final M slot breaks
  // the printed bound whenever 2(h + 1)/P < 1. Such instances are rare among random ones (7 in 10,800 when this
  // was written); which ones depends on the colouring, so the test searches instead of pinning one instance.
  // (Not a claim that no schedule meets the printed bound — only that this algorithm, as printed, does not.)
  std::uint64_t found = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed)
    for (rank P : {21u, 33u}) {
      const hrel_instance instance = random_relation(P, 5, seed);
      forwarding_report how;
      const hrel_report r = check_hrel_schedule(
          instance, forwarding_schedule(instance, decomposition::unit_colouring, &how), duplex::half);
      ASSERT_TRUE(r.holds()) << describe(r);
      const rational printed = theorem1_upper_bound(P, instance.h_half_duplex());
      if (r.makespan <= printed) continue;
      ++found;
      EXPECT_EQ(instance.h_half_duplex() % 2, 1u);
      EXPECT_EQ(how.matching_sizes.size(), 1u);  // one M slot, not forced: the final one
      EXPECT_LE(r.makespan, rational(12, 5) * integer(how.two_relations) + rational(1));
      EXPECT_LE(r.makespan, printed + rational(1));
    }
  EXPECT_GE(found, 1u) << "no instance above the printed bound any more: update the finding in the docs";
}

TEST(hrel_forwarding, the_triangle_family_meets_the_section_2_5_bound_for_even_k) {
  for (rank k = 1; k <= 8; ++k)
    for (std::uint64_t h = 2; h <= 10; h += 2) {
      const rational lower = triangles_lower_bound(k, h);
      EXPECT_EQ(lower, paper_triangles_bound(k, h)) << "k = " << k << ", h = " << h;
      const hrel_instance instance = triangles(k, h);
      const hrel_report r = check_hrel_schedule(instance, forwarding_schedule(instance), duplex::half);
      ASSERT_TRUE(r.holds()) << describe(r);
      EXPECT_GE(r.makespan, lower);
      if (k % 2 == 0) {
        EXPECT_EQ(r.makespan, lower) << "k = " << k << ", h = " << h;  // optimal: 6h/5
      }
    }
  EXPECT_EQ(triangles_lower_bound(3, 2), rational(18, 7));  // odd P = 9: h / (5/6 − 1/18)
}

TEST(hrel_forwarding, long_messages_cost_what_short_ones_cost) {
  // Section 3: with weighted matchings the schedule of messages of ~10^9 packets has as many slots as that of the
  // same pattern with one packet per message, and stays within the bounds.
  const hrel_instance small = random_relation(16, 12, 3);
  std::vector<hrel_message> scaled = small.messages();
  std::mt19937_64 random(1);
  for (hrel_message& m : scaled) m.packets = m.packets * 1'000'000'000 + random() % 1000;
  const hrel_instance big(16, scaled);
  const hrel_schedule s = forwarding_schedule(big, decomposition::automatic);
  const hrel_report r = check_hrel_schedule(big, s, duplex::half);
  ASSERT_TRUE(r.holds()) << describe(r);
  EXPECT_LE(r.makespan, theorem1_upper_bound(16, big.h_half_duplex()));
  EXPECT_LT(s.slots.size(), 12 * 4 * big.messages().size());
  const hrel_report d = check_hrel_schedule(big, direct_schedule(big), duplex::half);
  ASSERT_TRUE(d.holds()) << describe(d);
  const hrel_report f = check_hrel_schedule(big, full_duplex_schedule(big), duplex::full);
  ASSERT_TRUE(f.holds()) << describe(f);
  EXPECT_EQ(f.makespan, integer(big.h_full_duplex()));
}

TEST(hrel_decomposition, weighted_matchings_cover_every_edge_and_sum_to_delta) {
  std::mt19937_64 random(11);
  for (int trial = 0; trial < 300; ++trial) {
    const std::uint32_t L = 1 + random() % 12, R = 1 + random() % 12;
    bipartite_multigraph g{L, R, {}};
    const bool huge = trial % 3 == 0;
    for (int e = static_cast<int>(random() % 40); e > 0; --e)
      g.edges.push_back({static_cast<std::uint32_t>(random() % L), static_cast<std::uint32_t>(random() % R),
                         huge ? 1 + random() % 1'000'000'000 : 1 + random() % 5});
    for (decomposition method : {decomposition::automatic, decomposition::matching_peeling}) {
      const auto classes = decompose_bipartite_edges(g, method);
      EXPECT_EQ(weighted_decomposition_problem(g, classes), "") << "trial " << trial;
      if (method == decomposition::matching_peeling) {  // independent of the multiplicities
        EXPECT_LE(classes.size(), g.edges.size() + 2 * (L + R)) << "trial " << trial;
      }
    }
  }
  // The check itself rejects a wrong weight and a non-matching.
  const bipartite_multigraph g{2, 2, {{0, 0, 2}, {1, 1, 2}, {0, 1, 1}}};
  EXPECT_NE(weighted_decomposition_problem(g, {{{0, 1}, 2}, {{2}, 2}}), "");
  EXPECT_NE(weighted_decomposition_problem(g, {{{0, 2}, 1}, {{0, 1}, 1}, {{1}, 1}}), "");
  EXPECT_EQ(weighted_decomposition_problem(g, {{{0, 1}, 2}, {{2}, 1}}), "");
}

TEST(hrel_regular, one_factorization_takes_p_minus_one_l_or_p_l) {
  for (rank P = 2; P <= 12; ++P)
    for (std::uint64_t l : {1u, 3u, 10u}) {
      const hrel_instance instance = regular_relation(P, l, 0, P * 100 + l);
      ASSERT_EQ(regular_part(instance), l);
      const hrel_report r = check_hrel_schedule(instance, regular_schedule(instance), duplex::half);
      ASSERT_TRUE(r.holds()) << "P = " << P << ": " << describe(r);
      const rational expected = integer((P % 2 == 0 ? P - 1 : P) * l);
      EXPECT_EQ(r.makespan, expected) << "P = " << P << ", l = " << l;
      EXPECT_EQ(r.makespan, counting_lower_bound(instance)) << "optimal by counting, P = " << P;
    }
}

TEST(hrel_regular, a_rest_on_top_goes_by_forwarding_and_l_zero_is_refused) {
  const hrel_instance instance = regular_relation(9, 4, 6, 5);
  const hrel_report r = check_hrel_schedule(instance, regular_schedule(instance), duplex::half);
  ASSERT_TRUE(r.holds()) << describe(r);
  EXPECT_GE(r.makespan, integer(9 * 4));
  const hrel_instance sparse(4, {{0, 1, 1}, {2, 3, 1}});
  EXPECT_EQ(regular_part(sparse), 0u);
  try {
    regular_schedule(sparse);
    FAIL() << "l = 0 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("PEs 0 and 2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dancecard
