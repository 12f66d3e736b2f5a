// Z3 encoding of dance-schedule existence, its implied constraints and its symmetry breaking.
//
// Variables. meet_r<r>_p<a>_p<b> is true when the pair {a, b} dances in round r. Pairs outside the required set,
// forbidden (pair, round) combinations and rounds in which a person is unavailable get no variable (they are false).
//
// Base constraints (the paper's (i)–(iii) plus the side conditions):
//   (i)   every required pair meets in exactly one round: at-least-one clause + at-most-one cardinality;
//   (ii)  every person dances at most once per round: at-most-one over the person's pairs in the round;
//   (iii) holds by construction (a pair variable is symmetric);
//   fixed dances are asserted true.
//
// Implied constraints of the counting encoding. Each follows from the base constraints, so adding it removes no
// schedule; together they turn Proposition 1's counting proof into bound propagation for the arithmetic solver:
//   busy_r<r>_p<p> ∈ {0, 1} is 1 iff p dances in round r, which by (ii) is the number of p's dances in it;
//   Σ_r busy_p,r = deg(p): each of p's required pairs meets exactly once, by (i);
//   Σ_p busy_p,r = 2 · dances_r: every dance makes two people busy;
//   dances_r ≤ ⌊available_r / 2⌋: the dances of a round are disjoint pairs of the people available in it (this is
//       the Chvátal–Gomory rounding of the previous line, which an LP cannot see by itself);
//   Σ_r dances_r = |E|: every required pair dances once, by (i).
// With R rounds, odd n and R < n, the last two give R·(n−1)/2 < n(n−1)/2 at once; for even n and R < n − 1 the
// per-person sum exceeds R at once.
//
// Symmetry breaking, only when no side condition names a round (then any permutation of rounds maps schedules to
// schedules):
//   partner order: person 0's k-th smallest required partner dances with 0 in round k (k < min(deg 0, R)).
//       Sound: permute the rounds so that 0's dances come first, in partner order.
//   first round: for the complete graph and R = T(n) only, round 0 is (0,1), (2,3), (4,5), ...
//       Sound: with R = T(n) rounds every round holds ⌊n/2⌋ dances (counting, as above); relabelling the people
//       other than 0 and 1 maps the complete graph to itself, so the other pairs of the round in which 0 meets 1 can
//       be named (2,3), (4,5), ...; re-sorting the rounds by 0's partner keeps that round first.
#include "dancecard/smt/dance_encoding.hpp"

#include <z3++.h>
#include <algorithm>
#include <chrono>
#include <set>

#include "z3_query.hpp"

#include "dancecard/core/dance/round_counts.hpp"

namespace dancecard {

std::string_view to_string(solver_answer a) {
  switch (a) {
    case solver_answer::sat:
      return "sat";
    case solver_answer::unsat:
      return "unsat";
    case solver_answer::unknown:
      return "unknown";
  }
  return "?";
}

std::string solver_version() {
  unsigned major = 0, minor = 0, build = 0, revision = 0;
  Z3_get_version(&major, &minor, &build, &revision);
  return "Z3 " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(build);
}

}  // namespace dancecard

namespace dancecard::dance {

std::string_view to_string(dance_encoding e) { return e == dance_encoding::plain ? "plain" : "counting"; }

std::optional<dance_encoding> parse_dance_encoding(std::string_view text) {
  if (text == "plain") return dance_encoding::plain;
  if (text == "counting") return dance_encoding::counting;
  return std::nullopt;
}

namespace {

struct encoding {
  std::vector<std::pair<rank, rank>> pairs;  // required pairs, a < b, sorted
  std::size_t rounds = 0;
  std::vector<std::optional<z3::expr>> meet;  // meet[e * rounds + r]
  std::string description;
  std::size_t variables = 0;

  const std::optional<z3::expr>& at(std::size_t e, std::size_t r) const { return meet[e * rounds + r]; }
};

std::vector<std::pair<rank, rank>> required_pairs(const dance_query& q) {
  std::set<std::pair<rank, rank>> pairs;
  if (q.requirements.required_pairs) {
    for (auto [a, b] : *q.requirements.required_pairs) {
      if (a >= q.n || b >= q.n || a == b)
        throw std::invalid_argument("dance_query: required pair (" + std::to_string(a) + ", " + std::to_string(b) +
                                    ") is not a pair of distinct ranks below n = " + std::to_string(q.n));
      pairs.emplace(std::min(a, b), std::max(a, b));
    }
  } else {
    for (rank a = 0; a < q.n; ++a)
      for (rank b = a + 1; b < q.n; ++b) pairs.emplace(a, b);
  }
  return {pairs.begin(), pairs.end()};
}

bool rotational_applies(const dance_query& q, const solve_options& options) {
  const dance_requirements& req = q.requirements;
  return options.rotational_search && !req.required_pairs && req.fixed.empty() && req.forbidden.empty() &&
         req.unavailable.empty() && q.n >= 2 && q.rounds == optimal_rounds(q.n);
}

void add_at_most_one(z3::solver& s, const z3::expr_vector& v) {
  if (v.size() >= 2) s.add(z3::atmost(v, 1));  // never on an empty vector
}

encoding encode(z3::context& ctx, z3::solver& s, const dance_query& q, const solve_options& options) {
  const dance_requirements& req = q.requirements;
  encoding enc;
  enc.pairs = required_pairs(q);
  enc.rounds = q.rounds;
  const std::size_t R = q.rounds;
  const std::size_t E = enc.pairs.size();
  auto pair_of = [&](rank a, rank b) -> std::optional<std::size_t> {
    auto key = std::pair{std::min(a, b), std::max(a, b)};
    auto it = std::lower_bound(enc.pairs.begin(), enc.pairs.end(), key);
    if (it == enc.pairs.end() || *it != key) return std::nullopt;
    return static_cast<std::size_t>(it - enc.pairs.begin());
  };
  for (const auto& f : req.fixed)
    if (f.a >= q.n || f.b >= q.n) throw std::invalid_argument("dance_query: fixed dance names a rank >= n");
  for (const auto& u : req.unavailable)
    if (u.person >= q.n) throw std::invalid_argument("dance_query: unavailability names a rank >= n");

  std::vector<char> absent(E * R, 0);
  for (const auto& f : req.forbidden)
    if (auto e = pair_of(f.a, f.b); e && f.round < R) absent[*e * R + f.round] = 1;
  std::vector<char> unavailable(static_cast<std::size_t>(q.n) * R, 0);
  for (const auto& u : req.unavailable)
    if (u.round < R) unavailable[static_cast<std::size_t>(u.person) * R + u.round] = 1;

  enc.meet.resize(E * R);
  const bool rotational = rotational_applies(q, options);
  // Under the rotational restriction round r reuses round 0's variables: meet in round r of {a, b} is meet in round
  // 0 of {a, b} turned back by r. For n = 2m vertex 0 stays and 1..2m-1 turn as Z_(2m-1); for odd n all vertices turn.
  const rank cycle = q.n % 2 == 0 ? q.n - 1 : q.n;
  auto turn_back = [&](rank v, std::size_t r) -> rank {
    if (q.n % 2 == 0) return v == 0 ? 0 : static_cast<rank>((v - 1 + cycle - r % cycle) % cycle + 1);
    return static_cast<rank>((v + cycle - r % cycle) % cycle);
  };
  for (std::size_t e = 0; e < E; ++e) {
    auto [a, b] = enc.pairs[e];
    for (std::size_t r = 0; r < R; ++r) {
      if (absent[e * R + r] || unavailable[static_cast<std::size_t>(a) * R + r] ||
          unavailable[static_cast<std::size_t>(b) * R + r])
        continue;
      if (rotational && r > 0) continue;
      const std::string name = "meet_r" + std::to_string(r) + "_p" + std::to_string(a) + "_p" + std::to_string(b);
      enc.meet[e * R + r] = ctx.bool_const(name.c_str());
      ++enc.variables;
    }
  }
  if (rotational)
    for (std::size_t e = 0; e < E; ++e)
      for (std::size_t r = 1; r < R; ++r) {
        auto [a, b] = enc.pairs[e];
        enc.meet[e * R + r] = enc.meet[*pair_of(turn_back(a, r), turn_back(b, r)) * R];
      }

  // (i) every required pair exactly once.
  for (std::size_t e = 0; e < E; ++e) {
    z3::expr_vector v(ctx);
    for (std::size_t r = 0; r < R; ++r)
      if (enc.at(e, r)) v.push_back(*enc.at(e, r));
    if (v.empty()) {
      s.add(ctx.bool_val(false));  // the pair has no round left to meet in
      continue;
    }
    s.add(z3::mk_or(v));
    add_at_most_one(s, v);
  }
  // (ii) every person at most once per round. incident[p] = the pairs of p.
  std::vector<std::vector<std::size_t>> incident(q.n);
  for (std::size_t e = 0; e < E; ++e) {
    incident[enc.pairs[e].first].push_back(e);
    incident[enc.pairs[e].second].push_back(e);
  }
  for (rank p = 0; p < q.n; ++p)
    for (std::size_t r = 0; r < R; ++r) {
      z3::expr_vector v(ctx);
      for (std::size_t e : incident[p])
        if (enc.at(e, r)) v.push_back(*enc.at(e, r));
      add_at_most_one(s, v);
    }
  // Fixed dances.
  for (const auto& f : req.fixed) {
    auto e = pair_of(f.a, f.b);
    if (!e || f.round >= R || !enc.at(*e, f.round))
      s.add(ctx.bool_val(false));
    else
      s.add(*enc.at(*e, f.round));
  }
  enc.description = std::string(to_string(options.encoding));

  // Full rounds (both encodings). When the rounds' capacities add up exactly to the number of required pairs,
  // every round must be full: Σ_r ⌊available_r / 2⌋ = |E| and each round holds at most ⌊available_r / 2⌋ dances,
  // so none holds fewer. Then each round gets an at-least-⌊available_r / 2⌋ constraint and, where the available
  // people are even in number, every available person dances in it. Implied, so sound; it turns the witness search
  // for R = T(n) into a search for (near-)one-factors, where the solver propagates much more.
  {
    std::size_t capacity = 0;
    std::vector<std::size_t> available(R, 0);
    for (std::size_t r = 0; r < R; ++r) {
      for (rank p = 0; p < q.n; ++p) available[r] += unavailable[static_cast<std::size_t>(p) * R + r] ? 0 : 1;
      capacity += available[r] / 2;
    }
    if (R > 0 && capacity == E) {
      std::vector<z3::expr_vector> idle_of;
      for (rank p = 0; p < q.n; ++p) idle_of.emplace_back(ctx);
      for (std::size_t r = 0; r < R; ++r) {
        z3::expr_vector v(ctx);
        for (std::size_t e = 0; e < E; ++e)
          if (enc.at(e, r)) v.push_back(*enc.at(e, r));
        const unsigned need = static_cast<unsigned>(available[r] / 2);
        if (need > v.size())
          s.add(ctx.bool_val(false));
        else if (need > 0)
          s.add(z3::atleast(v, need));
        if (available[r] % 2 == 0) {
          for (rank p = 0; p < q.n; ++p) {
            if (unavailable[static_cast<std::size_t>(p) * R + r]) continue;
            z3::expr_vector mine(ctx);
            for (std::size_t e : incident[p])
              if (enc.at(e, r)) mine.push_back(*enc.at(e, r));
            s.add(mine.empty() ? ctx.bool_val(false) : z3::mk_or(mine));
          }
        } else if (req.unavailable.empty()) {
          // A full round of an odd number of people leaves exactly one of them idle: give idleness its own variable,
          // idle_r<r>_p<p> ⇔ p dances in no pair of round r, so that "p dances once or is idle" is an exactly-one.
          z3::expr_vector idle_in_round(ctx);
          for (rank p = 0; p < q.n; ++p) {
            // Under the rotational restriction round r's idleness is round 0's turned by r, like the pairs.
            const std::string name = "idle_r" + std::to_string(r) + "_p" + std::to_string(p);
            z3::expr idle = rotational && r > 0 ? idle_of[turn_back(p, r)][0] : ctx.bool_const(name.c_str());
            z3::expr_vector options_of_p(ctx);
            for (std::size_t e : incident[p])
              if (enc.at(e, r)) options_of_p.push_back(*enc.at(e, r));
            options_of_p.push_back(idle);
            s.add(z3::mk_or(options_of_p));
            add_at_most_one(s, options_of_p);
            idle_in_round.push_back(idle);
            idle_of[p].push_back(idle);
          }
          s.add(z3::mk_or(idle_in_round));
          add_at_most_one(s, idle_in_round);
        }
      }
      // Without unavailability, p is idle in exactly R − deg(p) rounds; when all rounds are odd-sized and full this
      // is a cardinality over the idle variables.
      bool all_odd = req.unavailable.empty();
      for (std::size_t r = 0; r < R; ++r) all_odd = all_odd && available[r] % 2 == 1;
      if (all_odd)
        for (rank p = 0; p < q.n; ++p) {
          if (incident[p].size() > R) {
            s.add(ctx.bool_val(false));
            continue;
          }
          const unsigned k = static_cast<unsigned>(R - incident[p].size());
          if (k == 0)
            s.add(!z3::mk_or(idle_of[p]));
          else {
            s.add(z3::atleast(idle_of[p], k));
            if (k < idle_of[p].size()) s.add(z3::atmost(idle_of[p], k));
          }
        }
      enc.description += " + full rounds";
    }
  }

  if (options.encoding == dance_encoding::counting) {
    z3::expr zero = ctx.int_val(0), one = ctx.int_val(1);
    std::vector<z3::expr_vector> busy_in_round;
    for (std::size_t r = 0; r < R; ++r) busy_in_round.emplace_back(ctx);
    for (rank p = 0; p < q.n; ++p) {
      z3::expr_vector rounds_busy(ctx);
      for (std::size_t r = 0; r < R; ++r) {
        // dances_r<r>_p<p> ⇔ p is in some pair of round r (a definition); busy_r<r>_p<p> is its 0/1 value. By (ii)
        // this equals the number of p's dances in the round, and only n·R terms reach the arithmetic solver
        // (a sum over the pair variables would bring all |E|·R of them).
        const std::string name = "busy_r" + std::to_string(r) + "_p" + std::to_string(p);
        const std::string dances_name = "dances_r" + std::to_string(r) + "_p" + std::to_string(p);
        z3::expr busy = ctx.int_const(name.c_str());
        z3::expr dancing = ctx.bool_const(dances_name.c_str());
        z3::expr_vector mine(ctx);
        for (std::size_t e : incident[p])
          if (enc.at(e, r)) mine.push_back(*enc.at(e, r));
        s.add(dancing == (mine.empty() ? ctx.bool_val(false) : z3::mk_or(mine)));
        s.add(busy >= 0 && busy <= 1);
        s.add(busy == z3::ite(dancing, one, zero));
        rounds_busy.push_back(busy);
        busy_in_round[r].push_back(busy);
      }
      const int degree = static_cast<int>(incident[p].size());
      s.add((rounds_busy.empty() ? zero : z3::sum(rounds_busy)) == ctx.int_val(degree));
    }
    z3::expr_vector dances_per_round(ctx);
    for (std::size_t r = 0; r < R; ++r) {
      const std::string name = "dances_r" + std::to_string(r);
      z3::expr dances = ctx.int_const(name.c_str());
      int available = 0;
      for (rank p = 0; p < q.n; ++p) available += unavailable[static_cast<std::size_t>(p) * R + r] ? 0 : 1;
      s.add(dances >= 0 && dances <= ctx.int_val(available / 2));
      s.add((busy_in_round[r].empty() ? zero : z3::sum(busy_in_round[r])) == 2 * dances);
      dances_per_round.push_back(dances);
    }
    s.add((dances_per_round.empty() ? zero : z3::sum(dances_per_round)) == ctx.int_val(static_cast<int>(E)));
  }

  const bool round_specific = !req.fixed.empty() || !req.forbidden.empty() || !req.unavailable.empty();
  if (rotational) {
    enc.description += " + rotational restriction";
    return enc;
  }
  if (options.symmetry_breaking && !round_specific && q.n >= 2) {
    // Partner order of person 0 (incident[0] is sorted by partner because pairs are sorted).
    const std::size_t k_max = std::min(incident[0].size(), R);
    for (std::size_t k = 0; k < k_max; ++k) s.add(*enc.at(incident[0][k], k));
    enc.description += " + symmetry(partner order)";
    if (!req.required_pairs && R == optimal_rounds(q.n) && R > 0) {
      for (rank a = 2; a + 1 < q.n; a += 2) s.add(*enc.at(*pair_of(a, a + 1), 0));
      enc.description += " + symmetry(first round)";
    }
  }
  return enc;
}

existence_result solve_once(const dance_query& query, const solve_options& options);

}  // namespace

existence_result solve_dance_existence(const dance_query& query, const solve_options& options) {
  if (rotational_applies(query, options)) {
    existence_result restricted = solve_once(query, options);
    if (restricted.answer == solver_answer::sat) return restricted;
    // Nothing found among rotational schedules (or no time): that says nothing about schedules in general.
    solve_options free = options;
    free.rotational_search = false;
    existence_result general = solve_once(query, free);
    general.seconds += restricted.seconds;
    general.encoding += " (after the rotational search: " + std::string(to_string(restricted.answer)) + ")";
    return general;
  }
  return solve_once(query, options);
}

namespace {
existence_result solve_once(const dance_query& query, const solve_options& options) {
  existence_result out;
  dancecard::detail::run_timed_query(out, [&] {
    z3::context ctx;
    z3::solver s = dancecard::detail::make_solver(ctx, options);
    encoding enc = encode(ctx, s, query, options);
    out.encoding = enc.description;
    out.variables = enc.variables;
    dancecard::detail::take_answer(
        s, out.answer, out.reason,
        [&](const z3::model& m) -> std::string {
          dance_schedule schedule(query.n);
          for (std::size_t r = 0; r < enc.rounds; ++r) {
            schedule.begin_round();
            for (std::size_t e = 0; e < enc.pairs.size(); ++e)
              if (enc.at(e, r) && m.eval(*enc.at(e, r), true).is_true())
                schedule.add_dance(enc.pairs[e].first, enc.pairs[e].second);
          }
          dance_requirements req = query.requirements;
          req.max_rounds = query.rounds;
          dance_report rejection;
          out.witness = checked_dance_schedule::accept(std::move(schedule), req, &rejection);
          return out.witness ? std::string() : describe(rejection);
        },
        options.cancel);
  });
  return out;
}
}  // namespace

std::string dance_query_smtlib(const dance_query& query, const solve_options& options) {
  z3::context ctx;
  z3::solver s = dancecard::detail::make_solver(ctx, options);
  encode(ctx, s, query, options);
  return s.to_smt2();
}

}  // namespace dancecard::dance
