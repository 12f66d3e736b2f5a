// Properties of the Hamilton decompositions under RapidCheck: square switches, Park's cubes, the switch search, the
// layered and product constructions, the cyclic order behind them, and the partial cycles of Sections 3.2 and 3.3.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dancecard/checkers/cube_cover_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/common/cyclic_order.hpp"
#include "dancecard/search/torus_cycles.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "dancecard/smt/torus_supply.hpp"
#include "torus_properties_support.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
using namespace dancecard::certificates;
namespace {

using namespace torus_properties;

// Square switches: random 2-D tori with a size odd (the other size anything >= 3, smaller or larger, odd or even), and
// 4-D products of two such factors (every 2-D torus on the way then qualifies: both sizes even, or one odd):
// Hamiltonian, edge-disjoint cycles and floor(P/2) steps with one packet per cycle.
RC_GTEST_PROP(torus_hamilton, square_switch_decompositions, ()) {
  auto factor = [] {
    const std::uint32_t odd = 2 * *rc::gen::inRange<std::uint32_t>(1, 8) + 1,
                        other = *rc::gen::inRange<std::uint32_t>(3, 20);
    return *rc::gen::arbitrary<bool>() ? std::vector<std::uint32_t>{odd, other}
                                       : std::vector<std::uint32_t>{other, odd};
  };
  std::vector<std::uint32_t> dims = factor();
  if (*rc::gen::arbitrary<bool>()) {
    const std::vector<std::uint32_t> right = factor();
    if (static_cast<std::uint64_t>(dims[0]) * dims[1] * right[0] * right[1] <= 3000)
      dims.insert(dims.end(), right.begin(), right.end());
  }
  const torus::network t(dims);
  const cycle_system system = hamiltonian_product_cycles(t);
  const cycle_system_report cycles = check_cycle_system(system, 0);
  RC_ASSERT(cycles.holds());
  RC_ASSERT(cycles.lengths.size() == t.dimension());
  for (std::uint64_t l : cycles.lengths) RC_ASSERT(l == t.size());
  const gossip_report run =
      simulate_gossip(cycle_routing(system, supply_policy::time_independent, packets_per_pu::per_cycle));
  RC_ASSERT(run.holds());
  RC_ASSERT(run.steps == t.size() / 2);
}

// Section 3.4 in 3-D, explicit (Park's construction, core/src/torus/hamiltonian_products.cpp): every m x m x m cube, m
// in 3..64 but 4, splits into three Hamiltonian edge-disjoint cycles; up to 10^3 PUs gossip with 3 packets takes
// floor(P/2).
RC_GTEST_PROP(torus_hamilton, explicit_cube_decompositions, ()) {
  const std::uint32_t m =
      *rc::gen::suchThat(rc::gen::inRange<std::uint32_t>(3, 65), [](std::uint32_t x) { return x != 4; });
  const torus::network t({m, m, m});
  const cycle_system system = hamiltonian_product_cycles(t);
  const cycle_system_report cycles = check_cycle_system(system, 0);
  RC_ASSERT(cycles.holds());
  RC_ASSERT(cycles.lengths == std::vector<std::uint64_t>(3, t.size()));
  if (m > 10) return;
  const gossip_report run =
      simulate_gossip(cycle_routing(system, supply_policy::time_independent, packets_per_pu::per_cycle));
  RC_ASSERT(run.holds());
  RC_ASSERT(run.steps == t.size() / 2);
}

// The randomized square-switch search on random tori of dimension 2 to 4 with sizes 3..9 (at most 3000 PUs): when it
// answers, d Hamiltonian edge-disjoint cycles and floor(P/2) steps with d packets; it answers on every 2-D and 3-D one.
RC_GTEST_PROP(torus_hamilton, square_switch_search, ()) {
  const std::uint32_t d = *rc::gen::inRange<std::uint32_t>(2, 5);
  std::vector<std::uint32_t> dims;
  std::uint64_t P = 1;
  for (std::uint32_t j = 0; j < d; ++j) {
    const std::uint32_t n = *rc::gen::inRange<std::uint32_t>(3, P * 9 > 3000 ? 4 : 10);
    dims.push_back(n);
    P *= n;
  }
  const torus::network t(dims);
  const std::optional<cycle_system> system = switch_search_decomposition(t, *rc::gen::inRange<std::uint64_t>(1, 1000));
  if (d <= 3) RC_ASSERT(system.has_value());
  if (!system) RC_SUCCEED("no decomposition found in 4-D (the search is not complete)");
  const cycle_system_report cycles = check_cycle_system(*system, 0);
  RC_ASSERT(cycles.holds());
  for (std::uint64_t l : cycles.lengths) RC_ASSERT(l == t.size());
  RC_ASSERT(cycles.lengths.size() == d);
  const gossip_report run =
      simulate_gossip(cycle_routing(*system, supply_policy::time_independent, packets_per_pu::per_cycle));
  RC_ASSERT(run.holds());
  RC_ASSERT(run.steps == t.size() / 2);
}

// Section 3.4 for every torus with an odd size (hamiltonian_product_cycles: products and cubes where they apply, else
// the layered construction): random tori of dimension 3 to 7, sizes 3..12 with one odd size put anywhere, at most
// 4000 PUs, and 3-D and 5-D tori with every size even: d Hamiltonian edge-disjoint cycles, deterministic, and
// floor(P/2) steps with d packets per PU.
RC_GTEST_PROP(torus_hamilton, layered_decompositions, ()) {
  const std::uint32_t d = *rc::gen::inRange<std::uint32_t>(3, 8);
  std::vector<std::uint32_t> dims;
  std::uint64_t P = 1;
  for (std::uint32_t j = 0; j < d; ++j) {
    const std::uint32_t n = *rc::gen::inRange<std::uint32_t>(3, P * 12 * (d - j) > 4000 ? 5 : 13);
    dims.push_back(n);
    P *= n;
  }
  // One case in four of d = 3 and d = 5 has every size even (3-D: 4 … 12; 5-D: 4 or 6, at most 4000 PUs): layered with
  // scrambled frames; otherwise one size is odd.
  const bool all_even = (d == 3 || d == 5) && *rc::gen::inRange(0, 4) == 0;
  if (all_even && d == 3) {
    for (std::uint32_t& n : dims) n = 2 * *rc::gen::inRange<std::uint32_t>(2, 7);
  } else if (all_even) {
    std::uint64_t rest = 1024;  // P if every size left were 4
    for (std::uint32_t& n : dims) {
      n = rest / 4 * 6 <= 4000 && *rc::gen::inRange(0, 2) == 1 ? 6 : 4;
      rest = rest / 4 * n;
    }
  } else {
    const std::size_t odd_at = *rc::gen::inRange<std::size_t>(0, d);
    if (dims[odd_at] % 2 == 0) dims[odd_at] += dims[odd_at] == 4 ? -1 : 1;
  }
  const torus::network t(dims);
  const cycle_system system = hamiltonian_product_cycles(t);
  RC_TAG(system.construction, "d = " + std::to_string(d));
  const bool park_cube = d == 3 && dims[0] == dims[1] && dims[1] == dims[2] && dims[0] != 4;
  if (all_even && !park_cube) RC_ASSERT(system.construction == "hamiltonian-layered-searched");
  const cycle_system_report cycles = check_cycle_system(system, 0);
  RC_ASSERT(cycles.holds());
  RC_ASSERT(cycles.lengths == std::vector<std::uint64_t>(d, t.size()));
  const cycle_system again = hamiltonian_product_cycles(t);
  for (std::size_t c = 0; c < d; ++c) RC_ASSERT(again.cycles[c].pus == system.cycles[c].pus);
  if (t.size() > 1500) return;
  const gossip_report run =
      simulate_gossip(cycle_routing(system, supply_policy::time_independent, packets_per_pu::per_cycle));
  RC_ASSERT(run.holds());
  RC_ASSERT(run.steps == t.size() / 2);
}

// cyclic_order (the scrambled frames' cycles) against a vector: random orders of up to 300 vertices and random k-opt
// rearrangements (1 to 6 cuts, any route through the arcs, any orientations); after each, the sequence and every
// vertex's position agree with the vector cut and joined by hand. A route that misses or repeats an arc, and
// unsorted cuts, are refused.
RC_GTEST_PROP(cyclic_order, rearrangements_match_a_vector, ()) {
  const std::uint64_t N = *rc::gen::inRange<std::uint64_t>(1, 301);
  std::vector<std::uint64_t> model(N);
  for (std::uint64_t v = 0; v < N; ++v) model[v] = v;
  model = *rc::gen::elementOf(std::vector<std::vector<std::uint64_t>>{model, {model.rbegin(), model.rend()}});
  const std::uint64_t swaps = *rc::gen::inRange<std::uint64_t>(0, N + 1);
  for (std::uint64_t s = 0; s < swaps; ++s)
    std::swap(model[*rc::gen::inRange<std::uint64_t>(0, N)], model[*rc::gen::inRange<std::uint64_t>(0, N)]);
  cyclic_order order(model, *rc::gen::inRange<std::uint64_t>(1, 1000));
  RC_ASSERT(order.sequence() == model);
  const int moves = *rc::gen::inRange(1, 20);
  for (int move = 0; move < moves; ++move) {
    const std::size_t k = *rc::gen::inRange<std::size_t>(1, std::min<std::size_t>(6, N) + 1);
    std::vector<std::uint64_t> cuts;
    while (cuts.size() < k) {
      const std::uint64_t t = *rc::gen::inRange<std::uint64_t>(0, N);
      if (std::find(cuts.begin(), cuts.end(), t) == cuts.end()) cuts.push_back(t);
    }
    std::sort(cuts.begin(), cuts.end());
    std::vector<std::size_t> arcs(k);
    for (std::size_t i = 0; i < k; ++i) arcs[i] = i;
    for (std::size_t i = k; i > 1; --i) std::swap(arcs[i - 1], arcs[*rc::gen::inRange<std::size_t>(0, i)]);
    std::vector<std::pair<std::size_t, bool>> route;
    for (std::size_t a : arcs) route.push_back({a, *rc::gen::arbitrary<bool>()});
    // by hand: arc i holds positions cuts[i] + 1 … cuts[i + 1], the last one wrapping
    std::vector<std::uint64_t> expected;
    for (const auto& [a, forward] : route) {
      std::vector<std::uint64_t> arc;
      for (std::uint64_t t = (cuts[a] + 1) % N;; t = (t + 1) % N) {
        arc.push_back(model[t]);
        if (t == cuts[(a + 1) % k]) break;
      }
      if (!forward) std::reverse(arc.begin(), arc.end());
      expected.insert(expected.end(), arc.begin(), arc.end());
    }
    order.rearrange(cuts, route);
    model = expected;
    RC_ASSERT(order.sequence() == model);
    for (std::uint64_t t = 0; t < N; ++t) RC_ASSERT(order.position(model[t]) == t);
  }
  if (N >= 2) {
    RC_ASSERT_THROWS_AS(order.rearrange({1, 0}, {{0, true}, {1, true}}), std::invalid_argument);
    RC_ASSERT_THROWS_AS(order.rearrange({0, 1}, {{0, true}, {0, false}}), std::invalid_argument);
    RC_ASSERT_THROWS_AS(order.rearrange({0, 1}, {{1, true}}), std::invalid_argument);
  }
  RC_ASSERT_THROWS_AS(order.rearrange({N}, {{0, true}}), std::invalid_argument);
  RC_ASSERT(order.sequence() == model);  // a refused rearrangement changes nothing
  std::vector<std::uint64_t> twice = model;
  twice.push_back(model[0]);  // not a permutation
  RC_ASSERT_THROWS_AS(cyclic_order{twice}, std::invalid_argument);
}

// Theorems 3 and 4's counts (2 packets, n1 n2/2 resp. ceil(n1 n2/2) steps) by two Hamiltonian cycles from the SAT
// search, and Section 3.4 for d = 4 (product construction, even sizes): d cycles, floor(P/2) steps.
RC_GTEST_PROP(torus_hamilton, search_and_product_decompositions, ()) {
  const bool four_d = *rc::gen::arbitrary<bool>();
  const torus::network t =
      four_d ? torus::network({2 * *rc::gen::inRange<std::uint32_t>(1, 3), 2 * *rc::gen::inRange<std::uint32_t>(1, 3),
                               2 * *rc::gen::inRange<std::uint32_t>(1, 3), 2 * *rc::gen::inRange<std::uint32_t>(1, 3)})
             : torus::network({*rc::gen::inRange<std::uint32_t>(3, 12), *rc::gen::inRange<std::uint32_t>(3, 12)});
  std::optional<cycle_system> system;
  if (four_d) {
    system = hamiltonian_product_cycles(t);
  } else {
    const hamilton_search_result r = search_hamilton_decomposition(t, 60'000);
    RC_ASSERT(r.answer == solver_answer::sat);
    system = r.system;
  }
  const cycle_system_report cycles = check_cycle_system(*system, 0);
  RC_ASSERT(cycles.holds());
  RC_ASSERT(cycles.lengths.size() == t.dimension());
  for (std::uint64_t l : cycles.lengths) RC_ASSERT(l == t.size());
  const gossip_report run =
      simulate_gossip(cycle_routing(*system, supply_policy::time_independent, packets_per_pu::per_cycle));
  RC_ASSERT(run.holds());
  RC_ASSERT(run.steps == t.size() / 2);
}

// Section 3.2's partial cycles (rows even, columns odd): cycle checks at distance 1, locality, and one-packet gossip
// within the circulation time of a cycle of P − n1/2 PUs.
RC_GTEST_PROP(torus_partial, cycles_locality_and_circulation, ()) {
  const torus::network t({2 * *rc::gen::inRange<std::uint32_t>(1, 9), 2 * *rc::gen::inRange<std::uint32_t>(2, 9) + 1});
  const cycle_system system = partial_2d_cycles(t);
  const cycle_system_report cycles = check_cycle_system(system, 1);
  RC_ASSERT(cycles.holds());
  const std::uint64_t m = t.size() - t.dims()[0] / 2;
  for (std::uint64_t l : cycles.lengths) RC_ASSERT(l == m);
  const routing_table table = cycle_routing(system, supply_policy::scheduled);
  RC_ASSERT(check_supply(table, system).holds());
  const gossip_report run = simulate_gossip(table);
  RC_ASSERT(run.holds());
  RC_ASSERT(run.steps <= m / 2 + 1);
}

// Section 3.3 as reconstructed (both sizes odd): cycle checks at distance 1, every PU on a cycle, locality (some
// PUs served through an off-cycle neighbour), one-packet gossip in the longer cycle's circulation time and within
// Theorem 4's ceil(n1·n2/2).
RC_GTEST_PROP(torus_partial, both_odd_locality_and_theorem_4, ()) {
  const torus::network t(
      {2 * *rc::gen::inRange<std::uint32_t>(2, 10) + 1, 2 * *rc::gen::inRange<std::uint32_t>(2, 10) + 1});
  const cycle_system system = partial_2d_cycles(t);
  const cycle_system_report cycles = check_cycle_system(system, 1);
  RC_ASSERT(cycles.holds());
  RC_ASSERT(cycles.lengths.size() == 2u);
  std::vector<char> on(t.size(), 0);
  for (const torus_cycle& c : system.cycles)
    for (pu_index pu : c.pus) on[pu] = 1;
  RC_ASSERT(std::count(on.begin(), on.end(), 1) == static_cast<std::ptrdiff_t>(t.size()));
  const routing_table table = cycle_routing(system, supply_policy::scheduled);
  RC_ASSERT(check_supply(table, system).holds());
  const gossip_report run = simulate_gossip(table);
  RC_ASSERT(run.holds());
  RC_ASSERT(run.steps <= (t.size() + 1) / 2);
  RC_ASSERT(run.steps <= std::max(cycles.lengths[0], cycles.lengths[1]) / 2 + 1);
}

// Theorems 3 and 4 with two packets per PU on the partial cycles (twin_cycle_routing: each off-cycle PU's second
// packet handed to a host on the other cycle): for random sizes the plan's target is ceil(n1·n2/2), the simulator
// completes in exactly that many steps, never below the counting bound ceil(2(P − 1)/4), and the supply holds both
// ways. A host that forgets its buffer (its delayed switch dropped or made undelayed) is caught: the gossip then
// takes longer or never completes.
RC_GTEST_PROP(torus_partial, two_packets_meet_theorems_3_and_4, ()) {
  const bool both_odd = *rc::gen::arbitrary<bool>();
  const std::uint32_t n1 =
      both_odd ? 2 * *rc::gen::inRange<std::uint32_t>(2, 9) + 1 : 2 * *rc::gen::inRange<std::uint32_t>(2, 9);
  const torus::network t({n1, 2 * *rc::gen::inRange<std::uint32_t>(2, 9) + 1});
  const cycle_system system = partial_2d_cycles(t);
  const twin_routing_result twin = twin_cycle_routing(system);
  const std::uint64_t P = t.size();
  RC_ASSERT(twin.table.packets == 2u);
  RC_ASSERT(twin.steps == (P + 1) / 2);
  gossip_options options;
  options.stepwise = true;
  const gossip_report run = simulate_gossip(twin.table, options);
  RC_ASSERT(run.holds());
  RC_ASSERT(run.steps == twin.steps);
  RC_ASSERT(4 * run.steps >= 2 * (P - 1));
  RC_ASSERT(check_supply(twin.table, system).holds());
  // Corrupt one host: the switch of a cycle out-port that starts its delayed stream.
  const cycle_links links = map_cycle_links(system);
  std::vector<std::size_t> delayed;
  for (std::size_t k = 0; k < twin.table.switches.size(); ++k) {
    const port_switch& w = twin.table.switches[k];
    if (w.delay >= 2 && links.used(w.pu, w.port)) delayed.push_back(k);
  }
  RC_ASSERT(!delayed.empty());
  routing_table broken = twin.table;
  port_switch& w = broken.switches[*rc::gen::elementOf(delayed)];
  if (*rc::gen::arbitrary<bool>())
    w.delay = 1;
  else
    broken.switches.erase(broken.switches.begin() + (&w - broken.switches.data()));
  const gossip_report bad = simulate_gossip(broken, options);
  RC_ASSERT(!bad.holds() || bad.steps > twin.steps);
}

}  // namespace
}  // namespace dancecard
