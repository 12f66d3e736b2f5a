// The cover check of a cube-and-conquer certificate: groups that are clauses, and combinations that hold a cube.
#include "dancecard/checkers/cube_cover_check.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace dancecard::certificates {

namespace {

std::vector<int> as_set(std::vector<int> literals) {
  std::sort(literals.begin(), literals.end());
  literals.erase(std::unique(literals.begin(), literals.end()), literals.end());
  return literals;
}

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
  std::uint64_t product = 1;  // the combinations, saturated at 2^63 (reported, not enumerated)
  constexpr std::uint64_t saturated = std::uint64_t{1} << 63;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    group_sets.push_back(as_set(groups[g]));
    if (!is_clause_less_falsified(group_sets.back()))
      r.add({cube_cover_violation_kind::group_not_a_clause, g, {}}, max_witnesses);
    const std::uint64_t size = group_sets.back().size();
    product = size == 0 ? 0 : (product > saturated / size ? saturated : product * size);
  }
  r.combinations = product;
  r.checked = std::to_string(groups.size()) + " groups against " + std::to_string(clause_sets.size()) +
              " distinct clauses; " + (product == saturated ? "2^63 or more" : std::to_string(product)) +
              " combinations against " + std::to_string(cubes.size()) + " cubes";
  if (!r.holds()) return r;    // a group that is no clause: the combinations prove nothing
  if (product == 0) return r;  // an empty group: no model, nothing to cover
  std::vector<std::vector<int>> cube_sets;
  for (const auto& c : cubes) cube_sets.push_back(as_set(c));
  // The last group holding each literal: after the choice of that group a literal not chosen can no longer be.
  std::unordered_map<int, std::size_t> last_group;
  for (std::size_t g = 0; g < group_sets.size(); ++g)
    for (int lit : group_sets[g]) last_group[lit] = g;
  // The combinations, as a search over the groups in order: a branch ends where a cube lies within the literals
  // chosen (every combination below contains it) or where no cube can any more (the branch's first combination is
  // the witness). A group none of whose literals is in a cube still possible is chosen once, as every choice leaves
  // the same cubes: a split refined cube by cube (a cube too hard, split again by another group) costs its cubes,
  // not the product of all the groups. At most 2^22 branches; past that the answer is unknown.
  constexpr std::uint64_t branch_limit = std::uint64_t{1} << 22;
  std::uint64_t branches = 0;
  std::vector<int> chosen;
  std::unordered_set<int> chosen_set;
  bool gave_up = false;
  auto possible = [&](const std::vector<int>& cube, std::size_t decided) {  // groups 0 … decided − 1 chosen
    return std::all_of(cube.begin(), cube.end(), [&](int lit) {
      if (chosen_set.count(lit) != 0) return true;
      const auto at = last_group.find(lit);
      return at != last_group.end() && at->second >= decided;
    });
  };
  auto within = [&](const std::vector<int>& cube) {
    return std::all_of(cube.begin(), cube.end(), [&](int lit) { return chosen_set.count(lit) != 0; });
  };
  std::function<void(std::size_t, const std::vector<std::size_t>&)> search =
      [&](std::size_t g, const std::vector<std::size_t>& alive) {
        if (gave_up || r.violation_count >= std::max<std::size_t>(max_witnesses, 1)) return;
        if (++branches > branch_limit) {
          gave_up = true;
          return;
        }
        for (std::size_t c : alive)
          if (within(cube_sets[c])) return;  // covered
        if (alive.empty() || g == group_sets.size()) {
          std::vector<int> combination = chosen;
          for (std::size_t h = g; h < group_sets.size(); ++h) combination.push_back(group_sets[h].front());
          r.add({cube_cover_violation_kind::combination_uncovered, 0, combination}, max_witnesses);
          return;
        }
        bool relevant = false;
        for (std::size_t c : alive)
          for (int lit : cube_sets[c])
            relevant = relevant || std::binary_search(group_sets[g].begin(), group_sets[g].end(), lit);
        const std::size_t choices = relevant ? group_sets[g].size() : 1;
        for (std::size_t i = 0; i < choices && !gave_up; ++i) {
          const int lit = group_sets[g][i];
          chosen.push_back(lit);
          const bool fresh = chosen_set.insert(lit).second;
          std::vector<std::size_t> next;
          for (std::size_t c : alive)
            if (possible(cube_sets[c], g + 1)) next.push_back(c);
          search(g + 1, next);
          if (fresh) chosen_set.erase(lit);
          chosen.pop_back();
        }
      };
  std::vector<std::size_t> all;
  for (std::size_t c = 0; c < cube_sets.size(); ++c)
    if (possible(cube_sets[c], 0)) all.push_back(c);
  search(0, all);
  r.checked += " (" + std::to_string(std::min(branches, branch_limit)) + " branches searched)";
  if (gave_up && r.holds()) {
    r.outcome = verdict::unknown;
    r.problem = "more than 2^22 branches of the search over the groups' literals";
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
