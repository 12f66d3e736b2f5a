// Zigzag cycles (Meyer and Sibeyn, Section 4): d edge-disjoint cycles of a d-dimensional torus that meets
// conditions (1)-(3), built lap by lap; the printed lap rule is checked for edge-disjointness on every torus built.
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

std::string zigzag_condition_failure(const torus::network& network) {
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
    return "zigzag cycles on " + network.name() +
           ": condition (1) fails: sum_{j=2}^{d-1} prod_{l=j}^{d-1} n_l = " + std::to_string(sum) +
           " is not a multiple of n_1 = " + std::to_string(n[0]);
  if (n[0] % d != 0)
    return "zigzag cycles on " + network.name() + ": condition (2) fails: n_1 = " + std::to_string(n[0]) +
           " is not a multiple of d = " + std::to_string(d);
  if (n[d - 1] < d)
    return "zigzag cycles on " + network.name() + ": condition (3) fails: n_d = " + std::to_string(n[d - 1]) +
           " is below d = " + std::to_string(d);
  return "";
}

cycle_system zigzag_trails(const torus::network& network) {
  if (const std::string failure = zigzag_condition_failure(network); !failure.empty())
    throw std::invalid_argument(failure);
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
  const torus::network& net = system.network;
  cycle_links out;
  out.ports = net.ports();
  out.owner.assign(static_cast<std::size_t>(net.size()) * out.ports, cycle_links::none);
  for (std::uint32_t c = 0; c < system.cycles.size(); ++c) {
    const torus_cycle& cy = system.cycles[c];
    const std::size_t m = cy.length();
    if (cy.ports.size() != m)
      throw std::invalid_argument("cycle " + std::to_string(c) + " has " + std::to_string(m) + " PUs but " +
                                  std::to_string(cy.ports.size()) + " ports");
    for (std::size_t i = 0; i < m; ++i) {
      const pu_index pu = cy.pus[i];
      const std::uint32_t port = cy.ports[i];
      if (pu >= net.size() || port >= out.ports || net.neighbor(pu, port) != cy.pus[(i + 1) % m])
        throw std::invalid_argument("cycle " + std::to_string(c) + " position " + std::to_string(i) +
                                    " is not a link to the next PU");
      // The link leaving pu by port is the link leaving the next PU by the opposite port: both ends are marked, so a
      // pass in either direction finds an earlier one at the end it leaves.
      std::uint32_t& here = out.owner[static_cast<std::size_t>(pu) * out.ports + port];
      if (here != cycle_links::none) {
        out.shared = cycle_links::pass{pu, port, here, c};
        return out;
      }
      here = c;
      out.owner[static_cast<std::size_t>(net.neighbor(pu, port)) * out.ports + torus::network::opposite(port)] = c;
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

cycle_system checked_zigzag_cycles(const torus::network& network);

}  // namespace

std::optional<std::vector<std::uint32_t>> zigzag_axis_order(const torus::network& network) {
  if (network.dimension() > 8)
    throw std::invalid_argument("zigzag_axis_order: at most 8 dimensions, got the " + network.name() + " torus");
  std::vector<std::uint32_t> order = network.dims();
  std::sort(order.begin(), order.end());
  std::vector<std::vector<std::uint32_t>> candidates;
  do {  // every distinct order, lexicographically
    if (zigzag_condition_failure(torus::network(order)).empty() && lap_rule_divides(order)) candidates.push_back(order);
  } while (std::next_permutation(order.begin(), order.end()));
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const auto& a, const auto& b) { return a.back() > b.back(); });
  std::optional<std::vector<std::uint32_t>> trails;  // the first order whose cycles pass some PU twice
  for (const std::vector<std::uint32_t>& n : candidates) {
    const torus::network t(n);
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

cycle_system zigzag_cycles(const torus::network& network) {
  try {
    return checked_zigzag_cycles(network);
  } catch (const std::invalid_argument& refused) {
    std::string hint;
    if (network.dimension() >= 2 && network.dimension() <= 8)
      if (const std::optional<std::vector<std::uint32_t>> order = zigzag_axis_order(network))
        hint = "; the same sizes in the order " + torus::network(*order).name() + " give edge-disjoint zigzag cycles";
    throw std::invalid_argument(refused.what() + hint);
  }
}

namespace {

cycle_system checked_zigzag_cycles(const torus::network& network) {
  cycle_system out = zigzag_trails(network);
  // Section 4.3.3 argues edge-disjointness for every admissible torus; with the printed lap rule it holds only where
  // n_1 = d or n_1 divides n_2, …, n_{d−2} (the lap starts of consecutive layers drift by n_1 − n_2 − 1 columns;
  // docs/torus.md, theorem-book row torus.lap_rule). Every zigzag move is positive, so the pass found leaves the lower
  // end of its link along +x_k.
  if (const std::optional<cycle_links::pass> shared = map_cycle_links(out).shared) {
    std::string where;
    for (std::uint32_t x : network.coordinates(shared->pu))
      where.append(where.empty() ? "(" : ",").append(std::to_string(x));
    const std::string link = "the link from PU " + where + ") along +x_" + std::to_string(shared->port / 2 + 1);
    throw std::invalid_argument("zigzag cycles on " + network.name() +
                                ": conditions (1)-(3) hold, but the printed lap rule (Section 4.3.1) makes " +
                                (shared->first == shared->second
                                     ? "cycle " + std::to_string(shared->second) + " run over " + link + " twice"
                                     : "cycles " + std::to_string(shared->first) + " and " +
                                           std::to_string(shared->second) + " both use " + link) +
                                ": Section 4.3.3's edge-disjointness fails on this torus (it holds where n_1 = d or "
                                "n_1 divides n_2, ..., n_{d-2}; docs/torus.md)");
  }
  return out;
}

}  // namespace

}  // namespace dancecard::torus
