// Optimality proofs: the least number of rounds, with a checked witness at the optimum and an infeasibility answer
// one round below.
//
//   auto r = dancecard::dance::prove_dance_optimum(11, {});
//   r.status == proof_status::proven   // witness in T(11) = 11 rounds accepted by checkers/, 10 rounds unsat
#pragma once

#include <optional>
#include <string>

#include "dancecard/smt/dance_encoding.hpp"

namespace dancecard {

enum class proof_status { proven, refuted, unknown };
std::string_view to_string(proof_status s);

/// A certificate for the lower-bound side, checked by code that shares nothing with Z3.
struct certificate_check {
  std::string kind;         // "cutting planes" or "DRAT"
  std::string status;       // "checked", "rejected", or for DRAT "timeout" / "not attempted: ..." (no proof)
  std::uint64_t bytes = 0;  // size of the certificate text
  std::uint64_t steps = 0;  // derivation steps
  double seconds = 0;       // generation + check
  bool accepted = false;
  std::string detail;        // the checker's one-line report
  std::string text;          // the certificate itself (for --emit)
  std::string formula;       // DRAT: the DIMACS it refutes (for --emit)
  double solve_seconds = 0;  // DRAT: CaDiCaL's time
};

/// Checks a cutting-planes certificate with checkers/cutting_planes_check: accepted only if the checker accepts it as
/// a refutation of the expected instance (the `instance` line it names, e.g. dance_certificate_instance's or
/// hrel_certificate_instance's); `detail` says which instance it refutes when that is another one. `seconds` is the
/// check's.
certificate_check cutting_planes_certificate(std::string text, const std::string& expected_instance);

}  // namespace dancecard

namespace dancecard::dance {

struct optimality_options {
  unsigned timeout_ms = 0;  // per query; 0: no limit
  /// Encodings for the two sides. The witness side is a search (plain SAT with symmetry breaking is fastest); the
  /// lower-bound side is a counting argument (the counting encoding settles it by bound propagation).
  dance_encoding witness_encoding = dance_encoding::plain;
  dance_encoding lower_bound_encoding = dance_encoding::counting;
  bool symmetry_breaking = true;
  bool rotational_search = true;  // see solve_options::rotational_search (witness side only)
  /// Generate the lower bound's cutting-planes certificate and check it with checkers/ (no solver involved).
  bool certify = true;
  /// Re-solve the lower bound's CNF with CaDiCaL within this budget and check its DRAT proof with checkers/;
  /// 0 skips it. CNFs above max_clausal_clauses are not attempted (reported as such).
  unsigned clausal_budget_ms = 1'000;
  std::uint64_t max_clausal_clauses = 1'000'000;
  /// Ask Z3 the one-round-below query even when the checked cutting-planes certificate already refutes it: a second,
  /// independent answer, and from n ≈ 30 the costliest part of a proof. false: Z3 is asked only when no certificate
  /// was accepted (certify off, or the certificate rejected), and the result's `solver_below` says so.
  bool solve_below_when_certified = true;
  /// When another thread sets it, every solver query stops (answer unknown): the proof ends unknown.
  const std::atomic<bool>* cancel = nullptr;
};

struct dance_optimality_result {
  proof_status status = proof_status::unknown;
  rank n = 0;
  std::uint64_t claimed = 0;                     // T(n) of Proposition 5
  existence_result at_claimed;                   // must be sat with a checked witness
  existence_result below_claimed;                // must be unsat
  std::optional<certificate_check> certificate;  // the lower bound's cutting-planes certificate (certify)
  std::optional<certificate_check> clausal;      // CaDiCaL's DRAT proof of the lower bound (clausal_budget_ms)
  bool solver_below = true;                      // false: below_claimed was not asked (see solve_below_when_certified)
  double seconds = 0;
  std::string reason;  // one sentence: why proven / refuted / unknown
};

/// Proves T(n) = n − 1 (even n) or n (odd n). require: n >= 2 (the paper states T(n) for n > 1).
/// proven: a witness with T(n) rounds accepted by checkers/, and T(n) − 1 rounds infeasible — by Z3's unsat and,
/// with certify, by an accepted cutting-planes certificate (which alone carries the claim when Z3 times out or, without
/// solve_below_when_certified, is not asked).
/// A rejected certificate, or a checked witness below T(n) next to an accepted certificate, is a disagreement:
/// status unknown, and the reason starts with "disagreement".
dance_optimality_result prove_dance_optimum(rank n, const optimality_options& options = {});

}  // namespace dancecard::dance
