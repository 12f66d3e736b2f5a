// Cube and conquer for any query that has a CNF (Heule, Kullmann, Wieringa, Biere, "Cube and conquer: guiding CDCL
// SAT solvers by lookaheads", HVC 2011), with every step certified:
//   - the split is along groups, each a clause of the formula (or one less literals its unit clauses falsify), so every
//     model makes some literal of each group true; the first cubes are every combination of one literal from each of
//     the first groups, and a cube that runs out of its budget is divided by the next group it does not use (so the
//     user need not guess how many cubes a query needs);
//   - each cube is the formula with its literals as unit clauses, refuted by CaDiCaL with a DRAT proof that
//     checkers/drat_check accepts for that formula, or satisfied by a model the caller's checker accepts;
//   - the query is unsat only when every leaf cube is refuted and checkers/cube_cover_check accepts that the cubes
//     cover every model of the formula.
// The plan is independent of where the cubes are solved: threads of one process, ranks of an MPI job
// (dancecard-mpi prove), or jobs of a batch scheduler; a finished cube is recorded so that a job stopped half way
// resumes without solving it again.
//
//   cubes::cube_plan plan(groups, 16);                 // at least 16 cubes to begin with
//   while (auto id = plan.take()) {
//     cubes::cube_result r = cubes::solve_cube(formula, plan.cubes()[*id].literals, {.conflicts = 100'000});
//     plan.record(*id, std::move(r));                   // refuted, divided, sat or open
//   }
//   auto [answer, reason] = plan.verdict(formula.clauses);
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/dance_encoding.hpp"

namespace dancecard::cubes {

/// A one-hot group of a formula: literals of which every model makes one true, each with a word for it.
struct split_group {
  std::string name;                 // "PU 17's pairing"
  std::vector<int> literals;        // at least two
  std::vector<std::string> values;  // "PU 17 pairing 2", one per literal
};

/// A query as cube and conquer sees it: its formula, the groups to split along (in the order of use), and the
/// caller's check of a cube's model (accepted, and the reason: "its table completes in 8 steps (simulated)").
struct cube_query {
  std::string name;  // the query in words ("torus 3x9, pairing model, 8 steps")
  cnf_formula formula;
  std::vector<split_group> groups;
  std::function<std::pair<bool, std::string>(const std::vector<int>& model)> accept;
};

/// What one cube may spend: wall-clock milliseconds and CaDiCaL conflicts (0: no limit). Conflicts do not depend on
/// the machine's speed: tests and reproducible runs use them.
struct cube_budget {
  unsigned milliseconds = 0;
  std::uint64_t conflicts = 0;
};

struct cube_result {
  solver_answer answer = solver_answer::unknown;
  bool budget_spent = false;  // unknown because the cube's budget ran out (it may be divided)
  std::uint64_t proof_bytes = 0;
  std::uint64_t lemmas_checked = 0;  // unsat: lemmas of the proof the check needed
  std::string proof_sha256;          // unsat: filled by the caller that hashed the proof (solve_cube's `keep`)
  std::vector<int> model;            // sat: the true variables
  double seconds = 0;                // solving and checking
  std::string reason;
};

/// The formula with the cube's literals as unit clauses, solved by CaDiCaL tracing a DRAT proof: unsat only when
/// checkers/drat_check accepts the proof for that formula (then `keep`, when given, sees the proof before it is
/// dropped: to hash it or write it); sat with the model, for the caller to check; unknown otherwise.
cube_result solve_cube(const cnf_formula& formula, const std::vector<int>& cube, cube_budget budget,
                       const std::atomic<bool>* cancel = nullptr,
                       const std::function<void(const drat_trace&)>& keep = {});

/// The formula of one cube: `formula` with the cube's literals as unit clauses and a comment naming it.
cnf_formula cube_formula(const cnf_formula& formula, const std::vector<int>& cube, const std::string& comment);

enum class cube_status { waiting, running, refuted, divided, sat, open };
std::string_view to_string(cube_status status);

struct cube {
  std::vector<int> literals;        // one per group in `groups`
  std::vector<std::size_t> groups;  // the plan's groups it picks from, in order
  std::string description;          // the groups' words for its literals
  cube_status status = cube_status::waiting;
  cube_result result;
  std::optional<std::size_t> parent;  // the cube it was divided from
  std::uint32_t attempts = 0;         // times handed out (a failed solver gives it back)
};

class cube_plan {
 public:
  /// The first cubes: every combination of one literal from each of the first groups whose sizes multiply to at
  /// least `wanted` (all the groups when they do not reach it; one empty cube, the whole query, when there are none or
  /// wanted <= 1), in odometer order (the last group fastest). require: every group has at least two literals and as
  /// many values; wanted <= 2^20 (std::invalid_argument).
  cube_plan(std::vector<split_group> groups, std::uint64_t wanted);

  const std::vector<split_group>& groups() const { return groups_; }
  const std::vector<cube>& cubes() const { return cubes_; }
  /// How many of the groups the first cubes use.
  std::size_t first_groups() const { return first_groups_; }

  /// A waiting cube, now running (the oldest first); none when no cube waits or a cube is sat.
  std::optional<std::size_t> take();
  /// A running cube back to waiting: its solver failed (a crash, memory), another may try.
  void give_back(std::size_t id);
  /// A running cube's result: unsat — refuted; sat — the query is sat (nothing more is handed out); unknown with its
  /// budget spent and `split_again` — divided by the next group it does not use, whose cubes wait (open when none is
  /// left, or the plan would pass 2^20 cubes); otherwise open.
  void record(std::size_t id, cube_result r, bool split_again = true);
  /// For resuming: the cube with these literals (as a set) was refuted with this proof, or divided. False when the
  /// plan has no such cube waiting (a checkpoint of another split).
  bool restore_refuted(const std::vector<int>& literals, const cube_result& r);
  /// For merging results gathered elsewhere: the waiting cube with these literals takes `r` as record() would. False
  /// when there is no such cube waiting.
  bool restore(const std::vector<int>& literals, cube_result r, bool split_again);
  bool restore_divided(const std::vector<int>& literals);

  std::size_t waiting() const;
  std::size_t running() const;
  /// No cube waits or runs, or one is sat.
  bool finished() const;
  std::optional<std::size_t> sat_cube() const { return sat_; }
  /// The leaf cubes refuted, those left open, and the cubes divided.
  std::uint64_t refuted() const;
  std::uint64_t open() const;
  std::uint64_t divided() const;

  /// sat with the cube's model (the caller checked it; the reason ends with the cube's own reason); unsat when every
  /// leaf cube is refuted and the cover check accepts the groups used and the refuted cubes against `clauses`;
  /// unknown otherwise. The reason says which.
  std::pair<solver_answer, std::string> verdict(const std::vector<std::vector<int>>& clauses) const;

 private:
  std::size_t add_cube(std::vector<int> literals, std::vector<std::size_t> groups, std::string description,
                       std::optional<std::size_t> parent);
  void divide(std::size_t id);
  std::optional<std::size_t> find_waiting(const std::vector<int>& literals) const;
  std::size_t count(cube_status status) const;

  std::vector<split_group> groups_;
  std::size_t first_groups_ = 0;
  std::vector<cube> cubes_;
  std::map<std::vector<int>, std::size_t> index_;  // a cube's literals, sorted: its place
  std::size_t next_ = 0;                           // cubes before it are not waiting (take scans from here)
  std::optional<std::size_t> sat_;
};

}  // namespace dancecard::cubes
