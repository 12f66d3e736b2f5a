// The optimality loop for the dance-party problem: a checked witness at T(n) rounds and unsat at T(n) − 1.
#include "dancecard/smt/optimality.hpp"

#include <chrono>

#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/dance_certificates.hpp"

namespace dancecard {

std::string_view to_string(proof_status s) {
  switch (s) {
    case proof_status::proven: return "proven";
    case proof_status::refuted: return "refuted";
    case proof_status::unknown: return "unknown";
  }
  return "?";
}

dance_optimality_result prove_dance_optimum(rank n, const optimality_options& options) {
  if (n < 2) throw std::invalid_argument("prove_dance_optimum: n must be at least 2 (T(n) is stated for n > 1)");
  const auto start = std::chrono::steady_clock::now();
  dance_optimality_result out;
  out.n = n;
  out.claimed = optimal_rounds(n);

  dance_query at{.n = n, .rounds = out.claimed, .requirements = {}};
  out.at_claimed = solve_dance_existence(
      at, {.timeout_ms = options.timeout_ms, .encoding = options.witness_encoding,
           .symmetry_breaking = options.symmetry_breaking, .rotational_search = options.rotational_search});
  // The lower-bound side runs without symmetry breaking: its infeasibility should come from the counting argument,
  // not from a symmetry constraint that happens to leave no room.
  dance_query below{.n = n, .rounds = out.claimed - 1, .requirements = {}};
  out.below_claimed = solve_dance_existence(
      below, {.timeout_ms = options.timeout_ms, .encoding = options.lower_bound_encoding, .symmetry_breaking = false});

  if (options.certify) {
    const auto t0 = std::chrono::steady_clock::now();
    certificate_check c;
    c.kind = "cutting planes";
    c.text = dance_lower_bound_certificate(n);
    const cutting_planes_report report = check_cutting_planes(c.text);
    c.bytes = c.text.size();
    c.steps = report.steps;
    c.accepted = report.outcome == verdict::holds &&
                 report.instance == "dance n=" + std::to_string(n) + " rounds=" + std::to_string(out.claimed - 1);
    c.detail = describe(report);
    c.status = c.accepted ? "checked" : "rejected";
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.certificate = std::move(c);
  }
  std::string clausal_disagreement;
  if (options.clausal_budget_ms > 0) {
    certificate_check c;
    c.kind = "DRAT";
    const std::uint64_t pairs = static_cast<std::uint64_t>(n) * (n - 1) / 2, rounds = out.claimed - 1;
    const std::uint64_t clauses = pairs * (1 + rounds * (rounds - (rounds > 0 ? 1 : 0)) / 2) +
                                  static_cast<std::uint64_t>(n) * rounds * (n - 1) * (n - 2) / 2;
    if (clauses > options.max_clausal_clauses) {
      c.status = "not attempted: the CNF has " + std::to_string(clauses) + " clauses (limit " +
                 std::to_string(options.max_clausal_clauses) + ")";
    } else {
      const cnf_formula cnf = dance_query_cnf(below);
      c.formula = cnf.dimacs();
      const clausal_result solved = solve_with_proof(cnf, options.clausal_budget_ms);
      c.solve_seconds = solved.seconds;
      if (solved.answer == solver_answer::unknown) {
        c.status = "timeout";
        c.detail = solved.reason;
      } else if (solved.answer == solver_answer::sat) {
        c.status = "sat";
        clausal_disagreement = "disagreement: CaDiCaL finds the " + std::to_string(rounds) + "-round CNF satisfiable";
      } else {
        const auto t0 = std::chrono::steady_clock::now();
        const drat_report report = check_drat(c.formula, solved.proof);
        c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        c.accepted = report.outcome == verdict::holds;
        c.status = c.accepted ? "checked" : "rejected";
        c.steps = report.lemmas;
        c.bytes = solved.proof.size();
        c.detail = describe(report);
        c.text = solved.proof;
        if (!c.accepted) clausal_disagreement = "disagreement: CaDiCaL's DRAT proof was rejected: " + c.detail;
      }
    }
    out.clausal = std::move(c);
  }

  const solver_answer up = out.at_claimed.answer, down = out.below_claimed.answer;
  const std::string t = std::to_string(out.claimed);
  const std::string fewer = std::to_string(out.claimed - 1);
  const bool certified = out.certificate && out.certificate->accepted;
  if (!clausal_disagreement.empty()) {
    out.status = proof_status::unknown;
    out.reason = clausal_disagreement;
  } else if (down == solver_answer::unsat && out.clausal && out.clausal->status == "sat") {
    out.status = proof_status::unknown;
    out.reason = "disagreement: Z3 and CaDiCaL";
  } else if (out.certificate && !certified) {
    out.status = proof_status::unknown;
    out.reason = "disagreement: the lower-bound certificate was rejected: " + out.certificate->detail;
  } else if (down == solver_answer::sat && certified) {
    out.status = proof_status::unknown;
    out.reason = "disagreement: a checked witness with " + fewer + " rounds and an accepted certificate that none exists";
  } else if (down == solver_answer::sat) {
    out.status = proof_status::refuted;
    out.reason = "a schedule with " + fewer + " rounds exists (checked witness)";
  } else if (up == solver_answer::unsat) {
    out.status = proof_status::refuted;
    out.reason = "no schedule with " + t + " rounds exists";
  } else if (up == solver_answer::sat && (down == solver_answer::unsat || certified)) {
    out.status = proof_status::proven;
    out.reason = "checked witness with " + t + " rounds; " + fewer + " rounds: " +
                 (down == solver_answer::unsat ? std::string("unsat") : "solver " + std::string(to_string(down))) +
                 (certified ? ", cutting planes checked" : "") +
                 (out.clausal ? ", DRAT " + out.clausal->status : "");
  } else {
    out.status = proof_status::unknown;
    out.reason = up != solver_answer::sat ? "witness side unknown: " + out.at_claimed.reason
                                          : "lower-bound side unknown: " + out.below_claimed.reason;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard
