// Cycle decomposition and bitset gossip simulation of time-independent torus routing tables.
#include "dancecard/checkers/torus_check.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <tuple>

namespace dancecard::torus {

std::string_view to_string(torus_violation_kind kind) {
  switch (kind) {
    case torus_violation_kind::bad_rule:
      return "bad_rule";
    case torus_violation_kind::shared_in_port:
      return "shared_in_port";
    case torus_violation_kind::open_trail:
      return "open_trail";
    case torus_violation_kind::not_hamiltonian:
      return "not_hamiltonian";
    case torus_violation_kind::never_reached:
      return "never_reached";
    case torus_violation_kind::broken_cycle:
      return "broken_cycle";
    case torus_violation_kind::not_simple:
      return "not_simple";
    case torus_violation_kind::shared_link:
      return "shared_link";
    case torus_violation_kind::far_from_cycle:
      return "far_from_cycle";
    case torus_violation_kind::cycle_not_followed:
      return "cycle_not_followed";
    case torus_violation_kind::unsupplied:
      return "unsupplied";
    case torus_violation_kind::bad_switch:
      return "bad_switch";
  }
  return "?";
}

std::string describe(const torus_violation& v) {
  std::string s = std::string(to_string(v.kind)) + ": PU " + std::to_string(v.pu);
  switch (v.kind) {
    case torus_violation_kind::never_reached:
      return s + " never receives packet " + std::to_string(v.packet);
    case torus_violation_kind::broken_cycle:
      return s + ": cycle " + std::to_string(v.packet) + " leaves by port " + std::to_string(v.port) +
             ", which does not lead to its next PU";
    case torus_violation_kind::not_simple:
      return s + " is visited more than once by cycle " + std::to_string(v.packet);
    case torus_violation_kind::shared_link:
      return s + ", port " + std::to_string(v.port) + ": the link is in more than one cycle";
    case torus_violation_kind::far_from_cycle:
      return s + " is farther than allowed from cycle " + std::to_string(v.packet) + " over free links";
    case torus_violation_kind::cycle_not_followed:
      return s + " on cycle " + std::to_string(v.packet) + ": out-port " + std::to_string(v.port) +
             " does not forward the cycle's stream";
    case torus_violation_kind::unsupplied:
      return s + " (off cycle " + std::to_string(v.packet) + ") never receives the stream running " +
             (v.port == 0 ? "forward" : "backward");
    default:
      return s + ", port " + std::to_string(v.port);
  }
}

std::string describe(const torus_cycle_report& r) { return describe_report<torus_violation_kind>(r, r.count_by_kind); }
std::string describe(const gossip_report& r) { return describe_report<torus_violation_kind>(r, r.count_by_kind); }
std::string describe(const cycle_system_report& r) { return describe_report<torus_violation_kind>(r, r.count_by_kind); }
std::string describe(const supply_report& r) { return describe_report<torus_violation_kind>(r, r.count_by_kind); }

namespace {

// How every torus check records a violation: the count of its kind, and the first `limit` witnesses. The last field
// is the packet (simulation) or the cycle (cycle and supply checks).
template <class Report>
auto recorder(Report& out, std::size_t limit) {
  return [&out, limit](torus_violation_kind k, pu_index pu, std::uint32_t port, std::uint32_t packet_or_cycle = 0) {
    ++out.count_by_kind[static_cast<std::size_t>(k)];
    out.add({k, pu, port, packet_or_cycle}, limit);
  };
}

}  // namespace

torus_cycle_report forwarding_cycles(const routing_table& table, const forwarding_cycle_options& options) {
  const bool require_hamiltonian = options.require_hamiltonian;
  const std::size_t max_witnesses = options.max_witnesses;
  torus_cycle_report out;
  const torus::network& net = table.network;
  const std::uint32_t ports = net.ports();
  const pu_index P = net.size();
  out.checked = "forwarding cycles of a routing table on the " + net.name() + " torus";
  const auto add = recorder(out, max_witnesses);
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
      next[from * ports + torus::network::opposite(in)] =
          o;  // the stream leaving `from` by opposite(in) continues on o
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

namespace {

// One transfer into a PU's row of known packets, counted: true if the packet is new to it, false for a duplicate.
bool receive(std::uint64_t* row, std::uint32_t packet, gossip_report& out) {
  ++out.link_steps;
  std::uint64_t& w = row[packet / 64];
  const std::uint64_t bit = std::uint64_t{1} << (packet % 64);
  if (w & bit) {
    ++out.duplicate_receives;
    return false;
  }
  w |= bit;
  return true;
}

// simulate_gossip for a table without switches, one PU at a time. What out-link L carries in step t is what the
// link feeding it carried in step t − 1 (up[L]: the link arriving on the in-port L's out-port forwards; none without
// a rule), and in step 1 its injection; so in step t an in-link carries the injection t − 1 links up its chain. Each PU
// walks its in-links' chains step by step with its own bits only (one row, reused), until it holds every packet or
// the step limit; then, as the step-by-step run goes on for everyone until the last PU completes, the PUs that
// completed sooner walk on to that step, every packet they receive then a duplicate. Same report as the general
// method (tests compare the two on random tables).
void run_switch_free(const routing_table& table, std::uint64_t max_steps, const gossip_options& options,
                     gossip_report& out,
                     const std::function<void(torus_violation_kind, pu_index, std::uint32_t, std::uint32_t)>& add) {
  const torus::network& net = table.network;
  const std::uint32_t ports = net.ports();
  const pu_index P = net.size();
  const std::uint64_t packets = static_cast<std::uint64_t>(P) * table.packets;
  constexpr std::uint32_t none = UINT32_MAX;
  const std::size_t links = static_cast<std::size_t>(P) * ports;
  std::vector<std::uint32_t> up(links, none), injected(links, no_packet), arriving(links);
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t p = 0; p < ports; ++p)
      arriving[pu * ports + p] = static_cast<std::uint32_t>(net.neighbor(pu, p) * ports + torus::network::opposite(p));
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t o = 0; o < ports; ++o) {
      const std::size_t link = static_cast<std::size_t>(pu) * ports + o;
      if (table.forward_at(pu, o) != no_port)
        up[link] = arriving[static_cast<std::size_t>(pu) * ports + table.forward_at(pu, o)];
      if (table.inject_at(pu, o) != no_packet)
        injected[link] = static_cast<std::uint32_t>(pu * table.packets + table.inject_at(pu, o));
    }
  const std::size_t words = (packets + 63) / 64;
  std::vector<std::uint64_t> known(words);
  out.completion.assign(P, 0);
  if (options.record_arrivals) out.first_arrival.assign(static_cast<std::size_t>(P) * packets, UINT32_MAX);
  std::vector<std::uint32_t> at(ports);               // each in-link's chain position in the current step
  std::vector<std::vector<std::uint32_t>> resume(P);  // a completed PU's chain positions after its last step
  std::vector<char> incomplete(P, 0);
  std::uint64_t last = 0;  // the step at which the run stops: the last completion, or the limit
  for (pu_index pu = 0; pu < P; ++pu) {
    std::fill(known.begin(), known.end(), 0);
    std::uint64_t count = table.packets;
    for (std::uint32_t q = 0; q < table.packets; ++q) {
      const std::uint64_t id = static_cast<std::uint64_t>(pu) * table.packets + q;
      known[id / 64] |= std::uint64_t{1} << (id % 64);
      if (options.record_arrivals) out.first_arrival[pu * packets + id] = 0;
    }
    for (std::uint32_t p = 0; p < ports; ++p) at[p] = arriving[static_cast<std::size_t>(pu) * ports + p];
    std::uint64_t step = 0;
    while (count < packets && step < max_steps) {
      ++step;
      for (std::uint32_t p = 0; p < ports; ++p) {
        const std::uint32_t link = at[p];
        if (link == none) continue;
        at[p] = up[link];
        const std::uint32_t packet = injected[link];
        if (packet == no_packet || !receive(known.data(), packet, out)) continue;
        ++count;
        if (options.record_arrivals) out.first_arrival[pu * packets + packet] = static_cast<std::uint32_t>(step);
      }
    }
    if (count < packets) {
      incomplete[pu] = 1;
      for (std::uint64_t id = 0; id < packets; ++id)
        if (!(known[id / 64] >> (id % 64) & 1)) {
          add(torus_violation_kind::never_reached, pu, 0, static_cast<std::uint32_t>(id));
          break;
        }
    } else {
      out.completion[pu] = step;
      resume[pu] = at;
    }
    last = std::max(last, step);
  }
  for (pu_index pu = 0; pu < P; ++pu) {  // the completed PUs go on to the run's last step: duplicates only
    if (incomplete[pu]) continue;
    std::vector<std::uint32_t>& chain = resume[pu];
    for (std::uint64_t step = out.completion[pu]; step < last; ++step)
      for (std::uint32_t p = 0; p < ports; ++p) {
        const std::uint32_t link = chain[p];
        if (link == none) continue;
        chain[p] = up[link];
        if (injected[link] != no_packet) ++out.link_steps, ++out.duplicate_receives;
      }
  }
  out.steps = last;
}

}  // namespace

gossip_report simulate_gossip(const routing_table& table, std::uint64_t max_steps, std::size_t max_witnesses) {
  return simulate_gossip(table, gossip_options{max_steps, max_witnesses, false});
}

gossip_report simulate_gossip(const routing_table& table, const gossip_options& options) {
  gossip_report out;
  const torus::network& net = table.network;
  const std::uint32_t ports = net.ports();
  const pu_index P = net.size();
  const std::uint64_t packets = static_cast<std::uint64_t>(P) * table.packets;
  out.checked = "gossip on the " + net.name() + " torus, " + std::to_string(table.packets) + " packet(s) per PU" +
                (table.switches.empty() ? "" : ", " + std::to_string(table.switches.size()) + " switches");
  const auto add = recorder(out, options.max_witnesses);
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t o = 0; o < ports; ++o)
      if ((table.forward_at(pu, o) != no_port && table.forward_at(pu, o) >= ports) ||
          (table.inject_at(pu, o) != no_packet && table.inject_at(pu, o) >= table.packets))
        add(torus_violation_kind::bad_rule, pu, o, 0);
  // Switches, by step: from `step` on, the out-port forwards another in-port.
  std::vector<port_switch> switches = table.switches;
  std::sort(switches.begin(), switches.end(), [](const port_switch& a, const port_switch& b) {
    return std::tie(a.step, a.pu, a.port) < std::tie(b.step, b.pu, b.port);
  });
  std::uint64_t last_switch = 0;
  std::uint32_t longest_delay = 1;  // the sends kept: as many steps back as the longest delay needs
  for (std::size_t k = 0; k < switches.size(); ++k) {
    const port_switch& w = switches[k];
    const bool repeated =
        k > 0 && switches[k - 1].step == w.step && switches[k - 1].pu == w.pu && switches[k - 1].port == w.port;
    if (w.pu >= P || w.port >= ports || w.in_port >= ports || w.step < 2 || w.delay < 1 || w.delay > max_switch_delay ||
        w.step < w.delay + 1 || repeated) {
      add(torus_violation_kind::bad_switch, w.pu, w.port, 0);
      continue;
    }
    last_switch = std::max(last_switch, w.step);
    longest_delay = std::max(longest_delay, w.delay);
  }
  if (!out.holds()) return out;
  // One bit per PU and packet: refuse (unknown, not a crash) what would not fit in memory. The one-PU-at-a-time
  // method holds one row only, but its work grows as fast (P·ports links walked for about P·packets steps), so the
  // same bound keeps both from running for hours.
  const long double bitset_bytes = static_cast<long double>(P) * static_cast<long double>(packets) / 8;
  if (bitset_bytes > static_cast<long double>(gossip_memory_limit_bytes)) {
    out.outcome = verdict::unknown;
    out.checked += ": the simulation needs " + std::to_string(static_cast<std::uint64_t>(bitset_bytes / (1u << 20))) +
                   " MiB of bitsets, more than the limit of " + std::to_string(gossip_memory_limit_bytes >> 20) +
                   " MiB";
    return out;
  }
  if (options.record_arrivals && static_cast<std::uint64_t>(P) * packets > (std::uint64_t{1} << 28)) {
    out.outcome = verdict::unknown;
    out.checked += ": recording first arrivals needs P^2*packets <= 2^28 entries";
    return out;
  }
  const std::uint64_t max_steps = options.max_steps != 0 ? options.max_steps : packets + P + last_switch;
  if (table.switches.empty() && !options.stepwise) {
    run_switch_free(table, max_steps, options, out, add);
    return out;
  }
  std::vector<std::uint32_t> forward = table.forward;  // the rule in force, changed by switches
  std::vector<std::uint32_t> lag(forward.size(), 1);   // and its delay (port_switch::delay)
  std::size_t next_switch = 0;
  // Arriving on in-port p of pu is what neighbor(pu, p) sends on opposite(p): precomputed as a link index.
  std::vector<std::uint32_t> arriving(static_cast<std::size_t>(P) * ports);
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t p = 0; p < ports; ++p)
      arriving[pu * ports + p] = net.neighbor(pu, p) * ports + torus::network::opposite(p);
  const std::size_t words = (packets + 63) / 64;
  std::vector<std::uint64_t> known(static_cast<std::size_t>(P) * words, 0);
  std::vector<std::uint64_t> count(P, table.packets);
  out.completion.assign(P, 0);
  if (options.record_arrivals) out.first_arrival.assign(static_cast<std::size_t>(P) * packets, UINT32_MAX);
  std::uint64_t complete = 0;
  for (pu_index pu = 0; pu < P; ++pu) {
    for (std::uint32_t q = 0; q < table.packets; ++q) {
      const std::uint64_t id = static_cast<std::uint64_t>(pu) * table.packets + q;
      known[pu * words + id / 64] |= std::uint64_t{1} << (id % 64);
      if (options.record_arrivals) out.first_arrival[pu * packets + id] = 0;
    }
    if (count[pu] == packets) ++complete;
  }
  // What every out-link sends in this step, and (for the switches with a delay) sent in the steps before:
  // history[d − 1] is d − 1 steps before this one.
  std::vector<std::uint32_t> sending(static_cast<std::size_t>(P) * ports, no_packet), next(sending.size());
  std::vector<std::vector<std::uint32_t>> history(longest_delay - 1,
                                                  std::vector<std::uint32_t>(sending.size(), no_packet));
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t o = 0; o < ports; ++o)
      if (table.inject_at(pu, o) != no_packet) sending[pu * ports + o] = pu * table.packets + table.inject_at(pu, o);
  constexpr pu_index ahead = 8;  // PUs whose known-bits are prefetched ahead of their deliveries
  std::uint64_t step = 0;
  while (complete < P && step < max_steps) {
    ++step;
    for (pu_index pu = 0; pu < P; ++pu) {  // deliveries of this step
      if (pu + ahead < P)
        for (std::uint32_t p = 0; p < ports; ++p) {
          const std::uint32_t packet = sending[arriving[(pu + ahead) * ports + p]];
          if (packet != no_packet) __builtin_prefetch(&known[(pu + ahead) * words + packet / 64], 1);
        }
      std::uint64_t* mine = &known[pu * words];
      const bool was_complete = count[pu] == packets;
      for (std::uint32_t p = 0; p < ports; ++p) {
        const std::uint32_t packet = sending[arriving[pu * ports + p]];
        if (packet == no_packet || !receive(mine, packet, out)) continue;
        ++count[pu];
        if (options.record_arrivals) out.first_arrival[pu * packets + packet] = static_cast<std::uint32_t>(step);
      }
      if (!was_complete && count[pu] == packets) ++complete, out.completion[pu] = step;
    }
    // Rules for the next step (step + 1): apply the switches that start then.
    while (next_switch < switches.size() && switches[next_switch].step <= step + 1) {
      const port_switch& w = switches[next_switch++];
      forward[static_cast<std::size_t>(w.pu) * ports + w.port] = w.in_port;
      lag[static_cast<std::size_t>(w.pu) * ports + w.port] = w.delay;
    }
    for (std::size_t base = 0; base < forward.size(); base += ports)  // what each out-port sends next step
      for (std::uint32_t o = 0; o < ports; ++o) {
        const std::uint32_t in = forward[base + o];
        next[base + o] = in == no_port
                             ? no_packet
                             : (lag[base + o] == 1 ? sending : history[lag[base + o] - 2])[arriving[base + in]];
      }
    if (!history.empty()) {  // shift: this step's sends become one step old
      std::rotate(history.rbegin(), history.rbegin() + 1, history.rend());
      history.front().swap(sending);
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

std::uint64_t two_cycle_gossip_steps(const std::vector<std::uint32_t>& second) {
  const std::size_t P = second.size();
  if (P < 3) return 0;
  std::vector<std::size_t> at(P, P);
  for (std::size_t i = 0; i < P; ++i) {
    if (second[i] >= P || at[second[i]] != P) return 0;
    at[second[i]] = i;
  }
  for (std::size_t i = 0; i < P; ++i) {  // an edge {v, v + 1} of the first cycle must not join neighbours on the second
    const std::size_t gap = (at[(i + 1) % P] + P - at[i]) % P;
    if (gap == 1 || gap == P - 1) return 0;
  }
  std::uint64_t steps = 0;
  for (std::size_t i = 0; i < P; ++i)
    for (std::size_t k = 0; k < P; ++k) {
      const std::size_t d1 = (k + P - i) % P, d2 = (at[k] + P - at[i]) % P;
      steps = std::max<std::uint64_t>(steps, std::min({d1, P - d1, d2, P - d2}));
    }
  return steps;
}

two_cycle_minimum least_two_cycle_gossip_steps(std::uint32_t P) {
  if (P < 5 || P > 13)
    throw std::invalid_argument("least_two_cycle_gossip_steps: needs 5 <= P <= 13, got " + std::to_string(P));
  two_cycle_minimum out;
  std::vector<std::uint32_t> order(P);
  for (std::uint32_t i = 0; i < P; ++i) order[i] = i;
  do {
    if (order[1] > order[P - 1]) continue;  // each cycle in one direction only
    const std::uint64_t steps = two_cycle_gossip_steps(order);
    if (steps == 0) continue;
    ++out.cycles;
    if (out.steps == 0 || steps < out.steps) out.steps = steps, out.second = order;
  } while (std::next_permutation(order.begin() + 1, order.end()));
  return out;
}

cycle_system_report check_cycle_system(const cycle_system& system, std::uint64_t max_distance,
                                       std::size_t max_witnesses, bool allow_revisits) {
  cycle_system_report out;
  const torus::network& net = system.network;
  const std::uint32_t ports = net.ports();
  const pu_index P = net.size();
  out.checked = std::to_string(system.cycles.size()) + " cycles (" + system.construction + ") on the " + net.name() +
                " torus: closed, " + (allow_revisits ? "passes through a PU counted" : "simple") +
                ", edge-disjoint, every PU within distance " + std::to_string(max_distance) + " of each cycle";
  const auto add = recorder(out, max_witnesses);
  std::vector<char> in_cycle(static_cast<std::size_t>(P) * ports, 0);  // undirected: marked on both ends
  std::vector<std::uint32_t> visits(P);
  for (std::uint32_t c = 0; c < system.cycles.size(); ++c) {
    const torus_cycle& cy = system.cycles[c];
    out.lengths.push_back(cy.pus.size());
    if (cy.pus.empty() || cy.ports.size() != cy.pus.size()) {
      add(torus_violation_kind::broken_cycle, cy.pus.empty() ? 0 : cy.pus.front(), 0, c);
      continue;
    }
    std::fill(visits.begin(), visits.end(), 0);
    for (std::size_t i = 0; i < cy.pus.size(); ++i) {
      const pu_index pu = cy.pus[i], next = cy.pus[(i + 1) % cy.pus.size()];
      const std::uint32_t port = cy.ports[i];
      if (pu >= P || next >= P || port >= ports || net.neighbor(pu, port) != next) {
        add(torus_violation_kind::broken_cycle, pu < P ? pu : 0, port, c);
        continue;
      }
      if (visits[pu]++ >= 1) {
        ++out.revisits;
        if (!allow_revisits && visits[pu] == 2) add(torus_violation_kind::not_simple, pu, 0, c);
      }
      if (in_cycle[pu * ports + port] || in_cycle[next * ports + torus::network::opposite(port)])
        add(torus_violation_kind::shared_link, pu, port, c);
      in_cycle[pu * ports + port] = in_cycle[next * ports + torus::network::opposite(port)] = 1;
    }
  }
  if (!out.holds()) return out;
  // Locality: breadth-first search from each cycle over links no cycle uses.
  std::vector<std::uint64_t> dist(P);
  for (std::uint32_t c = 0; c < system.cycles.size(); ++c) {
    constexpr std::uint64_t far = UINT64_MAX;
    std::fill(dist.begin(), dist.end(), far);
    std::vector<pu_index> frontier(system.cycles[c].pus.begin(), system.cycles[c].pus.end());
    for (pu_index v : frontier) dist[v] = 0;
    for (std::size_t head = 0; head < frontier.size(); ++head) {
      const pu_index v = frontier[head];
      for (std::uint32_t p = 0; p < ports; ++p) {
        if (in_cycle[v * ports + p]) continue;
        const pu_index w = net.neighbor(v, p);
        if (dist[w] == far) dist[w] = dist[v] + 1, frontier.push_back(w);
      }
    }
    for (pu_index v = 0; v < P; ++v) {
      if (dist[v] == 0) continue;
      ++out.off_cycle_pairs;
      if (dist[v] == far || dist[v] > max_distance)
        add(torus_violation_kind::far_from_cycle, v, 0, c);
      else
        out.max_distance = std::max(out.max_distance, dist[v]);
    }
  }
  return out;
}

supply_report check_supply(const routing_table& table, const cycle_system& system, std::size_t max_witnesses) {
  supply_report out;
  const torus::network& net = table.network;
  const std::uint32_t ports = net.ports();
  const pu_index P = net.size();
  out.checked = "supply of every PU with both directions of every cycle (" + system.construction + ") on the " +
                net.name() + " torus";
  const auto add = recorder(out, max_witnesses);
  if (!(net.dims() == system.network.dims())) {
    add(torus_violation_kind::bad_rule, 0, 0, 0);
    out.checked += ": the table and the cycles are on different tori";
    return out;
  }
  // Each out-link's streams: bit 2c + dir (dir 0: running forward along cycle c, 1: backward), with its delay.
  const auto cycles = static_cast<std::uint32_t>(system.cycles.size());
  if (cycles > 32) {
    out.outcome = verdict::unknown;
    out.checked += ": more than 32 cycles are not traced";
    return out;
  }
  constexpr std::uint64_t unset = UINT64_MAX;
  std::vector<std::uint64_t> streams(static_cast<std::size_t>(P) * ports, 0);
  std::vector<std::uint64_t> delay(static_cast<std::size_t>(P) * ports, unset);
  std::vector<char> cycle_link(static_cast<std::size_t>(P) * ports, 0);
  std::vector<std::uint32_t> on(static_cast<std::size_t>(P) * cycles, 0);
  for (std::uint32_t c = 0; c < cycles; ++c) {
    const torus_cycle& cy = system.cycles[c];
    const std::size_t m = cy.pus.size();
    for (std::size_t i = 0; i < m && cy.ports.size() == m; ++i) {
      const pu_index pu = cy.pus[i];
      if (pu >= P || cy.ports[i] >= ports || net.neighbor(pu, cy.ports[i]) != cy.pus[(i + 1) % m]) {
        add(torus_violation_kind::broken_cycle, pu < P ? pu : 0, cy.ports[i], c);
        continue;
      }
      on[pu * cycles + c] = 1;
      const std::uint32_t ahead = cy.ports[i], behind = torus::network::opposite(cy.ports[(i + m - 1) % m]);
      if (table.forward_at(pu, ahead) != behind) add(torus_violation_kind::cycle_not_followed, pu, ahead, c);
      if (table.forward_at(pu, behind) != ahead) add(torus_violation_kind::cycle_not_followed, pu, behind, c);
      streams[pu * ports + ahead] |= std::uint64_t{1} << (2 * c);
      streams[pu * ports + behind] |= std::uint64_t{1} << (2 * c + 1);
      delay[pu * ports + ahead] = delay[pu * ports + behind] = 0;
      cycle_link[pu * ports + ahead] = cycle_link[pu * ports + behind] = 1;
    }
  }
  if (!out.holds()) return out;
  // Relays: an out-port that forwards in-port p (or switches to it) carries what arrives on p, one step later (or as
  // many as a switch's delay). Fixed point by rounds: a link's streams are the union of its sources' (whenever
  // they were found — a source whose streams grow after a link downstream read it is read again), its delay that of
  // its nearest source plus the source's own.
  // per out-link: (in-port, delay) of every rule it ever follows
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> sources(static_cast<std::size_t>(P) * ports);
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t o = 0; o < ports; ++o)
      if (!cycle_link[pu * ports + o] && table.forward_at(pu, o) < ports)
        sources[pu * ports + o].emplace_back(table.forward_at(pu, o), 1);
  for (const port_switch& w : table.switches)
    if (w.pu < P && w.port < ports && w.in_port < ports && !cycle_link[w.pu * ports + w.port])
      sources[w.pu * ports + w.port].emplace_back(w.in_port, w.delay);
  for (bool changed = true; changed;) {  // ends: streams only grow (2 bits per cycle), delays only fall (to 1)
    changed = false;
    for (pu_index pu = 0; pu < P; ++pu)
      for (std::uint32_t o = 0; o < ports; ++o) {
        const std::size_t link = pu * ports + o;
        for (const auto& [in, lag] : sources[link]) {
          const std::size_t from =
              static_cast<std::size_t>(net.neighbor(pu, in)) * ports + torus::network::opposite(in);
          if (delay[from] == unset) continue;
          if ((streams[from] & ~streams[link]) != 0) streams[link] |= streams[from], changed = true;
          if (delay[link] == unset || delay[from] + lag < delay[link]) delay[link] = delay[from] + lag, changed = true;
        }
      }
  }
  for (pu_index v = 0; v < P; ++v)
    for (std::uint32_t c = 0; c < cycles; ++c) {
      if (on[v * cycles + c]) continue;
      std::uint64_t got = 0, worst = 0;
      for (int dir = 0; dir < 2; ++dir) {
        std::uint64_t best = unset;
        for (std::uint32_t p = 0; p < ports; ++p) {
          const std::size_t from = static_cast<std::size_t>(net.neighbor(v, p)) * ports + torus::network::opposite(p);
          if (streams[from] >> (2 * c + dir) & 1) best = std::min(best, delay[from]);
        }
        if (best == unset)
          add(torus_violation_kind::unsupplied, v, static_cast<std::uint32_t>(dir), c);
        else
          ++got, worst = std::max(worst, best);
      }
      if (got == 2) ++out.supplied_pairs, out.max_delay = std::max(out.max_delay, worst);
    }
  return out;
}

supply_counting_bound count_supply_bound(const cycle_system& system) {
  supply_counting_bound out;
  const torus::network& net = system.network;
  const pu_index P = net.size();
  const std::uint32_t ports = net.ports();
  // the links the cycles run over (both directions), and which cycles each PU lies on (as a list: cycles may be many)
  std::vector<char> used(static_cast<std::size_t>(P) * ports, 0);
  std::vector<std::vector<std::uint32_t>> cycles_of(P);
  for (std::uint32_t c = 0; c < system.cycles.size(); ++c) {
    const torus_cycle& cy = system.cycles[c];
    const std::size_t m = cy.pus.size();
    if (cy.ports.size() != m) return out.valid = false, out;
    for (std::size_t i = 0; i < m; ++i) {
      const pu_index pu = cy.pus[i];
      if (pu >= P || cy.ports[i] >= ports || net.neighbor(pu, cy.ports[i]) != cy.pus[(i + 1) % m])
        return out.valid = false, out;
      used[static_cast<std::size_t>(pu) * ports + cy.ports[i]] = 1;
      used[static_cast<std::size_t>(cy.pus[(i + 1) % m]) * ports + torus::network::opposite(cy.ports[i])] = 1;
      if (cycles_of[pu].empty() || cycles_of[pu].back() != c) cycles_of[pu].push_back(c);  // c grows: sorted, once each
    }
  }
  std::vector<char> covered(P, 0);
  for (pu_index v = 0; v < P; ++v) {
    std::fill(covered.begin(), covered.end(), 0);
    covered[v] = 1;
    for (std::uint32_t c : cycles_of[v])
      for (pu_index u : system.cycles[c].pus) covered[u] = 1;
    const auto need = static_cast<std::uint64_t>(std::count(covered.begin(), covered.end(), 0));
    std::uint64_t free_links = 0;
    for (std::uint32_t p = 0; p < ports; ++p) free_links += used[static_cast<std::size_t>(v) * ports + p] == 0;
    if (need > 0 && free_links == 0) {
      if (!out.unreachable) out.unreachable = true, out.pu = v, out.need = need, out.free_links = 0;
      continue;
    }
    const std::uint64_t steps = free_links == 0 ? 0 : (need + free_links - 1) / free_links;
    if (!out.unreachable && steps > out.steps)
      out.steps = steps, out.pu = v, out.need = need, out.free_links = free_links;
  }
  return out;
}

namespace {

// The cycle (index) of every link of a 2-D cycle system, by PU · 4 + port, both directions; -1 where no cycle runs.
std::vector<int> cycle_of_links(const cycle_system& system) {
  const torus::network& t = system.network;
  std::vector<int> of(static_cast<std::size_t>(t.size()) * t.ports(), -1);
  for (std::size_t c = 0; c < system.cycles.size(); ++c) {
    const torus_cycle& cycle = system.cycles[c];
    for (std::size_t i = 0; i < cycle.length() && i < cycle.ports.size(); ++i) {
      const pu_index pu = cycle.pus[i];
      const std::uint32_t port = cycle.ports[i];
      if (pu >= t.size() || port >= t.ports()) continue;
      of[pu * t.ports() + port] = static_cast<int>(c);
      of[t.neighbor(pu, port) * t.ports() + torus::network::opposite(port)] = static_cast<int>(c);
    }
  }
  return of;
}

}  // namespace

strip_report check_strip_insertion(const cycle_system& small, const cycle_system& large, std::uint32_t axis,
                                   std::uint32_t first) {
  strip_report r;
  const torus::network &a = small.network, &b = large.network;
  r.checked = b.name() + " as " + a.name() + " with two " + (axis == 0 ? "rows" : "columns") +
              " inserted before line " + std::to_string(first);
  auto fail = [&](std::string problem) {
    r.outcome = verdict::violated;
    r.problem = std::move(problem);
    return r;
  };
  if (a.dimension() != 2 || b.dimension() != 2 || axis > 1) return fail("needs two 2-D tori and axis 0 or 1");
  const std::uint32_t across = 1 - axis;
  if (b.dims()[across] != a.dims()[across] || b.dims()[axis] != a.dims()[axis] + 2)
    return fail("the larger torus is not the smaller one with two more lines");
  if (first == 0 || first >= a.dims()[axis])
    return fail("the strip must lie after line 0 and before the last line's successor");
  if (small.cycles.size() != large.cycles.size()) return fail("the systems have different numbers of cycles");
  const std::vector<int> of_a = cycle_of_links(small), of_b = cycle_of_links(large);
  // (a) outside the strip
  for (pu_index pu = 0; pu < a.size(); ++pu) {
    std::vector<std::uint32_t> x = a.coordinates(pu);
    if (x[axis] >= first) x[axis] += 2;
    const pu_index moved = b.index(x);
    for (std::uint32_t port = 0; port < 4; ++port)
      if (of_a[pu * 4 + port] != of_b[moved * 4 + port])
        return fail("PU " + std::to_string(pu) + " port " + std::to_string(port) + ": cycle " +
                    std::to_string(of_a[pu * 4 + port]) + " in the smaller torus, " +
                    std::to_string(of_b[moved * 4 + port]) + " in the larger");
  }
  // (b) inside the strip
  const std::uint32_t width = a.dims()[across], forward = 2 * axis;
  auto pu_at = [&](std::uint32_t line, std::uint32_t place) {
    std::vector<std::uint32_t> x(2);
    x[axis] = line % b.dims()[axis], x[across] = place;
    return b.index(x);
  };
  std::vector<char> taken(static_cast<std::size_t>(b.size()) * 4, 0);  // strip links on the paths
  for (std::uint32_t place = 0; place < width; ++place) {
    const int c = of_b[pu_at(first - 1, place) * 4 + forward];
    if (c < 0) continue;
    pu_index previous = pu_at(first - 1, place), at = pu_at(first, place);
    taken[previous * 4 + forward] = taken[at * 4 + torus::network::opposite(forward)] = 1;
    for (std::size_t steps = 0;; ++steps) {
      const std::vector<std::uint32_t> x = b.coordinates(at);
      if (x[axis] != first && x[axis] != first + 1) {
        if (previous != pu_at(first + 1, place) || at != pu_at(first + 2, place))
          return fail("cycle " + std::to_string(c) + ": the path entering at place " + std::to_string(place) +
                      " leaves the strip elsewhere");
        break;
      }
      std::uint32_t out = 4;
      for (std::uint32_t p = 0; p < 4 && out == 4; ++p)
        if (of_b[at * 4 + p] == c && b.neighbor(at, p) != previous) out = p;
      if (out == 4 || steps > 2 * static_cast<std::size_t>(width))
        return fail("cycle " + std::to_string(c) + ": the path entering at place " + std::to_string(place) +
                    " does not leave the strip");
      taken[at * 4 + out] = taken[b.neighbor(at, out) * 4 + torus::network::opposite(out)] = 1;
      previous = at, at = b.neighbor(at, out);
    }
  }
  for (std::uint32_t line = first; line <= first + 1; ++line)
    for (std::uint32_t place = 0; place < width; ++place)
      for (std::uint32_t port = 0; port < 4; ++port) {
        const pu_index pu = pu_at(line, place);
        if (of_b[pu * 4 + port] >= 0 && !taken[pu * 4 + port])
          return fail("PU " + std::to_string(pu) + " port " + std::to_string(port) + ": a link of cycle " +
                      std::to_string(of_b[pu * 4 + port]) +
                      " in the strip on no path through it (a cycle closes inside the strip)");
      }
  return r;
}

std::string describe(const strip_report& r) {
  return std::string(to_string(r.outcome)) + ": " + r.checked + (r.problem.empty() ? "" : " -- " + r.problem);
}

}  // namespace dancecard::torus
