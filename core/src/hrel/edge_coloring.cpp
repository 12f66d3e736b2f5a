// Bipartite multigraph edge colouring with Δ colours (Alon 2003): regularize, Euler splits, perfect matchings for
// odd Δ by Euler splits of a 2^t-regular scaling.
#include "dancecard/core/hrel/edge_coloring.hpp"

#include "regular_unit_colouring.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>
#include <string>

namespace dancecard::hrel {

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
void euler_split(const std::vector<entry>& graph, std::uint32_t k, std::vector<entry>& first,
                 std::vector<entry>& second) {
  first.clear();
  second.clear();
  std::vector<std::uint32_t> odd;  // indices into graph of the entries with odd multiplicity
  std::size_t halves = 0;
  for (std::uint32_t i = 0; i < graph.size(); ++i) {
    if (graph[i].mult >= 2) ++halves;
    if (graph[i].mult % 2 == 1) odd.push_back(i);
  }
  first.reserve(halves + odd.size() / 2);
  second.reserve(halves + odd.size() / 2);
  for (const entry& e : graph)
    if (e.mult >= 2) {
      first.push_back({e.u, e.v, e.mult / 2, e.ref});
      second.push_back({e.u, e.v, e.mult / 2, e.ref});
    }
  // Adjacency of the odd edges as half-edges (edge j, the vertex at its other end): vertices 0..k-1 left,
  // k..2k-1 right. The walk then touches only the half-edge arrays and a used-bit per edge, never `graph`; which half
  // each edge goes to is recorded and the halves are written afterwards in one sequential pass (the walk is a random
  // walk over memory: on 10^7 edges it is bound by cache misses).
  std::vector<std::uint32_t> start(2 * k + 1, 0);
  for (std::uint32_t i : odd) ++start[graph[i].u + 1], ++start[k + graph[i].v + 1];
  for (std::uint32_t x = 0; x < 2 * k; ++x) start[x + 1] += start[x];
  struct half_edge {
    std::uint32_t edge, other;
  };
  std::vector<half_edge> incident(start.back());
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t j = 0; j < odd.size(); ++j) {
      const entry& e = graph[odd[j]];
      incident[fill[e.u]++] = {j, k + e.v};
      incident[fill[k + e.v]++] = {j, e.u};
    }
  }
  std::vector<char> side(odd.size(), 0);                            // 0: not yet walked; 1: first half; 2: second half
  std::vector<std::uint32_t> next(start.begin(), start.end() - 1);  // next unexplored incidence per vertex
  for (std::uint32_t origin = 0; origin < 2 * k; ++origin) {
    while (true) {  // one closed trail from `origin` per iteration
      while (next[origin] < start[origin + 1] && side[incident[next[origin]].edge]) ++next[origin];
      if (next[origin] == start[origin + 1]) break;
      std::uint32_t at = origin;
      char to = 1;
      do {
        while (side[incident[next[at]].edge]) ++next[at];  // an even-degree graph: a trail can only stop at its origin
        const half_edge h = incident[next[at]++];
        side[h.edge] = to;
        to = static_cast<char>(3 - to);
        at = h.other;
      } while (at != origin);
    }
  }
  for (std::uint32_t j = 0; j < odd.size(); ++j) {
    const entry& e = graph[odd[j]];
    (side[j] == 1 ? first : second).push_back({e.u, e.v, 1, e.ref});
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
  for (std::uint32_t i = 0; i < graph.size(); ++i)
    current.push_back({graph[i].u, graph[i].v, graph[i].mult * alpha, i});
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

// A perfect matching of a regular bipartite multigraph by Hopcroft–Karp on its support: O(E √k) worst case, and
// in practice a few phases (most vertices are matched by the first, greedy-like phase).
std::vector<std::uint32_t> hopcroft_karp_perfect(const std::vector<entry>& graph, std::uint32_t k) {
  std::vector<std::uint32_t> start(k + 1, 0), adjacency(graph.size());
  for (const entry& e : graph) ++start[e.u + 1];
  for (std::uint32_t u = 0; u < k; ++u) start[u + 1] += start[u];
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t i = 0; i < graph.size(); ++i) adjacency[fill[graph[i].u]++] = i;
  }
  std::vector<std::uint32_t> match_left(k, no_edge), match_right(k, no_edge), dist(k), next(k);
  std::vector<std::uint32_t> queue;
  queue.reserve(k);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // (left vertex, entry taken to get there)
  for (std::uint32_t matched = 0; matched < k;) {
    queue.clear();
    for (std::uint32_t u = 0; u < k; ++u) {
      dist[u] = match_left[u] == no_edge ? 0 : UINT32_MAX;
      if (match_left[u] == no_edge) queue.push_back(u);
    }
    bool found = false;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t u = queue[head];
      for (std::uint32_t j = start[u]; j < start[u + 1]; ++j) {
        const std::uint32_t m = match_right[graph[adjacency[j]].v];
        if (m == no_edge)
          found = true;
        else if (dist[graph[m].u] == UINT32_MAX)
          dist[graph[m].u] = dist[u] + 1, queue.push_back(graph[m].u);
      }
    }
    if (!found) throw std::logic_error("hopcroft_karp_perfect: a regular bipartite graph without a perfect matching");
    std::copy(start.begin(), start.end() - 1, next.begin());
    const std::uint32_t before = matched;
    for (std::uint32_t root = 0; root < k; ++root) {
      if (match_left[root] != no_edge) continue;
      // Iterative DFS along the layered graph; on reaching a free right vertex, flip the path on the stack.
      stack.assign(1, {root, no_edge});
      while (!stack.empty()) {
        const std::uint32_t u = stack.back().first;
        if (next[u] == start[u + 1]) {
          dist[u] = UINT32_MAX;  // dead end for this phase
          stack.pop_back();
          continue;
        }
        const std::uint32_t e = adjacency[next[u]++];
        const std::uint32_t m = match_right[graph[e].v];
        if (m == no_edge) {
          stack.push_back({UINT32_MAX, e});
          for (std::size_t i = stack.size() - 1; i >= 1; --i) {  // entry stack[i].second covers (stack[i-1].first, v)
            const std::uint32_t taken = stack[i].second;
            match_left[graph[taken].u] = taken;
            match_right[graph[taken].v] = taken;
          }
          ++matched;
          break;
        }
        const std::uint32_t w = graph[m].u;
        if (dist[w] == dist[u] + 1) stack.push_back({w, e});
      }
    }
    if (matched == before) throw std::logic_error("hopcroft_karp_perfect: no augmenting path found");
  }
  return match_left;
}

void color(std::vector<entry> graph, std::uint32_t k, std::uint64_t delta, std::vector<std::vector<std::size_t>>& out,
           colouring_engine engine) {
  if (delta == 0) return;
  if (delta == 1) {  // the graph is a perfect matching
    std::vector<std::size_t> colour_class;
    for (const entry& e : graph)
      if (e.ref != no_edge) colour_class.push_back(e.ref);
    out.push_back(std::move(colour_class));
    return;
  }
  if (delta % 2 == 1) {
    const std::vector<std::uint32_t> match =
        engine == colouring_engine::alon ? perfect_matching(graph, k, delta) : hopcroft_karp_perfect(graph, k);
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
  color(std::move(first), k, delta / 2, out, engine);
  color(std::move(second), k, delta / 2, out, engine);
}

// A Δ-regular bipartite multigraph with k vertices per side that stands for `graph`: the vertices of each side are
// merged first-fit into groups of degree <= Δ (so the regular graph stays small), then dummy edges (ref no_edge)
// fill the deficits. Every class of a colouring of it, restricted to real edges, is a matching of `graph`.
struct regular_graph {
  std::vector<entry> entries;
  std::uint32_t k = 0;
  std::uint64_t delta = 0;
};

// How regularize merges vertices: Δ, the number k of groups per side, each vertex's group, and how many copies each
// group lacks of Δ (what the dummy edges fill). Degrees are summed once for both sides.
struct regular_plan {
  std::uint64_t delta = 0;
  std::uint32_t k = 0;
  std::vector<std::uint32_t> left_group, right_group;
  std::vector<std::uint64_t> left_deficit, right_deficit;
};

regular_plan plan_regular(const bipartite_multigraph& graph, const char* who) {
  regular_plan plan;
  if (graph.edges.size() >= no_edge) throw std::invalid_argument(std::string(who) + ": too many edges");
  std::vector<std::uint64_t> left_degree(graph.left_vertices, 0), right_degree(graph.right_vertices, 0);
  for (const bipartite_edge& e : graph.edges) {
    if (e.left >= graph.left_vertices || e.right >= graph.right_vertices)
      throw std::invalid_argument(std::string(who) + ": vertex out of range");
    left_degree[e.left] += e.multiplicity, right_degree[e.right] += e.multiplicity;
  }
  for (const auto* degrees : {&left_degree, &right_degree})
    for (std::uint64_t x : *degrees) plan.delta = std::max(plan.delta, x);
  if (plan.delta == 0) return plan;
  if (plan.delta > (std::uint64_t{1} << 40)) throw std::invalid_argument(std::string(who) + ": Δ above 2^40");
  auto group = [&](const std::vector<std::uint64_t>& degree, std::vector<std::uint32_t>& group_of,
                   std::vector<std::uint64_t>& filled_of) {
    group_of.assign(degree.size(), 0);
    std::uint32_t groups = 0;
    std::uint64_t filled = plan.delta;  // forces a first group
    for (std::uint32_t x = 0; x < degree.size(); ++x) {
      if (degree[x] == 0) continue;
      if (filled + degree[x] > plan.delta) {
        ++groups;
        filled = 0;
        filled_of.push_back(0);
      }
      group_of[x] = groups - 1;
      filled += degree[x];
      filled_of.back() += degree[x];
    }
    return groups;
  };
  std::vector<std::uint64_t> left_filled, right_filled;
  plan.k =
      std::max(group(left_degree, plan.left_group, left_filled), group(right_degree, plan.right_group, right_filled));
  plan.left_deficit.assign(plan.k, plan.delta);
  plan.right_deficit.assign(plan.k, plan.delta);
  for (std::uint32_t g = 0; g < left_filled.size(); ++g) plan.left_deficit[g] -= left_filled[g];
  for (std::uint32_t g = 0; g < right_filled.size(); ++g) plan.right_deficit[g] -= right_filled[g];
  return plan;
}

// The dummy edges that fill the deficits (both sides miss the same total, k·Δ − E): add(u, v, copies) for each.
template <class Add>
void fill_deficits(std::vector<std::uint64_t> left_deficit, std::vector<std::uint64_t> right_deficit, std::uint32_t k,
                   Add add) {
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
    add(u, v, m);
    left_deficit[u] -= m;
    right_deficit[v] -= m;
  }
}

regular_graph regularize(const bipartite_multigraph& graph, const regular_plan& plan) {
  regular_graph out;
  out.delta = plan.delta;
  if (plan.delta == 0) return out;
  out.k = plan.k;
  for (std::uint32_t i = 0; i < graph.edges.size(); ++i) {
    const bipartite_edge& e = graph.edges[i];
    if (e.multiplicity != 0)
      out.entries.push_back({plan.left_group[e.left], plan.right_group[e.right], e.multiplicity, i});
  }
  fill_deficits(plan.left_deficit, plan.right_deficit, plan.k, [&](std::uint32_t u, std::uint32_t v, std::uint64_t m) {
    out.entries.push_back({u, v, m, no_edge});
  });
  return out;
}

// Augments `match_left`/`match_right` (entry indices, no_edge when free) along a shortest alternating path from the
// free left vertex `root`, using only entries with positive multiplicity. Returns false if there is none.
// `reached_by[v]` is valid where `seen_right[v] == stamp`: the entry by which right vertex v was first reached.
bool augment(const std::vector<entry>& graph, const std::vector<std::vector<std::uint32_t>>& adjacency,
             std::uint32_t root, std::vector<std::uint32_t>& match_left, std::vector<std::uint32_t>& match_right,
             std::vector<std::uint32_t>& seen_right, std::vector<std::uint32_t>& reached_by, std::uint32_t stamp) {
  std::vector<std::uint32_t> queue{root};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    for (std::uint32_t i : adjacency[queue[head]]) {
      if (graph[i].mult == 0) continue;
      const std::uint32_t v = graph[i].v;
      if (seen_right[v] == stamp) continue;
      seen_right[v] = stamp;
      reached_by[v] = i;
      if (match_right[v] != no_edge) {
        queue.push_back(graph[match_right[v]].u);
        continue;
      }
      // Flip the path: entry e = (u, v) joins the matching; u's old entry leaves, and its right end is re-covered by
      // the entry that reached it, up to the root (which was free).
      for (std::uint32_t e = i;;) {
        const std::uint32_t u = graph[e].u, previous = match_left[u];
        match_left[u] = e;
        match_right[graph[e].v] = e;
        if (previous == no_edge) return true;
        e = reached_by[graph[previous].v];
      }
    }
  }
  return false;
}

// The regular graph of `plan` as unit copies in left-major order (regular_unit_colouring.hpp), built straight from
// the input, when they are not many more than its edges (at most 8 per edge, so memory stays proportional to the
// input) and fewer than 2^30; otherwise nullopt, and the multiplicity form does the work.
std::optional<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> unit_copies(
    const bipartite_multigraph& graph, const regular_plan& plan) {
  const std::uint64_t copies = static_cast<std::uint64_t>(plan.k) * plan.delta;
  if (copies >= (std::uint64_t{1} << 30) || copies > 8 * graph.edges.size() + 1024) return std::nullopt;
  std::vector<std::uint32_t> right(copies), ref(copies);
  std::vector<std::uint64_t> cursor(plan.k);
  for (std::uint32_t u = 0; u < plan.k; ++u) cursor[u] = static_cast<std::uint64_t>(u) * plan.delta;
  auto add = [&](std::uint32_t u, std::uint32_t v, std::uint64_t m, std::uint32_t what) {
    for (; m > 0; --m) right[cursor[u]] = v, ref[cursor[u]++] = what;
  };
  for (std::uint32_t i = 0; i < graph.edges.size(); ++i) {
    const bipartite_edge& e = graph.edges[i];
    add(plan.left_group[e.left], plan.right_group[e.right], e.multiplicity, i);
  }
  fill_deficits(plan.left_deficit, plan.right_deficit, plan.k,
                [&](std::uint32_t u, std::uint32_t v, std::uint64_t m) { add(u, v, m, detail::no_ref); });
  return std::pair(std::move(right), std::move(ref));
}

// Δ unit colour classes of `graph`: on unit copies where that layout pays, else on the multiplicities (always for
// Alon's matching and the weighted engine).
std::vector<std::vector<std::size_t>> colour_graph(const bipartite_multigraph& graph, const regular_plan& plan,
                                                   colouring_engine engine) {
  std::vector<std::vector<std::size_t>> classes;
  if (plan.delta == 0) return classes;
  if (engine == colouring_engine::euler_hopcroft_karp)
    if (auto copies = unit_copies(graph, plan)) {
      detail::colour_regular_units(std::move(copies->first), std::move(copies->second), plan.k,
                                   static_cast<std::uint32_t>(plan.delta), classes);
      return classes;
    }
  regular_graph regular = regularize(graph, plan);
  color(std::move(regular.entries), regular.k, regular.delta, classes,
        engine == colouring_engine::alon ? colouring_engine::alon : colouring_engine::euler_hopcroft_karp);
  return classes;
}

}  // namespace

std::vector<std::vector<std::size_t>> color_bipartite_edges(const bipartite_multigraph& graph,
                                                            colouring_engine engine) {
  return colour_graph(graph, plan_regular(graph, "color_bipartite_edges"), engine);
}

std::vector<weighted_matching> decompose_bipartite_edges(const bipartite_multigraph& graph, decomposition method) {
  const regular_plan plan = plan_regular(graph, "decompose_bipartite_edges");
  regular_graph regular = regularize(graph, plan);
  if (regular.delta == 0) return {};
  std::vector<weighted_matching> out;
  if (method == decomposition::automatic)
    method = regular.delta <= regular.entries.size() ? decomposition::unit_colouring : decomposition::matching_peeling;
  if (method == decomposition::unit_colouring) {
    regular = {};
    for (auto& c : colour_graph(graph, plan, colouring_engine::euler_hopcroft_karp)) out.push_back({std::move(c), 1});
    return out;
  }
  // Peeling: a perfect matching of the regular graph's support, taken with the least multiplicity on it; what is
  // left is again regular, and at least one entry drops to zero, so there are at most |entries| rounds. The matching
  // is repaired by one augmenting path per vertex that lost its entry: O(|entries|) per path.
  std::vector<entry>& g = regular.entries;
  const std::uint32_t k = regular.k;
  std::vector<std::vector<std::uint32_t>> adjacency(k);
  for (std::uint32_t i = 0; i < g.size(); ++i) adjacency[g[i].u].push_back(i);
  std::vector<std::uint32_t> match_left(k, no_edge), match_right(k, no_edge), seen(k, 0), reached_by(k, no_edge);
  {
    const std::vector<std::uint32_t> first = hopcroft_karp_perfect(g, k);
    for (std::uint32_t u = 0; u < k; ++u) match_left[u] = first[u], match_right[g[first[u]].v] = first[u];
  }
  std::uint32_t stamp = 0;
  for (std::uint64_t remaining = regular.delta; remaining > 0;) {
    std::uint64_t w = remaining;
    for (std::uint32_t u = 0; u < k; ++u) w = std::min(w, g[match_left[u]].mult);
    weighted_matching m{{}, w};
    for (std::uint32_t u = 0; u < k; ++u)
      if (g[match_left[u]].ref != no_edge) m.edges.push_back(g[match_left[u]].ref);
    out.push_back(std::move(m));
    remaining -= w;
    if (remaining == 0) break;
    std::vector<std::uint32_t> free_left;
    for (std::uint32_t u = 0; u < k; ++u) {
      entry& e = g[match_left[u]];
      e.mult -= w;
      if (e.mult == 0) {
        match_right[e.v] = no_edge;
        match_left[u] = no_edge;
        free_left.push_back(u);
      }
    }
    for (std::uint32_t u : free_left) {
      if (++stamp == 0) std::fill(seen.begin(), seen.end(), 0), stamp = 1;
      if (!augment(g, adjacency, u, match_left, match_right, seen, reached_by, stamp))
        throw std::logic_error("decompose_bipartite_edges: a regular bipartite graph without a perfect matching");
    }
  }
  return out;
}

}  // namespace dancecard::hrel
