// Tabu search for time-independent torus tables with one packet per PU: upper bounds (simulated witnesses) where the
// SAT queries at the minimum run out of time and the local search (torus_local_search.cpp) stalls. Nothing here is a
// proof of minimality; every table it returns has been run by checkers/torus_check's simulator.
//
// The search does not simulate: with one packet per PU and the forwarding fixed, a link carries in step t the packet
// that the link it forwards from carried in step t − 1, and in step 1 its tail's own packet. So each link has one
// predecessor (the in-link its out-port forwards), and PU w holds after T steps exactly the tails of the first T links
// of the backward walks from its 2d in-links. That is P·2d·T look-ups per table — the simulator's answer, which a
// RapidCheck property holds it to (properties/torus_properties_test.cpp) and which every result is run through anyway.
#include <algorithm>
#include <chrono>
#include <limits>
#include <random>

#include "dancecard/smt/torus_encoding.hpp"
#include "torus_search.hpp"

namespace dancecard {

namespace {

// The missing (PU, packet) pairs of a one-packet table after T steps, per PU, from the choices alone.
class reach_counter {
 public:
  reach_counter(const torus& net, torus_model model, std::uint64_t steps)
      : P_(net.size()), ports_(net.ports()), model_(model), pairings_(port_pairings(net.dimension())),
        in_link_(static_cast<std::size_t>(P_) * ports_), pred_(in_link_.size()), seen_(P_, 0) {
    set_steps(steps);
    for (pu_index w = 0; w < P_; ++w)
      for (std::uint32_t p = 0; p < ports_; ++p)  // in-port p of w: the link from neighbor(w, p), its out-port opposite(p)
        in_link_[w * ports_ + p] = net.neighbor(w, p) * ports_ + torus::opposite(p);
  }

  std::uint32_t options() const { return model_ == torus_model::pairing ? static_cast<std::uint32_t>(pairings_.size()) : ports_; }
  std::uint64_t steps() const { return steps_; }
  // Beyond as many steps as there are links a backward walk only goes round its cycle again: nothing new arrives, so
  // the walks stop there (exact, and bounded for any `steps`).
  void set_steps(std::uint64_t steps) { steps_ = std::min<std::uint64_t>(steps, in_link_.size()); }

  // The in-port out-port o of PU v forwards under choice c of v's slot (pairing: v's slot; general: v's out-port o).
  std::uint32_t forwarded(std::uint32_t c, std::uint32_t o) const { return model_ == torus_model::pairing ? pairings_[c][o] : c; }

  // Sets the predecessors of every link from the choices.
  void load(const std::vector<std::uint32_t>& choice) {
    for (pu_index v = 0; v < P_; ++v)
      for (std::uint32_t o = 0; o < ports_; ++o) pred_[v * ports_ + o] = in_link_[v * ports_ + forwarded(slot_choice(choice, v, o), o)];
  }
  // Sets them from a table's forwarding (an idle out-port's link carries nothing after step 1: no predecessor).
  void load(const routing_table& table) {
    for (pu_index v = 0; v < P_; ++v)
      for (std::uint32_t o = 0; o < ports_; ++o) {
        const std::uint32_t in = table.forward_at(v, o);
        pred_[v * ports_ + o] = in < ports_ ? in_link_[v * ports_ + in] : none;
      }
  }
  // The links whose predecessor slot s sets, and what they become under choice c.
  void apply(std::size_t slot, std::uint32_t c) {
    if (model_ == torus_model::general) {
      const pu_index v = static_cast<pu_index>(slot / ports_);
      pred_[slot] = in_link_[v * ports_ + c];
      return;
    }
    for (std::uint32_t o = 0; o < ports_; ++o) pred_[slot * ports_ + o] = in_link_[slot * ports_ + pairings_[c][o]];
  }

  // Packets PU w lacks after T steps.
  std::uint32_t missing(pu_index w) {
    if (++stamp_ == 0) std::fill(seen_.begin(), seen_.end(), 0), stamp_ = 1;
    seen_[w] = stamp_;
    std::uint32_t reached = 0;
    for (std::uint32_t p = 0; p < ports_; ++p) {
      std::uint32_t link = in_link_[w * ports_ + p];
      for (std::uint64_t t = 0; t < steps_ && link != none; ++t) {
        const pu_index tail = link / ports_;
        if (seen_[tail] != stamp_) seen_[tail] = stamp_, ++reached;
        link = pred_[link];
      }
    }
    return P_ - 1 - reached;
  }

  // The PUs whose walks pass through a link at a position that a change of its predecessor affects (before T − 1),
  // per link: users_[first_[link] … first_[link + 1]).
  void index_walks() {
    first_.assign(pred_.size() + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) {
        for (std::size_t i = 1; i < first_.size(); ++i) first_[i] += first_[i - 1];
        users_.assign(first_.back(), 0);
        fill_ = std::vector<std::uint32_t>(first_.begin(), first_.end() - 1);
      }
      for (pu_index w = 0; w < P_; ++w)
        for (std::uint32_t p = 0; p < ports_; ++p) {
          std::uint32_t link = in_link_[w * ports_ + p];
          for (std::uint64_t t = 0; t + 1 < steps_ && link != none; ++t) {
            if (pass == 0) ++first_[link + 1];
            else users_[fill_[link]++] = w;
            link = pred_[link];
          }
        }
    }
  }
  // Appends to `out` (deduplicated with marks) the PUs whose count a change of slot s can change.
  void affected(std::size_t slot, std::vector<pu_index>& out, std::vector<std::uint32_t>& mark, std::uint32_t tag) const {
    const std::size_t from = model_ == torus_model::general ? slot : slot * ports_;
    const std::size_t to = model_ == torus_model::general ? slot + 1 : (slot + 1) * ports_;
    for (std::size_t link = from; link < to; ++link)
      for (std::uint32_t i = first_[link]; i < first_[link + 1]; ++i)
        if (mark[users_[i]] != tag) mark[users_[i]] = tag, out.push_back(users_[i]);
  }

 private:
  std::uint32_t slot_choice(const std::vector<std::uint32_t>& choice, pu_index v, std::uint32_t o) const {
    return model_ == torus_model::pairing ? choice[v] : choice[v * ports_ + o];
  }

  static constexpr std::uint32_t none = UINT32_MAX;
  pu_index P_;
  std::uint32_t ports_;
  torus_model model_;
  std::uint64_t steps_ = 0;
  std::vector<std::vector<std::uint32_t>> pairings_;
  std::vector<std::uint32_t> in_link_, pred_, seen_, first_, users_, fill_;
  std::uint32_t stamp_ = 0;
};

}  // namespace

std::uint64_t torus_missing_pairs(const routing_table& table, std::uint64_t steps) {
  const torus& net = table.network;
  const std::size_t links = static_cast<std::size_t>(net.size()) * net.ports();
  if (table.packets != 1 || !table.switches.empty() || table.forward.size() != links || table.inject.size() != links ||
      std::any_of(table.inject.begin(), table.inject.end(), [](std::uint32_t q) { return q != 0; }))
    throw std::invalid_argument("torus_missing_pairs: a one-packet time-independent table that sends its packet on every out-port in step 1 expected");
  const auto bad = std::find_if(table.forward.begin(), table.forward.end(), [&](std::uint32_t in) { return in >= net.ports() && in != no_port; });
  if (bad != table.forward.end())
    throw std::invalid_argument("torus_missing_pairs: PU " + std::to_string((bad - table.forward.begin()) / net.ports()) + " out-port " +
                                std::to_string((bad - table.forward.begin()) % net.ports()) + " forwards in-port " + std::to_string(*bad) +
                                " (ports are 0 … " + std::to_string(net.ports() - 1) + ")");
  reach_counter reach(net, torus_model::general, steps);
  reach.load(table);
  std::uint64_t missing = 0;
  for (pu_index w = 0; w < net.size(); ++w) missing += reach.missing(w);
  return missing;
}

torus_heuristic_result tabu_search_torus_table(const torus& network, torus_model model, unsigned budget_ms, std::uint64_t seed, std::uint64_t goal,
                                               std::uint64_t max_iterations, const std::optional<routing_table>& start_table) {
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::milliseconds(budget_ms);
  torus_heuristic_result out;
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  if (P < 2) throw std::invalid_argument("torus tabu search: needs at least 2 PUs");
  goal = std::max(goal, P <= 4096 ? parity_bound(network) : counting_bound(network, 1));
  std::mt19937_64 random(seed);
  auto draw = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };

  // Where to begin: the start table's forwarding, else random pairings, in the general model the best pairing table of
  // half the budget (random general tables send their streams round in small loops).
  const std::size_t slots = model == torus_model::pairing ? P : static_cast<std::size_t>(P) * ports;
  const auto pairings = port_pairings(network.dimension());
  std::vector<std::uint32_t> choice(slots);
  if (start_table) {
    choice = detail::start_choices(network, model, *start_table, "torus tabu search");
  } else if (model == torus_model::general) {
    // A pairing table is a general table: begin from the best pairing table of half the budget.
    torus_heuristic_result paired = tabu_search_torus_table(network, torus_model::pairing, budget_ms / 2, seed, goal,
                                                            max_iterations == 0 ? 0 : std::max<std::uint64_t>(1, max_iterations / 2));
    out.evaluations += paired.evaluations;
    if (paired.table && paired.steps <= goal) {
      paired.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return paired;
    }
    if (paired.table) choice = paired.table->forward;
    else
      for (pu_index pu = 0; pu < P; ++pu) {
        const auto& pairing = pairings[draw(pairings.size())];
        std::copy(pairing.begin(), pairing.end(), choice.begin() + static_cast<std::ptrdiff_t>(pu) * ports);
      }
  } else {
    for (auto& c : choice) c = static_cast<std::uint32_t>(draw(pairings.size()));  // pairing model: a random pairing per PU
  }

  // The first target: one step below what the start completes in (simulated from a horizon by which every stream has
  // gone round its loop), or that horizon.
  const std::uint64_t horizon = static_cast<std::uint64_t>(network.dimension()) * P * ports;
  const gossip_report first = simulate_gossip(detail::table_of_choices(network, model, choice), gossip_options{.max_steps = horizon, .max_witnesses = 0, .record_arrivals = false});
  std::vector<std::uint32_t> best_choice;
  if (first.holds()) out.steps = first.steps, best_choice = choice;
  reach_counter reach(network, model, out.steps == 0 ? horizon : out.steps - 1);
  reach.load(choice);
  std::vector<std::uint32_t> missing(P);
  std::uint64_t cost = 0;
  auto recount = [&] {
    cost = 0;
    for (pu_index w = 0; w < P; ++w) cost += missing[w] = reach.missing(w);
  };
  recount();

  // Tabu: after slot s leaves value a, s may not take a again for a tenure of random length (aspiration: unless that
  // gives fewer missing pairs than any table yet at this target). Each iteration takes the best allowed single change
  // (ties at random), worse ones included — the search leaves a local minimum by the least uphill step. A table that
  // completes is simulated (it must complete within the target) and becomes the new best; the target drops by one.
  // After `patience` iterations without a new least, restart from the least table at this target with a few random
  // changes.
  const std::uint32_t options = reach.options();
  // Tenures as fractions of the slots, pairing 0.3 + [0, 0.5), general 0.2 + [0, 0.3): the best of the fractions
  // tried (0.02 to 1.2) on 4 x 5 general, 4 x 6 general, 3 x 7 general, 5 x 5 general, 4 x 8 pairing, 3 x 3 x 4 and
  // 2 x 2 x 10 pairing (docs/torus-limits.md ✱); shorter tenures cycle round the same few tables.
  const std::uint64_t tenure_low = std::max<std::uint64_t>(1, slots * (model == torus_model::pairing ? 3 : 2) / 10);
  const std::uint64_t tenure_span = std::max<std::uint64_t>(2, slots * (model == torus_model::pairing ? 5 : 3) / 10);
  const std::uint64_t patience = 50 * slots;
  std::vector<std::uint64_t> tabu_until(slots * options, 0);
  std::vector<std::uint32_t> least_choice = choice, mark(P, 0);
  std::vector<pu_index> touched;
  std::uint64_t least = cost, since_least = 0, iteration = 0;
  std::uint32_t tag = 0;
  const auto out_of_work = [&] { return max_iterations != 0 && iteration >= max_iterations; };
  while (reach.steps() >= goal && !out_of_work() && (iteration % 16 != 0 || std::chrono::steady_clock::now() < deadline)) {
    ++iteration;
    reach.index_walks();
    std::uint64_t chosen_cost = std::numeric_limits<std::uint64_t>::max(), ties = 0;
    std::size_t chosen_slot = 0;
    std::uint32_t chosen_value = 0;
    for (std::size_t s = 0; s < slots; ++s) {
      touched.clear();
      if (++tag == 0) std::fill(mark.begin(), mark.end(), 0), tag = 1;
      reach.affected(s, touched, mark, tag);
      std::uint64_t before = 0;
      for (const pu_index w : touched) before += missing[w];
      const std::uint32_t now = choice[s];
      for (std::uint32_t v = 0; v < options; ++v) {
        if (v == now) continue;
        reach.apply(s, v);
        std::uint64_t after = 0;
        for (const pu_index w : touched) after += reach.missing(w);
        const std::uint64_t c = cost - before + after;
        const bool allowed = tabu_until[s * options + v] <= iteration || c < least;
        if (allowed && (c < chosen_cost || (c == chosen_cost && draw(++ties) == 0))) {
          if (c < chosen_cost) ties = 1;
          chosen_cost = c, chosen_slot = s, chosen_value = v;
        }
      }
      reach.apply(s, now);
    }
    out.evaluations += slots * (options - 1);
    if (chosen_cost == std::numeric_limits<std::uint64_t>::max()) {  // everything tabu: let the oldest go
      std::fill(tabu_until.begin(), tabu_until.end(), 0);
      continue;
    }
    tabu_until[chosen_slot * options + choice[chosen_slot]] = iteration + tenure_low + draw(tenure_span);
    choice[chosen_slot] = chosen_value;
    reach.apply(chosen_slot, chosen_value);
    recount();
    if (cost == 0) {
      const gossip_report run =
          simulate_gossip(detail::table_of_choices(network, model, choice), gossip_options{.max_steps = reach.steps(), .max_witnesses = 0, .record_arrivals = false});
      if (!run.holds())  // the counter and the simulator disagree: a bug, not a table
        throw std::logic_error("torus tabu search: a table the reach counter completes within " + std::to_string(reach.steps()) +
                               " steps does not in the simulator (" + run.checked + ")");
      out.steps = run.steps, best_choice = choice;
      if (out.steps <= goal) break;
      reach.set_steps(out.steps - 1);
      recount();
      least = cost, least_choice = choice, since_least = 0;
      std::fill(tabu_until.begin(), tabu_until.end(), 0);
      continue;
    }
    if (cost < least) least = cost, least_choice = choice, since_least = 0;
    else if (++since_least > patience) {
      choice = least_choice;
      for (int k = 0; k < 3; ++k) choice[draw(slots)] = static_cast<std::uint32_t>(draw(options));
      reach.load(choice);
      recount();
      std::fill(tabu_until.begin(), tabu_until.end(), 0);
      since_least = 0;
    }
  }
  out.closest = out.steps != 0 && out.steps <= goal ? 0 : least;  // at the goal nothing was asked below it
  if (!best_choice.empty()) out.table = detail::table_of_choices(network, model, best_choice);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard
