// Topologies for collective schedules: the built-in networks and breadth-first distances (SCCL's model, Section 3).
#include "dancecard/core/collective/topology.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <deque>
#include <limits>
#include <stdexcept>

namespace dancecard::collective {

namespace {

constexpr rank max_ranks = rank{1} << 20;

std::uint64_t parse_size(std::string_view text, std::string_view spec) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("topology " + std::string(spec) + ": '" + std::string(text) + "' is not a number");
  return value;
}

}  // namespace

std::string_view to_string(port_model model) {
  switch (model) {
    case port_model::all_port:
      return "all-port";
    case port_model::one_port_full_duplex:
      return "one-port-full-duplex";
    case port_model::one_port_half_duplex:
      return "one-port-half-duplex";
    case port_model::one_port_simplex:
      return "one-port-simplex";
  }
  return "?";
}

std::optional<port_model> parse_port_model(std::string_view text) {
  for (const port_model m : {port_model::all_port, port_model::one_port_full_duplex, port_model::one_port_half_duplex,
                             port_model::one_port_simplex})
    if (text == to_string(m)) return m;
  return std::nullopt;
}

topology::topology(std::string name, rank ranks, std::vector<link> links)
    : name_(std::move(name)), ranks_(ranks), links_(std::move(links)) {
  if (ranks == 0 || ranks > max_ranks)
    throw std::invalid_argument("topology " + name_ + ": " + std::to_string(ranks) + " ranks (1 to 1048576)");
  for (const link& l : links_) {
    const std::string which = "link " + std::to_string(l.from) + " -> " + std::to_string(l.to);
    if (l.from >= ranks || l.to >= ranks)
      throw std::invalid_argument("topology " + name_ + ": " + which + " names a rank beyond " +
                                  std::to_string(ranks - 1));
    if (l.from == l.to) throw std::invalid_argument("topology " + name_ + ": " + which + " joins a rank to itself");
    if (l.capacity == 0 || l.capacity > max_ranks)
      throw std::invalid_argument("topology " + name_ + ": " + which + " has capacity " + std::to_string(l.capacity) +
                                  " (1 to 1048576 chunks per round)");
  }
  std::sort(links_.begin(), links_.end(),
            [](const link& a, const link& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; });
  for (std::size_t i = 1; i < links_.size(); ++i)
    if (links_[i].from == links_[i - 1].from && links_[i].to == links_[i - 1].to)
      throw std::invalid_argument("topology " + name_ + ": link " + std::to_string(links_[i].from) + " -> " +
                                  std::to_string(links_[i].to) + " is given twice");
  first_.assign(static_cast<std::size_t>(ranks) + 1, 0);
  in_capacity_.assign(ranks, 0);
  out_capacity_.assign(ranks, 0);
  largest_in_.assign(ranks, 0);
  for (const link& l : links_) {
    ++first_[l.from + 1];
    in_capacity_[l.to] += l.capacity;
    out_capacity_[l.from] += l.capacity;
    largest_in_[l.to] = std::max(largest_in_[l.to], l.capacity);
  }
  for (rank r = 0; r < ranks; ++r) first_[r + 1] += first_[r];
}

std::uint32_t topology::capacity(rank from, rank to) const {
  const std::size_t at = link_index(from, to);
  return at == links_.size() ? 0 : links_[at].capacity;
}

topology complete_topology(rank n) {
  if (n == 0 || n > 4096) throw std::invalid_argument("complete:" + std::to_string(n) + ": 1 to 4096 ranks");
  std::vector<link> links;
  links.reserve(static_cast<std::size_t>(n) * (n - 1));
  for (rank a = 0; a < n; ++a)
    for (rank b = 0; b < n; ++b)
      if (a != b) links.push_back({a, b, 1});
  return topology("complete:" + std::to_string(n), n, std::move(links));
}

topology ring_topology(rank n) {
  if (n == 0 || n > max_ranks) throw std::invalid_argument("ring:" + std::to_string(n) + ": 1 to 1048576 ranks");
  std::vector<link> links;
  for (rank r = 0; r < n && n > 1; ++r) {
    links.push_back({r, (r + 1) % n, 1});
    if (n > 2) links.push_back({r, (r + n - 1) % n, 1});
  }
  return topology("ring:" + std::to_string(n), n, std::move(links));
}

topology torus_topology(const torus::network& network) {
  const torus::pu_index P = network.size();
  if (P > max_ranks) throw std::invalid_argument("torus:" + network.name() + ": at most 1048576 PUs");
  std::vector<link> links;
  for (torus::pu_index pu = 0; pu < P; ++pu) {
    std::vector<torus::pu_index> to;
    for (std::uint32_t port = 0; port < network.ports(); ++port) {
      const torus::pu_index next = network.neighbor(pu, port);
      if (next != pu) to.push_back(next);  // a side of 1 loops back
    }
    std::sort(to.begin(), to.end());
    for (std::size_t i = 0; i < to.size();) {
      std::size_t j = i;
      while (j < to.size() && to[j] == to[i]) ++j;
      links.push_back({static_cast<rank>(pu), static_cast<rank>(to[i]), static_cast<std::uint32_t>(j - i)});
      i = j;
    }
  }
  return topology("torus:" + network.name(), static_cast<rank>(P), std::move(links));
}

topology hypercube_topology(unsigned dimension) {
  if (dimension > 20) throw std::invalid_argument("hypercube:" + std::to_string(dimension) + ": dimension 0 to 20");
  const rank n = rank{1} << dimension;
  std::vector<link> links;
  for (rank r = 0; r < n; ++r)
    for (unsigned j = 0; j < dimension; ++j) links.push_back({r, r ^ (rank{1} << j), 1});
  return topology("hypercube:" + std::to_string(dimension), n, std::move(links));
}

topology dgx1_topology() {
  // NVLinks between the 8 GPUs (msccl-tools, msccl/topologies/nvidia.py, dgx1()): 0 1 3 2 and 4 5 7 6 are the
  // high-bandwidth chains of the two sockets, 0–4 and 2–6 the high-bandwidth links between them.
  static constexpr std::array<std::array<std::uint32_t, 8>, 8> nvlinks = {{
      {0, 2, 1, 1, 2, 0, 0, 0},
      {2, 0, 1, 2, 0, 1, 0, 0},
      {1, 1, 0, 2, 0, 0, 2, 0},
      {1, 2, 2, 0, 0, 0, 0, 1},
      {2, 0, 0, 0, 0, 2, 1, 1},
      {0, 1, 0, 0, 2, 0, 1, 2},
      {0, 0, 2, 0, 1, 1, 0, 2},
      {0, 0, 0, 1, 1, 2, 2, 0},
  }};
  std::vector<link> links;
  for (rank a = 0; a < 8; ++a)
    for (rank b = 0; b < 8; ++b)
      if (nvlinks[a][b] != 0) links.push_back({a, b, nvlinks[a][b]});
  return topology("dgx1", 8, std::move(links));
}

std::optional<topology> builtin_topology(std::string_view spec) {
  if (spec == "dgx1") return dgx1_topology();
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string_view kind = spec.substr(0, colon), size = spec.substr(colon + 1);
  if (kind == "torus") return torus_topology(torus::network::parse(std::string(size)));
  if (kind != "complete" && kind != "ring" && kind != "hypercube") return std::nullopt;
  const std::uint64_t n = parse_size(size, spec);
  if (kind == "hypercube") {
    if (n > 20) throw std::invalid_argument("topology " + std::string(spec) + ": dimension 0 to 20");
    return hypercube_topology(static_cast<unsigned>(n));
  }
  if (n == 0 || n > max_ranks) throw std::invalid_argument("topology " + std::string(spec) + ": 1 to 1048576 ranks");
  return kind == "complete" ? complete_topology(static_cast<rank>(n)) : ring_topology(static_cast<rank>(n));
}

std::optional<std::uint64_t> builtin_topology_links(std::string_view spec) {
  if (spec == "dgx1") return dgx1_topology().links().size();
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string_view kind = spec.substr(0, colon), size = spec.substr(colon + 1);
  if (kind == "torus") {
    const torus::network t = torus::network::parse(std::string(size));
    return 2 * t.dims().size() * t.size();
  }
  if (kind != "complete" && kind != "ring" && kind != "hypercube") return std::nullopt;
  const std::uint64_t n = parse_size(size, spec);
  if (kind == "hypercube") {
    if (n > 20) throw std::invalid_argument("topology " + std::string(spec) + ": dimension 0 to 20");
    return n << n;
  }
  if (n == 0 || n > max_ranks) throw std::invalid_argument("topology " + std::string(spec) + ": 1 to 1048576 ranks");
  return kind == "complete" ? n * (n - 1) : 2 * n;
}

std::vector<std::uint32_t> distances_from(const topology& network, rank source) {
  constexpr std::uint32_t unreachable = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> distance(network.size(), unreachable);
  if (source >= network.size()) return distance;
  std::deque<rank> frontier{source};
  distance[source] = 0;
  while (!frontier.empty()) {
    const rank r = frontier.front();
    frontier.pop_front();
    for (const link* l = network.out_begin(r); l != network.out_end(r); ++l)
      if (distance[l->to] == unreachable) distance[l->to] = distance[r] + 1, frontier.push_back(l->to);
  }
  return distance;
}

}  // namespace dancecard::collective
