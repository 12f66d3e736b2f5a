// A DRAT proof checker: is a CNF formula unsatisfiable, as the clausal proof claims? Shares no code with any solver.
//
// Input: the formula in DIMACS ("p cnf V C", clauses ended by 0, comment lines "c ...") and a proof in DRAT, text or
// binary (told apart by the proof's first bytes, as drat-trim does):
//   text   — one item per line: a lemma "l1 l2 ... 0", a deletion "d l1 l2 ... 0", comment lines "c ...";
//   binary — 'a' (a lemma) or 'd' (a deletion), then each literal l as the unsigned 2|l| + (l < 0) in 7-bit groups,
//            lowest first, the high bit set on all but the last, and a 0 byte ending the item (CaDiCaL's default).
// The proof is accepted when it derives the empty clause (or the final formula propagates to a conflict) and every
// lemma that the refutation depends on is
//   RUP  — assigning the negation of its literals and unit-propagating the clauses present at that point of the
//          proof yields a conflict, or
//   RAT  — on its first literal p: for every present clause D containing ¬p, the resolvent (lemma ∪ D \ {¬p}) is RUP.
// Deletions are honoured exactly (also of unit clauses), which is never more permissive than the DRAT standard.
// drat_options::ignore_unit_deletions reads proofs as drat-trim does by default instead: a deletion of a clause that
// is, when deleted, the reason of a literal the present clauses propagate at the top level is ignored (Glucose's
// proofs delete such clauses and go on using their units). Ignoring a deletion is always sound: every step is then
// checked against more clauses (a RAT step against more resolution partners too), so a formula the proof can be
// checked against is still unsatisfiable; it only accepts proofs the exact reading would reject.
//
// The check runs backward with core marking (the method of drat-trim, Wetzler, Heule and Hunt, SAT 2014): after
// a forward pass that only records additions and deletions, the final conflict marks the clauses it used; going
// back in time, only marked lemmas are checked, and each check marks the clauses its conflict used. Lemmas that
// nothing depends on are never checked, so a solver's many useless learnt clauses cost nothing. Propagation is core
// first (drat-trim's default too): marked clauses are tried before the others, so that the core grows less; and what
// the present clauses propagate with no assumption is kept from one lemma to the next rather than propagated anew.
//
// Memory: the proof is read in pieces and never held (pass a stream or a drat_source, not a string, for a proof of
// gigabytes); what stays is every clause's literals (4 bytes each), about 60 bytes per clause and 4 per deletion
// besides — the backward pass needs each lemma and each deletion of the whole proof.
//
//   auto r = dancecard::certificates::check_drat(cnf_text, proof_text);   // r.outcome == verdict::holds: accepted
//   std::ifstream proof("query.drat", std::ios::binary);
//   auto s = dancecard::certificates::check_drat(cnf_text, proof);          // the same, streamed
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "dancecard/checkers/report.hpp"

namespace dancecard::certificates {

struct drat_report {
  verdict outcome = verdict::violated;  // holds: the formula is unsatisfiable, by this proof
  bool malformed = false;               // not DIMACS / not DRAT (the problem says where)
  bool binary_proof = false;            // the proof was binary DRAT: `line` then counts proof items, not lines
  std::uint64_t variables = 0, original_clauses = 0;
  std::uint64_t lemmas = 0, deletions = 0;  // read from the proof
  std::uint64_t checked_lemmas = 0;         // lemmas the refutation depends on (each checked)
  std::uint64_t rat_lemmas = 0;             // of those, how many needed the RAT check
  std::uint64_t core_clauses = 0;           // original clauses the refutation depends on
  std::uint64_t ignored_deletions = 0;  // deletions of top-level reasons ignored (drat_options::ignore_unit_deletions)
  std::size_t line = 0;  // proof line (item, if binary; CNF line when malformed in the CNF) of the failure
  std::string problem;

  /// Whether `line` counts the items of a binary proof rather than lines.
  bool line_is_item() const { return binary_proof && problem.rfind("CNF", 0) != 0; }
};

/// Where a streamed proof comes from: fills at most `capacity` bytes of `buffer` and returns how many it wrote; 0
/// means the end of the proof. Throwing aborts the check (the exception reaches the caller).
using drat_source = std::function<std::size_t(char* buffer, std::size_t capacity)>;

/// How a proof is read.
struct drat_options {
  /// Ignore the deletion of a clause that is the reason of a top-level unit when it is deleted, as drat-trim does
  /// (the proofs of Glucose and its descendants need this). Off: every deletion is honoured.
  bool ignore_unit_deletions = false;
};

/// require: nothing (any bytes); ensure: holds only for an accepted refutation of `cnf`, malformed with a place for
/// input that is not DIMACS / DRAT.
drat_report check_drat(std::string_view cnf, std::string_view proof, const drat_options& options = {});
/// The same, reading the proof in pieces from `proof` (opened in binary mode); a read error is reported as malformed.
drat_report check_drat(std::string_view cnf, std::istream& proof, const drat_options& options = {});
drat_report check_drat(std::string_view cnf, const drat_source& proof, const drat_options& options = {});

std::string describe(const drat_report& report);

}  // namespace dancecard::certificates
