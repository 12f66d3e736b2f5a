// The optimality loop for the dance-party problem: a checked witness at T(n) rounds and unsat at T(n) − 1.
#include "dancecard/smt/optimality.hpp"

#include <chrono>
#include <functional>

#include "certify.hpp"

#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/dance_certificates.hpp"

namespace dancecard {

std::string_view to_string(proof_status s) {
  switch (s) {
    case proof_status::proven:
      return "proven";
    case proof_status::refuted:
      return "refuted";
    case proof_status::unknown:
      return "unknown";
  }
  return "?";
}

certificate_check cutting_planes_certificate(std::string text, const std::string& expected_instance) {
  const auto t0 = std::chrono::steady_clock::now();
  certificate_check c;
  c.kind = "cutting planes";
  c.text = std::move(text);
  const certificates::cutting_planes_report report = certificates::check_cutting_planes(c.text);
  c.bytes = c.text.size();
  c.steps = report.steps;
  c.accepted = report.outcome == verdict::holds && report.instance == expected_instance;
  c.detail = report.outcome == verdict::holds && !c.accepted
                 ? "it refutes another instance: " + report.instance + " (expected " + expected_instance + ")"
                 : describe(report);
  c.status = c.accepted ? "checked" : "rejected";
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return c;
}

namespace detail {

certificate_check clausal_certificate(std::uint64_t estimated_clauses, const std::function<cnf_formula()>& make_cnf,
                                      std::uint64_t rounds, const dance::optimality_options& options,
                                      std::string& disagreement) {
  certificate_check c;
  c.kind = "DRAT";
  if (estimated_clauses > options.max_clausal_clauses) {
    c.status = "not attempted: the CNF has " + std::to_string(estimated_clauses) + " clauses (limit " +
               std::to_string(options.max_clausal_clauses) + ")";
    return c;
  }
  const cnf_formula cnf = make_cnf();
  c.formula = cnf.dimacs();
  const clausal_result solved = solve_with_proof(cnf, options.clausal_budget_ms, drat_encoding::text, options.cancel);
  c.solve_seconds = solved.seconds;
  if (solved.answer == solver_answer::unknown) {
    c.status = "timeout";
    c.detail = solved.reason;
  } else if (solved.answer == solver_answer::sat) {
    c.status = "sat";
    disagreement = "disagreement: CaDiCaL finds the " + std::to_string(rounds) + "-round CNF satisfiable";
  } else {
    const auto t0 = std::chrono::steady_clock::now();
    const certificates::drat_report report = solved.proof.check(c.formula);
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    c.accepted = report.outcome == verdict::holds;
    c.status = c.accepted ? "checked" : "rejected";
    c.steps = report.lemmas;
    c.bytes = solved.proof.bytes();
    c.detail = describe(report);
    c.text = solved.proof.read();
    if (!c.accepted) disagreement = "disagreement: CaDiCaL's DRAT proof was rejected: " + c.detail;
  }
  return c;
}

bool ask_solver_below(const std::optional<certificate_check>& cp, const dance::optimality_options& options) {
  return !(cp && cp->accepted) || options.solve_below_when_certified;
}

settled settle(const existence_summary& at, const existence_summary& below, const std::optional<certificate_check>& cp,
               const std::optional<certificate_check>& drat, const std::string& drat_disagreement,
               std::uint64_t claimed) {
  const solver_answer up = at.answer, down = below.answer;
  const std::string t = std::to_string(claimed), fewer = std::to_string(claimed - 1);
  const bool certified = cp && cp->accepted;
  if (!drat_disagreement.empty()) return {proof_status::unknown, drat_disagreement};
  if (down == solver_answer::unsat && drat && drat->status == "sat")
    return {proof_status::unknown, "disagreement: Z3 and CaDiCaL"};
  if (cp && !certified)
    return {proof_status::unknown, "disagreement: the lower-bound certificate was rejected: " + cp->detail};
  if (down == solver_answer::sat && certified)
    return {proof_status::unknown,
            "disagreement: a checked witness with " + fewer + " rounds and an accepted certificate that none exists"};
  if (down == solver_answer::sat)
    return {proof_status::refuted, "a schedule with " + fewer + " rounds exists (checked witness)"};
  if (up == solver_answer::unsat) return {proof_status::refuted, "no schedule with " + t + " rounds exists"};
  if (up == solver_answer::sat && (down == solver_answer::unsat || certified))
    return {proof_status::proven, "checked witness with " + t + " rounds; " + fewer + " rounds: " +
                                      (down == solver_answer::unsat ? std::string("unsat")
                                       : !below.asked               ? std::string("solver not asked")
                                                                    : "solver " + std::string(to_string(down))) +
                                      (certified ? ", cutting planes checked" : "") +
                                      (drat ? ", DRAT " + drat->status : "")};
  return {proof_status::unknown, up != solver_answer::sat ? "witness side unknown: " + at.reason
                                                          : "lower-bound side unknown: " + below.reason};
}

}  // namespace detail

}  // namespace dancecard

namespace dancecard::dance {

dance_optimality_result prove_dance_optimum(rank n, const optimality_options& options) {
  if (n < 2) throw std::invalid_argument("prove_dance_optimum: n must be at least 2 (T(n) is stated for n > 1)");
  const auto start = std::chrono::steady_clock::now();
  dance_optimality_result out;
  out.n = n;
  out.claimed = optimal_rounds(n);

  dance_query at{.n = n, .rounds = out.claimed, .requirements = {}};
  out.at_claimed = solve_dance_existence(at, {.timeout_ms = options.timeout_ms,
                                              .encoding = options.witness_encoding,
                                              .symmetry_breaking = options.symmetry_breaking,
                                              .rotational_search = options.rotational_search,
                                              .cancel = options.cancel});
  if (options.certify)
    out.certificate =
        cutting_planes_certificate(dance_lower_bound_certificate(n), dance_certificate_instance(n, out.claimed - 1));
  // The lower-bound side runs without symmetry breaking: its infeasibility should come from the counting argument,
  // not from a symmetry constraint that happens to leave no room.
  dance_query below{.n = n, .rounds = out.claimed - 1, .requirements = {}};
  out.solver_below = dancecard::detail::ask_solver_below(out.certificate, options);
  if (out.solver_below)
    out.below_claimed = solve_dance_existence(below, {.timeout_ms = options.timeout_ms,
                                                      .encoding = options.lower_bound_encoding,
                                                      .symmetry_breaking = false,
                                                      .cancel = options.cancel});
  else
    out.below_claimed.reason = dancecard::detail::not_asked_below;
  std::string clausal_disagreement;
  if (options.clausal_budget_ms > 0) {
    const std::uint64_t pairs = static_cast<std::uint64_t>(n) * (n - 1) / 2, rounds = out.claimed - 1;
    const std::uint64_t clauses = pairs * (1 + rounds * (rounds - (rounds > 0 ? 1 : 0)) / 2) +
                                  static_cast<std::uint64_t>(n) * rounds * (n - 1) * (n - 2) / 2;
    out.clausal = dancecard::detail::clausal_certificate(
        clauses, [&] { return dance_query_cnf(below); }, rounds, options, clausal_disagreement);
  }
  const dancecard::detail::settled verdict =
      dancecard::detail::settle(out.at_claimed, {out.below_claimed.answer, out.below_claimed.reason, out.solver_below},
                                out.certificate, out.clausal, clausal_disagreement, out.claimed);
  out.status = verdict.status;
  out.reason = verdict.reason;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::dance
