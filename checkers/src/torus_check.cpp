// Cycle decomposition and bitset gossip simulation of time-independent torus routing tables.
#include "dancecard/checkers/torus_check.hpp"

#include <algorithm>
#include <array>

namespace dancecard {

std::string_view to_string(torus_violation_kind kind) {
  switch (kind) {
    case torus_violation_kind::bad_rule: return "bad_rule";
    case torus_violation_kind::shared_in_port: return "shared_in_port";
    case torus_violation_kind::open_trail: return "open_trail";
    case torus_violation_kind::not_hamiltonian: return "not_hamiltonian";
    case torus_violation_kind::never_reached: return "never_reached";
  }
  return "?";
}

std::string describe(const torus_violation& v) {
  std::string s = std::string(to_string(v.kind)) + ": PU " + std::to_string(v.pu);
  if (v.kind == torus_violation_kind::never_reached) return s + " never receives packet " + std::to_string(v.packet);
  return s + ", port " + std::to_string(v.port);
}

std::string describe(const torus_cycle_report& r) { return describe_report<torus_violation_kind>(r, r.count_by_kind); }
std::string describe(const gossip_report& r) { return describe_report<torus_violation_kind>(r, r.count_by_kind); }

torus_cycle_report forwarding_cycles(const routing_table& table, bool require_hamiltonian, std::size_t max_witnesses) {
  torus_cycle_report out;
  const torus& net = table.network;
  const std::uint32_t ports = net.ports();
  const pu_index P = net.size();
  out.checked = "forwarding cycles of a routing table on the " + net.name() + " torus";
  auto add = [&](torus_violation_kind k, pu_index pu, std::uint32_t port) {
    ++out.count_by_kind[static_cast<std::size_t>(k)];
    out.add({k, pu, port, 0}, max_witnesses);
  };
  // next[pu·ports + o]: the out-port at neighbor(pu, o) that forwards what arrives from pu, or no_port.
  std::vector<std::uint32_t> next(static_cast<std::size_t>(P) * ports, no_port);
  for (pu_index pu = 0; pu < P; ++pu) {
    std::vector<std::uint32_t> users(ports, 0);
    for (std::uint32_t o = 0; o < ports; ++o) {
      const std::uint32_t in = table.forward_at(pu, o);
      if (in == no_port) continue;
      if (in >= ports) {
        add(torus_violation_kind::bad_rule, pu, o);
        continue;
      }
      if (++users[in] == 2) add(torus_violation_kind::shared_in_port, pu, in);
      const pu_index from = net.neighbor(pu, in);
      next[from * ports + torus::opposite(in)] = o;  // the stream leaving `from` by opposite(in) continues on o
    }
  }
  if (!out.holds()) return out;
  std::vector<char> seen(next.size(), 0);
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t o = 0; o < ports; ++o) {
      if (seen[pu * ports + o] || table.forward_at(pu, o) == no_port) continue;
      std::vector<pu_index> cycle;
      pu_index at = pu;
      std::uint32_t port = o;
      bool closed = false;
      while (!seen[at * ports + port]) {
        seen[at * ports + port] = 1;
        cycle.push_back(at);
        const pu_index to = net.neighbor(at, port);
        const std::uint32_t continue_on = next[at * ports + port];
        if (continue_on == no_port) break;
        at = to;
        port = continue_on;
        if (at == pu && port == o) {
          closed = true;
          break;
        }
      }
      if (!closed) {
        add(torus_violation_kind::open_trail, pu, o);
        continue;
      }
      out.cycles.push_back(std::move(cycle));
    }
  // Undirected cycles: a cycle and its reverse (same PU set) count once. Hamiltonian: each PU exactly once.
  out.all_hamiltonian = !out.cycles.empty();
  std::vector<char> visits(P, 0);
  for (const auto& c : out.cycles) {
    std::fill(visits.begin(), visits.end(), 0);
    bool ham = c.size() == P;
    for (pu_index v : c) ham = ham && !visits[v]++;
    if (!ham) {
      out.all_hamiltonian = false;
      if (require_hamiltonian) add(torus_violation_kind::not_hamiltonian, c.front(), 0);
    }
  }
  out.undirected_cycles = out.cycles.size();  // refined below: pair each cycle with a reverse
  std::vector<char> paired(out.cycles.size(), 0);
  for (std::size_t a = 0; a < out.cycles.size(); ++a) {
    if (paired[a]) continue;
    std::vector<pu_index> reversed(out.cycles[a].rbegin(), out.cycles[a].rend());
    for (std::size_t b = a + 1; b < out.cycles.size(); ++b) {
      if (paired[b] || out.cycles[b].size() != reversed.size()) continue;
      const auto it = std::find(out.cycles[b].begin(), out.cycles[b].end(), reversed.front());
      if (it == out.cycles[b].end()) continue;
      std::vector<pu_index> rotated(it, out.cycles[b].end());
      rotated.insert(rotated.end(), out.cycles[b].begin(), it);
      if (rotated == reversed) {
        paired[a] = paired[b] = 1;
        --out.undirected_cycles;
        break;
      }
    }
  }
  return out;
}

gossip_report simulate_gossip(const routing_table& table, std::uint64_t max_steps, std::size_t max_witnesses) {
  gossip_report out;
  const torus& net = table.network;
  const std::uint32_t ports = net.ports();
  const pu_index P = net.size();
  const std::uint64_t packets = static_cast<std::uint64_t>(P) * table.packets;
  if (max_steps == 0) max_steps = packets + P;
  out.checked = "gossip on the " + net.name() + " torus, " + std::to_string(table.packets) + " packet(s) per PU";
  auto add = [&](torus_violation_kind k, pu_index pu, std::uint32_t port, std::uint32_t packet) {
    ++out.count_by_kind[static_cast<std::size_t>(k)];
    out.add({k, pu, port, packet}, max_witnesses);
  };
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t o = 0; o < ports; ++o)
      if ((table.forward_at(pu, o) != no_port && table.forward_at(pu, o) >= ports) ||
          (table.inject_at(pu, o) != no_packet && table.inject_at(pu, o) >= table.packets))
        add(torus_violation_kind::bad_rule, pu, o, 0);
  if (!out.holds()) return out;
  // Arriving on in-port p of pu is what neighbor(pu, p) sends on opposite(p): precomputed as a link index.
  std::vector<std::uint32_t> arriving(static_cast<std::size_t>(P) * ports);
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t p = 0; p < ports; ++p) arriving[pu * ports + p] = net.neighbor(pu, p) * ports + torus::opposite(p);
  const std::size_t words = (packets + 63) / 64;
  std::vector<std::uint64_t> known(static_cast<std::size_t>(P) * words, 0);
  std::vector<std::uint64_t> count(P, table.packets);
  std::uint64_t complete = 0;
  for (pu_index pu = 0; pu < P; ++pu) {
    for (std::uint32_t q = 0; q < table.packets; ++q) {
      const std::uint64_t id = static_cast<std::uint64_t>(pu) * table.packets + q;
      known[pu * words + id / 64] |= std::uint64_t{1} << (id % 64);
    }
    if (count[pu] == packets) ++complete;
  }
  std::vector<std::uint32_t> sending(static_cast<std::size_t>(P) * ports, no_packet), next(sending.size());
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t o = 0; o < ports; ++o)
      if (table.inject_at(pu, o) != no_packet) sending[pu * ports + o] = pu * table.packets + table.inject_at(pu, o);
  std::uint64_t step = 0;
  while (complete < P && step < max_steps) {
    ++step;
    for (pu_index pu = 0; pu < P; ++pu) {  // deliveries of this step
      std::uint64_t* mine = &known[pu * words];
      const bool was_complete = count[pu] == packets;
      for (std::uint32_t p = 0; p < ports; ++p) {
        const std::uint32_t packet = sending[arriving[pu * ports + p]];
        if (packet == no_packet) continue;
        ++out.link_steps;
        std::uint64_t& w = mine[packet / 64];
        const std::uint64_t bit = std::uint64_t{1} << (packet % 64);
        if (!(w & bit)) w |= bit, ++count[pu];
      }
      if (!was_complete && count[pu] == packets) ++complete;
    }
    for (pu_index pu = 0; pu < P; ++pu)  // what each out-port sends next step
      for (std::uint32_t o = 0; o < ports; ++o) {
        const std::uint32_t in = table.forward_at(pu, o);
        next[pu * ports + o] = in == no_port ? no_packet : sending[arriving[pu * ports + in]];
      }
    sending.swap(next);
  }
  out.steps = step;
  if (complete < P)
    for (pu_index pu = 0; pu < P; ++pu)
      for (std::uint64_t id = 0; id < packets; ++id)
        if (!(known[pu * words + id / 64] >> (id % 64) & 1)) {
          add(torus_violation_kind::never_reached, pu, 0, static_cast<std::uint32_t>(id));
          break;
        }
  return out;
}

}  // namespace dancecard
