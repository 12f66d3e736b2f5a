// Zigzag cycles (Section 4), Hamilton decompositions by products (Section 3.4) and gossip routing along cycles.
#include "dancecard/core/torus/cycles.hpp"

#include "dancecard/core/common/cyclic_order.hpp"

#include <algorithm>
#include <exception>
#include <array>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace dancecard {

std::vector<std::uint32_t> zigzag_moves(std::uint32_t d, std::uint32_t j) {
  if (d < 2 || j < 1 || j >= d)
    throw std::invalid_argument("zigzag(" + std::to_string(d) + ", " + std::to_string(j) + "): needs 1 <= j < d");
  std::vector<std::uint32_t> moves;
  for (std::uint32_t k = 0; k < d; ++k) {
    if (k > 0) moves.push_back(d);
    moves.push_back(k >= 2 && k <= j ? k : 1);  // the k-th non-x_d move: x_k for 2 <= k <= j, x_1 otherwise
  }
  return moves;
}

std::uint32_t zigzag_type(const std::vector<std::uint32_t>& dims, std::uint64_t lap) {
  const auto d = static_cast<std::uint32_t>(dims.size());
  std::uint32_t type = 1;
  std::uint64_t period = dims[0] / d;  // n_1/d · n_2 ⋯ n_{j−1} for j = 2, 3, …
  for (std::uint32_t j = 2; j < d; ++j) {
    if (lap % period == 0) type = j;
    period *= dims[j - 1];
  }
  return type;
}

std::string zigzag_condition_failure(const torus& network) {
  const std::vector<std::uint32_t>& n = network.dims();
  const auto d = network.dimension();
  if (d < 2) return "zigzag cycles (Section 4): need d >= 2, got the " + network.name() + " torus";
  std::uint64_t sum = 0;  // condition (1): Σ_{j=2}^{d−1} Π_{l=j}^{d−1} n_l ≡ 0 (mod n_1)
  for (std::uint32_t j = 2; j < d; ++j) {
    std::uint64_t product = 1;
    for (std::uint32_t l = j; l < d; ++l) product *= n[l - 1];
    sum += product;
  }
  if (sum % n[0] != 0)
    return "zigzag cycles on " + network.name() + ": condition (1) fails: sum_{j=2}^{d-1} prod_{l=j}^{d-1} n_l = " + std::to_string(sum) +
           " is not a multiple of n_1 = " + std::to_string(n[0]);
  if (n[0] % d != 0)
    return "zigzag cycles on " + network.name() + ": condition (2) fails: n_1 = " + std::to_string(n[0]) + " is not a multiple of d = " + std::to_string(d);
  if (n[d - 1] < d)
    return "zigzag cycles on " + network.name() + ": condition (3) fails: n_d = " + std::to_string(n[d - 1]) + " is below d = " + std::to_string(d);
  return "";
}

cycle_system zigzag_trails(const torus& network) {
  if (const std::string failure = zigzag_condition_failure(network); !failure.empty()) throw std::invalid_argument(failure);
  const std::vector<std::uint32_t>& n = network.dims();
  const auto d = network.dimension();
  std::uint64_t laps = n[0] / d;
  for (std::uint32_t l = 2; l < d; ++l) laps *= n[l - 1];
  std::vector<std::vector<std::uint32_t>> zigzags(d);
  for (std::uint32_t j = 1; j < d; ++j) zigzags[j] = zigzag_moves(d, j);
  cycle_system out{network, {}, "zigzag"};
  for (std::uint32_t c = 0; c < d; ++c) {
    std::vector<std::uint32_t> at(d, 0);
    at[0] = c;
    torus_cycle cycle;
    auto move = [&](std::uint32_t axis) {  // axis 1 … d, positive direction
      const pu_index pu = network.index(at);
      cycle.pus.push_back(pu);
      cycle.ports.push_back(2 * (axis - 1));
      at[axis - 1] = (at[axis - 1] + 1) % n[axis - 1];
    };
    for (std::uint64_t lap = 1; lap <= laps; ++lap) {
      for (std::uint32_t axis : zigzags[zigzag_type(n, lap)]) move(axis);
      for (std::uint32_t k = d - 1; k < n[d - 1]; ++k) move(d);  // n_d − (d − 1) moves along x_d
    }
    if (network.index(at) != cycle.pus.front())
      throw std::logic_error("zigzag cycles on " + network.name() + ": cycle " + std::to_string(c) + " does not close");
    out.cycles.push_back(std::move(cycle));
  }
  return out;
}

cycle_links map_cycle_links(const cycle_system& system) {
  const torus& net = system.network;
  cycle_links out;
  out.ports = net.ports();
  out.owner.assign(static_cast<std::size_t>(net.size()) * out.ports, cycle_links::none);
  for (std::uint32_t c = 0; c < system.cycles.size(); ++c) {
    const torus_cycle& cy = system.cycles[c];
    const std::size_t m = cy.length();
    if (cy.ports.size() != m) throw std::invalid_argument("cycle " + std::to_string(c) + " has " + std::to_string(m) + " PUs but " + std::to_string(cy.ports.size()) + " ports");
    for (std::size_t i = 0; i < m; ++i) {
      const pu_index pu = cy.pus[i];
      const std::uint32_t port = cy.ports[i];
      if (pu >= net.size() || port >= out.ports || net.neighbor(pu, port) != cy.pus[(i + 1) % m])
        throw std::invalid_argument("cycle " + std::to_string(c) + " position " + std::to_string(i) + " is not a link to the next PU");
      // The link leaving pu by port is the link leaving the next PU by the opposite port: both ends are marked, so a
      // pass in either direction finds an earlier one at the end it leaves.
      std::uint32_t& here = out.owner[static_cast<std::size_t>(pu) * out.ports + port];
      if (here != cycle_links::none) {
        out.shared = cycle_links::pass{pu, port, here, c};
        return out;
      }
      here = c;
      out.owner[static_cast<std::size_t>(net.neighbor(pu, port)) * out.ports + torus::opposite(port)] = c;
    }
  }
  return out;
}

namespace {

// n_1 = d or n_1 divides n_2, …, n_{d−2}: where the printed lap rule gives edge-disjoint trails (derived for d = 4,
// swept for d = 5; for d >= 6 a filter only: zigzag_axis_order builds and maps what passes it).
bool lap_rule_divides(const std::vector<std::uint32_t>& n) {
  const auto d = static_cast<std::uint32_t>(n.size());
  if (n[0] == d) return true;
  for (std::uint32_t l = 2; l + 2 <= d; ++l)
    if (n[l - 1] % n[0] != 0) return false;
  return true;
}

cycle_system checked_zigzag_cycles(const torus& network);

}  // namespace

std::optional<std::vector<std::uint32_t>> zigzag_axis_order(const torus& network) {
  if (network.dimension() > 8) throw std::invalid_argument("zigzag_axis_order: at most 8 dimensions, got the " + network.name() + " torus");
  std::vector<std::uint32_t> order = network.dims();
  std::sort(order.begin(), order.end());
  std::vector<std::vector<std::uint32_t>> candidates;
  do {  // every distinct order, lexicographically
    if (zigzag_condition_failure(torus(order)).empty() && lap_rule_divides(order)) candidates.push_back(order);
  } while (std::next_permutation(order.begin(), order.end()));
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) { return a.back() > b.back(); });
  std::optional<std::vector<std::uint32_t>> trails;  // the first order whose cycles pass some PU twice
  for (const std::vector<std::uint32_t>& n : candidates) {
    const torus t(n);
    const cycle_system system = zigzag_trails(t);
    if (map_cycle_links(system).shared) continue;
    bool simple = true;
    std::vector<char> seen(t.size());
    for (const torus_cycle& cycle : system.cycles) {
      std::fill(seen.begin(), seen.end(), 0);
      for (pu_index pu : cycle.pus) simple = simple && !std::exchange(seen[pu], 1);
    }
    if (simple) return n;
    if (!trails) trails = n;
  }
  return trails;
}

cycle_system zigzag_cycles(const torus& network) {
  try {
    return checked_zigzag_cycles(network);
  } catch (const std::invalid_argument& refused) {
    std::string hint;
    if (network.dimension() >= 2 && network.dimension() <= 8)
      if (const std::optional<std::vector<std::uint32_t>> order = zigzag_axis_order(network))
        hint = "; the same sizes in the order " + torus(*order).name() + " give edge-disjoint zigzag cycles";
    throw std::invalid_argument(refused.what() + hint);
  }
}

namespace {

cycle_system checked_zigzag_cycles(const torus& network) {
  cycle_system out = zigzag_trails(network);
  // Section 4.3.3 argues edge-disjointness for every admissible torus; with the printed lap rule it holds only where
  // n_1 = d or n_1 divides n_2, …, n_{d−2} (the lap starts of consecutive layers drift by n_1 − n_2 − 1 columns;
  // docs/torus.md, theorem-book row torus.lap_rule). Every zigzag move is positive, so the pass found leaves the lower
  // end of its link along +x_k.
  if (const std::optional<cycle_links::pass> shared = map_cycle_links(out).shared) {
    std::string where;
    for (std::uint32_t x : network.coordinates(shared->pu)) where.append(where.empty() ? "(" : ",").append(std::to_string(x));
    const std::string link = "the link from PU " + where + ") along +x_" + std::to_string(shared->port / 2 + 1);
    throw std::invalid_argument("zigzag cycles on " + network.name() + ": conditions (1)-(3) hold, but the printed lap rule (Section 4.3.1) makes " +
                                (shared->first == shared->second ? "cycle " + std::to_string(shared->second) + " run over " + link + " twice"
                                                                 : "cycles " + std::to_string(shared->first) + " and " + std::to_string(shared->second) + " both use " + link) +
                                ": Section 4.3.3's edge-disjointness fails on this torus (it holds where n_1 = d or n_1 divides n_2, ..., n_{d-2}; docs/torus.md)");
  }
  return out;
}

// Walks the closed trail that leaves `start` by `port`, following a pairing (what arrives on p leaves by partner[p]).
torus_cycle walk_pairing(const torus& network, const std::vector<std::uint32_t>& partner, pu_index start, std::uint32_t port) {
  torus_cycle cycle;
  pu_index at = start;
  do {
    cycle.pus.push_back(at);
    cycle.ports.push_back(port);
    const pu_index next = network.neighbor(at, port);
    port = partner[next * network.ports() + torus::opposite(port)];
    at = next;
  } while (!(at == start && port == cycle.ports.front()));
  return cycle;
}

std::vector<std::uint32_t> section_3_1_partners(std::uint32_t rows, std::uint32_t cols) {
  std::vector<std::uint32_t> partner(static_cast<std::size_t>(rows) * cols * 4);
  for (std::size_t pu = 0; pu < static_cast<std::size_t>(rows) * cols; ++pu)
    for (std::uint32_t p = 0; p < 4; ++p) partner[pu * 4 + p] = section_3_1_partner(cols, pu % cols, p);
  return partner;
}

// Two Hamiltonian cycles of the rows × cols torus by Section 3.1, as sequences of (row, col) indices row·cols + col.
std::array<std::vector<std::uint64_t>, 2> split_2d(std::uint64_t rows, std::uint64_t cols) {
  // The rules are local; walk them on index arithmetic so that the sizes may exceed what `torus` holds.
  constexpr std::uint32_t B = 0, T = 1, R = 2;
  std::array<std::vector<std::uint64_t>, 2> out;
  for (int c = 0; c < 2; ++c) {
    // cycle c leaves PU (0, 0) by R (c = 0) or by B (c = 1): the two pairs of (0, 0) are {T, R} and {B, L}
    std::uint64_t r = 0, col = 0;
    std::uint32_t port = c == 0 ? R : B;
    do {
      out[c].push_back(r * cols + col);
      if (port == B) r = (r + 1) % rows;
      else if (port == T) r = (r + rows - 1) % rows;
      else if (port == R) col = (col + 1) % cols;
      else col = (col + cols - 1) % cols;
      port = section_3_1_partner(cols, col, port ^ 1u);
    } while (!(r == 0 && col == 0));
    if (out[c].size() != rows * cols) throw std::logic_error("Section 3.1 rules: a cycle is not Hamiltonian");
  }
  return out;
}

}  // namespace

bool square_switches_apply(std::uint64_t rows, std::uint64_t cols) { return rows >= 3 && cols >= 3; }

namespace {

// Two Hamiltonian cycles of the rows × cols torus by square switches, any sizes >= 3. Start: cycle 0 = the row rings,
// cycle 1 = the column rings. Switching a unit square (its two row edges to cycle 1, its two column edges to cycle 0)
// keeps both 2-factors; when its row edges lie on two different cycle-0 rings and its column edges on two different
// cycle-1 rings it merges both pairs (Kotzig's argument for C_m □ C_n), and when two edges of one colour lie on one
// cycle and are traversed the same way it keeps that cycle one (a 2-opt move). The squares below are pairwise
// edge-disjoint (flip checks it), so the result is the set of squares, whatever the order.
// In the R × C frame (R rows, C columns; the caller's torus transposed when its rows are odd and columns even):
// squares (c mod 2, c) for c = 0 … C − 2 zigzag between rows 0 and 1 through every column (merging all columns, and
// rows 0 and 1); then (r, r mod 2) for r = 2 … K bring in rows 2 … K, and (K + 1, C − 1) the rest, with K = R − 2
// when R and C have the same parity and K = R − 3 when R is even and C odd. (Rows merged along a path alternate
// direction; with R even and C odd every pair of adjacent rows runs opposite ways once the rows are one cycle, so the
// simpler schedule — merge rows and columns along the diagonal, then add columns one at a time — cannot finish
// there.) Found by exhaustive search over sets of edge-disjoint squares on 4 × 5 and 4 × 6, then with the
// zigzag fixed on 4 × 7, 6 × 7, 6 × 8, 8 × 9, where the pattern showed.
// Why both classes are Hamiltonian for every R, C >= 3 (not R odd with C even, which is never a frame): by induction.
//   Column block: T(R, C + 2) is T(R, C) with columns 4, 5 inserted, for C >= 5 (both have square (1, 3), so the
//   cut between columns 3 and 4 and the one after the block carry the same colours: rows 1, 2 class 1, the rest
//   class 0; columns before are equal, columns after are shifted by two). Inside the block, class 0 runs from the
//   left cut in row 0 through (0,4) (1,4) (2,4) (2,5) (1,5) (0,5) to the right cut in row 0, and straight along every
//   row r >= 3; class 1 runs straight along row 1, and from row 2 down column 4, over the wrap to (0,4), (0,5), up
//   column 5 to (2,5) and out in row 2. So in each class the block joins every left crossing edge to the right one of
//   the same row by a path, and the paths cover the block: inserting it subdivides edges, which keeps the number of
//   cycles and makes them pass every new PU.
//   Row block: T(R + 2, C) is T(R, C) with rows 4, 5 inserted, when square (3, 1) exists (K >= 3: R >= 5, or R >= 6
//   for R even and C odd); it is the column block transposed with the classes swapped.
//   Base: every R = 3 … 7, C = 3 … 6 is walked by the unit test square_switch_blocks_join_each_line_to_itself and the
//   theorem-book row torus.square_switches, which also check the block lemmas on the cycles (check_strip_insertion in
//   checkers: the paths, and that outside the block the larger torus is the smaller one) for R up to 30, C up to 14. Every
//   R, C reduces to the base by taking column blocks out while C >= 7 and row blocks while R >= 8.
// Two edge classes (0, 1) of the rows × cols torus, both sizes >= 3: the class of the edge from (r, c) to (r, c + 1)
// and of the edge to (r + 1, c), vertex (r, c) numbered r·cols + c.
struct edge_colouring {
  std::uint64_t rows = 0, cols = 0;
  std::vector<std::uint8_t> right, down;
  // The neighbour of w over an edge of `colour` other than `previous` (right, left, down, up: the first such), or
  // rows·cols when w has no such edge.
  std::uint64_t next(std::uint64_t w, std::uint8_t colour, std::uint64_t previous) const {
    const std::uint64_t r = w / cols, c = w % cols;
    const std::uint64_t to[4] = {r * cols + (c + 1) % cols, r * cols + (c + cols - 1) % cols, ((r + 1) % rows) * cols + c, ((r + rows - 1) % rows) * cols + c};
    const bool has[4] = {right[w] == colour, right[to[1]] == colour, down[w] == colour, down[to[3]] == colour};
    for (int k = 0; k < 4; ++k)
      if (has[k] && to[k] != previous) return to[k];
    return rows * cols;
  }
  // The cycle of `colour` through vertex 0, walked until it closes (at most rows·cols + 1 vertices: longer, or stuck,
  // means the class is not one Hamiltonian cycle, and the caller checks the size).
  std::vector<std::uint64_t> walk(std::uint8_t colour) const {
    const std::uint64_t N = rows * cols;
    std::vector<std::uint64_t> out;
    std::uint64_t w = 0, previous = N;
    do {
      out.push_back(w);
      const std::uint64_t to = next(w, colour, previous);
      if (to == N) break;
      previous = w, w = to;
    } while (w != 0 && out.size() <= N);
    return out;
  }
  edge_colouring transposed() const {  // (r, c) ↦ (c, r): right and down trade places
    edge_colouring t{cols, rows, std::vector<std::uint8_t>(rows * cols), std::vector<std::uint8_t>(rows * cols)};
    for (std::uint64_t r = 0; r < rows; ++r)
      for (std::uint64_t c = 0; c < cols; ++c) t.right[c * rows + r] = down[r * cols + c], t.down[c * rows + r] = right[r * cols + c];
    return t;
  }
};

// The square switches' schedule (above) in its R × C frame: R = rows, C = cols, unless rows is odd and cols even
// (then transposed, R = cols). Class 0 starts as the rows, class 1 as the columns.
edge_colouring square_switch_frame(std::uint64_t rows, std::uint64_t cols, bool& transposed) {
  if (!square_switches_apply(rows, cols))
    throw std::invalid_argument("square switches need both sizes >= 3, got " + std::to_string(rows) + "x" + std::to_string(cols));
  transposed = rows % 2 == 1 && cols % 2 == 0;
  const std::uint64_t R = transposed ? cols : rows, C = transposed ? rows : cols;
  edge_colouring g{R, C, std::vector<std::uint8_t>(R * C, 0), std::vector<std::uint8_t>(R * C, 1)};
  auto flip = [&](std::uint64_t r, std::uint64_t c) {
    if (g.right[r * C + c] != 0 || g.right[((r + 1) % R) * C + c] != 0 || g.down[r * C + c] != 1 || g.down[r * C + (c + 1) % C] != 1)
      throw std::logic_error("square switches: two squares of the schedule share an edge");
    g.right[r * C + c] = g.right[((r + 1) % R) * C + c] = 1;
    g.down[r * C + c] = g.down[r * C + (c + 1) % C] = 0;
  };
  const std::uint64_t K = R % 2 == 0 && C % 2 == 1 ? R - 3 : R - 2;
  for (std::uint64_t c = 0; c + 1 < C; ++c) flip(c % 2, c);
  for (std::uint64_t r = 2; r <= K; ++r) flip(r, r % 2);
  flip(K + 1, C - 1);
  return g;
}

std::array<std::vector<std::uint64_t>, 2> switch_2d(std::uint64_t rows, std::uint64_t cols) {
  bool transposed = false;
  const edge_colouring g = square_switch_frame(rows, cols, transposed);
  std::array<std::vector<std::uint64_t>, 2> out;
  for (std::uint8_t colour = 0; colour < 2; ++colour) {
    out[colour] = g.walk(colour);
    if (out[colour].size() != g.rows * g.cols)
      throw std::logic_error("square switches on " + std::to_string(rows) + "x" + std::to_string(cols) + ": a cycle is not Hamiltonian");
    if (transposed)
      for (std::uint64_t& w : out[colour]) w = (w % g.cols) * cols + w / g.cols;  // back to the caller's frame
  }
  return out;
}

// Two Hamiltonian cycles of the rows × cols torus: Section 3.1's rules when both are even, else square switches.
std::array<std::vector<std::uint64_t>, 2> decompose_2d(std::uint64_t rows, std::uint64_t cols) {
  return rows % 2 == 0 && cols % 2 == 0 ? split_2d(rows, cols) : switch_2d(rows, cols);
}

// The direction (0: +x_1 = i, 1: +x_2 = j, 2: +x_3 = k) that colour c takes at (i, j, k) of the m × m × m cube in the
// explicit Hamilton decomposition of S. Park, "Hamilton decompositions of the directed 3-torus: a return-map and
// odometer view", arXiv:2603.24708 (2026). Every colour moves along +x_1, +x_2 or +x_3, so it raises the layer
// S = i + j + k (mod m) by one, and the three colours take the three directions at every PU: the colour classes are
// arc-disjoint directed cycle covers of the directed torus, hence (m >= 3: the arc v → v + e_d is the only arc on
// its edge) edge-disjoint 2-factors of the undirected one. Hamiltonicity reduces to the m-step return map on the
// plane S = 0. Layers other than those named use the canonical triple (0, 1, 2).
//   m odd (the paper's Proposition "closed-form rule after the five swaps", from five Kempe swaps of the canonical
//   colouring): on S = 0 the triple is (1, 2, 0) for k != 0 and (0, 2, 1) for k = 0; on S = 1 it is (2, 1, 0) for
//   k != 0 and (2, 0, 1) for k = 0. Its return maps are affine conjugates of the odometer (u, v) ↦ (u + 1, v + [u = 0]),
//   a single m²-cycle, when m is odd (elementary; tests/torus_cycles_test.cpp recomputes the return maps).
//   m even, m >= 6 (the paper's "Route E"): S = 1: (1, 0, 2) for i = 0, else (2, 0, 1); S = 2: (2, 1, 0) for j = 0,
//   else (0, 1, 2); S = 0: (1, 2, 0) except on three defect tracks near the lines j = 1, k = 0, i = 0 and a few
//   points, which differ for m ≡ 4 (mod 6) (Case II) from m ≡ 0, 2 (mod 6) (Case I) — transcribed below. Its proof in
//   the paper is long (a first-return reduction and a finite splice analysis); the walk in cube_3d checks every
//   instance, so a wrong transcription or a gap in the proof shows up as a std::logic_error, never as a wrong cycle.
//   m = 4 has no rule (the paper uses a finite witness there); m = 4 is refused.
std::uint32_t cube_direction(std::uint32_t colour, std::uint64_t m, std::uint64_t i, std::uint64_t j, std::uint64_t k) {
  using triple = std::array<std::uint32_t, 3>;
  const std::uint64_t S = (i + j + k) % m;
  triple t{0, 1, 2};
  if (m % 2 == 1) {
    if (S == 0) t = k != 0 ? triple{1, 2, 0} : triple{0, 2, 1};
    else if (S == 1) t = k != 0 ? triple{2, 1, 0} : triple{2, 0, 1};
    return t[colour];
  }
  if (S == 1) t = i == 0 ? triple{1, 0, 2} : triple{2, 0, 1};
  else if (S == 2) t = j == 0 ? triple{2, 1, 0} : triple{0, 1, 2};
  else if (S == 0) {
    const bool case_two = m % 6 == 4;
    const std::uint64_t from = case_two ? 2 : 1;  // the tracks j = 1 and k = 0 start one later in Case II
    const bool t102 = (i == 0 && j == 0 && k == 0) || (j == 1 && i >= from && i <= m - 3 && k == m - 1 - i) || (i == m - 1 && j == 2 && k == m - 1);
    const bool t021 = (i == 0 && j == 1 && k == m - 1) || (k == 0 && i >= from && i <= m - 3 && j == m - i) || (i == m - 1 && j == 0 && k == 1);
    const bool t210 = (i == 0 && j >= 2) || (i == 1 && j == 0 && k == m - 1) ||
                      (case_two && ((i == 1 && j >= 2 && j <= m - 2) || (i == 2 && j == 0 && k == m - 2) || (i == 2 && j == m - 1 && k == m - 1)));
    const bool t012 = (i == m - 2 && j == 1 && k == 1) || (case_two && i == 1 && j == 1 && k == m - 2);
    const bool t201 = (i == m - 2 && j == 2 && k == 0) || (case_two && i == 1 && j == m - 1 && k == 0);
    if (t102) t = {1, 0, 2};
    else if (t021) t = {0, 2, 1};
    else if (t210) t = {2, 1, 0};
    else if (t012) t = {0, 1, 2};
    else if (t201) t = {2, 0, 1};
    else t = {1, 2, 0};
  }
  return t[colour];
}

// The three Hamiltonian cycles of the m × m × m torus (m >= 3, m != 4) by cube_direction, as sequences of indices
// (i·m + j)·m + k, each walked from (0, 0, 0) and required to visit all m³ PUs.
std::array<std::vector<std::uint64_t>, 3> cube_3d(std::uint64_t m) {
  if (m < 3 || m == 4)
    throw std::invalid_argument("the explicit 3-D construction (Park 2026) covers m x m x m cubes with m >= 3 and m != 4, got m = " + std::to_string(m));
  std::array<std::vector<std::uint64_t>, 3> out;
  for (std::uint32_t c = 0; c < 3; ++c) {
    std::uint64_t x[3] = {0, 0, 0};
    do {
      out[c].push_back((x[0] * m + x[1]) * m + x[2]);
      const std::uint32_t dir = cube_direction(c, m, x[0], x[1], x[2]);
      x[dir] = (x[dir] + 1) % m;
    } while ((x[0] != 0 || x[1] != 0 || x[2] != 0) && out[c].size() <= m * m * m);
    if (out[c].size() != m * m * m)
      throw std::logic_error("explicit 3-D decomposition of " + std::to_string(m) + "^3: colour " + std::to_string(c) + " is not a Hamiltonian cycle");
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
      throw std::invalid_argument("a 3-D factor must be a cube m x m x m (the explicit construction of Park 2026), got " + std::to_string(dims[0]) +
                                  "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]));
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
// level z) split into the two Hamiltonian cycles of `frame` (the square switches', or a scrambled one). Class j + 1 (j = 1 … k − 1) starts as the n layer copies of H_{j+1} and is merged
// into one cycle by squares (u, z), (v, z), (v, z + 1), (u, z + 1) with uv an edge of H_{j+1} and both vertical edges
// in one finished class c: the switch gives c the two copies of uv and class j + 1 the two vertical edges, which joins
// layers z and z + 1 of class j + 1 (different cycles of it) and, for c, is a 2-opt move — c stays one cycle exactly
// when it runs both vertical edges the same way (up or down). Levels are taken greedily: the first (level, edge of
// H_{j+1}) in order whose square qualifies and keeps c one cycle. Deterministic, and every class is walked after each
// change and must be one Hamiltonian cycle (std::logic_error otherwise); nothing when no square qualifies (stuck). The
// caller orders the sizes odd ones first, so that G is not bipartite from the second step on. With every size even and
// the square switches' frame the greedy gets stuck: G is bipartite and n even, every join of two cycles by a square
// runs its two parallel edges opposite ways, and the frame's classes are built by joins along H_1's edges (which link
// the two colours), so a class runs all its vertical edges at one level the same way relative to the colouring and no
// square on an edge of H_{j+1} (which links the colours too) keeps c one cycle; splitting c and rejoining it takes two
// squares, and n − 1 is odd. A scrambled frame (scrambled_frame) has 2-opt moves of its own, which break that
// alternation: decompose_layered tries those.
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
    if (pv == (pu + 1) % N) cuts.push_back({pu, u, v});
    else if (pu == (pv + 1) % N) cuts.push_back({pv, v, u});
    else throw std::logic_error(what + ": a lost edge was not on the cycle's order");
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

std::optional<std::vector<std::vector<std::uint64_t>>> add_dimension(const std::vector<std::vector<std::uint64_t>>& g, std::uint64_t n,
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
      if (sa == sb) colour[vertical_id(g[0][sa], (zb == (za + 1) % n) ? za : zb)] = c;
      else colour[layer_id(0, (sb == (sa + 1) % m) ? sa : sb, za)] = c;
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
    const std::uint64_t inner = t2 - t1, start = inner <= N - inner ? t1 + 1 : t2 + 1, length = std::min(inner, N - inner);
    for (std::uint64_t i = 0; i < length / 2; ++i) {
      const std::uint64_t a = (start + i) % N, b = (start + length - 1 - i) % N;
      std::swap(o[a], o[b]);
      p[o[a]] = a, p[o[b]] = b;
    }
    meter.used += length;
    auto adjacent = [&](std::uint64_t a, std::uint64_t b) { return p[b] == (p[a] + 1) % N || p[a] == (p[b] + 1) % N; };
    if (!adjacent(x0, y0) || !adjacent(x1, y1)) throw std::logic_error("layered Hamilton decomposition: a 2-opt move split a cycle");
  };
  if (!finish(0) || !finish(1)) throw std::logic_error("layered Hamilton decomposition: the square switches of H_1 x C_n are not Hamiltonian");
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
      const bool up_u = (p[u * n + (s.z + 1) % n] + N - p[u * n + s.z]) % N == 1, up_v = (p[v * n + (s.z + 1) % n] + N - p[v * n + s.z]) % N == 1;
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
          if (c >= q || colour[vertical_id(v, z)] != c || colour[layer_id(j, i, z)] != q || colour[layer_id(j, i, z + 1)] != q) continue;
          if (same_way({z, i, c})) found = square{z, i, c};
        }
      }
      if (!found) return std::nullopt;  // stuck: no square joins another layer (the caller may try another frame)
      const square& s = *found;
      flip(s, true), join(s.z), ++joined;
      const std::uint64_t u = g[j][s.i] * n, v = g[j][(s.i + 1) % m] * n, z0 = s.z, z1 = (s.z + 1) % n;
      two_opt(s.c, u + z0, u + z1, v + z0, v + z1);
    }
    if (!finish(q)) throw std::logic_error("layered Hamilton decomposition: class " + std::to_string(q) + " is not one Hamiltonian cycle");
  }
  // every class walked after its last change, and found one Hamiltonian cycle
  std::vector<std::vector<std::uint64_t>> cycles(k + 1);
  for (std::uint8_t c = 0; c <= k; ++c) {
    meter.used += N;
    cycles[c] = walk(c);
    if (cycles[c].size() != N) throw std::logic_error("layered Hamilton decomposition: class " + std::to_string(c) + " is not one Hamiltonian cycle");
  }
  return cycles;
}

// A frame for the all-even steps: the square switches' frame of the m × n torus (frame index s·n + z), changed by
// `moves` random double switches (seeded): a square switch that splits both classes, then one that joins both
// again (both stay Hamiltonian), or a single switch that keeps both one cycle.
std::optional<std::array<std::vector<std::uint64_t>, 2>> scrambled_frame(std::uint64_t m, std::uint64_t n, std::uint64_t seed, std::uint64_t moves,
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
    return std::array<slot, 4>{slot{&along[q], q, s1 + z}, slot{&along[s * n + z1], s * n + z1, s1 + z1}, slot{&up[q], q, s * n + z1},
                               slot{&up[s1 + z], s1 + z, s1 + z1}};
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
    const std::uint64_t px0 = order[c].position(x0), px1 = order[c].position(x1), py0 = order[c].position(y0), py1 = order[c].position(y1);
    const bool x_forward = px1 == (px0 + 1) % N, y_forward = py1 == (py0 + 1) % N;
    const std::uint64_t tx = x_forward ? px0 : px1, ty = y_forward ? py0 : py1;  // where each lost edge leaves
    const bool x_first = tx < ty;  // the lost edge that leaves at lo: x's or y's
    const std::uint64_t before = x_first ? (x_forward ? x0 : x1) : (y_forward ? y0 : y1), after = x_first ? (x_forward ? x1 : x0) : (y_forward ? y1 : y0);
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
  auto relink = [&](std::uint8_t c, const std::vector<std::pair<slot, std::uint8_t>>& changed) {  // (slot, colour before)
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
    const bool one_a = stays_one(a, eq[0].u, eq[0].v, eq[1].u, eq[1].v), one_b = stays_one(b, eq[2].u, eq[2].v, eq[3].u, eq[3].v);
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
        return piece(*er[0].colour, er[0].u) != piece(*er[0].colour, er[1].u) && piece(*er[2].colour, er[2].u) != piece(*er[2].colour, er[3].u);
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
        if (members.size() != small) throw std::logic_error("scrambled frame: a split class's arc is not the cycle it fell into");
        meter.used += 4 * small;  // the walk, and the squares at its vertices
        auto straddles = [&](std::uint8_t k, std::uint64_t u, std::uint64_t v) { return k == c ? marked[u] != marked[v] : piece(k, u) != piece(k, v); };
        std::uint64_t nearest = N;  // distance after `from`
        for (std::uint64_t w : members) {
          const std::uint64_t s = w / n, z = w % n;
          for (std::uint64_t x : {w, s * n + (z + n - 1) % n, ((s + m - 1) % m) * n + z}) {  // the squares with corner w
            if ((x + N - from) % N >= nearest || x == q || !switchable(x)) continue;
            const auto ex = edges(x);
            const bool along_first = *ex[0].colour == c;  // c's test first
            const std::size_t i = along_first ? 0 : 2, o = along_first ? 2 : 0;
            if (straddles(*ex[i].colour, ex[i].u, ex[i + 1].u) && straddles(*ex[o].colour, ex[o].u, ex[o + 1].u)) nearest = (x + N - from) % N, r = x;
          }
        }
        for (std::uint64_t w : members) marked[w] = 0;
      }
      if (r != N) {
        const auto er = edges(r);
        for (const slot& e : er)
          if (std::none_of(changed.begin(), changed.end(), [&](const auto& x) { return x.first.colour == e.colour; })) changed.push_back({e, *e.colour});
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
constexpr std::uint64_t max_searched_frame = std::uint64_t{1} << 21;  // PUs: all-even tori above this are refused (see hamiltonian_product_cycles)
constexpr std::uint64_t budget_free_frame = 32768;  // PUs: up to here every seed and order is tried (the sweeps of docs/torus.md)
constexpr std::uint64_t layered_work_budget = std::uint64_t{1} << 33;  // vertex visits of the whole search, above budget_free_frame

std::vector<std::vector<std::uint64_t>> decompose_layered(const torus& network) {
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
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return dims[a] % 2 > dims[b] % 2; });
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
        stuck += (stuck.empty() ? "" : "; ") + std::string(meter.spent() ? "the search budget ran out in the step to " : "no frame joins the layers of the step to ") +
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
  throw std::invalid_argument("Hamilton decomposition (Section 3.4) of " + network.name() + ": the layered construction is stuck (" + stuck +
                              "; the square switches' frame and up to " + std::to_string(searched_frames) + " scrambled frames tried in each" +
                              (meter.limit != std::numeric_limits<std::uint64_t>::max() ? ", within a budget of 2^33 vertex visits over all steps, frames and orders" : "") +
                              ")");
}

// The cycle system through the given PU sequences, one cycle each, with the port between consecutive PUs (they must be
// adjacent; with n_j = 2 two ports lead to the same neighbour, and the one no cycle of the system has used yet is taken).
cycle_system system_through(const torus& network, const std::vector<std::vector<std::uint64_t>>& sequences, std::string construction) {
  cycle_system out{network, {}, std::move(construction)};
  std::vector<char> used(static_cast<std::size_t>(network.size()) * network.ports(), 0);
  for (const auto& sequence : sequences) {
    torus_cycle cycle;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
      const auto from = static_cast<pu_index>(sequence[i]), to = static_cast<pu_index>(sequence[(i + 1) % sequence.size()]);
      std::uint32_t port = no_port;
      for (std::uint32_t p = 0; p < network.ports() && port == no_port; ++p) {
        const pu_index back = network.neighbor(to, torus::opposite(p));
        if (network.neighbor(from, p) == to && back == from && !used[from * network.ports() + p]) port = p;
      }
      if (port == no_port) throw std::logic_error("Hamilton decomposition: consecutive PUs are not joined by a free link");
      used[from * network.ports() + port] = used[to * network.ports() + torus::opposite(port)] = 1;
      cycle.pus.push_back(from);
      cycle.ports.push_back(port);
    }
    out.cycles.push_back(std::move(cycle));
  }
  return out;
}

}  // namespace

cycle_system square_switch_cycles(const torus& network) {
  if (network.dimension() != 2) throw std::invalid_argument("square switches: needs a 2-D torus, got " + network.name());
  const auto halves = switch_2d(network.dims()[0], network.dims()[1]);  // names sizes below 3
  return system_through(network, {halves.begin(), halves.end()}, "square-switches");
}

cycle_system hamiltonian_product_cycles(const torus& network) {
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
      why = std::string(e.what()) + " (every 2-D factor of the product must have both sizes even or both >= 3; every 3-D factor must be a cube m x m x m, m >= 3, m != 4)";
    }
  }
  if (!why.empty()) {
    if (!all_at_least_3)
      throw std::invalid_argument("Hamilton decomposition (Section 3.4) of " + network.name() + ": " + why +
                                  "; the layered construction needs every size >= 3");
    // All sizes even: d = 4, 6, 8 by products of 2-D factors (Section 3.1), cubes by Park's rule; the rest (3-D tori
    // not a cube of Park's rule, every 5-D and 7-D torus) by the layered steps on scrambled frames.
    // The scrambled frames' search is budgeted above 32,768 PUs (decompose_layered), and refused above max_searched_frame.
    if (!some_odd && network.size() > max_searched_frame)
      throw std::invalid_argument("Hamilton decomposition (Section 3.4) of " + network.name() + ": " + why +
                                  "; with every size even the layered construction scrambles frames only up to " + std::to_string(max_searched_frame) +
                                  " PUs (P = " + std::to_string(network.size()) + ")");
    sequences = decompose_layered(network);
    // with every size even the square switches' frame cannot finish (add_dimension), so scrambled frames were used
    construction = some_odd ? "hamiltonian-layered" : "hamiltonian-layered-searched";
  }
  return system_through(network, sequences, std::move(construction));
}

namespace {

// One attempt of switch_search_decomposition: the colour of every link (class per link), or nothing when stuck.
std::optional<std::vector<std::uint8_t>> switch_attempt(const torus& network, std::uint64_t seed, std::uint64_t max_rounds) {
  const std::uint32_t d = network.dimension();
  const pu_index P = network.size();
  // colour[v·d + k]: the class of the link from v along +x_k; class k starts as the rings along x_k
  std::vector<std::uint8_t> colour(static_cast<std::size_t>(P) * d);
  for (pu_index v = 0; v < P; ++v)
    for (std::uint32_t k = 0; k < d; ++k) colour[v * d + k] = static_cast<std::uint8_t>(k);
  auto plus = [&](pu_index v, std::uint32_t k) { return network.neighbor(v, 2 * k); };
  auto minus = [&](pu_index v, std::uint32_t k) { return network.neighbor(v, 2 * k + 1); };
  // Component labels of class c (each vertex has two links of every class, so the components are its cycles).
  std::vector<std::vector<std::uint32_t>> label(d, std::vector<std::uint32_t>(P));
  std::vector<std::uint32_t> count(d, 0);
  std::vector<pu_index> stack;
  auto relabel = [&](std::uint32_t c) {
    std::vector<std::uint32_t>& lab = label[c];
    std::fill(lab.begin(), lab.end(), UINT32_MAX);
    std::uint32_t n = 0;
    for (pu_index s = 0; s < P; ++s) {
      if (lab[s] != UINT32_MAX) continue;
      lab[s] = n;
      stack.assign(1, s);
      while (!stack.empty()) {
        const pu_index x = stack.back();
        stack.pop_back();
        for (std::uint32_t k = 0; k < d; ++k) {
          const pu_index up = plus(x, k), down = minus(x, k);
          if (colour[x * d + k] == c && lab[up] == UINT32_MAX) lab[up] = n, stack.push_back(up);
          if (colour[down * d + k] == c && lab[down] == UINT32_MAX) lab[down] = n, stack.push_back(down);
        }
      }
      ++n;
    }
    count[c] = n;
  };
  for (std::uint32_t c = 0; c < d; ++c) relabel(c);
  // The unit squares (v; k < l): links (v, k), (v + e_l, k) of one class and (v, l), (v + e_k, l) of another.
  std::vector<std::tuple<pu_index, std::uint32_t, std::uint32_t>> squares;
  for (pu_index v = 0; v < P; ++v)
    for (std::uint32_t k = 0; k < d; ++k)
      for (std::uint32_t l = k + 1; l < d; ++l) squares.emplace_back(v, k, l);
  std::mt19937_64 random(seed);
  auto all_single = [&] { return std::all_of(count.begin(), count.end(), [](std::uint32_t n) { return n == 1; }); };
  for (std::uint64_t round = 0; round < max_rounds && !all_single(); ++round) {
    std::shuffle(squares.begin(), squares.end(), random);
    bool moved = false;
    for (const auto& [v, k, l] : squares) {
      const pu_index vk = plus(v, k), vl = plus(v, l);
      std::uint8_t& e1 = colour[v * d + k];   // v — v + e_k
      std::uint8_t& e3 = colour[vl * d + k];  // v + e_l — v + e_k + e_l
      std::uint8_t& e2 = colour[vk * d + l];  // v + e_k — v + e_k + e_l
      std::uint8_t& e4 = colour[v * d + l];   // v — v + e_l
      const std::uint8_t a = e1, b = e4;
      if (a == b || e3 != a || e2 != b) continue;
      // Switching can only lower a class's count when its two links lie on different cycles (then they merge).
      const bool merge_a = label[a][v] != label[a][vl], merge_b = label[b][v] != label[b][vk];
      if (!merge_a && !merge_b) continue;
      const std::uint32_t before = count[a] + count[b];
      e1 = e3 = b, e2 = e4 = a;
      relabel(a), relabel(b);
      const std::uint32_t after = count[a] + count[b];
      // keep a decrease (always, when both classes merged); keep an equal count (a merge in one class, a split in the
      // other) three times in ten, to move on
      if (after < before || (after == before && random() % 10 < 3)) {
        moved = true;
        continue;
      }
      e1 = e3 = a, e2 = e4 = b;
      relabel(a), relabel(b);
    }
    if (!moved) break;  // stuck: no square changes anything any more
  }
  if (!all_single()) return std::nullopt;
  return colour;
}

}  // namespace

std::optional<cycle_system> switch_search_decomposition(const torus& network, std::uint64_t seed, std::uint64_t max_rounds) {
  const std::uint32_t d = network.dimension();
  for (std::uint32_t j = 0; j < d; ++j)
    if (network.dims()[j] < 3)
      throw std::invalid_argument("square-switch search on " + network.name() + ": needs every n_j >= 3, n_" + std::to_string(j + 1) + " = " +
                                  std::to_string(network.dims()[j]));
  const pu_index P = network.size();
  std::optional<std::vector<std::uint8_t>> found;
  for (std::uint64_t attempt = 0; attempt < 20 && !found; ++attempt)  // a stuck attempt restarts from the rings, reseeded
    found = switch_attempt(network, seed + attempt * 0x9E3779B97F4A7C15ull, max_rounds);
  if (!found) return std::nullopt;
  const std::vector<std::uint8_t>& colour = *found;
  auto plus = [&](pu_index v, std::uint32_t k) { return network.neighbor(v, 2 * k); };
  auto minus = [&](pu_index v, std::uint32_t k) { return network.neighbor(v, 2 * k + 1); };
  cycle_system out{network, {}, "square-switch search"};
  for (std::uint32_t c = 0; c < d; ++c) {
    torus_cycle cycle;
    pu_index at = 0, previous = P;
    do {
      std::uint32_t port = no_port;
      for (std::uint32_t k = 0; k < d && port == no_port; ++k) {
        if (colour[at * d + k] == c && plus(at, k) != previous) port = 2 * k;
        else if (colour[minus(at, k) * d + k] == c && minus(at, k) != previous) port = 2 * k + 1;
      }
      if (port == no_port) throw std::logic_error("square-switch search: a PU without a second link of its class");
      cycle.pus.push_back(at);
      cycle.ports.push_back(port);
      previous = at;
      at = network.neighbor(at, port);
    } while (at != 0);
    if (cycle.length() != P) throw std::logic_error("square-switch search: class " + std::to_string(c) + " is not one Hamiltonian cycle");
    out.cycles.push_back(std::move(cycle));
  }
  return out;
}

cycle_system hamiltonian_2d_cycles(const torus& network) {
  const routing_table table = hamiltonian_2d(network);  // names the conditions when they fail
  std::vector<std::uint32_t> partner(table.forward.size());  // what arrives on p leaves by the out-port forwarding p
  for (pu_index pu = 0; pu < network.size(); ++pu)
    for (std::uint32_t o = 0; o < 4; ++o) partner[pu * 4 + table.forward_at(pu, o)] = o;
  cycle_system out{network, {}, "hamiltonian"};
  out.cycles.push_back(walk_pairing(network, partner, 0, 2));  // leaves (0, 0) by R
  out.cycles.push_back(walk_pairing(network, partner, 0, 0));  // leaves (0, 0) by B
  return out;
}

cycle_system partial_2d_cycles(const torus& network) {
  if (network.dimension() != 2) throw std::invalid_argument("partial cycles (Section 3.2): needs a 2-D torus, got " + network.name());
  const std::uint32_t rows = network.dims()[0], cols = network.dims()[1];
  if (cols % 2 != 1 || cols < 5 || (rows % 2 == 1 && rows < 5))
    throw std::invalid_argument("partial cycles (Sections 3.2, 3.3) on " + network.name() +
                                ": needs n2 (columns) odd, at least 5, and n1 (rows) even or odd at least 5");
  std::vector<std::uint32_t> partner = section_3_1_partners(rows, cols);
  constexpr std::uint32_t B = 0, T = 1, R = 2, L = 3;
  auto at = [&](std::uint32_t row, std::uint32_t col) { return &partner[(static_cast<std::size_t>(row) * cols + col) * 4]; };
  for (std::uint32_t i = 0; i < rows; ++i) {
    std::uint32_t* p = at(i, cols - 2);
    p[L] = R, p[R] = L, p[T] = p[B] = no_port;  // Section 3.2: column n2 − 2 passes L ↔ R only
  }
  if (rows % 2 == 1) {
    // Section 3.3 (both odd), as reconstructed (Figure 4 is lost; see the declaration): the last row crosses straight
    // (T ↔ B, L ↔ R) left of column n2 − 2 and turns B ↔ R, T ↔ L in the last two columns; the PU above column
    // n2 − 2's turn pairs like an even column (B ↔ L, T ↔ R).
    for (std::uint32_t j = 0; j < cols; ++j) {
      std::uint32_t* p = at(rows - 1, j);
      if (j + 2 < cols) p[T] = B, p[B] = T, p[L] = R, p[R] = L;
      else p[B] = R, p[R] = B, p[T] = L, p[L] = T;
    }
    std::uint32_t* p = at(rows - 2, cols - 2);
    p[B] = L, p[L] = B, p[T] = R, p[R] = T;
  }
  // The closed trails of the rules, each once (a trail and its reverse are one cycle); open ends are supply stubs.
  cycle_system out{network, {}, "partial"};
  std::vector<char> seen(static_cast<std::size_t>(network.size()) * 4, 0);
  for (pu_index start = 0; start < network.size(); ++start)
    for (std::uint32_t port = 0; port < 4; ++port) {
      if (seen[start * 4 + port] || partner[start * 4 + port] == no_port) continue;
      torus_cycle cycle;
      pu_index at = start;
      std::uint32_t leave = port;
      bool closed = false;
      while (!seen[at * 4 + leave]) {
        seen[at * 4 + leave] = 1;
        cycle.pus.push_back(at);
        cycle.ports.push_back(leave);
        const pu_index next = network.neighbor(at, leave);
        const std::uint32_t arrive = torus::opposite(leave);
        seen[next * 4 + arrive] = 1;  // the reverse direction belongs to the same undirected trail
        leave = partner[next * 4 + arrive];
        at = next;
        if (leave == no_port) break;
        if (at == start && leave == port) {
          closed = true;
          break;
        }
      }
      if (closed) out.cycles.push_back(std::move(cycle));
    }
  return out;
}

// ---- supply plans ------------------------------------------------------------------------------------------------

namespace {

// Positions a stream covers by step `horizon`: the supplier at `origin`, direction f until step s − 1, then −f.
// Returns up to two arcs (start, length) on the cycle of length m.
struct arc {
  std::uint64_t start = 0, length = 0;
};

void stream_arcs(std::uint64_t m, std::uint64_t origin, int f, std::uint64_t s, std::uint64_t horizon, std::vector<arc>& out) {
  // offsets k = t − 1 for t = 1 … horizon; direction f for t < s (all t when s = 0), −f from t = s on
  const std::uint64_t first_end = s == 0 ? horizon : std::min(horizon, s - 1);  // k in [0, first_end)
  auto add = [&](int dir, std::uint64_t lo, std::uint64_t hi) {  // offsets lo … hi − 1 in direction dir
    if (hi <= lo) return;
    const std::uint64_t len = std::min(hi - lo, m);
    const std::uint64_t start = dir > 0 ? (origin + lo) % m : (origin + m - (hi - 1) % m) % m;
    out.push_back({len == m ? 0 : start, len});
  };
  add(f, 0, first_end);
  if (s != 0 && horizon >= s) add(-f, s - 1, horizon);
}

bool covers_all(std::uint64_t m, const std::vector<arc>& arcs) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;  // [lo, hi) within [0, m)
  for (const arc& a : arcs) {
    if (a.length >= m) return true;
    const std::uint64_t end = a.start + a.length;
    if (end <= m) spans.push_back({a.start, end});
    else spans.push_back({a.start, m}), spans.push_back({0, end - m});
  }
  std::sort(spans.begin(), spans.end());
  std::uint64_t reach = 0;
  for (const auto& [lo, hi] : spans) {
    if (lo > reach) return false;
    reach = std::max(reach, hi);
  }
  return reach >= m;
}

bool plan_covers(std::uint64_t m, std::uint64_t gap, int fa, std::uint64_t sa, int fb, std::uint64_t sb, std::uint64_t horizon) {
  std::vector<arc> arcs;
  stream_arcs(m, 0, fa, sa, horizon, arcs);
  stream_arcs(m, gap, fb, sb, horizon, arcs);
  return covers_all(m, arcs);
}

// A stream of a cycle arriving at a PU: in step t = u + delay (u >= 1), what its on-cycle supplier sent in its step u:
// the packet of position origin + f·(u − 1), f = dir flipped at each of the supplier's switch steps `flips` up to u
// (a relay adds one step of delay each time and keeps the supplier's switches).
struct stream_shape {
  std::uint64_t origin = 0;
  int dir = -1;
  std::uint64_t delay = 0;
  std::vector<std::uint64_t> flips;  // increasing; empty for a plain stream
  bool plain() const { return flips.empty(); }
};

// The position stream s delivers in step t > s.delay on its cycle of m PUs; `flipped` counts the switches of s taken so
// far (the caller visits steps in increasing order).
std::uint64_t delivered(const stream_shape& s, std::uint64_t t, std::uint64_t m, std::size_t& flipped) {
  const std::uint64_t u = t - s.delay;
  while (flipped < s.flips.size() && s.flips[flipped] <= u) ++flipped;
  const int f = flipped % 2 == 0 ? s.dir : -s.dir;
  const std::uint64_t offset = (u - 1) % m;
  return f > 0 ? (s.origin + offset) % m : (s.origin + m - offset) % m;
}

// The last step worth stepping a stream to: after its last switch it delivers every position within m steps.
std::uint64_t last_useful_step(const stream_shape& s, std::uint64_t m) { return s.delay + (s.plain() ? 0 : s.flips.back()) + m; }

// The step after which the streams together have delivered all m positions of their cycle (UINT64_MAX if never), by
// stepping through them: exact for switching and relayed streams too.
std::uint64_t completion_of(std::uint64_t m, const std::vector<stream_shape>& streams) {
  std::uint64_t limit = 0;
  for (const stream_shape& s : streams) limit = std::max(limit, last_useful_step(s, m));
  std::vector<char> got(m, 0);
  std::uint64_t missing = m;
  std::vector<std::size_t> flipped(streams.size(), 0);  // switches of each stream taken so far
  for (std::uint64_t t = 1; t <= limit; ++t)
    for (std::size_t k = 0; k < streams.size(); ++k) {
      if (t <= streams[k].delay) continue;
      const std::uint64_t pos = delivered(streams[k], t, m, flipped[k]);
      if (!got[pos]) got[pos] = 1, --missing;
      if (missing == 0) return t;
    }
  return std::numeric_limits<std::uint64_t>::max();
}

}  // namespace

std::uint64_t supply_completion(std::uint64_t length, std::uint64_t gap, const supply_plan& plan) {
  return completion_of(length, {stream_shape{0, plan.direction_a, 0, plan.switches_a}, stream_shape{gap % length, plan.direction_b, 0, plan.switches_b}});
}

std::string_view to_string(supply_policy policy) {
  switch (policy) {
    case supply_policy::time_independent: return "time-independent";
    case supply_policy::one_switch: return "one-switch";
    case supply_policy::scheduled: return "scheduled";
  }
  return "?";
}

namespace {

std::vector<std::uint64_t> one_flip(std::uint64_t s) { return s == 0 ? std::vector<std::uint64_t>{} : std::vector<std::uint64_t>{s}; }

// Scheduled supply: slots (supplier, step t = 1 … horizon) each deliver one of two positions; a maximum matching
// of slots to positions covers the cycle iff some direction sequence does. Kuhn's augmenting paths.
bool match_slots(std::uint64_t m, std::uint64_t gap, std::uint64_t horizon, std::vector<int>& dir_a, std::vector<int>& dir_b) {
  const std::uint64_t slots = 2 * horizon;
  auto options = [&](std::uint64_t slot, int which) {  // which 0: +, 1: −
    const std::uint64_t origin = slot % 2 == 0 ? 0 : gap, k = (slot / 2) % m;
    return which == 0 ? (origin + k) % m : (origin + m - k) % m;
  };
  std::vector<std::uint64_t> owner(m, UINT64_MAX), seen(m, UINT64_MAX);
  std::uint64_t matched = 0, round = 0;
  auto augment = [&](auto&& self, std::uint64_t slot) -> bool {
    for (int which = 0; which < 2; ++which) {
      const std::uint64_t p = options(slot, which);
      if (seen[p] == round) continue;
      seen[p] = round;
      if (owner[p] == UINT64_MAX || self(self, owner[p])) {
        owner[p] = slot;
        return true;
      }
    }
    return false;
  };
  for (std::uint64_t s = 0; s < slots && matched < m; ++s, ++round)
    if (augment(augment, s)) ++matched;
  if (matched < m) return false;
  std::vector<int> chosen(slots, 0);
  for (std::uint64_t p = 0; p < m; ++p)
    if (owner[p] != UINT64_MAX) chosen[owner[p]] = options(owner[p], 0) == p ? 1 : -1;
  dir_a.assign(horizon, 0), dir_b.assign(horizon, 0);
  for (std::uint64_t s = 0; s < slots; ++s) (s % 2 == 0 ? dir_a : dir_b)[s / 2] = chosen[s];
  return true;
}

// One scheduled stream beside streams already fixed: its supplier at `origin` offers origin ± (t − 1) in step t; can
// its directions be chosen so that it delivers every position p with deadline[p] != 0 by step deadline[p]? The same
// matching as match_slots, with one supplier, positions that may wait only so long, and steps 1 … horizon.
// dirs[t − 1]: +1, −1, or 0 where step t is free.
bool match_stream(std::uint64_t m, std::uint64_t origin, std::uint64_t horizon, const std::vector<std::uint64_t>& deadline, std::vector<int>& dirs) {
  std::uint64_t wanted = 0;
  for (std::uint64_t d : deadline) wanted += d != 0;
  if (wanted > horizon) return false;  // a step delivers one position
  auto option = [&](std::uint64_t step, int which) {  // step counted from 0; which 0: +, 1: −
    const std::uint64_t k = step % m;
    return which == 0 ? (origin + k) % m : (origin + m - k) % m;
  };
  std::vector<std::uint64_t> owner(m, UINT64_MAX), seen(m, UINT64_MAX);
  std::uint64_t matched = 0;
  auto augment = [&](auto&& self, std::uint64_t step, std::uint64_t round) -> bool {
    for (int which = 0; which < 2; ++which) {
      const std::uint64_t p = option(step, which);
      if (deadline[p] <= step || seen[p] == round) continue;  // not wanted (0), or wanted before step + 1
      seen[p] = round;
      if (owner[p] == UINT64_MAX || self(self, owner[p], round)) {
        owner[p] = step;
        return true;
      }
    }
    return false;
  };
  for (std::uint64_t step = 0; step < horizon && matched < wanted; ++step)
    if (augment(augment, step, step)) ++matched;
  if (matched < wanted) return false;
  dirs.assign(horizon, 0);
  for (std::uint64_t p = 0; p < m; ++p)
    if (owner[p] != UINT64_MAX) dirs[owner[p]] = option(owner[p], 0) == p ? 1 : -1;
  return true;
}

// Directions per step (0: free) to a first direction and flip steps, keeping the direction where the step is free.
std::pair<int, std::vector<std::uint64_t>> flips_of(const std::vector<int>& dirs, int fallback) {
  int first = fallback;
  for (std::size_t t = 1; t < dirs.size(); ++t)  // step 1 (t = 0) delivers the supplier's own packet either way
    if (dirs[t] != 0) {
      first = dirs[t];
      break;
    }
  std::vector<std::uint64_t> flips;
  int current = first;
  for (std::size_t t = 1; t < dirs.size(); ++t)
    if (dirs[t] != 0 && dirs[t] != current) current = dirs[t], flips.push_back(t + 1);
  return {first, flips};
}

}  // namespace

bool delivers_both_directions(const supply_plan& plan) {
  // Step 1 delivers the suppliers' own packets, direction-less; a switch counts once its new direction runs in a step
  // from 3 up to the plan's last step.
  if (plan.direction_a != plan.direction_b) return true;
  for (const auto* flips : {&plan.switches_a, &plan.switches_b})
    for (std::uint64_t s : *flips)
      if (s >= 3 && s <= plan.steps) return true;
  return false;
}

supply_plan best_supply(std::uint64_t m, std::uint64_t gap, supply_policy policy) {
  if (m < 2 || gap >= m) throw std::invalid_argument("best_supply: needs gap < length");
  if (policy == supply_policy::scheduled) {
    // The matching may pick one direction for both suppliers (then the locality property fails); the one-switch plan
    // is the fallback, and the matching is tried only where it could do better.
    const supply_plan once = best_supply(m, gap, supply_policy::one_switch);
    for (std::uint64_t horizon = (m + 1) / 2; horizon < once.steps; ++horizon) {
      std::vector<int> dir_a, dir_b;
      if (!match_slots(m, gap, horizon, dir_a, dir_b)) continue;
      supply_plan plan;
      std::tie(plan.direction_a, plan.switches_a) = flips_of(dir_a, -1);
      std::tie(plan.direction_b, plan.switches_b) = flips_of(dir_b, plan.direction_a == -1 ? 1 : -1);
      plan.steps = horizon;
      if (!delivers_both_directions(plan)) {
        plan.direction_b = -plan.direction_a;  // both directions must be delivered: a free step may take the other
        plan.switches_b.clear();
      }
      if (supply_completion(m, gap, plan) != horizon || !delivers_both_directions(plan)) continue;
      return plan;
    }
    return once;
  }
  for (std::uint64_t horizon = (m + 1) / 2; horizon <= m; ++horizon) {
    // Switch steps worth trying: where an arc of one stream meets the other supplier or the far end of its arcs.
    std::vector<std::uint64_t> candidates{0};
    if (policy == supply_policy::one_switch) {
      const std::uint64_t g = gap, h = horizon;
      for (std::uint64_t x : {g, m - g, h > g ? h - g : 0, h > m - g ? h - (m - g) : 0, m > h ? m - h : 0, 2 * h > m ? 2 * h - m : 0,
                              (m - g + 1) / 2, (g + 1) / 2, h + g > m ? h + g - m : 0})
        for (std::uint64_t y = x > 2 ? x - 2 : 0; y <= x + 3; ++y)
          if (y >= 3 && y <= horizon) candidates.push_back(y);  // a switch at step 2 would never run the first direction
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    }
    for (int fa : {-1, 1})
      for (int fb : {-1, 1})
        for (std::uint64_t sa : candidates)
          for (std::uint64_t sb : candidates)
            if (plan_covers(m, gap, fa, sa, fb, sb, horizon)) {
              const supply_plan plan{fa, fb, one_flip(sa), one_flip(sb), horizon};
              if (supply_completion(m, gap, plan) == horizon && delivers_both_directions(plan)) return plan;
            }
  }
  supply_plan fallback{-1, 1, {}, {}, 0};  // unreachable: opposite streams cover by step m
  fallback.steps = supply_completion(m, gap, fallback);
  return fallback;
}

// ---- routing -----------------------------------------------------------------------------------------------------

namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

struct placement {
  std::uint32_t cycle = none;
  std::uint64_t position = 0;
};

constexpr std::uint64_t matched_work_limit = std::uint64_t{1} << 25;  // P · (longest cycle) for the matched supply above whole_supply_limit
constexpr pu_index whole_supply_limit = 4096;  // PUs: up to here the greedy scores a stream by every packet's arrival

// Whether a stream runs direction `dir` in some step from 2 to `until` (step 1 delivers the supplier's own packet).
bool runs(const stream_shape& s, int dir, std::uint64_t until) {
  if (until < 2 + s.delay) return false;
  if (s.dir == dir) return true;
  return !s.flips.empty() && s.flips.front() + s.delay <= until;  // the first switch turns it to −s.dir = dir
}

// A PU that receives a direct stream (itself, or relayed `delay` steps later): first[p], the step in which the packet
// at position p of the stream's cycle reaches it without the stream (over its other streams and cycles; UINT64_MAX if
// never), and floor, the step by which every packet the stream cannot bring has reached it.
struct receiver {
  std::uint64_t delay = 0;
  std::vector<std::uint64_t> first;
  std::uint64_t floor = 0;
};

// The directions of a direct stream (supplier at `origin` on a cycle of m PUs) under the policy that let its receivers
// hold every packet soonest, the latest of them first, then in sum. `score(shape)` is the exact judge: (latest, sum)
// over the receivers, or nothing when the shape breaks a receiver's locality. Candidates: both plain directions; the
// least horizon T at which a matching exists of the stream's steps to the positions some receiver still lacks at T,
// each by step T − that receiver's delay (match_stream; monotone in T, so by bisection) — scheduled: that schedule,
// free steps turned in turn to either direction for locality; one switch: single switches around its first switch.
// Returns (latest, sum, shape) of the best candidate the judge accepted; latest UINT64_MAX if none.
template <typename Score>
std::tuple<std::uint64_t, std::uint64_t, stream_shape> tune_stream(std::uint64_t m, std::uint64_t origin, const std::vector<receiver>& receivers,
                                                                   supply_policy policy, const Score& score) {
  std::tuple<std::uint64_t, std::uint64_t, stream_shape> best{std::numeric_limits<std::uint64_t>::max(), 0, {origin, -1, 0, {}}};
  auto consider = [&](const stream_shape& shape) {
    const std::optional<std::pair<std::uint64_t, std::uint64_t>> judged = score(shape);
    if (judged && std::tie(judged->first, judged->second) < std::tie(std::get<0>(best), std::get<1>(best))) best = {judged->first, judged->second, shape};
  };
  for (int dir : {-1, 1}) consider({origin, dir, 0, {}});
  if (policy == supply_policy::time_independent) return best;
  std::uint64_t lo = 1, hi = m;
  for (const receiver& r : receivers) lo = std::max(lo, r.floor), hi = std::max(hi, m + r.delay);
  hi = std::max(hi, lo);
  std::vector<std::uint64_t> deadline(m);
  std::vector<int> dirs;
  auto feasible = [&](std::uint64_t horizon) {
    std::fill(deadline.begin(), deadline.end(), 0);
    for (const receiver& r : receivers) {
      if (horizon <= r.delay || horizon < r.floor) return false;
      const std::uint64_t by = horizon - r.delay;
      for (std::uint64_t p = 0; p < m; ++p)
        if (r.first[p] > horizon) deadline[p] = deadline[p] == 0 ? by : std::min(deadline[p], by);
    }
    return match_stream(m, origin, horizon, deadline, dirs);
  };
  if (lo > hi || !feasible(hi)) return best;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (feasible(mid)) hi = mid;
    else lo = mid + 1;
  }
  if (!feasible(lo)) return best;
  for (int fill : {0, -1, 1}) {  // free steps: keep the direction (flips_of), or run −1, or +1 (locality)
    std::vector<int> filled = dirs;
    if (fill != 0)
      for (std::size_t k = 1; k < filled.size(); ++k)
        if (filled[k] == 0) filled[k] = fill;
    stream_shape shape{origin, -1, 0, {}};
    std::tie(shape.dir, shape.flips) = flips_of(filled, fill != 0 ? fill : -1);
    if (policy == supply_policy::scheduled) {
      consider(shape);
      continue;
    }
    if (!shape.flips.empty())  // one switch: around the matching's first switch
      for (std::uint64_t s = shape.flips.front() > 5 ? shape.flips.front() - 2 : 3; s <= shape.flips.front() + 2; ++s)
        for (int dir : {-1, 1}) consider({origin, dir, 0, {s}});
  }
  return best;
}

// cycle_routing under one policy, by the greedy below; a candidate stream scored by its own cycle's completion, or
// (by_arrival, up to whole_supply_limit PUs) by when every packet reaches the PU over all its cycles. `estimate`: the (PU, cycle) pairs whose streams all run one way
// (no switch), and the step after which every PU holds every packet as the streams describe it (UINT64_MAX: some
// packet never arrives); {0, 0} when not computed (more than whole_supply_limit PUs, or a packet per cycle).
routing_table greedy_cycle_routing(const cycle_system& system, supply_policy policy, bool one_packet, bool by_arrival,
                                   std::pair<std::uint64_t, std::uint64_t>& estimate) {
  const torus& net = system.network;
  const pu_index P = net.size();
  const std::uint32_t ports = net.ports();
  const auto cycles = static_cast<std::uint32_t>(system.cycles.size());
  if (cycles == 0) throw std::invalid_argument("cycle routing: no cycles");
  if (!one_packet && cycles > 64) throw std::invalid_argument("cycle routing: at most 64 packets per PU");
  routing_table t{net, one_packet ? 1u : cycles, std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, no_port),
                  std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, no_packet), {}};
  // where[pu · cycles + c]: the position of pu on cycle c, or none
  std::vector<std::uint64_t> where(static_cast<std::size_t>(P) * cycles, std::numeric_limits<std::uint64_t>::max());
  for (std::uint32_t c = 0; c < cycles; ++c) {
    const torus_cycle& cy = system.cycles[c];
    const std::uint64_t m = cy.length();
    if (m < 2 || cy.ports.size() != m) throw std::invalid_argument("cycle routing: cycle " + std::to_string(c) + " is malformed");
    if (!one_packet && m != P) throw std::invalid_argument("cycle routing: with one packet per cycle every cycle must be Hamiltonian");
    for (std::uint64_t i = 0; i < m; ++i) {
      const pu_index pu = cy.pus[i];
      if (pu >= P || cy.ports[i] >= ports || net.neighbor(pu, cy.ports[i]) != cy.pus[(i + 1) % m])
        throw std::invalid_argument("cycle routing: cycle " + std::to_string(c) + " position " + std::to_string(i) + " is not a link to the next PU");
      // A closed trail may pass a PU twice (Section 4.3.4: two zigzags through one PU); the first visit places it.
      if (where[pu * cycles + c] != std::numeric_limits<std::uint64_t>::max()) {
        if (!one_packet) throw std::invalid_argument("cycle routing: cycle " + std::to_string(c) + " visits PU " + std::to_string(pu) + " twice");
      } else {
        where[pu * cycles + c] = i;
      }
      const std::uint32_t out = cy.ports[i], back = torus::opposite(cy.ports[(i + m - 1) % m]);
      t.forward_at(pu, out) = back;  // the in-port from the predecessor is the port leading back to it
      t.forward_at(pu, back) = out;
      t.inject_at(pu, out) = t.inject_at(pu, back) = one_packet ? 0 : c;
    }
  }
  // link_used[pu · ports + p]: a cycle, or (set below) a supply stream runs over the link leaving pu by port p.
  const cycle_links links = map_cycle_links(system);  // every position was checked above
  if (links.shared)
    throw std::invalid_argument("cycle routing: the cycles share the link leaving PU " + std::to_string(links.shared->pu) + " by port " + std::to_string(links.shared->port));
  std::vector<char> link_used(links.owner.size());
  for (std::size_t k = 0; k < link_used.size(); ++k) link_used[k] = links.owner[k] != cycle_links::none;
  if (one_packet)
    for (pu_index pu = 0; pu < P; ++pu) {
      bool on_some = false;
      for (std::uint32_t c = 0; c < cycles; ++c) on_some = on_some || where[pu * cycles + c] != std::numeric_limits<std::uint64_t>::max();
      if (!on_some) throw std::invalid_argument("cycle routing: PU " + std::to_string(pu) + " lies on no cycle, so its packet never leaves");
    }
  auto on = [&](pu_index pu, std::uint32_t c) { return where[pu * cycles + c] != std::numeric_limits<std::uint64_t>::max(); };
  // in-port of an on-cycle PU carrying direction dir of cycle c (+1: from the successor, −1: from the predecessor)
  auto cycle_in_port = [&](pu_index pu, std::uint32_t c, int dir) {
    const torus_cycle& cy = system.cycles[c];
    const std::uint64_t i = where[pu * cycles + c], m = cy.length();
    return dir > 0 ? cy.ports[i] : torus::opposite(cy.ports[(i + m - 1) % m]);
  };
  // carries[pu · cycles + c]: an in-port of pu (off cycle c) on which a stream of cycle c arrives, once supplied
  std::vector<std::uint32_t> carries(static_cast<std::size_t>(P) * cycles * 2, none);
  // carried: the shape of that stream (origin position, direction, delay; plain unless it switches)
  std::vector<stream_shape> carried(static_cast<std::size_t>(P) * cycles * 2);
  std::vector<std::uint32_t> supplied(static_cast<std::size_t>(P) * cycles, 0);  // streams of cycle c arriving
  std::vector<std::vector<std::size_t>> relay_children(static_cast<std::size_t>(P) * cycles * 2);  // the streams relaying each
  std::vector<char> paired(static_cast<std::size_t>(P) * cycles * 2, 0);  // one of round 0's pairs (best_supply's plan)
  auto free_in_port = [&](pu_index pu, std::uint32_t p) { return !link_used[net.neighbor(pu, p) * ports + torus::opposite(p)]; };

  std::map<std::tuple<std::uint64_t, std::uint64_t, supply_policy>, supply_plan> plans;  // by (length, gap, policy)
  // Round 0: pairs of adjacent on-cycle suppliers, chosen per PU by a small exhaustive search over its free in-ports.
  for (pu_index v = 0; v < P; ++v) {
    std::vector<std::uint32_t> need;
    for (std::uint32_t c = 0; c < cycles; ++c)
      if (!on(v, c)) need.push_back(c);
    if (need.empty()) continue;
    std::vector<std::uint32_t> free_ports;
    for (std::uint32_t p = 0; p < ports; ++p)
      if (free_in_port(v, p)) free_ports.push_back(p);
    struct choice {
      std::uint32_t p = none, q = none;
      supply_plan plan;
    };
    std::vector<choice> current(need.size()), best(need.size());
    std::size_t best_count = 0, best_starved = need.size() + 1;
    std::uint64_t best_worst = std::numeric_limits<std::uint64_t>::max();
    std::vector<char> taken(ports, 0);
    // starved: needs left without a pair whose only direct links the pairs took (they would get nothing directly)
    auto starved = [&]() {
      std::size_t n = 0;
      for (std::size_t k = 0; k < need.size(); ++k) {
        if (current[k].p != none) continue;
        bool had = false, left = false;
        for (std::uint32_t p : free_ports) {
          if (!on(net.neighbor(v, p), need[k])) continue;
          had = true;
          left = left || !taken[p];
        }
        n += had && !left;
      }
      return n;
    };
    auto search = [&](auto&& self, std::size_t k, std::size_t count, std::uint64_t worst) -> void {
      if (k == need.size()) {
        const std::size_t st = starved();
        if (st < best_starved || (st == best_starved && (count > best_count || (count == best_count && worst < best_worst))))
          best = current, best_count = count, best_worst = worst, best_starved = st;
        return;
      }
      const std::uint32_t c = need[k];
      const std::uint64_t m = system.cycles[c].length();
      for (std::size_t x = 0; x < free_ports.size(); ++x)
        for (std::size_t y = 0; y < free_ports.size(); ++y) {
          const std::uint32_t p = free_ports[x], q = free_ports[y];
          if (p == q || taken[p] || taken[q]) continue;
          const pu_index a = net.neighbor(v, p), b = net.neighbor(v, q);
          if (!on(a, c) || !on(b, c)) continue;  // a == b: one supplier over two links (n_j = 2)
          const std::uint64_t pa = where[a * cycles + c], pb = where[b * cycles + c];
          const std::uint64_t gap = (pb + m - pa) % m;
          if (gap > m / 2 || (gap * 2 == m && p > q)) continue;  // each unordered pair once, A before B
          const auto key = std::make_tuple(m, gap, policy);
          auto known = plans.find(key);
          if (known == plans.end()) known = plans.emplace(key, best_supply(m, gap, policy)).first;
          const supply_plan& plan = known->second;
          taken[p] = taken[q] = 1;
          current[k] = {p, q, plan};
          self(self, k + 1, count + 1, std::max(worst, plan.steps));
          taken[p] = taken[q] = 0;
        }
      current[k] = {};
      self(self, k + 1, count, worst);
    };
    search(search, 0, 0, 0);
    for (std::size_t k = 0; k < need.size(); ++k) {
      const choice& ch = best[k];
      if (ch.p == none) continue;
      const std::uint32_t c = need[k];
      for (int side = 0; side < 2; ++side) {
        const std::uint32_t in = side == 0 ? ch.p : ch.q;  // in-port of v
        const pu_index s = net.neighbor(v, in);
        const std::uint32_t out = torus::opposite(in);   // out-port of the supplier
        const int dir = side == 0 ? ch.plan.direction_a : ch.plan.direction_b;
        const std::vector<std::uint64_t>& flips = side == 0 ? ch.plan.switches_a : ch.plan.switches_b;
        t.forward_at(s, out) = cycle_in_port(s, c, dir);
        t.inject_at(s, out) = 0;
        for (std::size_t f = 0; f < flips.size(); ++f) t.switches.push_back({s, out, flips[f], cycle_in_port(s, c, f % 2 == 0 ? -dir : dir)});
        link_used[s * ports + out] = 1;
        carries[(v * cycles + c) * 2 + side] = in;
        carried[(v * cycles + c) * 2 + side] = {where[s * cycles + c], dir, 0, flips};
        paired[(v * cycles + c) * 2 + side] = 1;
      }
      supplied[v * cycles + c] = 2;
    }
  }
  // What v holds when: the step each PU's packet first reaches v (over the cycles v lies on, both ways, and the streams
  // it is supplied with; `with` in place of v's streams of cycle c), as (PUs never reached, the latest step).
  const bool whole_supply = one_packet && P <= whole_supply_limit;
  std::vector<std::uint64_t> arrival(whole_supply ? P : 0);
  auto arrival_score = [&](pu_index v, std::uint32_t c, const std::vector<stream_shape>& with) {
    std::fill(arrival.begin(), arrival.end(), std::numeric_limits<std::uint64_t>::max());
    arrival[v] = 0;
    auto reach = [&](pu_index w, std::uint64_t t) { arrival[w] = std::min(arrival[w], t); };
    for (std::uint32_t k = 0; k < cycles; ++k) {
      const torus_cycle& cy = system.cycles[k];
      const std::uint64_t len = cy.length();
      if (on(v, k)) {
        for (std::uint64_t i = 0; i < len; ++i)
          if (cy.pus[i] == v)
            for (std::uint64_t j = 1; j < len; ++j) reach(cy.pus[(i + j) % len], j), reach(cy.pus[(i + len - j) % len], j);
        continue;
      }
      const std::size_t count = k == c ? with.size() : supplied[v * cycles + k];
      for (std::size_t x = 0; x < count; ++x) {
        const stream_shape& sh = k == c ? with[x] : carried[(v * cycles + k) * 2 + x];
        std::size_t flipped = 0;
        for (std::uint64_t t = sh.delay + 1; t <= last_useful_step(sh, len); ++t) reach(cy.pus[delivered(sh, t, len, flipped)], t);
      }
    }
    std::uint64_t never = 0, latest = 0;
    for (std::uint64_t a : arrival)
      if (a == std::numeric_limits<std::uint64_t>::max()) ++never;
      else latest = std::max(latest, a);
    return std::make_pair(never, latest);
  };
  // Later rounds: single streams from an on-cycle neighbour, then relays of a neighbour's stream, one step later
  // each. Each pick is, after the rank below, the candidate whose stream, with those v already has, covers the cycle
  // soonest, or (by_arrival) brings v every packet soonest over all its cycles.
  for (bool direct_only : {true, false})
    for (bool progress = true; progress;) {
      progress = false;
      for (pu_index v = 0; v < P; ++v) {
        // The cycles v still needs, those with the fewest usable free links first (they compete for the links).
        auto usable = [&](std::uint32_t c) {
          std::uint32_t n = 0;
          for (std::uint32_t p = 0; p < ports; ++p) {
            const pu_index s = net.neighbor(v, p);
            n += free_in_port(v, p) && (on(s, c) || (!direct_only && supplied[s * cycles + c] > 0));
          }
          return n;
        };
        std::vector<std::uint32_t> order;
        for (std::uint32_t c = 0; c < cycles; ++c)
          if (!on(v, c) && supplied[v * cycles + c] < 2) order.push_back(c);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return usable(a) < usable(b); });
        for (std::uint32_t c : order) {
          if (supplied[v * cycles + c] == 2) continue;
          const std::uint64_t m = system.cycles[c].length();
          struct candidate {
            std::uint32_t port, source;  // v's in-port; the in-port of the neighbour it forwards
            bool inject;
            stream_shape shape;
            std::uint32_t relayed = none;  // a relay: which of the neighbour's streams of c (0 or 1)
          };
          std::vector<candidate> found;
          for (std::uint32_t p = 0; p < ports; ++p) {
            if (!free_in_port(v, p)) continue;
            const pu_index s = net.neighbor(v, p);
            if (on(s, c)) {
              for (int dir : {-1, 1}) found.push_back({p, cycle_in_port(s, c, dir), true, {where[s * cycles + c], dir, 0, {}}});
            } else if (!direct_only) {
              for (std::uint32_t k = 0; k < supplied[s * cycles + c]; ++k) {
                const stream_shape& from = carried[(s * cycles + c) * 2 + k];
                found.push_back({p, carries[(s * cycles + c) * 2 + k], false, {from.origin, from.dir, from.delay + 1, from.flips}, k});
              }
            }
          }
          if (found.empty()) continue;
          std::vector<stream_shape> have;
          for (std::uint32_t k = 0; k < supplied[v * cycles + c]; ++k) have.push_back(carried[(v * cycles + c) * 2 + k]);
          // One stream per (PU, cycle) and round, so that every cycle of a PU gets a turn at its free links; a
          // switching stream is relayed only when no plain one is at hand (its switch steps are tuned for its PU).
          // Ranked by: plain before switching; then (locality) delivering the direction v still misses; then steps.
          int missing = have.size() == 1 && have[0].plain() ? -have[0].dir : 0;
          if (have.empty()) {
            // A neighbour off the cycle that already has one plain stream may relay it to v later (over a free link):
            // then v's own stream should run the other way, so that between them both get both directions.
            for (std::uint32_t p = 0; p < ports && missing == 0; ++p) {
              const pu_index s = net.neighbor(v, p);
              if (!free_in_port(v, p) || on(s, c) || supplied[s * cycles + c] != 1) continue;
              const stream_shape& other = carried[(s * cycles + c) * 2];
              if (other.plain()) missing = -other.dir;
            }
          }
          auto rank = [&](const candidate& x) { return (x.shape.plain() ? 0 : 2) + (missing != 0 && x.shape.plain() && x.shape.dir != missing ? 1 : 0); };
          std::pair<std::uint64_t, std::uint64_t> best{std::numeric_limits<std::uint64_t>::max(), 0};
          std::size_t pick = found.size();
          for (std::size_t x = 0; x < found.size(); ++x) {
            std::vector<stream_shape> with = have;
            with.push_back(found[x].shape);
            const auto score = whole_supply && by_arrival ? arrival_score(v, c, with) : std::make_pair(std::uint64_t{0}, completion_of(m, with));
            if (pick == found.size() || rank(found[x]) < rank(found[pick]) || (rank(found[x]) == rank(found[pick]) && score < best))
              best = score, pick = x;
          }
          {
            const candidate& ch = found[pick];
            const pu_index s = net.neighbor(v, ch.port);
            const std::uint32_t out = torus::opposite(ch.port);
            t.forward_at(s, out) = ch.source;
            if (ch.inject) t.inject_at(s, out) = 0;
            if (ch.relayed != none) relay_children[(s * cycles + c) * 2 + ch.relayed].push_back((v * cycles + c) * 2 + supplied[v * cycles + c]);
            link_used[s * ports + out] = 1;
            const std::uint32_t k = supplied[v * cycles + c]++;
            carries[(v * cycles + c) * 2 + k] = ch.port;
            carried[(v * cycles + c) * 2 + k] = ch.shape;
          }
          progress = true;
        }
      }
    }
  // Retuning. A direct stream's directions were chosen for its own PU — round 0's pairs by best_supply, later rounds
  // one fixed direction before the PU's other stream was known — while neighbours relay it, one step later each, beside
  // streams of their own (on 4 x 4 x 4 x 8 some PUs get a cycle of 192 only by two relays of switching streams and
  // waited 182 steps for it). So, up to whole_supply_limit PUs: every PU's completion as the streams describe it; then,
  // in rounds while the latest falls (at most 8), each direct stream that reaches a PU completing last (itself or
  // relayed, transitively) gets its directions chosen again for all PUs that receive it (tune_stream, judged by when
  // each holds every packet over all its cycles), kept where the latest of those completes sooner, or as soon and the
  // sum falls, with the locality property kept at each (a receiver whose other streams run one way only gets a
  // stream that runs the other way before it completes). No PU ever completes later than the latest did.
  if (one_packet && P <= whole_supply_limit) {
    constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();
    auto completion_at = [&](pu_index w, std::uint32_t c, const std::vector<stream_shape>& with) {
      const auto [missed, latest] = arrival_score(w, c, with);
      return missed > 0 ? never : latest;
    };
    std::vector<std::uint64_t> done(P);
    for (pu_index w = 0; w < P; ++w) done[w] = completion_at(w, cycles, {});
    std::vector<char> retuned(static_cast<std::size_t>(P) * ports, 0);
    std::vector<std::vector<port_switch>> link_switches(static_cast<std::size_t>(P) * ports);
    auto streams_of = [&](std::size_t slot) {  // every stream of slot's (PU, cycle); the slot's own is [slot % 2]
      const std::size_t base = slot - slot % 2;
      std::vector<stream_shape> all;
      for (std::uint32_t x = 0; x < supplied[base / 2]; ++x) all.push_back(carried[base + x]);
      return all;
    };
    for (int round = 0; round < 8; ++round) {
      const std::uint64_t latest = *std::max_element(done.begin(), done.end());
      if (latest == never) break;
      bool changed = false;
      for (std::size_t at = 0; at < carried.size(); ++at) {
        const std::size_t pair = at / 2;  // v · cycles + c
        const pu_index v = static_cast<pu_index>(pair / cycles);
        const auto c = static_cast<std::uint32_t>(pair % cycles);
        if (on(v, c) || at % 2 >= supplied[pair] || carried[at].delay != 0) continue;
        // A pair of round 0 that nobody relays has best_supply's plan, the soonest for its cycle: left as it is.
        if (paired[at] && paired[at ^ 1] && relay_children[at].empty() && relay_children[at ^ 1].empty()) continue;
        std::vector<std::size_t> slots{at};  // the receivers: v, and every PU relaying the stream (transitively)
        for (std::size_t i = 0; i < slots.size(); ++i)
          for (std::size_t child : relay_children[slots[i]]) slots.push_back(child);
        bool critical = false, twice = false;  // twice: a PU that gets the stream over two ways (the judge takes one)
        for (std::size_t i = 0; i < slots.size(); ++i) {
          critical = critical || done[slots[i] / 2 / cycles] == latest;
          for (std::size_t j = 0; j < i; ++j) twice = twice || slots[j] / 2 == slots[i] / 2;
        }
        if (!critical || twice) continue;
        const torus_cycle& cy = system.cycles[c];
        const std::uint64_t m = cy.length();
        std::vector<receiver> receivers;
        std::vector<int> needs;
        std::uint64_t before = 0, before_sum = 0;
        for (std::size_t slot : slots) {
          const pu_index w = static_cast<pu_index>(slot / 2 / cycles);
          std::vector<stream_shape> others = streams_of(slot);
          others.erase(others.begin() + static_cast<std::ptrdiff_t>(slot % 2));
          arrival_score(w, c, others);  // fills `arrival`: each packet's step without this stream
          receiver r;
          r.delay = carried[slot].delay;
          r.first.resize(m);
          for (std::uint64_t p = 0; p < m; ++p) r.first[p] = arrival[cy.pus[p]];
          for (std::uint64_t p = 0; p < m; ++p) arrival[cy.pus[p]] = 0;  // what the stream may bring
          r.floor = *std::max_element(arrival.begin(), arrival.end());
          if (r.floor == never) break;  // some packet the stream cannot bring never arrives: nothing to tune for
          bool up = false, down = false;
          for (const stream_shape& o : others) up = up || !o.plain() || o.dir > 0, down = down || !o.plain() || o.dir < 0;
          needs.push_back(others.empty() || (up && down) ? 0 : up ? -1 : 1);
          before = std::max(before, done[w]), before_sum += done[w];
          receivers.push_back(std::move(r));
        }
        if (receivers.size() < slots.size()) continue;
        bool stuck = false;  // a receiver completing last waits for packets the stream cannot bring
        for (std::size_t i = 0; i < slots.size(); ++i) stuck = stuck || (done[slots[i] / 2 / cycles] == latest && receivers[i].floor >= latest);
        if (stuck) continue;
        // The judge: when each receiver holds every packet with the stream shaped so — a packet of the cycle at the
        // sooner of its step without the stream and the stream's delivery, every other by the receiver's floor.
        auto score = [&](const stream_shape& shape) -> std::optional<std::pair<std::uint64_t, std::uint64_t>> {
          std::uint64_t worst = 0, sum = 0;
          for (std::size_t i = 0; i < slots.size(); ++i) {
            const receiver& r = receivers[i];
            const stream_shape mine{shape.origin, shape.dir, r.delay, shape.flips};
            for (std::uint64_t p = 0; p < m; ++p) arrival[cy.pus[p]] = r.first[p];
            std::size_t flipped = 0;
            for (std::uint64_t t = r.delay + 1; t <= last_useful_step(mine, m); ++t) {
              std::uint64_t& a = arrival[cy.pus[delivered(mine, t, m, flipped)]];
              a = std::min(a, t);
            }
            std::uint64_t when = r.floor;
            for (std::uint64_t p = 0; p < m; ++p) when = std::max(when, arrival[cy.pus[p]]);
            if (when == never || (needs[i] != 0 && !runs(mine, needs[i], when))) return std::nullopt;
            worst = std::max(worst, when), sum += when;
          }
          return std::make_pair(worst, sum);
        };
        const auto [after, after_sum, shape] = tune_stream(m, carried[at].origin, receivers, policy, score);
        if (std::tie(after, after_sum) >= std::tie(before, before_sum)) continue;
        const pu_index s = net.neighbor(v, carries[at]);
        const std::uint32_t out = torus::opposite(carries[at]);
        t.forward_at(s, out) = cycle_in_port(s, c, shape.dir);
        retuned[static_cast<std::size_t>(s) * ports + out] = 1;
        std::vector<port_switch>& mine = link_switches[static_cast<std::size_t>(s) * ports + out];
        mine.clear();
        for (std::size_t f = 0; f < shape.flips.size(); ++f)
          mine.push_back({s, out, shape.flips[f], cycle_in_port(s, c, f % 2 == 0 ? -shape.dir : shape.dir)});
        for (std::size_t slot : slots) {
          const std::uint64_t delay = carried[slot].delay;
          carried[slot] = shape;
          carried[slot].delay = delay;
        }
        for (std::size_t slot : slots) done[slot / 2 / cycles] = completion_at(static_cast<pu_index>(slot / 2 / cycles), cycles, {});
        changed = true;
      }
      if (!changed || *std::max_element(done.begin(), done.end()) >= latest) break;
    }
    std::erase_if(t.switches, [&](const port_switch& w) { return retuned[static_cast<std::size_t>(w.pu) * ports + w.port] != 0; });
    for (const auto& mine : link_switches) t.switches.insert(t.switches.end(), mine.begin(), mine.end());
  }
  for (pu_index v = 0; v < P; ++v)
    for (std::uint32_t c = 0; c < cycles; ++c)
      if (!on(v, c) && supplied[v * cycles + c] == 0)  // one stream still delivers every packet (slowly); none does not
        throw std::invalid_argument("cycle routing on " + net.name() + ": the greedy supply found no free link to bring PU " + std::to_string(v) +
                                    " (off cycle " + std::to_string(c) +
                                    ") that cycle's packets (a limit of the greedy, not a proof that none exists: the SAT supply, smt/torus_supply, may find one)");
  estimate = {0, 0};
  if (whole_supply)
    for (pu_index v = 0; v < P; ++v) {
      for (std::uint32_t c = 0; c < cycles; ++c) {  // a supply of plain streams all one way misses a direction
        if (on(v, c)) continue;
        bool up = false, down = false;
        for (std::uint32_t k = 0; k < supplied[v * cycles + c]; ++k) {
          const stream_shape& sh = carried[(v * cycles + c) * 2 + k];
          up = up || !sh.plain() || sh.dir > 0, down = down || !sh.plain() || sh.dir < 0;
        }
        estimate.first += !(up && down);
      }
      const auto [never, latest] = arrival_score(v, cycles, {});  // cycles: no cycle replaced, v's own streams
      estimate.second = never > 0 ? std::numeric_limits<std::uint64_t>::max() : std::max(estimate.second, latest);
    }
  return t;
}

}  // namespace

std::uint64_t theorem_7_switching_bound(const torus& network) {
  const std::uint64_t d = network.dimension(), P = network.size(), nd = network.dims().back();
  return ((nd + d) * P + 2 * d * nd - 1) / (2 * d * nd) + 2;
}

routing_table cycle_table(const cycle_system& system) {
  const torus& net = system.network;
  const std::size_t links = static_cast<std::size_t>(net.size()) * net.ports();
  routing_table t{net, 1, std::vector<std::uint32_t>(links, no_port), std::vector<std::uint32_t>(links, no_packet), {}};
  for (const torus_cycle& cy : system.cycles) {
    const std::size_t m = cy.length();
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint32_t out = cy.ports[i], back = torus::opposite(cy.ports[(i + m - 1) % m]);
      t.forward_at(cy.pus[i], out) = back;
      t.forward_at(cy.pus[i], back) = out;
      t.inject_at(cy.pus[i], out) = t.inject_at(cy.pus[i], back) = 0;
    }
  }
  return t;
}

routing_table cycle_routing(const cycle_system& system, supply_policy policy, bool one_packet) {
  // The greedy is myopic, and neither way of scoring a stream is always better (5^5 with fixed directions: 646 steps
  // by cycle completion, 720 by arrival). A policy allows what the weaker ones do (scheduled ⊇ one switch ⊇
  // time-independent), and the greedy for a stronger one is not always better either (it relays streams whose switches
  // were tuned for another PU). So where the streams' delivery is estimated (up to whole_supply_limit PUs, one packet
  // per PU) every such greedy table is built, and the one kept that leaves the fewest (PU, cycle) pairs with one
  // direction only, then has the soonest estimated completion (the requested policy, scored by completion, on a tie).
  // With scheduled switching the matched supply (matched_supply.cpp) guarantees max_c ⌊m_c/2⌋ + 2 steps where it
  // applies (simple cycles, two sources for every pair); its work grows as P · m, so above whole_supply_limit PUs it is
  // built only up to matched_work_limit, and then taken without building the greedy (which has no estimate there).
  std::optional<routing_table> matched;
  std::pair<std::uint64_t, std::uint64_t> matched_estimate;
  if (policy == supply_policy::scheduled && one_packet) {
    std::uint64_t longest = 0;
    for (const torus_cycle& cy : system.cycles) longest = std::max<std::uint64_t>(longest, cy.length());
    const bool small = system.network.size() <= whole_supply_limit;
    if (small || static_cast<std::uint64_t>(system.network.size()) * longest <= matched_work_limit) {
      matched = matched_cycle_routing(system, &matched_estimate);
      if (matched && !small) return std::move(*matched);
    }
  }
  // The packet-matched supply (packet_supply.cpp) competes on the same terms, up to whole_supply_limit PUs, closed
  // trails included; its search asks only targets below the best table so far (when that one gives every pair both
  // directions). The greedy may throw (a PU it leaves without a stream): then the packet-matched table, if there is
  // one, is given.
  std::pair<std::uint64_t, std::uint64_t> best_estimate;
  std::optional<routing_table> greedy;
  std::exception_ptr greedy_error;
  try {
    greedy = greedy_cycle_routing(system, policy, one_packet, false, best_estimate);
  } catch (const std::invalid_argument&) {
    greedy_error = std::current_exception();
  }
  std::optional<routing_table> packets;
  std::pair<std::uint64_t, std::uint64_t> packets_estimate;
  if (policy == supply_policy::scheduled && one_packet && system.network.size() <= whole_supply_limit) {
    std::uint64_t below = 0;  // 0: no limit
    const auto limit_by = [&](const std::pair<std::uint64_t, std::uint64_t>& e) {
      if (e.first == 0) below = below == 0 ? e.second : std::min(below, e.second);
    };
    if (greedy) limit_by(best_estimate);
    if (matched) limit_by(matched_estimate);
    if (below != 1) packets = least_packet_matched_routing(system, &packets_estimate, below == 0 ? 0 : below - 1);
  }
  if (!greedy) {
    if (!packets) std::rethrow_exception(greedy_error);
    return std::move(*packets);
  }
  routing_table best = std::move(*greedy);
  if (!one_packet || system.network.size() > whole_supply_limit) return best;  // no estimate to compare
  if (matched && matched_estimate < best_estimate) best = std::move(*matched), best_estimate = matched_estimate;
  if (packets && packets_estimate < best_estimate) best = std::move(*packets), best_estimate = packets_estimate;
  std::vector<supply_policy> policies{policy};
  if (policy == supply_policy::scheduled) policies = {policy, supply_policy::one_switch, supply_policy::time_independent};
  if (policy == supply_policy::one_switch) policies = {policy, supply_policy::time_independent};
  for (supply_policy p : policies)
    for (bool by_arrival : {false, true}) {
      if (p == policy && !by_arrival) continue;  // built above
      std::pair<std::uint64_t, std::uint64_t> estimate;
      routing_table other = greedy_cycle_routing(system, p, one_packet, by_arrival, estimate);
      if (estimate < best_estimate) best = std::move(other), best_estimate = estimate;
    }
  return best;
}

}  // namespace dancecard
