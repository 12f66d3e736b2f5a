// Optimality of full-duplex all-to-all schedules (the directed model of Open MPI's and MPICH's pairwise
// algorithms): n − 1 rounds for every n, proven like the dance optimum — a Z3 witness accepted by checkers/, Z3's
// unsat one round below, a cutting-planes certificate and CaDiCaL's DRAT proof, both checked without the solver.
//
//   auto r = dancecard::dance::prove_directed_optimum(9, {});   // r.status == proof_status::proven
#pragma once

#include <optional>
#include <string>

#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::dance {

struct directed_existence_result {
  solver_answer answer = solver_answer::unknown;
  std::optional<checked_directed_schedule> witness;  // present iff sat
  double seconds = 0;
  std::string reason, encoding;
  std::size_t variables = 0;
};

/// "A full-duplex schedule for n ranks in `rounds` rounds exists": send_r<r>_s<i>_d<j> per ordered pair and round,
/// exactly once per ordered pair, at most one send and one receive per rank and round. The counting encoding adds
/// Σ_r sends(i, r) = n − 1 with sends(i, r) ∈ {0, 1}; with R·n = n(n−1) every round is full (each rank sends and
/// receives exactly once, implied); symmetry breaking (rank 0 sends to k + 1 in round k) only permutes rounds.
directed_existence_result solve_directed_existence(rank n, std::size_t rounds, const solve_options& options = {});

/// The query in SMT-LIB 2, re-runnable with any SMT solver.
std::string directed_query_smtlib(rank n, std::size_t rounds, const solve_options& options = {});

struct directed_optimality_result {
  proof_status status = proof_status::unknown;
  rank n = 0;
  std::uint64_t claimed = 0;  // n − 1
  directed_existence_result at_claimed, below_claimed;
  std::optional<certificate_check> certificate, clausal;
  bool solver_below = true;  // false: below_claimed was not asked (optimality_options::solve_below_when_certified)
  double seconds = 0;
  std::string reason;
};

/// require: n >= 2.
directed_optimality_result prove_directed_optimum(rank n, const optimality_options& options = {});

/// Rank 0 must send n − 1 messages, at most one per round: its sender axioms over n − 2 rounds plus its n − 1 send
/// axioms give 0 ≥ 1.
std::string directed_lower_bound_certificate(rank n);

/// The base constraints as CNF (variable (i·n + j)·R + r + 1 = "i sends to j in round r"), pairwise at-most-one.
cnf_formula directed_query_cnf(rank n, std::size_t rounds);

}  // namespace dancecard::dance
