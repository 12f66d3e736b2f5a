// Least steps of a non-combining collective, proven with CaDiCaL, a checked witness and a checked DRAT proof (see the
// header; SCCL, Cai et al., PPoPP 2021, Section 4, in clauses instead of Z3's SMT, and the cardinality constraints as
// Sinz's sequential counters, "Towards an optimal CNF encoding of Boolean cardinality constraints", CP 2005).
#include "dancecard/smt/collective_synthesis.hpp"

#include <chrono>
#include <stdexcept>

#include "cnf_cardinality.hpp"

namespace dancecard::collective {

namespace {

struct layout {
  std::uint64_t chunks = 0, steps = 0;
  rank ranks = 0;
  std::size_t links = 0;
  // held(c, r, t): 1 + (t·n + r)·K + c; send(c, l, t) after them
  int held(std::uint64_t c, rank r, std::uint64_t t) const {
    return static_cast<int>(1 + (t * ranks + r) * chunks + c);
  }
  int send(std::uint64_t c, std::size_t l, std::uint64_t t) const {
    return static_cast<int>(1 + (steps + 1) * ranks * chunks + (t * links + l) * chunks + c);
  }
  int last() const { return static_cast<int>((steps + 1) * ranks * chunks + steps * links * chunks); }
};

layout make_layout(const topology& network, const collective& coll, std::uint64_t steps) {
  const std::uint64_t vars =
      (steps + 1) * coll.ranks * coll.chunk_count() + steps * network.links().size() * coll.chunk_count();
  if (vars > (std::uint64_t{1} << 28))
    throw std::invalid_argument("collective synthesis: " + std::to_string(vars) +
                                " variables for this query (at most 2^28)");
  return {coll.chunk_count(), steps, coll.ranks, network.links().size()};
}

}  // namespace

cnf_formula collective_steps_cnf(const topology& network, const collective& coll, std::uint64_t steps,
                                 const synthesis_options& options) {
  require_valid(coll);
  if (combining(coll.kind))
    throw std::invalid_argument("collective synthesis: " + std::string(to_string(coll.kind)) +
                                " combines; this encoding covers allgather, alltoall, broadcast, gather and scatter");
  if (coll.ranks != network.size())
    throw std::invalid_argument("collective synthesis: the collective has " + std::to_string(coll.ranks) +
                                " ranks, the network " + std::to_string(network.size()));
  if (options.ports == port_model::one_port_half_duplex)
    throw std::invalid_argument("collective synthesis: all-port or one-port-full-duplex");
  if (options.rounds_per_step < 1) throw std::invalid_argument("collective synthesis: rounds_per_step >= 1");
  const layout at = make_layout(network, coll, steps);
  const std::uint64_t K = coll.chunk_count();
  const rank n = coll.ranks;
  const auto& links = network.links();
  cnf_formula f;
  f.variables = at.last();
  f.comments.push_back("dancecard collective synthesis: " + coll.describe() + " on " + network.name() + " (" +
                       std::string(to_string(options.ports)) + "), " + std::to_string(steps) + " steps of " +
                       std::to_string(options.rounds_per_step) + " round(s)");
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
    for (std::uint64_t c = 0; c < K; ++c) {
      for (std::size_t l = 0; l < links.size(); ++l)  // a send only of a chunk held
        f.clauses.push_back({-at.send(c, l, t), at.held(c, links[l].from, t)});
      for (rank v = 0; v < n; ++v) {
        f.clauses.push_back({-at.held(c, v, t), at.held(c, v, t + 1)});  // what is held stays held
        std::vector<int> came{-at.held(c, v, t + 1), at.held(c, v, t)};  // held at t + 1: held at t, or arrived
        for (std::size_t l = 0; l < links.size(); ++l)
          if (links[l].to == v) came.push_back(at.send(c, l, t));
        f.clauses.push_back(std::move(came));
      }
    }
    for (std::size_t l = 0; l < links.size(); ++l) {  // capacity × rounds per link and step
      std::vector<int> over;
      for (std::uint64_t c = 0; c < K; ++c) over.push_back(at.send(c, l, t));
      detail::at_most(f, over, std::uint64_t{links[l].capacity} * options.rounds_per_step);
    }
    if (options.ports == port_model::one_port_full_duplex) {  // one peer to send to and one to receive from
      std::vector<int> used(links.size());
      for (std::size_t l = 0; l < links.size(); ++l) {
        used[l] = ++f.variables;
        for (std::uint64_t c = 0; c < K; ++c) f.clauses.push_back({-at.send(c, l, t), used[l]});
      }
      for (rank r = 0; r < n; ++r) {
        std::vector<int> out, in;
        for (std::size_t l = 0; l < links.size(); ++l) {
          if (links[l].from == r) out.push_back(used[l]);
          if (links[l].to == r) in.push_back(used[l]);
        }
        detail::at_most(f, out, 1);
        detail::at_most(f, in, 1);
      }
    }
  }
  return f;
}

least_steps_result prove_least_steps(const topology& network, const collective& coll,
                                     const synthesis_options& options) {
  least_steps_result out;
  std::optional<std::uint64_t> refuted;  // the most steps refuted by a checked proof
  for (std::uint64_t s = 0; s <= options.max_steps; ++s) {
    const auto start = std::chrono::steady_clock::now();
    const cnf_formula f = collective_steps_cnf(network, coll, s, options);
    synthesis_query q;
    q.steps = s;
    q.variables = static_cast<std::uint64_t>(f.variables);
    q.clauses = f.clauses.size();
    clausal_result solved = solve_with_proof(f, options.budget_ms);
    q.answer = solved.answer;
    auto done = [&] {
      q.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      out.queries.push_back(q);
    };
    if (solved.answer == solver_answer::unknown) {
      q.detail = "unknown: " + solved.reason;
      done();
      out.reason = std::to_string(s) + " steps: the solver gave no answer (" + solved.reason + ")";
      return out;
    }
    if (solved.answer == solver_answer::unsat) {
      const certificates::drat_report check = solved.proof.check(f.dimacs());
      if (check.outcome != verdict::holds) {
        q.detail = "unsat, but the DRAT proof was rejected: " + check.problem;
        done();
        out.reason = "disagreement: CaDiCaL's proof for " + std::to_string(s) + " steps was rejected";
        return out;
      }
      q.detail = "unsat, DRAT proof checked (" + std::to_string(check.checked_lemmas) + " of " +
                 std::to_string(check.lemmas) + " lemmas, " + std::to_string(check.core_clauses) + " core clauses of " +
                 std::to_string(check.original_clauses) + ")";
      refuted = s;
      done();
      continue;
    }
    // sat: decode the sends of chunks the receiver does not yet hold, and check the schedule
    const layout at = make_layout(network, coll, s);
    std::vector<char> truth(static_cast<std::size_t>(f.variables) + 1, 0);
    for (int v : solved.model)
      if (v > 0 && v <= f.variables) truth[static_cast<std::size_t>(v)] = 1;
    schedule w{network, options.ports, coll, {}, "least steps (CaDiCaL)"};
    for (std::uint64_t t = 0; t < s; ++t) {  // each chunk a rank lacks, once, over the first link the model uses
      step& st = w.steps.emplace_back(step{options.rounds_per_step, {}});
      std::vector<char> arrived(static_cast<std::size_t>(coll.ranks) * coll.chunk_count(), 0);
      for (std::size_t l = 0; l < network.links().size(); ++l)
        for (std::uint64_t c = 0; c < coll.chunk_count(); ++c) {
          const rank to = network.links()[l].to;
          char& once = arrived[static_cast<std::size_t>(to) * coll.chunk_count() + c];
          if (truth[static_cast<std::size_t>(at.send(c, l, t))] &&
              !truth[static_cast<std::size_t>(at.held(c, to, t))] && !once) {
            once = 1;
            st.transfers.push_back({c, network.links()[l].from, to, transfer_op::copy});
          }
        }
    }
    const collective_report check = check_collective_schedule(w);
    if (!check.holds()) {
      q.detail = "sat, but the decoded schedule was rejected: " + describe(check);
      done();
      out.reason = "disagreement: the witness for " + std::to_string(s) + " steps was rejected by the checker";
      return out;
    }
    q.detail = "sat, the decoded schedule holds (" + std::to_string(check.transfers) + " transfers)";
    done();
    out.steps = s;
    out.witness = std::move(w);
    if (s == 0 || (refuted && *refuted + 1 == s)) {
      out.status = proof_status::proven;
      out.reason = s == 0 ? std::string("0 steps: every rank starts with what it wants")
                          : std::to_string(s) + " steps: a schedule the checker accepts, and " + std::to_string(s - 1) +
                                (s == 2 ? " step" : " steps") + " refuted by a DRAT proof the checker accepts";
    } else {
      out.reason = std::to_string(s) + " steps found, but fewer were not refuted";
    }
    return out;
  }
  out.reason = "no schedule within " + std::to_string(options.max_steps) + " steps";
  return out;
}

}  // namespace dancecard::collective
