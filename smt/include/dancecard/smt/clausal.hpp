// The clausal side of a certificate: a dance query as CNF (DIMACS), solved by CaDiCaL with a DRAT proof that
// checkers/drat_check.hpp checks. No Z3 here: the CNF is written directly from the constraints (i)–(iii).
//
//   auto cnf = dancecard::dance_query_cnf({.n = 6, .rounds = 4});
//   auto r = dancecard::solve_with_proof(cnf, 2'000);   // r.answer == unsat, r.proof holds binary DRAT
//   auto check = r.proof.check(cnf.dimacs());            // streamed through checkers/drat_check
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/smt/dance_encoding.hpp"

namespace CaDiCaL {
class Solver;
}

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
namespace dance {
cnf_formula dance_query_cnf(const dance_query& query);
}  // namespace dance

enum class drat_encoding { binary, text };

/// CaDiCaL's DRAT proof, kept in an unlinked temporary file: an hour-long query traces gigabytes, which are streamed
/// through the checker and never held in memory unless read() asks for them. Copies share the file; one at a time.
class drat_trace {
 public:
  drat_trace() = default;
  drat_trace(std::shared_ptr<std::FILE> file, std::uint64_t bytes);
  std::uint64_t bytes() const { return bytes_; }
  /// The checker's verdict on this proof for the formula `dimacs` (a read error is reported as malformed).
  certificates::drat_report check(std::string_view dimacs) const;
  /// The whole proof, as traced.
  std::string read() const;
  /// The proof, as traced, in pieces of at most a mebibyte, in order (for copying it without holding it).
  void for_each_piece(const std::function<void(std::string_view)>& use) const;

 private:
  std::shared_ptr<std::FILE> file_;
  std::uint64_t bytes_ = 0;
};

struct clausal_result {
  solver_answer answer = solver_answer::unknown;
  drat_trace proof;        // when unsat (solve_with_proof)
  std::vector<int> model;  // when sat: the true variables
  double seconds = 0;
  std::string reason;  // why unknown
};

/// Solves with CaDiCaL, tracing a DRAT proof (binary: smaller and faster to read; text: for a certificate that
/// people will read or keep); gives up (unknown) after budget_ms (0: no limit), or as soon as another thread sets
/// `*cancel` (when given; the reason then says so).
clausal_result solve_with_proof(const cnf_formula& formula, unsigned budget_ms,
                                drat_encoding encoding = drat_encoding::binary,
                                const std::atomic<bool>* cancel = nullptr);
/// The same without the proof trace: for queries whose unsat answer proves nothing the caller reports (a sat answer
/// is still only a model, to be checked by the caller). `proof` stays empty.
clausal_result solve_for_model(const cnf_formula& formula, unsigned budget_ms,
                               const std::atomic<bool>* cancel = nullptr);

/// A solve that can be asked again: the formula stays loaded, and each solve goes on from what CaDiCaL learned in the
/// ones before (for budgets that grow round by round, so no work is done twice). With `proof`, the DRAT trace of every
/// call goes to one temporary file, and the unsat answer carries it (the lemmas of all calls: one proof).
/// Move-constructible only.
class resumable_solve {
 public:
  explicit resumable_solve(const cnf_formula& formula, std::optional<drat_encoding> proof = std::nullopt);
  ~resumable_solve();
  resumable_solve(resumable_solve&&) noexcept;
  resumable_solve& operator=(resumable_solve&&) = delete;  // would release the trace before the solver writing to it
  /// At most budget_ms more (0: no limit) and, when `conflicts` is not 0, at most that many more conflicts (a budget
  /// that does not depend on the machine's speed); unknown when a budget runs out or `*cancel` is set (when given),
  /// and may then be asked again.
  clausal_result solve(unsigned budget_ms, const std::atomic<bool>* cancel = nullptr, std::uint64_t conflicts = 0);
  /// The solver time spent so far over every call.
  double seconds() const { return seconds_; }

 private:
  // The trace first: members go in reverse order, and CaDiCaL writes clause deletions to the trace until it is gone.
  std::shared_ptr<std::FILE> trace_;
  std::unique_ptr<CaDiCaL::Solver> solver_;  // dropped once unsat (then the proof file is complete and read)
  int variables_ = 0;
  double seconds_ = 0;
  std::optional<clausal_result> final_;  // the answer once the solver is gone (unsat), kept for asking again
};

/// "CaDiCaL 1.5.3"
std::string clausal_solver_version();

}  // namespace dancecard
