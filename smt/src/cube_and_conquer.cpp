// Cube and conquer (see the header): one cube's certified solve, and the plan of cubes — first split, division of the
// cubes that run out of budget, the record of results, and the verdict with the cover check.
#include "dancecard/smt/cube_and_conquer.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "dancecard/checkers/cube_cover_check.hpp"
#include "dancecard/checkers/drat_check.hpp"

namespace dancecard::cubes {

namespace {

constexpr std::size_t max_cubes = std::size_t{1} << 20;  // a guard against a budget far too small

std::vector<int> sorted(std::vector<int> literals) {
  std::sort(literals.begin(), literals.end());
  return literals;
}

}  // namespace

std::string_view to_string(cube_status status) {
  switch (status) {
    case cube_status::waiting:
      return "waiting";
    case cube_status::running:
      return "running";
    case cube_status::refuted:
      return "refuted";
    case cube_status::divided:
      return "divided";
    case cube_status::sat:
      return "sat";
    case cube_status::open:
      return "open";
  }
  return "?";
}

cnf_formula cube_formula(const cnf_formula& formula, const std::vector<int>& cube, const std::string& comment) {
  cnf_formula g = formula;
  for (int literal : cube) g.clauses.push_back({literal});
  if (!comment.empty()) g.comments.push_back(comment);
  return g;
}

cube_result solve_cube(const cnf_formula& formula, const std::vector<int>& cube, cube_budget budget,
                       const std::atomic<bool>* cancel, const std::function<void(const drat_trace&)>& keep) {
  const auto began = std::chrono::steady_clock::now();
  const cnf_formula g = cube_formula(formula, cube, "");
  cube_result out;
  clausal_result solved =
      resumable_solve(g, drat_encoding::binary).solve(budget.milliseconds, cancel, budget.conflicts);
  out.answer = solved.answer;
  out.reason = solved.reason;
  if (solved.answer == solver_answer::unsat) {
    const certificates::drat_report check = solved.proof.check(g.dimacs());
    if (check.outcome == verdict::holds) {
      out.proof_bytes = solved.proof.bytes();
      out.lemmas_checked = check.checked_lemmas;
      out.reason = "unsat, DRAT proof checked (" + std::to_string(check.checked_lemmas) + " of " +
                   std::to_string(check.lemmas) + " lemmas)";
      if (keep) keep(solved.proof);
    } else {
      out.answer = solver_answer::unknown;
      out.reason = "CaDiCaL said unsat but its DRAT proof was not accepted: " + describe(check);
    }
  } else if (solved.answer == solver_answer::sat) {
    out.model = std::move(solved.model);
  } else {
    // Out of its own budget — not cancelled, not out of a caller's deadline alone: then it is worth dividing.
    out.budget_spent = cancel == nullptr || !cancel->load();
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return out;
}

cube_plan::cube_plan(std::vector<split_group> groups, std::uint64_t wanted) : groups_(std::move(groups)) {
  if (wanted > (std::uint64_t{1} << 20)) throw std::invalid_argument("cube_plan: at most 2^20 cubes to begin with");
  for (const split_group& g : groups_)
    if (g.literals.size() < 2 || g.values.size() != g.literals.size())
      throw std::invalid_argument("cube_plan: group " + g.name + " needs two literals or more, each with its value");
  std::uint64_t product = 1;
  while (first_groups_ < groups_.size() && product < wanted) product *= groups_[first_groups_++].literals.size();
  std::vector<std::size_t> pick(first_groups_, 0);
  for (std::uint64_t k = 0; k < product; ++k) {
    std::vector<int> literals;
    std::vector<std::size_t> used;
    std::string description;
    for (std::size_t g = 0; g < first_groups_; ++g) {
      literals.push_back(groups_[g].literals[pick[g]]);
      used.push_back(g);
      description += (g ? ", " : "") + groups_[g].values[pick[g]];
    }
    add_cube(std::move(literals), std::move(used), first_groups_ == 0 ? "the whole query" : description, {});
    for (std::size_t g = first_groups_; g-- > 0;) {
      if (++pick[g] < groups_[g].literals.size()) break;
      pick[g] = 0;
    }
  }
}

std::size_t cube_plan::add_cube(std::vector<int> literals, std::vector<std::size_t> groups, std::string description,
                                std::optional<std::size_t> parent) {
  cube c;
  c.literals = std::move(literals);
  c.groups = std::move(groups);
  c.description = std::move(description);
  c.parent = parent;
  index_.emplace(sorted(c.literals), cubes_.size());
  cubes_.push_back(std::move(c));
  return cubes_.size() - 1;
}

std::optional<std::size_t> cube_plan::take() {
  if (sat_) return std::nullopt;
  while (next_ < cubes_.size() && cubes_[next_].status != cube_status::waiting) ++next_;
  for (std::size_t id = next_; id < cubes_.size(); ++id)
    if (cubes_[id].status == cube_status::waiting) {
      cubes_[id].status = cube_status::running;
      ++cubes_[id].attempts;
      return id;
    }
  return std::nullopt;
}

void cube_plan::give_back(std::size_t id) {
  if (cubes_.at(id).status != cube_status::running) return;
  cubes_[id].status = cube_status::waiting;
  next_ = std::min(next_, id);
}

void cube_plan::divide(std::size_t id) {
  // The next group after the last one the cube uses (the first groups are in order, and so are the divisions).
  const std::size_t from = cubes_[id].groups.empty() ? first_groups_ : cubes_[id].groups.back() + 1;
  if (from >= groups_.size()) {
    cubes_[id].status = cube_status::open;
    cubes_[id].result.reason += "; no group is left to divide it by";
    return;
  }
  if (cubes_.size() + groups_[from].literals.size() > max_cubes) {
    cubes_[id].status = cube_status::open;
    cubes_[id].result.reason += "; the plan holds 2^20 cubes already";
    return;
  }
  cubes_[id].status = cube_status::divided;
  const split_group& g = groups_[from];
  for (std::size_t i = 0; i < g.literals.size(); ++i) {
    std::vector<int> literals = cubes_[id].literals;
    literals.push_back(g.literals[i]);
    std::vector<std::size_t> used = cubes_[id].groups;
    used.push_back(from);
    const std::string& base = cubes_[id].description;
    add_cube(std::move(literals), std::move(used), (cubes_[id].groups.empty() ? "" : base + ", ") + g.values[i], id);
  }
}

void cube_plan::record(std::size_t id, cube_result r, bool split_again) {
  cube& c = cubes_.at(id);
  if (c.status != cube_status::running)
    throw std::logic_error("cube_plan::record: cube " + std::to_string(id) + " is not running");
  const bool spent = r.budget_spent;
  c.result = std::move(r);
  switch (c.result.answer) {
    case solver_answer::unsat:
      c.status = cube_status::refuted;
      return;
    case solver_answer::sat:
      c.status = cube_status::sat;
      if (!sat_) sat_ = id;
      return;
    case solver_answer::unknown:
      if (spent && split_again) {
        divide(id);
      } else {
        c.status = cube_status::open;
      }
      return;
  }
}

std::optional<std::size_t> cube_plan::find_waiting(const std::vector<int>& literals) const {
  const auto at = index_.find(sorted(literals));
  if (at == index_.end() || cubes_[at->second].status != cube_status::waiting) return std::nullopt;
  return at->second;
}

bool cube_plan::restore_refuted(const std::vector<int>& literals, const cube_result& r) {
  return r.answer == solver_answer::unsat && restore(literals, r, false);
}

bool cube_plan::restore(const std::vector<int>& literals, cube_result r, bool split_again) {
  const std::optional<std::size_t> id = find_waiting(literals);
  if (!id) return false;
  cubes_[*id].status = cube_status::running;
  record(*id, std::move(r), split_again);
  return true;
}

bool cube_plan::restore_divided(const std::vector<int>& literals) {
  const std::optional<std::size_t> id = find_waiting(literals);
  if (!id) return false;
  divide(*id);
  return cubes_[*id].status == cube_status::divided;
}

std::size_t cube_plan::count(cube_status status) const {
  return static_cast<std::size_t>(
      std::count_if(cubes_.begin(), cubes_.end(), [status](const cube& c) { return c.status == status; }));
}

std::size_t cube_plan::waiting() const { return count(cube_status::waiting); }
std::size_t cube_plan::running() const { return count(cube_status::running); }
std::uint64_t cube_plan::refuted() const { return count(cube_status::refuted); }
std::uint64_t cube_plan::open() const { return count(cube_status::open); }
std::uint64_t cube_plan::divided() const { return count(cube_status::divided); }
bool cube_plan::finished() const { return sat_.has_value() || (waiting() == 0 && running() == 0); }

std::pair<solver_answer, std::string> cube_plan::verdict(const std::vector<std::vector<int>>& clauses) const {
  if (sat_)
    return {solver_answer::sat, "cube " + std::to_string(*sat_) + " (" + cubes_[*sat_].description +
                                    ") is sat: " + cubes_[*sat_].result.reason};
  const std::uint64_t leaves = refuted() + open() + waiting() + running();
  if (open() != 0 || waiting() != 0 || running() != 0)
    return {solver_answer::unknown, std::to_string(refuted()) + " of " + std::to_string(leaves) +
                                        " cubes refuted with checked proofs, " + std::to_string(open()) + " open, " +
                                        std::to_string(waiting() + running()) + " not finished"};
  // The cover: every group any cube used, against the refuted leaves.
  std::vector<bool> used(groups_.size(), false);
  std::vector<std::vector<int>> refuted_cubes;
  std::uint64_t lemmas = 0;
  for (const cube& c : cubes_) {
    for (std::size_t g : c.groups) used[g] = true;
    if (c.status == cube_status::refuted) refuted_cubes.push_back(c.literals), lemmas += c.result.lemmas_checked;
  }
  std::vector<std::vector<int>> groups;
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (used[g]) groups.push_back(groups_[g].literals);
  const certificates::cube_cover_report cover = certificates::check_cube_cover(clauses, groups, refuted_cubes);
  if (!cover.holds())
    return {solver_answer::unknown,
            "every cube was refuted, but the cover check did not accept the split: " + describe(cover)};
  return {solver_answer::unsat, "unsat: all " + std::to_string(refuted_cubes.size()) +
                                    " cubes refuted, each DRAT proof checked (" + std::to_string(lemmas) +
                                    " lemmas checked in all), and the cover checked (" + cover.checked + ")"};
}

}  // namespace dancecard::cubes
