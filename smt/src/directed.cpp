// Z3 encoding, certificates and the optimality proof for full-duplex all-to-all schedules.
#include "dancecard/smt/directed.hpp"

#include <z3++.h>
#include <chrono>
#include <sstream>

#include "certify.hpp"
#include "dancecard/checkers/cutting_planes_check.hpp"
#include "z3_query.hpp"

namespace dancecard::dance {

namespace {

// Adds the query to `s`; returns the variables x[(i·n + j)·R + r] (false for i = j) and describes the encoding.
std::vector<z3::expr> encode_directed(z3::context& ctx, z3::solver& s, rank n, std::size_t R,
                                      const solve_options& options, std::string& description) {
  std::vector<z3::expr> x;
  x.reserve(static_cast<std::size_t>(n) * n * R);
  for (rank i = 0; i < n; ++i)
    for (rank j = 0; j < n; ++j)
      for (std::size_t r = 0; r < R; ++r) {
        const std::string name = "send_r" + std::to_string(r) + "_s" + std::to_string(i) + "_d" + std::to_string(j);
        x.push_back(i == j ? ctx.bool_val(false) : ctx.bool_const(name.c_str()));
      }
  auto at = [&](rank i, rank j, std::size_t r) -> const z3::expr& {
    return x[(static_cast<std::size_t>(i) * n + j) * R + r];
  };
  auto at_most_one = [&](const z3::expr_vector& v) {
    if (v.size() >= 2) s.add(z3::atmost(v, 1));
  };
  for (rank i = 0; i < n; ++i)
    for (rank j = 0; j < n; ++j) {
      if (i == j) continue;
      z3::expr_vector v(ctx);
      for (std::size_t r = 0; r < R; ++r) v.push_back(at(i, j, r));
      s.add(v.empty() ? ctx.bool_val(false) : z3::mk_or(v));
      at_most_one(v);
    }
  const bool full = R * n == static_cast<std::size_t>(n) * (n - 1);  // every round holds n transfers
  description = std::string(to_string(options.encoding)) + (full ? " + full rounds" : "");
  for (rank p = 0; p < n; ++p)
    for (std::size_t r = 0; r < R; ++r) {
      z3::expr_vector sends(ctx), receives(ctx);
      for (rank q = 0; q < n; ++q)
        if (q != p) {
          sends.push_back(at(p, q, r));
          receives.push_back(at(q, p, r));
        }
      at_most_one(sends);
      at_most_one(receives);
      if (full && !sends.empty()) {  // implied: n(n−1) transfers in n−1 rounds of at most n
        s.add(z3::mk_or(sends));
        s.add(z3::mk_or(receives));
      }
    }
  if (options.encoding == dance_encoding::counting) {
    // sends_r<r>_s<i> ∈ {0, 1} is 1 iff i sends in round r; Σ_r = n − 1 (each of its n − 1 messages once).
    for (rank i = 0; i < n; ++i) {
      z3::expr_vector per_round(ctx);
      for (std::size_t r = 0; r < R; ++r) {
        z3::expr_vector mine(ctx);
        for (rank q = 0; q < n; ++q)
          if (q != i) mine.push_back(at(i, q, r));
        const std::string name = "sends_r" + std::to_string(r) + "_s" + std::to_string(i);
        z3::expr count = ctx.int_const(name.c_str());
        s.add(count >= 0 && count <= 1);
        s.add(count == z3::ite(mine.empty() ? ctx.bool_val(false) : z3::mk_or(mine), ctx.int_val(1), ctx.int_val(0)));
        per_round.push_back(count);
      }
      s.add((per_round.empty() ? ctx.int_val(0) : z3::sum(per_round)) == ctx.int_val(static_cast<int>(n - 1)));
    }
  }
  if (options.symmetry_breaking) {  // permuting rounds: rank 0's k-th message (to k + 1) goes in round k
    for (std::size_t k = 0; k + 1 < n && k < R; ++k) s.add(at(0, static_cast<rank>(k + 1), k));
    description += " + symmetry(rank 0 order)";
  }
  return x;
}

}  // namespace

directed_existence_result solve_directed_existence(rank n, std::size_t rounds, const solve_options& options) {
  directed_existence_result out;
  dancecard::detail::run_timed_query(out, [&] {
    z3::context ctx;
    z3::solver s = dancecard::detail::make_solver(ctx, options);
    const std::size_t R = rounds;
    const std::vector<z3::expr> x = encode_directed(ctx, s, n, R, options, out.encoding);
    out.variables = static_cast<std::size_t>(n) * (n - 1) * R;
    dancecard::detail::take_answer(
        s, out.answer, out.reason,
        [&](const z3::model& m) -> std::string {
          directed_schedule schedule(n);
          for (std::size_t r = 0; r < R; ++r) {
            schedule.begin_round();
            for (rank i = 0; i < n; ++i)
              for (rank j = 0; j < n; ++j)
                if (i != j && m.eval(x[(static_cast<std::size_t>(i) * n + j) * R + r], true).is_true())
                  schedule.add_transfer(i, j);
          }
          directed_report rejection;
          out.witness = checked_directed_schedule::accept(std::move(schedule), R, &rejection);
          return out.witness ? std::string() : describe(rejection);
        },
        options.cancel);
  });
  return out;
}

std::string directed_query_smtlib(rank n, std::size_t rounds, const solve_options& options) {
  z3::context ctx;
  z3::solver s = dancecard::detail::make_solver(ctx, options);
  std::string description;
  encode_directed(ctx, s, n, rounds, options, description);
  return s.to_smt2();
}

std::string directed_lower_bound_certificate(rank n) {
  if (n < 2) throw std::invalid_argument("directed_lower_bound_certificate: n must be at least 2");
  const std::uint64_t rounds = n - 2;
  std::ostringstream out;
  out << certificates::cutting_planes_format_name << "\n# rank 0 sends at most once per round but has " << n - 1
      << " messages\n";
  out << "instance directed n=" << n << " rounds=" << rounds << "\nc 1 sum";
  for (std::uint64_t r = 0; r < rounds; ++r) out << " 1 sender:0:" << r;
  for (rank j = 1; j < n; ++j) out << " 1 send:0:" << j;
  out << "\ncontradiction #1\n";
  return out.str();
}

cnf_formula directed_query_cnf(rank n, std::size_t rounds) {
  cnf_formula f;
  const int R = static_cast<int>(rounds);
  f.variables = static_cast<int>(n) * static_cast<int>(n) * R;
  auto var = [&](rank i, rank j, int r) {
    return (static_cast<int>(i) * static_cast<int>(n) + static_cast<int>(j)) * R + r + 1;
  };
  f.comments.push_back("dancecard: a full-duplex all-to-all schedule for " + std::to_string(n) + " ranks in " +
                       std::to_string(R) + " rounds");
  f.comments.push_back("variable (i*" + std::to_string(n) + " + j)*" + std::to_string(R) +
                       " + r + 1 is true when rank i sends to rank j in round r (i = j never occurs)");
  for (rank i = 0; i < n; ++i)
    for (rank j = 0; j < n; ++j) {
      if (i == j) continue;
      std::vector<int> once;
      for (int r = 0; r < R; ++r) once.push_back(var(i, j, r));
      f.clauses.push_back(once);
      for (int r = 0; r < R; ++r)
        for (int t = r + 1; t < R; ++t) f.clauses.push_back({-var(i, j, r), -var(i, j, t)});
    }
  for (rank p = 0; p < n; ++p)
    for (int r = 0; r < R; ++r)
      for (rank a = 0; a < n; ++a)
        for (rank b = a + 1; b < n; ++b) {
          if (a != p && b != p) {
            f.clauses.push_back({-var(p, a, r), -var(p, b, r)});  // p sends at most once
            f.clauses.push_back({-var(a, p, r), -var(b, p, r)});  // p receives at most once
          }
        }
  return f;
}

directed_optimality_result prove_directed_optimum(rank n, const optimality_options& options) {
  if (n < 2) throw std::invalid_argument("prove_directed_optimum: n must be at least 2");
  const auto start = std::chrono::steady_clock::now();
  directed_optimality_result out;
  out.n = n;
  out.claimed = n - 1;
  out.at_claimed = solve_directed_existence(n, out.claimed,
                                            {.timeout_ms = options.timeout_ms,
                                             .encoding = options.witness_encoding,
                                             .symmetry_breaking = options.symmetry_breaking,
                                             .cancel = options.cancel});
  if (options.certify)
    out.certificate = cutting_planes_certificate(
        directed_lower_bound_certificate(n), "directed n=" + std::to_string(n) + " rounds=" + std::to_string(n - 2));
  out.solver_below = dancecard::detail::ask_solver_below(out.certificate, options);
  if (out.solver_below)
    out.below_claimed = solve_directed_existence(n, out.claimed - 1,
                                                 {.timeout_ms = options.timeout_ms,
                                                  .encoding = options.lower_bound_encoding,
                                                  .symmetry_breaking = false,
                                                  .cancel = options.cancel});
  else
    out.below_claimed.reason = dancecard::detail::not_asked_below;
  std::string clausal_disagreement;
  if (options.clausal_budget_ms > 0) {
    const std::uint64_t R = n - 2, m = static_cast<std::uint64_t>(n);
    const std::uint64_t clauses = m * (m - 1) * (1 + R * (R - (R > 0 ? 1 : 0)) / 2) + 2 * m * R * (m - 1) * (m - 2) / 2;
    out.clausal = dancecard::detail::clausal_certificate(
        clauses, [&] { return directed_query_cnf(n, R); }, R, options, clausal_disagreement);
  }
  const dancecard::detail::settled s =
      dancecard::detail::settle({out.at_claimed.answer, out.at_claimed.reason},
                                {out.below_claimed.answer, out.below_claimed.reason, out.solver_below}, out.certificate,
                                out.clausal, clausal_disagreement, out.claimed);
  out.status = s.status;
  out.reason = s.reason;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::dance
