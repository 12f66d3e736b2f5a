// Bipartite multigraph edge colouring with Δ colours (Alon 2003): regularize, Euler splits, perfect matchings for
// odd Δ by Euler splits of a 2^t-regular scaling.
#include "dancecard/core/hrel/edge_coloring.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace dancecard {

std::uint64_t bipartite_multigraph::max_degree() const {
  std::vector<std::uint64_t> left(left_vertices, 0), right(right_vertices, 0);
  for (const bipartite_edge& e : edges) left[e.left] += e.multiplicity, right[e.right] += e.multiplicity;
  std::uint64_t d = 0;
  for (auto x : left) d = std::max(d, x);
  for (auto x : right) d = std::max(d, x);
  return d;
}

namespace {

constexpr std::uint32_t no_edge = UINT32_MAX;

// An edge of a working graph: left u, right v (both in 0..k-1), copies, and what it stands for (an index into the
// caller's edge list, or no_edge for a dummy / "bad" edge).
struct entry {
  std::uint32_t u, v;
  std::uint64_t mult;
  std::uint32_t ref;
};

// Splits a graph in which every vertex has even degree into two halves in which every vertex has exactly half of
// its degree: multiplicities are halved, and the edges of odd multiplicity are cut into closed trails (even length,
// the graph being bipartite) whose edges go alternately to the two halves.
void euler_split(const std::vector<entry>& graph, std::uint32_t k, std::vector<entry>& first, std::vector<entry>& second) {
  first.clear();
  second.clear();
  std::vector<std::uint32_t> odd;  // indices into graph of the entries with odd multiplicity
  for (std::uint32_t i = 0; i < graph.size(); ++i) {
    const entry& e = graph[i];
    if (e.mult >= 2) {
      first.push_back({e.u, e.v, e.mult / 2, e.ref});
      second.push_back({e.u, e.v, e.mult / 2, e.ref});
    }
    if (e.mult % 2 == 1) odd.push_back(i);
  }
  // Adjacency of the odd edges: vertices 0..k-1 left, k..2k-1 right.
  std::vector<std::uint32_t> start(2 * k + 1, 0);
  for (std::uint32_t i : odd) ++start[graph[i].u + 1], ++start[k + graph[i].v + 1];
  for (std::uint32_t x = 0; x < 2 * k; ++x) start[x + 1] += start[x];
  std::vector<std::uint32_t> incident(start.back()), fill(start.begin(), start.end() - 1);
  for (std::uint32_t j = 0; j < odd.size(); ++j) {
    incident[fill[graph[odd[j]].u]++] = j;
    incident[fill[k + graph[odd[j]].v]++] = j;
  }
  std::vector<char> used(odd.size(), 0);
  std::vector<std::uint32_t> next(start.begin(), start.end() - 1);  // next unexplored incidence per vertex
  for (std::uint32_t origin = 0; origin < 2 * k; ++origin) {
    while (true) {  // one closed trail from `origin` per iteration
      while (next[origin] < start[origin + 1] && used[incident[next[origin]]]) ++next[origin];
      if (next[origin] == start[origin + 1]) break;
      std::uint32_t at = origin;
      bool to_first = true;
      do {
        while (used[incident[next[at]]]) ++next[at];  // an even-degree graph: a trail can only stop at its origin
        const std::uint32_t j = incident[next[at]];
        used[j] = 1;
        const entry& e = graph[odd[j]];
        (to_first ? first : second).push_back({e.u, e.v, 1, e.ref});
        to_first = !to_first;
        at = at < k ? k + e.v : e.u;
      } while (at != origin);
    }
  }
}

// A perfect matching of a Δ-regular bipartite multigraph (k vertices per side): returns, for each left vertex, the
// index into `graph` of its matched entry.
std::vector<std::uint32_t> perfect_matching(const std::vector<entry>& graph, std::uint32_t k, std::uint64_t delta) {
  const std::uint64_t edges = static_cast<std::uint64_t>(k) * delta;
  const unsigned t = static_cast<unsigned>(std::bit_width(edges - 1));  // 2^t >= k·Δ
  const std::uint64_t power = std::uint64_t{1} << t;
  const std::uint64_t alpha = power / delta, beta = power - alpha * delta;
  // α copies of every edge plus β copies of the "bad" matching (i, i): every vertex has degree 2^t.
  std::vector<entry> current;
  current.reserve(graph.size() + k);
  for (std::uint32_t i = 0; i < graph.size(); ++i) current.push_back({graph[i].u, graph[i].v, graph[i].mult * alpha, i});
  if (beta > 0)
    for (std::uint32_t i = 0; i < k; ++i) current.push_back({i, i, beta, no_edge});
  std::vector<entry> first, second;
  for (unsigned step = 0; step < t; ++step) {
    euler_split(current, k, first, second);
    auto bad = [](const std::vector<entry>& g) {
      std::uint64_t b = 0;
      for (const entry& e : g) b += e.ref == no_edge ? e.mult : 0;
      return b;
    };
    current.swap(bad(first) <= bad(second) ? first : second);
  }
  std::vector<std::uint32_t> match(k, no_edge);
  for (const entry& e : current) {
    if (e.ref == no_edge || e.mult != 1 || match[e.u] != no_edge)
      throw std::logic_error("perfect_matching: the splits did not end in a perfect matching of real edges");
    match[e.u] = e.ref;
  }
  return match;
}

void color(std::vector<entry> graph, std::uint32_t k, std::uint64_t delta, std::vector<std::vector<std::size_t>>& out) {
  if (delta == 0) return;
  if (delta % 2 == 1) {
    const std::vector<std::uint32_t> match = perfect_matching(graph, k, delta);
    std::vector<std::size_t> colour_class;
    for (std::uint32_t i : match) {
      if (graph[i].ref != no_edge) colour_class.push_back(graph[i].ref);
      --graph[i].mult;
    }
    out.push_back(std::move(colour_class));
    graph.erase(std::remove_if(graph.begin(), graph.end(), [](const entry& e) { return e.mult == 0; }), graph.end());
    --delta;
    if (delta == 0) return;
  }
  std::vector<entry> first, second;
  euler_split(graph, k, first, second);
  graph.clear();
  graph.shrink_to_fit();
  color(std::move(first), k, delta / 2, out);
  color(std::move(second), k, delta / 2, out);
}

}  // namespace

std::vector<std::vector<std::size_t>> color_bipartite_edges(const bipartite_multigraph& graph) {
  const std::uint64_t delta = graph.max_degree();
  if (delta == 0) return {};
  if (delta > (std::uint64_t{1} << 40)) throw std::invalid_argument("color_bipartite_edges: Δ above 2^40");
  if (graph.edges.size() >= no_edge) throw std::invalid_argument("color_bipartite_edges: too many edges");
  // Merge vertices of each side first-fit into groups of degree <= Δ, so that the regular graph stays small.
  auto group = [&](std::uint32_t count, bool left, std::vector<std::uint32_t>& group_of) {
    std::vector<std::uint64_t> degree(count, 0);
    for (const bipartite_edge& e : graph.edges) {
      if ((left ? e.left : e.right) >= count) throw std::invalid_argument("color_bipartite_edges: vertex out of range");
      degree[left ? e.left : e.right] += e.multiplicity;
    }
    group_of.assign(count, 0);
    std::uint32_t groups = 0;
    std::uint64_t filled = delta;  // forces a first group
    for (std::uint32_t x = 0; x < count; ++x) {
      if (degree[x] == 0) continue;
      if (filled + degree[x] > delta) {
        ++groups;
        filled = 0;
      }
      group_of[x] = groups - 1;
      filled += degree[x];
    }
    return groups;
  };
  std::vector<std::uint32_t> left_group, right_group;
  const std::uint32_t k = std::max(group(graph.left_vertices, true, left_group), group(graph.right_vertices, false, right_group));
  std::vector<entry> regular;
  std::vector<std::uint64_t> left_deficit(k, delta), right_deficit(k, delta);
  for (std::uint32_t i = 0; i < graph.edges.size(); ++i) {
    const bipartite_edge& e = graph.edges[i];
    if (e.multiplicity == 0) continue;
    const std::uint32_t u = left_group[e.left], v = right_group[e.right];
    regular.push_back({u, v, e.multiplicity, i});
    left_deficit[u] -= e.multiplicity;
    right_deficit[v] -= e.multiplicity;
  }
  // Dummy edges fill the deficits (both sides miss the same total, k·Δ − E).
  for (std::uint32_t u = 0, v = 0; u < k && v < k;) {
    if (left_deficit[u] == 0) {
      ++u;
      continue;
    }
    if (right_deficit[v] == 0) {
      ++v;
      continue;
    }
    const std::uint64_t m = std::min(left_deficit[u], right_deficit[v]);
    regular.push_back({u, v, m, no_edge});
    left_deficit[u] -= m;
    right_deficit[v] -= m;
  }
  std::vector<std::vector<std::size_t>> classes;
  color(std::move(regular), k, delta, classes);
  return classes;
}

}  // namespace dancecard
