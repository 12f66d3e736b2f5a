// The clausal side of a certificate: a dance query as CNF (DIMACS), solved by CaDiCaL with a DRAT proof that
// checkers/drat_check.hpp checks. No Z3 here: the CNF is written directly from the constraints (i)–(iii).
//
//   auto cnf = dancecard::dance_query_cnf({.n = 6, .rounds = 4});
//   auto r = dancecard::solve_with_proof(cnf, 2'000);   // r.answer == unsat, r.proof is text DRAT
#pragma once

#include <string>
#include <vector>

#include "dancecard/smt/dance_encoding.hpp"

namespace dancecard {

struct cnf_formula {
  int variables = 0;
  std::vector<std::vector<int>> clauses;
  std::vector<std::string> comments;  // written as "c ..." lines: what the variables mean
  std::string dimacs() const;
};

/// The base constraints of the query, nothing implied and no symmetry breaking, so that the CNF can be read as the
/// question itself: variable meet(pair e, round r) = e·R + r + 1 over the sorted required pairs; every required pair
/// meets at least once and at most once (pairwise), every person at most once per round (pairwise); fixed dances
/// are unit clauses, forbidden dances and unavailable people negative units.
cnf_formula dance_query_cnf(const dance_query& query);

struct clausal_result {
  solver_answer answer = solver_answer::unknown;
  std::string proof;       // text DRAT, when unsat
  std::vector<int> model;  // when sat: the true variables
  double seconds = 0;
  std::string reason;      // why unknown
};

/// Solves with CaDiCaL, tracing a text DRAT proof; gives up (unknown) after budget_ms (0: no limit).
clausal_result solve_with_proof(const cnf_formula& formula, unsigned budget_ms);
/// The same without the proof trace: for queries whose unsat answer proves nothing the caller reports (a sat answer
/// is still only a model, to be checked by the caller). `proof` stays empty.
clausal_result solve_for_model(const cnf_formula& formula, unsigned budget_ms);

/// "CaDiCaL 1.5.3"
std::string clausal_solver_version();

}  // namespace dancecard
