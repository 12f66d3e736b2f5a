// Relay assignment and SAT-chosen direction schedules for the supply of off-cycle packets (see the header).
#include "dancecard/smt/torus_supply.hpp"

#include <cadical.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <map>
#include <stdexcept>

#include "cadical_deadline.hpp"
#include "dancecard/checkers/torus_check.hpp"

namespace dancecard {

namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t nowhere = std::numeric_limits<std::uint64_t>::max();

struct slot {
  std::uint32_t cycle = none;  // the cycle whose packets arrive on this free in-port, or none (idle)
  bool relay = false;
};

// The cycle system read once: positions, links the cycles use, and the relay assignment.
struct supply_layout {
  const cycle_system& system;
  const torus& net;
  pu_index P;
  std::uint32_t ports, cycles;
  std::vector<std::uint64_t> where;  // [pu · cycles + c]: the position of pu on cycle c, or nowhere
  std::vector<char> used;            // [pu · ports + out-port]: a cycle runs over this link
  std::vector<slot> slots;           // [pu · ports + in-port]
  std::vector<std::uint32_t> source;  // [pu · ports + in-port], relay slots: the in-port of the neighbour it relays

  explicit supply_layout(const cycle_system& s)
      : system(s), net(s.network), P(s.network.size()), ports(s.network.ports()), cycles(static_cast<std::uint32_t>(s.cycles.size())),
        where(static_cast<std::size_t>(P) * cycles, nowhere), used(static_cast<std::size_t>(P) * ports, 0),
        slots(static_cast<std::size_t>(P) * ports), source(static_cast<std::size_t>(P) * ports, none) {
    if (cycles == 0 || cycles > 32) throw std::invalid_argument("supply search: needs 1 to 32 cycles");
    for (std::uint32_t c = 0; c < cycles; ++c) {
      const torus_cycle& cy = s.cycles[c];
      const std::uint64_t m = cy.length();
      if (m < 2 || cy.ports.size() != m) throw std::invalid_argument("supply search: cycle " + std::to_string(c) + " is malformed");
      for (std::uint64_t i = 0; i < m; ++i) {
        const pu_index pu = cy.pus[i];
        if (pu >= P || cy.ports[i] >= ports || net.neighbor(pu, cy.ports[i]) != cy.pus[(i + 1) % m])
          throw std::invalid_argument("supply search: cycle " + std::to_string(c) + " position " + std::to_string(i) + " is not a link to the next PU");
        if (where[pu * cycles + c] != nowhere)
          throw std::invalid_argument("supply search: PU " + std::to_string(pu) + " lies twice on cycle " + std::to_string(c) +
                                      " (a closed trail, not a cycle)");
        where[pu * cycles + c] = i;
        for (std::uint32_t o : {cy.ports[i], torus::opposite(cy.ports[(i + m - 1) % m])}) {
          if (used[pu * ports + o]) throw std::invalid_argument("supply search: two cycles share the link leaving PU " + std::to_string(pu) + " by port " + std::to_string(o));
          used[pu * ports + o] = 1;
        }
      }
    }
    for (pu_index pu = 0; pu < P; ++pu)
      if (mask_on(pu) == 0) throw std::invalid_argument("supply search: PU " + std::to_string(pu) + " lies on no cycle, so its packet never leaves");
  }
  bool on(pu_index pu, std::uint32_t c) const { return where[pu * cycles + c] != nowhere; }
  std::uint32_t mask_on(pu_index pu) const {
    std::uint32_t m = 0;
    for (std::uint32_t c = 0; c < cycles; ++c) m |= on(pu, c) ? 1u << c : 0u;
    return m;
  }
  bool free_in(pu_index pu, std::uint32_t p) const { return !used[pu * ports + p]; }  // cycles use links both ways
  // The in-port of on-cycle pu that brings cycle c's packets running forward (+1: from its predecessor) or backward.
  std::uint32_t cycle_in_port(pu_index pu, std::uint32_t c, bool forward) const {
    const torus_cycle& cy = system.cycles[c];
    const std::uint64_t i = where[pu * cycles + c], m = cy.length();
    return forward ? torus::opposite(cy.ports[(i + m - 1) % m]) : cy.ports[i];
  }
};

// Score of a PU's assignment, compared lexicographically: needed cycles with a stream, with two streams, with a
// direct stream, direct streams.
using score = std::array<int, 4>;

// The best assignment of v's free in-ports, given for every neighbour the cycles it gets directly (relay candidates).
std::vector<slot> best_slots(const supply_layout& L, pu_index v, const std::vector<std::uint32_t>& direct_of) {
  const std::uint32_t needed = ~L.mask_on(v) & ((L.cycles == 32 ? 0u : 1u << L.cycles) - 1u);
  std::vector<std::uint32_t> free_ports;
  for (std::uint32_t p = 0; p < L.ports; ++p)
    if (L.free_in(v, p)) free_ports.push_back(p);
  std::vector<slot> current(L.ports), best(L.ports);
  std::vector<int> count(L.cycles, 0), direct(L.cycles, 0);
  score best_score{-1, -1, -1, -1};
  auto evaluate = [&] {
    score s{0, 0, 0, 0};
    for (std::uint32_t c = 0; c < L.cycles; ++c) {
      if (!(needed >> c & 1u)) continue;
      s[0] += count[c] > 0;
      s[1] += count[c] > 1;
      s[2] += direct[c] > 0;
      s[3] += direct[c];
    }
    return s;
  };
  auto search = [&](auto&& self, std::size_t k) -> void {
    if (k == free_ports.size()) {
      const score s = evaluate();
      if (s > best_score) best_score = s, best = current;
      return;
    }
    const std::uint32_t p = free_ports[k];
    const pu_index n = L.net.neighbor(v, p);
    for (std::uint32_t c = 0; c < L.cycles; ++c) {
      if (!(needed >> c & 1u) || count[c] == 2) continue;
      const bool is_direct = L.on(n, c);
      if (!is_direct && !(direct_of[n] >> c & 1u)) continue;
      current[p] = {c, !is_direct};
      ++count[c];
      direct[c] += is_direct;
      self(self, k + 1);
      --count[c];
      direct[c] -= is_direct;
    }
    current[p] = {};
    self(self, k + 1);
  };
  search(search, 0);
  return best;
}

supply_assignment assign(supply_layout& L) {
  // direct_of[n]: the cycles n gets directly — at first every cycle n is off and adjacent to over a free link.
  std::vector<std::uint32_t> direct_of(L.P, 0);
  for (pu_index n = 0; n < L.P; ++n)
    for (std::uint32_t p = 0; p < L.ports; ++p)
      if (L.free_in(n, p)) direct_of[n] |= L.mask_on(L.net.neighbor(n, p)) & ~L.mask_on(n);
  // Fixed point: each PU's best assignment given its neighbours' direct cycles, until those stop changing. PUs with
  // the same neighbourhood (which cycles each free neighbour lies on and gets directly) get the same assignment.
  for (int round = 0; round < 16; ++round) {
    std::map<std::vector<std::uint32_t>, std::vector<slot>> known;
    for (pu_index v = 0; v < L.P; ++v) {
      std::vector<std::uint32_t> key{L.mask_on(v)};
      for (std::uint32_t p = 0; p < L.ports; ++p) {
        const pu_index n = L.net.neighbor(v, p);
        key.push_back(L.free_in(v, p) ? L.mask_on(n) : none);
        key.push_back(L.free_in(v, p) ? direct_of[n] : none);
      }
      auto hit = known.find(key);
      if (hit == known.end()) hit = known.emplace(key, best_slots(L, v, direct_of)).first;
      std::copy(hit->second.begin(), hit->second.end(), L.slots.begin() + static_cast<std::ptrdiff_t>(v) * L.ports);
    }
    bool changed = false;
    for (pu_index n = 0; n < L.P; ++n) {
      std::uint32_t mine = 0;
      for (std::uint32_t p = 0; p < L.ports; ++p) {
        const slot& s = L.slots[n * L.ports + p];
        if (s.cycle != none && !s.relay) mine |= 1u << s.cycle;
      }
      changed = changed || mine != direct_of[n];
      direct_of[n] = mine;
    }
    if (!changed) break;
  }
  supply_assignment out;
  for (pu_index v = 0; v < L.P; ++v) {
    std::vector<int> count(L.cycles, 0);
    for (std::uint32_t p = 0; p < L.ports; ++p) {
      slot& s = L.slots[v * L.ports + p];
      if (!L.free_in(v, p)) continue;
      if (s.cycle == none) {
        ++out.idle_links;
        continue;
      }
      if (s.relay) {  // relay the first direct stream of that cycle the neighbour has; drop the slot if it has none
        const pu_index n = L.net.neighbor(v, p);
        for (std::uint32_t q = 0; q < L.ports && L.source[v * L.ports + p] == none; ++q) {
          const slot& t = L.slots[n * L.ports + q];
          if (L.free_in(n, q) && t.cycle == s.cycle && !t.relay) L.source[v * L.ports + p] = q;
        }
        if (L.source[v * L.ports + p] == none) {
          s = {};
          ++out.idle_links;
          continue;
        }
        ++out.relay_links;
      } else {
        ++out.direct_links;
      }
      ++count[s.cycle];
    }
    for (std::uint32_t c = 0; c < L.cycles; ++c) {
      if (L.on(v, c)) continue;
      if (count[c] == 0)
        throw std::invalid_argument("supply search on " + L.net.name() + ": PU " + std::to_string(v) + " (off cycle " + std::to_string(c) +
                                    ") cannot get that cycle's packets over free links, directly or by one relay");
      out.single_stream += count[c] == 1;
    }
  }
  return out;
}

}  // namespace

supply_search_result schedule_cycle_supply(const cycle_system& system, std::uint64_t steps, supply_policy policy, unsigned budget_ms) {
  const auto start = std::chrono::steady_clock::now();
  supply_layout L(system);
  supply_search_result out;
  out.assignment = assign(L);
  out.steps = steps;
  out.queries = 1;
  if (steps < 1) throw std::invalid_argument("supply search: needs steps >= 1");
  // Direct supplying links, numbered; variables dir(i, u) for the link's own steps u = 2 … steps: true when it forwards
  // the packets running forward on its cycle (arriving from the supplier's predecessor) in step u.
  struct direct_link {
    pu_index supplier;
    std::uint32_t out_port, cycle;
    std::uint64_t position;
  };
  std::vector<direct_link> links;
  std::vector<std::uint32_t> link_of(static_cast<std::size_t>(L.P) * L.ports, none);  // [v · ports + in-port], direct slots
  for (pu_index v = 0; v < L.P; ++v)
    for (std::uint32_t p = 0; p < L.ports; ++p) {
      const slot& s = L.slots[v * L.ports + p];
      if (s.cycle == none || s.relay) continue;
      const pu_index n = L.net.neighbor(v, p);
      link_of[v * L.ports + p] = static_cast<std::uint32_t>(links.size());
      links.push_back({n, torus::opposite(p), s.cycle, L.where[n * L.cycles + s.cycle]});
    }
  const std::uint64_t per_link = policy == supply_policy::time_independent ? 1 : (steps >= 2 ? steps - 1 : 1);
  const std::uint64_t dir_vars = links.size() * per_link;
  const std::uint64_t switch_vars = policy == supply_policy::one_switch ? links.size() * per_link : 0;
  if (dir_vars + switch_vars > 200'000'000) throw std::invalid_argument("supply search: more than 2e8 variables");
  auto dir = [&](std::uint64_t i, std::uint64_t u) {  // u >= 2
    return static_cast<int>(i * per_link + (policy == supply_policy::time_independent ? 0 : u - 2) + 1);
  };
  auto sw = [&](std::uint64_t i, std::uint64_t u) { return static_cast<int>(dir_vars + i * per_link + (u - 2) + 1); };
  CaDiCaL::Solver solver;
  solver.set("quiet", 1);
  auto add = [&](const std::vector<int>& lits) {
    for (int l : lits) solver.add(l);
    solver.add(0);
  };
  if (policy == supply_policy::one_switch)
    for (std::uint64_t i = 0; i < links.size(); ++i)
      for (std::uint64_t u = 3; u <= steps; ++u) {
        // sw(i, u): the link has switched by step u (monotone); dir(i, u) = dir(i, 2) xor sw(i, u).
        if (u < steps) add({-sw(i, u), sw(i, u + 1)});
        add({-dir(i, u), dir(i, 2), sw(i, u)});
        add({-dir(i, u), -dir(i, 2), -sw(i, u)});
        add({dir(i, u), -dir(i, 2), sw(i, u)});
        add({dir(i, u), dir(i, 2), -sw(i, u)});
      }
  // Coverage: every PU v holds every other PU w's packet by `steps`. On a cycle through both, w's packet arrives at
  // step dist(v, w) along it; otherwise (or later) some stream of a needed cycle through w must bring it. A direct
  // link at position a delivers a in its step 1 and a − (u − 1) (forward) or a + (u − 1) (backward) in its step u;
  // a relay delivers what its source link delivered one step earlier.
  // A relay may pass on any of its neighbour's direct streams of the cycle: one selector variable per option when
  // there are several (exactly one true), and an auxiliary z → selector ∧ literal wherever an option's literal is used.
  int next_var = static_cast<int>(dir_vars + switch_vars);
  std::vector<std::vector<std::pair<std::uint32_t, int>>> options(static_cast<std::size_t>(L.P) * L.ports);  // (in-port, selector)
  for (pu_index v = 0; v < L.P; ++v)
    for (std::uint32_t p = 0; p < L.ports; ++p) {
      const slot& s = L.slots[v * L.ports + p];
      if (s.cycle == none || !s.relay) continue;
      const pu_index n = L.net.neighbor(v, p);
      auto& opts = options[v * L.ports + p];
      for (std::uint32_t q = 0; q < L.ports; ++q) {
        const slot& t = L.slots[n * L.ports + q];
        if (L.free_in(n, q) && t.cycle == s.cycle && !t.relay) opts.push_back({q, opts.empty() ? 0 : 1});
      }
      if (opts.size() < 2) continue;
      std::vector<int> one;
      for (auto& o : opts) one.push_back(o.second = ++next_var);
      add(one);
      for (std::size_t a = 0; a < one.size(); ++a)
        for (std::size_t b = a + 1; b < one.size(); ++b) add({-one[a], -one[b]});
    }
  std::map<std::pair<int, int>, int> conjunction;  // (selector, literal) → z
  auto both = [&](int selector, int lit) {
    if (selector == 0) return lit;
    auto [it, fresh] = conjunction.emplace(std::make_pair(selector, lit), 0);
    if (fresh) {
      it->second = ++next_var;
      add({-it->second, selector});
      add({-it->second, lit});
    }
    return it->second;
  };
  struct stream {
    std::uint64_t link, delay;
    int selector;  // 0: always this link
  };
  std::vector<std::vector<stream>> streams(L.cycles);
  std::uint64_t clauses = 0;
  for (pu_index v = 0; v < L.P; ++v) {
    for (std::uint32_t c = 0; c < L.cycles; ++c) {
      streams[c].clear();
      for (std::uint32_t p = 0; p < L.ports; ++p) {
        const slot& s = L.slots[v * L.ports + p];
        if (s.cycle != c) continue;
        if (!s.relay) {
          streams[c].push_back({link_of[v * L.ports + p], 0, 0});
        } else {
          for (const auto& [q, selector] : options[v * L.ports + p])
            streams[c].push_back({link_of[L.net.neighbor(v, p) * L.ports + q], 1, selector});
        }
      }
    }
    // Locality (Section 3.2, as checkers/torus_check's check_supply asks): every needed cycle reaches v running in
    // both directions on some stream at some step.
    for (std::uint32_t c = 0; c < L.cycles; ++c) {
      if (L.on(v, c)) continue;
      std::vector<int> forward, backward;
      for (const stream& st : streams[c]) {
        const std::uint64_t last = steps > st.delay ? steps - st.delay : 1;
        for (std::uint64_t u = 2; u <= std::max<std::uint64_t>(2, policy == supply_policy::time_independent ? 2 : last); ++u) {
          forward.push_back(both(st.selector, dir(st.link, u)));
          backward.push_back(both(st.selector, -dir(st.link, u)));
        }
      }
      add(forward);
      add(backward);
    }
    for (pu_index w = 0; w < L.P; ++w) {
      if (w == v) continue;
      std::vector<int> clause;
      bool satisfied = false;
      for (std::uint32_t c = 0; c < L.cycles && !satisfied; ++c) {
        if (!L.on(w, c)) continue;
        const std::uint64_t m = system.cycles[c].length(), q = L.where[w * L.cycles + c];
        if (L.on(v, c)) {
          const std::uint64_t i = L.where[v * L.cycles + c], ahead = (q + m - i) % m;
          satisfied = std::min(ahead, m - ahead) <= steps;
          continue;
        }
        for (const stream& st : streams[c]) {
          if (steps <= st.delay) continue;
          const std::uint64_t last = steps - st.delay, a = links[st.link].position;  // the link's own steps 1 … last
          for (int sense : {1, -1}) {
            const std::uint64_t k = sense > 0 ? (a + m - q) % m : (q + m - a) % m;  // forward: q = a − k; backward: q = a + k
            for (std::uint64_t u = k + 1; u <= last; u += m) {
              if (u == 1 || 2 * (u - 1) % m == 0) {  // its own packet, or both directions bring q in this step
                if (st.selector == 0) satisfied = true;
                else clause.push_back(st.selector);
              } else {
                const int lit = dir(st.link, u);
                clause.push_back(both(st.selector, sense > 0 ? lit : -lit));
              }
            }
          }
        }
      }
      if (satisfied) continue;
      add(clause);  // empty: nothing can bring w's packet in time — unsatisfiable, as it should be
      ++clauses;
    }
  }
  detail::cadical_deadline stop(budget_ms);
  solver.connect_terminator(&stop);
  const int result = solver.solve();
  solver.disconnect_terminator();
  const std::string size = std::to_string(links.size()) + " supplying links, " + std::to_string(out.assignment.relay_links) + " relays, " +
                           std::to_string(clauses) + " coverage clauses";
  if (result == 20) {
    out.answer = solver_answer::unsat;
    out.reason = "no " + std::string(to_string(policy)) + " direction schedule completes the supply within " + std::to_string(steps) +
                 " steps for this relay assignment (" + size + ")";
  } else if (result == 10) {
    // Decode: the cycles forward both ways and inject; supplying links forward their direction, relays their source.
    routing_table table{L.net, 1, std::vector<std::uint32_t>(static_cast<std::size_t>(L.P) * L.ports, no_port),
                        std::vector<std::uint32_t>(static_cast<std::size_t>(L.P) * L.ports, no_packet), {}};
    for (std::uint32_t c = 0; c < L.cycles; ++c) {
      const torus_cycle& cy = system.cycles[c];
      for (std::uint64_t i = 0; i < cy.length(); ++i) {
        const pu_index pu = cy.pus[i];
        const std::uint32_t out_port = cy.ports[i], back = torus::opposite(cy.ports[(i + cy.length() - 1) % cy.length()]);
        table.forward_at(pu, out_port) = back;
        table.forward_at(pu, back) = out_port;
        table.inject_at(pu, out_port) = table.inject_at(pu, back) = 0;
      }
    }
    auto forward_value = [&](std::uint64_t i, std::uint64_t u) {
      const int lit = dir(i, policy == supply_policy::time_independent ? 2 : u);
      return solver.val(lit) > 0;
    };
    for (std::uint64_t i = 0; i < links.size(); ++i) {
      const direct_link& k = links[i];
      bool now = steps >= 2 ? forward_value(i, 2) : true;
      table.forward_at(k.supplier, k.out_port) = L.cycle_in_port(k.supplier, k.cycle, now);
      table.inject_at(k.supplier, k.out_port) = 0;
      if (policy != supply_policy::time_independent)
        for (std::uint64_t u = 3; u <= steps; ++u) {
          const bool next = forward_value(i, u);
          if (next != now) table.switches.push_back({k.supplier, k.out_port, u, L.cycle_in_port(k.supplier, k.cycle, next)});
          now = next;
        }
    }
    for (pu_index v = 0; v < L.P; ++v)
      for (std::uint32_t p = 0; p < L.ports; ++p) {
        const slot& s = L.slots[v * L.ports + p];
        if (s.cycle == none || !s.relay) continue;
        const pu_index n = L.net.neighbor(v, p);
        std::uint32_t from = L.source[v * L.ports + p];
        for (const auto& [q, selector] : options[v * L.ports + p])
          if (selector != 0 && solver.val(selector) > 0) from = q;
        table.forward_at(n, torus::opposite(p)) = from;
        table.inject_at(n, torus::opposite(p)) = 0;
      }
    const gossip_report run = simulate_gossip(table, steps);
    if (run.holds()) {
      out.answer = solver_answer::sat;
      out.steps = run.steps;
      out.reason = "the decoded table completes in " + std::to_string(run.steps) + " steps (simulated; " + size + ", " +
                   std::to_string(table.switches.size()) + " switches)";
      out.table = std::move(table);
    } else {
      out.answer = solver_answer::unknown;
      out.reason = "the decoded table does not complete within " + std::to_string(steps) + " steps in the simulator: " + describe(run);
    }
  } else {
    out.reason = "CaDiCaL stopped at the time budget (" + size + ")";
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

supply_search_result best_cycle_supply(const cycle_system& system, supply_policy policy, unsigned budget_ms, std::uint64_t max_steps) {
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t longest = 0;
  for (const torus_cycle& cy : system.cycles) longest = std::max<std::uint64_t>(longest, cy.length());
  if (max_steps == 0) max_steps = 2 * longest;
  supply_search_result last;
  std::uint64_t queries = 0;
  for (std::uint64_t steps = std::max<std::uint64_t>(1, longest / 2); steps <= max_steps; ++steps) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() * 1000;
    if (budget_ms > 0 && spent >= budget_ms) {
      last.answer = solver_answer::unknown;
      last.reason = "time budget spent before " + std::to_string(steps) + " steps";
      break;
    }
    last = schedule_cycle_supply(system, steps, policy, budget_ms == 0 ? 0 : budget_ms - static_cast<unsigned>(spent));
    ++queries;
    if (last.answer != solver_answer::unsat) break;
  }
  last.queries = queries;
  last.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return last;
}

}  // namespace dancecard
