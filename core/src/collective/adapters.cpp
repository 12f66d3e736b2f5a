// The dance-party and MPI pairwise models as collective schedules (see the header).
#include "dancecard/core/collective/adapters.hpp"

#include <stdexcept>
#include <vector>

namespace dancecard::collective {

schedule from_dance(const dance::dance_schedule& dances) {
  const rank n = dances.people();
  schedule out{
      complete_topology(n), port_model::one_port_half_duplex, {collective_kind::alltoall, n, 1, 0}, {}, "dance"};
  out.steps.reserve(dances.rounds());
  for (std::size_t r = 0; r < dances.rounds(); ++r) {
    step& s = out.steps.emplace_back();
    for (const dance::couple& d : dances.round(r)) {
      s.transfers.push_back({std::uint64_t{d.first} * n + d.second, d.first, d.second, transfer_op::copy});
      s.transfers.push_back({std::uint64_t{d.second} * n + d.first, d.second, d.first, transfer_op::copy});
    }
  }
  return out;
}

schedule from_directed(const dance::directed_schedule& transfers) {
  const rank n = transfers.people();
  schedule out{
      complete_topology(n), port_model::one_port_full_duplex, {collective_kind::alltoall, n, 1, 0}, {}, "directed"};
  out.steps.reserve(transfers.rounds());
  for (std::size_t r = 0; r < transfers.rounds(); ++r) {
    step& s = out.steps.emplace_back();
    for (const dance::transfer& t : transfers.round(r))
      s.transfers.push_back({std::uint64_t{t.from} * n + t.to, t.from, t.to, transfer_op::copy});
  }
  return out;
}

schedule from_torus_table(const torus::routing_table& table, std::uint64_t steps) {
  const torus::network& net = table.network;
  const std::uint32_t ports = net.ports();
  const torus::pu_index P = net.size();
  const std::size_t links = static_cast<std::size_t>(P) * ports;
  if (!table.switches.empty())
    throw std::invalid_argument("from_torus_table: a table with switches is not time-independent");
  if (table.forward.size() != links || table.inject.size() != links || table.packets == 0)
    throw std::invalid_argument("from_torus_table: the table's forward and inject lists need one entry per link");
  for (std::size_t l = 0; l < links; ++l)
    if ((table.forward[l] >= ports && table.forward[l] != torus::no_port) ||
        (table.inject[l] >= table.packets && table.inject[l] != torus::no_packet))
      throw std::invalid_argument("from_torus_table: PU " + std::to_string(l / ports) + " out-port " +
                                  std::to_string(l % ports) + " names a port or packet that does not exist");
  const std::uint32_t k = table.packets;
  schedule out{torus_topology(net),
               port_model::all_port,
               {collective_kind::allgather, static_cast<rank>(P), k, 0},
               {},
               "torus table"};
  constexpr std::uint64_t none = UINT64_MAX;
  std::vector<std::uint64_t> carried(links, none), next(links, none);  // [pu·ports + out-port]: the chunk on that link
  for (std::uint64_t t = 1; t <= steps; ++t) {
    step& s = out.steps.emplace_back();
    for (torus::pu_index pu = 0; pu < P; ++pu)
      for (std::uint32_t o = 0; o < ports; ++o) {
        const std::size_t l = static_cast<std::size_t>(pu) * ports + o;
        std::uint64_t chunk = none;
        if (t == 1) {
          if (table.inject[l] != torus::no_packet) chunk = std::uint64_t{pu} * k + table.inject[l];
        } else if (const std::uint32_t in = table.forward[l]; in != torus::no_port) {
          // in-port `in` of pu is the link that leaves neighbor(pu, in) by the opposite port
          chunk = carried[static_cast<std::size_t>(net.neighbor(pu, in)) * ports + torus::network::opposite(in)];
        }
        next[l] = chunk;
        if (chunk != none)
          s.transfers.push_back(
              {chunk, static_cast<rank>(pu), static_cast<rank>(net.neighbor(pu, o)), transfer_op::copy});
      }
    std::swap(carried, next);
  }
  return out;
}

}  // namespace dancecard::collective
