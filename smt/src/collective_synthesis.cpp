// Least steps of a non-combining collective, proven with CaDiCaL, a checked witness and a checked DRAT proof (see the
// header; SCCL, Cai et al., PPoPP 2021, Section 4, in clauses instead of Z3's SMT, and the cardinality constraints as
// Sinz's sequential counters, "Towards an optimal CNF encoding of Boolean cardinality constraints", CP 2005).
#include "dancecard/smt/collective_synthesis.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>

#include "cnf_cardinality.hpp"
#include "collective_cnf_parts.hpp"
#include "dancecard/core/collective/symmetry.hpp"
#include "dancecard/smt/collective_cut.hpp"

namespace dancecard::collective {

namespace {

using layout = cnf_parts::held_send_layout;

layout make_layout(const topology& network, const collective& coll, std::uint64_t steps) {
  return cnf_parts::make_held_send_layout(coll.chunk_count(), steps, coll.ranks, network.links().size());
}

}  // namespace

cnf_formula collective_steps_cnf(const topology& network, const collective& coll, std::uint64_t steps,
                                 const synthesis_options& options) {
  cnf_parts::require_synthesizable(network, coll, options);
  if (combining(coll.kind))
    throw std::invalid_argument("collective synthesis: " + std::string(to_string(coll.kind)) +
                                " combines; this encoding covers allgather, alltoall, broadcast, gather and scatter");
  const layout at = make_layout(network, coll, steps);
  const std::uint64_t K = coll.chunk_count();
  const rank n = coll.ranks;
  const auto& links = network.links();
  cnf_formula f;
  f.variables = at.last();
  const cnf_parts::round_spread spread = cnf_parts::spread_rounds(f, steps, options);
  f.comments.push_back(cnf_parts::query_comment(network, coll, steps, options));
  f.comments.push_back("held(c, r, t) = 1 + (t*" + std::to_string(n) + " + r)*" + std::to_string(K) +
                       " + c; send(c, link l, t) = " + std::to_string(at.send(0, 0, 0)) + " + (t*" +
                       std::to_string(links.size()) + " + l)*" + std::to_string(K) +
                       " + c; links sorted by (from, to)");
  // The precondition and the postcondition.
  for (std::uint64_t c = 0; c < K; ++c)
    for (rank r = 0; r < n; ++r) {
      f.clauses.push_back({coll.source(c) == r ? at.held(c, r, 0) : -at.held(c, r, 0)});
      if (coll.wanted(c, r)) f.clauses.push_back({at.held(c, r, steps)});
    }
  for (std::uint64_t t = 0; t < steps; ++t) {
    for (std::uint64_t c = 0; c < K; ++c) cnf_parts::chunk_moves(f, network, at, c, t);
    cnf_parts::require_within_limit(f, options);
    std::vector<std::vector<int>> sends(links.size());
    for (std::size_t l = 0; l < links.size(); ++l) {  // capacity × rounds per link and step
      for (std::uint64_t c = 0; c < K; ++c) sends[l].push_back(at.send(c, l, t));
      cnf_parts::limit_link(f, sends[l], links[l].capacity, t, options, spread);
    }
    if (options.ports == port_model::one_port_full_duplex)  // one peer to send to and one to receive from
      cnf_parts::one_port(f, network, sends);
  }
  return f;
}

namespace {

// Symmetries that map the collective onto itself, for the collectives without a root: a built-in network's
// translations (a group that moves rank 0 to every rank and fixes no rank, so rank 0's chunks fix an invariant
// schedule), else the generators of the network's whole automorphism group (DGX-1, files). Any automorphism g maps an
// all-gather or all-to-all schedule onto one: chunk (s, i) goes to (g(s), i), and (s, d, i) to (g(s), g(d), i).
struct collective_symmetries {
  std::vector<rank_permutation> generators;
  const char* what = "translations";
};
collective_symmetries symmetries_of(const topology& network, const collective& coll) {
  if (coll.kind != collective_kind::allgather && coll.kind != collective_kind::alltoall) return {};
  if (std::vector<rank_permutation> t = translations(network); !t.empty()) return {std::move(t), "translations"};
  return {automorphism_generators(network), "automorphisms"};
}

// held and send equal along the orbits of each generator: a schedule invariant under a generating set is invariant
// under the group.
void add_symmetry_equalities(cnf_formula& f, const topology& network, const collective& coll, std::uint64_t steps,
                             const std::vector<rank_permutation>& generators) {
  const layout at = make_layout(network, coll, steps);
  const std::uint64_t K = coll.chunk_count();
  const rank n = coll.ranks;
  const auto& links = network.links();
  auto same = [&f](int a, int b) {
    if (a == b) return;
    f.clauses.push_back({-a, b});
    f.clauses.push_back({a, -b});
  };
  for (const rank_permutation& g : generators) {
    std::vector<std::size_t> link_image(links.size());
    for (std::size_t l = 0; l < links.size(); ++l) link_image[l] = network.link_index(g[links[l].from], g[links[l].to]);
    for (std::uint64_t c = 0; c < K; ++c) {
      const std::uint64_t d = cnf_parts::chunk_image(coll, g, c);
      for (std::uint64_t t = 0; t <= steps; ++t)
        for (rank r = 0; r < n; ++r) same(at.held(c, r, t), at.held(d, g[r], t));
      for (std::uint64_t t = 0; t < steps; ++t)
        for (std::size_t l = 0; l < links.size(); ++l) same(at.send(c, l, t), at.send(d, link_image[l], t));
    }
  }
  f.comments.push_back("invariant under " + std::to_string(generators.size()) + " generator(s) of symmetries of " +
                       network.name());
}

}  // namespace

std::optional<cnf_formula> invariant_steps_cnf(const topology& network, const collective& coll, std::uint64_t steps,
                                               const synthesis_options& options) {
  const std::vector<rank_permutation> generators = symmetries_of(network, coll).generators;
  if (generators.empty()) return std::nullopt;
  cnf_formula f = collective_steps_cnf(network, coll, steps, options);
  add_symmetry_equalities(f, network, coll, steps, generators);
  return f;
}

schedule decode_collective_model(const topology& network, const collective& coll, std::uint64_t s,
                                 const synthesis_options& options, const std::vector<int>& model, int variables,
                                 const std::string& algorithm) {
  const layout at = make_layout(network, coll, s);
  const std::vector<char> truth = cnf_parts::truth_of(model, variables);
  schedule w = cnf_parts::steps_of_model(network, coll, s, options, truth, at.last() + 1, algorithm);
  for (std::uint64_t t = 0; t < s; ++t) {
    step& st = w.steps[t];
    std::vector<char> arrived(static_cast<std::size_t>(coll.ranks) * coll.chunk_count(), 0);
    for (std::size_t l = 0; l < network.links().size(); ++l)
      for (std::uint64_t c = 0; c < coll.chunk_count(); ++c) {
        const rank to = network.links()[l].to;
        char& once = arrived[static_cast<std::size_t>(to) * coll.chunk_count() + c];
        if (truth[static_cast<std::size_t>(at.send(c, l, t))] && !truth[static_cast<std::size_t>(at.held(c, to, t))] &&
            !once) {
          once = 1;
          st.transfers.push_back({c, network.links()[l].from, to, transfer_op::copy});
        }
      }
  }
  return w;
}

std::vector<cubes::split_group> collective_split_groups(const topology& network, const collective& coll,
                                                        std::uint64_t steps, const synthesis_options& options) {
  if (combining(coll.kind)) return cnf_parts::combining_split_query(network, coll, steps, options).groups;
  const layout at = make_layout(network, coll, steps);
  std::vector<cubes::split_group> out;
  if (steps == 0) return out;
  struct wanted_pair {
    std::uint64_t chunk;
    rank to;
    std::uint32_t distance;
  };
  std::vector<wanted_pair> pairs;
  std::vector<std::vector<std::uint32_t>> from(coll.ranks);  // distances from each source, computed once
  for (std::uint64_t c = 0; c < coll.chunk_count(); ++c) {
    const rank s = coll.source(c);
    if (from[s].empty()) from[s] = distances_from(network, s);
    for (rank r = 0; r < coll.ranks; ++r)
      if (r != s && coll.wanted(c, r)) pairs.push_back({c, r, from[s][r]});
  }
  // The farthest pairs first: their last step is the most constrained (ties by chunk, then rank).
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const wanted_pair& a, const wanted_pair& b) { return a.distance > b.distance; });
  for (const wanted_pair& p : pairs) {
    cubes::split_group g{"chunk " + std::to_string(p.chunk) + " at rank " + std::to_string(p.to), {}, {}};
    g.literals.push_back(at.held(p.chunk, p.to, steps - 1));
    g.values.push_back("chunk " + std::to_string(p.chunk) + " at rank " + std::to_string(p.to) +
                       " before the last step");
    for (std::size_t l = 0; l < network.links().size(); ++l)
      if (network.links()[l].to == p.to) {
        g.literals.push_back(at.send(p.chunk, l, steps - 1));
        g.values.push_back("chunk " + std::to_string(p.chunk) + " sent " + std::to_string(network.links()[l].from) +
                           " -> " + std::to_string(p.to) + " in the last step");
      }
    if (g.literals.size() >= 2) out.push_back(std::move(g));
  }
  return out;
}

std::uint32_t unbounded_rounds_per_step(const collective& coll) {
  // limit_link bounds each link's sends of a step, one per chunk (two for the combining collectives: a copy and a
  // reduction); capacity >= 1, so this many rounds leave that bound above the sends there can be.
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(2 * coll.chunk_count(), UINT32_MAX));
}

split_query collective_split_query(const topology& network, const collective& coll, std::uint64_t steps,
                                   const synthesis_options& options) {
  if (combining(coll.kind)) return cnf_parts::combining_split_query(network, coll, steps, options);
  return {collective_steps_cnf(network, coll, steps, options), collective_split_groups(network, coll, steps, options)};
}

namespace {

// One query, both of its answers checked: sat only with a decoded schedule the collective checker accepts, unsat only
// with a DRAT proof the DRAT checker accepts; anything else stops the search (unknown, with the reason).
struct asked {
  synthesis_query query;
  std::optional<schedule> witness;
  bool refuted = false;  // unsat, the proof checked
  std::string stop;      // why the search cannot go on
};

// The query for a witness the network's symmetries keep: in the quotient by the translations where they act
// regularly (quotient_steps_cnf), else the whole formula with the symmetries' equalities; nullopt where none applies.
struct invariant_query {
  std::shared_ptr<const cnf_formula> formula;  // the quotient's own, shared with the decoder, not copied
  std::function<schedule(const std::vector<int>& model, const std::string& algorithm)> decode;
  std::string under;  // " invariant under the network's translations" (or automorphisms)
};
std::optional<invariant_query> invariant_query_of(const topology& network, const collective& coll, std::uint64_t s,
                                                  const synthesis_options& options,
                                                  const std::function<const cnf_formula&()>& whole) {
  const collective_symmetries sym = symmetries_of(network, coll);
  if (sym.generators.empty()) return std::nullopt;
  const std::string under = std::string(" invariant under the network's ") + sym.what;
  if (std::optional<quotient_query> quotient = quotient_steps_cnf(network, coll, s, options)) {
    auto shared = std::make_shared<const quotient_query>(std::move(*quotient));
    return invariant_query{std::shared_ptr<const cnf_formula>(shared, &shared->formula),
                           [=, &network, &coll](const std::vector<int>& model, const std::string& algorithm) {
                             return decode_quotient_model(network, coll, s, options, *shared, model, algorithm);
                           },
                           under};
  }
  cnf_formula g = whole();
  add_symmetry_equalities(g, network, coll, s, sym.generators);
  const int variables = g.variables;
  return invariant_query{std::make_shared<const cnf_formula>(std::move(g)),
                         [=, &network, &coll](const std::vector<int>& model, const std::string& algorithm) {
                           return decode_collective_model(network, coll, s, options, model, variables, algorithm);
                         },
                         under};
}

asked ask(const topology& network, const collective& coll, std::uint64_t s, const synthesis_options& options) {
  asked out;
  const auto start = std::chrono::steady_clock::now();
  synthesis_query& q = out.query;
  q.steps = s;
  auto finish = [&] { q.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::string cut_rejected;
  if (options.cut_certificates && options.ports == port_model::all_port) {
    const std::uint64_t rounds = options.total_rounds ? *options.total_rounds : s * options.rounds_per_step;
    if (std::optional<cut_refutation> cut = refute_by_cut(network, coll, s, rounds)) {
      if (cut->accepted) {
        q.answer = solver_answer::unsat;
        q.detail = "unsat by a cut: " + cut->detail;
        q.certificate = std::move(cut->certificate);
        out.refuted = true;
        finish();
        return out;
      }
      cut_rejected = " (" + cut->detail + ")";  // a fault of the certificate's writer: said, and CaDiCaL asked instead
    }
  }
  const std::string what = std::to_string(s) + " steps" +
                           (options.total_rounds ? " and " + std::to_string(*options.total_rounds) + " rounds" : "");
  // First a schedule the symmetries map onto themselves: a witness like any other when there is one; when not,
  // nothing follows from it, and the whole query is asked — or, where its formula passes the clause limit, the
  // invariant query goes on with the rest of the budget (its conflicts no longer capped).
  const bool combines = combining(coll.kind);
  std::optional<cnf_formula> whole;  // built only when asked: the quotient does without it
  auto whole_formula = [&]() -> const cnf_formula& {
    if (!whole)
      whole =
          combines ? combining_steps_cnf(network, coll, s, options) : collective_steps_cnf(network, coll, s, options);
    return *whole;
  };
  std::string invariant_note;
  std::optional<invariant_query> iq;
  try {
    if (options.symmetric_witnesses && s > 0) iq = invariant_query_of(network, coll, s, options, whole_formula);
  } catch (const formula_too_large& e) {
    invariant_note = std::string("; no invariant query: ") + e.what();
  }
  std::optional<resumable_solve> invariant;
  // A model of the invariant query: decoded and judged by the checker like any witness.
  auto witness_from = [&](const clausal_result& found) {
    q.variables = static_cast<std::uint64_t>(iq->formula->variables);
    q.clauses = iq->formula->clauses.size();
    q.answer = solver_answer::sat;
    schedule w = iq->decode(found.model, "least steps (CaDiCaL," + iq->under + ")");
    const collective_report check = check_collective_schedule(w);
    if (!check.holds()) {
      q.detail = "sat, but the decoded invariant schedule was rejected: " + describe(check);
      out.stop = "disagreement: the witness for " + what + " was rejected by the checker";
    } else {
      q.detail = "sat, a schedule" + iq->under + ", which holds (" + std::to_string(check.transfers) + " transfers, " +
                 std::to_string(check.rounds) + " rounds)";
      out.witness = std::move(w);
    }
    finish();
    return out;
  };
  if (iq) {
    invariant.emplace(*iq->formula);
    const clausal_result found = invariant->solve(options.budget_ms, options.cancel, options.symmetric_conflicts);
    if (found.answer == solver_answer::sat) return witness_from(found);
    invariant_note =
        found.answer == solver_answer::unsat
            ? "; no schedule" + iq->under
            : "; no invariant schedule within " + std::to_string(options.symmetric_conflicts) + " conflicts";
    if (found.answer == solver_answer::unsat) invariant.reset();
  }
  const cnf_formula* whole_or_none = nullptr;
  try {
    whole_or_none = &whole_formula();
  } catch (const formula_too_large& e) {  // a resource limit: unknown, as on a budget
    if (invariant) {  // the whole query cannot be asked: the invariant one goes on with what is left of the budget
      const double spent_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      const unsigned left_ms =
          options.budget_ms == 0 ? 0 : static_cast<unsigned>(std::max(1.0, options.budget_ms - spent_ms));
      const clausal_result found = invariant->solve(left_ms, options.cancel);
      if (found.answer == solver_answer::sat) return witness_from(found);
      invariant_note = found.answer == solver_answer::unsat ? "; no schedule" + iq->under
                                                            : "; no invariant schedule within the budget";
    }
    q.detail = std::string("unknown: ") + e.what() + invariant_note;
    out.stop = what + ": " + e.what();
    finish();
    return out;
  }
  invariant.reset();
  const cnf_formula& f = *whole_or_none;
  q.variables = static_cast<std::uint64_t>(f.variables);
  q.clauses = f.clauses.size();
  clausal_result solved = solve_with_proof(f, options.budget_ms, drat_encoding::binary, options.cancel);
  q.answer = solved.answer;
  if (solved.answer == solver_answer::unknown) {
    q.detail = "unknown: " + solved.reason + invariant_note;
    out.stop = what + ": the solver gave no answer (" + solved.reason + ")";
    finish();
    return out;
  }
  if (solved.answer == solver_answer::unsat) {
    const certificates::drat_report check = solved.proof.check(f.dimacs());
    if (check.outcome != verdict::holds) {
      q.detail = "unsat, but the DRAT proof was rejected: " + check.problem;
      out.stop = "disagreement: CaDiCaL's proof for " + what + " was rejected";
    } else {
      q.detail = "unsat, DRAT proof checked (" + std::to_string(check.checked_lemmas) + " of " +
                 std::to_string(check.lemmas) + " lemmas, " + std::to_string(check.core_clauses) + " core clauses of " +
                 std::to_string(check.original_clauses) + ")" + cut_rejected + invariant_note;
      out.refuted = true;
    }
    finish();
    return out;
  }
  // sat: each chunk a rank lacks, once, over the first link the model uses; the rounds the model gives each step
  schedule w =
      combines ? decode_combining_model(network, coll, s, options, solved.model, f.variables,
                                        "least steps (CaDiCaL, combining)")
               : decode_collective_model(network, coll, s, options, solved.model, f.variables, "least steps (CaDiCaL)");
  const collective_report check = check_collective_schedule(w);
  if (!check.holds()) {
    q.detail = "sat, but the decoded schedule was rejected: " + describe(check);
    out.stop = "disagreement: the witness for " + what + " was rejected by the checker";
  } else {
    q.detail = "sat, the decoded schedule holds (" + std::to_string(check.transfers) + " transfers, " +
               std::to_string(check.rounds) + " rounds)" + invariant_note;
    out.witness = std::move(w);
  }
  finish();
  return out;
}

}  // namespace

namespace {

// How a query was refuted, for the reason's sentence.
std::string refuted_by(const synthesis_query& q) {
  return q.certificate.empty() ? "a DRAT proof the checker accepts"
                               : "a cut's cutting-planes certificate the checker accepts";
}

least_steps_result search_least_steps(const topology& network, const collective& coll,
                                      const synthesis_options& options) {
  least_steps_result out;
  synthesis_options per_step = options;
  per_step.total_rounds.reset();
  for (std::uint64_t s = 0; s <= options.max_steps; ++s) {
    asked a = ask(network, coll, s, per_step);
    out.queries.push_back(a.query);
    if (!a.stop.empty()) {
      out.reason = a.stop;
      return out;
    }
    if (a.refuted) continue;  // every query below the first witness was refuted (else the search stopped)
    out.steps = s;
    out.witness = std::move(a.witness);
    out.status = proof_status::proven;
    out.reason = s == 0 ? std::string("0 steps: every rank starts with what it wants")
                        : std::to_string(s) + " steps: a schedule the checker accepts, and " + std::to_string(s - 1) +
                              (s == 2 ? " step" : " steps") + " refuted by " + refuted_by(out.queries[s - 1]);
    return out;
  }
  out.reason = "no schedule within " + std::to_string(options.max_steps) + " steps";
  return out;
}

least_steps_result search_least_rounds(const topology& network, const collective& coll, std::uint64_t steps,
                                       std::uint32_t max_extra_rounds, const synthesis_options& options) {
  least_steps_result out;
  synthesis_options per_round = options;
  for (std::uint64_t r = steps; r <= steps + max_extra_rounds; ++r) {
    per_round.total_rounds = static_cast<std::uint32_t>(r);
    asked a = ask(network, coll, steps, per_round);
    out.queries.push_back(a.query);
    if (!a.stop.empty()) {
      out.reason = a.stop;
      return out;
    }
    if (a.refuted) continue;
    out.steps = steps;
    out.witness = std::move(a.witness);
    out.status = proof_status::proven;
    out.reason = std::to_string(r) + " rounds in " + std::to_string(steps) +
                 " steps: a schedule the checker accepts, " +
                 (r == steps ? std::string("and a step has at least one round")
                             : "and " + std::to_string(r - 1) + (r == 2 ? " round" : " rounds") + " refuted by " +
                                   refuted_by(out.queries[out.queries.size() - 2]));
    return out;
  }
  out.reason = "no schedule of " + std::to_string(steps) + " steps within " + std::to_string(steps + max_extra_rounds) +
               " rounds";
  return out;
}

// The inversion (SCCL, Cai et al., PPoPP 2021, Section 4.3): a reduce-scatter (reduce) schedule run backwards, every
// link turned round and every reduction read as a copy, is an all-gather (broadcast from the same root) schedule on the
// turned network with the same steps and rounds — each contribution's path to the rank that wants the sum becomes that
// rank's chunk's path to the contributor. So "no all-gather on the turned network in S − 1 steps" (a checked DRAT
// proof) means no reduce-scatter in S − 1; and an all-gather witness whose every rank receives each chunk once (a
// tree per chunk) runs backwards as a reduce-scatter whose partial sums go up those trees, which the checker then
// judges on its own.
least_steps_result by_inversion(const topology& network, const collective& coll,
                                const std::function<least_steps_result(const topology&, const collective&)>& search) {
  std::vector<link> turned;
  for (const link& l : network.links()) turned.push_back({l.to, l.from, l.capacity});
  const topology reversed(network.name() + " turned", network.size(), std::move(turned));
  const collective dual{coll.kind == collective_kind::reduce ? collective_kind::broadcast : collective_kind::allgather,
                        coll.ranks, coll.chunks, coll.root};
  least_steps_result out = search(reversed, dual);
  for (synthesis_query& q : out.queries) q.detail = "the dual " + std::string(to_string(dual.kind)) + ": " + q.detail;
  if (!out.witness) {
    out.reason = "by inversion (" + std::string(to_string(dual.kind)) + " on the turned network): " + out.reason;
    return out;
  }
  schedule w{network, out.witness->ports, coll, {}, "least steps (CaDiCaL, by inversion)"};
  for (auto st = out.witness->steps.rbegin(); st != out.witness->steps.rend(); ++st) {
    step& back = w.steps.emplace_back(step{st->rounds, {}});
    for (const transfer& t : st->transfers) back.transfers.push_back({t.chunk, t.to, t.from, transfer_op::reduce});
  }
  const collective_report check = check_collective_schedule(w);
  if (!check.holds()) {
    out.status = proof_status::unknown;
    out.witness.reset();
    out.reason = "disagreement: the inverted witness was rejected by the checker: " + describe(check);
    return out;
  }
  out.witness = std::move(w);
  out.reason = "by inversion (" + std::string(to_string(dual.kind)) + " on the turned network): " + out.reason +
               "; the inverted schedule holds as a " + std::string(to_string(coll.kind));
  return out;
}

bool inverted(const collective& coll) {
  return coll.kind == collective_kind::reduce_scatter || coll.kind == collective_kind::reduce;
}

}  // namespace

// All-reduce as SCCL composes it (Section 4.3): the least reduce-scatter (by inversion) and then the least all-gather
// of the same chunks — after the first, rank r holds the whole sum of its block, which the second spreads. Each half
// is proven least, the whole only an upper bound: a direct all-reduce may interleave them. So the answer is unknown
// with a witness the checker accepts as an all-reduce, never "proven" (prove_least_steps asks for it only where the
// direct all-reduce queries stopped).
least_steps_result compose_allreduce(const topology& network, const collective& coll,
                                     const synthesis_options& options) {
  least_steps_result out;
  const collective rs{collective_kind::reduce_scatter, coll.ranks, coll.chunks, 0};
  const collective ag{collective_kind::allgather, coll.ranks, coll.chunks, 0};
  least_steps_result first = prove_least_steps(network, rs, options);
  out.queries = first.queries;
  if (first.status != proof_status::proven) {
    out.reason = "the reduce-scatter half: " + first.reason;
    return out;
  }
  least_steps_result second = prove_least_steps(network, ag, options);
  out.queries.insert(out.queries.end(), second.queries.begin(), second.queries.end());
  if (second.status != proof_status::proven) {
    out.reason = "the all-gather half: " + second.reason;
    return out;
  }
  schedule w{network, options.ports, coll, first.witness->steps, "reduce-scatter then all-gather (CaDiCaL)"};
  w.steps.insert(w.steps.end(), second.witness->steps.begin(), second.witness->steps.end());
  const collective_report check = check_collective_schedule(w);
  if (!check.holds()) {
    out.reason = "disagreement: the composed all-reduce was rejected by the checker: " + describe(check);
    return out;
  }
  out.steps = w.steps.size();
  out.reason = "an all-reduce in " + std::to_string(first.steps) + " + " + std::to_string(second.steps) +
               " steps that the checker accepts, each half proven least (reduce-scatter: " + first.reason +
               "; all-gather: " + second.reason + "); fewer steps are not ruled out (the step lower bound is " +
               std::to_string(check.step_bound) + ")";
  out.witness = std::move(w);
  return out;
}

least_steps_result prove_least_steps(const topology& network, const collective& coll,
                                     const synthesis_options& options) {
  if (coll.kind == collective_kind::allreduce) {
    least_steps_result direct = search_least_steps(network, coll, options);
    if (direct.status == proof_status::proven || direct.witness) return direct;
    // The direct queries stopped without a witness: the composition's witness, an upper bound.
    least_steps_result composed = compose_allreduce(network, coll, options);
    direct.queries.insert(direct.queries.end(), composed.queries.begin(), composed.queries.end());
    if (composed.witness) {
      direct.steps = composed.steps;
      direct.witness = std::move(composed.witness);
    }
    direct.reason += "; by composition: " + composed.reason;
    return direct;
  }
  if (!inverted(coll)) return search_least_steps(network, coll, options);
  return by_inversion(network, coll,
                      [&](const topology& n, const collective& c) { return search_least_steps(n, c, options); });
}

least_steps_result prove_least_rounds(const topology& network, const collective& coll, std::uint64_t steps,
                                      std::uint32_t max_extra_rounds, const synthesis_options& options) {
  if (!inverted(coll)) return search_least_rounds(network, coll, steps, max_extra_rounds, options);
  return by_inversion(network, coll, [&](const topology& n, const collective& c) {
    return search_least_rounds(n, c, steps, max_extra_rounds, options);
  });
}

}  // namespace dancecard::collective
