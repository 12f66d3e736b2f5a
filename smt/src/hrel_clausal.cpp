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
// A witness is first looked for in CNFs with fewer schedules, each a model of the question too:
//   reversal — with forwarding on two hops (below), schedules that running backwards and renaming the PEs by a
//              reversal symmetry π of the instance (core/hrel/reversal.hpp) leave unchanged: move(t, m, a, b) equals
//              move(T − 1 − t, m', π(b), π(a)) with m' = π(dst_m) → π(src_m). Half the slots fix the other half;
//   two hops — with forwarding, a piece goes from its source to its destination straight or through one relay (moves
//              src_m → b and a → dst_m only), as in the paper's forwarding schedules (Sections 2.2–2.4);
//   pruned   — with forwarding, every route but no move into a message's source or out of its destination (a schedule
//              never needs them: follow each piece and cut out the loop back to the source, or stop it at the
//              destination's first receipt — fewer moves, still in order).
// Nothing says every instance has a witness of the first two kinds: where none is found, the next kind is asked.
// Only their sat answers are used, as witnesses the checker then judges; unsat is always the full CNF's, with its DRAT
// proof. Triangles(3, 2) in pieces of 1/5 has a witness at 13 slots that the reversal keeps, found in seconds; the two-
// hop CNF alone took a minute, the pruned one four minutes (docs/performance.md).
#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cnf_cardinality.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/core/hrel/reversal.hpp"
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

// Which moves a CNF has (forwarding only; without it there is only src_m → dst_m).
enum class move_scope {
  every,     // every a ≠ b: the question itself
  pruned,    // no move into src_m or out of dst_m (a witness-first CNF)
  two_hops,  // src_m → b and a → dst_m only, neither into src_m nor out of dst_m (a witness-first CNF)
};

bool has_move(const hrel_message& message, std::size_t a, std::size_t b, bool forwarding, move_scope scope) {
  if (a == b) return false;
  if (!forwarding) return a == message.src && b == message.dst;
  const bool loops = b == message.src || a == message.dst;
  switch (scope) {
    case move_scope::every:
      return true;
    case move_scope::pruned:
      return !loops;
    case move_scope::two_hops:
      return !loops && (a == message.src || b == message.dst);
  }
  return false;
}

// The move variables, numbered first (what decoding a model needs).
hrel_layout number_moves(const hrel_instance& instance, bool forwarding, std::size_t slots,
                         move_scope scope = move_scope::every) {
  const auto& messages = instance.messages();
  hrel_layout layout{instance.pes(), messages.size(), slots, 0, {}, {}};
  const std::size_t P = layout.P, M = layout.M, T = slots;
  layout.move.assign(T * M * P * P, 0);
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t m = 0; m < M; ++m)
      for (std::size_t a = 0; a < P; ++a)
        for (std::size_t b = 0; b < P; ++b)
          if (has_move(messages[m], a, b, forwarding, scope)) layout.at(t, m, a, b) = ++layout.moves;
  return layout;
}

cnf_formula build(const hrel_instance& instance, unsigned k, bool forwarding, std::size_t slots, hrel_layout& layout,
                  move_scope scope = move_scope::every) {
  const auto& messages = instance.messages();
  layout = number_moves(instance, forwarding, slots, scope);
  const std::size_t P = layout.P, M = layout.M, T = slots;
  layout.out.assign(T * M * P, 0);
  cnf_formula f;
  f.variables = layout.moves;
  f.comments.push_back("h-relation: " + std::to_string(M) + " messages on " + std::to_string(P) + " PEs in " +
                       std::to_string(T) + " slots of 1/" + std::to_string(k) + (forwarding ? ", with" : ", without") +
                       " forwarding (dancecard smt/src/hrel_clausal.cpp)");
  f.comments.push_back("variables 1.." + std::to_string(f.variables) + ": move(t, m, a, b) in the order t, m, a, b" +
                       (!forwarding                     ? " over a = src(m), b = dst(m) only"
                        : scope == move_scope::pruned   ? " over every a != b but b = src(m) or a = dst(m)"
                        : scope == move_scope::two_hops ? " over a = src(m) or b = dst(m), but b = src(m) or a = dst(m)"
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

// Schedules that run backwards and renamed by π are themselves (see above): each move equals its image. A move
// whose image the scope left out is false.
void keep_reversal(cnf_formula& f, const hrel_layout& layout, const std::vector<rank>& pi,
                   const std::vector<std::size_t>& image) {
  for (std::size_t t = 0; t < layout.T; ++t)
    for (std::size_t m = 0; m < layout.M; ++m)
      for (std::size_t a = 0; a < layout.P; ++a)
        for (std::size_t b = 0; b < layout.P; ++b) {
          const int v = layout.at(t, m, a, b);
          if (v == 0) continue;
          const int w = layout.at(layout.T - 1 - t, image[m], pi[b], pi[a]);
          if (w == 0) {
            f.clauses.push_back({-v});
          } else if (v < w) {  // each pair once; v == w (a move its own image) is free
            f.clauses.push_back({-v, w});
            f.clauses.push_back({v, -w});
          }
        }
}

}  // namespace

cnf_formula hrel_query_cnf(const hrel_instance& instance, unsigned granularity, bool forwarding, std::size_t slots) {
  if (granularity == 0) throw std::invalid_argument("hrel_query_cnf: the granularity must be at least 1");
  hrel_layout layout;
  return build(instance, granularity, forwarding, slots, layout);
}

std::uint64_t hrel_query_core_variables(const hrel_instance& instance, unsigned granularity, bool forwarding,
                                        std::uint64_t slots) {
  const std::uint64_t P = instance.pes(), M = instance.messages().size();
  std::uint64_t pieces = 0;
  for (const hrel_message& m : instance.messages()) pieces += m.packets * granularity;
  return slots * M * (forwarding ? P * (P - 1) : 1) + (slots + 1) * P * pieces;
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
  // Witness first: kept by the reversal until an eighth of the budget is spent, two hops until a quarter, pruned
  // until half; the last two with forwarding only, where they are smaller than the question.
  struct witness_first {
    move_scope scope;
    bool reversal;
    unsigned share;
  };
  std::vector<witness_first> attempts;
  const std::optional<std::vector<rank>> pi = reversal_symmetry(instance);
  if (pi) attempts.push_back({options.forwarding ? move_scope::two_hops : move_scope::every, true, 8});
  if (options.forwarding)
    attempts.insert(attempts.end(), {{move_scope::two_hops, false, 4}, {move_scope::pruned, false, 2}});
  for (const witness_first& attempt : attempts) {
    hrel_layout layout;
    cnf_formula restricted = build(instance, options.granularity, options.forwarding, slots, layout, attempt.scope);
    if (attempt.reversal) keep_reversal(restricted, layout, *pi, reversed_messages(instance, *pi));
    const unsigned until = options.timeout_ms / attempt.share, spent = elapsed_ms();
    // 0 is no limit: a budget of 1 ms must not become one
    const clausal_result r = solve_for_model(restricted,
                                             options.timeout_ms == 0 ? 0
                                             : until > spent         ? until - spent
                                                                     : 1u,
                                             options.cancel);
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
