// Z3 encoding of h-relation delivery within T slots at granularity 1/k.
//
// Variables: move_t<t>_f<a>_t<b>_m<m> — in slot t, PE a sends one piece of message m to PE b (without forwarding
// only a = src(m), b = dst(m) exist). held_t<t>_p<p>_m<m> — pieces of m at p at the start of slot t (integers).
// Constraints: half duplex (each PE in at most one move per slot), causality (a PE sends only pieces it holds at
// the start of the slot), flow (holdings change by the moves), delivery (at the end the destination holds all
// k·packets pieces). Implied constraints, each sound for every schedule the constraints above allow:
//   * counting: every PE's own send+receive pieces need that many slots (why the search starts at k·h);
//   * capacity: at most ⌊P/2⌋ moves per slot (each move occupies two PEs, each PE one move);
//   * triples: for every slot and every three PEs, at most one move among them (any two pairs of a 3-set share a
//     PE, so two such moves would put that PE in two moves);
//   * matching: the direct moves of a slot use disjoint PE pairs joined by messages, so at most ν of them (ν: a
//     maximum matching of the message graph);
//   * progress (Section 2.5's argument, per message m): 2·direct_m + indirect_m ≥ 2·k·packets_m, where direct
//     moves go src → dst and indirect ones are all others. The destination never sends and the source never
//     receives, so the k·packets_m arrivals at dst are direct moves plus moves from intermediate PEs; intermediates
//     start empty, so what they pass on to dst they received by earlier indirect moves: indirect_m ≥ 2·(arrivals
//     from intermediates).
// Summing progress over the messages gives Σ_t (direct_t + moves_t) ≥ 2·k·V, with direct_t ≤ ν and moves_t ≤ ⌊P/2⌋:
// stated with named per-slot sums, bound propagation alone refutes T < 2kV/(ν + ⌊P/2⌋) (two triangles at k = 5:
// 60/5 = 12 slots, i.e. 12/5). Measured: without these sums Z3 4.8.12 does not refute 11 slots within minutes.
// (Also tried: at a tight T every slot must run at full rate — implied, but it made Z3's witness search at 12 slots
// time out, where it otherwise takes ~35 s; so it is not stated.) Moves are Booleans: 0/1 integer moves refute as
// fast but find no witness at 12 slots within 100 s.
#include "dancecard/smt/hrel_encoding.hpp"

#include <z3++.h>
#include <algorithm>
#include <chrono>
#include <optional>

#include "certify.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "dancecard/smt/hrel_certificates.hpp"
#include "z3_query.hpp"

namespace dancecard::hrel {

namespace {
// ν: the most messages between pairwise disjoint PE pairs (a maximum matching of the message graph), by search over
// the PEs in order — the instances here have P <= 8 or so.
std::int64_t message_matching_number(const hrel_instance& instance) {
  const rank P = instance.pes();
  std::vector<char> adjacent(static_cast<std::size_t>(P) * P, 0);
  for (const hrel_message& m : instance.messages()) adjacent[m.src * P + m.dst] = adjacent[m.dst * P + m.src] = 1;
  std::vector<char> used(P, 0);
  std::int64_t best = 0;
  auto search = [&](auto&& self, rank from, std::int64_t size) -> void {
    best = std::max(best, size);
    if (size + static_cast<std::int64_t>(P - from) / 2 <= best) return;
    for (rank a = from; a < P; ++a) {
      if (used[a]) continue;
      used[a] = 1;
      for (rank b = a + 1; b < P; ++b)
        if (!used[b] && adjacent[a * P + b]) {
          used[b] = 1;
          self(self, a + 1, size + 1);
          used[b] = 0;
        }
      used[a] = 0;
    }
  };
  search(search, 0, 0);
  return best;
}
}  // namespace

hrel_existence_result solve_hrel_existence(const hrel_instance& instance, std::size_t slots,
                                           const hrel_proof_options& options) {
  if (options.engine == hrel_engine::sat) return solve_hrel_clausal(instance, slots, options);
  hrel_existence_result out;
  const rank P = instance.pes();
  const auto& messages = instance.messages();
  const std::int64_t k = options.granularity;
  dancecard::detail::run_timed_query(out, [&] {
    z3::context ctx;
    z3::solver s = dancecard::detail::make_solver(
        ctx, {.timeout_ms = options.timeout_ms, .encoding = dance::dance_encoding::counting});
    struct move {
      std::size_t t;
      rank from, to;
      std::size_t message;
      z3::expr var;
    };
    std::vector<move> moves;
    for (std::size_t t = 0; t < slots; ++t)
      for (std::size_t m = 0; m < messages.size(); ++m)
        for (rank a = 0; a < P; ++a)
          for (rank b = 0; b < P; ++b) {
            if (a == b || (!options.forwarding && (a != messages[m].src || b != messages[m].dst))) continue;
            if (b == messages[m].src || a == messages[m].dst)
              continue;  // never back to the source, never from the destination
            const std::string name = "move_t" + std::to_string(t) + "_f" + std::to_string(a) + "_t" +
                                     std::to_string(b) + "_m" + std::to_string(m);
            moves.push_back({t, a, b, m, ctx.bool_const(name.c_str())});
          }
    // Half duplex: every PE in at most one move per slot.
    std::vector<z3::expr_vector> busy;
    for (std::size_t i = 0; i < slots * P; ++i) busy.emplace_back(ctx);
    for (const move& mv : moves) {
      busy[mv.t * P + mv.from].push_back(mv.var);
      busy[mv.t * P + mv.to].push_back(mv.var);
    }
    for (auto& v : busy)
      if (v.size() >= 2) s.add(z3::atmost(v, 1));
    // The same, as arithmetic (implied, so sound): busy_t<t>_p<p> = Σ moves of p in slot t ≤ 1, and every PE is busy
    // at least as many slots as it has pieces of its own to send and receive — the counting bound as linear algebra.
    {
      std::vector<z3::expr_vector> per_pe;
      for (rank p = 0; p < P; ++p) per_pe.emplace_back(ctx);
      for (std::size_t t = 0; t < slots; ++t)
        for (rank p = 0; p < P; ++p) {
          const z3::expr_vector& v = busy[t * P + p];
          if (v.empty()) continue;
          z3::expr_vector terms(ctx);
          for (unsigned i = 0; i < v.size(); ++i) terms.push_back(z3::ite(v[i], ctx.int_val(1), ctx.int_val(0)));
          const std::string name = "busy_t" + std::to_string(t) + "_p" + std::to_string(p);
          z3::expr b = ctx.int_const(name.c_str());
          s.add(b == z3::sum(terms) && b >= 0 && b <= 1);
          per_pe[p].push_back(b);
        }
      std::vector<std::int64_t> own(P, 0);
      for (const hrel_message& msg : messages) {
        own[msg.src] += k * static_cast<std::int64_t>(msg.packets);
        own[msg.dst] += k * static_cast<std::int64_t>(msg.packets);
      }
      for (rank p = 0; p < P; ++p)
        if (own[p] > 0) s.add((per_pe[p].empty() ? ctx.int_val(0) : z3::sum(per_pe[p])) >= ctx.int_val(own[p]));
    }
    // Implied: capacity per slot, triples, progress per message (see the file comment).
    {
      auto as_int = [&](const z3::expr& b) { return z3::ite(b, ctx.int_val(1), ctx.int_val(0)); };  // 0/1 view
      std::vector<z3::expr_vector> per_slot;
      for (std::size_t t = 0; t < slots; ++t) per_slot.emplace_back(ctx);
      std::vector<z3::expr_vector> progress;
      for (std::size_t m = 0; m < messages.size(); ++m) progress.emplace_back(ctx);
      // moves of slot t between the unordered pair {a, b}
      std::vector<std::vector<z3::expr_vector>> pair_moves(slots);
      for (auto& row : pair_moves)
        for (std::size_t i = 0; i < static_cast<std::size_t>(P) * P; ++i) row.emplace_back(ctx);
      for (const move& mv : moves) {
        per_slot[mv.t].push_back(as_int(mv.var));
        const bool direct = mv.from == messages[mv.message].src && mv.to == messages[mv.message].dst;
        progress[mv.message].push_back(direct ? 2 * as_int(mv.var) : as_int(mv.var));
        pair_moves[mv.t][std::min(mv.from, mv.to) * P + std::max(mv.from, mv.to)].push_back(mv.var);
      }
      // Per slot: A_t = all moves ≤ ⌊P/2⌋, D_t = direct moves ≤ ν (they form a matching of the message graph);
      // summed over the messages, progress gives Σ_t (D_t + A_t) ≥ 2·k·V (2·direct + indirect = direct + all).
      std::vector<z3::expr_vector> direct_in_slot;
      for (std::size_t t = 0; t < slots; ++t) direct_in_slot.emplace_back(ctx);
      for (const move& mv : moves)
        if (mv.from == messages[mv.message].src && mv.to == messages[mv.message].dst)
          direct_in_slot[mv.t].push_back(as_int(mv.var));
      const std::int64_t nu = message_matching_number(instance);
      z3::expr_vector total(ctx);
      std::int64_t volume = 0;
      for (const hrel_message& msg : messages) volume += k * static_cast<std::int64_t>(msg.packets);
      for (std::size_t t = 0; t < slots; ++t) {
        const std::string suffix = std::to_string(t);
        z3::expr A = ctx.int_const(("moves_t" + suffix).c_str()), D = ctx.int_const(("direct_t" + suffix).c_str());
        s.add(A == (per_slot[t].empty() ? ctx.int_val(0) : z3::sum(per_slot[t])));
        s.add(D == (direct_in_slot[t].empty() ? ctx.int_val(0) : z3::sum(direct_in_slot[t])));
        s.add(A >= 0 && A <= ctx.int_val(static_cast<int>(P / 2)) && D >= 0 && D <= ctx.int_val(nu));
        total.push_back(A);
        total.push_back(D);
      }
      if (!total.empty()) s.add(z3::sum(total) >= ctx.int_val(2 * volume));
      for (std::size_t m = 0; m < messages.size(); ++m)
        if (!progress[m].empty())
          s.add(z3::sum(progress[m]) >= ctx.int_val(2 * k * static_cast<std::int64_t>(messages[m].packets)));
      if (P >= 3 && static_cast<std::uint64_t>(P) * P * P <= 20'000)
        for (std::size_t t = 0; t < slots; ++t)
          for (rank a = 0; a < P; ++a)
            for (rank b = a + 1; b < P; ++b)
              for (rank c = b + 1; c < P; ++c) {
                z3::expr_vector among(ctx);
                for (const auto* v : {&pair_moves[t][a * P + b], &pair_moves[t][a * P + c], &pair_moves[t][b * P + c]})
                  for (unsigned i = 0; i < v->size(); ++i) among.push_back(as_int((*v)[i]));
                if (among.size() >= 2) s.add(z3::sum(among) <= ctx.int_val(1));
              }
    }
    // Holdings and causality.
    auto one = ctx.int_val(1), zero = ctx.int_val(0);
    std::vector<std::vector<z3::expr_vector>> out_moves(slots * P), in_moves(slots * P);
    // One expr_vector per cell, each constructed on its own: copies of an expr_vector share one Z3 vector.
    for (auto* table : {&out_moves, &in_moves})
      for (auto& row : *table)
        for (std::size_t m = 0; m < messages.size(); ++m) row.emplace_back(ctx);
    for (const move& mv : moves) {
      out_moves[mv.t * P + mv.from][mv.message].push_back(z3::ite(mv.var, one, zero));
      in_moves[mv.t * P + mv.to][mv.message].push_back(z3::ite(mv.var, one, zero));
    }
    for (std::size_t m = 0; m < messages.size(); ++m) {
      const std::int64_t pieces = k * static_cast<std::int64_t>(messages[m].packets);
      for (rank p = 0; p < P; ++p) {
        z3::expr held = ctx.int_val(p == messages[m].src ? pieces : 0);
        for (std::size_t t = 0; t < slots; ++t) {
          const auto& outs = out_moves[t * P + p][m];
          const auto& ins = in_moves[t * P + p][m];
          if (outs.empty() && ins.empty()) continue;
          const z3::expr sent = outs.empty() ? zero : z3::sum(outs);
          if (!outs.empty()) s.add(sent <= held);  // causality: only what is held at the start of the slot
          const std::string name =
              "held_t" + std::to_string(t + 1) + "_p" + std::to_string(p) + "_m" + std::to_string(m);
          z3::expr next = ctx.int_const(name.c_str());
          s.add(next == held - sent + (ins.empty() ? zero : z3::sum(ins)));
          held = next;
        }
        if (p == messages[m].dst) s.add(held == ctx.int_val(pieces));
      }
    }
    dancecard::detail::take_answer(
        s, out.answer, out.reason,
        [&](const z3::model& model) -> std::string {
          hrel_schedule schedule{P, {}};
          for (std::size_t t = 0; t < slots; ++t) schedule.slots.push_back({rational(1, k), {}});
          for (const move& mv : moves)
            if (model.eval(mv.var, true).is_true())
              schedule.slots[mv.t].transfers.push_back({mv.from, mv.to, mv.message, rational(1, k)});
          const hrel_report report = check_hrel_schedule(instance, schedule, duplex::half);
          if (!report.holds()) return describe(report);
          out.witness = std::move(schedule);
          return "";
        },
        options.cancel);
  });
  return out;
}

std::optional<hrel_schedule> refine_to_granularity(const hrel_schedule& schedule, unsigned k, std::string& why) {
  const rational piece(1, static_cast<std::int64_t>(k));
  hrel_schedule out{schedule.pes, {}};
  for (std::size_t s = 0; s < schedule.slots.size(); ++s) {
    const hrel_slot& slot = schedule.slots[s];
    const rational slots = slot.duration / piece;
    if (slots.denominator() != 1 || slots.numerator() <= 0) {
      why = "slot " + std::to_string(s) + " lasts " + slot.duration.to_string() + ", not a multiple of 1/" +
            std::to_string(k);
      return std::nullopt;
    }
    if (out.slots.size() + static_cast<std::uint64_t>(slots.numerator()) > 1'000'000) {
      why = "more than 1,000,000 slots of 1/" + std::to_string(k);
      return std::nullopt;
    }
    const std::size_t first = out.slots.size();
    for (std::int64_t i = 0; i < slots.numerator(); ++i) out.slots.push_back({piece, {}});
    for (std::size_t t = 0; t < slot.transfers.size(); ++t) {
      const rational pieces = slot.transfers[t].amount / piece;
      if (pieces.denominator() != 1 || pieces.numerator() <= 0 || pieces > slots) {
        why = "slot " + std::to_string(s) + ", transfer " + std::to_string(t) + " moves " +
              slot.transfers[t].amount.to_string() + ", not a multiple of 1/" + std::to_string(k) + " within the slot";
        return std::nullopt;
      }
      for (std::int64_t i = 0; i < pieces.numerator(); ++i) {  // one piece per 1/k slot, from the start of the slot
        hrel_transfer one = slot.transfers[t];
        one.amount = piece;
        out.slots[first + static_cast<std::size_t>(i)].transfers.push_back(one);
      }
    }
  }
  return out;
}

namespace {
// The counting arguments' certificate for certified_bound − 1 slots, checked — and accepted only as a refutation of
// this instance at that slot count; on a rejection (a bug in the generator) nothing is certified and the search
// falls back to k·h and the solver.
void certify_counting_bound(const hrel_instance& instance, const hrel_proof_options& options,
                            hrel_optimum_result& out) {
  const std::size_t bound = hrel_certified_bounds(instance, options.granularity, options.forwarding).best();
  std::optional<std::string> text =
      bound >= 1 ? hrel_lower_bound_certificate(instance, options.granularity, options.forwarding, bound - 1)
                 : std::nullopt;
  if (!text) return;
  certificate_check check = cutting_planes_certificate(
      std::move(*text), hrel_certificate_instance(instance, options.granularity, options.forwarding, bound - 1));
  out.certificate_check = check.detail;
  if (!check.accepted) return;
  out.certified_bound = bound;
  out.certificate = std::move(check.text);
}

// `schedule` refined to slots of 1/k and accepted by the half-duplex checker (and without forwarding where the query
// has none), or nullopt with `why`.
std::optional<hrel_schedule> checked_witness(const hrel_instance& instance, const hrel_schedule& schedule,
                                             const hrel_proof_options& options, std::string& why) {
  std::optional<hrel_schedule> refined = refine_to_granularity(schedule, options.granularity, why);
  if (!refined) {
    why = "not a schedule at granularity 1/" + std::to_string(options.granularity) + ": " + why;
    return std::nullopt;
  }
  if (const hrel_report report = check_hrel_schedule(instance, *refined, duplex::half); !report.holds()) {
    why = "rejected by the checker: " + describe(report);
    return std::nullopt;
  }
  if (!options.forwarding)
    for (const hrel_slot& slot : refined->slots)
      for (const hrel_transfer& t : slot.transfers)
        if (t.from != instance.messages()[t.message].src || t.to != instance.messages()[t.message].dst) {
          why = "a forwarding schedule, but the query is without forwarding";
          return std::nullopt;
        }
  return refined;
}

// The shortest of the generators' schedules (Section 2.1's direct one, with forwarding Sections 2.2–2.4's, and
// Section 4.1's where every pair exchanges a packet) that passes checked_witness, with its name; nullopt where none
// does.
std::optional<std::pair<hrel_schedule, std::string>> generator_witness(const hrel_instance& instance,
                                                                       const hrel_proof_options& options) {
  std::optional<std::pair<hrel_schedule, std::string>> best;
  auto consider = [&](const char* name, auto make) {
    std::string why;
    try {
      std::optional<hrel_schedule> w = checked_witness(instance, make(), options, why);
      if (w && (!best || w->slots.size() < best->first.slots.size())) best.emplace(std::move(*w), name);
    } catch (const std::invalid_argument&) {  // a generator that does not apply: no candidate
    }
  };
  consider("the direct schedule (Section 2.1)", [&] { return direct_schedule(instance); });
  if (options.forwarding)
    consider("the forwarding schedule (Sections 2.2-2.4)", [&] { return forwarding_schedule(instance); });
  if (regular_part(instance) >= 1)  // the rest goes by forwarding: without it, a witness only where there is no rest
    consider("the regular schedule (Section 4.1)", [&] { return regular_schedule(instance); });
  return best;
}

std::string below_reason(const hrel_optimum_result& out) {
  const std::string below = std::to_string(out.slots - 1) + " slots ";
  if (out.slots == out.certified_bound) return below + "refuted by a checked cutting-planes certificate (counting)";
  const std::string counting = "the counting certificate refutes up to " +
                               std::to_string(out.certified_bound == 0 ? 0 : out.certified_bound - 1);
  return out.below_optimum.proof_check.empty()
             ? below + "unsat (Z3 only; " + counting + ")"
             : below + "unsat (CaDiCaL; DRAT proof " + out.below_optimum.proof_check + "; " + counting + ")";
}
}  // namespace

std::string hrel_proof_size_problem(const hrel_instance& instance, unsigned granularity) {
  const std::uint64_t P = instance.pes();
  if (P * P * instance.h_half_duplex() * granularity <= 2'000'000) return "";
  return "too large for an exact proof (P² · h · k above 2,000,000)";
}

hrel_optimum_result prove_hrel_optimum(const hrel_instance& instance, const hrel_proof_options& options) {
  if (options.granularity == 0) throw std::invalid_argument("prove_hrel_optimum: granularity must be at least 1");
  if (instance.messages().empty()) throw std::invalid_argument("prove_hrel_optimum: the instance has no messages");
  const auto start = std::chrono::steady_clock::now();
  hrel_optimum_result out;
  const std::size_t k = options.granularity;
  certify_counting_bound(instance, options, out);
  if (options.hint != nullptr) {
    // The witness is the hint, refined and checked; one slot less is refuted by the certificate or asked of Z3.
    std::string why;
    std::optional<hrel_schedule> refined = checked_witness(instance, *options.hint, options, why);
    if (!refined) {
      out.status = proof_status::unknown;
      out.reason = "the hint is " + why;
    } else if (refined->slots.size() < out.certified_bound) {
      // a checked schedule below a checked refutation: one of the two checkers is wrong
      out.status = proof_status::unknown;
      out.reason = "a bug: the hint's " + std::to_string(refined->slots.size()) +
                   " slots pass the schedule checker, but the "
                   "certificate refuting up to " +
                   std::to_string(out.certified_bound - 1) + " slots passes its checker too";
    } else {
      out.slots = refined->slots.size();
      out.optimum = rational(static_cast<std::int64_t>(out.slots), static_cast<std::int64_t>(k));
      out.at_optimum.answer = solver_answer::sat;
      out.at_optimum.witness = std::move(*refined);
      if (out.slots > out.certified_bound) out.below_optimum = solve_hrel_existence(instance, out.slots - 1, options);
      if (out.slots == out.certified_bound || out.below_optimum.answer == solver_answer::unsat) {
        out.status = proof_status::proven;
        out.reason = "witness: the hint refined to " + std::to_string(out.slots) + " slots of 1/" + std::to_string(k) +
                     ", checked; " + below_reason(out);
      } else if (out.below_optimum.answer == solver_answer::sat) {
        out.status = proof_status::refuted;
        out.slots = out.slots - 1;
        out.optimum = rational(static_cast<std::int64_t>(out.slots), static_cast<std::int64_t>(k));
        out.reason = "the hint is not optimal: the solver found a checked schedule one slot shorter";
      } else {
        out.reason = "unknown one slot below the hint: " + out.below_optimum.reason;
      }
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }
  // Without a certificate, Z3 is asked one slot below the plain counting bound k·h first (a sanity check: a PE moves
  // one piece per slot); with one, the search starts at the certified bound.
  std::size_t lower = out.certified_bound;
  if (lower == 0) {
    lower = k * instance.h_half_duplex();
    out.below_optimum = solve_hrel_existence(instance, lower - 1, options);
    if (out.below_optimum.answer != solver_answer::unsat) {
      out.status = out.below_optimum.answer == solver_answer::sat ? proof_status::refuted : proof_status::unknown;
      out.reason = out.below_optimum.answer == solver_answer::sat
                       ? "a schedule below the counting bound (a bug)"
                       : "unknown below the counting bound: " + out.below_optimum.reason;
      out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return out;
    }
  }
  std::size_t upper = std::max(lower, k * 3 * ((instance.h_half_duplex() + 1) / 2));  // Section 2.1, no forwarding
  // The generators' best schedule, checked, bounds the search above: the solver is asked only below it.
  std::optional<std::pair<hrel_schedule, std::string>> made =
      options.generator_witnesses ? generator_witness(instance, options) : std::nullopt;
  if (made && made->first.slots.size() < lower) {  // a checked schedule below a checked refutation
    out.status = proof_status::unknown;
    out.reason = "a bug: " + made->second + " has " + std::to_string(made->first.slots.size()) +
                 " slots and passes the schedule checker, but the certificate refuting up to " +
                 std::to_string(lower - 1) + " slots passes its checker too";
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }
  if (made) upper = made->first.slots.size();
  for (std::size_t T = lower; T <= upper; ++T) {
    if (made && T == made->first.slots.size()) {  // every count below refuted: the generator's schedule is optimal
      out.slots = T;
      out.optimum = rational(static_cast<std::int64_t>(T), static_cast<std::int64_t>(k));
      out.at_optimum = {};
      out.at_optimum.answer = solver_answer::sat;
      out.at_optimum.witness = std::move(made->first);
      out.status = proof_status::proven;
      out.reason = "witness: " + made->second + " refined to " + std::to_string(T) + " slots of 1/" +
                   std::to_string(k) + ", checked; " + below_reason(out);
      break;
    }
    hrel_existence_result r = solve_hrel_existence(instance, T, options);
    if (r.answer == solver_answer::unsat) {
      out.below_optimum = std::move(r);
      continue;
    }
    out.at_optimum = std::move(r);
    out.slots = T;
    out.optimum = rational(static_cast<std::int64_t>(T), static_cast<std::int64_t>(k));
    if (out.at_optimum.answer == solver_answer::sat) {
      out.status = proof_status::proven;
      out.reason =
          "checked witness in " + std::to_string(T) + " slots of 1/" + std::to_string(k) + "; " + below_reason(out);
    } else {
      out.reason = "unknown at " + std::to_string(T) + " slots: " + out.at_optimum.reason;
      if (made)
        out.reason +=
            "; " + made->second + " gives " + std::to_string(made->first.slots.size()) +
            " slots (checked), so the optimum is at most " +
            rational(static_cast<std::int64_t>(made->first.slots.size()), static_cast<std::int64_t>(k)).to_string();
    }
    break;
  }
  if (out.slots == 0) out.reason = "no schedule up to the 3 ceil(h/2) bound (a bug: the direct schedule exists)";
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::hrel
