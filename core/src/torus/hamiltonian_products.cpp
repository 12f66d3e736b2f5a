// Hamilton decompositions of d-dimensional tori (Meyer and Sibeyn, Section 3.4): products of 2-D decompositions, Park's
// explicit rule for cubes m x m x m, and the layered construction (one dimension at a time) for the rest.
#include "dancecard/core/torus/cycles.hpp"

#include "cycles_detail.hpp"
#include "dancecard/core/common/cyclic_order.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace dancecard::torus {

using namespace cycles_detail;

namespace {

std::uint32_t cube_direction(std::uint32_t colour, std::uint64_t m, std::uint64_t i, std::uint64_t j, std::uint64_t k) {
  using triple = std::array<std::uint32_t, 3>;
  const std::uint64_t S = (i + j + k) % m;
  triple t{0, 1, 2};
  if (m % 2 == 1) {
    if (S == 0)
      t = k != 0 ? triple{1, 2, 0} : triple{0, 2, 1};
    else if (S == 1)
      t = k != 0 ? triple{2, 1, 0} : triple{2, 0, 1};
    return t[colour];
  }
  if (S == 1)
    t = i == 0 ? triple{1, 0, 2} : triple{2, 0, 1};
  else if (S == 2)
    t = j == 0 ? triple{2, 1, 0} : triple{0, 1, 2};
  else if (S == 0) {
    const bool case_two = m % 6 == 4;
    const std::uint64_t from = case_two ? 2 : 1;  // the tracks j = 1 and k = 0 start one later in Case II
    const bool t102 = (i == 0 && j == 0 && k == 0) || (j == 1 && i >= from && i <= m - 3 && k == m - 1 - i) ||
                      (i == m - 1 && j == 2 && k == m - 1);
    const bool t021 = (i == 0 && j == 1 && k == m - 1) || (k == 0 && i >= from && i <= m - 3 && j == m - i) ||
                      (i == m - 1 && j == 0 && k == 1);
    const bool t210 = (i == 0 && j >= 2) || (i == 1 && j == 0 && k == m - 1) ||
                      (case_two && ((i == 1 && j >= 2 && j <= m - 2) || (i == 2 && j == 0 && k == m - 2) ||
                                    (i == 2 && j == m - 1 && k == m - 1)));
    const bool t012 = (i == m - 2 && j == 1 && k == 1) || (case_two && i == 1 && j == 1 && k == m - 2);
    const bool t201 = (i == m - 2 && j == 2 && k == 0) || (case_two && i == 1 && j == m - 1 && k == 0);
    if (t102)
      t = {1, 0, 2};
    else if (t021)
      t = {0, 2, 1};
    else if (t210)
      t = {2, 1, 0};
    else if (t012)
      t = {0, 1, 2};
    else if (t201)
      t = {2, 0, 1};
    else
      t = {1, 2, 0};
  }
  return t[colour];
}

// The three Hamiltonian cycles of the m × m × m torus (m >= 3, m != 4) by cube_direction, as sequences of indices
// (i·m + j)·m + k, each walked from (0, 0, 0) and required to visit all m³ PUs.
std::array<std::vector<std::uint64_t>, 3> cube_3d(std::uint64_t m) {
  if (m < 3 || m == 4)
    throw std::invalid_argument(
        "the explicit 3-D construction (Park 2026) covers m x m x m cubes with m >= 3 and m != 4, got m = " +
        std::to_string(m));
  std::array<std::vector<std::uint64_t>, 3> out;
  for (std::uint32_t c = 0; c < 3; ++c) {
    std::uint64_t x[3] = {0, 0, 0};
    do {
      out[c].push_back((x[0] * m + x[1]) * m + x[2]);
      const std::uint32_t dir = cube_direction(c, m, x[0], x[1], x[2]);
      x[dir] = (x[dir] + 1) % m;
    } while ((x[0] != 0 || x[1] != 0 || x[2] != 0) && out[c].size() <= m * m * m);
    if (out[c].size() != m * m * m)
      throw std::logic_error("explicit 3-D decomposition of " + std::to_string(m) + "^3: colour " + std::to_string(c) +
                             " is not a Hamiltonian cycle");
  }
  return out;
}

// Hamilton decomposition of the torus with the given dims (count 1, 2, 3, 4, 6 or 8; every 3-D factor an m × m × m cube
// with m >= 3, m != 4; every 2-D factor both even or both sizes >= 3): per cycle the sequence of
// mixed-radix PU indices (row-major over dims).
std::vector<std::vector<std::uint64_t>> decompose(const std::vector<std::uint32_t>& dims) {
  if (dims.size() == 1) {
    std::vector<std::uint64_t> cycle(dims[0]);
    for (std::uint64_t i = 0; i < dims[0]; ++i) cycle[i] = i;
    return {cycle};
  }
  if (dims.size() == 3) {
    if (dims[0] != dims[1] || dims[1] != dims[2])
      throw std::invalid_argument(
          "a 3-D factor must be a cube m x m x m (the explicit construction of Park 2026), got " +
          std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]));
    const auto cube = cube_3d(dims[0]);
    return {cube.begin(), cube.end()};
  }
  const std::size_t half = dims.size() / 2;
  const std::vector<std::uint32_t> left(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(half));
  const std::vector<std::uint32_t> right(dims.begin() + static_cast<std::ptrdiff_t>(half), dims.end());
  const auto h = decompose(left), k = decompose(right);
  std::uint64_t size_right = 1;
  for (std::uint32_t x : right) size_right *= x;
  const std::uint64_t size_left = h[0].size();
  std::vector<std::vector<std::uint64_t>> out;
  for (std::size_t i = 0; i < h.size(); ++i) {
    // H_i □ K_i ≅ the size_left × size_right torus: (s, t) ↦ (h_i[s], k_i[t]).
    for (const auto& cycle : decompose_2d(size_left, size_right)) {
      std::vector<std::uint64_t> mapped;
      mapped.reserve(cycle.size());
      for (std::uint64_t v : cycle) mapped.push_back(h[i][v / size_right] * size_right + k[i][v % size_right]);
      out.push_back(std::move(mapped));
    }
  }
  return out;
}

// One more dimension (Section 3.4 for any torus with an odd size; the scheme of Aubert and Schneider, "Décomposition
// de la somme cartésienne d'un cycle et de l'union de deux cycles hamiltoniens en cycles hamiltoniens", Discrete Math.
// 38 (1982): if G is the union of Hamiltonian cycles H_1 … H_k, so is G □ C_n with k + 1). Vertices (v, z) of
// G □ C_n are numbered v·n + z (z the new coordinate). Classes 0 and 1: the m × n torus H_1 □ C_n (position along H_1,
// level z) split into the two Hamiltonian cycles of `frame` (the square switches', or a scrambled one). Class j + 1 (j
// = 1 … k − 1) starts as the n layer copies of H_{j+1} and is merged into one cycle by squares (u, z), (v, z), (v, z +
// 1), (u, z + 1) with uv an edge of H_{j+1} and both vertical edges in one finished class c: the switch gives c the two
// copies of uv and class j + 1 the two vertical edges, which joins layers z and z + 1 of class j + 1 (different cycles
// of it) and, for c, is a 2-opt move — c stays one cycle exactly when it runs both vertical edges the same way (up or
// down). Levels are taken greedily: the first (level, edge of H_{j+1}) in order whose square qualifies and keeps c one
// cycle. Deterministic, and every class is walked after each change and must be one Hamiltonian cycle (std::logic_error
// otherwise); nothing when no square qualifies (stuck). The caller orders the sizes odd ones first, so that G is not
// bipartite from the second step on. With every size even and the square switches' frame the greedy gets stuck: G is
// bipartite and n even, every join of two cycles by a square runs its two parallel edges opposite ways, and the frame's
// classes are built by joins along H_1's edges (which link the two colours), so a class runs all its vertical edges at
// one level the same way relative to the colouring and no square on an edge of H_{j+1} (which links the colours too)
// keeps c one cycle; splitting c and rejoining it takes two squares, and n − 1 is odd. A scrambled frame
// (scrambled_frame) has 2-opt moves of its own, which break that alternation: decompose_layered tries those.
// A cycle's order after a move that took the edges `lost` out of it and put `gained` in (a k-opt move): the lost edge
// from position t to t + 1 cuts the old order at t, the cuts split it into arcs, and the gained edges join arc ends;
// the arcs are followed along the joins (forward or backward) from arc 0 and must make one cycle through all of them
// (std::logic_error, prefixed by `what`, otherwise). cyclic_order::rearrange then relinks them in O(k log N).
void relink_order(cyclic_order& order, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& lost,
                  const std::vector<std::pair<std::uint64_t, std::uint64_t>>& gained, const std::string& what) {
  const std::uint64_t N = order.size();
  struct cut {
    std::uint64_t t, before, after;  // the edge from `before` at position t to `after` at t + 1
  };
  std::vector<cut> cuts;
  for (const auto& [u, v] : lost) {
    const std::uint64_t pu = order.position(u), pv = order.position(v);
    if (pv == (pu + 1) % N)
      cuts.push_back({pu, u, v});
    else if (pu == (pv + 1) % N)
      cuts.push_back({pv, v, u});
    else
      throw std::logic_error(what + ": a lost edge was not on the cycle's order");
  }
  if (cuts.empty()) return;
  std::sort(cuts.begin(), cuts.end(), [](const cut& x, const cut& y) { return x.t < y.t; });
  const std::size_t k = cuts.size();
  // arc i: positions cuts[i].t + 1 … cuts[i + 1].t (cyclically), from vertex cuts[i].after to cuts[i + 1].before
  auto start_of = [&](std::size_t i) { return cuts[i].after; };
  auto end_of = [&](std::size_t i) { return cuts[(i + 1) % k].before; };
  std::vector<char> used(gained.size(), 0), visited(k, 0);
  std::vector<std::pair<std::size_t, bool>> route;
  std::size_t arc = 0;
  bool forward = true;
  for (std::size_t step = 0; step < k; ++step) {
    if (visited[arc]) throw std::logic_error(what + ": a move left a cycle that is not one cycle");
    visited[arc] = 1;
    route.push_back({arc, forward});
    const std::uint64_t b = forward ? end_of(arc) : start_of(arc);  // leave by an unused join at the arc's far end
    std::size_t j = 0;
    while (j < gained.size() && (used[j] || (gained[j].first != b && gained[j].second != b))) ++j;
    if (j == gained.size()) throw std::logic_error(what + ": an arc end without a join");
    used[j] = 1;
    const std::uint64_t to = gained[j].first == b ? gained[j].second : gained[j].first;
    std::size_t next = 0;
    while (next < k && start_of(next) != to && end_of(next) != to) ++next;
    if (next == k) throw std::logic_error(what + ": a join inside an arc");
    arc = next, forward = start_of(next) == to;
  }
  if (arc != 0 || !forward) throw std::logic_error(what + ": a move left a cycle that is not one cycle");
  std::vector<std::uint64_t> at(k);
  for (std::size_t i = 0; i < k; ++i) at[i] = cuts[i].t;
  order.rearrange(at, route);
}

// The work of the layered construction's searches in vertex visits (walks, scans, position queries): the all-even
// steps stop when it passes `limit` (a count, so deterministic, unlike a clock).
struct work_meter {
  std::uint64_t used = 0, limit = std::numeric_limits<std::uint64_t>::max();
  bool spent() const { return used > limit; }
};

std::optional<std::vector<std::vector<std::uint64_t>>> add_dimension(
    const std::vector<std::vector<std::uint64_t>>& g, std::uint64_t n,
    const std::array<std::vector<std::uint64_t>, 2>& frame, work_meter& meter) {
  const std::uint64_t m = g[0].size(), N = m * n;
  const std::size_t k = g.size();
  // Edges: vertical (v, z)–(v, z + 1) has id v·n + z; edge i of H_{j+1} (from g[j][i] to g[j][i + 1]) at level z has
  // id N + (j·m + i)·n + z.
  auto vertical_id = [&](std::uint64_t v, std::uint64_t z) { return v * n + z % n; };
  auto layer_id = [&](std::size_t j, std::uint64_t i, std::uint64_t z) { return N + (j * m + i % m) * n + z % n; };
  std::vector<std::uint8_t> colour(N * (k + 1));
  std::vector<std::vector<std::uint64_t>> at(k, std::vector<std::uint64_t>(m));  // at[j][v]: position of v on H_{j+1}
  for (std::size_t j = 0; j < k; ++j)
    for (std::uint64_t i = 0; i < m; ++i) at[j][g[j][i]] = i;
  // frame: two Hamiltonian cycles of the m × n torus, as frame indices s·n + z (position s along H_1, level z)
  for (std::uint8_t c = 0; c < 2; ++c)
    for (std::size_t t = 0; t < frame[c].size(); ++t) {
      const std::uint64_t a = frame[c][t], b = frame[c][(t + 1) % frame[c].size()];
      const std::uint64_t sa = a / n, za = a % n, sb = b / n, zb = b % n;
      if (sa == sb)
        colour[vertical_id(g[0][sa], (zb == (za + 1) % n) ? za : zb)] = c;
      else
        colour[layer_id(0, (sb == (sa + 1) % m) ? sa : sb, za)] = c;
    }
  for (std::size_t j = 1; j < k; ++j)
    for (std::uint64_t e = 0; e < m * n; ++e) colour[N + j * m * n + e] = static_cast<std::uint8_t>(j + 1);
  // The other end of each edge of class c at vertex w = (v, z), and the walk of a class from vertex 0.
  auto neighbours = [&](std::uint64_t w, std::uint8_t c, std::uint64_t out[2]) {
    const std::uint64_t v = w / n, z = w % n;
    int found = 0;
    if (colour[vertical_id(v, z)] == c) out[found++] = v * n + (z + 1) % n;
    if (colour[vertical_id(v, z + n - 1)] == c && found < 2) out[found++] = v * n + (z + n - 1) % n;
    for (std::size_t j = 0; j < k && found < 2; ++j) {
      const std::uint64_t i = at[j][v];
      if (colour[layer_id(j, i, z)] == c) out[found++] = g[j][(i + 1) % m] * n + z;
      if (found < 2 && colour[layer_id(j, i + m - 1, z)] == c) out[found++] = g[j][(i + m - 1) % m] * n + z;
    }
    if (found != 2) throw std::logic_error("layered Hamilton decomposition: a vertex without two edges of its class");
  };
  auto walk = [&](std::uint8_t c) {
    std::vector<std::uint64_t> sequence;
    std::uint64_t w = 0, previous = N;
    do {
      sequence.push_back(w);
      std::uint64_t next[2];
      neighbours(w, c, next);
      const std::uint64_t to = next[0] != previous ? next[0] : next[1];
      previous = w, w = to;
    } while (w != 0 && sequence.size() <= N);
    return sequence;
  };
  // The finished classes' orders and every vertex's position on them: walked when the class is finished, then each
  // join's 2-opt move made on the arrays (two_opt).
  std::vector<std::vector<std::uint64_t>> order(k + 1), position(k + 1);
  auto finish = [&](std::uint8_t c) {
    meter.used += N;
    order[c] = walk(c);
    if (order[c].size() != N) return false;
    position[c].assign(N, 0);
    for (std::uint64_t t = 0; t < N; ++t) position[c][order[c][t]] = t;
    return true;
  };
  // Class c loses the edges {x0, x1} and {y0, y1}, which it runs the same way, and gains {x0, y0} and {x1, y1}: the
  // stretch between the lost edges is reversed — or the rest of the cycle, whichever is shorter (the same cycle, the
  // other way round) — so a join costs at most N / 2 instead of a walk of N.
  auto two_opt = [&](std::uint8_t c, std::uint64_t x0, std::uint64_t x1, std::uint64_t y0, std::uint64_t y1) {
    std::vector<std::uint64_t>& o = order[c];
    std::vector<std::uint64_t>& p = position[c];
    auto leaves = [&](std::uint64_t a, std::uint64_t b) {  // t: the edge runs between positions t and t + 1
      if (p[b] == (p[a] + 1) % N) return p[a];
      if (p[a] == (p[b] + 1) % N) return p[b];
      throw std::logic_error("layered Hamilton decomposition: a lost edge was not on its class's cycle");
    };
    std::uint64_t t1 = leaves(x0, x1), t2 = leaves(y0, y1);
    if (t1 > t2) std::swap(t1, t2);
    const std::uint64_t inner = t2 - t1, start = inner <= N - inner ? t1 + 1 : t2 + 1,
                        length = std::min(inner, N - inner);
    for (std::uint64_t i = 0; i < length / 2; ++i) {
      const std::uint64_t a = (start + i) % N, b = (start + length - 1 - i) % N;
      std::swap(o[a], o[b]);
      p[o[a]] = a, p[o[b]] = b;
    }
    meter.used += length;
    auto adjacent = [&](std::uint64_t a, std::uint64_t b) { return p[b] == (p[a] + 1) % N || p[a] == (p[b] + 1) % N; };
    if (!adjacent(x0, y0) || !adjacent(x1, y1))
      throw std::logic_error("layered Hamilton decomposition: a 2-opt move split a cycle");
  };
  if (!finish(0) || !finish(1))
    throw std::logic_error("layered Hamilton decomposition: the square switches of H_1 x C_n are not Hamiltonian");
  for (std::size_t j = 1; j < k; ++j) {
    const auto q = static_cast<std::uint8_t>(j + 1);
    std::vector<std::uint64_t> layer_set(n);  // union-find over levels: which layers of class q are joined
    for (std::uint64_t z = 0; z < n; ++z) layer_set[z] = z;
    auto root = [&](std::uint64_t z) {
      while (layer_set[z] != z) z = layer_set[z] = layer_set[layer_set[z]];
      return z;
    };
    struct square {
      std::uint64_t z, i;
      std::uint8_t c;
    };
    auto flip = [&](const square& s, bool to_layers) {  // to_layers: the vertical edges go to class q
      const std::uint64_t u = g[j][s.i], v = g[j][(s.i + 1) % m];
      colour[vertical_id(u, s.z)] = colour[vertical_id(v, s.z)] = to_layers ? q : s.c;
      colour[layer_id(j, s.i, s.z)] = colour[layer_id(j, s.i, s.z + 1)] = to_layers ? s.c : q;
    };
    auto join = [&](std::uint64_t z) { layer_set[root(z)] = root((z + 1) % n); };
    auto same_way = [&](const square& s) {
      const std::uint64_t u = g[j][s.i], v = g[j][(s.i + 1) % m];
      const std::vector<std::uint64_t>& p = position[s.c];
      const bool up_u = (p[u * n + (s.z + 1) % n] + N - p[u * n + s.z]) % N == 1,
                 up_v = (p[v * n + (s.z + 1) % n] + N - p[v * n + s.z]) % N == 1;
      return up_u == up_v;
    };
    for (std::uint64_t joined = 0; joined + 1 < n;) {
      if (meter.spent()) return std::nullopt;  // the caller refuses, naming the budget
      // The first square in order (level z, then edge i of H_{j+1}) at a level that still joins two layers, whose
      // vertical edges share a finished class c that runs both the same way; the scan stops there.
      std::optional<square> found;
      for (std::uint64_t z = 0; z < n && !found; ++z) {
        ++meter.used;
        if (root(z) == root((z + 1) % n)) continue;
        for (std::uint64_t i = 0; i < m && !found; ++i) {
          ++meter.used;
          const std::uint64_t u = g[j][i], v = g[j][(i + 1) % m];
          const std::uint8_t c = colour[vertical_id(u, z)];
          if (c >= q || colour[vertical_id(v, z)] != c || colour[layer_id(j, i, z)] != q ||
              colour[layer_id(j, i, z + 1)] != q)
            continue;
          if (same_way({z, i, c})) found = square{z, i, c};
        }
      }
      if (!found) return std::nullopt;  // stuck: no square joins another layer (the caller may try another frame)
      const square& s = *found;
      flip(s, true), join(s.z), ++joined;
      const std::uint64_t u = g[j][s.i] * n, v = g[j][(s.i + 1) % m] * n, z0 = s.z, z1 = (s.z + 1) % n;
      two_opt(s.c, u + z0, u + z1, v + z0, v + z1);
    }
    if (!finish(q))
      throw std::logic_error("layered Hamilton decomposition: class " + std::to_string(q) +
                             " is not one Hamiltonian cycle");
  }
  // every class walked after its last change, and found one Hamiltonian cycle
  std::vector<std::vector<std::uint64_t>> cycles(k + 1);
  for (std::uint8_t c = 0; c <= k; ++c) {
    meter.used += N;
    cycles[c] = walk(c);
    if (cycles[c].size() != N)
      throw std::logic_error("layered Hamilton decomposition: class " + std::to_string(c) +
                             " is not one Hamiltonian cycle");
  }
  return cycles;
}

// A frame for the all-even steps: the square switches' frame of the m × n torus (frame index s·n + z), changed by
// `moves` random double switches (seeded): a square switch that splits both classes, then one that joins both
// again (both stay Hamiltonian), or a single switch that keeps both one cycle.
std::optional<std::array<std::vector<std::uint64_t>, 2>> scrambled_frame(std::uint64_t m, std::uint64_t n,
                                                                         std::uint64_t seed, std::uint64_t moves,
                                                                         work_meter& meter) {
  const std::uint64_t N = m * n;
  // the frame's vertex s·n + z: row s (position along H_1), column z (level)
  bool transposed = false;
  edge_colouring g = square_switch_frame(m, n, transposed);
  if (transposed) g = g.transposed();
  // colour of the edge (s, z)–(s + 1, z) (along H_1) and of (s, z)–(s, z + 1) (a level up)
  std::vector<std::uint8_t>& along = g.down;
  std::vector<std::uint8_t>& up = g.right;
  // Between moves each class is one Hamiltonian cycle, held as its cyclic order (positions in O(log N), a move's
  // arcs relinked in O(log N)).
  std::vector<cyclic_order> order;
  for (std::uint8_t c = 0; c < 2; ++c) {
    const std::vector<std::uint64_t> walked = g.walk(c);
    if (walked.size() != N) throw std::logic_error("scrambled frame: the square switches' frame is not Hamiltonian");
    order.emplace_back(walked);
    meter.used += N;
  }
  // The four edges of square q = (s, z): along (s, z) and along (s, z + 1) (one class), up (s, z) and up (s + 1, z)
  // (the other), as the colour slot and its two ends.
  struct slot {
    std::uint8_t* colour;
    std::uint64_t u, v;
  };
  auto edges = [&](std::uint64_t q) {
    const std::uint64_t s = q / n, z = q % n, s1 = ((s + 1) % m) * n, z1 = (z + 1) % n;
    return std::array<slot, 4>{slot{&along[q], q, s1 + z}, slot{&along[s * n + z1], s * n + z1, s1 + z1},
                               slot{&up[q], q, s * n + z1}, slot{&up[s1 + z], s1 + z, s1 + z1}};
  };
  auto switchable = [&](std::uint64_t q) {
    const auto e = edges(q);
    return *e[0].colour == *e[1].colour && *e[2].colour == *e[3].colour && *e[0].colour != *e[2].colour;
  };
  auto flip = [&](std::uint64_t q) {
    const auto e = edges(q);
    const std::uint8_t a = *e[0].colour, b = *e[2].colour;
    *e[0].colour = *e[1].colour = b, *e[2].colour = *e[3].colour = a;
  };
  // A switch is a 2-opt move on each class: it loses the edges {x0, x1}, {y0, y1} and gains {x0, y0}, {x1, y1}. The
  // class stays one cycle when it runs both lost edges the same way (x0 → x1 and y0 → y1, or both backward);
  // otherwise it falls into two arcs of its order, and the positions (lo, hi] form one of them (`cut`; `inside` is the
  // vertex at lo + 1, `outside` the one at lo).
  struct arc_cut {
    std::uint64_t lo = 0, hi = 0, inside = 0, outside = 0;
  };
  std::array<arc_cut, 2> cut;
  auto stays_one = [&](std::uint8_t c, std::uint64_t x0, std::uint64_t x1, std::uint64_t y0, std::uint64_t y1) {
    const std::uint64_t px0 = order[c].position(x0), px1 = order[c].position(x1), py0 = order[c].position(y0),
                        py1 = order[c].position(y1);
    const bool x_forward = px1 == (px0 + 1) % N, y_forward = py1 == (py0 + 1) % N;
    const std::uint64_t tx = x_forward ? px0 : px1, ty = y_forward ? py0 : py1;  // where each lost edge leaves
    const bool x_first = tx < ty;  // the lost edge that leaves at lo: x's or y's
    const std::uint64_t before = x_first ? (x_forward ? x0 : x1) : (y_forward ? y0 : y1),
                        after = x_first ? (x_forward ? x1 : x0) : (y_forward ? y1 : y0);
    cut[c] = {std::min(tx, ty), std::max(tx, ty), after, before};
    return x_forward == y_forward;
  };
  auto piece = [&](std::uint8_t c, std::uint64_t v) {
    const std::uint64_t t = order[c].position(v);
    return t > cut[c].lo && t <= cut[c].hi;
  };
  std::vector<std::uint8_t> marked(N, 0);  // scratch of the double switches' search below
  // After a kept move: class c's new order from its old one (relink_order): the slots whose colour left c are its lost
  // edges, the slots that took colour c its gained ones.
  auto relink = [&](std::uint8_t c,
                    const std::vector<std::pair<slot, std::uint8_t>>& changed) {  // (slot, colour before)
    std::vector<std::pair<std::uint64_t, std::uint64_t>> lost, gained;
    for (const auto& [e, before] : changed) {
      if (before == c && *e.colour != c) lost.push_back({e.u, e.v});
      if (before != c && *e.colour == c) gained.push_back({e.u, e.v});
    }
    relink_order(order[c], lost, gained, "scrambled frame");
  };
  std::mt19937_64 random(seed);
  for (std::uint64_t done = 0, tries = 0; done < moves && tries < 64 * moves; ++tries) {
    meter.used += 8;  // the position queries of a try
    if (meter.spent()) return std::nullopt;
    const std::uint64_t q = random() % N;
    if (!switchable(q)) continue;
    const auto eq = edges(q);
    // q's along-edges' class trades them for its up-edges, the other class the other way round
    const std::uint8_t a = *eq[0].colour, b = *eq[2].colour;
    const bool one_a = stays_one(a, eq[0].u, eq[0].v, eq[1].u, eq[1].v),
               one_b = stays_one(b, eq[2].u, eq[2].v, eq[3].u, eq[3].v);
    if (one_a != one_b) continue;  // one class would split and the other not: not tried
    std::vector<std::pair<slot, std::uint8_t>> changed;
    for (const slot& e : eq) changed.push_back({e, *e.colour});
    flip(q);
    bool kept = one_a;
    if (!kept) {  // both split: a second switch whose edges cross both cuts joins both again
      // r's along-edges (class along[r]) join its up-edges' ends: r and its neighbour a level up must lie on different
      // arcs of that class; and the other way round for up[r]. The first such r from `from` on (cyclically) is taken.
      auto joins_both = [&](std::uint64_t r) {
        if (r == q || !switchable(r)) return false;
        const auto er = edges(r);
        return piece(*er[0].colour, er[0].u) != piece(*er[0].colour, er[1].u) &&
               piece(*er[2].colour, er[2].u) != piece(*er[2].colour, er[3].u);
      };
      const std::uint64_t from = random() % N;
      std::uint64_t r = N;
      for (std::uint64_t k = 0; k < std::min<std::uint64_t>(N, 16) && r == N; ++k)
        if (joins_both((from + k) % N)) r = (from + k) % N;
      if (r == N && N > 16) {
        // Not among the first few: such an r has a corner in the smaller arc of either class, so the squares at the
        // vertices of the smallest arc (class c) are tried, the one nearest after `from` winning as in a scan. That arc
        // is one of the two cycles c fell into: walked in the switched colouring and marked, so c's test costs O(1);
        // the other class's test, a position query, is made only for squares that pass c's.
        std::uint8_t c = 0;
        std::uint64_t small = N;
        for (std::uint8_t k = 0; k < 2; ++k) {
          const std::uint64_t inner = cut[k].hi - cut[k].lo;
          if (std::min(inner, N - inner) < small) small = std::min(inner, N - inner), c = k;
        }
        const std::uint64_t start = cut[c].hi - cut[c].lo == small ? cut[c].inside : cut[c].outside;
        std::vector<std::uint64_t> members;
        for (std::uint64_t w = start, previous = N; members.size() <= small;) {
          members.push_back(w);
          marked[w] = 1;
          const std::uint64_t to = g.next(w, c, previous);
          if (to == N) throw std::logic_error("scrambled frame: a vertex without two edges of its class");
          previous = w, w = to;
          if (w == start) break;
        }
        if (members.size() != small)
          throw std::logic_error("scrambled frame: a split class's arc is not the cycle it fell into");
        meter.used += 4 * small;  // the walk, and the squares at its vertices
        auto straddles = [&](std::uint8_t k, std::uint64_t u, std::uint64_t v) {
          return k == c ? marked[u] != marked[v] : piece(k, u) != piece(k, v);
        };
        std::uint64_t nearest = N;  // distance after `from`
        for (std::uint64_t w : members) {
          const std::uint64_t s = w / n, z = w % n;
          for (std::uint64_t x :
               {w, s * n + (z + n - 1) % n, ((s + m - 1) % m) * n + z}) {  // the squares with corner w
            if ((x + N - from) % N >= nearest || x == q || !switchable(x)) continue;
            const auto ex = edges(x);
            const bool along_first = *ex[0].colour == c;  // c's test first
            const std::size_t i = along_first ? 0 : 2, o = along_first ? 2 : 0;
            if (straddles(*ex[i].colour, ex[i].u, ex[i + 1].u) && straddles(*ex[o].colour, ex[o].u, ex[o + 1].u))
              nearest = (x + N - from) % N, r = x;
          }
        }
        for (std::uint64_t w : members) marked[w] = 0;
      }
      if (r != N) {
        const auto er = edges(r);
        for (const slot& e : er)
          if (std::none_of(changed.begin(), changed.end(), [&](const auto& x) { return x.first.colour == e.colour; }))
            changed.push_back({e, *e.colour});
        flip(r);
        kept = true;
      }
    }
    if (!kept) {
      flip(q);  // undo
      continue;
    }
    relink(0, changed), relink(1, changed);
    ++done;
  }
  std::array<std::vector<std::uint64_t>, 2> out;
  for (std::uint8_t c = 0; c < 2; ++c) {
    out[c] = g.walk(c);
    if (out[c].size() != N) throw std::logic_error("scrambled frame: a class is not one Hamiltonian cycle");
  }
  return out;
}

// Section 3.4 by add_dimension for a torus with every size >= 3, one dimension at a time; the cycles mapped back to the
// torus's own PU numbering.
// - With an odd size: the sizes odd ones first (so that G, from the second step on, is not bipartite), and every step
//   takes the square switches' frame (no failure in the sweeps of docs/torus.md).
// - All sizes even: G is bipartite and n even at every step from the third dimension on, and with the square
//   switches' frame the greedy is stuck (see add_dimension). Scrambled frames (scrambled_frame, seeds 1 …
//   searched_frames with 16, 64, 256, … moves) do let it finish in most cases: their double switches (split both
//   classes, join both) reverse long stretches of the classes, which breaks the alternation. The sizes in increasing
//   order first, then decreasing, then any other. Deterministic, every cycle walked, but found by search, not proven;
//   a torus where no order finishes is refused by name. A kept move costs O(log P) for its relinks (cyclic_order) plus
//   the length of the shorter arc a double switch walks; a join of the greedy reverses at most P/2 positions, after a
//   scan of the squares before it. Above budget_free_frame PUs the whole search (every step, frame and order) stops
//   once its work passes layered_work_budget vertex visits (work_meter), so a refusal there is bounded (about two
//   minutes); long thin tori pay most, in their frames' long arcs (4 × 4 × 8,192 finishes within it in about 70 s).
constexpr std::uint64_t searched_frames = 8;  // frames tried per step after the square switches' frame
constexpr std::uint64_t max_searched_frame =
    std::uint64_t{1} << 21;  // PUs: all-even tori above this are refused (see hamiltonian_product_cycles)
constexpr std::uint64_t budget_free_frame =
    32768;  // PUs: up to here every seed and order is tried (the sweeps of docs/torus.md)
constexpr std::uint64_t layered_work_budget = std::uint64_t{1}
                                              << 33;  // vertex visits of the whole search, above budget_free_frame

std::vector<std::vector<std::uint64_t>> decompose_layered(const torus::network& network) {
  const std::vector<std::uint32_t>& dims = network.dims();
  std::vector<std::size_t> order(dims.size());
  for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
  const bool all_even = std::all_of(dims.begin(), dims.end(), [](std::uint32_t x) { return x % 2 == 0; });
  std::vector<std::vector<std::size_t>> orders;
  if (all_even) {  // increasing, decreasing, then every other order of the sizes (each distinct order once)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return dims[a] < dims[b]; });
    std::vector<std::vector<std::uint32_t>> tried;
    auto add = [&](const std::vector<std::size_t>& o) {
      std::vector<std::uint32_t> sizes;
      for (std::size_t a : o) sizes.push_back(dims[a]);
      if (std::find(tried.begin(), tried.end(), sizes) != tried.end()) return;
      tried.push_back(sizes);
      orders.push_back(o);
    };
    add(order);
    add({order.rbegin(), order.rend()});
    std::vector<std::size_t> permuted = order;
    std::sort(permuted.begin(), permuted.end());
    do add(permuted);
    while (std::next_permutation(permuted.begin(), permuted.end()));
  } else {
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return dims[a] % 2 > dims[b] % 2; });
    orders.push_back(order);
  }
  std::string stuck;
  work_meter meter;
  if (all_even && network.size() > budget_free_frame) meter.limit = layered_work_budget;
  for (const std::vector<std::size_t>& in_order : orders) {
    if (meter.spent()) break;
    std::vector<std::vector<std::uint64_t>> cycles;
    {
      std::vector<std::uint64_t> ring(dims[in_order[0]]);
      for (std::uint64_t i = 0; i < ring.size(); ++i) ring[i] = i;
      cycles.push_back(std::move(ring));
    }
    std::uint64_t m = dims[in_order[0]];
    bool finished = true;
    for (std::size_t t = 1; t < in_order.size() && finished; ++t) {
      const std::uint32_t n = dims[in_order[t]];
      auto next = add_dimension(cycles, n, switch_2d(m, n), meter);
      for (std::uint64_t seed = 1; !next && all_even && seed <= searched_frames && !meter.spent(); ++seed) {
        // 16, 64, 256, … moves (at most one per vertex): a few suffice on small frames, 20 x 22 x 24 needs about 256
        const std::uint64_t moves = std::min<std::uint64_t>(m * n, std::uint64_t{16} << (2 * (seed - 1)));
        const auto frame = scrambled_frame(m, n, seed, moves, meter);
        if (frame) next = add_dimension(cycles, n, *frame, meter);
      }
      if (!next) {
        stuck += (stuck.empty() ? "" : "; ") +
                 std::string(meter.spent() ? "the search budget ran out in the step to "
                                           : "no frame joins the layers of the step to ") +
                 std::to_string(m) + " x " + std::to_string(n);
        finished = false;
        break;
      }
      cycles = std::move(*next);
      m *= n;
    }
    if (!finished) continue;
    // index over the sizes in `in_order` (row-major) → coordinates → the torus's index
    std::vector<std::uint32_t> coordinates(dims.size());
    for (auto& cycle : cycles)
      for (std::uint64_t& w : cycle) {
        std::uint64_t rest = w;
        for (std::size_t t = in_order.size(); t-- > 0;) {
          coordinates[in_order[t]] = static_cast<std::uint32_t>(rest % dims[in_order[t]]);
          rest /= dims[in_order[t]];
        }
        w = network.index(coordinates);
      }
    return cycles;
  }
  throw std::invalid_argument(
      "Hamilton decomposition (Section 3.4) of " + network.name() + ": the layered construction is stuck (" + stuck +
      "; the square switches' frame and up to " + std::to_string(searched_frames) + " scrambled frames tried in each" +
      (meter.limit != std::numeric_limits<std::uint64_t>::max()
           ? ", within a budget of 2^33 vertex visits over all steps, frames and orders"
           : "") +
      ")");
}

// The cycle system through the given PU sequences, one cycle each, with the port between consecutive PUs (they must be
// adjacent; with n_j = 2 two ports lead to the same neighbour, and the one no cycle of the system has used yet is
// taken).

}  // namespace

cycle_system hamiltonian_product_cycles(const torus::network& network) {
  const auto d = network.dimension();
  const std::vector<std::uint32_t>& dims = network.dims();
  const bool all_at_least_3 = std::all_of(dims.begin(), dims.end(), [](std::uint32_t x) { return x >= 3; });
  const bool some_odd = std::any_of(dims.begin(), dims.end(), [](std::uint32_t x) { return x % 2 == 1; });
  std::string why;  // why the product construction does not apply
  std::vector<std::vector<std::uint64_t>> sequences;
  std::string construction = d == 3 ? "hamiltonian-cube" : "hamiltonian-product";
  if (d == 5 || d == 7) {  // a torus has 1 to 8 dimensions; these are the counts that halving never brings to 1, 2 or 3
    why = "the product construction needs d = 1, 2, 3, 4, 6 or 8, got d = " + std::to_string(d);
  } else {
    try {
      sequences = decompose(dims);
    } catch (const std::invalid_argument& e) {  // a 2-D factor with a size 2 and an odd one, or a 3-D one not a cube
      why = std::string(e.what()) +
            " (every 2-D factor of the product must have both sizes even or both >= 3; every 3-D factor must be a cube "
            "m x m x m, m >= 3, m != 4)";
    }
  }
  if (!why.empty()) {
    if (!all_at_least_3)
      throw std::invalid_argument("Hamilton decomposition (Section 3.4) of " + network.name() + ": " + why +
                                  "; the layered construction needs every size >= 3");
    // All sizes even: d = 4, 6, 8 by products of 2-D factors (Section 3.1), cubes by Park's rule; the rest (3-D tori
    // not a cube of Park's rule, every 5-D and 7-D torus) by the layered steps on scrambled frames.
    // The scrambled frames' search is budgeted above 32,768 PUs (decompose_layered), and refused above
    // max_searched_frame.
    if (!some_odd && network.size() > max_searched_frame)
      throw std::invalid_argument("Hamilton decomposition (Section 3.4) of " + network.name() + ": " + why +
                                  "; with every size even the layered construction scrambles frames only up to " +
                                  std::to_string(max_searched_frame) + " PUs (P = " + std::to_string(network.size()) +
                                  ")");
    sequences = decompose_layered(network);
    // with every size even the square switches' frame cannot finish (add_dimension), so scrambled frames were used
    construction = some_odd ? "hamiltonian-layered" : "hamiltonian-layered-searched";
  }
  return system_through(network, sequences, std::move(construction));
}

}  // namespace dancecard::torus
