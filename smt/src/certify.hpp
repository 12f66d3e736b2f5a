// Shared by the optimality proofs (dance, directed, h-relations): checking the lower bound's certificates and deciding
// the proof status from the solver answers and the certificates.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::detail {

/// CaDiCaL re-solves the CNF within the budget and its DRAT proof is checked; `disagreement` is set when CaDiCaL
/// finds the CNF satisfiable or its proof is rejected. CNFs above the clause limit are not attempted.
certificate_check clausal_certificate(std::uint64_t estimated_clauses, const std::function<cnf_formula()>& make_cnf,
                                      std::uint64_t rounds, const dance::optimality_options& options,
                                      std::string& disagreement);

/// What settle needs of an existence query.
struct existence_summary {
  solver_answer answer;
  std::string reason;
  bool asked = true;  // false: the query was not put to the solver (answer unknown)
  existence_summary(const dance::existence_result& r) : answer(r.answer), reason(r.reason) {}  // NOLINT: implicit
  existence_summary(solver_answer a, std::string why, bool was_asked = true)
      : answer(a), reason(std::move(why)), asked(was_asked) {}
};

/// Whether the one-round-below query goes to the solver: always when no cutting-planes certificate was accepted, and
/// beside an accepted one only with options.solve_below_when_certified.
bool ask_solver_below(const std::optional<certificate_check>& cp, const dance::optimality_options& options);

/// The reason a below query that was not asked carries.
inline constexpr const char* not_asked_below = "not asked: the checked cutting-planes certificate refutes it";

struct settled {
  proof_status status;
  std::string reason;
};

/// proven: witness at `claimed` (checked) and infeasibility below (Z3 unsat, or an accepted cutting-planes
/// certificate); refuted: a checked witness below, or unsat at `claimed`; unknown otherwise — and on every
/// disagreement between the solvers and the checkers, with a reason starting "disagreement".
settled settle(const existence_summary& at, const existence_summary& below, const std::optional<certificate_check>& cp,
               const std::optional<certificate_check>& drat, const std::string& drat_disagreement,
               std::uint64_t claimed);

}  // namespace dancecard::detail
