// Z3 encodings of "a dance schedule for n people in R rounds exists", optionally restricted to the pairs of a graph
// (edge colouring) and to a scheduler's side conditions (fixed dances, forbidden dances, unavailable people).
// Public headers do not include Z3: a user links dancecard::smt and never sees a z3::expr.
//
//   dancecard::dance::dance_query q{.n = 7, .rounds = 7};
//   auto r = dancecard::dance::solve_dance_existence(q, {.timeout_ms = 10'000});
//   if (r.answer == dancecard::solver_answer::sat) use(r.witness->schedule());   // already accepted by checkers/
#pragma once

#include <atomic>
#include <optional>
#include <string>

#include "dancecard/checkers/dance_check.hpp"

namespace dancecard {

/// Every query's answer; sat only with a witness that checkers/ accepted.
enum class solver_answer { sat, unsat, unknown };
std::string_view to_string(solver_answer a);

/// "Z3 4.8.12" — the solver behind every answer, for manifests and reports.
std::string solver_version();

}  // namespace dancecard

namespace dancecard::dance {

/// plain: one Boolean per (pair, round), exactly-one per pair, at-most-one per (person, round), solved by Z3's
///        finite-domain (SAT + cardinality) engine. Odd n from about 11 makes its unsat side a pigeonhole problem.
/// counting: plain plus implied integer counts (people busy per round, dances per round, rounds per person), solved
///        by Z3's SMT core with linear arithmetic; the counting argument of Proposition 1 becomes bound propagation.
enum class dance_encoding { plain, counting };
std::string_view to_string(dance_encoding e);
std::optional<dance_encoding> parse_dance_encoding(std::string_view text);

struct dance_query {
  rank n = 2;
  std::size_t rounds = 1;
  /// Pairs that must meet (nullopt: all pairs), fixed / forbidden dances, unavailable people. max_rounds is ignored
  /// (the query's `rounds` is the bound).
  dance_requirements requirements;
};

struct solve_options {
  unsigned timeout_ms = 0;  // 0: no limit
  dance_encoding encoding = dance_encoding::counting;
  /// Only symmetry-breaking constraints that preserve satisfiability are added (see dance_encoding.cpp for the
  /// argument of each), and only when the query has no round-specific side conditions.
  bool symmetry_breaking = true;
  /// Search only rotational schedules (round r is round 0 turned by r on Z_(2m-1) around a fixed vertex for n = 2m,
  /// on Z_n for odd n). A *restriction*, not a symmetry breaking: it applies only to the complete graph without
  /// side conditions at R = T(n), and when the restricted search finds nothing the free search runs, so an unsat
  /// answer never rests on it. Symmetry breaking is skipped in the restricted search (the two are not compatible).
  bool rotational_search = false;
  /// When another thread sets it, the query stops (Z3 is interrupted): answer unknown, "cancelled by the caller".
  const std::atomic<bool>* cancel = nullptr;
};

struct existence_result {
  solver_answer answer = solver_answer::unknown;
  std::optional<checked_dance_schedule> witness;  // present iff answer == sat
  double seconds = 0;                             // wall time of encode + solve + decode + check
  std::string reason;                             // why unknown (timeout, solver message, rejected witness)
  std::string encoding;                           // e.g. "counting + symmetry(partner order, first round)"
  std::size_t variables = 0;                      // Boolean (pair, round) variables
};

/// Encodes, solves, decodes and checks. A model the checker rejects is answered unknown with the rejection as the
/// reason (it would be a bug in the encoding), never sat.
existence_result solve_dance_existence(const dance_query& query, const solve_options& options = {});

/// The query in SMT-LIB 2, re-runnable with any SMT solver.
std::string dance_query_smtlib(const dance_query& query, const solve_options& options = {});

}  // namespace dancecard::dance
