// The least number of steps of a collective on a network, proven: SCCL's synthesis question (Cai et al.,
// "Synthesizing optimal collective algorithms", PPoPP 2021, Section 4) as CNF for CaDiCaL, with both sides carried by
// code that shares nothing with the solver — the witness at the least S decoded into a schedule that
// checkers/collective_check accepts, and "not in S − 1 steps" a DRAT proof that checkers/drat_check accepts, or, where
// a cut of the network needs more rounds than the query has (all-port), that cut's cutting-planes certificate, which
// checkers/cutting_planes_check accepts (smt/collective_cut.hpp; synthesis_options::cut_certificates).
//
// The encoding (collective_steps_cnf) is exactly the model's conditions, nothing implied that a schedule could break
// and no symmetry breaking: held(c, r, t) for t = 0 … S, send(c, u → v, t) per link and step; the precondition and the
// postcondition as units; a send only of a chunk held; a chunk held at t + 1 was held at t or arrived over a link in
// step t (and what is held stays held: any schedule's simulation satisfies it); at most capacity × rounds chunks per
// link and step; under one port full duplex, one out-link and one in-link per rank and step. Any schedule of at most S
// steps satisfies the CNF (its sends and the holds they cause, empty steps appended), so unsat means none exists.
// Non-combining collectives (allgather, alltoall, broadcast, gather, scatter); reduce-scatter and reduce by SCCL's
// inversion (prove_least_steps, prove_least_rounds): the all-gather (broadcast) on the network with every link turned
// round is asked, its refutations carry over, and its witness run backwards with reductions is checked as the
// reduce-scatter (reduce) it claims to be.
//
//   auto r = dancecard::collective::prove_least_steps(dancecard::collective::dgx1_topology(),
//                                                     {dancecard::collective::collective_kind::allgather, 8, 1, 0});
//   r.status == proof_status::proven && r.steps == 2   // SCCL's (C, S, R) = (1, 2, 2) on DGX-1
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/core/collective/symmetry.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/cube_and_conquer.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::collective {

struct synthesis_options {
  port_model ports = port_model::all_port;  // all_port or one_port_full_duplex
  std::uint32_t rounds_per_step = 1;        // SCCL's rounds, the same in every step (R = S · rounds_per_step)
  /// Instead: R rounds in all, each step at least one, as the solver distributes them (SCCL's k-synchronous
  /// algorithms: step t may use each link capacity × r_t times, r_0 + … + r_(S−1) = R). require: R >= S.
  std::optional<std::uint32_t> total_rounds;
  std::uint32_t max_steps = 32;  // give up (unknown) above
  unsigned budget_ms = 60'000;   // per query; 0: no limit
  /// All-port: a query whose rounds are below the cut bound is refuted by a cutting-planes certificate of the cut
  /// (smt/collective_cut.hpp, checked before it counts) instead of CaDiCaL and DRAT.
  bool cut_certificates = true;
  /// Before each query CaDiCaL is asked, within `symmetric_conflicts` conflicts, for an all-gather or all-to-all
  /// schedule that the network's symmetries map onto itself (core/collective/symmetry.hpp: the translations of a
  /// ring, complete graph, hypercube or torus; the whole automorphism group of any other network, DGX-1 and files):
  /// the CNF in the quotient by the translations (quotient_steps_cnf), or on other networks the CNF with held and send
  /// equal along each generator's orbits (invariant_steps_cnf). Such a schedule
  /// is a schedule, decoded and judged by the checker like any witness; when there is none (or none within the
  /// conflicts) the whole query is asked as before, so every refutation is still one of the whole model. Where the
  /// whole formula passes max_clauses, the invariant query goes on instead with the rest of budget_ms.
  bool symmetric_witnesses = true;
  std::uint64_t symmetric_conflicts = 200'000;
  /// The most clauses a query's formula may have (about 60 bytes each here, and as much again in CaDiCaL): a formula
  /// that passes it is not finished, and its query answers unknown, a resource limit (formula_too_large from the
  /// builders called alone).
  std::uint64_t max_clauses = 40'000'000;
  /// Raised by another thread or a signal handler (Python's Ctrl-C): the running solver stops and the answer is
  /// unknown, as on a budget.
  const std::atomic<bool>* cancel = nullptr;
};

/// Thrown by collective_steps_cnf, combining_steps_cnf, quotient_steps_cnf and collective_split_query when the formula
/// passes synthesis_options::max_clauses, or would have more than 2^28 variables (2^27 for the combining collectives):
/// a resource limit, not bad input.
class formula_too_large : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One query: is there a schedule of `steps` steps?
struct synthesis_query {
  std::uint64_t steps = 0;
  solver_answer answer = solver_answer::unknown;
  std::uint64_t variables = 0, clauses = 0;
  double seconds = 0;       // encode, solve, and check (witness or proof)
  std::string detail;       // the witness's check, or the proof's ("DRAT proof checked (…)"), or why unknown
  std::string certificate;  // dancecard.cp/1, where a cut refuted the query
};

struct least_steps_result {
  proof_status status = proof_status::unknown;
  std::uint64_t steps = 0;          // proven: the least; unknown: the fewest with a checked witness (0: none)
  std::optional<schedule> witness;  // accepted by check_collective_schedule, `steps` steps
  std::vector<synthesis_query> queries;
  std::string reason;  // one sentence: why proven or unknown
};

/// Rounds a step enough that no link's capacity ever binds for `coll` (a copy and a reduction of every chunk over a
/// link; at most 2^32 − 1): with this rounds_per_step, prove_least_steps answers the least steps of any schedule
/// whatever its rounds (SCCL's lower bound on steps; the distance bound of an all-port all-gather).
std::uint32_t unbounded_rounds_per_step(const collective& coll);

/// The CNF of "a schedule of `steps` steps exists" (above). require (std::invalid_argument): a non-combining
/// collective on the network's ranks; all-port or one-port full duplex; rounds_per_step >= 1.
cnf_formula collective_steps_cnf(const topology& network, const collective& coll, std::uint64_t steps,
                                 const synthesis_options& options = {});

/// The CNF of "a schedule of `steps` steps exists" for the combining collectives (all-reduce, reduce-scatter, reduce),
/// whose models are exactly the schedules of copies and reductions that check_collective_schedule accepts:
/// value(k, r, u, t) — rank r's value of chunk k holds u's contribution after t steps — and copy(k, l, t),
/// reduce(k, l, t) per link and step. A transfer only of a value with a contribution; a copy replaces the value, every
/// copy into one (chunk, rank) in a step carries the same value and no reduction goes beside it; otherwise the value
/// grows by what the reductions bring, none of whose contributions the value or another reduction already has (the
/// checker's "double counted"); the postcondition as units; capacity × rounds and one port as collective_steps_cnf.
/// A schedule with a transfer twice loses nothing by dropping one, so unsat means none exists. require
/// (std::invalid_argument): a combining collective, and as collective_steps_cnf.
cnf_formula combining_steps_cnf(const topology& network, const collective& coll, std::uint64_t steps,
                                const synthesis_options& options = {});
/// A model of combining_steps_cnf as its schedule: every copy and reduction the model has, in link order.
schedule decode_combining_model(const topology& network, const collective& coll, std::uint64_t steps,
                                const synthesis_options& options, const std::vector<int>& model, int variables,
                                const std::string& algorithm);

/// collective_steps_cnf with held(c, r, t) = held(g(c), g(r), t) and send(c, u → v, t) = send(g(c), g(u) → g(v), t)
/// for each generator g of translations(network), or where there are none of automorphism_generators(network) (g(c):
/// the chunk with g's image of c's source, and destination for the all-to-all): its models are the schedules those
/// symmetries map onto themselves. nullopt where the network has no symmetry or the collective has a root
/// (broadcast, gather, scatter).
std::optional<cnf_formula> invariant_steps_cnf(const topology& network, const collective& coll, std::uint64_t steps,
                                               const synthesis_options& options = {});

/// The schedules the translations leave unchanged, in the quotient by them, where they act regularly on the ranks
/// (regular_elements of translations(network): a ring, complete graph, hypercube or torus): held(k, r, t) and
/// send(k, l, t) only for rank 0's chunks k (every rank r, every link l), the model's conditions on them, and one
/// capacity constraint per orbit of links and step — in the schedule the translations make of rank 0's part, every
/// link of an orbit carries the sends of rank 0's chunks over all the orbit's links. Under one port, at most one orbit
/// used a step: every rank has one out-link and one in-link in each orbit. Its models are exactly the
/// invariant_steps_cnf's, with 1/n of its held and send variables; decode_quotient_model lifts one. nullopt where there
/// is no such group or the collective is not an all-gather or all-to-all. require: as collective_steps_cnf.
struct quotient_query {
  cnf_formula formula;
  std::vector<rank_permutation> elements;  // elements[v] takes rank 0 to v
  std::vector<std::uint64_t> chunks;       // rank 0's chunks: the quotient's chunk k is chunks[k]
};
std::optional<quotient_query> quotient_steps_cnf(const topology& network, const collective& coll, std::uint64_t steps,
                                                 const synthesis_options& options = {});
/// A model of quotient_steps_cnf as the schedule it stands for: each of rank 0's chunks sent where it is not yet held,
/// once per receiver and step (over the first such link), moved by every element; the steps' rounds as the model
/// spreads them. The collective checker judges it like any witness.
schedule decode_quotient_model(const topology& network, const collective& coll, std::uint64_t steps,
                               const synthesis_options& options, const quotient_query& query,
                               const std::vector<int>& model, const std::string& algorithm);

/// A model of collective_steps_cnf as the schedule it encodes (a chunk sent where it is not yet held, once per
/// receiver and step; the steps' rounds as the model spreads them), for the collective checker to judge.
schedule decode_collective_model(const topology& network, const collective& coll, std::uint64_t steps,
                                 const synthesis_options& options, const std::vector<int>& model, int variables,
                                 const std::string& algorithm);
/// The groups cube and conquer splits collective_steps_cnf along (smt/cube_and_conquer.hpp): for each chunk wanted at
/// a rank that does not start with it, "the rank holds it before the last step, or it arrives over one of the rank's
/// in-links in the last step" — the formula's arrival clause for the last step, less ¬held(c, r, S), which the
/// postcondition's unit clause falsifies — the pairs farthest apart first. The combining collectives split
/// combining_steps_cnf (built with `options`, whose rounds number its fresh variables): for each (chunk, rank) wanted
/// and each other rank's contribution, "a copy arrives in the last step, or the value held the contribution before it,
/// or a reduction over one of the rank's in-links brings it" — again the formula's clause less the literal the
/// postcondition falsifies — the contributions that travel farthest first.
std::vector<cubes::split_group> collective_split_groups(const topology& network, const collective& coll,
                                                        std::uint64_t steps, const synthesis_options& options = {});
/// A query as cube and conquer splits it: collective_steps_cnf, or combining_steps_cnf for the combining
/// collectives, with collective_split_groups — the formula built once (the combining groups name variables the
/// building numbers).
struct split_query {
  cnf_formula formula;
  std::vector<cubes::split_group> groups;
};
split_query collective_split_query(const topology& network, const collective& coll, std::uint64_t steps,
                                   const synthesis_options& options = {});

/// The least rounds R of a schedule of `steps` steps, rounds distributed over the steps as the solver likes (SCCL's
/// (C, S, R) point for S): asks R = S, S + 1, … (at most S + max_extra_rounds); proven when the witness passes the
/// checker and R − 1 was refuted by a checked DRAT proof (or R = S: a step has at least one round).
least_steps_result prove_least_rounds(const topology& network, const collective& coll, std::uint64_t steps,
                                      std::uint32_t max_extra_rounds, const synthesis_options& options = {});

/// Asks S = 0, 1, 2, … until a witness is found: proven when the witness passes the checker and the query one step
/// below was refuted by a DRAT proof the checker accepted; unknown on a budget, a rejected witness or proof, or
/// max_steps. All-reduce: asked directly (combining_steps_cnf); where that stays unknown, SCCL's composition — the
/// least reduce-scatter then the least all-gather — gives a witness the checker accepts as an upper bound.
least_steps_result prove_least_steps(const topology& network, const collective& coll,
                                     const synthesis_options& options = {});

}  // namespace dancecard::collective
