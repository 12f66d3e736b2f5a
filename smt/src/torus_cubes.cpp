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

#include "torus_search.hpp"

namespace dancecard::torus {

namespace {

std::uint64_t distance_from_zero(const torus::network& network, pu_index pu) {
  const std::vector<std::uint32_t> c = network.coordinates(pu);
  std::uint64_t d = 0;
  for (std::uint32_t j = 0; j < network.dimension(); ++j) d += std::min(c[j], network.dims()[j] - c[j]);
  return d;
}

// Every group, in the order of use: the PUs farthest from PU 0 first (ties by index), a pairing group per PU, or a
// group per out-port — less the values the formula's unit clauses forbid (the general model's U-turns, where the
// return exclusion rules them out), which would only make cubes refuted at once; a group left with one value splits
// nothing and is skipped.
std::vector<cubes::split_group> all_groups(const torus::network& network, torus_model model,
                                           const std::set<int>& forbidden) {
  std::vector<pu_index> order(network.size());
  for (pu_index pu = 0; pu < network.size(); ++pu) order[pu] = pu;
  std::stable_sort(order.begin(), order.end(), [&](pu_index a, pu_index b) {
    return distance_from_zero(network, a) > distance_from_zero(network, b);
  });
  const std::uint32_t pairings = static_cast<std::uint32_t>(port_pairings(network.dimension()).size());
  std::vector<cubes::split_group> groups;
  auto take = [&](cubes::split_group g) {
    if (g.literals.size() >= 2) groups.push_back(std::move(g));
  };
  for (pu_index pu : order) {
    if (model == torus_model::pairing) {
      cubes::split_group g{"PU " + std::to_string(pu) + "'s pairing", {}, {}};
      for (std::uint32_t c = 0; c < pairings; ++c) {
        const int literal = torus_choice_variable(network, model, pu, c);
        if (forbidden.count(literal) != 0) continue;
        g.literals.push_back(literal);
        g.values.push_back("PU " + std::to_string(pu) + " pairing " + std::to_string(c));
      }
      take(std::move(g));
      continue;
    }
    for (std::uint32_t o = 0; o < network.ports(); ++o) {
      cubes::split_group g{"PU " + std::to_string(pu) + "'s out-port " + std::to_string(o), {}, {}};
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

torus_cube_query torus_cubes_of(const torus::network& network, torus_model model, std::uint64_t steps,
                                torus_symmetry symmetry) {
  torus_cube_query out;
  out.formula = torus_gossip_cnf(network, model, steps, {.symmetry = symmetry});
  out.empty_clause = std::any_of(out.formula.clauses.begin(), out.formula.clauses.end(),
                                 [](const std::vector<int>& c) { return c.empty(); });
  std::set<int> forbidden;  // literals the formula's unit clauses make false
  for (const std::vector<int>& c : out.formula.clauses)
    if (c.size() == 1) forbidden.insert(-c[0]);
  if (!out.empty_clause) out.groups = all_groups(network, model, forbidden);
  return out;
}

std::pair<std::optional<routing_table>, std::string> torus_cube_witness(const torus::network& network,
                                                                        torus_model model, std::uint64_t steps,
                                                                        const std::vector<int>& model_literals,
                                                                        int variables) {
  routing_table table = detail::decode_full_table(network, model, steps, model_literals, variables);
  const gossip_report run = simulate_gossip(table, steps);
  if (!run.holds()) return {std::nullopt, "the decoded table fails in the simulator: " + describe(run)};
  return {std::move(table), "completes in " + std::to_string(run.steps) + " steps (simulated)"};
}

torus_split_result solve_torus_cubes(const torus::network& network, torus_model model, std::uint64_t steps,
                                     unsigned budget_ms, const torus_split_options& options) {
  if (steps < 1) throw std::invalid_argument("solve_torus_cubes: steps must be at least 1");
  if (options.cubes < 1 || options.cubes > 65'536)
    throw std::invalid_argument("solve_torus_cubes: cubes must be 1 … 65,536, got " + std::to_string(options.cubes));
  if (options.jobs < 1 || options.jobs > 256)
    throw std::invalid_argument("solve_torus_cubes: jobs must be 1 … 256, got " + std::to_string(options.jobs));
  const auto start = std::chrono::steady_clock::now();
  torus_split_result out;
  const torus_cube_query q = torus_cubes_of(network, model, steps, options.symmetry);
  if (q.empty_clause) {
    out.query = solve_torus_clausal(network, model, steps, budget_ms,
                                    options.symmetry);  // the count's empty clause: nothing to split
    return out;
  }
  cubes::cube_plan plan(q.groups, options.cubes);
  for (std::size_t g = 0; g < plan.first_groups(); ++g) {
    out.split.push_back(plan.groups()[g].name);
    out.groups.push_back(plan.groups()[g].literals);
  }
  const std::size_t count = plan.cubes().size();
  out.cubes.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    out.cubes[k].literals = plan.cubes()[k].literals;
    out.cubes[k].description = plan.cubes()[k].description;
  }

  const auto deadline = start + std::chrono::milliseconds(budget_ms);
  std::atomic<bool> found{false};
  std::mutex lock;  // the plan, the witness and the first failure
  std::optional<routing_table> witness;
  std::string witness_reason;
  std::exception_ptr
      failure;  // the first exception of a worker (a temporary file not made, memory), raised after the join
  auto work = [&] {
    try {
      for (;;) {
        std::optional<std::size_t> k;
        {
          std::lock_guard<std::mutex> hold(lock);
          if (!found.load()) k = plan.take();
        }
        if (!k) return;
        unsigned left = 0;
        if (budget_ms != 0) {
          const auto now = std::chrono::steady_clock::now();
          if (now >= deadline) {
            std::lock_guard<std::mutex> hold(lock);
            plan.give_back(*k);
            return;
          }
          left = static_cast<unsigned>(
              std::max<std::int64_t>(1, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()));
        }
        if (options.cube_budget_ms != 0)
          left = left == 0 ? options.cube_budget_ms : std::min(left, options.cube_budget_ms);
        torus_cube_answer& cube = out.cubes[*k];
        cube.asked = true;
        cubes::cube_result r = cubes::solve_cube(q.formula, cube.literals, {.milliseconds = left}, &found);
        if (r.answer == solver_answer::sat) {
          auto [table, reason] = torus_cube_witness(network, model, steps, r.model, q.formula.variables);
          if (table) {
            r.reason = "sat: its table " + reason;
            std::lock_guard<std::mutex> hold(lock);
            if (!witness) {
              witness = std::move(table);
              witness_reason =
                  "witness table " + reason + ", from cube " + std::to_string(*k) + " (" + cube.description + ")";
            }
            found.store(true);
          } else {
            r.answer = solver_answer::unknown;
            r.reason = reason;
          }
        }
        cube.answer = r.answer;
        cube.reason = r.reason;
        cube.seconds = r.seconds;
        cube.lemmas_checked = r.lemmas_checked;
        std::lock_guard<std::mutex> hold(lock);
        plan.record(*k, std::move(r), false);
      }
    } catch (...) {
      std::lock_guard<std::mutex> hold(lock);
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
  for (const torus_cube_answer& cube : out.cubes)
    if (cube.asked) ++asked, out.cube_seconds += cube.seconds;
  out.refuted = plan.refuted();
  if (witness) {
    out.query.answer = solver_answer::sat;
    out.query.witness = std::move(witness);
    out.query.reason = witness_reason;
  } else if (out.refuted == count) {
    auto [answer, reason] = plan.verdict(q.formula.clauses);
    out.query.answer = answer;
    out.query.reason = answer == solver_answer::unsat ? reason : "every cube was refuted, but " + reason;
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
