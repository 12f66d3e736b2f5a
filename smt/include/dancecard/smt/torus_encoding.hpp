// The time-independent limit of torus gossip in the pairing model, by Z3: every PU sends its own (single) packet on
// every port in step 1; from step 2 on, each PU forwards what arrives on a port out of the port it is paired with
// (one fixed pairing of its 2d ports per PU). "Can some choice of pairings complete gossip within T steps?" — the
// witness is turned into a routing table and must complete within T steps in checkers/torus_check's simulator; the
// minimum is the least such T with T − 1 unsat. Z3's unsat only: no certificate.
//
//   auto r = dancecard::prove_torus_pairing_minimum(dancecard::torus({4, 4}), {.timeout_ms = 60000});
//   r.status == proof_status::proven && r.minimum_steps == ...
#pragma once

#include <optional>
#include <string>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard {

struct torus_query_result {
  solver_answer answer = solver_answer::unknown;
  std::optional<routing_table> witness;  // present iff sat; completes within the steps asked, by the simulator
  double seconds = 0;
  std::string reason;
};

torus_query_result solve_torus_pairing(const torus& network, std::uint64_t steps, unsigned timeout_ms);

struct torus_minimum_result {
  proof_status status = proof_status::unknown;
  std::uint64_t minimum_steps = 0;
  std::uint64_t lower_bound = 0;  // ⌈(P − 1)/(2d)⌉: a PU learns at most 2d packets per step
  torus_query_result at_minimum, below_minimum;
  double seconds = 0;
  std::string reason;
};

/// Searches upward from the counting bound. require: P >= 2.
torus_minimum_result prove_torus_pairing_minimum(const torus& network, unsigned timeout_ms, std::uint64_t max_steps = 0);

}  // namespace dancecard
