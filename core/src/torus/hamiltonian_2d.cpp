// Two edge-disjoint Hamiltonian cycles of a 2-D torus (Meyer and Sibeyn, Section 3.1's rules for even sizes) and by
// square switches (Kotzig's argument for C_m x C_n) for any sizes >= 3.
#include "dancecard/core/torus/cycles.hpp"

#include "cycles_detail.hpp"

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

namespace cycles_detail {

// Walks the closed trail that leaves `start` by `port`, following a pairing (what arrives on p leaves by partner[p]).
torus_cycle walk_pairing(const torus::network& network, const std::vector<std::uint32_t>& partner, pu_index start,
                         std::uint32_t port) {
  torus_cycle cycle;
  pu_index at = start;
  do {
    cycle.pus.push_back(at);
    cycle.ports.push_back(port);
    const pu_index next = network.neighbor(at, port);
    port = partner[next * network.ports() + torus::network::opposite(port)];
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
      if (port == B)
        r = (r + 1) % rows;
      else if (port == T)
        r = (r + rows - 1) % rows;
      else if (port == R)
        col = (col + 1) % cols;
      else
        col = (col + cols - 1) % cols;
      port = section_3_1_partner(cols, col, port ^ 1u);
    } while (!(r == 0 && col == 0));
    if (out[c].size() != rows * cols) throw std::logic_error("Section 3.1 rules: a cycle is not Hamiltonian");
  }
  return out;
}

}  // namespace cycles_detail

bool square_switches_apply(std::uint64_t rows, std::uint64_t cols) { return rows >= 3 && cols >= 3; }

namespace cycles_detail {

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
//   checkers: the paths, and that outside the block the larger torus is the smaller one) for R up to 30, C up to 14.
//   Every R, C reduces to the base by taking column blocks out while C >= 7 and row blocks while R >= 8.
// The square switches' schedule (above) in its R × C frame: R = rows, C = cols, unless rows is odd and cols even
// (then transposed, R = cols). Class 0 starts as the rows, class 1 as the columns.
edge_colouring square_switch_frame(std::uint64_t rows, std::uint64_t cols, bool& transposed) {
  if (!square_switches_apply(rows, cols))
    throw std::invalid_argument("square switches need both sizes >= 3, got " + std::to_string(rows) + "x" +
                                std::to_string(cols));
  transposed = rows % 2 == 1 && cols % 2 == 0;
  const std::uint64_t R = transposed ? cols : rows, C = transposed ? rows : cols;
  edge_colouring g{R, C, std::vector<std::uint8_t>(R * C, 0), std::vector<std::uint8_t>(R * C, 1)};
  auto flip = [&](std::uint64_t r, std::uint64_t c) {
    if (g.right[r * C + c] != 0 || g.right[((r + 1) % R) * C + c] != 0 || g.down[r * C + c] != 1 ||
        g.down[r * C + (c + 1) % C] != 1)
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
      throw std::logic_error("square switches on " + std::to_string(rows) + "x" + std::to_string(cols) +
                             ": a cycle is not Hamiltonian");
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
//   k != 0 and (2, 0, 1) for k = 0. Its return maps are affine conjugates of the odometer
//   (u, v) ↦ (u + 1, v + [u = 0]), a single m²-cycle, when m is odd (elementary; tests/torus_cycles_test.cpp
//   recomputes the return maps).
//   m even, m >= 6 (the paper's "Route E"): S = 1: (1, 0, 2) for i = 0, else (2, 0, 1); S = 2: (2, 1, 0) for j = 0,
//   else (0, 1, 2); S = 0: (1, 2, 0) except on three defect tracks near the lines j = 1, k = 0, i = 0 and a few
//   points, which differ for m ≡ 4 (mod 6) (Case II) from m ≡ 0, 2 (mod 6) (Case I) — transcribed below. Its proof in
//   the paper is long (a first-return reduction and a finite splice analysis); the walk in cube_3d checks every
//   instance, so a wrong transcription or a gap in the proof shows up as a std::logic_error, never as a wrong cycle.
//   m = 4 has no rule (the paper uses a finite witness there); m = 4 is refused.

}  // namespace cycles_detail

namespace cycles_detail {

cycle_system system_through(const torus::network& network, const std::vector<std::vector<std::uint64_t>>& sequences,
                            std::string construction) {
  cycle_system out{network, {}, std::move(construction)};
  std::vector<char> used(static_cast<std::size_t>(network.size()) * network.ports(), 0);
  for (const auto& sequence : sequences) {
    torus_cycle cycle;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
      const auto from = static_cast<pu_index>(sequence[i]),
                 to = static_cast<pu_index>(sequence[(i + 1) % sequence.size()]);
      std::uint32_t port = no_port;
      for (std::uint32_t p = 0; p < network.ports() && port == no_port; ++p) {
        const pu_index back = network.neighbor(to, torus::network::opposite(p));
        if (network.neighbor(from, p) == to && back == from && !used[from * network.ports() + p]) port = p;
      }
      if (port == no_port)
        throw std::logic_error("Hamilton decomposition: consecutive PUs are not joined by a free link");
      used[from * network.ports() + port] = used[to * network.ports() + torus::network::opposite(port)] = 1;
      cycle.pus.push_back(from);
      cycle.ports.push_back(port);
    }
    out.cycles.push_back(std::move(cycle));
  }
  return out;
}

}  // namespace cycles_detail

cycle_system square_switch_cycles(const torus::network& network) {
  if (network.dimension() != 2)
    throw std::invalid_argument("square switches: needs a 2-D torus, got " + network.name());
  const auto halves = switch_2d(network.dims()[0], network.dims()[1]);  // names sizes below 3
  return system_through(network, {halves.begin(), halves.end()}, "square-switches");
}

cycle_system hamiltonian_2d_cycles(const torus::network& network) {
  const routing_table table = hamiltonian_2d(network);       // names the conditions when they fail
  std::vector<std::uint32_t> partner(table.forward.size());  // what arrives on p leaves by the out-port forwarding p
  for (pu_index pu = 0; pu < network.size(); ++pu)
    for (std::uint32_t o = 0; o < 4; ++o) partner[pu * 4 + table.forward_at(pu, o)] = o;
  cycle_system out{network, {}, "hamiltonian"};
  out.cycles.push_back(walk_pairing(network, partner, 0, 2));  // leaves (0, 0) by R
  out.cycles.push_back(walk_pairing(network, partner, 0, 0));  // leaves (0, 0) by B
  return out;
}

}  // namespace dancecard::torus
