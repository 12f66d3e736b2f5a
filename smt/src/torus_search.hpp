// The upward search for the least number of steps shared by the Z3 and the clausal torus encodings.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <vector>

#include "dancecard/formats/torus_catalogue.hpp"
#include "dancecard/search/torus_tables.hpp"
#include "dancecard/smt/torus_encoding.hpp"

namespace dancecard::torus::detail {

/// The table of a model of torus_gossip_cnf over all tables (no orbit map): each PU's pairing, or each out-port's
/// in-port, read off the choice variables (`variables`: the formula's count; extra units of a cube do not matter).
routing_table decode_full_table(const torus::network& network, torus_model model, std::uint64_t steps,
                                const std::vector<int>& model_true, int variables);
/// torus_minimum_options::on_query.
using minimum_progress =
    std::function<void(std::uint64_t steps, std::uint64_t proven_lower, std::uint64_t upper_bound)>;

/// prove_torus_minimum's engines: the clausal search with one packet, with k packets (torus_packets_cnf), and Z3's
/// pairing-model search (as torus_encoding.hpp's prove_torus_minimum documents each); they read max_steps,
/// keep_certificate, on_query and cancel of `options` (and packets, the second).
torus_minimum_result prove_clausal_minimum(const torus::network& network, torus_model model, unsigned budget_ms,
                                           const torus_minimum_options& options);
torus_minimum_result prove_packets_minimum(const torus::network& network, torus_model model, unsigned budget_ms,
                                           const torus_minimum_options& options);
torus_minimum_result prove_z3_pairing_minimum(const torus::network& network, unsigned timeout_ms,
                                              const torus_minimum_options& options);

/// The rounds of search_invariant_table, over `questions` questions numbered 0, 1, …: every question still open is
/// asked with the round's budget, and those out of time come back in the next round with twice as much, up to cap_ms
/// (0: no cap). The first round is one pass over all questions with half the budget shared out equally (at least
/// 100 ms each), so that the questions that answer at once are all asked before a hard one takes more; the later
/// rounds give the rest to those still open. It stops at the first sat,
/// when every question is answered or was asked with the cap, or when budget_ms is spent (elapsed_ms() tells what is:
/// the clock, or a scripted one in the tests); a question never gets more than what is left. ask(q, ms) answers sat,
/// unsat or unknown (out of its ms); whether it goes on where it stopped the round before is up to it.
struct rounds_outcome {
  std::optional<std::size_t> sat;  // the question answered sat
  // asked: at least once; unsat: answered so; unknown: asked and still open at the end; queries: calls of ask
  std::uint64_t asked = 0, unsat = 0, unknown = 0, queries = 0, rounds = 0;
};
template <class Ask, class Elapsed>
rounds_outcome ask_in_rounds(std::size_t questions, unsigned budget_ms, unsigned cap_ms, Ask&& ask,
                             Elapsed&& elapsed_ms) {
  rounds_outcome out;
  if (questions == 0 || budget_ms == 0) return out;
  const unsigned cap = cap_ms == 0 ? budget_ms : std::min(cap_ms, budget_ms);
  unsigned round_ms =
      static_cast<unsigned>(std::min<std::uint64_t>(cap, std::max<std::uint64_t>(budget_ms / (2 * questions), 100)));
  std::vector<std::size_t> open(questions);
  for (std::size_t q = 0; q < questions; ++q) open[q] = q;
  std::vector<bool> asked(questions, false);
  bool spent = false;
  while (!open.empty() && !spent && !out.sat) {
    std::vector<std::size_t> again;
    for (std::size_t i = 0; i < open.size(); ++i) {
      const std::uint64_t used = elapsed_ms();
      if (used >= budget_ms) {
        spent = true;
        break;
      }
      if (i == 0) ++out.rounds;
      const std::size_t q = open[i];
      const solver_answer answer = ask(q, static_cast<unsigned>(std::min<std::uint64_t>(round_ms, budget_ms - used)));
      ++out.queries;
      asked[q] = true;
      if (answer == solver_answer::sat) {
        out.sat = q;
        break;
      }
      if (answer == solver_answer::unsat)
        ++out.unsat;
      else
        again.push_back(q);
    }
    if (round_ms == cap) break;  // every question out of time was asked with the most it may have
    open = std::move(again);
    round_ms = static_cast<unsigned>(std::min<std::uint64_t>(cap, 2ull * round_ms));
  }
  out.asked = static_cast<std::uint64_t>(std::count(asked.begin(), asked.end(), true));
  out.unknown = out.asked - out.unsat - (out.sat ? 1 : 0);
  return out;
}

/// search_invariant_table as an answer: sat with the table (invariant under a group of translations or, where none
/// answers sat, of a point group — reflections, rotations, glide reflections; simulated within `steps`), or unknown —
/// finding none proves nothing. The groups in rounds of doubling budgets, uncapped.
/// With k = `packets` > 1 own packets per PU: the translation groups only.
inline torus_query_result invariant_witness(const torus::network& network, torus_model model, std::uint64_t steps,
                                            unsigned budget_ms, std::uint32_t packets = 1) {
  torus_invariant_search_result inv = search_invariant_table(
      network, model, steps, budget_ms,
      {.groups = packets == 1 ? invariant_groups::all : invariant_groups::translations, .packets = packets});
  torus_query_result r;
  r.seconds = inv.seconds;
  if (!inv.table) {
    r.reason = "no invariant table found (" + std::to_string(inv.asked) + " of " + std::to_string(inv.groups) +
               (inv.groups == 1 ? " group asked)" : " groups asked)");
    return r;
  }
  r.answer = solver_answer::sat;
  r.witness = std::move(inv.table);
  r.reason = "witness invariant under " + std::to_string(inv.group->order) +
             (inv.group->automorphisms.empty() ? " translations" : " automorphisms of a point group") +
             " completes within " + std::to_string(steps) + " steps (SAT over invariant tables, simulated; " +
             std::to_string(inv.asked) + (inv.asked == 1 ? " group asked)" : " groups asked)");
  return r;
}

/// What a minimum search asks of each step count before its full query (prove_clausal_minimum, prove_packets_minimum):
/// invariant_witness with a tenth of the search's budget, at most 30 s, on tori of at most 256 PUs (one SAT query per
/// subgroup); unknown without asking where the torus is larger, the budget too small or the search cancelled. Where
/// an invariant table exists its group's query often answers in well under a second (4 x 5 general in 6 steps:
/// 28 ms, the full query 262–347 s; 3 x 3 general with three packets in 7 steps: about a second, the full query 47 s),
/// and where none does the small queries are mostly unsat at once.
inline unsigned quick_query_ms(unsigned budget_ms) { return std::min(budget_ms / 10, 30'000u); }
inline torus_query_result quick_invariant_witness(const torus::network& network, torus_model model, std::uint64_t steps,
                                                  unsigned budget_ms, std::uint32_t packets,
                                                  const std::atomic<bool>* cancel) {
  const unsigned quick_ms = quick_query_ms(budget_ms);
  if (network.size() > 256 || quick_ms == 0 || (cancel && cancel->load())) return {};
  return invariant_witness(network, model, steps, quick_ms, packets);
}

/// The local search's table (search_torus_table with `packets` own packets per PU, seed 1, aiming at `steps`, at most
/// a minute: on the tori of docs/torus-limits.md its best table comes within seconds) as a sat answer whose reason says
/// where the simulated witness comes from, or unknown when it found none. One packet in the pairing model: the tabu
/// search's instead (tabu_search_torus_table, the same seed and budget), which reaches pairing minima the local search
/// misses (4 x 8: 10 steps in 20 s where the local search ends at 11; docs/performance.md).
inline torus_query_result local_search_witness(const torus::network& network, torus_model model, std::uint32_t packets,
                                               std::uint64_t steps, unsigned budget_ms) {
  const bool tabu = packets == 1 && model == torus_model::pairing;
  torus_heuristic_result h =
      tabu ? tabu_search_torus_table(network, model, std::min(budget_ms, 60'000u), {.seed = 1, .goal = steps})
           : search_torus_table(network, model, std::min(budget_ms, 60'000u),
                                {.seed = 1, .goal = steps, .packets = packets});
  torus_query_result r;
  r.seconds = h.seconds;
  if (!h.table) {
    r.reason = "local search found no table";
    return r;
  }
  r.answer = solver_answer::sat;
  r.witness = std::move(h.table);
  r.reason = (tabu ? "tabu-search witness completes in " : "local-search witness completes in ") +
             std::to_string(h.steps) + " steps (simulated; " + std::to_string(h.evaluations) +
             (tabu ? " changes evaluated)" : " tables tried)");
  return r;
}

/// The table of the catalogue (formats/torus_catalogue.hpp: the best known for the small tori of docs/torus-limits.md,
/// one packet per PU) as a sat answer, simulated here; unknown when the torus is not catalogued.
inline torus_query_result catalogue_witness(const torus::network& network, torus_model model) {
  torus_query_result r;
  auto found = catalogued_torus_table(network, to_string(model));
  if (!found) {
    r.reason = "not catalogued";
    return r;
  }
  const gossip_report run = simulate_gossip(found->second);
  if (!run.holds()) {
    r.reason = "the catalogued table " + found->first.file + " does not complete: " + describe(run);
    return r;
  }
  r.answer = solver_answer::sat;
  r.witness = std::move(found->second);
  r.reason =
      "catalogued table " + found->first.file + " completes in " + std::to_string(run.steps) + " steps (simulated)";
  return r;
}

/// The heuristic side of the search: the catalogue's table (one packet per PU, where the torus is catalogued; it holds
/// the best tables known, so the local search is then skipped) or else local_search_witness (the tabu search for
/// one-packet pairing tables), then tables invariant
/// under a group (invariant_witness; with k > 1 packets translations only) for steps, steps + 1, … below that table's
/// steps (up to steps + 2 if there is none) — each a sat answer whose reason says where the simulated witness comes
/// from. Each invariant search gets a minute, or a quarter of budget_ms when that is more (3 x 3 x 3 general in 5
/// steps took 214 s over its 59 groups), never more than budget_ms.
inline torus_query_result heuristic_witness(const torus::network& network, torus_model model, std::uint64_t steps,
                                            unsigned budget_ms, std::uint32_t packets = 1) {
  const unsigned invariant_slice = std::min(budget_ms, std::max(60'000u, budget_ms / 4));
  torus_query_result r = packets == 1 ? catalogue_witness(network, model) : torus_query_result{};
  if (r.answer != solver_answer::sat) r = local_search_witness(network, model, packets, steps, budget_ms);
  if (network.size() > 256) return r;  // one SAT query per subgroup: meant for small tori
  const bool reached = r.answer == solver_answer::sat;
  const std::uint64_t last = reached ? simulate_gossip(*r.witness).steps - 1
                                     : steps + 2;  // without an upper bound, a few steps above the one asked
  for (std::uint64_t T = steps; T <= last; ++T) {
    torus_query_result inv = invariant_witness(network, model, T, invariant_slice, packets);
    r.seconds += inv.seconds;
    if (inv.answer != solver_answer::sat) continue;
    inv.seconds = r.seconds;
    r = std::move(inv);
    break;
  }
  return r;
}

/// Asks query(T) for T = the parity bound (core's parity_bound, at least the counting bound), bound + 1, …: the first
/// sat is the minimum (the step below was unsat, or is below that bound). In the pairing model a stream follows a
/// directed cycle of the pairing, which passes a PU at most d times: after d·P steps nothing new arrives, so unsat
/// there means no pairing completes gossip at all (refuted); the general model has no such horizon, and max_steps (0:
/// d·P) ends the search as unknown. A query that runs out of time does not end the search. A table completing in T
/// steps also completes in T + 1, so: `heuristic(T)` (local search, invariant tables) may give a witness with some U >=
/// T steps, an upper bound; the search goes on upward below U, an unsat raising the proven lower bound and a sat
/// lowering the upper bound. Proven when the two meet; after three queries out of time it stops, unknown, with both
/// bounds. With k = `packets` > 1 own packets per PU the search starts at the counting bound ⌈k(P − 1)/2d⌉
/// (parity_bound is reported equal to it: core's parity count is for one packet per PU).
/// With `cancel` set by another thread the search stops after the query running (which the solver ends unknown), and
/// asks no heuristic.
template <class Query, class Heuristic>
torus_minimum_result search_torus_minimum(const torus::network& network, bool pairing, std::uint64_t max_steps,
                                          Query query, Heuristic heuristic, std::uint32_t packets = 1,
                                          const minimum_progress& on_query = {},
                                          const std::atomic<bool>* cancel = nullptr) {
  auto cancelled = [cancel] { return cancel != nullptr && cancel->load(std::memory_order_relaxed); };
  const auto start = std::chrono::steady_clock::now();
  torus_minimum_result out;
  const std::uint64_t P = network.size();
  if (P < 2) throw std::invalid_argument("torus minimum: needs at least 2 PUs");
  out.lower_bound = counting_bound(network, packets);
  out.parity_bound = packets == 1 && P <= 4096 ? parity_bound(network) : out.lower_bound;
  out.proven_lower = std::max<std::uint64_t>(out.parity_bound, 1);
  const std::uint64_t conclusive = network.dimension() * P;
  if (max_steps == 0 || (pairing && max_steps > conclusive)) max_steps = conclusive;
  out.below_minimum.answer = solver_answer::unsat;
  out.below_minimum.reason =
      out.parity_bound > out.lower_bound
          ? "the parity count: packets move one hop per step, so a PU's in-slots in the steps of one parity are fewer "
            "than the packets only those steps can bring"
          : "counting: a PU learns at most 2d packets per step";
  std::optional<torus_query_result> witness;            // the best sat answer so far (upper_bound steps)
  std::map<std::uint64_t, torus_query_result> unknown;  // queries that ran out of time, by steps
  constexpr unsigned max_unknowns = 3;                  // each costs a whole budget
  for (std::uint64_t T = out.proven_lower; T <= max_steps && (out.upper_bound == 0 || T < out.upper_bound); ++T) {
    if (on_query) on_query(T, out.proven_lower, out.upper_bound);
    torus_query_result r = query(T);
    if (r.answer == solver_answer::unsat) {
      out.proven_lower = T + 1;  // and every T' <= T is unsat as well
      out.below_minimum = std::move(r);
      continue;
    }
    if (r.answer == solver_answer::sat) {
      out.upper_bound = T;
      witness = std::move(r);
      break;
    }
    if (unknown.empty() && !cancelled()) {
      torus_query_result h = heuristic(T);
      if (h.answer == solver_answer::sat && h.witness) {
        const gossip_report run = simulate_gossip(*h.witness);  // re-simulated here, whatever the heuristic claims
        if (run.holds() && run.steps <= max_steps) out.upper_bound = run.steps, witness = std::move(h);
      }
    }
    unknown.emplace(T, std::move(r));
    if (unknown.size() == max_unknowns || cancelled()) break;
  }
  if (out.upper_bound != 0 && out.upper_bound < out.proven_lower) {  // a simulated table below a certified unsat
    out.reason = "inconsistent: a table completes in " + std::to_string(out.upper_bound) + " steps, yet " +
                 std::to_string(out.proven_lower - 1) + " steps were proven impossible (" + out.below_minimum.reason +
                 ")";
  } else if (out.upper_bound != 0 && out.upper_bound == out.proven_lower) {
    out.status = proof_status::proven;
    out.minimum_steps = out.upper_bound;
    out.at_minimum = std::move(*witness);
    out.reason = out.at_minimum.reason + "; " +
                 (out.minimum_steps == out.lower_bound ? "the counting bound"
                  : out.minimum_steps == out.parity_bound
                      ? "the parity bound"
                      : std::to_string(out.minimum_steps - 1) + " steps: " + out.below_minimum.reason);
  } else if (out.upper_bound == 0 && unknown.empty() && pairing && max_steps >= conclusive) {
    out.status = proof_status::refuted;
    out.reason = "no pairing completes gossip" +
                 (packets == 1 ? std::string() : " with " + std::to_string(packets) + " packets per PU") +
                 ": unsat at d·P = " + std::to_string(conclusive) + " steps (" + out.below_minimum.reason + ")";
  } else if (const auto first = unknown.lower_bound(out.proven_lower); first != unknown.end()) {
    out.minimum_steps = first->first;
    out.at_minimum = first->second;
    out.reason = "unknown at " + std::to_string(first->first) + " steps: " + first->second.reason + "; at least " +
                 std::to_string(out.proven_lower) +
                 (out.upper_bound != 0
                      ? ", at most " + std::to_string(out.upper_bound) + " (" + witness->reason + ")"
                      : ", no witness found" + (unknown.size() == max_unknowns
                                                    ? " (" + std::to_string(max_unknowns) + " queries ran out of time)"
                                                    : std::string()));
    if (witness) out.upper = std::move(witness);
  } else {
    out.reason = "no table completes within " + std::to_string(max_steps) + " steps (not conclusive)";
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::torus::detail
