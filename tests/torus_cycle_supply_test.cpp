// The supply of the PUs off the cycles: greedy, matched and packet-matched plans, and their counting bound.
// step counts, checked by the cycle checks, the supply (locality) check and the gossip simulator.
#include <gtest/gtest.h>

#include <optional>

#include <algorithm>
#include <limits>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/cycles.hpp"

namespace dancecard {

using namespace dancecard::torus;
namespace {

// Exhaustive over one-switch plans, scored by stepping through them (supply_completion), independent of the arc
// arithmetic and the candidate switch steps best_supply uses.
std::uint64_t brute_one_switch(std::uint64_t m, std::uint64_t gap, bool allow_switch) {
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t last = allow_switch ? m + 1 : 0;
  for (int fa : {-1, 1})
    for (int fb : {-1, 1})
      for (std::uint64_t sa = 0; sa <= last; sa = sa == 0 ? 3 : sa + 1)
        for (std::uint64_t sb = 0; sb <= last; sb = sb == 0 ? 3 : sb + 1) {
          supply_plan plan{fa, fb, {}, {}, 0};
          if (sa) plan.switches_a = {sa};
          if (sb) plan.switches_b = {sb};
          plan.steps = supply_completion(m, gap, plan);
          // both directions must run before completion: opposite directions, or a switch at a step 3 … completion
          const bool both = fa != fb || (sa >= 3 && sa <= plan.steps) || (sb >= 3 && sb <= plan.steps);
          if (both) best = std::min(best, plan.steps);
        }
  return best;
}

// The fewest steps any direction sequences of the two suppliers reach (both directions delivered), by enumeration.
std::uint64_t brute_scheduled(std::uint64_t m, std::uint64_t gap) {
  for (std::uint64_t horizon = (m + 1) / 2; horizon <= m; ++horizon) {
    const std::uint64_t free_steps =
        horizon - 1;  // steps 2 … horizon choose a direction; step 1 is the supplier itself
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << (2 * free_steps)); ++bits) {
      // completes exactly at `horizon` (not before), with both directions run in steps 2 … horizon
      std::vector<char> got(m, 0);
      got[0] = got[gap % m] = 1;
      auto complete = [&] { return std::all_of(got.begin(), got.end(), [](char g) { return g != 0; }); };
      bool plus = false, minus = false, early = complete() && free_steps > 0;
      for (std::uint64_t k = 1; k <= free_steps && !early; ++k) {
        const bool a_plus = bits >> (k - 1) & 1, b_plus = bits >> (free_steps + k - 1) & 1;
        got[a_plus ? k % m : (m - k % m) % m] = 1;
        got[b_plus ? (gap + k) % m : (gap + m - k % m) % m] = 1;
        plus = plus || a_plus || b_plus;
        minus = minus || !a_plus || !b_plus;
        early = k < free_steps && complete();
      }
      if (!early && complete() && (free_steps == 0 || (plus && minus))) return horizon;
    }
  }
  return std::numeric_limits<std::uint64_t>::max();
}

// Theorem 7's bound (1 + d/n_d) · P/(2d) + 2, from the sizes alone (not from the cycles' lengths), rounded up.
std::uint64_t theorem_7_steps(const torus::network& t) {
  const std::uint64_t d = t.dimension(), P = t.size(), nd = t.dims().back();
  return ((nd + d) * P + 2 * d * nd - 1) / (2 * d * nd) + 2;
}
TEST(torus_supply, plans_are_optimal_and_deliver_what_they_claim) {
  for (std::uint64_t m = 2; m <= 26; ++m)
    for (std::uint64_t gap = 0; gap < m; ++gap) {
      const supply_plan fixed = best_supply(m, gap, supply_policy::time_independent);
      const supply_plan once = best_supply(m, gap, supply_policy::one_switch);
      const supply_plan any = best_supply(m, gap, supply_policy::scheduled);
      EXPECT_TRUE(fixed.switches_a.empty() && fixed.switches_b.empty());
      EXPECT_LE(once.switches_a.size() + once.switches_b.size(), 2u);
      for (const supply_plan* plan : {&fixed, &once, &any}) {
        EXPECT_EQ(supply_completion(m, gap, *plan), plan->steps) << "m " << m << " gap " << gap;
        EXPECT_TRUE(delivers_both_directions(*plan)) << "m " << m << " gap " << gap;
      }
      EXPECT_EQ(fixed.steps, brute_one_switch(m, gap, false)) << "m " << m << " gap " << gap;
      EXPECT_EQ(once.steps, brute_one_switch(m, gap, true)) << "m " << m << " gap " << gap;
      EXPECT_LE(any.steps, once.steps) << "m " << m << " gap " << gap;
      EXPECT_GE(2 * any.steps, m);  // two streams deliver at most one packet each per step
    }
  // Adjacent suppliers need no switching (Figure 3, left); far ones do (Figure 3, middle and right).
  EXPECT_EQ(best_supply(12, 1, supply_policy::time_independent).steps, 6u);
  EXPECT_GT(best_supply(30, 10, supply_policy::one_switch).steps, best_supply(30, 10, supply_policy::scheduled).steps);
  EXPECT_EQ(best_supply(30, 10, supply_policy::scheduled).steps, 16u);
}

TEST(torus_supply, scheduled_plans_are_the_fewest_steps_any_switching_reaches) {
  for (std::uint64_t m = 2; m <= 12; ++m)
    for (std::uint64_t gap = 0; gap < m; ++gap)
      EXPECT_EQ(best_supply(m, gap, supply_policy::scheduled).steps, brute_scheduled(m, gap))
          << "m " << m << " gap " << gap;
}

TEST(torus_supply, one_switch_candidates_suffice_on_longer_cycles) {
  for (std::uint64_t m : {40u, 61u})
    for (std::uint64_t gap = 0; gap < m; gap += m == 40 ? 1 : 7)
      EXPECT_EQ(best_supply(m, gap, supply_policy::one_switch).steps, brute_one_switch(m, gap, true))
          << "m " << m << " gap " << gap;
}

TEST(torus_matched_supply, meets_theorem_7_on_the_zigzag_cycles) {
  // The greedy supply needed 101, 144, 192 and 192 steps on the last four (docs/torus.md); SAT found 73, 97, 121, 129.
  for (const char* dims : {"4x4x4x4", "4x2x4x5", "4x2x4x6", "4x4x4x5", "4x4x4x8", "4x6x4x6", "4x4x4x12"}) {
    const torus::network t = torus::network::parse(dims);
    const cycle_system system = zigzag_cycles(t);
    std::pair<std::uint64_t, std::uint64_t> estimate;
    const std::optional<routing_table> table = matched_cycle_routing(system, &estimate);
    ASSERT_TRUE(table.has_value()) << dims;
    const gossip_report run = simulate_gossip(*table);
    ASSERT_TRUE(run.holds()) << dims << ": " << describe(run);
    EXPECT_LE(run.steps, theorem_7_steps(t)) << dims;
    EXPECT_LE(run.steps, estimate.second) << dims;  // the estimate is the latest matched slot: an upper bound
    EXPECT_EQ(estimate.first, 0u) << dims;          // every pair gets both directions
    const supply_report supply = check_supply(*table, system);
    EXPECT_TRUE(supply.holds()) << dims << ": " << describe(supply);
    EXPECT_LE(supply.max_delay, 2u) << dims;
    // cycle_routing's scheduled policy takes it (or something at least as good)
    EXPECT_LE(simulate_gossip(cycle_routing(system, supply_policy::scheduled)).steps, run.steps) << dims;
  }
  // Exact: with the bottleneck (direct pairs within ⌊m/2⌋ where they can, so relays within ⌊m/2⌋ + 1), one below
  // the bound: ⌊m/2⌋ + 1 = 97 on 4 × 4 × 4 × 8 (m = 192) — what SAT's supply finds, one step less unsat in its class
  // (where a relay forwards one fixed in-link); 72 = ⌊m/2⌋ on 4 × 4 × 4 × 5 (m = 144), below SAT's 73: the relays
  // here switch between their two sources, outside SAT's class, and some packets arrive sooner by other cycles.
  EXPECT_EQ(simulate_gossip(*matched_cycle_routing(zigzag_cycles(torus::network::parse("4x4x4x8")))).steps, 97u);
  EXPECT_EQ(simulate_gossip(*matched_cycle_routing(zigzag_cycles(torus::network::parse("4x4x4x5")))).steps, 72u);
}

TEST(torus_matched_supply, within_half_a_cycle_plus_two_in_2d_and_3d) {
  for (const char* dims : {"6x8", "12x16", "4x10", "6x6x4", "3x6x5", "3x3x4", "6x12x5"}) {
    const cycle_system system = zigzag_cycles(torus::network::parse(dims));
    std::uint64_t longest = 0;
    for (const torus_cycle& cy : system.cycles) longest = std::max<std::uint64_t>(longest, cy.length());
    const std::optional<routing_table> table = matched_cycle_routing(system);
    ASSERT_TRUE(table.has_value()) << dims;
    const gossip_report run = simulate_gossip(*table);
    ASSERT_TRUE(run.holds()) << dims << ": " << describe(run);
    EXPECT_LE(run.steps, longest / 2 + 2) << dims;
  }
}

TEST(torus_matched_supply, relays_of_relays_where_no_relay_of_a_direct_pair_is_free) {
  // 5 × 3 × 2 × 5 × 5: every PU lies on two of the five cycles and has 6 free links for the other three; PU 0 has one
  // neighbour on cycle 2, and no free neighbour whose own pair of cycle 2 is direct. So some pairs are served by
  // relays of relayed pairs (level 3, delay 3), still within Theorem 7's bound.
  const torus::network t = torus::network::parse("5x3x2x5x5");
  const cycle_system system = zigzag_cycles(t);
  std::pair<std::uint64_t, std::uint64_t> estimate;
  const std::optional<routing_table> table = matched_cycle_routing(system, &estimate);
  ASSERT_TRUE(table.has_value());
  const gossip_report run = simulate_gossip(*table);
  ASSERT_TRUE(run.holds()) << describe(run);
  EXPECT_EQ(run.steps, 150u);
  EXPECT_LE(run.steps, theorem_7_steps(t));
  const supply_report supply = check_supply(*table, system);
  EXPECT_TRUE(supply.holds()) << describe(supply);
  EXPECT_EQ(supply.max_delay, 3u);
}

TEST(torus_matched_supply, a_pu_waiting_for_its_relays_levels_is_allocated_in_a_later_pass) {
  // 5 × 8 × 2 × 5 × 6: PU 635 comes before the relays its pairs need get levels in the first pass; the allocation
  // once gave up there (the RapidCheck property found it in CI). It now leaves the PU for the next pass.
  const torus::network t = torus::network::parse("5x8x2x5x6");
  const cycle_system system = zigzag_cycles(t);
  std::pair<std::uint64_t, std::uint64_t> estimate;
  const std::optional<routing_table> table = matched_cycle_routing(system, &estimate);
  ASSERT_TRUE(table.has_value());
  const gossip_report run = simulate_gossip(*table);
  ASSERT_TRUE(run.holds()) << describe(run);
  EXPECT_LE(run.steps, estimate.second);
  const supply_report supply = check_supply(*table, system);
  EXPECT_TRUE(supply.holds()) << describe(supply);
  EXPECT_LE(run.steps, system.cycles.front().length() / 2 + std::max<std::uint64_t>(2, supply.max_delay));
  EXPECT_EQ(supply.max_delay, 3u);  // some pairs by relays of relayed pairs, as on 5 × 3 × 2 × 5 × 5
  EXPECT_EQ(run.steps, 442u);
  EXPECT_LE(run.steps, theorem_7_steps(t));  // 442 = (1 + 5/6) · 2400/10 + 2: at the bound
}

TEST(torus_matched_supply, declines_closed_trails_and_refuses_shared_links) {
  // The paper's 4 × 5 × 2 × n4: its zigzags pass PUs twice, outside the argument.
  EXPECT_FALSE(matched_cycle_routing(zigzag_cycles(torus::network::parse("4x5x2x4"))).has_value());
  EXPECT_THROW(matched_cycle_routing(zigzag_trails(torus::network::parse("8x4x8x4"))), std::invalid_argument);
  // Hamiltonian cycles: every PU is on every cycle, nothing to supply; the table is the cycles' own.
  const cycle_system both = hamiltonian_2d_cycles(torus::network::parse("6x8"));
  const std::optional<routing_table> table = matched_cycle_routing(both);
  ASSERT_TRUE(table.has_value());
  EXPECT_TRUE(table->switches.empty());
  EXPECT_EQ(simulate_gossip(*table).steps, 24u);  // ⌊48/2⌋: half a cycle
}

TEST(torus_packet_supply, closed_trails_gossip_at_the_circulation) {
  // The printed lap rule's closed trails, where the matched supply declines and the greedy supply was far off
  // Theorem 7's bound (4 × 5 × 4 × 5: 176 against 92). The packet-matched plan completes at ⌊m/2⌋ — the cycles' own
  // circulation — on these; on 4 × 3 × 3 × 5, 40 steps, where the SAT supply's class had no supply within 43.
  struct expected {
    const char* dims;
    std::uint64_t steps, bound;
  };
  for (const expected& e : {expected{"4x5x4x5", 90, 92}, expected{"4x3x3x5", 40, 43}, expected{"4x5x2x4", 40, 42},
                            expected{"4x3x2x4", 24, 26}}) {
    const torus::network t = torus::network::parse(e.dims);
    const cycle_system system = zigzag_cycles(t);
    ASSERT_GT(check_cycle_system(system, 2, 1, true).revisits, 0u) << e.dims;  // closed trails
    EXPECT_FALSE(matched_cycle_routing(system).has_value()) << e.dims;
    EXPECT_EQ(theorem_7_steps(t), e.bound) << e.dims;
    std::pair<std::uint64_t, std::uint64_t> estimate;
    const std::optional<routing_table> table = least_packet_matched_routing(system, &estimate);
    ASSERT_TRUE(table.has_value()) << e.dims;
    const gossip_report run = simulate_gossip(*table);
    ASSERT_TRUE(run.holds()) << e.dims << ": " << describe(run);
    EXPECT_LE(run.steps, estimate.second) << e.dims;
    EXPECT_EQ(estimate.second, e.steps) << e.dims;
    EXPECT_LE(run.steps, e.steps) << e.dims;
    EXPECT_EQ(estimate.first, 0u) << e.dims;  // every pair gets both directions (the second pass)
    const supply_report supply = check_supply(*table, system);
    EXPECT_TRUE(supply.holds()) << e.dims << ": " << describe(supply);
    // cycle_routing's scheduled policy takes it where the matched supply declines
    EXPECT_LE(simulate_gossip(cycle_routing(system, supply_policy::scheduled)).steps, run.steps) << e.dims;
  }
}

TEST(torus_packet_supply, a_target_too_soon_is_short_and_a_shared_link_refused) {
  const cycle_system system = zigzag_cycles(torus::network::parse("4x5x4x5"));
  const packet_supply_result r = packet_matched_routing(system, 60);  // below the circulation 90: far packets by supply
  EXPECT_FALSE(r.table.has_value());
  EXPECT_GT(r.short_pus, 0u);
  EXPECT_NE(r.reason.find("short of some packet within 60 steps"), std::string::npos) << r.reason;
  const packet_supply_result ok = packet_matched_routing(system, 92);  // Theorem 7's bound: a table, checked
  ASSERT_TRUE(ok.table.has_value()) << ok.reason;
  EXPECT_LE(simulate_gossip(*ok.table).steps, 92u);
  EXPECT_THROW(packet_matched_routing(zigzag_trails(torus::network::parse("8x4x8x4")), 300), std::invalid_argument);
  const packet_supply_result big = packet_matched_routing(zigzag_cycles(torus::network::parse("8x8x8x16")), 1300);
  EXPECT_FALSE(big.table.has_value());
  EXPECT_NE(big.reason.find("work limit"), std::string::npos) << big.reason;
  // one 4-cycle in a 4 × 4 torus: the other PUs lie on no cycle, outside the model (refused, not short)
  const torus::network small({4, 4});
  torus_cycle square;
  square.pus = {small.index({0, 0}), small.index({0, 1}), small.index({1, 1}), small.index({1, 0})};
  square.ports = {2, 0, 3, 1};  // +x2, +x1, −x2, −x1
  const packet_supply_result lonely = packet_matched_routing(cycle_system{small, {square}, "test"}, 10);
  EXPECT_FALSE(lonely.table.has_value());
  EXPECT_EQ(lonely.short_pus, 0u);
  EXPECT_NE(lonely.reason.find("lies on no cycle"), std::string::npos) << lonely.reason;
  EXPECT_FALSE(least_packet_matched_routing(cycle_system{small, {square}, "test"}).has_value());
}

TEST(torus_supply_counting, free_links_bound_every_supply) {
  // 4 × 3 × 2 × 14: PU 3 lies on one trail, which passes it twice, and keeps 4 free links for the 230 packets of the
  // PUs on none of its cycles: no supply gossips in fewer than ⌈230/4⌉ = 58 steps, above Theorem 7's bound 56.
  const torus::network t = torus::network::parse("4x3x2x14");
  const supply_counting_bound trails = count_supply_bound(zigzag_cycles(t));
  ASSERT_TRUE(trails.valid);
  EXPECT_FALSE(trails.unreachable);
  EXPECT_EQ(trails.steps, 58u);
  EXPECT_EQ(trails.need, 230u);
  EXPECT_EQ(trails.free_links, 4u);
  EXPECT_EQ(theorem_7_steps(t), 56u);
  // Hamiltonian cycles: every PU on every cycle, nothing needed
  EXPECT_EQ(count_supply_bound(hamiltonian_2d_cycles(torus::network::parse("6x8"))).steps, 0u);
  // the bound never exceeds what a supply achieves (4 × 5 × 4 × 5: 90 by the packet-matched supply)
  const cycle_system trails_4545 = zigzag_cycles(torus::network::parse("4x5x4x5"));
  EXPECT_LE(count_supply_bound(trails_4545).steps, simulate_gossip(*least_packet_matched_routing(trails_4545)).steps);
  // a PU with needs and no free link: unreachable; a cycle off the torus's links: not valid
  const torus::network small({3, 3});
  torus_cycle row, column;
  row.pus = {small.index({0, 0}), small.index({0, 1}), small.index({0, 2})};
  row.ports = {2, 2, 2};  // +x2 around row 0
  column.pus = {small.index({0, 0}), small.index({1, 0}), small.index({2, 0})};
  column.ports = {0, 0, 0};  // +x1 around column 0
  cycle_system two{small, {row, column}, "test"};
  const supply_counting_bound cross = count_supply_bound(two);
  EXPECT_TRUE(cross.unreachable);  // PU (0, 0) uses all 4 links and needs the 4 PUs off row 0 and column 0
  EXPECT_EQ(cross.pu, small.index({0, 0}));
  EXPECT_EQ(cross.need, 4u);
  two.cycles[0].ports[1] = 0;  // +x1 from (0, 1) does not lead to (0, 2)
  EXPECT_FALSE(count_supply_bound(two).valid);
}

}  // namespace
}  // namespace dancecard
