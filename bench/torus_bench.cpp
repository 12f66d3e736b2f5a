// Google Benchmark: the gossip simulator's throughput (link-steps per second) on 64 x 64 (Section 3.1 rules, run to
// completion), on 32 x 32 x 32 (straight-line rings in every dimension, a fixed number of steps) and a whole 3-D
// one-packet gossip on 30 x 30 x 32, against a baseline that streams the same number of link-steps through memory.
// The benchmarks of the torus CNF and its searches are in torus_cnf_bench.cpp, those of the constructions and the
// supply in torus_construction_bench.cpp: one program, bench_torus.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/common/cyclic_order.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/search/torus_tables.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "dancecard/smt/torus_supply.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

// +x_j ↔ −x_j at every PU: a ring per line in each dimension.
routing_table straight_rings(const torus::network& t) {
  std::vector<std::uint32_t> partner(static_cast<std::size_t>(t.size()) * t.ports());
  for (pu_index pu = 0; pu < t.size(); ++pu)
    for (std::uint32_t p = 0; p < t.ports(); ++p) partner[pu * t.ports() + p] = torus::network::opposite(p);
  return pairing_table(t, partner);
}

// Arg 0: the switch-free method, one PU at a time along its in-links' chains (the default); 1: step by step over every
// link with every PU's bits (gossip_options::stepwise), the baseline in the same run.
gossip_options method(const benchmark::State& state, std::uint64_t max_steps = 0) {
  gossip_options o;
  o.max_steps = max_steps;
  o.stepwise = state.range(0) == 1;
  return o;
}

void gossip_64x64(benchmark::State& state) {
  const routing_table table = hamiltonian_2d(torus::network({64, 64}));
  std::uint64_t link_steps = 0;
  for (auto _ : state) {
    const gossip_report r = simulate_gossip(table, method(state));
    link_steps = r.link_steps;
    benchmark::DoNotOptimize(r.steps);
  }
  state.counters["link_steps_per_s"] =
      benchmark::Counter(static_cast<double>(link_steps), benchmark::Counter::kIsIterationInvariantRate);
}

void rings_32x32x32(benchmark::State& state) {
  const routing_table table = straight_rings(torus::network({32, 32, 32}));
  const std::uint64_t steps = static_cast<std::uint64_t>(state.range(1));
  std::uint64_t link_steps = 0;
  for (auto _ : state) {
    const gossip_report r = simulate_gossip(table, method(state, steps));
    link_steps = r.link_steps;
    benchmark::DoNotOptimize(r.steps);
  }
  state.counters["link_steps_per_s"] =
      benchmark::Counter(static_cast<double>(link_steps), benchmark::Counter::kIsIterationInvariantRate);
}

// A whole one-packet gossip in 3-D: the Section 4.2 zigzag cycles on 30 x 30 x 32 (28,800 PUs, the admissible size
// nearest 32^3: n1 must be a multiple of 3), scheduled supply, run to completion.
void zigzag_30x30x32(benchmark::State& state) {
  const routing_table table = cycle_routing(zigzag_cycles(torus::network({30, 30, 32})), supply_policy::scheduled);
  std::uint64_t link_steps = 0;
  for (auto _ : state) {
    const gossip_report r = simulate_gossip(table);
    link_steps = r.link_steps;
    state.counters["steps"] = static_cast<double>(r.steps);
  }
  state.counters["link_steps_per_s"] =
      benchmark::Counter(static_cast<double>(link_steps), benchmark::Counter::kIsIterationInvariantRate);
}

// The least number of steps in the pairing model on 3 x 5 (5: 4 unsat, 5 sat): the clausal encoding (CaDiCaL, the
// DRAT proof checked) against the Z3 encoding of the same question as the baseline, in the same run.
void pairing_minimum_3x5_sat(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(prove_torus_minimum(torus::network({3, 5}), torus_model::pairing, 600'000).minimum_steps);
}
void pairing_minimum_3x5_z3(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(
        prove_torus_minimum(torus::network({3, 5}), torus_model::pairing, 600'000, {.engine = torus_engine::z3})
            .minimum_steps);
}
// Two Hamiltonian cycles of a 15 x 17 torus (both odd: no construction built) by SAT search with subtour cuts.
void hamilton_search_15x17(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(search_hamilton_decomposition(torus::network({15, 17}), 600'000).cuts);
}

// A table with the least number of steps (8, proven) of the pairing model on 4 x 6: by local search against the
// simulator (search_torus_table, seed 1, stopping at the goal), against CaDiCaL's witness for "within 8 steps" (the
// sat query alone, its model decoded and simulated) as the baseline, in the same run.
void local_search_4x6_pairing(benchmark::State& state) {
  std::uint64_t evaluations = 0;
  for (auto _ : state) {
    const torus_heuristic_result r =
        search_torus_table(torus::network({4, 6}), torus_model::pairing, 600'000, {.seed = 1, .goal = 8});
    evaluations = r.evaluations;
    state.counters["steps"] = static_cast<double>(r.steps);
  }
  state.counters["tables_per_s"] =
      benchmark::Counter(static_cast<double>(evaluations), benchmark::Counter::kIsIterationInvariantRate);
}
void sat_witness_4x6_pairing(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(solve_torus_clausal(torus::network({4, 6}), torus_model::pairing, 8, 600'000).answer);
}

// The tabu search's count of missing pairs (torus_missing_pairs: backward walks from every PU's in-links) on a 10-step
// pairing table of 4 x 8 — at 9 steps, where pairs are missing — against the simulator's run of the same table to the
// same horizon (the one-PU-at-a-time method, then stepwise), as the baseline in the same run. Arg: 0 count, 1
// simulator, 2 stepwise simulator.
const routing_table& pairing_4x8_table() {
  static const routing_table table = *tabu_search_torus_table(torus::network({4, 8}), torus_model::pairing, 600'000,
                                                              {.seed = 2, .goal = 10, .max_iterations = 8'000})
                                          .table;
  return table;
}
void missing_pairs_4x8(benchmark::State& state) {
  const routing_table& table = pairing_4x8_table();
  gossip_options o;
  o.max_steps = 9, o.max_witnesses = 0, o.stepwise = state.range(0) == 2;
  for (auto _ : state) {
    if (state.range(0) == 0)
      benchmark::DoNotOptimize(torus_missing_pairs(table, 9));
    else
      benchmark::DoNotOptimize(simulate_gossip(table, o).count_by_kind);
  }
  state.counters["tables_per_s"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(missing_pairs_4x8)->Arg(0)->Arg(1)->Arg(2);

// Search quality in equal time: the tabu search and the local search (search_torus_table), 20 s each, seed 1, on
// 4 x 8 pairing (minimum 10, proven) and 4 x 9 pairing (11 … 12 open); the steps reached are the counters.
void search_in_20_s(benchmark::State& state, torus::network network, bool tabu) {
  for (auto _ : state) {
    const torus_heuristic_result r = tabu ? tabu_search_torus_table(network, torus_model::pairing, 20'000, {.seed = 1})
                                          : search_torus_table(network, torus_model::pairing, 20'000, {.seed = 1});
    state.counters["steps"] = static_cast<double>(r.steps);
    state.counters["evaluations"] = static_cast<double>(r.evaluations);
  }
}
BENCHMARK_CAPTURE(search_in_20_s, 4x8_pairing_tabu, torus::network({4, 8}), true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(search_in_20_s, 4x8_pairing_local, torus::network({4, 8}), false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(search_in_20_s, 4x9_pairing_tabu, torus::network({4, 9}), true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(search_in_20_s, 4x9_pairing_local, torus::network({4, 9}), false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// The tabu search over invariant tables: 4 x 7 general, minimum 8 (proven), 60 s at most, seed 1, stopping
// at 8 — under the 2 translations by (2, 0) (group 4 of the translation list; Arg 1 without the solver's start, Arg 2
// with it), against the tabu search without a group in the same run as the baseline (Arg 0).
// Counters: the steps reached and the seconds taken.
void invariant_tabu_4x7_general(benchmark::State& state) {
  const torus::network network({4, 7});
  const std::optional<torus_symmetry_group> group =
      state.range(0) != 0 ? std::optional(invariant_group_list(network, invariant_groups::translations).at(4))
                          : std::nullopt;
  for (auto _ : state) {
    const torus_heuristic_result r =
        tabu_search_torus_table(network, torus_model::general, 60'000,
                                {.seed = 1,
                                 .goal = 8,
                                 .max_iterations = 0,
                                 .group = group,
                                 .solver = state.range(0) == 2 ? invariant_table_solver(network, torus_model::general)
                                                               : invariant_table_query{}});
    state.counters["steps"] = static_cast<double>(r.steps);
    state.counters["seconds"] = r.seconds;
  }
}
BENCHMARK(invariant_tabu_4x7_general)->Arg(0)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond);

// The solver's start: 3 x 12 general under the point group of order 4 generated by (x1, x2) -> (-x1, x2)
// and (x1, x2) -> (x1, -x2 + 1) (group 1 of the point list, which fixes the 12 PUs with x1 = 0), 30 s at most, seed
// 1, stopping at 12 (that group's least: 11 steps unsat for it, 0.2 s) — with the SAT start (Arg 1), against the
// search from the pairing search (Arg 0) in the same run as the baseline.
void invariant_tabu_3x12_point(benchmark::State& state) {
  const torus::network network({3, 12});
  const torus_symmetry_group group = invariant_group_list(network, invariant_groups::point).at(1);
  for (auto _ : state) {
    const torus_heuristic_result r =
        tabu_search_torus_table(network, torus_model::general, 30'000,
                                {.seed = 1,
                                 .goal = 12,
                                 .max_iterations = 0,
                                 .group = group,
                                 .solver = state.range(0) == 1 ? invariant_table_solver(network, torus_model::general)
                                                               : invariant_table_query{}});
    state.counters["steps"] = r.table ? static_cast<double>(r.steps) : 0.0;
    state.counters["seconds"] = r.seconds;
  }
}
BENCHMARK(invariant_tabu_3x12_point)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond);

// A two-packet table of 4 x 4 at the counting bound 8 (the proven minimum with two packets, Section 3.1's count) by
// the local search with k packets (search_torus_table, seed 1, stopping at the goal; each table's injections chosen by
// torus_injection_chooser), against CaDiCaL's witness for "within 8 steps" with two packets (solve_torus_packets, the
// sat query alone, its model decoded and simulated) as the baseline, in the same run.
void local_search_4x4_two_packets(benchmark::State& state) {
  std::uint64_t evaluations = 0;
  for (auto _ : state) {
    const torus_heuristic_result r =
        search_torus_table(torus::network({4, 4}), torus_model::pairing, 600'000, {.seed = 1, .goal = 8, .packets = 2});
    evaluations = r.evaluations;
    state.counters["steps"] = static_cast<double>(r.steps);
  }
  state.counters["tables_per_s"] =
      benchmark::Counter(static_cast<double>(evaluations), benchmark::Counter::kIsIterationInvariantRate);
}
void sat_witness_4x4_two_packets(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(solve_torus_packets(torus::network({4, 4}), torus_model::pairing, 2, 8, 600'000).answer);
}
// What choosing the injections costs per table: torus_injection_chooser::choose on Section 3.1's 6 x 6 table (two
// packets, 18 steps: the counting bound), against one simulation of the same table with its injections fixed (the
// one-packet search's whole evaluation), in the same run.
void choose_injections_6x6(benchmark::State& state) {
  const routing_table table = hamiltonian_2d(torus::network({6, 6}));
  const torus_injection_chooser chooser(table.network, 2);
  std::vector<std::uint32_t> inject;
  for (auto _ : state) state.counters["missing"] = static_cast<double>(chooser.choose(table, 18, inject));
}
void simulate_two_packets_6x6(benchmark::State& state) {
  const routing_table table = hamiltonian_2d(torus::network({6, 6}));
  for (auto _ : state)
    benchmark::DoNotOptimize(
        simulate_gossip(table, gossip_options{.max_steps = 18, .max_witnesses = 0, .record_arrivals = false}).steps);
}

// Baseline: read the same number of 4-byte link entries sequentially (what a link-step costs at the least).
void stream_baseline(benchmark::State& state) {
  std::vector<std::uint32_t> links(32 * 32 * 32 * 6);
  std::iota(links.begin(), links.end(), 0u);
  const std::uint64_t steps = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (std::uint64_t s = 0; s < steps; ++s)
      for (std::uint32_t v : links) sum += v;
    benchmark::DoNotOptimize(sum);
  }
  state.counters["link_steps_per_s"] =
      benchmark::Counter(static_cast<double>(links.size() * steps), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(gossip_64x64)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(rings_32x32x32)
    ->Args({0, 64})
    ->Args({1, 64})
    ->Args({0, 1024})
    ->Args({1, 1024})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(stream_baseline)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(zigzag_30x30x32)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(pairing_minimum_3x5_sat)->Unit(benchmark::kMillisecond);
BENCHMARK(pairing_minimum_3x5_z3)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(hamilton_search_15x17)->Unit(benchmark::kMillisecond);
BENCHMARK(local_search_4x6_pairing)->Unit(benchmark::kMillisecond);
BENCHMARK(sat_witness_4x6_pairing)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(local_search_4x4_two_packets)->Unit(benchmark::kMillisecond);
BENCHMARK(sat_witness_4x4_two_packets)->Unit(benchmark::kMillisecond);
BENCHMARK(choose_injections_6x6)->Unit(benchmark::kMicrosecond);
BENCHMARK(simulate_two_packets_6x6)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace dancecard

BENCHMARK_MAIN();
