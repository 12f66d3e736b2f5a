// Solving one torus gossip query with CaDiCaL: sat answers are decoded to a table and simulated by the checker, unsat
// answers are certified by checking the DRAT proof with checkers/drat_check; and the minimum over step counts.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "cnf_cardinality.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/core/torus/group_orbits.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "torus_cnf_detail.hpp"
#include "torus_search.hpp"

namespace dancecard::torus {

using namespace torus_cnf_detail;

namespace torus_cnf_detail {

// The table of a model of torus_gossip_cnf (PUs of one orbit read their orbit's variables).
routing_table decode_table(const torus::network& network, const torus_variables& v, const std::vector<int>& model_true,
                           int variables) {
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  std::vector<char> truth(static_cast<std::size_t>(variables) + 1, 0);
  for (int lit : model_true) truth[static_cast<std::size_t>(lit)] = 1;
  if (v.model == torus_model::pairing) {
    const auto pairings = port_pairings(network.dimension());
    std::vector<std::uint32_t> partner(static_cast<std::size_t>(P) * ports);
    for (pu_index pu = 0; pu < P; ++pu)
      for (std::uint32_t c = 0; c < v.pairings; ++c)
        if (truth[static_cast<std::size_t>(v.choice(pu, c))])
          for (std::uint32_t o = 0; o < ports; ++o) partner[pu * ports + o] = pairings[c][o];
    return pairing_table(network, partner, packets_per_pu::one);
  }
  routing_table general{network,
                        1,
                        std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, no_port),
                        std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, 0),
                        {}};
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t o = 0; o < ports; ++o)
      for (std::uint32_t in = 0; in < ports; ++in)
        if (truth[static_cast<std::size_t>(v.sel(pu, o, in))]) general.forward_at(pu, o) = in;
  return general;
}

// A sat answer counts only with its decoded table simulated within `steps`.
void accept_witness(torus_query_result& out, routing_table table, std::uint64_t steps) {
  const gossip_report run = simulate_gossip(table, steps);
  if (run.holds()) {
    out.witness = std::move(table);
    out.reason = "witness table completes in " + std::to_string(run.steps) + " steps (simulated)";
  } else {
    out.answer = solver_answer::unknown;
    out.reason = "the decoded table fails in the simulator: " + describe(run);
  }
}

// An unsat answer stands only when checkers/drat_check accepts its DRAT proof for the formula: out.reason then says
// what was checked, after `what`; otherwise out is unknown, saying why. Returns the formula's DIMACS text.
std::string check_unsat(torus_query_result& out, const clausal_result& solved, const cnf_formula& f,
                        const std::string& what) {
  std::string dimacs = f.dimacs();
  // Below the counting or parity bound the count writes the empty clause: the proof is then that clause, and the
  // answer rests on the count's argument (add_arrival_count), not on a search — the reason says so.
  std::string by;
  if (std::any_of(f.clauses.begin(), f.clauses.end(), [](const std::vector<int>& c) { return c.empty(); })) {
    const bool parity = std::any_of(f.comments.begin(), f.comments.end(), [](const std::string& c) {
      return c.find(below_parity_bound) != std::string::npos;
    });
    by = parity ? " by the parity count alone (packets move one hop per step, so some PU has fewer in-slots in the "
                  "steps of one parity than "
                  "packets only those steps can bring; no search)"
                : " by the counting bound alone (some PU has fewer in-slots than packets to learn; no search)";
  }
  const auto checking = std::chrono::steady_clock::now();
  const certificates::drat_report check = solved.proof.check(dimacs);
  if (check.outcome == verdict::holds) {
    // the split of the time: long queries spend as much in the check as in the solver, or more
    const double check_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - checking).count();
    char times[96];
    std::snprintf(times, sizeof times, "; CaDiCaL %.1f s, check %.1f s", solved.seconds, check_seconds);
    out.answer = solver_answer::unsat;
    out.reason = what + by + ", DRAT proof checked (" + std::to_string(check.checked_lemmas) + " of " +
                 std::to_string(check.lemmas) + " lemmas, " + std::to_string(check.core_clauses) + " core clauses of " +
                 std::to_string(f.clauses.size()) + times + ")";
  } else {
    out.answer = solver_answer::unknown;
    out.reason = "CaDiCaL said unsat but its DRAT proof was not accepted: " + describe(check);
  }
  return dimacs;
}

}  // namespace torus_cnf_detail

routing_table detail::decode_full_table(const torus::network& network, torus_model model, std::uint64_t steps,
                                        const std::vector<int>& model_true, int variables) {
  return decode_table(network, layout(network, model, steps), model_true, variables);
}

torus_query_result solve_torus_clausal(const torus::network& network, torus_model model, std::uint64_t steps,
                                       unsigned budget_ms, torus_symmetry symmetry, bool keep_certificate,
                                       const std::atomic<bool>* cancel) {
  const auto start = std::chrono::steady_clock::now();
  const cnf_formula f = torus_gossip_cnf(network, model, steps, {.symmetry = symmetry});
  torus_query_result out = solve_full_query(
      f, steps, budget_ms, keep_certificate,
      [&](const std::vector<int>& true_literals) {
        return detail::decode_full_table(network, model, steps, true_literals, f.variables);
      },
      cancel);
  out.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();  // building the CNF included
  return out;
}

torus_minimum_result detail::prove_clausal_minimum(const torus::network& network, torus_model model, unsigned budget_ms,
                                                   const torus_minimum_options& options) {
  const std::atomic<bool>* cancel = options.cancel;
  // Each step count is first asked of the tables invariant under a group (translations, then point groups, in the
  // rounds of search_invariant_table; quick_invariant_witness). A sat answer there is a simulated witness like any
  // other; only the full query's unsat counts as a lower bound.
  auto query = [&](std::uint64_t steps) {
    if (torus_query_result quick = detail::quick_invariant_witness(network, model, steps, budget_ms, 1, cancel);
        quick.answer == solver_answer::sat)
      return quick;
    return solve_torus_clausal(network, model, steps, budget_ms, torus_symmetry::automorphisms,
                               options.keep_certificate, cancel);
  };
  return detail::search_torus_minimum(
      network, model == torus_model::pairing, options.max_steps, query,
      [&](std::uint64_t steps) { return detail::heuristic_witness(network, model, steps, budget_ms); }, 1,
      options.on_query, cancel);
}

torus_minimum_result prove_torus_minimum(const torus::network& network, torus_model model, unsigned budget_ms,
                                         const torus_minimum_options& options) {
  if (options.engine == torus_engine::z3) {
    if (model != torus_model::pairing || options.packets != 1)
      throw std::invalid_argument(
          "torus minimum by Z3: the pairing model with one packet per PU only (the clausal engine takes the others)");
    return detail::prove_z3_pairing_minimum(network, budget_ms, options);
  }
  if (options.packets != 1) return detail::prove_packets_minimum(network, model, budget_ms, options);
  return detail::prove_clausal_minimum(network, model, budget_ms, options);
}

}  // namespace dancecard::torus
