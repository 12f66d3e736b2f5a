// Google Benchmark: Δ-edge-colouring of bipartite multigraphs (Euler splits with Hopcroft–Karp or Alon matchings
// at odd degrees, as in color_bipartite_edges)
// against the textbook baseline of one maximum matching per colour (Hopcroft–Karp, Δ times) on the same graph in
// the same run; and the weighted decomposition / forwarding schedule with message lengths from 1 to 10^9.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <queue>
#include <random>
#include <vector>

#include "dancecard/core/hrel/edge_coloring.hpp"
#include "dancecard/core/hrel/schedules.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::hrel;
namespace {

// A Δ-regular bipartite graph on n + n vertices with n·Δ unit edges: the union of Δ random permutations.
bipartite_multigraph regular_graph(std::uint32_t n, std::uint32_t delta, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  bipartite_multigraph g{n, n, {}};
  g.edges.reserve(static_cast<std::size_t>(n) * delta);
  std::vector<std::uint32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0u);
  for (std::uint32_t d = 0; d < delta; ++d) {
    std::shuffle(perm.begin(), perm.end(), random);
    for (std::uint32_t u = 0; u < n; ++u) g.edges.push_back({u, perm[u], 1});
  }
  return g;
}

// The baseline: Δ times, a maximum (here perfect) matching of the remaining edges by Hopcroft–Karp, removed as one
// colour class.
std::vector<std::vector<std::size_t>> colour_by_matchings(const bipartite_multigraph& g) {
  const std::uint32_t n = g.left_vertices;
  std::vector<std::vector<std::size_t>> adjacency(n);
  for (std::size_t e = 0; e < g.edges.size(); ++e) adjacency[g.edges[e].left].push_back(e);
  std::vector<char> alive(g.edges.size(), 1);
  std::vector<std::vector<std::size_t>> classes;
  const std::uint64_t delta = g.max_degree();
  constexpr std::size_t none = SIZE_MAX;
  std::vector<std::size_t> match_left(n), match_right(g.right_vertices);
  std::vector<std::uint32_t> dist(n);
  for (std::uint64_t c = 0; c < delta; ++c) {
    std::fill(match_left.begin(), match_left.end(), none);
    std::fill(match_right.begin(), match_right.end(), none);
    while (true) {  // Hopcroft–Karp phases
      std::queue<std::uint32_t> q;
      bool found = false;
      for (std::uint32_t u = 0; u < n; ++u) {
        dist[u] = match_left[u] == none ? 0 : UINT32_MAX;
        if (match_left[u] == none) q.push(u);
      }
      while (!q.empty()) {
        const std::uint32_t u = q.front();
        q.pop();
        for (std::size_t e : adjacency[u]) {
          if (!alive[e]) continue;
          const std::size_t m = match_right[g.edges[e].right];
          if (m == none)
            found = true;
          else if (dist[g.edges[m].left] == UINT32_MAX)
            dist[g.edges[m].left] = dist[u] + 1, q.push(g.edges[m].left);
        }
      }
      if (!found) break;
      std::vector<std::size_t> next(n, 0);
      auto dfs = [&](auto&& self, std::uint32_t u) -> bool {
        for (std::size_t& i = next[u]; i < adjacency[u].size(); ++i) {
          const std::size_t e = adjacency[u][i];
          if (!alive[e]) continue;
          const std::size_t m = match_right[g.edges[e].right];
          if (m == none || (dist[g.edges[m].left] == dist[u] + 1 && self(self, g.edges[m].left))) {
            match_left[u] = e;
            match_right[g.edges[e].right] = e;
            return true;
          }
        }
        dist[u] = UINT32_MAX;
        return false;
      };
      bool augmented = false;
      for (std::uint32_t u = 0; u < n; ++u)
        if (match_left[u] == none && dfs(dfs, u)) augmented = true;
      if (!augmented) break;
    }
    std::vector<std::size_t> colour;
    for (std::uint32_t u = 0; u < n; ++u)
      if (match_left[u] != none) colour.push_back(match_left[u]), alive[match_left[u]] = 0;
    classes.push_back(std::move(colour));
  }
  return classes;
}

void set_edges(benchmark::State& state, const bipartite_multigraph& g, std::size_t classes) {
  state.counters["edges"] = static_cast<double>(g.edges.size());
  state.counters["colours"] = static_cast<double>(classes);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g.edges.size()));
}

template <colouring_engine engine>
void euler_colouring(benchmark::State& state) {
  const bipartite_multigraph g = regular_graph(static_cast<std::uint32_t>(state.range(0)), 100, 1);
  std::size_t classes = 0;
  for (auto _ : state) {
    auto c = color_bipartite_edges(g, engine);
    classes = c.size();
    benchmark::DoNotOptimize(c.data());
  }
  set_edges(state, g, classes);
}

void matching_per_colour(benchmark::State& state) {
  const bipartite_multigraph g = regular_graph(static_cast<std::uint32_t>(state.range(0)), 100, 1);
  std::size_t classes = 0;
  for (auto _ : state) {
    auto c = colour_by_matchings(g);
    classes = c.size();
    benchmark::DoNotOptimize(c.data());
  }
  set_edges(state, g, classes);
}

// Every ordered pair of P = 64 PEs has a message of 1..L packets (L = 1, 10^3, 10^6, 10^9).
hrel_instance full_exchange(std::uint64_t max_length) {
  std::mt19937_64 random(7);
  std::vector<hrel_message> messages;
  for (rank a = 0; a < 64; ++a)
    for (rank b = 0; b < 64; ++b)
      if (a != b) messages.push_back({a, b, 1 + random() % max_length});
  return hrel_instance(64, std::move(messages));
}

void weighted_forwarding(benchmark::State& state) {
  const hrel_instance instance = full_exchange(static_cast<std::uint64_t>(state.range(0)));
  std::size_t slots = 0;
  for (auto _ : state) {
    const hrel_schedule s = forwarding_schedule(instance, decomposition::automatic);
    slots = s.slots.size();
    benchmark::DoNotOptimize(s.slots.data());
  }
  state.counters["h"] = static_cast<double>(instance.h_half_duplex());
  state.counters["slots"] = static_cast<double>(slots);
}

void weighted_decomposition(benchmark::State& state) {
  const hrel_instance instance = full_exchange(static_cast<std::uint64_t>(state.range(0)));
  bipartite_multigraph g{64, 64, {}};
  for (const hrel_message& m : instance.messages()) g.edges.push_back({m.src, m.dst, m.packets});
  std::size_t classes = 0;
  for (auto _ : state) {
    auto c = decompose_bipartite_edges(g, decomposition::matching_peeling);
    classes = c.size();
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["delta"] = static_cast<double>(g.max_degree());
  state.counters["matchings"] = static_cast<double>(classes);
}

BENCHMARK(euler_colouring<colouring_engine::euler_hopcroft_karp>)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(euler_colouring<colouring_engine::euler_multiplicities>)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(euler_colouring<colouring_engine::alon>)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(matching_per_colour)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(weighted_decomposition)
    ->Arg(1)
    ->Arg(1'000)
    ->Arg(1'000'000)
    ->Arg(1'000'000'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(weighted_forwarding)->Arg(1)->Arg(1'000)->Arg(1'000'000)->Arg(1'000'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dancecard

BENCHMARK_MAIN();
