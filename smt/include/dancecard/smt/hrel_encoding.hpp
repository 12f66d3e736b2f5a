// Exact small-instance optima of h-relations at piece granularity 1/k (Z3): "can every message be delivered within
// T slots of length 1/k, each PE sending or receiving at most one piece per slot (half duplex), with or without
// forwarding?" — the witness goes through checkers/hrel_schedule_check, and the optimum is the least such T/k with
// T − 1 impossible. Below the counting arguments' bound (smt/hrel_certificates.hpp: per PE, odd sets, Section 2.5)
// that rests on a cutting-planes certificate accepted by checkers/cutting_planes_check, and Z3 is not asked; above
// it, on Z3's unsat alone (hrel_optimum_result::certificate then stays empty).
//
//   auto r = dancecard::prove_hrel_optimum(two_triangles, {.granularity = 5, .forwarding = true});
//   r.status == proof_status::proven && r.optimum == dancecard::rational(12, 5)
#pragma once

#include <optional>
#include <string>

#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard {

struct hrel_proof_options {
  unsigned granularity = 1;  // k: pieces of 1/k packet, slots of 1/k time
  bool forwarding = false;   // may a piece travel through other PEs?
  unsigned timeout_ms = 0;   // per query; 0: none
  /// A schedule from anywhere (a generator, a file) to serve as the witness: it is refined to slots of 1/k and must
  /// pass the half-duplex checker (and use no forwarding unless `forwarding`); then only "one slot less" is asked of
  /// the solver. For instances where the solver proves the bound but cannot find the witness itself.
  const hrel_schedule* hint = nullptr;
};

struct hrel_existence_result {
  solver_answer answer = solver_answer::unknown;
  std::optional<hrel_schedule> witness;  // present iff sat; accepted by the half-duplex checker
  double seconds = 0;
  std::string reason;
};

/// Is there a schedule in `slots` slots of length 1/k?
hrel_existence_result solve_hrel_existence(const hrel_instance& instance, std::size_t slots, const hrel_proof_options& options);

struct hrel_optimum_result {
  proof_status status = proof_status::unknown;
  rational optimum;       // slots / k
  std::size_t slots = 0;  // the least number of 1/k slots
  // below_optimum: Z3's answer at slots − 1; not asked (answer unknown, empty reason) when the certificate refutes it
  hrel_existence_result at_optimum, below_optimum;
  std::size_t certified_bound = 0;  // fewer slots are refuted by `certificate` (accepted by the checker); 0: none
  std::string certificate;          // dancecard.cp/1 text refuting certified_bound − 1 slots, or empty
  std::string certificate_check;    // the checker's describe() of it
  double seconds = 0;
  std::string reason;
};

/// `schedule` as slots of exactly 1/k with pieces of 1/k, or nullopt (with `why`) if some duration or amount is not a
/// multiple of 1/k. The result must still be checked: refining is bookkeeping, the checker is the judge.
std::optional<hrel_schedule> refine_to_granularity(const hrel_schedule& schedule, unsigned k, std::string& why);

/// Searches upward from the certified counting bound (at least k·h: every PE moves its h packets one piece per slot)
/// to the least feasible number of slots; with a hint, asks Z3 about one slot less only where the certificate does
/// not already refute it. require: granularity >= 1, the instance has messages.
hrel_optimum_result prove_hrel_optimum(const hrel_instance& instance, const hrel_proof_options& options);

}  // namespace dancecard
