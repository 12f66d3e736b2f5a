// Internal to smt/: what the files of the torus gossip CNF share (its variable layouts, the decoder of a model, the
// solving of one query). Not installed.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cnf_cardinality.hpp"
#include "dancecard/core/torus/group_orbits.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/torus_encoding.hpp"

namespace dancecard::torus::torus_cnf_detail {

// The words by which the empty clause below the parity bound is told apart in the CNF's comments (check_unsat).
inline constexpr std::string_view below_parity_bound = "below the parity bound";

// The variables of the one-packet CNF (torus_cnf_layout.cpp).
struct torus_variables {
  const torus::network& net;
  torus_model model;
  std::uint64_t steps;
  std::uint32_t ports, pairings;
  std::vector<pu_index> orbit;        // orbit[pu]: the PU whose choice pu shares (itself without a group)
  std::vector<std::int64_t> tracked;  // tracked[u]: the index of u's packet among the x variables, or -1
  std::uint64_t packets = 0;          // how many packets the x variables follow
  int choice_count = 0;
  // With a group that relabels ports (torus_symmetric_cnf; empty otherwise): port o of pu is port port_map[pu][o] of
  // orbit[pu], and pairing c of pu is pairing pairing_map[pu][c] of orbit[pu].
  std::vector<std::vector<std::uint32_t>> port_map, pairing_map;
  // With such a group: preimage[pu][a] = g⁻¹(a) for the element g that port_map[pu] describes (orbit[pu] to pu).
  std::vector<std::vector<pu_index>> preimage;
  // With such a group: its normalizer, one element ψ per coset other than the group, as (σ_ψ, ψ⁻¹(0)) (orbits_of).
  std::vector<std::pair<std::vector<std::uint32_t>, pu_index>> normalizer;
  // choice(pu, c) (pairing) or sel(pu, out, in) (general), 1-based; PUs of one orbit share their variables
  int choice(pu_index pu, std::uint32_t c) const {
    return static_cast<int>(orbit[pu] * pairings + (pairing_map.empty() ? c : pairing_map[pu][c]) + 1);
  }
  int sel(pu_index pu, std::uint32_t out, std::uint32_t in) const {
    if (!port_map.empty()) out = port_map[pu][out], in = port_map[pu][in];
    return static_cast<int>((orbit[pu] * ports + out) * ports + in + 1);
  }
  // x(t, link, u) for t >= 2, link = pu · ports + out, u a tracked packet
  int x(std::uint64_t t, std::uint64_t link, pu_index u) const {
    return choice_count + static_cast<int>(((t - 2) * net.size() * ports + link) * packets +
                                           static_cast<std::uint64_t>(tracked[u]) + 1);
  }
};

// The layout without a group (orbit empty) or with the orbit map of a group of translations (torus_cnf_layout.cpp).
torus_variables layout(const torus::network& network, torus_model model, std::uint64_t steps,
                       const std::vector<pu_index>& orbit = {});
// The layout of torus_symmetric_cnf: each PU reads its orbit's least PU's variables through a port relabelling.
torus_variables symmetric_layout(const torus::network& network, torus_model model, std::uint64_t steps,
                                 const detail::group_orbits& group);
// image[c]: the index of σ·(pairing c), the pairing that pairs σ(o) with σ(o') where pairing c pairs o with o'.
std::vector<std::uint32_t> pairing_image(const std::vector<std::vector<std::uint32_t>>& pairings,
                                         const std::vector<std::uint32_t>& sigma);
// The lexicographic-leader symmetry break at PU 0 (why it is sound: at its definition).
void add_symmetry_break(cnf_formula& f, const torus::network& network, const torus_variables& v,
                        const std::vector<std::vector<std::uint32_t>>& pairings, bool translations_only,
                        bool line_swaps, bool hypercube);

// The model's rules shared by the one-packet and the K-packet CNF (torus_cnf.cpp, torus_packets_cnf.cpp).
// Exactly one pairing at pu (pairing model), over any layout with choice(pu, c) and `pairings`.
template <class Variables>
void add_one_pairing(cnf_formula& f, const Variables& v, pu_index pu) {
  std::vector<int> some;
  for (std::uint32_t c = 0; c < v.pairings; ++c) some.push_back(v.choice(pu, c));
  f.clauses.push_back(some);
  for (std::uint32_t a = 0; a < v.pairings; ++a)
    for (std::uint32_t b = a + 1; b < v.pairings; ++b) f.clauses.push_back({-v.choice(pu, a), -v.choice(pu, b)});
}

// The general model's rule at out-port o of pu: at most one in-port forwarded; unless base_only also the implied "at
// least one". Sound because a forward only adds transfers on a link that would otherwise be idle; it never removes or
// delays a delivery, so a table with an idle out-port completes no later once that port forwards anything.
template <class Variables>
void add_out_port_rule(cnf_formula& f, const Variables& v, pu_index pu, std::uint32_t o, bool base_only) {
  for (std::uint32_t a = 0; a < v.ports; ++a)
    for (std::uint32_t b = a + 1; b < v.ports; ++b) f.clauses.push_back({-v.sel(pu, o, a), -v.sel(pu, o, b)});
  if (base_only) return;
  std::vector<int> some;
  for (std::uint32_t in = 0; in < v.ports; ++in) some.push_back(v.sel(pu, o, in));
  f.clauses.push_back(some);
}

// The justification of a transfer x — "out-port o of a PU carries a packet in step t" — by the PU's rule: for each
// pairing c (choice(c)) or in-port i (sel(i)) it might use, that in-port carried the packet in step t − 1
// (previous(i): a literal, 0 for constant false, INT32_MAX for constant true); in the general model x also needs
// some in-port chosen.
template <class Previous, class Choice, class Sel>
void justify(cnf_formula& f, torus_model model, const std::vector<std::vector<std::uint32_t>>& pairings,
             std::uint32_t ports, std::uint32_t o, int x, Previous&& previous, Choice&& choice, Sel&& sel) {
  auto add = [&](int chosen, std::uint32_t in) {
    const int prev = previous(in);
    if (prev == INT32_MAX) return;
    if (prev == 0)
      f.clauses.push_back({-x, -chosen});
    else
      f.clauses.push_back({-x, -chosen, prev});
  };
  if (model == torus_model::pairing) {
    for (std::uint32_t c = 0; c < pairings.size(); ++c) add(choice(c), pairings[c][o]);
    return;
  }
  std::vector<int> some{-x};
  for (std::uint32_t in = 0; in < ports; ++in) {
    add(sel(in), in);
    some.push_back(sel(in));
  }
  f.clauses.push_back(some);
}

// A model of the one-packet CNF as a table (torus_clausal.cpp, beside the solving).
routing_table decode_table(const torus::network& network, const torus_variables& v, const std::vector<int>& model_true,
                           int variables);

// The K-packet CNF (torus_packets_cnf.cpp): its precondition on K (std::invalid_argument), and a model as a table.
void require_packets(const torus::network& network, std::uint32_t packets);
routing_table decode_packets(const torus::network& network, torus_model model, std::uint32_t packets,
                             std::uint64_t steps, const std::vector<pu_index>& orbit,
                             const std::vector<int>& true_literals, int variables);

using dancecard::detail::at_most;  // Sinz's sequential counter (cnf_cardinality.hpp)

// A witness of a sat answer: simulated by the checker, accepted in `out` when it completes within `steps`.
void accept_witness(torus_query_result& out, routing_table table, std::uint64_t steps);
// An unsat answer certified: its DRAT proof checked against f; returns what failed ("" when certified).
std::string check_unsat(torus_query_result& out, const clausal_result& solved, const cnf_formula& f,
                        const std::string& what);

// A full query solved: sat with the table decode(model) simulated within `steps`, unsat with its DRAT proof checked
// (and, keep_certificate, the DIMACS and the text proof kept in the answer).
template <class Decode>
torus_query_result solve_full_query(const cnf_formula& f, std::uint64_t steps, unsigned budget_ms,
                                    bool keep_certificate, Decode&& decode, const std::atomic<bool>* cancel = nullptr) {
  torus_query_result out;
  const auto start = std::chrono::steady_clock::now();
  clausal_result solved =
      solve_with_proof(f, budget_ms, keep_certificate ? drat_encoding::text : drat_encoding::binary, cancel);
  out.answer = solved.answer;
  out.reason = solved.reason;
  if (solved.answer == solver_answer::sat) {
    accept_witness(out, decode(solved.model), steps);
  } else if (solved.answer == solver_answer::unsat) {
    std::string dimacs = check_unsat(out, solved, f, "unsat");
    if (keep_certificate && out.answer == solver_answer::unsat) {
      out.formula = std::move(dimacs);
      out.proof = solved.proof;
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::torus::torus_cnf_detail
