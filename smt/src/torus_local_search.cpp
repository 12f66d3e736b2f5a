// Local search for time-independent torus tables with few steps: upper bounds (simulated witnesses) where the SAT
// queries at the minimum run out of time. Nothing here is a proof of minimality.
#include <algorithm>
#include <chrono>
#include <random>

#include "dancecard/smt/torus_encoding.hpp"

namespace dancecard {

namespace {

// A table of the model from its choices: pairing — the index of each PU's pairing; general — for each out-port the
// in-port it forwards (every out-port forwards something: an idle port never helps, see torus_clausal.cpp).
struct table_state {
  const torus& net;
  torus_model model;
  std::vector<std::vector<std::uint32_t>> pairings;
  std::vector<std::uint32_t> choice;

  std::uint32_t options() const { return model == torus_model::pairing ? static_cast<std::uint32_t>(pairings.size()) : net.ports(); }

  routing_table table() const {
    const std::uint32_t ports = net.ports();
    if (model == torus_model::pairing) {
      std::vector<std::uint32_t> partner(static_cast<std::size_t>(net.size()) * ports);
      for (pu_index pu = 0; pu < net.size(); ++pu)
        for (std::uint32_t o = 0; o < ports; ++o) partner[pu * ports + o] = pairings[choice[pu]][o];
      return pairing_table(net, partner, true);
    }
    routing_table t{net, 1, choice, std::vector<std::uint32_t>(choice.size(), 0), {}};
    return t;
  }
};

// The (PU, packet) pairs still missing after `steps` steps (0: the table completes within them).
std::uint64_t missing_after(const routing_table& table, std::uint64_t steps) {
  const gossip_report run = simulate_gossip(table, gossip_options{.max_steps = steps, .max_witnesses = 0, .record_arrivals = false});
  return run.holds() ? 0 : std::max<std::uint64_t>(1, run.count_by_kind[static_cast<std::size_t>(torus_violation_kind::never_reached)]);
}

}  // namespace

torus_heuristic_result search_torus_table(const torus& network, torus_model model, unsigned budget_ms, std::uint64_t seed, std::uint64_t goal) {
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::milliseconds(budget_ms);
  torus_heuristic_result out;
  const pu_index P = network.size();
  if (P < 2) throw std::invalid_argument("torus local search: needs at least 2 PUs");
  goal = std::max(goal, P <= 4096 ? parity_bound(network) : counting_bound(network));  // no table completes in fewer steps
  table_state state{network, model, port_pairings(network.dimension()), {}};
  const std::size_t slots = model == torus_model::pairing ? P : static_cast<std::size_t>(P) * network.ports();
  std::mt19937_64 random(seed);
  auto draw = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
  state.choice.resize(slots);
  for (auto& c : state.choice) c = static_cast<std::uint32_t>(draw(state.options()));
  if (model == torus_model::general) {
    // A pairing table is a general table, and random general tables send streams round in small loops: start from the
    // best pairing table of half the budget, then change single out-ports.
    torus_heuristic_result paired = search_torus_table(network, torus_model::pairing, budget_ms / 2, seed, goal);
    out.evaluations += paired.evaluations;
    if (paired.table) {
      state.choice = paired.table->forward;
      if (paired.steps <= goal) {
        out.table = std::move(paired.table);
        out.steps = paired.steps;
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return out;
      }
    }
  }

  // Completion of a start table, from a horizon at which every stream has closed its cycle at least once.
  const std::uint64_t horizon = static_cast<std::uint64_t>(network.dimension()) * P * network.ports();
  std::uint64_t best_steps = 0;
  std::vector<std::uint32_t> best = state.choice;
  {
    const gossip_report run = simulate_gossip(state.table(), gossip_options{.max_steps = horizon, .max_witnesses = 0, .record_arrivals = false});
    ++out.evaluations;
    if (run.holds()) best_steps = run.steps;
  }
  // Descend: aim at one step below the best so far, minimising the missing pairs there by single changes (equal or
  // better accepted; at most 2 worse with probability 1/200); a table that completes sets the new best; after 20,000
  // changes without a new least, restart from the best table with three random changes. Until the goal (at least the
  // counting bound) or the deadline.
  std::uint64_t target = best_steps == 0 ? horizon : best_steps - 1;
  std::uint64_t cost = missing_after(state.table(), target);
  std::uint64_t since_better = 0, least = cost;
  while (target >= goal && std::chrono::steady_clock::now() < deadline) {
    for (int burst = 0; burst < 64; ++burst) {
      const std::size_t slot = draw(slots);
      const std::uint32_t before = state.choice[slot];
      const std::uint32_t after = static_cast<std::uint32_t>((before + 1 + draw(state.options() - 1)) % state.options());
      state.choice[slot] = after;
      const std::uint64_t c = missing_after(state.table(), target);
      ++out.evaluations;
      const bool worse_ok = c > cost && c - cost <= 2 && draw(1000) < 5;
      if (c <= cost || worse_ok) {
        cost = c;
      } else {
        state.choice[slot] = before;
      }
      if (cost < least) least = cost, since_better = 0;
      else ++since_better;
      if (cost == 0) {
        const gossip_report run = simulate_gossip(state.table(), gossip_options{.max_steps = target, .max_witnesses = 0, .record_arrivals = false});
        best_steps = run.steps;
        best = state.choice;
        target = best_steps - 1;
        cost = least = missing_after(state.table(), target);
        since_better = 0;
        break;
      }
      if (since_better > 20'000) {  // stalled: restart from the best table with a few random changes
        state.choice = best;
        for (int k = 0; k < 3; ++k) state.choice[draw(slots)] = static_cast<std::uint32_t>(draw(state.options()));
        cost = least = missing_after(state.table(), target);
        since_better = 0;
      }
    }
    if (best_steps != 0 && best_steps <= goal) break;
  }
  if (best_steps != 0) {
    state.choice = best;
    out.table = state.table();
    out.steps = best_steps;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard
