// h-relation delivery within T slots of 1/k as CNF, for CaDiCaL: a witness goes through checkers/hrel_schedule_check,
// an unsat answer carries a DRAT proof that checkers/drat_check accepts.
//
// The CNF is the question itself, with no implied constraint and no symmetry breaking:
//   move(t, m, a, b)  — in slot t PE a sends one piece of message m to PE b: every a ≠ b with forwarding (moves back to
//                       the source or out of the destination included), only src_m → dst_m without;
//   half duplex       — at most one move touching each PE in each slot (Sinz's sequential counter);
//   in(p, m, t), out(p, m, t) — p receives / sends a piece of m in slot t (the OR of its moves; one at most, by the
//                       line above);
//   held(p, m, t, j)  — p holds at least j of m's K = k·packets pieces at the start of slot t (t = 0..T, j = 1..K):
//                       K at the source and 0 elsewhere at t = 0; a slot changes it by one at most (a PE is in one move
//                       at most): +1 with in, −1 with out, unchanged otherwise; out needs held >= 1 (a PE sends only
//                       what it holds) and in needs held < K (there are K pieces of m in all, so no schedule has more
//                       at one PE: this only keeps the unary counter exact);
//   delivery          — held(dst_m, m, T, K) for every message.
// A witness is first looked for in a smaller CNF without the moves into a message's source or out of its destination
// (a schedule never needs them: follow each piece and cut out the loop back to the source, or stop it at the
// destination's first receipt — fewer moves, still in order). Only its sat answer is used, as a witness the checker
// then judges; unsat is always the full CNF's, with its DRAT proof. On two triangles in pieces of 1/5 the witness at 12
// slots takes 5 s this way against 38 s in the full CNF.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "cnf_cardinality.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/hrel_cubes.hpp"
#include "dancecard/smt/hrel_encoding.hpp"

namespace dancecard::hrel {

namespace {

struct hrel_layout {
  std::size_t P, M, T;
  int moves = 0;          // the move variables are 1 .. moves
  std::vector<int> move;  // (t·M + m)·P² + a·P + b → variable, 0 where the move does not exist
  std::vector<int> out;   // (t·M + m)·P + p → out(p, m, t), 0 where p has no move of m in slot t
  int& at(std::size_t t, std::size_t m, std::size_t a, std::size_t b) { return move[((t * M + m) * P + a) * P + b]; }
  int at(std::size_t t, std::size_t m, std::size_t a, std::size_t b) const {
    return move[((t * M + m) * P + a) * P + b];
  }
};

// v ↔ OR(lits); v false when there are none.
int or_of(cnf_formula& f, const std::vector<int>& lits) {
  const int v = ++f.variables;
  std::vector<int> some{-v};
  for (int x : lits) {
    f.clauses.push_back({-x, v});
    some.push_back(x);
  }
  f.clauses.push_back(some);
  return v;
}

// The move variables, numbered first (what decoding a model needs); pruned: leave out the moves into a message's
// source and out of its destination (the witness-first CNF).
hrel_layout number_moves(const hrel_instance& instance, bool forwarding, std::size_t slots, bool pruned = false) {
  const auto& messages = instance.messages();
  hrel_layout layout{instance.pes(), messages.size(), slots, 0, {}, {}};
  const std::size_t P = layout.P, M = layout.M, T = slots;
  layout.move.assign(T * M * P * P, 0);
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t m = 0; m < M; ++m)
      for (std::size_t a = 0; a < P; ++a)
        for (std::size_t b = 0; b < P; ++b)
          if (a != b && (forwarding || (a == messages[m].src && b == messages[m].dst)) &&
              !(pruned && (b == messages[m].src || a == messages[m].dst)))
            layout.at(t, m, a, b) = ++layout.moves;
  return layout;
}

cnf_formula build(const hrel_instance& instance, unsigned k, bool forwarding, std::size_t slots, hrel_layout& layout,
                  bool pruned = false) {
  const auto& messages = instance.messages();
  layout = number_moves(instance, forwarding, slots, pruned);
  const std::size_t P = layout.P, M = layout.M, T = slots;
  layout.out.assign(T * M * P, 0);
  cnf_formula f;
  f.variables = layout.moves;
  f.comments.push_back("h-relation: " + std::to_string(M) + " messages on " + std::to_string(P) + " PEs in " +
                       std::to_string(T) + " slots of 1/" + std::to_string(k) + (forwarding ? ", with" : ", without") +
                       " forwarding (dancecard smt/src/hrel_clausal.cpp)");
  f.comments.push_back("variables 1.." + std::to_string(f.variables) + ": move(t, m, a, b) in the order t, m, a, b" +
                       (!forwarding ? " over a = src(m), b = dst(m) only"
                        : pruned    ? " over every a != b but b = src(m) or a = dst(m)"
                                    : " over every a != b") +
                       "; then the sequential counters of half duplex, in/out flags and held counters");
  for (std::size_t t = 0; t < T; ++t)  // half duplex
    for (std::size_t p = 0; p < P; ++p) {
      std::vector<int> touching;
      for (std::size_t m = 0; m < M; ++m)
        for (std::size_t q = 0; q < P; ++q) {
          if (q == p) continue;
          if (int v = layout.at(t, m, p, q)) touching.push_back(v);
          if (int v = layout.at(t, m, q, p)) touching.push_back(v);
        }
      dancecard::detail::at_most(f, touching, 1);
    }
  for (std::size_t m = 0; m < M; ++m) {
    const std::size_t K = static_cast<std::size_t>(k) * messages[m].packets;
    for (std::size_t p = 0; p < P; ++p) {
      // held[j − 1] = "at least j" at the start of the current slot
      std::vector<int> held(K);
      for (std::size_t j = 0; j < K; ++j) {
        held[j] = ++f.variables;
        f.clauses.push_back({p == messages[m].src ? held[j] : -held[j]});
      }
      for (std::size_t t = 0; t < T; ++t) {
        std::vector<int> ins, outs;
        for (std::size_t q = 0; q < P; ++q) {
          if (q == p) continue;
          if (int v = layout.at(t, m, q, p)) ins.push_back(v);
          if (int v = layout.at(t, m, p, q)) outs.push_back(v);
        }
        std::vector<int> next(K);
        for (std::size_t j = 0; j < K; ++j) next[j] = ++f.variables;
        for (std::size_t j = 0; j + 1 < K; ++j) f.clauses.push_back({-next[j + 1], next[j]});
        const int in = ins.empty() ? 0 : or_of(f, ins), out = outs.empty() ? 0 : or_of(f, outs);  // 0: no such move
        layout.out[(t * M + m) * P + p] = out;
        std::vector<int> quiet;  // "in or out": without a move the counter stays (always, where p has no move of m)
        if (in) quiet.push_back(in);
        if (out) quiet.push_back(out);
        auto with = [](std::vector<int> clause, int a, int b) {
          clause.push_back(a);
          clause.push_back(b);
          return clause;
        };
        for (std::size_t j = 0; j < K; ++j) {
          f.clauses.push_back(with(quiet, -held[j], next[j]));
          f.clauses.push_back(with(quiet, held[j], -next[j]));
          if (in) {  // +1: at least j now iff at least j − 1 before
            if (j == 0)
              f.clauses.push_back({-in, next[0]});
            else {
              f.clauses.push_back({-in, -held[j - 1], next[j]});
              f.clauses.push_back({-in, held[j - 1], -next[j]});
            }
          }
          if (out) {  // −1: at least j now iff at least j + 1 before
            if (j + 1 == K)
              f.clauses.push_back({-out, -next[j]});
            else {
              f.clauses.push_back({-out, -held[j + 1], next[j]});
              f.clauses.push_back({-out, held[j + 1], -next[j]});
            }
          }
        }
        if (out) f.clauses.push_back({-out, held[0]});     // sends only a held piece
        if (in) f.clauses.push_back({-in, -held[K - 1]});  // never more than the K pieces there are
        held = std::move(next);
      }
      if (p == messages[m].dst) f.clauses.push_back({held[K - 1]});  // delivered: all K pieces at the destination
    }
  }
  return f;
}

}  // namespace

cnf_formula hrel_query_cnf(const hrel_instance& instance, unsigned granularity, bool forwarding, std::size_t slots) {
  if (granularity == 0) throw std::invalid_argument("hrel_query_cnf: the granularity must be at least 1");
  hrel_layout layout;
  return build(instance, granularity, forwarding, slots, layout);
}

namespace {
// The true moves of a model as a schedule of slots of 1/k.
hrel_schedule decode(const hrel_instance& instance, unsigned k, const hrel_layout& layout,
                     const std::vector<int>& model) {
  hrel_schedule schedule{instance.pes(), {}};
  const rational piece(1, static_cast<std::int64_t>(k));
  for (std::size_t t = 0; t < layout.T; ++t) schedule.slots.push_back({piece, {}});
  std::vector<char> truth(static_cast<std::size_t>(layout.moves) + 1, 0);
  for (int v : model)
    if (v > 0 && v <= layout.moves) truth[static_cast<std::size_t>(v)] = 1;
  for (std::size_t t = 0; t < layout.T; ++t)
    for (std::size_t m = 0; m < layout.M; ++m)
      for (std::size_t a = 0; a < layout.P; ++a)
        for (std::size_t b = 0; b < layout.P; ++b)
          if (const int v = layout.at(t, m, a, b); v != 0 && truth[static_cast<std::size_t>(v)])
            schedule.slots[t].transfers.push_back({static_cast<rank>(a), static_cast<rank>(b), m, piece});
  return schedule;
}
}  // namespace

hrel_existence_result solve_hrel_clausal(const hrel_instance& instance, std::size_t slots,
                                         const hrel_proof_options& options) {
  if (options.granularity == 0) throw std::invalid_argument("solve_hrel_clausal: the granularity must be at least 1");
  const auto start = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] {
    return static_cast<unsigned>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count());
  };
  hrel_existence_result out;
  auto accept = [&](hrel_schedule schedule) {  // a decoded model: a witness only if the checker accepts it
    const hrel_report report = check_hrel_schedule(instance, schedule, duplex::half);
    if (report.holds()) {
      out.answer = solver_answer::sat;
      out.witness = std::move(schedule);
    } else {  // the CNF and the checker disagree: report it, never a witness the checker refuses
      out.answer = solver_answer::unknown;
      out.reason = "the decoded model is rejected by the checker (an encoding bug): " + describe(report);
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  };
  if (options.forwarding) {  // witness first, in the pruned CNF, with half the budget
    hrel_layout layout;
    const cnf_formula pruned = build(instance, options.granularity, true, slots, layout, true);
    // 0 is no limit: a budget of 1 ms must not become one
    const clausal_result r =
        solve_for_model(pruned, options.timeout_ms == 0 ? 0 : std::max(1u, options.timeout_ms / 2), options.cancel);
    if (r.answer == solver_answer::sat) return accept(decode(instance, options.granularity, layout, r.model));
  }
  hrel_layout layout;
  const cnf_formula f = build(instance, options.granularity, options.forwarding, slots, layout);
  const unsigned spent = elapsed_ms();
  const unsigned rest = options.timeout_ms == 0 ? 0 : options.timeout_ms > spent ? options.timeout_ms - spent : 1;
  const clausal_result r = solve_with_proof(f, rest, drat_encoding::binary, options.cancel);
  out.answer = r.answer;
  out.reason = r.reason;
  if (r.answer == solver_answer::sat) return accept(decode(instance, options.granularity, layout, r.model));
  if (r.answer == solver_answer::unsat) {
    const certificates::drat_report check = r.proof.check(f.dimacs());
    out.proof_check = describe(check);
    if (check.outcome != verdict::holds) {
      out.answer = solver_answer::unknown;
      out.reason = "CaDiCaL said unsat, but its DRAT proof was not accepted: " + out.proof_check;
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

hrel_cube_query hrel_cubes_of(const hrel_instance& instance, unsigned granularity, bool forwarding, std::size_t slots) {
  if (granularity == 0 || slots == 0) throw std::invalid_argument("hrel_cubes_of: granularity and slots at least 1");
  hrel_layout layout;
  hrel_cube_query q;
  q.formula = build(instance, granularity, forwarding, slots, layout);
  const auto& messages = instance.messages();
  for (std::size_t t = 0; t < layout.T; ++t)
    for (std::size_t m = 0; m < layout.M; ++m)
      for (std::size_t p = 0; p < layout.P; ++p) {
        const int out = layout.out[(t * layout.M + m) * layout.P + p];
        if (out == 0 || (t == 0 && p != messages[m].src)) continue;  // in slot 0 only the source holds a piece
        const std::string message = "message " + std::to_string(m) + " (" + std::to_string(messages[m].src) + "->" +
                                    std::to_string(messages[m].dst) + ")";
        cubes::split_group g;
        g.name = "slot " + std::to_string(t) + ", PE " + std::to_string(p) + ", " + message;
        g.literals.push_back(-out);
        g.values.push_back("slot " + std::to_string(t) + ": PE " + std::to_string(p) + " sends no piece of " + message);
        for (std::size_t b = 0; b < layout.P; ++b)
          if (const int v = layout.at(t, m, p, b)) {
            g.literals.push_back(v);
            g.values.push_back("slot " + std::to_string(t) + ": PE " + std::to_string(p) + " sends a piece of " +
                               message + " to PE " + std::to_string(b));
          }
        q.groups.push_back(std::move(g));
      }
  return q;
}

std::pair<std::optional<hrel_schedule>, std::string> hrel_cube_witness(const hrel_instance& instance,
                                                                       unsigned granularity, bool forwarding,
                                                                       std::size_t slots,
                                                                       const std::vector<int>& model) {
  if (granularity == 0) throw std::invalid_argument("hrel_cube_witness: the granularity must be at least 1");
  hrel_schedule schedule = decode(instance, granularity, number_moves(instance, forwarding, slots), model);
  const hrel_report report = check_hrel_schedule(instance, schedule, duplex::half);
  if (!report.holds()) return {std::nullopt, "is rejected by the half-duplex checker: " + describe(report)};
  return {std::move(schedule), "delivers every message in " + std::to_string(slots) + " slots of 1/" +
                                   std::to_string(granularity) + " (half-duplex checker)"};
}

}  // namespace dancecard::hrel
