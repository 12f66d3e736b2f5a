// One torus query split into cubes and solved side by side (cube and conquer), for machines with many cores.
//
// The open cells of docs/torus-limits.md are single CaDiCaL queries that run for hours. A query can be split: pick
// a few one-hot groups of choice variables of torus_gossip_cnf — a PU's pairing (pairing model), or the in-port one
// out-port forwards (general model) — and ask, for every combination of one value per group, the query with those
// values as unit clauses. The cubes are independent, so J cores work on J of them at once, each with its own CaDiCaL
// and DRAT trace. The answer:
//   sat     — a cube is sat and its table completes within the steps in checkers/torus_check's simulator (the other
//             cubes are then cancelled);
//   unsat   — every cube is unsat, each DRAT proof accepted by checkers/drat_check for that cube's formula, and
//             checkers/cube_cover_check accepts that the cubes cover every model of the query (each group is a clause
//             of the query, every combination is a cube) — so the query itself has no model;
//   unknown — otherwise (a cube out of time, a proof not accepted), with how many cubes were refuted.
// Which groups: the PUs farthest from PU 0 first (the symmetry break fixes much of PU 0's neighbourhood, and a split
// there leaves one cube with nearly all the work), as many groups as make at least the cubes
// asked for, each less the values the query's unit clauses forbid (the general model's U-turns, where the return
// exclusion rules them out: such cubes would be refuted at once; the cover check allows for it). On 2 cores a split
// query is no faster than the whole one (measured: docs/performance.md); it is meant for more cores, where the longest
// cube, not the sum, is the wall time.
//
//   namespace torus = dancecard::torus;
//   auto r = torus::solve_torus_cubes(torus::network({3, 9}), torus::torus_model::pairing, 8, 600'000,
//                                    {.cubes = 27, .jobs = 8});
//   r.query.answer == solver_answer::unsat;   // r.cubes[k]: each cube's answer, time and proof size
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dancecard/smt/cube_and_conquer.hpp"
#include "dancecard/smt/torus_encoding.hpp"

namespace dancecard::torus {

struct torus_split_options {
  std::uint64_t cubes = 16;     // at least this many cubes (the product of the group sizes; at most 65,536)
  unsigned jobs = 1;            // cubes solved at once (threads), 1 … 256
  unsigned cube_budget_ms = 0;  // at most this much solver time per cube (0: what is left of the whole budget) — to
                                // see how many cubes of a hard query answer quickly
  torus_symmetry symmetry = torus_symmetry::automorphisms;
};

struct torus_cube_answer {
  std::vector<int> literals;  // the cube: choice variables of torus_gossip_cnf set true
  std::string description;    // "PU 17 pairing 2, PU 23 pairing 0" / "PU 17 out-port 0 <- in-port 3, …"
  solver_answer answer = solver_answer::unknown;
  bool asked = false;                // false: never started (budget spent, or a cube before it was sat)
  double seconds = 0;                // CaDiCaL and the proof check
  std::uint64_t lemmas_checked = 0;  // unsat: lemmas of its proof the check needed
  std::string reason;
};

struct torus_split_result {
  torus_query_result query;              // the answer of the whole query, as solve_torus_clausal's
  std::vector<std::string> split;        // the groups split on, in words ("PU 17's pairing")
  std::vector<std::vector<int>> groups;  // their literals
  std::vector<torus_cube_answer> cubes;  // one per combination, in odometer order (the last group fastest)
  std::uint64_t refuted = 0;             // cubes unsat with an accepted proof
  double cube_seconds = 0;  // the sum over the cubes asked (the work, against query.seconds, the wall time)
};

/// A torus query as cube and conquer sees it (smt/cube_and_conquer.hpp): torus_gossip_cnf, and every group it may be
/// split along, in the order of use — the PUs farthest from PU 0 first, a pairing group per PU (pairing model) or a
/// group per out-port (general model), less the values the formula's unit clauses forbid. `empty_clause`: the count or
/// parity bound already refutes the query (nothing to split).
struct torus_cube_query {
  cnf_formula formula;
  std::vector<cubes::split_group> groups;
  bool empty_clause = false;
};
torus_cube_query torus_cubes_of(const torus::network& network, torus_model model, std::uint64_t steps,
                                torus_symmetry symmetry = torus_symmetry::automorphisms);
/// A cube's model as the table it encodes, when that table completes gossip within `steps` in checkers/torus_check's
/// simulator; the reason: "completes in N steps (simulated)", or why not.
std::pair<std::optional<routing_table>, std::string> torus_cube_witness(const torus::network& network,
                                                                        torus_model model, std::uint64_t steps,
                                                                        const std::vector<int>& model_literals,
                                                                        int variables);

/// require: steps >= 1, 1 <= options.cubes <= 65,536, 1 <= options.jobs <= 256 (std::invalid_argument).
/// ensure: query.answer sat only with a witness simulated within `steps`; unsat only with every cube refuted by an
/// accepted DRAT proof and the cover accepted by check_cube_cover; budget_ms (0: no limit) bounds the wall time of
/// the solving (each cube gets what is left; a proof check once started runs to its end). Below the counting or
/// parity bound the formula holds the empty clause and the whole query is asked once, without a split.
torus_split_result solve_torus_cubes(const torus::network& network, torus_model model, std::uint64_t steps,
                                     unsigned budget_ms, const torus_split_options& options);

}  // namespace dancecard::torus
