// Partial cycles (Meyer and Sibeyn, Sections 3.2 and 3.3): two edge-disjoint cycles through all but a few PUs of a
// 2-D torus with an odd number of columns.
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

cycle_system partial_2d_cycles(const torus::network& network) {
  if (network.dimension() != 2)
    throw std::invalid_argument("partial cycles (Section 3.2): needs a 2-D torus, got " + network.name());
  const std::uint32_t rows = network.dims()[0], cols = network.dims()[1];
  if (cols % 2 != 1 || cols < 5 || (rows % 2 == 1 && rows < 5))
    throw std::invalid_argument("partial cycles (Sections 3.2, 3.3) on " + network.name() +
                                ": needs n2 (columns) odd, at least 5, and n1 (rows) even or odd at least 5");
  std::vector<std::uint32_t> partner = section_3_1_partners(rows, cols);
  constexpr std::uint32_t B = 0, T = 1, R = 2, L = 3;
  auto at = [&](std::uint32_t row, std::uint32_t col) {
    return &partner[(static_cast<std::size_t>(row) * cols + col) * 4];
  };
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
      if (j + 2 < cols)
        p[T] = B, p[B] = T, p[L] = R, p[R] = L;
      else
        p[B] = R, p[R] = B, p[T] = L, p[L] = T;
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
        const std::uint32_t arrive = torus::network::opposite(leave);
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

}  // namespace dancecard::torus
