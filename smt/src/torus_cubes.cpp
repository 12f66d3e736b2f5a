// Cube and conquer over torus_gossip_cnf: the split, the cubes solved side by side, the answer certified per cube
// (DRAT) and as a whole (the cover check).
#include "dancecard/smt/torus_cubes.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "dancecard/checkers/cube_cover_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "torus_search.hpp"

namespace dancecard::torus {

namespace {

std::uint64_t distance_from_zero(const torus::network& network, pu_index pu) {
  const std::vector<std::uint32_t> c = network.coordinates(pu);
  std::uint64_t d = 0;
  for (std::uint32_t j = 0; j < network.dimension(); ++j) d += std::min(c[j], network.dims()[j] - c[j]);
  return d;
}

struct split_group {
  std::vector<int> literals;
  std::vector<std::string> values;  // the words for each literal's value
  std::string name;
};

// The groups: the PUs farthest from PU 0 first (ties by index), a pairing group per PU, or a group per out-port — less
// the values the formula's unit clauses forbid (the general model's U-turns, where the return exclusion rules them
// out), which would only make cubes refuted at once; a group left with one value splits nothing and is skipped.
std::vector<split_group> choose_groups(const torus::network& network, torus_model model, std::uint64_t wanted,
                                       const std::set<int>& forbidden) {
  std::vector<pu_index> order(network.size());
  for (pu_index pu = 0; pu < network.size(); ++pu) order[pu] = pu;
  std::stable_sort(order.begin(), order.end(), [&](pu_index a, pu_index b) {
    return distance_from_zero(network, a) > distance_from_zero(network, b);
  });
  const std::uint32_t pairings = static_cast<std::uint32_t>(port_pairings(network.dimension()).size());
  std::vector<split_group> groups;
  std::uint64_t product = 1;
  for (pu_index pu : order) {
    if (product >= wanted) break;
    auto take = [&](split_group g) {
      if (g.literals.size() < 2) return;
      product *= g.literals.size();
      groups.push_back(std::move(g));
    };
    if (model == torus_model::pairing) {
      split_group g{{}, {}, "PU " + std::to_string(pu) + "'s pairing"};
      for (std::uint32_t c = 0; c < pairings; ++c) {
        const int literal = torus_choice_variable(network, model, pu, c);
        if (forbidden.count(literal) != 0) continue;
        g.literals.push_back(literal);
        g.values.push_back("PU " + std::to_string(pu) + " pairing " + std::to_string(c));
      }
      take(std::move(g));
      continue;
    }
    for (std::uint32_t o = 0; o < network.ports() && product < wanted; ++o) {
      split_group g{{}, {}, "PU " + std::to_string(pu) + "'s out-port " + std::to_string(o)};
      for (std::uint32_t in = 0; in < network.ports(); ++in) {
        const int literal = torus_choice_variable(network, model, pu, o, in);
        if (forbidden.count(literal) != 0) continue;
        g.literals.push_back(literal);
        g.values.push_back("PU " + std::to_string(pu) + " out-port " + std::to_string(o) + " <- in-port " +
                           std::to_string(in));
      }
      take(std::move(g));
    }
  }
  return groups;
}

}  // namespace

torus_split_result solve_torus_cubes(const torus::network& network, torus_model model, std::uint64_t steps,
                                     unsigned budget_ms, const torus_split_options& options) {
  if (steps < 1) throw std::invalid_argument("solve_torus_cubes: steps must be at least 1");
  if (options.cubes < 1 || options.cubes > 65'536)
    throw std::invalid_argument("solve_torus_cubes: cubes must be 1 … 65,536, got " + std::to_string(options.cubes));
  if (options.jobs < 1 || options.jobs > 256)
    throw std::invalid_argument("solve_torus_cubes: jobs must be 1 … 256, got " + std::to_string(options.jobs));
  const auto start = std::chrono::steady_clock::now();
  torus_split_result out;
  const cnf_formula f = torus_gossip_cnf(network, model, steps, {.symmetry = options.symmetry});
  if (std::any_of(f.clauses.begin(), f.clauses.end(), [](const std::vector<int>& c) { return c.empty(); })) {
    out.query = solve_torus_clausal(network, model, steps, budget_ms,
                                    options.symmetry);  // the count's empty clause: nothing to split
    return out;
  }
  std::set<int> forbidden;  // literals the formula's unit clauses make false
  for (const std::vector<int>& c : f.clauses)
    if (c.size() == 1) forbidden.insert(-c[0]);
  const std::vector<split_group> groups = choose_groups(network, model, options.cubes, forbidden);
  std::uint64_t count = 1;
  for (const split_group& g : groups) {
    out.split.push_back(g.name);
    out.groups.push_back(g.literals);
    count *= g.literals.size();
  }
  out.cubes.resize(count);
  for (std::uint64_t k = 0; k < count; ++k) {
    std::uint64_t rest = k;
    std::vector<std::size_t> pick(groups.size());
    for (std::size_t g = groups.size(); g-- > 0;) {
      pick[g] = rest % groups[g].literals.size();
      rest /= groups[g].literals.size();
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
      out.cubes[k].literals.push_back(groups[g].literals[pick[g]]);
      out.cubes[k].description += (g ? ", " : "") + groups[g].values[pick[g]];
    }
    if (groups.empty()) out.cubes[k].description = "the whole query";
  }

  const auto deadline = start + std::chrono::milliseconds(budget_ms);
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> found{false};
  std::mutex witness_lock;
  std::optional<routing_table> witness;
  std::string witness_reason;
  std::exception_ptr
      failure;  // the first exception of a worker (a temporary file not made, memory), raised after the join
  auto work = [&] {
    try {
      for (;;) {
        const std::uint64_t k = next.fetch_add(1);
        if (k >= count || found.load()) return;
        unsigned left = 0;
        if (budget_ms != 0) {
          const auto now = std::chrono::steady_clock::now();
          if (now >= deadline) return;
          left = static_cast<unsigned>(
              std::max<std::int64_t>(1, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()));
        }
        if (options.cube_budget_ms != 0)
          left = left == 0 ? options.cube_budget_ms : std::min(left, options.cube_budget_ms);
        torus_cube_answer& cube = out.cubes[k];
        cube.asked = true;
        const auto began = std::chrono::steady_clock::now();
        cnf_formula g = f;
        for (int lit : cube.literals) g.clauses.push_back({lit});
        g.comments.push_back("cube " + std::to_string(k) + " of " + std::to_string(count) + ": " + cube.description);
        const clausal_result solved = solve_with_proof(g, left, drat_encoding::binary, &found);
        cube.answer = solved.answer;
        cube.reason = solved.reason;
        if (solved.answer == solver_answer::unsat) {
          const certificates::drat_report check = solved.proof.check(g.dimacs());
          if (check.outcome == verdict::holds) {
            cube.lemmas_checked = check.checked_lemmas;
            cube.reason = "unsat, DRAT proof checked (" + std::to_string(check.checked_lemmas) + " of " +
                          std::to_string(check.lemmas) + " lemmas)";
          } else {
            cube.answer = solver_answer::unknown;
            cube.reason = "CaDiCaL said unsat but its DRAT proof was not accepted: " + describe(check);
          }
        } else if (solved.answer == solver_answer::sat) {
          routing_table table = detail::decode_full_table(network, model, steps, solved.model, g.variables);
          const gossip_report run = simulate_gossip(table, steps);
          if (run.holds()) {
            cube.reason = "sat: its table completes in " + std::to_string(run.steps) + " steps (simulated)";
            std::lock_guard<std::mutex> hold(witness_lock);
            if (!witness) {
              witness = std::move(table);
              witness_reason = "witness table completes in " + std::to_string(run.steps) +
                               " steps (simulated), from cube " + std::to_string(k) + " (" + cube.description + ")";
            }
            found.store(true);
          } else {
            cube.answer = solver_answer::unknown;
            cube.reason = "the decoded table fails in the simulator: " + describe(run);
          }
        }
        cube.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
      }
    } catch (...) {
      std::lock_guard<std::mutex> hold(witness_lock);
      if (!failure) failure = std::current_exception();
      found.store(true);  // stops the others
    }
  };
  const unsigned threads = static_cast<unsigned>(std::min<std::uint64_t>(options.jobs, count));
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < threads; ++j) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);

  std::uint64_t asked = 0;
  std::vector<std::vector<int>> refuted_cubes;
  for (const torus_cube_answer& cube : out.cubes) {
    if (cube.asked) ++asked, out.cube_seconds += cube.seconds;
    if (cube.answer == solver_answer::unsat) ++out.refuted, refuted_cubes.push_back(cube.literals);
  }
  if (witness) {
    out.query.answer = solver_answer::sat;
    out.query.witness = std::move(witness);
    out.query.reason = witness_reason;
  } else if (out.refuted == count) {
    const certificates::cube_cover_report cover = certificates::check_cube_cover(f.clauses, out.groups, refuted_cubes);
    if (cover.holds()) {
      std::uint64_t lemmas = 0;
      for (const torus_cube_answer& cube : out.cubes) lemmas += cube.lemmas_checked;
      out.query.answer = solver_answer::unsat;
      out.query.reason = "unsat: all " + std::to_string(count) + " cubes refuted, each DRAT proof checked (" +
                         std::to_string(lemmas) + " lemmas checked in all), and the cover checked (" + cover.checked +
                         ")";
    } else {
      out.query.answer = solver_answer::unknown;
      out.query.reason = "every cube was refuted, but the cubes do not cover the query: " + describe(cover);
    }
  } else {
    out.query.answer = solver_answer::unknown;
    out.query.reason = std::to_string(out.refuted) + " of " + std::to_string(count) +
                       " cubes refuted with checked proofs, " + std::to_string(count - asked) +
                       " not asked (the budget spent), " + std::to_string(asked - out.refuted) +
                       " asked and open (out of time, or a proof not accepted)";
  }
  out.query.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::torus
