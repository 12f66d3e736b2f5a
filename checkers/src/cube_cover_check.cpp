// The cover check of a cube-and-conquer certificate: groups that are clauses, and combinations that hold a cube.
#include "dancecard/checkers/cube_cover_check.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <unordered_set>

namespace dancecard::certificates {

namespace {

std::vector<int> as_set(std::vector<int> literals) {
  std::sort(literals.begin(), literals.end());
  literals.erase(std::unique(literals.begin(), literals.end()), literals.end());
  return literals;
}

struct literals_hash {
  std::size_t operator()(const std::vector<int>& v) const noexcept {
    std::size_t h = v.size();
    for (int x : v) h = h * 1000003u ^ static_cast<std::size_t>(static_cast<unsigned>(x));
    return h;
  }
};

std::string literal_list(const std::vector<int>& literals) {
  std::ostringstream s;
  s << "{";
  for (std::size_t i = 0; i < literals.size(); ++i) s << (i ? " " : "") << literals[i];
  s << "}";
  return s.str();
}

}  // namespace

std::string_view to_string(cube_cover_violation_kind kind) {
  switch (kind) {
    case cube_cover_violation_kind::group_not_a_clause:
      return "group not a clause";
    case cube_cover_violation_kind::combination_uncovered:
      return "combination uncovered";
  }
  return "?";
}

std::string describe(const cube_cover_violation& v) {
  if (v.kind == cube_cover_violation_kind::group_not_a_clause)
    return "group " + std::to_string(v.group) +
           " is no clause of the formula, so a model may make none of its literals true";
  return "the combination " + literal_list(v.combination) + " contains no cube";
}

cube_cover_report check_cube_cover(const std::vector<std::vector<int>>& clauses,
                                   const std::vector<std::vector<int>>& groups,
                                   const std::vector<std::vector<int>>& cubes, std::size_t max_witnesses) {
  cube_cover_report r;
  std::set<std::vector<int>> clause_sets;
  std::unordered_set<int> falsified;  // literals whose negation is a unit clause: false in every model
  for (const auto& c : clauses) {
    clause_sets.insert(as_set(c));
    if (c.size() == 1) falsified.insert(-c[0]);
  }
  // A group is a clause of the formula less literals that unit clauses falsify (every model then makes one of the
  // group's literals true). Each clause is compared once per group: O(groups · clauses) at worst.
  auto is_clause_less_falsified = [&](const std::vector<int>& group) {
    if (clause_sets.count(group) != 0) return true;
    for (const auto& c : clause_sets) {
      if (!std::includes(c.begin(), c.end(), group.begin(), group.end())) continue;
      if (std::all_of(c.begin(), c.end(), [&](int lit) {
            return std::binary_search(group.begin(), group.end(), lit) || falsified.count(lit) != 0;
          }))
        return true;
    }
    return false;
  };
  std::vector<std::vector<int>> group_sets;
  std::uint64_t product = 1;
  constexpr std::uint64_t limit = std::uint64_t{1} << 20;
  bool too_many = false;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    group_sets.push_back(as_set(groups[g]));
    if (!is_clause_less_falsified(group_sets.back()))
      r.add({cube_cover_violation_kind::group_not_a_clause, g, {}}, max_witnesses);
    const std::uint64_t size = group_sets.back().size();
    if (size != 0 && product > limit / size) too_many = true;
    product = too_many ? limit + 1 : product * size;
  }
  r.combinations = product;
  r.checked = std::to_string(groups.size()) + " groups against " + std::to_string(clause_sets.size()) +
              " distinct clauses; " + (too_many ? "more than 2^20" : std::to_string(product)) +
              " combinations against " + std::to_string(cubes.size()) + " cubes";
  if (!r.holds()) return r;  // a group that is no clause: the combinations prove nothing
  if (too_many) {
    r.outcome = verdict::unknown;
    r.problem = "more than 2^20 combinations of the groups' literals: not enumerated";
    return r;
  }
  std::unordered_set<std::vector<int>, literals_hash> exact;
  std::vector<std::vector<int>> cube_sets;
  for (const auto& c : cubes) {
    cube_sets.push_back(as_set(c));
    exact.insert(cube_sets.back());
  }
  // Odometer over the combinations (none when a group is empty: no model then, nothing to cover).
  if (product == 0) return r;
  std::vector<std::size_t> pick(group_sets.size(), 0);
  for (std::uint64_t k = 0; k < product; ++k) {
    std::vector<int> combination;
    for (std::size_t g = 0; g < group_sets.size(); ++g) combination.push_back(group_sets[g][pick[g]]);
    const std::vector<int> sorted = as_set(combination);
    bool covered = exact.count(sorted) != 0;
    for (std::size_t c = 0; !covered && c < cube_sets.size(); ++c)
      covered = std::includes(sorted.begin(), sorted.end(), cube_sets[c].begin(), cube_sets[c].end());
    if (!covered) r.add({cube_cover_violation_kind::combination_uncovered, 0, combination}, max_witnesses);
    for (std::size_t g = group_sets.size(); g-- > 0;) {
      if (++pick[g] < group_sets[g].size()) break;
      pick[g] = 0;
    }
  }
  return r;
}

std::string describe(const cube_cover_report& r) {
  std::ostringstream s;
  s << to_string(r.outcome) << ": " << r.checked;
  if (!r.problem.empty()) s << " (" << r.problem << ")";
  s << "\n";
  for (const auto& v : r.witnesses) s << "  " << describe(v) << "\n";
  if (r.violation_count > r.witnesses.size()) s << "  ... " << r.violation_count << " violations in all\n";
  return s.str();
}

}  // namespace dancecard::certificates
