// The optimality loop for the dance-party problem: a checked witness at T(n) rounds and unsat at T(n) − 1.
#include "dancecard/smt/optimality.hpp"

#include <chrono>

#include "dancecard/core/dance/round_counts.hpp"

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

  const solver_answer up = out.at_claimed.answer, down = out.below_claimed.answer;
  const std::string t = std::to_string(out.claimed);
  if (down == solver_answer::sat) {
    out.status = proof_status::refuted;
    out.reason = "a schedule with " + std::to_string(out.claimed - 1) + " rounds exists (checked witness)";
  } else if (up == solver_answer::unsat) {
    out.status = proof_status::refuted;
    out.reason = "no schedule with " + t + " rounds exists";
  } else if (up == solver_answer::sat && down == solver_answer::unsat) {
    out.status = proof_status::proven;
    out.reason = "checked witness with " + t + " rounds; " + std::to_string(out.claimed - 1) + " rounds unsat";
  } else {
    out.status = proof_status::unknown;
    out.reason = up != solver_answer::sat ? "witness side unknown: " + out.at_claimed.reason
                                          : "lower-bound side unknown: " + out.below_claimed.reason;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard
