// Optimality proofs: the least number of rounds, with a checked witness at the optimum and an infeasibility answer
// one round below.
//
//   auto r = dancecard::prove_dance_optimum(11, {});
//   r.status == proof_status::proven   // witness in T(11) = 11 rounds accepted by checkers/, 10 rounds unsat
#pragma once

#include <string>

#include "dancecard/smt/dance_encoding.hpp"

namespace dancecard {

enum class proof_status { proven, refuted, unknown };
std::string_view to_string(proof_status s);

struct optimality_options {
  unsigned timeout_ms = 0;  // per query; 0: no limit
  /// Encodings for the two sides. The witness side is a search (plain SAT with symmetry breaking is fastest); the
  /// lower-bound side is a counting argument (the counting encoding settles it by bound propagation).
  dance_encoding witness_encoding = dance_encoding::plain;
  dance_encoding lower_bound_encoding = dance_encoding::counting;
  bool symmetry_breaking = true;
  bool rotational_search = true;  // see solve_options::rotational_search (witness side only)
};

struct dance_optimality_result {
  proof_status status = proof_status::unknown;
  rank n = 0;
  std::uint64_t claimed = 0;       // T(n) of Proposition 5
  existence_result at_claimed;     // must be sat with a checked witness
  existence_result below_claimed;  // must be unsat
  double seconds = 0;
  std::string reason;              // one sentence: why proven / refuted / unknown
};

/// Proves T(n) = n − 1 (even n) or n (odd n). require: n >= 2 (the paper states T(n) for n > 1).
dance_optimality_result prove_dance_optimum(rank n, const optimality_options& options = {});

}  // namespace dancecard
