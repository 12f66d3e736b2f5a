// Do a split query's cubes cover every model of its formula? The second half of a cube-and-conquer certificate.
//
// A hard unsat query can be split into cubes — conjunctions of literals — and each cube's formula (the query plus the
// cube's literals as unit clauses) refuted on its own, with its own DRAT proof (drat_check.hpp). The refutations
// prove the query unsat only if every model of the query satisfies some cube; this checker decides that from the
// formula's text alone, sharing nothing with the code that made the split. The split must be by `groups`, each a
// clause of the formula, or a clause less literals that unit clauses of the formula make false (so every model makes
// at least one literal of each group true: at least one pairing per PU, at least one in-port per out-port other than
// those the formula forbids outright, …); every combination — one literal from each group — must then contain some
// cube (a cube inside a combination holds wherever the combination does). So every model satisfies a combination,
// hence a cube. The cubes may overlap, and may name fewer literals than a combination.
//
// A cube too hard to refute may be split again by another group (the cubes then form a tree): the groups are all the
// groups used anywhere, and the same condition holds.
//
// Cost: a group that is no clause as it stands is compared with every clause; then a search over the groups in
// order, which chooses once a group that no cube still possible mentions — so a split refined cube by cube costs about
// its cubes times the groups, not the product of the group sizes — and ends a branch where a cube lies within the
// literals chosen; at most 2^22 branches (beyond that the answer is unknown).
//
//   // 9 cubes expected:
//   auto r = dancecard::certificates::check_cube_cover(formula_clauses, {{1, 2, 3}, {4, 5, 6}}, cubes);
//   if (!r.holds()) std::cerr << describe(r);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dancecard/checkers/report.hpp"

namespace dancecard::certificates {

enum class cube_cover_violation_kind { group_not_a_clause, combination_uncovered };
std::string_view to_string(cube_cover_violation_kind kind);

struct cube_cover_violation {
  cube_cover_violation_kind kind = cube_cover_violation_kind::combination_uncovered;
  std::size_t group = 0;         // group_not_a_clause: which group
  std::vector<int> combination;  // combination_uncovered: one literal of each group, contained in no cube
};
std::string describe(const cube_cover_violation& v);

struct cube_cover_report : report<cube_cover_violation> {
  std::uint64_t combinations = 0;  // the product of the group sizes
  std::string problem;             // why the answer is unknown (too many combinations), else empty
};

/// require: nothing (any clauses, groups and cubes; literals are non-zero ints). ensure: holds only if every group is a
/// clause of `clauses` (as a set of literals), possibly less literals whose negations are unit clauses of `clauses`,
/// and every combination of one literal per group contains some cube —
/// so every assignment satisfying `clauses` satisfies some cube; violated with the first few groups that are no
/// clause, or the first few combinations left uncovered (each stands for the combinations that share its choices up
/// to where no cube remained possible); unknown past 2^22 branches of the search (nothing is claimed then).
cube_cover_report check_cube_cover(const std::vector<std::vector<int>>& clauses,
                                   const std::vector<std::vector<int>>& groups,
                                   const std::vector<std::vector<int>>& cubes, std::size_t max_witnesses = 8);

std::string describe(const cube_cover_report& r);

}  // namespace dancecard::certificates
