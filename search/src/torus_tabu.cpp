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

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/group_orbits.hpp"
#include "dancecard/search/torus_tables.hpp"
#include "torus_choices.hpp"

namespace dancecard::torus {

namespace {

// The missing (PU, packet) pairs of a one-packet table after T steps, per PU, from the choices alone.
class reach_counter {
 public:
  reach_counter(const torus::network& net, torus_model model, std::uint64_t steps)
      : P_(net.size()),
        ports_(net.ports()),
        model_(model),
        pairings_(port_pairings(net.dimension())),
        in_link_(static_cast<std::size_t>(P_) * ports_),
        pred_(in_link_.size()),
        seen_(P_, 0) {
    set_steps(steps);
    for (pu_index w = 0; w < P_; ++w)
      for (std::uint32_t p = 0; p < ports_;
           ++p)  // in-port p of w: the link from neighbor(w, p), its out-port opposite(p)
        in_link_[w * ports_ + p] = net.neighbor(w, p) * ports_ + torus::network::opposite(p);
  }

  std::uint64_t steps() const { return steps_; }
  // Beyond as many steps as there are links a backward walk only goes round its cycle again: nothing new arrives, so
  // the walks stop there (exact, and bounded for any `steps`).
  void set_steps(std::uint64_t steps) { steps_ = std::min<std::uint64_t>(steps, in_link_.size()); }

  // The in-port out-port o of PU v forwards under choice c of v's slot (pairing: v's slot; general: v's out-port o).
  std::uint32_t forwarded(std::uint32_t c, std::uint32_t o) const {
    return model_ == torus_model::pairing ? pairings_[c][o] : c;
  }

  // Sets the predecessors of every link from the choices.
  void load(const std::vector<std::uint32_t>& choice) {
    for (pu_index v = 0; v < P_; ++v)
      for (std::uint32_t o = 0; o < ports_; ++o)
        pred_[v * ports_ + o] = in_link_[v * ports_ + forwarded(slot_choice(choice, v, o), o)];
  }
  // Sets them from a table's forwarding (an idle out-port's link carries nothing after step 1: no predecessor).
  void load(const routing_table& table) {
    for (pu_index v = 0; v < P_; ++v)
      for (std::uint32_t o = 0; o < ports_; ++o) {
        const std::uint32_t in = table.forward_at(v, o);
        pred_[v * ports_ + o] = in < ports_ ? in_link_[v * ports_ + in] : none;
      }
  }
  // The links whose predecessor cell `slot` (pairing: a PU; general: an out-port, pu · 2d + o) sets, and what they
  // become under choice c.
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
            if (pass == 0)
              ++first_[link + 1];
            else
              users_[fill_[link]++] = w;
            link = pred_[link];
          }
        }
    }
  }
  // Appends to `out` (deduplicated with marks) the PUs whose count a change of cell `slot` can change.
  void affected(std::size_t slot, std::vector<pu_index>& out, std::vector<std::uint32_t>& mark,
                std::uint32_t tag) const {
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

// What the search changes. A cell is one choice of the table (pairing: a PU's pairing, [pu]; general: an out-port's
// in-port, [pu · 2d + o]). A slot is one value the search sets, and it sets several cells: without a group
// slot s is cell s; with a group G of automorphisms, a slot is one choice at an orbit's least PU r — its pairing, or
// one out-port's in-port for each orbit of r's out-ports under r's stabilizer — and it fixes the cells it determines in
// a G-invariant table (docs/torus.md):
//   - an element mapping r to pu relabels ports by σ (port_map[pu] = σ⁻¹), and invariance is f_pu(σ(p)) = σ(f_r(p))
//     (f: out-port → in-port), so f_pu(o') = σ(f_r(σ⁻¹ o'));
//   - an element fixing r with relabelling τ asks f_r(τ(p)) = τ(f_r(p)): the value at one out-port o of a stabilizer
//     orbit fixes the others (f_r(τ(o)) = τ(f_r(o))), and must be an in-port i that every τ fixing o fixes; in the
//     pairing model r's pairing must be one τ keeps. Neither is ever empty: a relabelling commutes with the reversal
//     p → opposite(p) (σ(2j + b) = 2π(j) + (b xor s_j)), so straight on (i = opposite(o); the pairing of each port with
//     its opposite) is kept by every τ.
// Each cell lies in one slot; value(cell, v) is what value v of its slot puts there.
struct slot_plan {
  std::uint32_t options = 0;                    // values per slot: pairings, or the 2d in-ports
  std::vector<std::vector<std::size_t>> cells;  // per slot
  std::vector<std::uint32_t> value;             // [cell · options + v]
  std::vector<char> allowed;                    // [slot · options + v]
  std::vector<std::size_t> first_cell;          // per slot: a cell it sets with value(cell, v) = v (at its PU r)
  std::vector<pu_index> leader;                 // per PU: its orbit's least PU
  std::vector<std::uint64_t> weight;            // per orbit's least PU: the orbit's size (0 elsewhere)
  std::vector<pu_index> least_pus;
  std::vector<torus_automorphism>
      generators;  // the group's, its translations with the identity relabelling (none without a group)

  std::uint32_t at(std::size_t cell, std::uint32_t v) const { return value[cell * options + v]; }
  bool may(std::size_t slot, std::uint32_t v) const { return allowed[slot * options + v] != 0; }
  // The k-th allowed value of a slot (k below allowed_count).
  std::uint32_t kth(std::size_t slot, std::uint64_t k) const {
    for (std::uint32_t v = 0; v < options; ++v)
      if (may(slot, v) && k-- == 0) return v;
    throw std::logic_error("slot_plan::kth: no such value");
  }
  std::uint64_t allowed_count(std::size_t slot) const {
    return static_cast<std::uint64_t>(std::count(allowed.begin() + static_cast<std::ptrdiff_t>(slot * options),
                                                 allowed.begin() + static_cast<std::ptrdiff_t>((slot + 1) * options),
                                                 1));
  }
  void set(std::vector<std::uint32_t>& choice, std::size_t slot, std::uint32_t v) const {
    for (const std::size_t cell : cells[slot]) choice[cell] = at(cell, v);
  }
};

// A group's generators as automorphisms (its translations with the identity relabelling).
std::vector<torus_automorphism> generators_of(const torus::network& net, const torus_symmetry_group& group,
                                              const std::vector<std::uint32_t>& identity) {
  std::vector<torus_automorphism> generators = group.automorphisms;
  for (const auto& shift : group.translations) {
    if (shift.size() != net.dimension())
      throw std::invalid_argument("torus tabu search: a translation of the group has " + std::to_string(shift.size()) +
                                  " entries on a " + std::to_string(net.dimension()) + "-D torus");
    generators.push_back(torus_automorphism{identity, shift});
  }
  for (const torus_automorphism& a : generators)
    apply_automorphism(net, a, 0);  // refuses a map that is no automorphism here
  return generators;
}

slot_plan plan_slots(const torus::network& net, torus_model model, const std::optional<torus_symmetry_group>& group,
                     const std::vector<std::vector<std::uint32_t>>& pairings) {
  const pu_index P = net.size();
  const std::uint32_t ports = net.ports();
  std::vector<std::uint32_t> identity(ports);
  for (std::uint32_t p = 0; p < ports; ++p) identity[p] = p;
  slot_plan plan;
  detail::group_orbits g;
  if (group) {
    plan.generators = generators_of(net, *group, identity);
    g = detail::orbits_of(net, plan.generators);
  } else {
    g.orbit.resize(P);
    g.port_map.assign(P, {});
    g.stabilizer.assign(P, {});
    for (pu_index pu = 0; pu < P; ++pu) g.orbit[pu] = pu;
  }
  for (pu_index pu = 0; pu < P; ++pu)  // the identity carries an orbit's least PU to itself: read its rule as it is
    if (g.port_map[pu].empty() || g.orbit[pu] == pu) g.port_map[pu] = identity;
  plan.leader = g.orbit;
  plan.weight.assign(P, 0);
  for (pu_index pu = 0; pu < P; ++pu) ++plan.weight[plan.leader[pu]];
  for (pu_index pu = 0; pu < P; ++pu)
    if (plan.leader[pu] == pu) plan.least_pus.push_back(pu);
  const std::size_t per_pu = model == torus_model::pairing ? 1 : ports;
  std::vector<std::vector<pu_index>> members(P);
  for (pu_index pu = 0; pu < P; ++pu) members[plan.leader[pu]].push_back(pu);
  auto inverse = [&](const std::vector<std::uint32_t>& m) {
    std::vector<std::uint32_t> inv(ports);
    for (std::uint32_t p = 0; p < ports; ++p) inv[m[p]] = p;
    return inv;
  };

  if (model == torus_model::pairing) {
    plan.options = static_cast<std::uint32_t>(pairings.size());
    // The pairing index of pairing c relabelled by σ: o' is paired with σ(partner(σ⁻¹ o')).
    auto relabel = [&](std::uint32_t c, const std::vector<std::uint32_t>& sigma) {
      const std::vector<std::uint32_t> inv = inverse(sigma);
      std::vector<std::uint32_t> partner(ports);
      for (std::uint32_t o = 0; o < ports; ++o) partner[o] = sigma[pairings[c][inv[o]]];
      return static_cast<std::uint32_t>(std::find(pairings.begin(), pairings.end(), partner) - pairings.begin());
    };
    plan.value.assign(static_cast<std::size_t>(P) * plan.options, 0);
    for (const pu_index r : plan.least_pus) {
      const std::size_t slot = plan.cells.size();
      plan.cells.emplace_back();
      plan.first_cell.push_back(r);
      for (std::uint32_t c = 0; c < plan.options; ++c)
        plan.allowed.push_back(std::all_of(g.stabilizer[r].begin(), g.stabilizer[r].end(),
                                           [&](const auto& tau) { return relabel(c, tau) == c; })
                                   ? 1
                                   : 0);
      for (const pu_index pu : members[r]) {
        plan.cells[slot].push_back(pu);
        const std::vector<std::uint32_t> sigma = inverse(g.port_map[pu]);
        for (std::uint32_t c = 0; c < plan.options; ++c)
          plan.value[static_cast<std::size_t>(pu) * plan.options + c] = relabel(c, sigma);
      }
    }
    return plan;
  }

  plan.options = ports;
  plan.value.assign(static_cast<std::size_t>(P) * per_pu * plan.options, 0);
  for (const pu_index r : plan.least_pus) {
    std::vector<std::vector<std::uint32_t>> stab{identity};
    for (const auto& tau : g.stabilizer[r]) stab.push_back(tau);
    // out-port p of r: its slot and an element τ of the stabilizer with τ(o) = p for the slot's out-port o
    std::vector<std::size_t> slot_of(ports, SIZE_MAX);
    std::vector<const std::vector<std::uint32_t>*> via(ports, nullptr);
    for (std::uint32_t o = 0; o < ports; ++o) {
      if (slot_of[o] != SIZE_MAX) continue;
      const std::size_t slot = plan.cells.size();
      plan.cells.emplace_back();
      plan.first_cell.push_back(static_cast<std::size_t>(r) * ports + o);
      for (const auto& tau : stab)
        if (slot_of[tau[o]] == SIZE_MAX) slot_of[tau[o]] = slot, via[tau[o]] = &tau;
      for (std::uint32_t i = 0; i < ports; ++i)
        plan.allowed.push_back(
            std::all_of(stab.begin(), stab.end(), [&](const auto& tau) { return tau[o] != o || tau[i] == i; }) ? 1 : 0);
    }
    for (const pu_index pu : members[r])
      for (std::uint32_t o2 = 0; o2 < ports; ++o2) {
        const std::uint32_t p = g.port_map[pu][o2];  // out-port o2 of pu is out-port p of r
        const std::size_t cell = static_cast<std::size_t>(pu) * ports + o2;
        plan.cells[slot_of[p]].push_back(cell);
        const std::vector<std::uint32_t> sigma = inverse(g.port_map[pu]);
        for (std::uint32_t i = 0; i < ports; ++i) plan.value[cell * plan.options + i] = sigma[(*via[p])[i]];
      }
  }
  return plan;
}

// The solver's start for a search over one group's tables (general model): the query over the tables invariant under
// the group (smt's invariant_table_solver: a CaDiCaL query of the group's CNF; `tracked`: the group's orbits),
// asked at low, low + 1, … up to one below the best table known (`known` steps; 0: none), each query half the time
// left, until one is sat: its table, simulated. Upwards, because on the tori tried the queries near the group's least
// are the quick ones, unsat and sat alike, and more steps make larger and slower ones (3 × 12 general under a point
// group of order 4: 9 … 11 unsat in 0.2 s each, 12 and 13 sat in 1.7 s, 16 in 13 s, 18 in 22 s; 2 × 4 × 5 general
// under 8 reflections: 10 and 12 unsat in 0.5 s). A query out of its time moves on as an unsat one does. Only a
// start: nothing here is a bound, and no answer is certified. Queries of more than about a million x variables are
// not asked.
struct solver_start {
  std::optional<routing_table> table;
  std::uint64_t steps = 0, queries = 0;
};
solver_start start_from_solver(const invariant_table_query& solver, const torus::network& net,
                               const torus_symmetry_group& group, std::uint64_t tracked, std::uint64_t low,
                               std::uint64_t known, std::chrono::steady_clock::time_point deadline) {
  solver_start out;
  for (std::uint64_t steps = low; known == 0 || steps < known; ++steps) {
    // x(t, link, u) for the orbits' least PUs' packets: past a million the CNF is not built (a start is not worth
    // gigabytes; the queries this start is for have tens of thousands)
    if (steps * net.size() * net.ports() * tracked > 1'000'000) break;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left < 20) break;
    const unsigned share = static_cast<unsigned>(left / 2);
    std::optional<routing_table> table = solver(group, steps, share);
    ++out.queries;
    if (!table) continue;
    const gossip_report run =
        simulate_gossip(*table, gossip_options{.max_steps = steps, .max_witnesses = 0, .record_arrivals = false});
    if (!run.holds())
      throw std::invalid_argument("torus tabu search: the solver's table does not complete within " +
                                  std::to_string(steps) + " steps");
    out.table = std::move(table), out.steps = run.steps;
    break;
  }
  return out;
}

}  // namespace

std::uint64_t torus_missing_pairs(const routing_table& table, std::uint64_t steps) {
  const torus::network& net = table.network;
  const std::size_t links = static_cast<std::size_t>(net.size()) * net.ports();
  if (table.packets != 1 || !table.switches.empty() || table.forward.size() != links || table.inject.size() != links ||
      std::any_of(table.inject.begin(), table.inject.end(), [](std::uint32_t q) { return q != 0; }))
    throw std::invalid_argument(
        "torus_missing_pairs: a one-packet time-independent table that sends its packet on every out-port in step 1 "
        "expected");
  const auto bad = std::find_if(table.forward.begin(), table.forward.end(),
                                [&](std::uint32_t in) { return in >= net.ports() && in != no_port; });
  if (bad != table.forward.end())
    throw std::invalid_argument("torus_missing_pairs: PU " +
                                std::to_string((bad - table.forward.begin()) / net.ports()) + " out-port " +
                                std::to_string((bad - table.forward.begin()) % net.ports()) + " forwards in-port " +
                                std::to_string(*bad) + " (ports are 0 … " + std::to_string(net.ports() - 1) + ")");
  reach_counter reach(net, torus_model::general, steps);
  reach.load(table);
  std::uint64_t missing = 0;
  for (pu_index w = 0; w < net.size(); ++w) missing += reach.missing(w);
  return missing;
}

torus_heuristic_result tabu_search_torus_table(const torus::network& network, torus_model model, unsigned budget_ms,
                                               const tabu_search_options& opt) {
  const std::uint64_t seed = opt.seed, max_iterations = opt.max_iterations;
  std::uint64_t goal = opt.goal;
  const std::optional<routing_table>& start_table = opt.start;
  const std::optional<torus_symmetry_group>& group = opt.group;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::milliseconds(budget_ms);
  torus_heuristic_result out;
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  if (P < 2) throw std::invalid_argument("torus tabu search: needs at least 2 PUs");
  goal = std::max(goal, P <= 4096 ? parity_bound(network) : counting_bound(network, 1));
  std::mt19937_64 random(seed);
  auto draw = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };

  const auto pairings = port_pairings(network.dimension());
  const slot_plan plan = plan_slots(network, model, group, pairings);
  const std::size_t slots = plan.cells.size();
  const std::uint32_t options = plan.options;
  std::vector<std::uint32_t> value(slots);  // each slot's value
  auto random_value = [&](std::size_t s) { return plan.kth(s, draw(plan.allowed_count(s))); };
  // A table's slot values, read at each slot's first cell; the table must be the one they give (invariant).
  auto values_of = [&](const std::vector<std::uint32_t>& cells, const std::string& what) {
    std::vector<std::uint32_t> v(slots);
    for (std::size_t s = 0; s < slots; ++s) {
      v[s] = cells[plan.first_cell[s]];
      if (!plan.may(s, v[s]))
        throw std::invalid_argument("torus tabu search: " + what + " is not invariant under the group (PU " +
                                    std::to_string(plan.first_cell[s] / (model == torus_model::pairing ? 1 : ports)) +
                                    ")");
      for (const std::size_t cell : plan.cells[s])
        if (plan.at(cell, v[s]) != cells[cell])
          throw std::invalid_argument("torus tabu search: " + what + " is not invariant under the group: PU " +
                                      std::to_string(cell / (model == torus_model::pairing ? 1 : ports)) +
                                      " differs from its orbit's least PU");
    }
    return v;
  };

  // Where to begin: the start table's forwarding, else random pairings, in the general model the best pairing table of
  // half the budget (random general tables send their streams round in small loops).
  if (start_table) {
    value = values_of(detail::start_choices(network, model, *start_table, "torus tabu search"), "the start table");
  } else if (model == torus_model::general) {
    // A pairing table is a general table: begin from the best pairing table of half the budget (under the same group;
    // with the solver's start, a quarter, and then the solver a quarter, or half where the pairing search found none —
    // the search from random tables is hopeless there). With max_iterations the pairing search stops after half of
    // them, so the solver's turn comes after a count of work, not after a quarter of the budget.
    const bool solver = group && opt.solver;
    torus_heuristic_result paired = tabu_search_torus_table(
        network, torus_model::pairing, solver ? budget_ms / 4 : budget_ms / 2,
        {.seed = seed,
         .goal = goal,
         .max_iterations = max_iterations == 0 ? 0 : std::max<std::uint64_t>(1, max_iterations / 2),
         .group = group});
    out.evaluations += paired.evaluations;
    if (solver && !(paired.table && paired.steps <= goal)) {
      solver_start s = start_from_solver(
          opt.solver, network, *group, plan.least_pus.size(), goal, paired.table ? paired.steps : 0,
          std::min(deadline, std::chrono::steady_clock::now() +
                                 std::chrono::milliseconds(paired.table ? budget_ms / 4 : budget_ms / 2)));
      out.solver_queries = s.queries, out.solver_steps = s.steps;
      if (s.table && (!paired.table || s.steps < paired.steps)) {
        // idle out-ports forward straight on (start_choices), which every relabelling keeps: still invariant, and no
        // arrival later (forwarding more never delays one) — simulated again for its own step count
        paired.table = detail::table_of_choices(network, model,
                                                detail::start_choices(network, model, *s.table, "torus tabu search"));
        paired.steps =
            simulate_gossip(*paired.table,
                            gossip_options{.max_steps = s.steps, .max_witnesses = 0, .record_arrivals = false})
                .steps;
      }
    }
    if (paired.table && paired.steps <= goal) {
      paired.evaluations = out.evaluations, paired.closest = 0;
      paired.solver_queries = out.solver_queries, paired.solver_steps = out.solver_steps;
      paired.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return paired;
    }
    if (paired.table) {
      value = values_of(detail::start_choices(network, model, *paired.table, "torus tabu search"),
                        "the pairing search's or the solver's table");
    } else {
      std::vector<std::uint32_t> cells(static_cast<std::size_t>(P) * ports);
      for (const pu_index r : plan.least_pus) {
        const auto& pairing = pairings[draw(pairings.size())];
        std::copy(pairing.begin(), pairing.end(), cells.begin() + static_cast<std::ptrdiff_t>(r) * ports);
      }
      for (std::size_t s = 0; s < slots; ++s) {
        value[s] = cells[plan.first_cell[s]];
        if (!plan.may(s, value[s])) value[s] = random_value(s);  // a pairing the group does not keep there
      }
    }
  } else {
    for (std::size_t s = 0; s < slots; ++s) value[s] = random_value(s);  // pairing model: a random pairing per orbit
  }
  std::vector<std::uint32_t> choice(static_cast<std::size_t>(P) * (model == torus_model::pairing ? 1 : ports));
  for (std::size_t s = 0; s < slots; ++s) plan.set(choice, s, value[s]);

  // The first target: one step below what the start completes in (simulated from a horizon by which every stream has
  // gone round its loop), or that horizon.
  const std::uint64_t horizon = static_cast<std::uint64_t>(network.dimension()) * P * ports;
  const gossip_report first =
      simulate_gossip(detail::table_of_choices(network, model, choice),
                      gossip_options{.max_steps = horizon, .max_witnesses = 0, .record_arrivals = false});
  std::vector<std::uint32_t> best_choice;
  if (first.holds()) out.steps = first.steps, best_choice = choice;
  reach_counter reach(network, model, out.steps == 0 ? horizon : out.steps - 1);
  reach.load(choice);
  // Each orbit's PUs lack as many packets (an automorphism of the table carries one's arrivals to the other's): the
  // least PUs are counted, each for its orbit.
  std::vector<std::uint32_t> missing(P);
  std::uint64_t cost = 0;
  auto recount = [&] {
    cost = 0;
    for (const pu_index w : plan.least_pus) cost += plan.weight[w] * (missing[w] = reach.missing(w));
  };
  recount();
  auto apply_slot = [&](std::size_t s, std::uint32_t v) {
    for (const std::size_t cell : plan.cells[s]) reach.apply(cell, plan.at(cell, v));
  };

  // Tabu: after slot s leaves value a, s may not take a again for a tenure of random length (aspiration: unless that
  // gives fewer missing pairs than any table yet at this target). Each iteration takes the best allowed single change
  // (ties at random), worse ones included — the search leaves a local minimum by the least uphill step. A table that
  // completes is simulated (it must complete within the target) and becomes the new best; the target drops by one.
  // After `patience` iterations without a new least, restart from the least table at this target with a few random
  // changes.
  // Tenures as fractions of the slots, pairing 0.3 + [0, 0.5), general 0.2 + [0, 0.3): the best of the fractions
  // tried (0.02 to 1.2) on 4 x 5 general, 4 x 6 general, 3 x 7 general, 5 x 5 general, 4 x 8 pairing, 3 x 3 x 4 and
  // 2 x 2 x 10 pairing (docs/performance.md); shorter tenures cycle round the same few tables.
  const std::uint64_t tenure_low = std::max<std::uint64_t>(1, slots * (model == torus_model::pairing ? 3 : 2) / 10);
  const std::uint64_t tenure_span = std::max<std::uint64_t>(2, slots * (model == torus_model::pairing ? 5 : 3) / 10);
  const std::uint64_t patience = 50 * slots;
  std::uint64_t most_allowed = 1;
  for (std::size_t s = 0; s < slots; ++s) most_allowed = std::max(most_allowed, plan.allowed_count(s));
  std::vector<std::uint64_t> tabu_until(slots * options, 0);
  std::vector<std::uint32_t> least_value = value, mark(P, 0);
  std::vector<pu_index> touched;
  std::uint64_t least = cost, since_least = 0, iteration = 0;
  std::uint32_t tag = 0;
  const auto out_of_work = [&] { return max_iterations != 0 && iteration >= max_iterations; };
  while (reach.steps() >= goal && !out_of_work() &&
         (iteration % 16 != 0 || std::chrono::steady_clock::now() < deadline)) {
    ++iteration;
    reach.index_walks();
    std::uint64_t chosen_cost = std::numeric_limits<std::uint64_t>::max(), ties = 0;
    std::size_t chosen_slot = 0;
    std::uint32_t chosen_value = 0;
    for (std::size_t s = 0; s < slots; ++s) {
      touched.clear();
      if (++tag == 0) std::fill(mark.begin(), mark.end(), 0), tag = 1;
      for (const std::size_t cell : plan.cells[s]) reach.affected(cell, touched, mark, tag);
      // A slot's change is made on whole orbits, so the PUs it touches are whole orbits: their least PUs count.
      touched.erase(std::remove_if(touched.begin(), touched.end(), [&](pu_index w) { return plan.leader[w] != w; }),
                    touched.end());
      std::uint64_t before = 0;
      for (const pu_index w : touched) before += plan.weight[w] * missing[w];
      const std::uint32_t now = value[s];
      for (std::uint32_t v = 0; v < options; ++v) {
        if (v == now || !plan.may(s, v)) continue;
        apply_slot(s, v);
        ++out.evaluations;
        std::uint64_t after = 0;
        for (const pu_index w : touched) after += plan.weight[w] * reach.missing(w);
        const std::uint64_t c = cost - before + after;
        const bool allowed = tabu_until[s * options + v] <= iteration || c < least;
        if (allowed && (c < chosen_cost || (c == chosen_cost && draw(++ties) == 0))) {
          if (c < chosen_cost) ties = 1;
          chosen_cost = c, chosen_slot = s, chosen_value = v;
        }
      }
      apply_slot(s, now);
    }
    if (chosen_cost ==
        std::numeric_limits<std::uint64_t>::max()) {  // everything tabu (or nothing to change): let the oldest go
      std::fill(tabu_until.begin(), tabu_until.end(), 0);
      continue;
    }
    tabu_until[chosen_slot * options + value[chosen_slot]] = iteration + tenure_low + draw(tenure_span);
    value[chosen_slot] = chosen_value;
    plan.set(choice, chosen_slot, chosen_value);
    apply_slot(chosen_slot, chosen_value);
    recount();
    if (cost == 0) {
      // the count took each orbit's least PU for the whole orbit: right only for an invariant table
      const routing_table t = detail::table_of_choices(network, model, choice);
      for (const torus_automorphism& g : plan.generators)
        for (pu_index pu = 0; pu < P; ++pu)
          for (std::uint32_t o = 0; o < ports; ++o)
            if (t.forward_at(apply_automorphism(network, g, pu), g.ports[o]) != g.ports[t.forward_at(pu, o)])
              throw std::logic_error("torus tabu search: the table is not invariant under " + describe(network, g) +
                                     " at PU " + std::to_string(pu) + " out-port " + std::to_string(o));
      const gossip_report run =
          simulate_gossip(t, gossip_options{.max_steps = reach.steps(), .max_witnesses = 0, .record_arrivals = false});
      if (!run.holds())  // the counter and the simulator disagree: a bug, not a table
        throw std::logic_error("torus tabu search: a table the reach counter completes within " +
                               std::to_string(reach.steps()) + " steps does not in the simulator (" + run.checked +
                               ")");
      out.steps = run.steps, best_choice = choice;
      if (out.steps <= goal) break;
      reach.set_steps(out.steps - 1);
      recount();
      least = cost, least_value = value, since_least = 0;
      std::fill(tabu_until.begin(), tabu_until.end(), 0);
      continue;
    }
    if (cost < least)
      least = cost, least_value = value, since_least = 0;
    else if (++since_least > patience) {
      value = least_value;
      for (int k = 0; k < 3;
           ++k) {  // the value's draw first, then the slot's (the order of the search without a group)
        const std::uint64_t pick = draw(most_allowed);
        const std::size_t s = draw(slots);
        value[s] = pick < plan.allowed_count(s) ? plan.kth(s, pick) : random_value(s);
      }
      for (std::size_t s = 0; s < slots; ++s) plan.set(choice, s, value[s]);
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

}  // namespace dancecard::torus
