// An h-relation query split into cubes (smt/cube_and_conquer.hpp): "every message delivered within T slots of 1/k?"
// as hrel_query_cnf asks it, with the groups to split along and the check of a cube's model. The groups are clauses
// of the formula itself — for a slot t, a message m and a PE p, "p sends no piece of m in t, or sends one to q" for
// every q it may send to (the clause that defines out(p, m, t) as the OR of p's moves of m) — and half duplex lets p
// make one move at most, so exactly one literal of each is true in every model. The early slots come first: there
// the choices are fewest and decide most, and in slot 0 only a message's source holds a piece of it, so the groups of
// slot 0 are the sources' alone (any other PE's would give cubes its unit clauses refute at once).
//
//   auto q = dancecard::hrel::hrel_cubes_of(two_triangles, 2, true, 5);
//   dancecard::cubes::cube_plan plan(q.groups, 8);   // then solve_cube per cube; plan.verdict(q.formula.clauses)
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dancecard/smt/cube_and_conquer.hpp"
#include "dancecard/smt/hrel_encoding.hpp"

namespace dancecard::hrel {

struct hrel_cube_query {
  cnf_formula formula;                     // hrel_query_cnf(instance, k, forwarding, slots)
  std::vector<cubes::split_group> groups;  // in the order of use: slot 0 first
};

/// require: granularity >= 1, slots >= 1 (std::invalid_argument).
hrel_cube_query hrel_cubes_of(const hrel_instance& instance, unsigned granularity, bool forwarding, std::size_t slots);

/// A model of hrel_cubes_of's formula as the schedule its moves make, when checkers/hrel_schedule_check accepts it
/// (half duplex); the reason says "delivers every message in T slots of 1/k (checked)" or why not.
std::pair<std::optional<hrel_schedule>, std::string> hrel_cube_witness(const hrel_instance& instance,
                                                                       unsigned granularity, bool forwarding,
                                                                       std::size_t slots,
                                                                       const std::vector<int>& model);

}  // namespace dancecard::hrel
