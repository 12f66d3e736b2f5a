// Exact small-instance optima of h-relations at piece granularity 1/k: "can every message be delivered within T slots
// of length 1/k, each PE sending or receiving at most one piece per slot (half duplex), with or without forwarding?"
// — the witness goes through checkers/hrel_schedule_check, and the optimum is the least such T/k with T − 1
// impossible. Below the counting arguments' bound (smt/hrel_certificates.hpp: per PE, odd sets, Section 2.5) that
// rests on a cutting-planes certificate accepted by checkers/cutting_planes_check, and no solver is asked; above it,
// on the engine's unsat: CaDiCaL's on the CNF of hrel_query_cnf with an accepted DRAT proof (the default), or Z3's on
// the integer encoding, uncertified (hrel_engine::z3).
//
//   auto r = dancecard::hrel::prove_hrel_optimum(two_triangles, {.granularity = 5, .forwarding = true});
//   r.status == proof_status::proven && r.optimum == dancecard::rational(12, 5)
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::hrel {

enum class hrel_engine {
  sat,  // the CNF of hrel_query_cnf, CaDiCaL: an unsat answer only with a DRAT proof that checkers/drat_check accepts
  z3,   // the Z3 encoding (integers for the holdings, the Section 2.5 sums as implied constraints): unsat uncertified
};

struct hrel_proof_options {
  unsigned granularity = 1;  // k: pieces of 1/k packet, slots of 1/k time
  bool forwarding = false;   // may a piece travel through other PEs?
  unsigned timeout_ms = 0;   // per query; 0: none
  hrel_engine engine = hrel_engine::sat;
  /// A schedule from anywhere (a generator, a file) to serve as the witness: it is refined to slots of 1/k and must
  /// pass the half-duplex checker (and use no forwarding unless `forwarding`); then only "one slot less" is asked of
  /// the solver. For instances where the solver proves the bound but cannot find the witness itself.
  const hrel_schedule* hint = nullptr;
  /// Without a hint: the generators' schedules (Section 2.1's direct one, with forwarding Sections 2.2–2.4's, and
  /// Section 4.1's where every pair exchanges a packet), refined to slots of 1/k and checked, bound the optimum above.
  /// The solver is asked only below the best of them, not at all where the certificate meets it; when it refutes every
  /// count below, that schedule is the witness.
  bool generator_witnesses = true;
  /// When another thread sets it, the solver stops (answer unknown, "cancelled by the caller"): the proof ends unknown.
  const std::atomic<bool>* cancel = nullptr;
};

struct hrel_existence_result {
  solver_answer answer = solver_answer::unknown;
  std::optional<hrel_schedule> witness;  // present iff sat; accepted by the half-duplex checker
  double seconds = 0;
  std::string reason;
  std::string proof_check;  // sat engine, unsat: the DRAT checker's describe() of the proof (accepted, or unknown)
};

/// Is there a schedule in `slots` slots of length 1/k? By options.engine (the Z3 encoding, or hrel_query_cnf).
hrel_existence_result solve_hrel_existence(const hrel_instance& instance, std::size_t slots,
                                           const hrel_proof_options& options);

/// The same question as CNF (smt/src/hrel_clausal.cpp: moves, half duplex by sequential counters, unary holding
/// counters that change by one per slot; every move a ≠ b with forwarding; nothing implied), in DIMACS order.
cnf_formula hrel_query_cnf(const hrel_instance& instance, unsigned granularity, bool forwarding, std::size_t slots);

/// The move variables and unary holding counters of hrel_query_cnf's CNF, counted without building it: what a caller
/// weighs before asking (the CNF has these and its auxiliary variables besides).
std::uint64_t hrel_query_core_variables(const hrel_instance& instance, unsigned granularity, bool forwarding,
                                        std::uint64_t slots);

/// The CNF through CaDiCaL: sat gives a decoded witness the checker accepted; unsat only with an accepted DRAT proof.
hrel_existence_result solve_hrel_clausal(const hrel_instance& instance, std::size_t slots,
                                         const hrel_proof_options& options);

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

/// The size the exact proofs take (prove hrel, its Python form and its cube queries): P² · h · k at most 2,000,000.
/// Empty within it, else the reason, for the caller to prefix with where the instance came from.
std::string hrel_proof_size_problem(const hrel_instance& instance, unsigned granularity);

/// `schedule` as slots of exactly 1/k with pieces of 1/k, or nullopt (with `why`) if some duration or amount is not a
/// multiple of 1/k. The result must still be checked: refining is bookkeeping, the checker is the judge.
std::optional<hrel_schedule> refine_to_granularity(const hrel_schedule& schedule, unsigned k, std::string& why);

/// Searches upward from the certified counting bound (at least k·h: every PE moves its h packets one piece per slot)
/// to the least feasible number of slots, up to the generators' best schedule (generator_witnesses); with a hint,
/// asks the solver about one slot less only where the certificate does not already refute it. require: granularity
/// >= 1, the instance has messages.
hrel_optimum_result prove_hrel_optimum(const hrel_instance& instance, const hrel_proof_options& options);

}  // namespace dancecard::hrel
