// The catalogue of torus tables (formats/torus_catalogue.hpp) against the simulator and against docs/torus-limits.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/formats/torus_catalogue.hpp"

namespace dancecard {
namespace {

// Every catalogued table is what its name says: the torus of its sizes, one packet per PU sent on every port in step
// 1, a rule of its model at every PU (pairing: each in-port leaves by exactly one partner port, both ways), and gossip
// complete in exactly its steps in the simulator.
TEST(torus_catalogue, every_table_is_its_model_and_completes_in_its_steps) {
  const std::vector<torus_catalogue_entry> all = torus_catalogue();
  ASSERT_FALSE(all.empty());
  for (const torus_catalogue_entry& e : all) {
    const auto found = catalogued_torus_table(torus(e.dims), e.model);
    ASSERT_TRUE(found.has_value()) << e.file;
    const routing_table& table = found->second;
    EXPECT_EQ(table.network.dims(), e.dims) << e.file;
    EXPECT_EQ(table.packets, 1u) << e.file;
    EXPECT_TRUE(table.switches.empty()) << e.file;
    const std::uint32_t ports = table.network.ports();
    EXPECT_TRUE(std::all_of(table.inject.begin(), table.inject.end(), [](std::uint32_t q) { return q == 0; })) << e.file;
    for (pu_index pu = 0; pu < table.network.size(); ++pu)
      for (std::uint32_t o = 0; o < ports; ++o) {
        const std::uint32_t in = table.forward_at(pu, o);
        if (e.model == "pairing") {
          ASSERT_LT(in, ports) << e.file << " PU " << pu;
          EXPECT_NE(in, o) << e.file << " PU " << pu;
          EXPECT_EQ(table.forward_at(pu, in), o) << e.file << " PU " << pu << ": not a pairing";
        } else {
          EXPECT_TRUE(in < ports || in == no_port) << e.file;
        }
      }
    const gossip_report run = simulate_gossip(table);
    ASSERT_TRUE(run.holds()) << e.file << ": " << describe(run);
    EXPECT_EQ(run.steps, e.steps) << e.file;
  }
}

// The catalogue's best table for each cell of docs/torus-limits.md has exactly the cell's upper bound (the minimum
// where it is proven): these are that table's numbers, so a campaign that improves a cell changes both.
TEST(torus_catalogue, best_tables_meet_the_upper_bounds_of_docs) {
  // torus → {pairing, general}
  const std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> cells{
      {"3x3", {3, 2}},    {"3x4", {4, 4}},     {"3x5", {5, 5}},     {"4x4", {6, 5}},     {"3x6", {6, 6}},     {"4x5", {7, 6}},
      {"3x7", {7, 6}},    {"3x8", {8, 7}},     {"4x6", {8, 7}},     {"5x5", {8, 7}},     {"3x9", {9, 8}},     {"4x7", {9, 8}},
      {"3x10", {10, 9}},  {"5x6", {10, 9}},    {"4x8", {10, 9}},    {"3x11", {11, 10}},  {"5x7", {11, 11}},   {"3x12", {12, 10}},
      {"4x9", {12, 10}},  {"6x6", {12, 11}},   {"2x2x2", {3, 3}},   {"2x2x3", {3, 3}},   {"2x2x4", {5, 4}},   {"2x3x3", {4, 4}},
      {"2x2x5", {6, 4}},  {"2x3x4", {6, 5}},   {"2x2x6", {8, 5}},   {"3x3x3", {6, 5}},   {"2x2x7", {9, 6}},   {"2x3x5", {7, 6}},
      {"2x4x4", {9, 7}},  {"2x2x8", {10, 7}},  {"3x3x4", {10, 8}},  {"2x2x9", {12, 7}},  {"2x3x6", {9, 7}}};
  for (const auto& [dims, bounds] : cells) {
    const torus t = torus::parse(dims);
    const auto pairing = catalogued_torus_table(t, "pairing");
    const auto general = catalogued_torus_table(t, "general");
    ASSERT_TRUE(pairing.has_value()) << dims << " pairing";
    ASSERT_TRUE(general.has_value()) << dims << " general";
    EXPECT_EQ(pairing->first.steps, bounds.first) << dims << " pairing";
    EXPECT_EQ(general->first.steps, bounds.second) << dims << " general";
  }
  // and nothing else is catalogued
  for (const torus_catalogue_entry& e : torus_catalogue()) EXPECT_EQ(cells.count(torus(e.dims).name()), 1u) << e.file;
}

// Sizes in any order: the table of the ascending sizes with its axes relabelled completes in the same steps, and a
// pairing stays a pairing. The general model takes a pairing table where it is as fast (3 x 4: both 4).
TEST(torus_catalogue, sizes_in_any_order) {
  for (const std::vector<std::uint32_t>& dims : std::vector<std::vector<std::uint32_t>>{{5, 3}, {6, 5}, {4, 2, 3}, {3, 4, 2}, {4, 3, 3}, {9, 2, 2}}) {
    for (const char* model : {"pairing", "general"}) {
      const torus t(dims);
      const auto found = catalogued_torus_table(t, model);
      ASSERT_TRUE(found.has_value()) << t.name();
      EXPECT_EQ(found->second.network.dims(), dims);
      const gossip_report run = simulate_gossip(found->second);
      ASSERT_TRUE(run.holds()) << t.name() << " " << model << ": " << describe(run);
      EXPECT_EQ(run.steps, found->first.steps) << t.name() << " " << model;
      if (std::string(model) == "pairing") {
        EXPECT_TRUE(forwarding_cycles(found->second, false).holds()) << t.name();
      }
    }
  }
  const auto general = catalogued_torus_table(torus({4, 3}), "general");
  ASSERT_TRUE(general.has_value());
  EXPECT_EQ(general->first.model, "pairing");
  EXPECT_FALSE(catalogued_torus_table(torus({7, 7}), "pairing").has_value());
  EXPECT_FALSE(catalogued_torus_table(torus({3, 3, 3, 3}), "general").has_value());
  EXPECT_THROW(catalogued_torus_table(torus({3, 3}), "greedy"), std::invalid_argument);
}

}  // namespace
}  // namespace dancecard
