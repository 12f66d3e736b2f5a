// Cardinality constraints as clauses, shared by the CNF encodings of smt/ (torus, h-relations).
#pragma once

#include <cstdint>
#include <vector>

#include "dancecard/smt/clausal.hpp"

namespace dancecard::detail {

// At most s of `flags` true: Sinz's sequential counter (count[k][j]: at least j + 1 of the first k + 1 are true — only
// the implications towards "at least"); s = 0: every flag false; s >= |flags|: nothing.
inline void at_most(cnf_formula& f, const std::vector<int>& flags, std::uint64_t s) {
  const std::uint64_t m = flags.size();
  if (s >= m) return;
  if (s == 0) {
    for (int flag : flags) f.clauses.push_back({-flag});
    return;
  }
  std::vector<std::vector<int>> count(m, std::vector<int>(s));
  for (auto& row : count)
    for (int& c : row) c = ++f.variables;
  for (std::uint64_t k = 0; k < m; ++k) {
    f.clauses.push_back({-flags[k], count[k][0]});
    if (k == 0) {
      for (std::uint64_t j = 1; j < s; ++j) f.clauses.push_back({-count[0][j]});
      continue;
    }
    for (std::uint64_t j = 0; j < s; ++j) f.clauses.push_back({-count[k - 1][j], count[k][j]});
    for (std::uint64_t j = 1; j < s; ++j) f.clauses.push_back({-flags[k], -count[k - 1][j - 1], count[k][j]});
    f.clauses.push_back({-flags[k], -count[k - 1][s - 1]});
  }
}

}  // namespace dancecard::detail
