// Google Benchmark (bench_torus): the cycle constructions (switch search, Park's cube, the layered construction,
// cyclic orders) and the supply of the PUs off the cycles (greedy, matched, packet-matched, held, twins), each against
// its baseline in the same run.
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
#include "dancecard/search/torus_cycles.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "dancecard/smt/torus_supply.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

// Three Hamiltonian cycles of 10 x 10 x 10: the randomized square-switch search against the SAT search (CaDiCaL with
// lazy subtour cuts) as the baseline, in the same run; and the switch search alone on 32 x 32 x 32.
void switch_search_10x10x10(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus::network({10, 10, 10})).has_value());
}
void sat_search_10x10x10(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(search_hamilton_decomposition(torus::network({10, 10, 10}), 600'000).cuts);
}
void switch_search_32x32x32(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus::network({32, 32, 32})).has_value());
}
// Park's explicit construction (hamiltonian_product_cycles on a cube) on the same 32 x 32 x 32 and on 64^3, 129^3:
// three walks of P steps each plus the port bookkeeping.
void explicit_cube(benchmark::State& state) {
  const auto m = static_cast<std::uint32_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hamiltonian_product_cycles(torus::network({m, m, m})).cycles.size());
}
// The layered construction (one dimension at a time) on non-cubes with an odd size: 31 x 32 x 32 (beside the cube
// above and the square-switch search on the same torus), 63 x 64 x 64, and 7-D 3 x 4 x 4 x 4 x 4 x 4 x 4 (12,288 PUs).
void layered(benchmark::State& state, const torus::network& network) {
  for (auto _ : state) benchmark::DoNotOptimize(hamiltonian_product_cycles(network).cycles.size());
}
void switch_search_31x32x32(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus::network({31, 32, 32})).has_value());
}
// Every size even (layered on scrambled frames, construction hamiltonian-layered-searched) against the square-switch
// search on the same tori.
void switch_search_20x22x24(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus::network({20, 22, 24})).has_value());
}
void switch_search_30x32x32(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus::network({30, 32, 32})).has_value());
}
// The same pair on every size even in 5-D (no product construction there): 4^5; and the layered one alone on 4^7
// (16,384 PUs: the square-switch search had not finished after 300 s).
void switch_search(benchmark::State& state, const torus::network& network) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(network).has_value());
}

// The scrambled frames' k-opt moves on a cycle of N vertices: 4 cuts at random positions, the 4 arcs joined in a
// random order and orientation, then 8 position queries (what a kept double switch costs), by cyclic_order (an
// implicit treap, O(log N)) against the vector it replaced as the baseline: the arcs copied into a fresh order and
// every position rewritten (O(N)). The same moves from the same seed in both.
struct random_move {
  std::vector<std::uint64_t> cuts;
  std::vector<std::pair<std::size_t, bool>> route;
};
random_move draw_move(std::mt19937_64& random, std::uint64_t N) {
  random_move m;
  while (m.cuts.size() < 4) {
    const std::uint64_t t = random() % N;
    if (std::find(m.cuts.begin(), m.cuts.end(), t) == m.cuts.end()) m.cuts.push_back(t);
  }
  std::sort(m.cuts.begin(), m.cuts.end());
  std::vector<std::size_t> arcs{0, 1, 2, 3};
  std::shuffle(arcs.begin(), arcs.end(), random);
  for (std::size_t a : arcs) m.route.push_back({a, random() % 2 == 0});
  return m;
}
// 1,000 moves per iteration on a fresh cycle 0, 1, …, N − 1 (built outside the timing): `apply` makes a move,
// `query` answers a position.
template <class Cycle, class Apply, class Query>
void run_moves(benchmark::State& state, const std::function<Cycle(const std::vector<std::uint64_t>&)>& make,
               Apply apply, Query query) {
  const auto N = static_cast<std::uint64_t>(state.range(0));
  std::vector<std::uint64_t> start(N);
  std::iota(start.begin(), start.end(), std::uint64_t{0});
  for (auto _ : state) {
    state.PauseTiming();
    Cycle cycle = make(start);
    std::mt19937_64 random(1);
    state.ResumeTiming();
    std::uint64_t sum = 0;
    for (int move = 0; move < 1000; ++move) {
      apply(cycle, draw_move(random, N));
      for (int k = 0; k < 8; ++k) sum += query(cycle, random() % N);
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 1000);
}
void cyclic_order_moves(benchmark::State& state) {
  run_moves<cyclic_order>(
      state, [](const std::vector<std::uint64_t>& start) { return cyclic_order(start); },
      [](cyclic_order& order, const random_move& m) { order.rearrange(m.cuts, m.route); },
      [](cyclic_order& order, std::uint64_t v) { return order.position(v); });
}
struct vector_cycle {
  std::vector<std::uint64_t> order, position, fresh;
};
void vector_relink_moves(benchmark::State& state) {
  run_moves<vector_cycle>(
      state,
      [](const std::vector<std::uint64_t>& start) {
        return vector_cycle{start, start, std::vector<std::uint64_t>(start.size())};
      },
      [](vector_cycle& c, const random_move& m) {
        const std::uint64_t N = c.order.size();
        std::uint64_t out = 0;
        for (const auto& [a, forward] : m.route) {
          const std::uint64_t first = (m.cuts[a] + 1) % N, last = m.cuts[(a + 1) % 4],
                              length = (last + N - first) % N + 1;
          for (std::uint64_t x = 0; x < length; ++x)
            c.fresh[out++] = c.order[forward ? (first + x) % N : (last + N - x) % N];
        }
        c.order.swap(c.fresh);
        for (std::uint64_t t = 0; t < N; ++t) c.position[c.order[t]] = t;
      },
      [](vector_cycle& c, std::uint64_t v) { return c.position[v]; });
}

// Supply of the off-cycle packets on the 4 x 2 x 4 x 5 zigzag cycles: the SAT search for the least scheduled supply
// (smt/torus_supply, upward from the circulation) against the greedy cycle_routing as the baseline; "steps" is the
// simulated gossip time each gives (Theorem 7's bound: 38).
void supply_search_4x2x4x5(benchmark::State& state) {
  const cycle_system system = zigzag_cycles(torus::network({4, 2, 4, 5}));
  for (auto _ : state)
    state.counters["steps"] = static_cast<double>(best_cycle_supply(system, supply_policy::scheduled, 600'000).steps);
}
void greedy_supply_4x2x4x5(benchmark::State& state) {
  const cycle_system system = zigzag_cycles(torus::network({4, 2, 4, 5}));
  for (auto _ : state)
    state.counters["steps"] =
        static_cast<double>(simulate_gossip(cycle_routing(system, supply_policy::scheduled)).steps);
}

// A supply built from the zigzag cycles of `dims` by `build` (a table, or none where it declines), timed; "steps" is
// the simulated gossip time, simulated outside the timing (0 without a table).
template <class Build>
void supply_run(benchmark::State& state, const std::vector<std::uint32_t>& dims, Build build) {
  const cycle_system system = zigzag_cycles(torus::network(dims));
  for (auto _ : state) {
    const std::optional<routing_table> table = build(system);
    state.PauseTiming();
    state.counters["steps"] = table ? static_cast<double>(simulate_gossip(*table).steps) : 0.0;
    state.ResumeTiming();
  }
}
// The greedy alone: cycle_routing with one switch per link (the scheduled policy compares the greedy with the others).
std::optional<routing_table> greedy_supply(const cycle_system& system) {
  return cycle_routing(system, supply_policy::one_switch);
}

// The matched supply (core: two sources per PU and cycle, a perfect matching of positions to steps) on the 8⁴ zigzag
// cycles, against the greedy on the same cycles (Theorem 7's bound: 770).
void matched_supply_8x8x8x8(benchmark::State& state) {
  supply_run(state, {8, 8, 8, 8}, [](const cycle_system& system) { return matched_cycle_routing(system); });
}
void greedy_supply_8x8x8x8(benchmark::State& state) { supply_run(state, {8, 8, 8, 8}, greedy_supply); }

// The packet-matched supply (core: every PU's missing packets matched to its free in-links' steps, relays one hop
// further) on the closed trails of 4 × 5 × 4 × 5, where the matched supply declines: the least target found by search
// (doubling from the circulation, then bisection), against the greedy on the same trails; and at Theorem 7's bound on
// the 8⁴ cycles, beside the matched supply above (bounds: 92 and 770).
void packet_supply_4x5x4x5(benchmark::State& state) {
  supply_run(state, {4, 5, 4, 5}, [](const cycle_system& system) { return least_packet_matched_routing(system); });
}
void greedy_supply_4x5x4x5(benchmark::State& state) { supply_run(state, {4, 5, 4, 5}, greedy_supply); }
// The same least search on the closed trails of 4 × 5 × 2 × 9 with senders that hold packets up to max_switch_delay
// steps (delayed switches), against the search without them (Theorem 7's bound: 67; the circulation: 65).
void held_supply_4x5x2x9(benchmark::State& state) {
  supply_run(state, {4, 5, 2, 9}, [](const cycle_system& system) {
    return least_packet_matched_routing(system, nullptr, 0, max_switch_delay);
  });
}
void packet_supply_4x5x2x9(benchmark::State& state) {
  supply_run(state, {4, 5, 2, 9}, [](const cycle_system& system) { return least_packet_matched_routing(system); });
}
void packet_supply_8x8x8x8(benchmark::State& state) {
  supply_run(state, {8, 8, 8, 8}, [](const cycle_system& system) { return packet_matched_routing(system, 770).table; });
}

// Two packets per PU on Section 3.2's partial cycles of 64 × 65 (core: twin_cycle_routing — hosts take the column's
// second packets, per-PU matchings supply the off-cycle PUs), against the one-packet scheduled supply of the same
// cycles (cycle_routing) as the baseline; "steps" simulated outside the timing (Theorem 3: 2,080).
void partial_supply_run(benchmark::State& state, bool two_packets) {
  const cycle_system system = partial_2d_cycles(torus::network({64, 65}));
  for (auto _ : state) {
    const routing_table table =
        two_packets ? twin_cycle_routing(system).table : cycle_routing(system, supply_policy::scheduled);
    state.PauseTiming();
    state.counters["steps"] = static_cast<double>(simulate_gossip(table).steps);
    state.counters["switches"] = static_cast<double>(table.switches.size());
    state.ResumeTiming();
  }
}
void twin_supply_64x65(benchmark::State& state) { partial_supply_run(state, true); }
void one_packet_supply_64x65(benchmark::State& state) { partial_supply_run(state, false); }

BENCHMARK(twin_supply_64x65)->Unit(benchmark::kMillisecond);
BENCHMARK(held_supply_4x5x2x9)->Unit(benchmark::kMillisecond);
BENCHMARK(packet_supply_4x5x2x9)->Unit(benchmark::kMillisecond);
BENCHMARK(one_packet_supply_64x65)->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_10x10x10)->Unit(benchmark::kMillisecond);
BENCHMARK(sat_search_10x10x10)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_32x32x32)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(explicit_cube)->Arg(32)->Arg(64)->Arg(129)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 31x32x32, torus::network({31, 32, 32}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 63x64x64, torus::network({63, 64, 64}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 3x4x4x4x4x4x4, torus::network({3, 4, 4, 4, 4, 4, 4}))->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_31x32x32)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 4x6x8, torus::network({4, 6, 8}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 20x22x24, torus::network({20, 22, 24}))->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 4x4x4x4x4, torus::network({4, 4, 4, 4, 4}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(switch_search, 4x4x4x4x4, torus::network({4, 4, 4, 4, 4}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 4x4x4x4x4x4x4, torus::network({4, 4, 4, 4, 4, 4, 4}))
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_20x22x24)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 30x32x32, torus::network({30, 32, 32}))->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 64x64x128, torus::network({64, 64, 128}))->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(cyclic_order_moves)->Arg(1 << 14)->Arg(1 << 17)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(vector_relink_moves)->Arg(1 << 14)->Arg(1 << 17)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_30x32x32)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(supply_search_4x2x4x5)->Unit(benchmark::kMillisecond);
BENCHMARK(greedy_supply_4x2x4x5)->Unit(benchmark::kMillisecond);
BENCHMARK(matched_supply_8x8x8x8)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(greedy_supply_8x8x8x8)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(packet_supply_4x5x4x5)->Unit(benchmark::kMillisecond);
BENCHMARK(greedy_supply_4x5x4x5)->Unit(benchmark::kMillisecond);
BENCHMARK(packet_supply_8x8x8x8)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dancecard
