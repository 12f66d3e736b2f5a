// Local search for time-independent torus tables with few steps: upper bounds (simulated witnesses) where the SAT
// queries at the minimum run out of time. Nothing here is a proof of minimality.
#include <algorithm>
#include <bit>
#include <chrono>
#include <optional>
#include <random>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/search/torus_tables.hpp"
#include "torus_choices.hpp"

namespace dancecard::torus {

namespace {

// A table of the model from its choices: pairing — the index of each PU's pairing; general — for each out-port the
// in-port it forwards (every out-port forwards something: an idle port never helps, see torus_cnf_detail.hpp). With k >
// 1 packets per PU also `inject`: for each out-port which own packet it sends in step 1 (chosen for the forwarding by
// torus_injection_chooser, not searched); with one packet every out-port sends it.
struct table_state {
  const torus::network& net;
  torus_model model;
  std::uint32_t packets;
  std::vector<std::vector<std::uint32_t>> pairings;
  std::vector<std::uint32_t> choice;
  std::vector<std::uint32_t> inject;  // [pu · ports + out-port], packets > 1 only

  std::uint32_t options() const {
    return model == torus_model::pairing ? static_cast<std::uint32_t>(pairings.size()) : net.ports();
  }

  routing_table table() const {
    routing_table t = detail::table_of_choices(net, model, choice, &pairings);
    if (packets > 1) t.packets = packets, t.inject = inject;
    return t;
  }
};

// The PUs still missing some packet after `steps` steps (the simulator reports one such packet per PU; 0: the table
// completes within them).
std::uint64_t missing_after(const routing_table& table, std::uint64_t steps) {
  const gossip_report run =
      simulate_gossip(table, gossip_options{.max_steps = steps, .max_witnesses = 0, .record_arrivals = false});
  return run.holds() ? 0
                     : std::max<std::uint64_t>(
                           1, run.count_by_kind[static_cast<std::size_t>(torus_violation_kind::never_reached)]);
}

}  // namespace

torus_injection_chooser::torus_injection_chooser(const torus::network& network, std::uint32_t packets)
    : P_(network.size()), ports_(network.ports()), k_(packets), words_((P_ + 63) / 64) {
  if (packets == 0 || packets > ports_)
    throw std::invalid_argument("torus injections: " + std::to_string(packets) + " packets per PU (1 to " +
                                std::to_string(ports_) + ")");
  // restricted growth strings: port 0 sends packet 0, port i a packet already used or the next one
  std::vector<std::uint32_t> label(ports_, 0);
  auto extend = [&](auto&& self, std::uint32_t i, std::uint32_t used) -> void {
    if (i == ports_) {
      assignments_.push_back(label);
      return;
    }
    for (std::uint32_t q = 0; q <= used && q < k_; ++q) {
      label[i] = q;
      self(self, i + 1, std::max(used, q + 1));
    }
  };
  extend(extend, 0, 0);
}

std::uint64_t torus_injection_chooser::choose(const routing_table& forwarding, std::uint64_t steps,
                                              std::vector<std::uint32_t>& inject) const {
  if (forwarding.network.size() != P_ || forwarding.network.ports() != ports_ ||
      forwarding.forward.size() != static_cast<std::size_t>(P_) * ports_)
    throw std::invalid_argument("torus injections: the table is not of the chooser's torus");
  if (!forwarding.switches.empty())
    throw std::invalid_argument("torus injections: a time-independent table (no switches) expected");
  routing_table probe = forwarding;  // out-port o of every PU sends packet o of 2d
  probe.packets = ports_;
  probe.inject.resize(forwarding.forward.size());
  for (std::size_t slot = 0; slot < probe.inject.size(); ++slot)
    probe.inject[slot] = static_cast<std::uint32_t>(slot % ports_);
  const gossip_report run =
      simulate_gossip(probe, gossip_options{.max_steps = steps, .max_witnesses = 0, .record_arrivals = true});
  if (run.first_arrival.empty())
    throw std::invalid_argument("torus injections: the simulator did not run (" + run.checked + ")");
  inject.resize(forwarding.forward.size());
  std::vector<std::uint64_t> reach(static_cast<std::size_t>(ports_) * words_),
      covered(static_cast<std::size_t>(k_) * words_);
  std::uint64_t missing = 0;
  const std::uint64_t row = static_cast<std::uint64_t>(P_) * ports_;
  for (pu_index u = 0; u < P_; ++u) {
    std::fill(reach.begin(), reach.end(), 0);
    for (pu_index w = 0; w < P_; ++w)
      for (std::uint32_t o = 0; o < ports_ && w != u; ++o)
        if (run.first_arrival[w * row + static_cast<std::uint64_t>(u) * ports_ + o] <= steps)
          reach[o * words_ + w / 64] |= std::uint64_t{1} << (w % 64);
    std::uint64_t least = UINT64_MAX;
    const std::vector<std::uint32_t>* best = nullptr;
    for (const auto& a : assignments_) {
      std::fill(covered.begin(), covered.end(), 0);
      for (std::uint32_t o = 0; o < ports_; ++o)
        for (std::size_t i = 0; i < words_; ++i) covered[a[o] * words_ + i] |= reach[o * words_ + i];
      std::uint64_t lost = static_cast<std::uint64_t>(k_) * (P_ - 1);  // a packet sent nowhere: all P − 1 missing
      for (const std::uint64_t word : covered) lost -= static_cast<std::uint64_t>(std::popcount(word));
      if (lost < least) least = lost, best = &a;
    }
    for (std::uint32_t o = 0; o < ports_; ++o) inject[u * ports_ + o] = (*best)[o];
    missing += least;
  }
  return missing;
}

namespace detail {

routing_table table_of_choices(const torus::network& network, torus_model model,
                               const std::vector<std::uint32_t>& choice,
                               const std::vector<std::vector<std::uint32_t>>* pairings) {
  if (model == torus_model::general)
    return routing_table{network, 1, choice, std::vector<std::uint32_t>(choice.size(), 0), {}};
  const std::uint32_t ports = network.ports();
  std::vector<std::vector<std::uint32_t>> computed;
  if (pairings == nullptr) computed = port_pairings(network.dimension()), pairings = &computed;
  std::vector<std::uint32_t> partner(static_cast<std::size_t>(network.size()) * ports);
  for (pu_index pu = 0; pu < network.size(); ++pu)
    for (std::uint32_t o = 0; o < ports; ++o) partner[pu * ports + o] = (*pairings)[choice[pu]][o];
  return pairing_table(network, partner, packets_per_pu::one);
}

std::vector<std::uint32_t> start_choices(const torus::network& network, torus_model model, const routing_table& from,
                                         const std::string& who) {
  if (from.network.dims() != network.dims())
    throw std::invalid_argument(who + ": the start table is a table of the " + from.network.name() + " torus, not " +
                                network.name());
  if (!from.switches.empty())
    throw std::invalid_argument(who + ": the start table has switches (not time-independent)");
  const std::uint32_t ports = network.ports();
  const auto pairings = port_pairings(network.dimension());
  std::vector<std::uint32_t> choice(model == torus_model::pairing ? network.size()
                                                                  : static_cast<std::size_t>(network.size()) * ports);
  for (pu_index pu = 0; pu < network.size(); ++pu) {
    if (model == torus_model::general) {
      for (std::uint32_t o = 0; o < ports; ++o) {
        const std::uint32_t in = from.forward_at(pu, o);
        choice[static_cast<std::size_t>(pu) * ports + o] =
            in < ports ? in : torus::network::opposite(o);  // idle: straight on
      }
      continue;
    }
    std::vector<std::uint32_t> partner(ports);
    for (std::uint32_t o = 0; o < ports; ++o) partner[o] = from.forward_at(pu, o);
    const auto found = std::find(pairings.begin(), pairings.end(), partner);
    if (found == pairings.end())
      throw std::invalid_argument(who + ": the start table's PU " + std::to_string(pu) +
                                  " does not pair its ports (the pairing model needs a pairing of every PU's ports)");
    choice[pu] = static_cast<std::uint32_t>(found - pairings.begin());
  }
  return choice;
}

}  // namespace detail

torus_heuristic_result search_torus_table(const torus::network& network, torus_model model, unsigned budget_ms,
                                          const local_search_options& opt) {
  const std::uint64_t seed = opt.seed, max_evaluations = opt.max_evaluations;
  const std::uint32_t packets = opt.packets;
  std::uint64_t goal = opt.goal;
  const std::optional<routing_table>& start_table = opt.start;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::milliseconds(budget_ms);
  torus_heuristic_result out;
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  if (P < 2) throw std::invalid_argument("torus local search: needs at least 2 PUs");
  if (packets == 0 || packets > ports)
    throw std::invalid_argument("torus local search: " + std::to_string(packets) + " packets per PU (1 to " +
                                std::to_string(ports) + ": each is sent on an out-port in step 1)");
  // No table completes in fewer steps: with one packet the parity bound (up to 4,096 PUs), with k the counting bound
  // ⌈k(P − 1)/2d⌉ (core's parity_bound counts one packet per PU).
  goal = std::max(goal, packets == 1 && P <= 4096 ? parity_bound(network) : counting_bound(network, packets));
  table_state state{network, model, packets, port_pairings(network.dimension()), {}, {}};
  std::mt19937_64 random(seed);
  auto draw = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
  const std::size_t slots = model == torus_model::pairing ? P : static_cast<std::size_t>(P) * ports;
  state.choice.resize(slots);
  for (auto& c : state.choice) c = static_cast<std::uint32_t>(draw(state.options()));
  if (start_table) state.choice = detail::start_choices(network, model, *start_table, "torus local search");
  if (model == torus_model::general && !start_table) {
    // A pairing table is a general table, and random general tables send streams round in small loops: start from the
    // best pairing table of half the budget, then change single out-ports.
    torus_heuristic_result paired = search_torus_table(
        network, torus_model::pairing, budget_ms / 2,
        {.seed = seed,
         .goal = goal,
         .packets = packets,
         .max_evaluations = max_evaluations == 0 ? 0 : std::max<std::uint64_t>(1, max_evaluations / 2)});
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
  // What is missing after `steps` (0: complete within them): one packet, the PUs lacking some packet (counting the
  // (PU, packet) pairs instead was tried: no better on 5 x 6, 6 x 6, 4 x 9, 5 x 7, 3 x 3 x 4 in 10 s, and slower);
  // k > 1, the pairs, with the injections chosen for the forwarding.
  std::optional<torus_injection_chooser> chooser;
  if (packets > 1) chooser.emplace(network, packets);
  auto cost_at = [&](std::uint64_t steps) {
    return chooser ? chooser->choose(state.table(), steps, state.inject) : missing_after(state.table(), steps);
  };

  // Completion of a start table, from a horizon at which every stream has closed its cycle at least once.
  const std::uint64_t horizon = static_cast<std::uint64_t>(network.dimension()) * P * ports;
  std::uint64_t best_steps = 0;
  std::vector<std::uint32_t> best = state.choice, best_inject;
  ++out.evaluations;
  if (cost_at(horizon) == 0) best_steps = simulate_gossip(state.table(), horizon).steps, best_inject = state.inject;
  // Descend: aim at one step below the best so far, minimising the missing pairs there by single changes (equal or
  // better accepted; at most 2 worse with probability 1/200); a table that completes sets the new best; after 20,000
  // changes without a new least, restart from the best table with three random changes. Until the goal (at least the
  // counting bound) or the deadline.
  std::uint64_t target = best_steps == 0 ? horizon : best_steps - 1;
  std::uint64_t cost = cost_at(target);
  std::uint64_t since_better = 0, least = cost;
  const auto out_of_work = [&] { return max_evaluations != 0 && out.evaluations >= max_evaluations; };
  while (target >= goal && std::chrono::steady_clock::now() < deadline && !out_of_work()) {
    for (int burst = 0; burst < 64; ++burst) {
      const std::size_t slot = draw(slots);
      const std::uint32_t before = state.choice[slot];
      const std::uint32_t after =
          static_cast<std::uint32_t>((before + 1 + draw(state.options() - 1)) % state.options());
      state.choice[slot] = after;
      const std::uint64_t c = cost_at(target);
      ++out.evaluations;
      const bool worse_ok = c > cost && c - cost <= 2 && draw(1000) < 5;
      if (c <= cost || worse_ok) {
        cost = c;
      } else {
        state.choice[slot] = before;
      }
      if (cost < least)
        least = cost, since_better = 0;
      else
        ++since_better;
      if (cost == 0) {
        if (chooser) cost_at(target);  // the injections of the table kept (a rejected change may have left others)
        const gossip_report run = simulate_gossip(
            state.table(), gossip_options{.max_steps = target, .max_witnesses = 0, .record_arrivals = false});
        best_steps = run.steps;
        best = state.choice, best_inject = state.inject;
        target = best_steps - 1;
        cost = least = cost_at(target);
        since_better = 0;
        break;
      }
      if (since_better > 20'000) {  // stalled: restart from the best table with a few random changes
        state.choice = best;
        for (int k = 0; k < 3; ++k) state.choice[draw(slots)] = static_cast<std::uint32_t>(draw(state.options()));
        cost = least = cost_at(target);
        since_better = 0;
      }
    }
    if (best_steps != 0 && best_steps <= goal) break;
  }
  if (best_steps != 0) {
    state.choice = best, state.inject = best_inject;
    out.table = state.table();
    out.steps = best_steps;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::torus
