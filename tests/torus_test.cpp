// Tori, routing tables, the Section 3.1 construction (Theorem 2) and the checks that catch corrupted tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/torus.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

TEST(torus, coordinates_neighbors_and_parsing) {
  const torus::network t = torus::network::parse("6x8");
  EXPECT_EQ(t.size(), 48u);
  EXPECT_EQ(t.name(), "6x8");
  EXPECT_EQ(t.index({2, 3}), 19u);
  EXPECT_EQ(t.neighbor(t.index({0, 0}), 1), t.index({5, 0}));  // T wraps around
  EXPECT_EQ(t.neighbor(t.index({0, 7}), 2), t.index({0, 0}));  // R wraps around
  for (pu_index pu = 0; pu < t.size(); ++pu)
    for (std::uint32_t p = 0; p < t.ports(); ++p)
      EXPECT_EQ(t.neighbor(t.neighbor(pu, p), torus::network::opposite(p)), pu);
  EXPECT_THROW(torus::network::parse("6x"), std::invalid_argument);
  EXPECT_THROW(torus::network::parse("6x1"), std::invalid_argument);
  EXPECT_THROW(torus::network::parse("axb"), std::invalid_argument);
  try {  // an overlong size is named, not taken for a syntax error (nor cut to 32 bits)
    (void)torus::network::parse("4x99999999999");
    ADD_FAILURE() << "an 11-digit size was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("size 2 ('99999999999') has more than 7 digits"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(torus::network::parse("4x4x4").size(), 64u);
}

// The counting bound and the parity bound of one-packet gossip without held packets. The expected parity bounds of
// the tori whose sides are all even are recomputed here from distances (a packet at distance δ comes in steps
// δ, δ + 2, … only), not from core's walks.
TEST(torus_bounds, counting_and_parity_bounds) {
  EXPECT_EQ(counting_bound(torus::network({6, 6})), 9u);
  EXPECT_EQ(parity_bound(torus::network({6, 6})),
            10u);  // 17 packets at even distance, 4 slots in each of the steps 2, 4, 6, 8
  EXPECT_EQ(counting_bound(torus::network({2, 2, 6})), 4u);
  EXPECT_EQ(parity_bound(torus::network({2, 2, 6})),
            5u);  // 8 packets at odd distance > 1, 6 slots in step 3 (and the diameter is 5)
  for (const char* same : {"3x3", "3x4", "4x4", "4x5", "4x6", "5x5", "4x8", "3x12", "2x3x5", "3x3x3"}) {
    const torus::network t = torus::network::parse(same);
    EXPECT_EQ(parity_bound(t), counting_bound(t)) << same;
  }
  // 2 x 2 x 2: the antipode is 3 hops away (the diameter), where the counting bound says 2; its minimum is 3 (DRAT).
  EXPECT_EQ(counting_bound(torus::network({2, 2, 2})), 2u);
  EXPECT_EQ(parity_bound(torus::network({2, 2, 2})), 3u);
  // A one-step torus: 2 x 2's diagonal PU is no neighbour, so one step never completes (counting says 1).
  EXPECT_EQ(counting_bound(torus::network({2, 2})), 1u);
  EXPECT_EQ(parity_bound(torus::network({2, 2})), 2u);
  for (std::uint32_t a = 4; a <= 14; a += 2)
    for (std::uint32_t b = a; b <= 14; b += 2) {
      const torus::network t({a, b});
      std::uint64_t even = 0, odd = 0, diameter = 0;  // packets other than PU 0's and its 4 neighbours'
      for (pu_index u = 1; u < t.size(); ++u) {
        const auto c = t.coordinates(u);
        const std::uint64_t delta = std::min(c[0], a - c[0]) + std::min(c[1], b - c[1]);
        diameter = std::max(diameter, delta);
        if (delta > 1) ++(delta % 2 == 0 ? even : odd);
      }
      std::uint64_t expected = counting_bound(t);
      while (expected < diameter || 4 * (expected / 2) < even || 4 * ((expected - 1) / 2) < odd) ++expected;
      EXPECT_EQ(parity_bound(t), expected) << t.name();
      // above the counting bound (by one) exactly when P = 4 mod 8: 6 x 6, 6 x 10, 10 x 10, 6 x 14, 10 x 14, 14 x 14
      EXPECT_EQ(expected - counting_bound(t), t.size() % 8 == 4 ? 1u : 0u) << t.name();
    }
  const parity_count at_9 = arrival_parity_count(torus::network({6, 6}), 7, 9);
  EXPECT_EQ(at_9.fresh, 31u);
  EXPECT_EQ(at_9.forced, (std::array<std::uint64_t, 2>{17, 14}));
  EXPECT_EQ(at_9.slots, (std::array<std::uint64_t, 2>{16, 16}));
  EXPECT_FALSE(at_9.allows());
  EXPECT_TRUE(arrival_parity_count(torus::network({6, 6}), 7, 10).allows());
  EXPECT_EQ(arrival_parity_count(torus::network({6, 6}), 0, 3).unreached,
            31u - 8u - 10u);  // 8 PUs at distance 2, 10 at distance 3
  EXPECT_THROW(arrival_parity_count(torus::network({6, 6}), 36, 3), std::invalid_argument);
  EXPECT_THROW(parity_bound(torus::network({64, 65})), std::invalid_argument);
}

TEST(torus_3_1, two_edge_disjoint_hamiltonian_cycles_and_theorem_2) {
  for (std::uint32_t rows = 2; rows <= 12; rows += 2)
    for (std::uint32_t cols = 2; cols <= 12; cols += 2) {
      const torus::network t({rows, cols});
      const routing_table table = hamiltonian_2d(t);
      const torus_cycle_report cycles = forwarding_cycles(table);
      ASSERT_TRUE(cycles.holds()) << t.name() << ": " << describe(cycles);
      EXPECT_TRUE(cycles.all_hamiltonian) << t.name();
      EXPECT_EQ(cycles.undirected_cycles, 2u) << t.name();  // each walked both ways: 4 directed cycles
      EXPECT_EQ(cycles.cycles.size(), 4u) << t.name();
      const gossip_report run = simulate_gossip(table);
      ASSERT_TRUE(run.holds()) << t.name() << ": " << describe(run);
      EXPECT_EQ(run.steps, rows * cols / 2) << t.name();  // Theorem 2: n1·n2/2 steps with 2 packets per PU
    }
}

TEST(torus_3_1, conditions_are_named) {
  try {
    hamiltonian_2d(torus::network({5, 8}));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("n1 and n2 even"), std::string::npos) << e.what();
  }
  EXPECT_THROW(hamiltonian_2d(torus::network({4, 4, 4})), std::invalid_argument);
}

TEST(torus_checks, a_rewired_port_is_caught) {
  const torus::network t({6, 8});
  routing_table table = hamiltonian_2d(t);
  // PU 9 forwards its T in-port on a second out-port as well: a shared in-port, and the gossip changes.
  const pu_index pu = 9;
  std::uint32_t from_top = no_port, other = no_port;
  for (std::uint32_t o = 0; o < 4; ++o) {
    if (table.forward_at(pu, o) == 1) from_top = o;
  }
  for (std::uint32_t o = 0; o < 4; ++o)
    if (o != from_top) other = o;
  table.forward_at(pu, other) = 1;
  const torus_cycle_report cycles = forwarding_cycles(table);
  EXPECT_FALSE(cycles.holds());
  EXPECT_GE(cycles.count_by_kind[static_cast<std::size_t>(torus_violation_kind::shared_in_port)], 1u)
      << describe(cycles);
  // PU 0 forwards and injects nothing: its packets never leave, and the streams through it stop there.
  routing_table cut = hamiltonian_2d(t);
  for (std::uint32_t o = 0; o < 4; ++o) cut.forward_at(0, o) = no_port, cut.inject_at(0, o) = no_packet;
  const gossip_report run = simulate_gossip(cut, 200);
  EXPECT_FALSE(run.holds());
  EXPECT_GE(run.count_by_kind[static_cast<std::size_t>(torus_violation_kind::never_reached)], 1u) << describe(run);
  const torus_cycle_report open = forwarding_cycles(cut);
  EXPECT_FALSE(open.holds());
}

}  // namespace
}  // namespace dancecard
