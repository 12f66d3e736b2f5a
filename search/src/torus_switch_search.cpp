// Edge-disjoint Hamiltonian cycles of any torus with sizes >= 3 by randomized square switches (no paper: a search;
// every result is walked and checked).
#include "dancecard/search/torus_cycles.hpp"

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

namespace {

// One attempt of switch_search_decomposition: the colour of every link (class per link), or nothing when stuck.
std::optional<std::vector<std::uint8_t>> switch_attempt(const torus::network& network, std::uint64_t seed,
                                                        std::uint64_t max_rounds) {
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

std::optional<cycle_system> switch_search_decomposition(const torus::network& network, std::uint64_t seed,
                                                        std::uint64_t max_rounds) {
  const std::uint32_t d = network.dimension();
  for (std::uint32_t j = 0; j < d; ++j)
    if (network.dims()[j] < 3)
      throw std::invalid_argument("square-switch search on " + network.name() + ": needs every n_j >= 3, n_" +
                                  std::to_string(j + 1) + " = " + std::to_string(network.dims()[j]));
  const pu_index P = network.size();
  std::optional<std::vector<std::uint8_t>> found;
  for (std::uint64_t attempt = 0; attempt < 20 && !found;
       ++attempt)  // a stuck attempt restarts from the rings, reseeded
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
        if (colour[at * d + k] == c && plus(at, k) != previous)
          port = 2 * k;
        else if (colour[minus(at, k) * d + k] == c && minus(at, k) != previous)
          port = 2 * k + 1;
      }
      if (port == no_port) throw std::logic_error("square-switch search: a PU without a second link of its class");
      cycle.pus.push_back(at);
      cycle.ports.push_back(port);
      previous = at;
      at = network.neighbor(at, port);
    } while (at != 0);
    if (cycle.length() != P)
      throw std::logic_error("square-switch search: class " + std::to_string(c) + " is not one Hamiltonian cycle");
    out.cycles.push_back(std::move(cycle));
  }
  return out;
}

}  // namespace dancecard::torus
