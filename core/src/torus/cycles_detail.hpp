// Internal to core/src/torus: what the cycle constructions share across their files (the square switches' colouring
// and 2-D decompositions, which the products and the layered construction build on; the supply plans' stream shapes,
// which the routing schedules). Not installed.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dancecard/core/torus/cycles.hpp"

namespace dancecard::torus::cycles_detail {

// Two edge classes (0, 1) of the rows × cols torus, both sizes >= 3: the class of the edge from (r, c) to (r, c + 1)
// and of the edge to (r + 1, c), vertex (r, c) numbered r·cols + c.
struct edge_colouring {
  std::uint64_t rows = 0, cols = 0;
  std::vector<std::uint8_t> right, down;
  // The neighbour of w over an edge of `colour` other than `previous` (right, left, down, up: the first such), or
  // rows·cols when w has no such edge.
  std::uint64_t next(std::uint64_t w, std::uint8_t colour, std::uint64_t previous) const {
    const std::uint64_t r = w / cols, c = w % cols;
    const std::uint64_t to[4] = {r * cols + (c + 1) % cols, r * cols + (c + cols - 1) % cols,
                                 ((r + 1) % rows) * cols + c, ((r + rows - 1) % rows) * cols + c};
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
      for (std::uint64_t c = 0; c < cols; ++c)
        t.right[c * rows + r] = down[r * cols + c], t.down[c * rows + r] = right[r * cols + c];
    return t;
  }
};

// The square switches' schedule in its R x C frame (hamiltonian_2d.cpp): R = rows, C = cols, unless rows is odd and
// cols even (then transposed). Class 0 starts as the rows, class 1 as the columns.
edge_colouring square_switch_frame(std::uint64_t rows, std::uint64_t cols, bool& transposed);
// Two Hamiltonian cycles of the rows x cols torus by square switches, as sequences of indices row·cols + col.
std::array<std::vector<std::uint64_t>, 2> switch_2d(std::uint64_t rows, std::uint64_t cols);
// Two Hamiltonian cycles of the rows x cols torus: Section 3.1's rules when both are even, else square switches.
std::array<std::vector<std::uint64_t>, 2> decompose_2d(std::uint64_t rows, std::uint64_t cols);
// Section 3.1's pairing of every PU's ports on the rows x cols torus, [pu · 4 + port] -> port.
std::vector<std::uint32_t> section_3_1_partners(std::uint32_t rows, std::uint32_t cols);
// The cycle system whose cycles visit the PUs in these sequences of PU indices, named `construction`; checked.
cycle_system system_through(const torus::network& network, const std::vector<std::vector<std::uint64_t>>& sequences,
                            std::string construction);

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
// far (the caller visits steps in increasing order). (supply_plans.cpp)
std::uint64_t delivered(const stream_shape& s, std::uint64_t t, std::uint64_t m, std::size_t& flipped);
// The last step worth stepping a stream to: after its last switch it delivers every position within m steps.
std::uint64_t last_useful_step(const stream_shape& s, std::uint64_t m);
// The step after which the streams together have delivered all m positions of their cycle (UINT64_MAX if never).
std::uint64_t completion_of(std::uint64_t m, const std::vector<stream_shape>& streams);
// One scheduled stream beside streams already fixed: can its directions dirs[t - 1] (+1, -1, or 0 where step t is
// free) be chosen so that it delivers every position p with deadline[p] != 0 by step deadline[p]?
bool match_stream(std::uint64_t m, std::uint64_t origin, std::uint64_t horizon,
                  const std::vector<std::uint64_t>& deadline, std::vector<int>& dirs);
// Directions per step (0: free) to a first direction and flip steps, keeping the direction where the step is free.
std::pair<int, std::vector<std::uint64_t>> flips_of(const std::vector<int>& dirs, int fallback);
// The flip steps of a stream that switches once, in step s (none for s = 0).
std::vector<std::uint64_t> one_flip(std::uint64_t s);

}  // namespace dancecard::torus::cycles_detail
