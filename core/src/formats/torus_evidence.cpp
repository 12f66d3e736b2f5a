// Reading the evidence file of the torus catalogue (formats/torus_evidence.hpp).
#include "dancecard/formats/torus_evidence.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "json_support.hpp"

namespace dancecard::torus {

std::string_view to_string(torus_lower_evidence e) {
  switch (e) {
    case torus_lower_evidence::counting:
      return "counting";
    case torus_lower_evidence::parity:
      return "parity";
    case torus_lower_evidence::general_model:
      return "general-model";
    case torus_lower_evidence::drat_stored:
      return "drat-stored";
    case torus_lower_evidence::drat_regenerated:
      return "drat-regenerated";
  }
  return "?";
}

namespace {

using dancecard::detail::json;

std::string string_at(const json& cell, const char* key, const std::string& place) {
  if (!cell.contains(key)) throw format_error(place + "." + key, "missing");
  const json& v = cell[key];
  if (!v.is_string() || v.get<std::string>().empty())
    throw format_error(place + "." + key, "expected a non-empty string, got " + dancecard::detail::excerpt(v));
  return v.get<std::string>();
}

std::string sha256_at(const json& cell, const char* key, const std::string& place) {
  std::string s = string_at(cell, key, place);
  if (s.size() != 64 ||
      !std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }))
    throw format_error(place + "." + key, "expected 64 lower-case hexadecimal digits (a SHA-256)");
  return s;
}

std::uint64_t count_at(const json& cell, const char* key, const std::string& place, std::uint64_t at_least) {
  if (!cell.contains(key)) throw format_error(place + "." + key, "missing");
  const std::uint64_t v = dancecard::detail::unsigned_at(cell[key], place + "." + key, at_least);
  if (v > (std::uint64_t{1} << 40)) throw format_error(place + "." + key, "at most 2^40");
  return v;
}

}  // namespace

std::vector<torus_evidence_cell> read_torus_evidence(std::string_view text) {
  const json doc = dancecard::detail::parse_document(text, torus_evidence_format_name, {"format", "comment", "cells"});
  if (!doc.contains("cells") || !doc["cells"].is_array()) throw format_error("cells", "expected an array of cells");
  std::vector<torus_evidence_cell> cells;
  std::set<std::pair<std::vector<std::uint32_t>, std::string>> seen;
  const json& list = doc["cells"];
  for (std::size_t k = 0; k < list.size(); ++k) {
    const std::string place = "cells[" + std::to_string(k) + "]";
    const json& c = list[k];
    if (!c.is_object()) throw format_error(place, "expected an object, got " + dancecard::detail::type_name(c));
    torus_evidence_cell cell;
    // the torus: "3x5", sizes ascending, each 2..64
    const std::string name = string_at(c, "torus", place);
    for (std::size_t at = 0; at <= name.size();) {
      const std::size_t x = std::min(name.find('x', at), name.size());
      const std::string part = name.substr(at, x - at);
      if (part.empty() || part.size() > 2 ||
          !std::all_of(part.begin(), part.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) ||
          std::stoul(part) < 2 || std::stoul(part) > 64)
        throw format_error(place + ".torus", "expected sizes 2..64 joined by 'x', got \"" + name.substr(0, 40) + "\"");
      cell.dims.push_back(static_cast<std::uint32_t>(std::stoul(part)));
      at = x + 1;
    }
    if (cell.dims.size() < 2 || cell.dims.size() > 3 || !std::is_sorted(cell.dims.begin(), cell.dims.end()))
      throw format_error(place + ".torus", "expected 2 or 3 sizes in ascending order, got \"" + name + "\"");
    cell.model = string_at(c, "model", place);
    if (cell.model != "pairing" && cell.model != "general")
      throw format_error(place + ".model",
                         "expected \"pairing\" or \"general\", got \"" + cell.model.substr(0, 40) + "\"");
    if (!seen.emplace(cell.dims, cell.model).second)
      throw format_error(place, name + " " + cell.model + " is listed twice");
    cell.lower = count_at(c, "lower", place, 1);
    cell.upper = count_at(c, "upper", place, 1);
    if (cell.lower > cell.upper)
      throw format_error(place + ".lower",
                         std::to_string(cell.lower) + " is above upper " + std::to_string(cell.upper));
    const std::string by = string_at(c, "lower_by", place);
    std::vector<const char*> keys{"torus", "model", "lower", "upper", "lower_by"};
    if (by == "counting") {
      cell.lower_by = torus_lower_evidence::counting;
    } else if (by == "parity") {
      cell.lower_by = torus_lower_evidence::parity;
    } else if (by == "general-model") {
      cell.lower_by = torus_lower_evidence::general_model;
      if (cell.model != "pairing") throw format_error(place + ".lower_by", "general-model: only for a pairing cell");
    } else if (by == "drat-stored") {
      cell.lower_by = torus_lower_evidence::drat_stored;
      cell.proof = string_at(c, "proof", place);
      if (cell.proof.find("..") != std::string::npos || cell.proof.front() == '/')
        throw format_error(place + ".proof", "expected a path inside the data directory");
      cell.proof_sha256 = sha256_at(c, "proof_sha256", place);
      cell.cnf_sha256 = sha256_at(c, "cnf_sha256", place);
      cell.lemmas = count_at(c, "lemmas", place, 0);
      keys.insert(keys.end(), {"proof", "proof_sha256", "cnf_sha256", "lemmas"});
    } else if (by == "drat-regenerated") {
      cell.lower_by = torus_lower_evidence::drat_regenerated;
      cell.lemmas = count_at(c, "lemmas", place, 0);
      cell.solve_seconds = count_at(c, "solve_seconds", place, 0);
      keys.insert(keys.end(), {"lemmas", "solve_seconds"});
    } else {
      throw format_error(place + ".lower_by",
                         "expected counting, parity, general-model, drat-stored or drat-regenerated, got \"" +
                             by.substr(0, 40) + "\"");
    }
    dancecard::detail::only_keys(c, place, keys);
    cells.push_back(std::move(cell));
  }
  return cells;
}

}  // namespace dancecard::torus
