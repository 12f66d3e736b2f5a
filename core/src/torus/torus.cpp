// Tori, routing tables and the Section 3.1 construction.
#include "dancecard/core/torus/torus.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace dancecard::torus {

network::network(std::vector<std::uint32_t> dims) : dims_(std::move(dims)) {
  if (dims_.empty() || dims_.size() > 8)
    throw std::invalid_argument("torus: expected 1 to 8 dimensions, got " + std::to_string(dims_.size()));
  std::uint64_t size = 1;
  for (std::size_t j = 0; j < dims_.size(); ++j) {
    if (dims_[j] < 2)
      throw std::invalid_argument("torus: n_" + std::to_string(j + 1) + " = " + std::to_string(dims_[j]) +
                                  " is below 2");
    size *= dims_[j];
    if (size > (1u << 24)) throw std::invalid_argument("torus: more than 2^24 PUs");
  }
  size_ = static_cast<pu_index>(size);
  stride_.assign(dims_.size(), 1);
  for (std::size_t j = dims_.size() - 1; j-- > 0;) stride_[j] = stride_[j + 1] * dims_[j + 1];
}

std::vector<std::uint32_t> torus::network::coordinates(pu_index pu) const {
  std::vector<std::uint32_t> c(dims_.size());
  for (std::size_t j = 0; j < dims_.size(); ++j) c[j] = (pu / stride_[j]) % dims_[j];
  return c;
}

pu_index torus::network::index(const std::vector<std::uint32_t>& c) const {
  pu_index pu = 0;
  for (std::size_t j = 0; j < dims_.size(); ++j) pu += (c[j] % dims_[j]) * stride_[j];
  return pu;
}

pu_index torus::network::neighbor(pu_index pu, std::uint32_t port) const {
  const std::uint32_t j = port / 2;
  const std::uint32_t x = (pu / stride_[j]) % dims_[j];
  const std::uint32_t y = port % 2 == 0 ? (x + 1) % dims_[j] : (x + dims_[j] - 1) % dims_[j];
  return pu + (y - x) * stride_[j];  // unsigned wrap-around is exact here
}

std::string torus::network::name() const {
  std::string s;
  for (std::size_t j = 0; j < dims_.size(); ++j) {
    if (j > 0) s.push_back('x');
    s.append(std::to_string(dims_[j]));
  }
  return s;
}

torus::network torus::network::parse(const std::string& text) {
  std::vector<std::uint32_t> dims;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = text.find('x', at);
    const std::string part = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("dims '" + text + "': expected sizes separated by x, such as 6x8");
    if (part.size() > 7)  // 10^7 or more: refused here, so a size never passes 32 bits on its way to the constructor
      throw std::invalid_argument("dims '" + text + "': size " + std::to_string(dims.size() + 1) + " ('" + part +
                                  "') has more than 7 digits");
    dims.push_back(static_cast<std::uint32_t>(std::stoul(part)));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return torus::network(std::move(dims));
}

std::uint64_t counting_bound(const torus::network& network, std::uint32_t packets) {
  const std::uint64_t need = static_cast<std::uint64_t>(packets) * (network.size() - 1);
  return (need + network.ports() - 1) / network.ports();
}

bool parity_count::allows() const {
  return unreached == 0 && slots[0] + slots[1] >= fresh && slots[0] >= forced[0] && slots[1] >= forced[1];
}

namespace {

// The walks from w, step by step: reach (now) holds the PUs at the end of some walk of t hops from w — the PUs from
// which a walk of t hops leads to w, walks being reversible; parities[u] bit c: some t in 2 … (steps so far) of parity
// c.
struct walk_front {
  const torus::network& network;
  std::vector<char> now, next;
  std::vector<std::uint8_t> parities;
  std::uint64_t t = 0;
  walk_front(const torus::network& net, pu_index w)
      : network(net), now(net.size(), 0), next(net.size(), 0), parities(net.size(), 0) {
    now[w] = 1;
  }
  void advance() {
    std::fill(next.begin(), next.end(), 0);
    for (pu_index a = 0; a < network.size(); ++a)
      if (now[a] != 0)
        for (std::uint32_t p = 0; p < network.ports(); ++p) next[network.neighbor(a, p)] = 1;
    now.swap(next);
    ++t;
    if (t >= 2)
      for (pu_index u = 0; u < network.size(); ++u)
        if (now[u] != 0) parities[u] |= static_cast<std::uint8_t>(1u << (t % 2));
  }
};

parity_count count_of(const torus::network& network, const walk_front& front, const std::vector<char>& early) {
  parity_count out;
  const std::uint64_t ports = network.ports();
  for (std::uint64_t t = 2; t <= front.t; ++t) out.slots[t % 2] += ports;
  for (pu_index u = 0; u < network.size(); ++u) {
    if (early[u] != 0) continue;
    ++out.fresh;
    if (front.parities[u] == 0)
      ++out.unreached;
    else if (front.parities[u] != 3)
      ++out.forced[front.parities[u] == 1 ? 0 : 1];
  }
  return out;
}

std::vector<char> own_and_neighbours(const torus::network& network, pu_index w) {
  std::vector<char> early(network.size(), 0);
  early[w] = 1;
  for (std::uint32_t p = 0; p < network.ports(); ++p) early[network.neighbor(w, p)] = 1;
  return early;
}

}  // namespace

parity_count arrival_parity_count(const torus::network& network, pu_index w, std::uint64_t steps) {
  if (w >= network.size())
    throw std::invalid_argument("arrival_parity_count: PU " + std::to_string(w) + " of " +
                                std::to_string(network.size()));
  walk_front front(network, w);
  for (std::uint64_t t = 1; t <= steps; ++t) front.advance();
  return count_of(network, front, own_and_neighbours(network, w));
}

std::uint64_t parity_bound(const torus::network& network) {
  if (network.size() > 4096)
    throw std::invalid_argument("parity_bound: at most 4,096 PUs, not " + std::to_string(network.size()));
  const std::uint64_t counting = counting_bound(network);
  const std::vector<char> early = own_and_neighbours(network, 0);
  walk_front front(network, 0);
  // Past T = 2·counting + 1 every parity has at least 2d·counting >= P − 1 slots, and past the last PU reached
  // nothing is unreached, so no later T fails.
  std::uint64_t bound = counting;
  for (std::uint64_t T = 1;; ++T) {
    front.advance();
    const parity_count c = count_of(network, front, early);
    if (!c.allows())
      bound = std::max(bound, T + 1);
    else if (T >= 2 * counting + 1 && c.unreached == 0)
      break;
  }
  return bound;
}

routing_table pairing_table(const torus::network& network, const std::vector<std::uint32_t>& partner,
                            packets_per_pu packets) {
  const bool one_packet = packets == packets_per_pu::one;
  const std::uint32_t ports = network.ports();
  if (partner.size() != static_cast<std::size_t>(network.size()) * ports)
    throw std::invalid_argument("pairing_table: one partner per PU and port expected");
  routing_table t{network,
                  one_packet ? 1u : network.dimension(),
                  std::vector<std::uint32_t>(partner.size(), no_port),
                  std::vector<std::uint32_t>(partner.size(), no_packet),
                  {}};
  for (pu_index pu = 0; pu < network.size(); ++pu) {
    std::uint32_t pair = 0;
    for (std::uint32_t p = 0; p < ports; ++p) {
      const std::uint32_t q = partner[pu * ports + p];
      if (q >= ports || q == p || partner[pu * ports + q] != p)
        throw std::invalid_argument("pairing_table: PU " + std::to_string(pu) + ": port " + std::to_string(p) +
                                    " is not paired");
      t.forward_at(pu, q) = p;  // what arrives on p leaves through q
      if (one_packet) {
        t.inject_at(pu, p) = 0;
      } else if (p < q) {
        t.inject_at(pu, p) = pair;
        t.inject_at(pu, q) = pair;
        ++pair;
      }
    }
  }
  return t;
}

std::string_view to_string(torus_model model) { return model == torus_model::pairing ? "pairing" : "general"; }

std::vector<std::vector<std::uint32_t>> port_pairings(std::uint32_t dimension) {
  std::vector<std::vector<std::uint32_t>> out;
  std::vector<std::uint32_t> partner(2 * dimension, no_port);
  auto extend = [&](auto&& self) -> void {
    std::uint32_t first = 0;
    while (first < partner.size() && partner[first] != no_port) ++first;
    if (first == partner.size()) {
      out.push_back(partner);
      return;
    }
    for (std::uint32_t q = first + 1; q < partner.size(); ++q)
      if (partner[q] == no_port) {
        partner[first] = q, partner[q] = first;
        self(self);
        partner[first] = partner[q] = no_port;
      }
  };
  extend(extend);
  return out;
}

std::uint32_t section_3_1_partner(std::uint64_t cols, std::uint64_t col, std::uint32_t port) {
  constexpr std::uint32_t B = 0, T = 1, R = 2, L = 3;
  const bool top_right = col == cols - 1 || col % 2 == 0;  // T↔R, B↔L; otherwise T↔L, B↔R
  if (top_right) return port == T ? R : port == R ? T : port == B ? L : B;
  return port == T ? L : port == L ? T : port == B ? R : B;
}

bool section_3_1_applies(const torus::network& network) {
  return network.dimension() == 2 && network.dims()[0] % 2 == 0 && network.dims()[1] % 2 == 0;
}

routing_table hamiltonian_2d(const torus::network& network) {
  if (network.dimension() != 2) throw std::invalid_argument("hamiltonian_2d: needs a 2-D torus, got " + network.name());
  const std::uint32_t rows = network.dims()[0], cols = network.dims()[1];
  if (rows % 2 != 0 || cols % 2 != 0)
    throw std::invalid_argument("hamiltonian_2d (Section 3.1): needs n1 and n2 even, got " + network.name());
  std::vector<std::uint32_t> partner(static_cast<std::size_t>(network.size()) * 4);
  for (pu_index pu = 0; pu < network.size(); ++pu)
    for (std::uint32_t p = 0; p < 4; ++p) partner[pu * 4 + p] = section_3_1_partner(cols, pu % cols, p);
  return pairing_table(network, partner);
}

}  // namespace dancecard::torus
