// The catalogue of torus tables (formats/torus_catalogue.hpp) against the simulator and against docs/torus-limits.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

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
      {"2x4x4", {8, 7}},  {"2x2x8", {10, 7}},  {"3x3x4", {8, 7}},  {"2x2x9", {11, 7}},  {"2x3x6", {9, 7}},
      {"2x2x10", {13, 8}}, {"2x4x5", {10, 9}}};
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

// docs/torus-limits.md states each cell twice: in "At a glance" (a 2-D grid and a 3-D list, "N" or "L–U", bold where
// the lower end is above ⌈(P − 1)/4⌉ in 2-D or ⌈(P − 1)/6⌉ in 3-D) and in the full table ("N" or "L … U" before the
// details, with P and ⌈(P − 1)/2d⌉). The two must agree, the counting bound must hold, and every upper end must be
// the catalogue's table — so a campaign that moves a cell and forgets one of the places fails here.
struct docs_cell {
  std::uint64_t lower = 0;
  std::uint64_t upper = 0;
  bool bold = false;
  friend bool operator==(const docs_cell& a, const docs_cell& b) { return a.lower == b.lower && a.upper == b.upper; }
};

std::vector<std::string> table_cells(const std::string& row) {
  std::vector<std::string> cells;
  std::stringstream in(row);
  std::string cell;
  std::getline(in, cell, '|');  // before the first bar
  while (std::getline(in, cell, '|')) {
    const auto first = cell.find_first_not_of(' ');
    const auto last = cell.find_last_not_of(' ');
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
  }
  if (!cells.empty() && cells.back().empty()) cells.pop_back();  // after the last bar
  return cells;
}

// "**8**", "7", "**9–10**", "5–6" (the glance), or the leading "**8** (…" / "9 … 10 (…" of a full-table cell.
docs_cell parse_cell(const std::string& text, bool full_table) {
  static const std::regex glance(R"(^(\*\*)?(\d+)(?:–(\d+))?(\*\*)?$)");
  static const std::regex full(R"(^(?:\*\*(\d+)\*\*|(\d+) … (\d+))(?: \(.*)?$)");
  std::smatch m;
  docs_cell cell;
  if (!full_table) {
    if (!std::regex_match(text, m, glance) || m[1].matched != m[4].matched) throw std::runtime_error("glance cell '" + text + "'");
    cell.bold = m[1].matched;
    cell.lower = std::stoull(m[2]);
    cell.upper = m[3].matched ? std::stoull(m[3]) : cell.lower;
  } else {
    if (!std::regex_match(text, m, full)) throw std::runtime_error("full-table cell '" + text.substr(0, 40) + "'");
    cell.lower = std::stoull(m[1].matched ? m[1] : m[2]);
    cell.upper = m[1].matched ? cell.lower : std::stoull(m[3]);
  }
  return cell;
}

std::string dims_of(const std::string& text) {  // "2 × 3 × 4" → "2x3x4"
  return std::regex_replace(text, std::regex(" × "), "x");
}

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

TEST(torus_catalogue, docs_at_a_glance_agrees_with_the_full_table_and_the_catalogue) {
  std::ifstream file(DANCECARD_TORUS_LIMITS);
  ASSERT_TRUE(file) << DANCECARD_TORUS_LIMITS;
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  const auto heading = [&](const std::string& h) {
    const auto it = std::find(lines.begin(), lines.end(), h);
    EXPECT_NE(it, lines.end()) << h;
    return static_cast<std::size_t>(it - lines.begin());
  };
  const std::size_t glance_at = heading("## At a glance"), full_at = heading("## The full table");
  ASSERT_LT(glance_at, full_at);

  // torus → {pairing, general}, from each place
  std::map<std::string, std::pair<docs_cell, docs_cell>> glance, full;
  std::vector<std::string> columns;  // the 2-D grid's n2 values
  int optimum_rows = 0;
  for (std::size_t i = glance_at; i < full_at; ++i) {
    if (lines[i].rfind("| n1 \\ n2 |", 0) == 0) {
      columns = table_cells(lines[i]);
      columns.erase(columns.begin());
      continue;
    }
    const std::vector<std::string> cells = table_cells(lines[i]);
    if (cells.empty() || cells[0].empty() || cells[0] == "torus" || cells[0].find("---") != std::string::npos) continue;
    if (std::regex_match(cells[0], std::regex(R"(\d+)"))) {  // a row of the 2-D grid
      ASSERT_FALSE(columns.empty());
      ASSERT_EQ(cells.size(), columns.size() + 1) << lines[i];
      for (std::size_t c = 1; c < cells.size(); ++c) {
        if (cells[c].empty() || cells[c] == "–") continue;
        const auto slash = cells[c].find(" / ");
        ASSERT_NE(slash, std::string::npos) << cells[c];
        const std::string dims = cells[0] + "x" + columns[c - 1];
        const std::uint64_t p = std::stoull(cells[0]) * std::stoull(columns[c - 1]);
        SCOPED_TRACE(dims);
        EXPECT_LE(p, 36u);
        const docs_cell pairing = parse_cell(cells[c].substr(0, slash), false), general = parse_cell(cells[c].substr(slash + 3), false);
        EXPECT_EQ(pairing.bold, pairing.lower > ceil_div(p - 1, 4));
        EXPECT_EQ(general.bold, general.lower > ceil_div(p - 1, 4));
        EXPECT_TRUE(glance.emplace(dims, std::make_pair(pairing, general)).second);
      }
    } else if (cells[0].rfind("⌈(P − 1)/4⌉ (n1 = 3, 4, 5, 6)", 0) == 0) {  // the grid's optimum row
      ASSERT_EQ(cells.size(), columns.size() + 1) << lines[i];
      for (std::size_t c = 1; c < cells.size(); ++c) {
        const std::uint64_t n2 = std::stoull(columns[c - 1]);
        std::string expected;
        for (std::uint64_t n1 = 3; n1 <= 6 && n1 <= n2 && n1 * n2 <= 36; ++n1)
          expected += (expected.empty() ? "" : ", ") + std::to_string(ceil_div(n1 * n2 - 1, 4));
        EXPECT_EQ(cells[c], expected) << "n2 = " << n2;
      }
      ++optimum_rows;
    } else if (cells[0].find(" × ") != std::string::npos) {  // a row of the 3-D list
      ASSERT_EQ(cells.size(), 5u) << lines[i];
      const std::string dims = dims_of(cells[0]);
      const torus t = torus::parse(dims);
      SCOPED_TRACE(dims);
      EXPECT_EQ(t.dims().size(), 3u);
      EXPECT_EQ(std::stoull(cells[1]), t.size());
      EXPECT_EQ(std::stoull(cells[2]), ceil_div(t.size() - 1, 6));
      const docs_cell pairing = parse_cell(cells[3], false), general = parse_cell(cells[4], false);
      EXPECT_EQ(pairing.bold, pairing.lower > ceil_div(t.size() - 1, 6));
      EXPECT_EQ(general.bold, general.lower > ceil_div(t.size() - 1, 6));
      EXPECT_TRUE(glance.emplace(dims, std::make_pair(pairing, general)).second);
    }
  }
  for (std::size_t i = full_at; i < lines.size(); ++i) {
    if (lines[i].rfind("| ", 0) != 0) {
      if (!full.empty()) break;  // the end of the first table
      continue;
    }
    const std::vector<std::string> cells = table_cells(lines[i]);
    if (cells[0] == "torus" || cells[0].find("---") != std::string::npos) continue;
    ASSERT_EQ(cells.size(), 5u) << lines[i].substr(0, 60);
    const std::string dims = dims_of(cells[0]);
    const torus t = torus::parse(dims);
    SCOPED_TRACE(dims);
    EXPECT_EQ(std::stoull(cells[1]), t.size());
    EXPECT_EQ(std::stoull(cells[2]), ceil_div(t.size() - 1, 2 * t.dims().size()));
    EXPECT_TRUE(full.emplace(dims, std::make_pair(parse_cell(cells[3], true), parse_cell(cells[4], true))).second);
  }
  EXPECT_EQ(optimum_rows, 1);
  EXPECT_EQ(glance.size(), 37u);  // every 2-D torus with 3 <= n1 <= n2, P <= 36 (20), and the 17 3-D tori with P <= 40
  for (std::uint32_t a = 2; a * a * a <= 40; ++a)  // every 3-D torus with sides >= 2 and P <= 40 is a row
    for (std::uint32_t b = a; a * b * b <= 40; ++b)
      for (std::uint32_t c = b; a * b * c <= 40; ++c)
        EXPECT_EQ(glance.count(std::to_string(a) + "x" + std::to_string(b) + "x" + std::to_string(c)), 1u) << a << "x" << b << "x" << c;
  ASSERT_EQ(full.size(), glance.size());
  for (const auto& [dims, bounds] : full) {
    SCOPED_TRACE(dims);
    ASSERT_EQ(glance.count(dims), 1u);
    const torus t = torus::parse(dims);
    const std::uint64_t counting = ceil_div(t.size() - 1, 2 * t.dims().size());
    for (const auto& [model, cell, seen] : {std::tuple{"pairing", bounds.first, glance.at(dims).first},
                                             std::tuple{"general", bounds.second, glance.at(dims).second}}) {
      SCOPED_TRACE(model);
      EXPECT_TRUE(cell == seen) << "full table " << cell.lower << "-" << cell.upper << ", at a glance " << seen.lower << "-" << seen.upper;
      EXPECT_GE(cell.lower, counting);
      EXPECT_LE(cell.lower, cell.upper);
      const auto table = catalogued_torus_table(t, model);
      ASSERT_TRUE(table.has_value());
      EXPECT_EQ(table->first.steps, cell.upper);
    }
    // a pairing table is a general table
    EXPECT_LE(bounds.second.upper, bounds.first.upper);
    EXPECT_LE(bounds.second.lower, bounds.first.upper);
  }
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
