// A DRAT proof checker: is a CNF formula unsatisfiable, as the clausal proof claims? Shares no code with any solver.
//
// Input: the formula in DIMACS ("p cnf V C", clauses ended by 0, comment lines "c ...") and a proof in text DRAT:
// one lemma per line ("l1 l2 ... 0"), deletions as "d l1 l2 ... 0". The proof is accepted when it derives the
// empty clause (or the final formula propagates to a conflict) and every lemma that the refutation depends on is
//   RUP  — assigning the negation of its literals and unit-propagating the clauses present at that point of the
//          proof yields a conflict, or
//   RAT  — on its first literal p: for every present clause D containing ¬p, the resolvent (lemma ∪ D \ {¬p}) is RUP.
// Deletions are honoured exactly (also of unit clauses), which is never more permissive than the DRAT standard.
//
// The check runs backward with core marking (the method of drat-trim, Wetzler, Heule and Hunt, SAT 2014): after
// a forward pass that only records additions and deletions, the final conflict marks the clauses it used; going
// back in time, only marked lemmas are checked, and each check marks the clauses its conflict used. Lemmas that
// nothing depends on are never checked, so a solver's many useless learnt clauses cost nothing.
//
//   auto r = dancecard::check_drat(cnf_text, proof_text);   // r.outcome == verdict::holds: accepted
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dancecard/checkers/report.hpp"

namespace dancecard {

struct drat_report {
  verdict outcome = verdict::violated;   // holds: the formula is unsatisfiable, by this proof
  bool malformed = false;                // not DIMACS / not text DRAT (the problem says where)
  std::uint64_t variables = 0, original_clauses = 0;
  std::uint64_t lemmas = 0, deletions = 0;  // read from the proof
  std::uint64_t checked_lemmas = 0;      // lemmas the refutation depends on (each checked)
  std::uint64_t rat_lemmas = 0;          // of those, how many needed the RAT check
  std::uint64_t core_clauses = 0;        // original clauses the refutation depends on
  std::size_t line = 0;                  // proof line (or CNF line when malformed in the CNF) of the failure
  std::string problem;
};

drat_report check_drat(std::string_view cnf, std::string_view proof);

std::string describe(const drat_report& report);

}  // namespace dancecard
