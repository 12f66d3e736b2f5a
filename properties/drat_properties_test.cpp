// The DRAT checker against CaDiCaL and brute force on random 3-CNF: every proof CaDiCaL traces is accepted, in text
// and binary alike, and no proof is ever accepted for a formula that brute force satisfies — the proof of a formula
// with clauses taken away, or with deletions of clauses it needs slipped in, or damaged by random edits.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "damaged_text.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/smt/clausal.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::certificates;
namespace {

rc::Gen<std::vector<int>> three_clause(int variables) {
  return rc::gen::container<std::vector<int>>(
      3, rc::gen::map(rc::gen::pair(rc::gen::inRange(1, variables + 1), rc::gen::arbitrary<bool>()),
                      [](const std::pair<int, bool>& p) { return p.second ? p.first : -p.first; }));
}

// Random 3-CNF with between min_tenths/10 and max_tenths/10 clauses per variable (about 4.3: as often satisfiable
// as not, and hardest).
rc::Gen<cnf_formula> random_3cnf(int min_variables, int max_variables, int min_tenths, int max_tenths) {
  // Full size from the first run on: small formulas give proofs too short to exercise the checker's bookkeeping.
  return rc::gen::mapcat(rc::gen::resize(100, rc::gen::inRange(min_variables, max_variables + 1)), [=](int v) {
    return rc::gen::mapcat(rc::gen::inRange(min_tenths * v / 10, max_tenths * v / 10 + 1), [v](int m) {
      return rc::gen::map(
          rc::gen::container<std::vector<std::vector<int>>>(static_cast<std::size_t>(m), three_clause(v)),
          [v](std::vector<std::vector<int>> clauses) {
            cnf_formula f;
            f.variables = v;
            f.clauses = std::move(clauses);
            return f;
          });
    });
  });
}

bool satisfiable_by_brute_force(const cnf_formula& f) {
  for (std::uint32_t bits = 0; bits < (1u << f.variables); ++bits) {
    bool all = true;
    for (const auto& clause : f.clauses) {
      bool some = false;
      for (int lit : clause) some = some || (((bits >> (std::abs(lit) - 1)) & 1u) == (lit > 0 ? 1u : 0u));
      if (!some) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

std::string deletion_text(const std::vector<int>& clause) {
  std::ostringstream s;
  s << "d";
  for (int lit : clause) s << " " << lit;
  s << " 0\n";
  return s.str();
}

RC_GTEST_PROP(drat_check, accepts_every_cadical_proof_in_text_and_binary, ()) {
  const cnf_formula f = *random_3cnf(5, 250, 42, 50);
  const clausal_result binary = solve_with_proof(f, 20'000, drat_encoding::binary);
  RC_PRE(binary.answer == solver_answer::unsat);
  const clausal_result text = solve_with_proof(f, 20'000, drat_encoding::text);
  const drat_report b = binary.proof.check(f.dimacs()), t = text.proof.check(f.dimacs());
  RC_CLASSIFY(b.deletions > 0, "proof deletes clauses");
  RC_CLASSIFY(b.lemmas > 1000, "over 1,000 lemmas");
  RC_ASSERT(b.outcome == verdict::holds);
  RC_ASSERT(t.outcome == verdict::holds);
  RC_ASSERT(b.binary_proof && !t.binary_proof);
  RC_ASSERT(b.lemmas == t.lemmas);
  RC_ASSERT(b.checked_lemmas == t.checked_lemmas);
}

RC_GTEST_PROP(drat_check, never_accepts_a_proof_for_a_satisfiable_formula, ()) {
  const cnf_formula f = *random_3cnf(5, 13, 40, 70);
  const clausal_result solved = solve_with_proof(f, 20'000, drat_encoding::text);
  RC_PRE(solved.answer == solver_answer::unsat);
  const std::string proof = solved.proof.read();
  // Take clauses away from the formula, one at a time, until it is satisfiable; the same clauses deleted at the
  // start of the proof instead.
  cnf_formula weaker = f;
  std::string tampered;
  while (!satisfiable_by_brute_force(weaker)) {
    const auto at = *rc::gen::inRange<std::size_t>(0, weaker.clauses.size());
    tampered += deletion_text(weaker.clauses[at]);
    weaker.clauses.erase(weaker.clauses.begin() + static_cast<std::ptrdiff_t>(at));
  }
  RC_CLASSIFY(f.clauses.size() - weaker.clauses.size() == 1, "one clause taken away");
  RC_ASSERT(check_drat(f.dimacs(), proof).outcome == verdict::holds);
  const drat_report weakened = check_drat(weaker.dimacs(), proof);
  RC_ASSERT(weakened.outcome == verdict::violated);
  RC_ASSERT(!weakened.malformed);
  RC_ASSERT(check_drat(f.dimacs(), tampered + proof).outcome == verdict::violated);
  // Ignoring the deletions of top-level reasons (drat-trim's reading) accepts more proofs, never one for a
  // satisfiable formula. (With the tampered deletions it may accept: f is unsatisfiable, and a deletion it ignores
  // is one of a clause f's own unit propagation uses.)
  const drat_options ignoring{.ignore_unit_deletions = true};
  RC_ASSERT(check_drat(f.dimacs(), proof, ignoring).outcome == verdict::holds);
  RC_ASSERT(check_drat(weaker.dimacs(), proof, ignoring).outcome == verdict::violated);
}

// A damaged proof (and a damaged CNF) never makes the checker throw, malformed input always says where, and a damaged
// proof is never accepted for a formula that brute force satisfies (the formula with clauses taken away until it is).
RC_GTEST_PROP(drat_check, damaged_proofs_and_formulas_are_judged_without_throwing_and_never_for_a_satisfiable_formula,
              ()) {
  const cnf_formula f = *random_3cnf(5, 13, 40, 70);
  const drat_encoding encoding = *rc::gen::element(drat_encoding::text, drat_encoding::binary);
  const clausal_result solved = solve_with_proof(f, 20'000, encoding);
  RC_PRE(solved.answer == solver_answer::unsat);
  RC_CLASSIFY(encoding == drat_encoding::binary, "binary proof");
  const std::string proof = solved.proof.read();
  cnf_formula weaker = f;
  while (!satisfiable_by_brute_force(weaker))
    weaker.clauses.erase(weaker.clauses.begin() +
                         static_cast<std::ptrdiff_t>(*rc::gen::inRange<std::size_t>(0, weaker.clauses.size())));
  bool accepted = false;
  for (int copy = 0; copy < 8; ++copy) {
    const std::string damaged_proof = properties_test::damaged(proof),
                      damaged_cnf = properties_test::damaged(f.dimacs());
    drat_report own, weak, weak_ignoring, cnf;
    try {
      own = check_drat(f.dimacs(), damaged_proof);
      weak = check_drat(weaker.dimacs(), damaged_proof);
      weak_ignoring = check_drat(weaker.dimacs(), damaged_proof, drat_options{.ignore_unit_deletions = true});
      cnf = check_drat(damaged_cnf, proof);
    } catch (const std::exception& e) {
      RC_FAIL(std::string("the checker threw: ") + e.what());
    }
    RC_ASSERT(weak.outcome == verdict::violated);
    RC_ASSERT(weak_ignoring.outcome == verdict::violated);
    for (const drat_report* r : {&own, &weak, &weak_ignoring, &cnf}) {
      RC_ASSERT(!(r->malformed && r->outcome == verdict::holds));
      RC_ASSERT(r->outcome == verdict::holds || !r->problem.empty());
    }
    accepted = accepted || own.outcome == verdict::holds;
  }
  RC_TAG(accepted ? "a damaged proof still accepted for the unsat formula" : "every damaged proof refused");
}

// A solve asked in slices of 1 ms (resumable_solve, as the invariant search's rounds ask it) answers what one call
// answers; a sat answer's model satisfies every clause, and an unsat answer's proof — the lemmas of all the slices in
// one trace — is accepted.
RC_GTEST_PROP(resumable_solve, slices_answer_as_one_call_with_one_proof, ()) {
  const cnf_formula f = *rc::gen::resize(100, random_3cnf(110, 160, 40, 45));  // full size: literals over all variables
  const clausal_result whole = solve_for_model(f, 20'000);
  RC_PRE(whole.answer != solver_answer::unknown);
  resumable_solve sliced(f, drat_encoding::binary);
  clausal_result r;
  std::size_t slices = 0;
  do {
    r = sliced.solve(1);
    ++slices;
  } while (r.answer == solver_answer::unknown && slices < 20'000);
  RC_CLASSIFY(slices > 1, "more than one slice");
  RC_CLASSIFY(whole.answer == solver_answer::sat, "sat");
  RC_ASSERT(r.answer == whole.answer);
  if (r.answer == solver_answer::sat) {
    std::vector<bool> value(static_cast<std::size_t>(f.variables) + 1, false);
    for (int v : r.model) value[static_cast<std::size_t>(v)] = true;
    for (const auto& clause : f.clauses) {
      bool some = false;
      for (int lit : clause) some = some || value[static_cast<std::size_t>(std::abs(lit))] == (lit > 0);
      RC_ASSERT(some);
    }
  } else {
    RC_ASSERT(r.proof.check(f.dimacs()).outcome == verdict::holds);
  }
}

}  // namespace
}  // namespace dancecard
