// CNF writing for dance queries and CaDiCaL with DRAT proof tracing.
#include "dancecard/smt/clausal.hpp"

#include "cadical_deadline.hpp"

#include <algorithm>
#include <cadical.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace dancecard {

std::string cnf_formula::dimacs() const {
  std::ostringstream out;
  for (const std::string& c : comments) out << "c " << c << "\n";
  out << "p cnf " << variables << " " << clauses.size() << "\n";
  for (const auto& clause : clauses) {
    for (int lit : clause) out << lit << " ";
    out << "0\n";
  }
  return out.str();
}

namespace dance {

cnf_formula dance_query_cnf(const dance_query& q) {
  std::set<std::pair<rank, rank>> required;
  if (q.requirements.required_pairs) {
    for (auto [a, b] : *q.requirements.required_pairs) required.emplace(std::min(a, b), std::max(a, b));
  } else {
    for (rank a = 0; a < q.n; ++a)
      for (rank b = a + 1; b < q.n; ++b) required.emplace(a, b);
  }
  const std::vector<std::pair<rank, rank>> pairs(required.begin(), required.end());
  const int R = static_cast<int>(q.rounds);
  cnf_formula f;
  f.variables = static_cast<int>(pairs.size()) * R;
  auto var = [&](std::size_t e, std::size_t r) { return static_cast<int>(e) * R + static_cast<int>(r) + 1; };
  auto pair_index = [&](rank a, rank b) -> std::optional<std::size_t> {
    auto it = std::lower_bound(pairs.begin(), pairs.end(), std::pair{std::min(a, b), std::max(a, b)});
    if (it == pairs.end() || *it != std::pair{std::min(a, b), std::max(a, b)}) return std::nullopt;
    return static_cast<std::size_t>(it - pairs.begin());
  };
  f.comments.push_back("dancecard: a schedule for " + std::to_string(q.n) + " people in " + std::to_string(R) +
                       " rounds (constraints (i)-(iii) of the dance-party paper)");
  f.comments.push_back("variable e*" + std::to_string(R) +
                       " + r + 1 is true when the e-th pair below dances in round r");
  std::ostringstream listing;
  for (std::size_t e = 0; e < pairs.size(); ++e) {
    listing << " " << e << ":{" << pairs[e].first << "," << pairs[e].second << "}";
    if (e % 16 == 15 || e + 1 == pairs.size()) {
      f.comments.push_back("pairs" + listing.str());
      listing.str("");
    }
  }
  for (std::size_t e = 0; e < pairs.size(); ++e) {
    std::vector<int> at_least_once;
    for (int r = 0; r < R; ++r) at_least_once.push_back(var(e, r));
    f.clauses.push_back(at_least_once);
    for (int r = 0; r < R; ++r)
      for (int s = r + 1; s < R; ++s) f.clauses.push_back({-var(e, r), -var(e, s)});
  }
  std::vector<std::vector<std::size_t>> incident(q.n);
  for (std::size_t e = 0; e < pairs.size(); ++e) {
    incident[pairs[e].first].push_back(e);
    incident[pairs[e].second].push_back(e);
  }
  for (rank p = 0; p < q.n; ++p)
    for (int r = 0; r < R; ++r)
      for (std::size_t i = 0; i < incident[p].size(); ++i)
        for (std::size_t j = i + 1; j < incident[p].size(); ++j)
          f.clauses.push_back({-var(incident[p][i], r), -var(incident[p][j], r)});
  for (const auto& d : q.requirements.fixed) {
    auto e = pair_index(d.a, d.b);
    if (e && static_cast<int>(d.round) < R)
      f.clauses.push_back({var(*e, d.round)});
    else
      f.clauses.push_back({});  // a fixed dance that cannot happen: the empty clause
  }
  for (const auto& d : q.requirements.forbidden)
    if (auto e = pair_index(d.a, d.b); e && static_cast<int>(d.round) < R) f.clauses.push_back({-var(*e, d.round)});
  for (const auto& u : q.requirements.unavailable)
    if (u.person < q.n && static_cast<int>(u.round) < R)
      for (std::size_t e : incident[u.person]) f.clauses.push_back({-var(e, u.round)});
  return f;
}
}  // namespace dance

namespace {

void load(CaDiCaL::Solver& solver, const cnf_formula& formula) {
  for (const auto& clause : formula.clauses) {
    for (int lit : clause) solver.add(lit);
    solver.add(0);
  }
}

// One solve within budget_ms (0: no limit): the answer, and the true variables 1 … variables when sat.
void run_until(CaDiCaL::Solver& solver, unsigned budget_ms, int variables, clausal_result& out,
               const std::atomic<bool>* cancel, std::uint64_t conflicts = 0) {
  dancecard::detail::cadical_deadline stop(budget_ms, cancel);
  solver.connect_terminator(&stop);
  if (conflicts != 0)  // CaDiCaL's limit holds for the next solve only
    solver.limit("conflicts", static_cast<int>(std::min<std::uint64_t>(conflicts, std::numeric_limits<int>::max())));
  const int result = solver.solve();
  solver.disconnect_terminator();
  if (result == 20) {
    out.answer = solver_answer::unsat;
  } else if (result == 10) {
    out.answer = solver_answer::sat;
    for (int v = 1; v <= variables; ++v)
      if (solver.val(v) > 0) out.model.push_back(v);
  } else {
    out.answer = solver_answer::unknown;
    out.reason = stop.cancelled()   ? "CaDiCaL stopped: cancelled by the caller"
                 : stop.timed_out() ? "CaDiCaL stopped at the budget of " + std::to_string(budget_ms) + " ms"
                                    : "CaDiCaL stopped at the budget of " + std::to_string(conflicts) + " conflicts";
  }
}

}  // namespace

drat_trace::drat_trace(std::shared_ptr<std::FILE> file, std::uint64_t bytes) : file_(std::move(file)), bytes_(bytes) {}

certificates::drat_report drat_trace::check(std::string_view dimacs) const {
  if (!file_) return certificates::check_drat(dimacs, std::string_view());
  std::rewind(file_.get());
  bool failed = false;
  certificates::drat_report r =
      certificates::check_drat(dimacs, [&](char* buffer, std::size_t capacity) -> std::size_t {
        const std::size_t got = std::fread(buffer, 1, capacity, file_.get());
        if (got == 0 && std::ferror(file_.get()) != 0) failed = true;
        return got;
      });
  if (failed) {
    r = {};
    r.malformed = true;
    r.problem = "proof: the trace could not be read back from its temporary file";
  }
  return r;
}

std::string drat_trace::read() const {
  std::string all;
  all.reserve(bytes_);
  for_each_piece([&](std::string_view piece) { all.append(piece); });
  return all;
}

void drat_trace::for_each_piece(const std::function<void(std::string_view)>& use) const {
  if (!file_) return;
  std::rewind(file_.get());
  std::vector<char> buffer(1 << 20);
  std::uint64_t left = bytes_;
  while (left > 0) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(left, buffer.size()));
    if (std::fread(buffer.data(), 1, want, file_.get()) != want)
      throw std::runtime_error("drat_trace: the proof could not be read back from its temporary file");
    use(std::string_view(buffer.data(), want));
    left -= want;
  }
}

clausal_result solve_with_proof(const cnf_formula& formula, unsigned budget_ms, drat_encoding encoding,
                                const std::atomic<bool>* cancel) {
  return resumable_solve(formula, encoding).solve(budget_ms, cancel);
}

clausal_result solve_for_model(const cnf_formula& formula, unsigned budget_ms, const std::atomic<bool>* cancel) {
  return resumable_solve(formula).solve(budget_ms, cancel);
}

resumable_solve::resumable_solve(const cnf_formula& formula, std::optional<drat_encoding> proof)
    : solver_(std::make_unique<CaDiCaL::Solver>()), variables_(formula.variables) {
  solver_->set("quiet", 1);
  if (proof) {
    // The proof goes to an unlinked temporary file, not to memory: a long query traces gigabytes (an hour on a 30-PU
    // torus: about 8 GB of text) that are streamed through the checker when the answer is unsat and dropped otherwise.
    trace_.reset(std::tmpfile(), [](std::FILE* f) {
      if (f != nullptr) std::fclose(f);  // closing removes the file
    });
    if (!trace_) throw std::runtime_error("solve_with_proof: cannot create a temporary file for the proof trace");
    solver_->set("binary", *proof == drat_encoding::binary ? 1 : 0);
    solver_->trace_proof(trace_.get(), "proof");
  }
  load(*solver_, formula);
}
resumable_solve::~resumable_solve() = default;
resumable_solve::resumable_solve(resumable_solve&&) noexcept = default;

clausal_result resumable_solve::solve(unsigned budget_ms, const std::atomic<bool>* cancel, std::uint64_t conflicts) {
  if (final_) return *final_;  // asked again after unsat: the same answer and proof
  const auto start = std::chrono::steady_clock::now();
  clausal_result out;
  run_until(*solver_, budget_ms, variables_, out, cancel, conflicts);
  if (out.answer == solver_answer::unsat) {
    if (trace_) {
      // The FILE is ours: CaDiCaL flushes but does not close an external file. The solver goes first, so that nothing
      // it might still write lands where the checker reads.
      solver_->flush_proof_trace();
      solver_.reset();
      std::fflush(trace_.get());
      std::fseek(trace_.get(), 0, SEEK_END);
      const long size = std::ftell(trace_.get());
      if (std::ferror(trace_.get()) != 0 || size < 0) {
        out.answer = solver_answer::unknown;
        out.reason =
            "CaDiCaL answered unsat, but its proof trace could not be written to the temporary file (disk full?)";
      } else {
        out.proof = drat_trace(trace_, static_cast<std::uint64_t>(size));
      }
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  seconds_ += out.seconds;
  if (!solver_) final_ = out;  // unsat, or an unsat whose trace failed (unknown): the solver is gone either way
  return out;
}

std::string clausal_solver_version() { return std::string("CaDiCaL ") + CaDiCaL::Solver::version(); }

}  // namespace dancecard
