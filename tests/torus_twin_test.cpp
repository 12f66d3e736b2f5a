// Two packets per PU on the partial cycles (core: twin_cycle_routing) and the delayed switches it needs
// (port_switch::delay) in the simulator and the routing-table format. Exact values: Theorems 3 and 4's ⌈n1·n2/2⌉.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/formats/torus_io.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

// A ring of 5 PUs (1-D torus): PU 0 sends its packet forward in step 1; PU 1 passes on what arrives from PU 0.
routing_table relay_ring() {
  const torus::network ring({5});
  routing_table t{ring, 1, std::vector<std::uint32_t>(10, no_port), std::vector<std::uint32_t>(10, no_packet), {}};
  t.inject_at(0, 0) = 0;
  t.forward_at(1, 0) = 1;  // out +x forwards in-port −x (from PU 0)
  t.forward_at(2, 0) = 1;
  return t;
}

std::uint32_t first_arrival(const routing_table& t, pu_index pu, std::uint32_t packet) {
  gossip_options o;
  o.record_arrivals = true;
  o.stepwise = true;
  o.max_steps = 8;
  const gossip_report run = simulate_gossip(t, o);
  return run.first_arrival[pu * t.network.size() * t.packets + packet];
}

TEST(TorusDelayedSwitch, HoldsAPacketForTheStepsItSays) {
  routing_table t = relay_ring();
  EXPECT_EQ(first_arrival(t, 2, 0), 2u);  // forwarded at once
  EXPECT_EQ(first_arrival(t, 3, 0), 3u);
  // PU 1 sends nothing in step 2 and from step 3 on what arrived from PU 0 two steps before: the packet of step 1
  // leaves in step 3.
  t.forward_at(1, 0) = no_port;
  t.switches.push_back({1, 0, 3, 1, 2});
  EXPECT_EQ(first_arrival(t, 2, 0), 3u);
  EXPECT_EQ(first_arrival(t, 3, 0), 4u);
  t.switches.back().delay = 3;
  t.switches.back().step = 4;  // and two steps longer: it leaves in step 4
  EXPECT_EQ(first_arrival(t, 2, 0), 4u);
}

TEST(TorusDelayedSwitch, ImpossibleDelaysAreBadSwitches) {
  for (const port_switch& w :
       {port_switch{1, 0, 2, 1, 2}, port_switch{1, 0, 9, 1, 0}, port_switch{1, 0, 9, 1, max_switch_delay + 1}}) {
    routing_table t = relay_ring();
    t.switches.push_back(w);
    const gossip_report run = simulate_gossip(t);
    EXPECT_FALSE(run.holds());
    ASSERT_FALSE(run.witnesses.empty());
    EXPECT_EQ(run.witnesses[0].kind, torus_violation_kind::bad_switch) << w.step << " " << w.delay;
  }
}

TEST(TorusDelayedSwitch, FormatKeepsTheDelayAndNamesBadOnes) {
  routing_table t = relay_ring();
  t.switches.push_back({1, 0, 3, 1, 2});
  t.switches.push_back({2, 0, 4, 1});
  std::ostringstream out;
  write_torus_routing(out, t, "test");
  EXPECT_NE(out.str().find("[1, 0, 3, 1, 2]"), std::string::npos);
  EXPECT_NE(out.str().find("[2, 0, 4, 1]"), std::string::npos);  // delay 1 is written as before
  const routing_table back = read_torus_routing(out.str());
  EXPECT_EQ(back.switches, t.switches);
  auto error_of = [&](const std::string& from, const std::string& to) {
    std::string text = out.str();
    text.replace(text.find(from), from.size(), to);
    try {
      read_torus_routing(text);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error_of("[1, 0, 3, 1, 2]", "[1, 0, 3, 1, 9]").find("switches[0][4]: delay 9 is more than 8 steps"),
            std::string::npos);
  EXPECT_NE(error_of("[1, 0, 3, 1, 2]", "[1, 0, 2, 1, 2]").find("switches[0][2]"), std::string::npos);
  EXPECT_NE(error_of("[1, 0, 3, 1, 2]", "[1, 0, 3, 1, 2, 7]").find("switches[0]"), std::string::npos);
}

// The packet-matched supply with senders that hold packets (max_delay): on the closed trails of 4 × 5 × 2 × 9 it falls
// short of Theorem 7's bound 67 when every sender forwards what arrived the step before, and meets it when they may
// hold a packet; on 4 × 3 × 2 × 13 it then meets the bound 53, which is also the counting bound (no supply over free
// links does better).
TEST(TorusDelayedSwitch, HeldPacketsMeetTheorem7OnClosedTrails) {
  for (const auto& [dims, bound] : {std::pair{std::vector<std::uint32_t>{4, 5, 2, 9}, std::uint64_t{67}},
                                    std::pair{std::vector<std::uint32_t>{4, 3, 2, 13}, std::uint64_t{53}}}) {
    const torus::network t(dims);
    const cycle_system system = zigzag_cycles(t);
    ASSERT_EQ(theorem_7_switching_bound(t), bound);
    EXPECT_FALSE(packet_matched_routing(system, bound).table) << t.name();
    const packet_supply_result held = packet_matched_routing(system, bound, max_switch_delay);
    ASSERT_TRUE(held.table) << t.name() << ": " << held.reason;
    const gossip_report run = simulate_gossip(*held.table);
    ASSERT_TRUE(run.holds()) << t.name();
    EXPECT_LE(run.steps, bound) << t.name();
    EXPECT_GE(run.steps, count_supply_bound(system).steps) << t.name();
    EXPECT_TRUE(std::any_of(held.table->switches.begin(), held.table->switches.end(),
                            [](const port_switch& w) { return w.delay > 1; }));
  }
  EXPECT_EQ(count_supply_bound(zigzag_cycles(torus::network({4, 3, 2, 13}))).steps, 53u);
}

struct twin_case {
  std::vector<std::uint32_t> dims;
  std::uint64_t steps, hosts;
};

TEST(TorusTwins, TheoremsThreeAndFourOnThePartialCycles) {
  // 6 × 7 is Figure 2's torus: its column n2 − 2 has 6 PUs, each off one cycle; 7 × 7 is Figure 4's.
  for (const twin_case& c : {twin_case{{6, 7}, 21, 6}, twin_case{{4, 5}, 10, 4}, twin_case{{10, 13}, 65, 10},
                             twin_case{{7, 7}, 25, 9}, twin_case{{5, 5}, 13, 7}, twin_case{{9, 11}, 50, 11}}) {
    const torus::network t(c.dims);
    const cycle_system system = partial_2d_cycles(t);
    const twin_routing_result twin = twin_cycle_routing(system);
    EXPECT_EQ(twin.steps, c.steps) << t.name();
    EXPECT_EQ(twin.hosts, c.hosts) << t.name();
    EXPECT_EQ(twin.table.packets, 2u);
    const gossip_report run = simulate_gossip(twin.table);
    ASSERT_TRUE(run.holds()) << t.name() << ": " << describe(run);
    EXPECT_EQ(run.steps, c.steps) << t.name();
    EXPECT_TRUE(check_supply(twin.table, system).holds()) << t.name();
  }
}

TEST(TorusTwins, HamiltonianCyclesNeedNoHost) {
  const cycle_system system = hamiltonian_2d_cycles(torus::network({6, 8}));
  const twin_routing_result twin = twin_cycle_routing(system);
  EXPECT_EQ(twin.hosts, 0u);
  EXPECT_EQ(twin.steps, 24u);  // Theorem 2: n1·n2/2
  const gossip_report run = simulate_gossip(twin.table);
  ASSERT_TRUE(run.holds());
  EXPECT_EQ(run.steps, 24u);
}

TEST(TorusTwins, OnSectionFourZigzagCyclesWithAPacketPerCycle) {
  // Not what Section 4 asks (one packet per PU), but the hand-over is not specific to Section 3.2: with one packet
  // per cycle the zigzag cycles reach the counting bound ⌈k(P − 1)/2d⌉ — Section 3.4's P/2 without Hamiltonian cycles.
  for (const twin_case& c : {twin_case{{6, 8}, 24, 36}, twin_case{{3, 3, 4}, 18, 45}}) {
    const cycle_system system = zigzag_cycles(torus::network(c.dims));
    const twin_routing_result twin = twin_cycle_routing(system);
    EXPECT_EQ(twin.steps, c.steps);
    EXPECT_EQ(twin.hosts, c.hosts);
    const gossip_report run = simulate_gossip(twin.table);
    ASSERT_TRUE(run.holds());
    EXPECT_EQ(run.steps, c.steps);
  }
}

// A cycle system of one cycle, row 0 of an R × C torus: PUs 0 … C − 1 along +x2 (port 2).
cycle_system first_row(std::uint32_t rows, std::uint32_t cols) {
  torus_cycle row;
  for (pu_index pu = 0; pu < cols; ++pu) row.pus.push_back(pu), row.ports.push_back(2);
  return cycle_system{torus::network({rows, cols}), {row}, "row"};
}

TEST(TorusTwins, HandOverTwoLinksAway) {
  // Row 2 of 4 × 4 is two links from row 0: its PUs hand their packets to a PU of row 1 or 3 in step 1, which relays
  // them to row 0 in step 2; hosts of row 0 then take up to four packets each.
  for (const auto& [rows, steps, relayed] : {std::tuple{4u, 8u, 4u}, std::tuple{5u, 10u, 8u}}) {
    const cycle_system system = first_row(rows, 4);
    const twin_routing_result twin = twin_cycle_routing(system);
    EXPECT_EQ(twin.steps, steps) << rows;
    EXPECT_EQ(twin.relayed, relayed) << rows;
    EXPECT_EQ(twin.hosts, 4u * (rows - 1)) << rows;
    const gossip_report run = simulate_gossip(twin.table);
    ASSERT_TRUE(run.holds()) << rows << ": " << describe(run);
    EXPECT_EQ(run.steps, steps) << rows;
  }
}

TEST(TorusTwins, OnFourDimensionalZigzagCycles) {
  // 4 × 2 × 4 × 5 with a packet per cycle: some PUs are two links from a cycle and hand over through a neighbour; the
  // plan completes in 100 steps — well above the counting bound 80, where Section 3.4's Hamiltonian cycles give P/2.
  const cycle_system system = zigzag_cycles(torus::network({4, 2, 4, 5}));
  const twin_routing_result twin = twin_cycle_routing(system);
  EXPECT_EQ(twin.table.packets, 4u);
  EXPECT_GT(twin.relayed, 0u);
  EXPECT_EQ(twin.steps, 100u);
  const gossip_report run = simulate_gossip(twin.table);
  ASSERT_TRUE(run.holds()) << describe(run);
  EXPECT_EQ(run.steps, 100u);
}

TEST(TorusTwins, RefusalsNameTheProblem) {
  auto message = [](const cycle_system& s) {
    try {
      twin_cycle_routing(s);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // Row 3 of 6 × 6 is three links from row 0.
  EXPECT_NE(message(first_row(6, 6)).find("PU 18 is off cycle 0 and no PU on it is within two free links"),
            std::string::npos);
  const cycle_system row = first_row(4, 4);
  EXPECT_NE(message(cycle_system{row.network, {row.cycles[0], row.cycles[0]}, "rows"}).find("share the link"),
            std::string::npos);
  EXPECT_NE(message(cycle_system{row.network, {}, "none"}).find("no cycle"), std::string::npos);
}

}  // namespace
}  // namespace dancecard
