// The catalogue of torus tables (formats/torus_catalogue.hpp) against the simulator, its evidence file
// (formats/torus_evidence.hpp, core/data/torus_evidence.json) and docs/torus-limits.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/torus_catalogue.hpp"
#include "dancecard/formats/torus_evidence.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

// Every catalogued table is what its name says: the torus of its sizes, one packet per PU sent on every port in step
// 1, a rule of its model at every PU (pairing: each in-port leaves by exactly one partner port, both ways), and gossip
// complete in exactly its steps in the simulator.
TEST(torus_catalogue, every_table_is_its_model_and_completes_in_its_steps) {
  const std::vector<torus_catalogue_entry> all = torus_catalogue();
  ASSERT_FALSE(all.empty());
  for (const torus_catalogue_entry& e : all) {
    const auto found = catalogued_torus_table(torus::network(e.dims), e.model);
    ASSERT_TRUE(found.has_value()) << e.file;
    const routing_table& table = found->second;
    EXPECT_EQ(table.network.dims(), e.dims) << e.file;
    EXPECT_EQ(table.packets, 1u) << e.file;
    EXPECT_TRUE(table.switches.empty()) << e.file;
    const std::uint32_t ports = table.network.ports();
    EXPECT_TRUE(std::all_of(table.inject.begin(), table.inject.end(), [](std::uint32_t q) { return q == 0; }))
        << e.file;
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

// The evidence file against the catalogue: one cell per catalogued torus and model — every 2-D torus with
// 3 <= n1 <= n2 and P <= 36, every 3-D torus with P <= 40 — the upper end the catalogue's table, the lower end at least
// the counting bound and what its kind says. (The stored proofs are checked by the theorem-book row
// torus.catalogue.evidence.)
std::vector<torus_evidence_cell> evidence() {
  std::ifstream file(DANCECARD_TORUS_EVIDENCE);
  EXPECT_TRUE(file) << DANCECARD_TORUS_EVIDENCE;
  std::stringstream text;
  text << file.rdbuf();
  return read_torus_evidence(text.str());
}

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

TEST(torus_catalogue, evidence_covers_the_catalogue_and_agrees_with_it) {
  const std::vector<torus_evidence_cell> cells = evidence();
  std::map<std::pair<std::string, std::string>, torus_evidence_cell> by;
  for (const torus_evidence_cell& c : cells) by[{torus::network(c.dims).name(), c.model}] = c;
  for (const torus_catalogue_entry& e : torus_catalogue())
    EXPECT_EQ(by.count({torus::network(e.dims).name(), e.model}), 1u) << e.file;
  std::set<std::string> expected;
  for (std::uint32_t a = 3; a * a <= 36; ++a)
    for (std::uint32_t b = a; a * b <= 36; ++b) expected.insert(std::to_string(a) + "x" + std::to_string(b));
  for (std::uint32_t a = 2; a * a * a <= 40; ++a)
    for (std::uint32_t b = a; a * b * b <= 40; ++b)
      for (std::uint32_t c = b; a * b * c <= 40; ++c)
        expected.insert(std::to_string(a) + "x" + std::to_string(b) + "x" + std::to_string(c));
  EXPECT_EQ(cells.size(), 2 * expected.size());
  for (const std::string& name : expected)
    for (const char* model : {"pairing", "general"}) EXPECT_EQ(by.count({name, model}), 1u) << name << " " << model;
  for (const auto& [key, c] : by) {
    SCOPED_TRACE(key.first + " " + key.second);
    const torus::network t(c.dims);
    const auto table = catalogued_torus_table(t, c.model);
    ASSERT_TRUE(table.has_value());
    EXPECT_EQ(table->first.steps, c.upper);
    EXPECT_GE(c.lower, counting_bound(t));
    if (c.lower_by == torus_lower_evidence::counting) {
      EXPECT_EQ(c.lower, counting_bound(t));
    } else if (c.lower_by == torus_lower_evidence::parity) {
      EXPECT_EQ(c.lower, parity_bound(t));
    } else if (c.lower_by == torus_lower_evidence::general_model) {
      EXPECT_LE(c.lower, by.at({key.first, "general"}).lower);
    }
    if (c.model == "pairing") {  // a pairing table is a general table
      EXPECT_LE(by.at({key.first, "general"}).upper, c.upper);
      EXPECT_LE(by.at({key.first, "general"}).lower, c.upper);
    }
  }
}

TEST(torus_catalogue, the_evidence_reader_names_the_place) {
  const auto refuses = [](const std::string& text, const std::string& place) {
    try {
      read_torus_evidence(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const format_error& e) {
      EXPECT_EQ(e.place(), place) << e.what();
    }
  };
  const std::string head = R"({"format": "dancecard.torus-evidence/1", "cells": [)";
  const std::string cell = R"({"torus": "3x3", "model": "general", "lower": 2, "upper": 2, "lower_by": "counting")";
  EXPECT_EQ(read_torus_evidence(head + cell + "}]}").size(), 1u);
  refuses(head + R"({"torus": "3x3", "model": "general", "lower": 3, "upper": 2, "lower_by": "counting"}]})",
          "cells[0].lower");
  refuses(head + R"({"torus": "5x3", "model": "general", "lower": 2, "upper": 2, "lower_by": "counting"}]})",
          "cells[0].torus");
  refuses(head + R"({"torus": "3x", "model": "general", "lower": 2, "upper": 2, "lower_by": "counting"}]})",
          "cells[0].torus");
  refuses(head + R"({"torus": "3x3", "model": "greedy", "lower": 2, "upper": 2, "lower_by": "counting"}]})",
          "cells[0].model");
  refuses(head + R"({"torus": "3x3", "model": "general", "lower": 2, "upper": 2, "lower_by": "hope"}]})",
          "cells[0].lower_by");
  refuses(head + R"({"torus": "3x3", "model": "general", "lower": 2, "upper": 2, "lower_by": "general-model"}]})",
          "cells[0].lower_by");
  refuses(head + cell + R"(, "lemmas": 5}]})", "cells[0].lemmas");
  refuses(
      head + R"({"torus": "3x3", "model": "general", "lower": 2, "upper": 2, "lower_by": "drat-stored", "proof": "p.gz",
      "proof_sha256": "00", "cnf_sha256": "00", "lemmas": 1}]})",
      "cells[0].proof_sha256");
  refuses(head + R"({"torus": "3x3", "model": "general", "lower": 2, "upper": 2, )"
                 R"("lower_by": "drat-regenerated", "lemmas": 1}]})",
          "cells[0].solve_seconds");
  refuses(head + cell + "}, " + cell + "}]}", "cells[1]");
  refuses(R"({"format": "dancecard.torus-routing/1", "cells": []})", "format");
}

// docs/torus-limits.md gives every cell twice — "At a glance" (a 2-D grid and a 3-D list, "N" or "L–U", bold where
// the lower end is above ⌈(P − 1)/4⌉ in 2-D or ⌈(P − 1)/6⌉ in 3-D) and "The cells and their evidence" (one row per
// torus and model with the kind of its lower end). Both must be the evidence file's, so a change to one place that
// forgets the others fails here.
struct docs_cell {
  std::uint64_t lower = 0;
  std::uint64_t upper = 0;
  bool bold = false;
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

// "**8**", "7", "**9–10**", "5–6"
docs_cell parse_cell(const std::string& text) {
  static const std::regex glance(R"(^(\*\*)?(\d+)(?:–(\d+))?(\*\*)?$)");
  std::smatch m;
  if (!std::regex_match(text, m, glance) || m[1].matched != m[4].matched)
    throw std::runtime_error("cell '" + text + "'");
  docs_cell cell;
  cell.bold = m[1].matched;
  cell.lower = std::stoull(m[2]);
  cell.upper = m[3].matched ? std::stoull(m[3]) : cell.lower;
  return cell;
}

std::string dims_of(const std::string& text) {  // "2 × 3 × 4" → "2x3x4"
  return std::regex_replace(text, std::regex(" × "), "x");
}

// The kind of a lower end as the docs' table words it.
torus_lower_evidence kind_of(const std::string& text) {
  if (text.rfind("counting bound", 0) == 0) return torus_lower_evidence::counting;
  if (text.rfind("parity bound", 0) == 0) return torus_lower_evidence::parity;
  if (text.rfind("general model", 0) == 0) return torus_lower_evidence::general_model;
  if (text.rfind("stored DRAT proof", 0) == 0) return torus_lower_evidence::drat_stored;
  if (text.rfind("DRAT proof of ", 0) == 0 && text.find(", regenerated") != std::string::npos)
    return torus_lower_evidence::drat_regenerated;
  throw std::runtime_error("lower end '" + text.substr(0, 40) + "'");
}

TEST(torus_catalogue, docs_give_the_evidence_files_cells) {
  std::map<std::pair<std::string, std::string>, torus_evidence_cell> by;
  for (const torus_evidence_cell& c : evidence()) by[{torus::network(c.dims).name(), c.model}] = c;
  std::ifstream file(DANCECARD_TORUS_LIMITS);
  ASSERT_TRUE(file) << DANCECARD_TORUS_LIMITS;
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  const auto heading = [&](const std::string& h) {
    const auto it = std::find(lines.begin(), lines.end(), h);
    EXPECT_NE(it, lines.end()) << h;
    return static_cast<std::size_t>(it - lines.begin());
  };
  const std::size_t glance_at = heading("## At a glance"), cells_at = heading("## The cells and their evidence");
  ASSERT_LT(glance_at, cells_at);
  const auto expect_cell = [&](const std::string& dims, const std::string& model, const docs_cell& seen,
                               std::uint64_t optimum) {
    SCOPED_TRACE(dims + " " + model);
    ASSERT_EQ(by.count({dims, model}), 1u);
    const torus_evidence_cell& c = by.at({dims, model});
    EXPECT_EQ(seen.lower, c.lower);
    EXPECT_EQ(seen.upper, c.upper);
    EXPECT_EQ(seen.bold, c.lower > optimum);
  };
  std::set<std::pair<std::string, std::string>> glance, listed;
  std::vector<std::string> columns;  // the 2-D grid's n2 values
  for (std::size_t i = glance_at; i < cells_at; ++i) {
    if (lines[i].rfind("| n1 \\ n2 |", 0) == 0) {
      columns = table_cells(lines[i]);
      columns.erase(columns.begin());
      continue;
    }
    const std::vector<std::string> cells = table_cells(lines[i]);
    if (cells.empty() || cells[0].empty() || cells[0] == "torus" || cells[0].find("---") != std::string::npos) continue;
    if (std::regex_match(cells[0], std::regex(R"(\d+)"))) {  // a row of the 2-D grid
      ASSERT_EQ(cells.size(), columns.size() + 1) << lines[i];
      for (std::size_t c = 1; c < cells.size(); ++c) {
        if (cells[c].empty() || cells[c] == "–") continue;
        const auto slash = cells[c].find(" / ");
        ASSERT_NE(slash, std::string::npos) << cells[c];
        const std::string dims = cells[0] + "x" + columns[c - 1];
        const std::uint64_t optimum = ceil_div(std::stoull(cells[0]) * std::stoull(columns[c - 1]) - 1, 4);
        expect_cell(dims, "pairing", parse_cell(cells[c].substr(0, slash)), optimum);
        expect_cell(dims, "general", parse_cell(cells[c].substr(slash + 3)), optimum);
        glance.insert({dims, "pairing"});
        glance.insert({dims, "general"});
      }
    } else if (cells[0].find(" × ") != std::string::npos) {  // a row of the 3-D list
      ASSERT_EQ(cells.size(), 5u) << lines[i];
      const std::string dims = dims_of(cells[0]);
      const torus::network t = torus::network::parse(dims);
      EXPECT_EQ(std::stoull(cells[1]), t.size()) << dims;
      EXPECT_EQ(std::stoull(cells[2]), counting_bound(t)) << dims;
      expect_cell(dims, "pairing", parse_cell(cells[3]), counting_bound(t));
      expect_cell(dims, "general", parse_cell(cells[4]), counting_bound(t));
      glance.insert({dims, "pairing"});
      glance.insert({dims, "general"});
    }
  }
  for (std::size_t i = cells_at; i < lines.size(); ++i) {
    if (lines[i].rfind("| ", 0) != 0) {
      if (!listed.empty()) break;  // the end of the table
      continue;
    }
    const std::vector<std::string> cells = table_cells(lines[i]);
    if (cells[0] == "torus" || cells[0].find("---") != std::string::npos) continue;
    ASSERT_EQ(cells.size(), 7u) << lines[i].substr(0, 60);
    const std::string dims = dims_of(cells[0]);
    const torus::network t = torus::network::parse(dims);
    SCOPED_TRACE(dims + " " + cells[3]);
    EXPECT_EQ(std::stoull(cells[1]), t.size());
    EXPECT_EQ(std::stoull(cells[2]), counting_bound(t));
    ASSERT_EQ(by.count({dims, cells[3]}), 1u);
    const torus_evidence_cell& c = by.at({dims, cells[3]});
    const docs_cell steps = parse_cell(cells[4]);
    EXPECT_EQ(steps.lower, c.lower);
    EXPECT_EQ(steps.upper, c.upper);
    EXPECT_EQ(kind_of(cells[5]), c.lower_by);
    // the command that re-checks it: the query itself, or the theorem-book row that checks the stored proofs
    EXPECT_NE(cells[6].find(c.lower_by == torus_lower_evidence::drat_stored ? std::string("torus.catalogue.evidence")
                                                                            : "--dims " + dims),
              std::string::npos)
        << cells[6];
    EXPECT_TRUE(listed.insert({dims, cells[3]}).second);
  }
  EXPECT_EQ(glance.size(), by.size());
  EXPECT_EQ(listed.size(), by.size());
}

// Sizes in any order: the table of the ascending sizes with its axes relabelled completes in the same steps, and a
// pairing stays a pairing. The general model takes a pairing table where it is as fast (3 x 4: both 4).
TEST(torus_catalogue, sizes_in_any_order) {
  for (const std::vector<std::uint32_t>& dims :
       std::vector<std::vector<std::uint32_t>>{{5, 3}, {6, 5}, {4, 2, 3}, {3, 4, 2}, {4, 3, 3}, {9, 2, 2}}) {
    for (const char* model : {"pairing", "general"}) {
      const torus::network t(dims);
      const auto found = catalogued_torus_table(t, model);
      ASSERT_TRUE(found.has_value()) << t.name();
      EXPECT_EQ(found->second.network.dims(), dims);
      const gossip_report run = simulate_gossip(found->second);
      ASSERT_TRUE(run.holds()) << t.name() << " " << model << ": " << describe(run);
      EXPECT_EQ(run.steps, found->first.steps) << t.name() << " " << model;
      if (std::string(model) == "pairing") {
        EXPECT_TRUE(forwarding_cycles(found->second, {.require_hamiltonian = false}).holds()) << t.name();
      }
    }
  }
  const auto general = catalogued_torus_table(torus::network({4, 3}), "general");
  ASSERT_TRUE(general.has_value());
  EXPECT_EQ(general->first.model, "pairing");
  EXPECT_FALSE(catalogued_torus_table(torus::network({7, 7}), "pairing").has_value());
  EXPECT_FALSE(catalogued_torus_table(torus::network({3, 3, 3, 3}), "general").has_value());
  EXPECT_THROW(catalogued_torus_table(torus::network({3, 3}), "greedy"), std::invalid_argument);
}

}  // namespace
}  // namespace dancecard
