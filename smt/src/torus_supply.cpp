// The supply of off-cycle packets as one CNF — which free link brings which cycle, directly or by a relay, and the
// direction schedule of every direct supplying link — solved by CaDiCaL, decoded and simulated (see the header).
#include "dancecard/smt/torus_supply.hpp"

#include <algorithm>
#include <array>
#include <cadical.hpp>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

#include "cadical_deadline.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/smt/clausal.hpp"

namespace dancecard::torus {

namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

// The cycle system read once: the positions of every PU on every cycle (several on a closed trail) and the links the
// cycles use.
struct supply_layout {
  const cycle_system& system;
  const torus::network& net;
  pu_index P;
  std::uint32_t ports, cycles;
  std::vector<std::vector<std::uint64_t>> passes;  // [pu · cycles + c]: the positions of pu on cycle c, increasing
  std::vector<char> used;                          // [pu · ports + out-port]: a cycle runs over this link

  explicit supply_layout(const cycle_system& s)
      : system(s),
        net(s.network),
        P(s.network.size()),
        ports(s.network.ports()),
        cycles(static_cast<std::uint32_t>(s.cycles.size())),
        passes(static_cast<std::size_t>(P) * cycles),
        used(static_cast<std::size_t>(P) * ports, 0) {
    if (cycles == 0 || cycles > 32) throw std::invalid_argument("supply search: needs 1 to 32 cycles");
    for (std::uint32_t c = 0; c < cycles; ++c) {
      const torus_cycle& cy = s.cycles[c];
      const std::uint64_t m = cy.length();
      if (m < 2 || cy.ports.size() != m)
        throw std::invalid_argument("supply search: cycle " + std::to_string(c) + " is malformed");
      for (std::uint64_t i = 0; i < m; ++i) {
        const pu_index pu = cy.pus[i];
        if (pu >= P || cy.ports[i] >= ports || net.neighbor(pu, cy.ports[i]) != cy.pus[(i + 1) % m])
          throw std::invalid_argument("supply search: cycle " + std::to_string(c) + " position " + std::to_string(i) +
                                      " is not a link to the next PU");
        passes[pu * cycles + c].push_back(i);
      }
    }
    const cycle_links links = map_cycle_links(s);  // every position was checked above
    if (links.shared)
      throw std::invalid_argument("supply search: the cycles use the link leaving PU " +
                                  std::to_string(links.shared->pu) + " by port " + std::to_string(links.shared->port) +
                                  " twice");
    for (std::size_t k = 0; k < used.size(); ++k) used[k] = links.owner[k] != cycle_links::none;
    for (pu_index pu = 0; pu < P; ++pu)
      if (mask_on(pu) == 0)
        throw std::invalid_argument("supply search: PU " + std::to_string(pu) +
                                    " lies on no cycle, so its packet never leaves");
  }
  const std::vector<std::uint64_t>& at(pu_index pu, std::uint32_t c) const { return passes[pu * cycles + c]; }
  bool on(pu_index pu, std::uint32_t c) const { return !at(pu, c).empty(); }
  std::uint32_t mask_on(pu_index pu) const {
    std::uint32_t m = 0;
    for (std::uint32_t c = 0; c < cycles; ++c) m |= on(pu, c) ? 1u << c : 0u;
    return m;
  }
  bool free_in(pu_index pu, std::uint32_t p) const { return !used[pu * ports + p]; }  // cycles use links both ways
  // Choice k of on-cycle pu: pass k/2, packets running forward (k even: from the predecessor) or backward; its in-port.
  std::uint32_t cycle_in_port(pu_index pu, std::uint32_t c, std::uint32_t k) const {
    const torus_cycle& cy = system.cycles[c];
    const std::uint64_t i = at(pu, c)[k / 2], m = cy.length();
    return k % 2 == 0 ? torus::network::opposite(cy.ports[(i + m - 1) % m]) : cy.ports[i];
  }
};

// A way for a free in-port p of v to bring cycle c: directly from the neighbour n on c, or relaying what arrives at
// n on its free in-port q (which must then bring c directly). selector: the variable "p of v does this".
struct supply_option {
  pu_index v;
  std::uint32_t p, c;
  bool relay;
  std::uint32_t q;   // relays: n's in-port
  std::uint32_t of;  // relays: the index of the direct option (n, q, c)
  int selector;
};

}  // namespace

supply_search_result schedule_cycle_supply(const cycle_system& system, std::uint64_t steps, supply_policy policy,
                                           unsigned budget_ms, const supply_search_options& options_in) {
  const bool locality = options_in.locality;
  const auto start = std::chrono::steady_clock::now();
  if (steps < 1) throw std::invalid_argument("supply search: needs steps >= 1");
  const supply_layout L(system);
  supply_search_result out;
  out.steps = steps;
  out.queries = 1;
  cnf_formula formula;
  auto add = [&](const std::vector<int>& lits) { formula.clauses.push_back(lits); };
  int next_var = 0;
  // Options: direct ones first (their index is their direction variables' block), then relays.
  std::vector<supply_option> options;
  std::map<std::tuple<pu_index, std::uint32_t, std::uint32_t>, std::uint32_t> direct_index;  // (v, p, c) → option
  std::vector<std::vector<std::uint32_t>> at(static_cast<std::size_t>(L.P) * L.ports);  // [v · ports + p] → options
  for (pu_index v = 0; v < L.P; ++v)
    for (std::uint32_t p = 0; p < L.ports; ++p) {
      if (!L.free_in(v, p)) continue;
      const pu_index n = L.net.neighbor(v, p);
      for (std::uint32_t c = 0; c < L.cycles; ++c)
        if (L.on(n, c) && !L.on(v, c)) {
          direct_index[{v, p, c}] = static_cast<std::uint32_t>(options.size());
          at[v * L.ports + p].push_back(static_cast<std::uint32_t>(options.size()));
          options.push_back({v, p, c, false, none, none, 0});
        }
    }
  const std::uint64_t directs = options.size();
  for (pu_index v = 0; v < L.P; ++v)
    for (std::uint32_t p = 0; p < L.ports; ++p) {
      if (!L.free_in(v, p)) continue;
      const pu_index n = L.net.neighbor(v, p);
      for (std::uint32_t q = 0; q < L.ports; ++q) {
        if (!L.free_in(n, q)) continue;
        for (std::uint32_t c = 0; c < L.cycles; ++c) {
          if (L.on(v, c) || L.on(n, c)) continue;
          const auto d = direct_index.find({n, q, c});
          if (d == direct_index.end()) continue;
          at[v * L.ports + p].push_back(static_cast<std::uint32_t>(options.size()));
          options.push_back({v, p, c, true, q, d->second, 0});
        }
      }
    }
  // Choice variables of direct option o for its own steps u = 2 … steps (one set per option when time-independent):
  // which in-port of the supplier it forwards — choice k: pass k/2 of the supplier on the cycle, packets running
  // forward (k even, arriving from the predecessor) or backward. A supplier on the cycle once has two choices: one
  // variable dir(o, u), true for forward. On a closed trail it has 2h (h passes): one-hot variables. one_switch adds
  // sw(o, u), "switched by step u", monotone: before the switch the choice is that of step 2, after it constant.
  const std::uint64_t per_step = policy == supply_policy::time_independent ? 1 : (steps >= 2 ? steps - 1 : 1);
  std::vector<std::uint64_t> base(directs + 1, 0), width(directs, 1), switch_base(directs, 0);
  for (std::uint64_t o = 0; o < directs; ++o) {
    const supply_option& opt = options[o];
    const std::uint64_t h = L.at(L.net.neighbor(opt.v, opt.p), opt.c).size();
    width[o] = h == 1 ? 1 : 2 * h;
    base[o + 1] = base[o] + width[o] * per_step;
  }
  const std::uint64_t choice_vars = base[directs],
                      switch_vars = policy == supply_policy::one_switch ? directs * per_step : 0;
  if (choice_vars + switch_vars + options.size() > 100'000'000)
    throw std::invalid_argument("supply search: more than 1e8 variables");
  for (std::uint64_t o = 0; o < directs; ++o) switch_base[o] = choice_vars + o * per_step;
  auto choice = [&](std::uint64_t o, std::uint64_t u, std::uint32_t k) {  // u >= 2: "o forwards choice k in step u"
    const std::uint64_t step = policy == supply_policy::time_independent ? 0 : u - 2;
    if (width[o] == 1) {
      const int dir = static_cast<int>(base[o] + step + 1);
      return k == 0 ? dir : -dir;
    }
    return static_cast<int>(base[o] + step * width[o] + k + 1);
  };
  auto sw = [&](std::uint64_t o, std::uint64_t u) { return static_cast<int>(switch_base[o] + (u - 2) + 1); };
  next_var = static_cast<int>(choice_vars + switch_vars);
  for (supply_option& o : options) o.selector = ++next_var;
  for (std::uint64_t o = 0; o < directs; ++o) {
    const auto ks = static_cast<std::uint32_t>(width[o]);
    if (ks > 1)  // exactly one choice per step
      for (std::uint64_t u = 2;
           u <= (policy == supply_policy::time_independent ? 2 : std::max<std::uint64_t>(steps, 2)); ++u) {
        std::vector<int> one;
        for (std::uint32_t k = 0; k < ks; ++k) one.push_back(choice(o, u, k));
        add(one);
        for (std::uint32_t a = 0; a < ks; ++a)
          for (std::uint32_t b = a + 1; b < ks; ++b) add({-one[a], -one[b]});
      }
    if (policy != supply_policy::one_switch) continue;
    for (std::uint64_t u = 3; u <= steps; ++u) {
      if (u < steps) add({-sw(o, u), sw(o, u + 1)});
      for (std::uint32_t k = 0; k < std::max<std::uint32_t>(ks, 1); ++k) {
        // not switched by u: as in step 2; switched by u − 1: as in step u − 1
        add({sw(o, u), -choice(o, u, k), choice(o, 2, k)});
        add({sw(o, u), choice(o, u, k), -choice(o, 2, k)});
        if (u >= 4) {
          add({-sw(o, u - 1), -choice(o, u, k), choice(o, u - 1, k)});
          add({-sw(o, u - 1), choice(o, u, k), -choice(o, u - 1, k)});
        }
      }
    }
  }
  for (const auto& here : at)  // a link carries one stream: at most one option per free in-port
    for (std::size_t x = 0; x < here.size(); ++x)
      for (std::size_t y = x + 1; y < here.size(); ++y) add({-options[here[x]].selector, -options[here[y]].selector});
  for (const supply_option& o : options)  // a relay passes on a stream its PU really gets directly
    if (o.relay) add({-o.selector, options[o.of].selector});
  std::map<std::pair<int, int>, int> conjunction;  // (selector, literal) → z with z → selector ∧ literal
  auto both = [&](int selector, int lit) {
    auto [it, fresh] = conjunction.emplace(std::make_pair(selector, lit), 0);
    if (fresh) {
      it->second = ++next_var;
      add({-it->second, selector});
      add({-it->second, lit});
    }
    return it->second;
  };
  // The literals under which option o (into v) brings position q of its cycle by step `steps`: a direct option whose
  // supplier passes position a delivers the supplier's packet in its step 1 and, on choice (a, forward) or
  // (a, backward), a − (u − 1) or a + (u − 1) in step u; a relay delivers what its direct option delivered one step
  // earlier.
  auto delivers = [&](const supply_option& o, std::uint64_t q, std::vector<int>& clause) {
    const std::uint64_t delay = o.relay ? 1 : 0;
    if (steps <= delay) return;
    const std::uint64_t d = o.relay ? o.of : static_cast<std::uint64_t>(&o - options.data());
    const supply_option& direct = options[d];
    const std::vector<std::uint64_t>& here = L.at(L.net.neighbor(direct.v, direct.p), o.c);
    const std::uint64_t m = system.cycles[o.c].length(), last = steps - delay;
    for (std::uint32_t j = 0; j < here.size(); ++j) {
      const std::uint64_t a = here[j];
      if (a == q) {  // the supplier's own packet, in its step 1
        clause.push_back(o.selector);
        continue;
      }
      for (int sense : {1, -1}) {
        const std::uint64_t k =
            sense > 0 ? (a + m - q) % m : (q + m - a) % m;  // forward: q = a − k; backward: q = a + k
        for (std::uint64_t u = k + 1; u <= last; u += m) {
          if (width[d] == 1 && 2 * (u - 1) % m == 0)
            clause.push_back(o.selector);  // both directions bring q
          else
            clause.push_back(both(o.selector, choice(d, u, 2 * j + (sense > 0 ? 0 : 1))));
        }
      }
    }
  };
  // The steps of a direct option's own choice that a stream with `delay` uses (time-independent: the one choice).
  auto last_step = [&](std::uint64_t delay) { return policy == supply_policy::time_independent ? 2 : steps - delay; };
  std::uint64_t clauses = 0;
  std::vector<std::vector<std::uint32_t>> into(L.cycles);  // options into v, by cycle
  for (pu_index v = 0; v < L.P; ++v) {
    for (auto& list : into) list.clear();
    for (std::uint32_t p = 0; p < L.ports; ++p)
      for (std::uint32_t o : at[v * L.ports + p]) into[options[o].c].push_back(o);
    // Locality (Section 3.2, as checkers/torus_check's check_supply asks): every cycle v is off reaches it running
    // in both directions on some stream at some step.
    for (std::uint32_t c = 0; c < L.cycles && locality; ++c) {
      if (L.on(v, c)) continue;
      std::vector<int> forward, backward;
      for (std::uint32_t o : into[c]) {
        const supply_option& opt = options[o];
        const std::uint64_t d = opt.relay ? opt.of : o, delay = opt.relay ? 1 : 0;
        if (steps < delay + 2) continue;  // no step of its own beyond the supplier's packet
        const auto choices = static_cast<std::uint32_t>(width[d] == 1 ? 2 : width[d]);
        for (std::uint64_t u = 2; u <= last_step(delay); ++u)
          for (std::uint32_t k = 0; k < choices; ++k)
            (k % 2 == 0 ? forward : backward).push_back(both(opt.selector, choice(d, u, k)));
      }
      add(forward);
      add(backward);
    }
    // Coverage: v holds every other PU w's packet by `steps` — along a cycle through both (w's packet arrives at step
    // dist(v, w) for the nearest passes), or on some stream of a cycle through w.
    for (pu_index w = 0; w < L.P; ++w) {
      if (w == v) continue;
      std::vector<int> clause;
      bool satisfied = false;
      for (std::uint32_t c = 0; c < L.cycles && !satisfied; ++c) {
        if (!L.on(w, c)) continue;
        const std::uint64_t m = system.cycles[c].length();
        if (L.on(v, c)) {
          for (std::uint64_t i : L.at(v, c))
            for (std::uint64_t q : L.at(w, c)) {
              const std::uint64_t ahead = (q + m - i) % m;
              satisfied = satisfied || std::min(ahead, m - ahead) <= steps;
            }
          continue;
        }
        for (std::uint64_t q : L.at(w, c))
          for (std::uint32_t o : into[c]) delivers(options[o], q, clause);
      }
      if (satisfied) continue;
      add(clause);  // empty: nothing can bring w's packet in time — unsatisfiable, as it should be
      ++clauses;
    }
  }
  formula.variables = next_var;
  const std::string size = std::to_string(directs) + " direct and " + std::to_string(options.size() - directs) +
                           " relay options, " + std::to_string(clauses) + " coverage clauses";
  std::vector<char> truth(static_cast<std::size_t>(next_var) + 1, 0);
  int result = 0;  // CaDiCaL's convention: 10 sat, 20 unsat, 0 unknown
  std::string certificate;
  if (!options_in.certify) {
    CaDiCaL::Solver solver;
    solver.set("quiet", 1);
    for (const auto& clause : formula.clauses) {
      for (int l : clause) solver.add(l);
      solver.add(0);
    }
    dancecard::detail::cadical_deadline stop(budget_ms);
    solver.connect_terminator(&stop);
    result = solver.solve();
    solver.disconnect_terminator();
    if (result == 10)
      for (int x = 1; x <= next_var; ++x) truth[static_cast<std::size_t>(x)] = solver.val(x) > 0;
  } else {
    const clausal_result solved = solve_with_proof(formula, budget_ms);
    if (solved.answer == solver_answer::sat) {
      result = 10;
      for (int lit : solved.model) truth[static_cast<std::size_t>(lit)] = 1;
    } else if (solved.answer == solver_answer::unsat) {
      const certificates::drat_report check = solved.proof.check(formula.dimacs());
      if (check.outcome == verdict::holds) {
        result = 20;
        certificate = "; DRAT proof checked (" + std::to_string(check.checked_lemmas) + " lemmas)";
      } else {
        out.reason = "CaDiCaL said unsat but its DRAT proof was not accepted: " + describe(check);
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return out;
      }
    }
  }
  auto val = [&](int lit) {
    return lit > 0 ? truth[static_cast<std::size_t>(lit)] != 0 : truth[static_cast<std::size_t>(-lit)] == 0;
  };
  if (result == 20) {
    out.answer = solver_answer::unsat;
    out.reason = "no supply over free links (direct or one relay) with a " + std::string(to_string(policy)) +
                 " direction schedule completes within " + std::to_string(steps) + " steps (" + size + ")" +
                 certificate;
  } else if (result == 10) {
    // Decode: the cycles forward both ways and inject; a direct option forwards its direction (switching as the
    // model says), a relay forwards its source in-port.
    routing_table table{L.net,
                        1,
                        std::vector<std::uint32_t>(static_cast<std::size_t>(L.P) * L.ports, no_port),
                        std::vector<std::uint32_t>(static_cast<std::size_t>(L.P) * L.ports, no_packet),
                        {}};
    for (std::uint32_t c = 0; c < L.cycles; ++c) {
      const torus_cycle& cy = system.cycles[c];
      for (std::uint64_t i = 0; i < cy.length(); ++i) {
        const pu_index pu = cy.pus[i];
        const std::uint32_t out_port = cy.ports[i],
                            back = torus::network::opposite(cy.ports[(i + cy.length() - 1) % cy.length()]);
        table.forward_at(pu, out_port) = back;
        table.forward_at(pu, back) = out_port;
        table.inject_at(pu, out_port) = table.inject_at(pu, back) = 0;
      }
    }
    std::vector<std::uint32_t> streams(static_cast<std::size_t>(L.P) * L.cycles, 0);
    for (std::uint64_t o = 0; o < options.size(); ++o) {
      const supply_option& opt = options[o];
      if (!val(opt.selector)) continue;
      const pu_index n = L.net.neighbor(opt.v, opt.p);
      const std::uint32_t port = torus::network::opposite(opt.p);
      ++streams[opt.v * L.cycles + opt.c];
      table.inject_at(n, port) = 0;
      if (opt.relay) {
        table.forward_at(n, port) = opt.q;
        ++out.assignment.relay_links;
        continue;
      }
      ++out.assignment.direct_links;
      auto chosen = [&](std::uint64_t u) {
        if (width[o] == 1) return val(choice(o, u, 0)) ? 0u : 1u;
        for (std::uint32_t k = 0; k < width[o]; ++k)
          if (val(choice(o, u, k))) return k;
        return 0u;  // not reached: exactly one holds
      };
      std::uint32_t now = steps >= 2 ? chosen(2) : 0u;
      table.forward_at(n, port) = L.cycle_in_port(n, opt.c, now);
      if (policy != supply_policy::time_independent)
        for (std::uint64_t u = 3; u <= steps; ++u) {
          const std::uint32_t next = chosen(u);
          if (next != now) table.switches.push_back({n, port, u, L.cycle_in_port(n, opt.c, next)});
          now = next;
        }
    }
    for (pu_index v = 0; v < L.P; ++v) {
      for (std::uint32_t p = 0; p < L.ports; ++p)
        out.assignment.idle_links +=
            L.free_in(v, p) && table.forward_at(L.net.neighbor(v, p), torus::network::opposite(p)) == no_port;
      for (std::uint32_t c = 0; c < L.cycles; ++c)
        out.assignment.single_stream += !L.on(v, c) && streams[v * L.cycles + c] == 1;
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
      out.reason = "the decoded table does not complete within " + std::to_string(steps) +
                   " steps in the simulator: " + describe(run);
    }
  } else {
    out.reason = "CaDiCaL stopped at the time budget (" + size + ")";
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

namespace detail {

supply_search_result search_least_supply(std::uint64_t first, std::uint64_t max_steps, std::uint64_t gap,
                                         unsigned budget_ms,
                                         const std::function<supply_search_result(std::uint64_t, unsigned)>& query) {
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t queries = 0;
  bool spent_all = false;
  // Each query gets a share of what is left of the budget (0: no limit), so that one query running out of time does
  // not end the search: a quarter for the first, half for the others, all of it for the last candidate.
  auto ask = [&](std::uint64_t steps, unsigned parts) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() * 1000;
    if (budget_ms > 0 && spent >= budget_ms) {
      spent_all = true;
      supply_search_result late;
      late.steps = steps;
      late.reason = "time budget spent before asking " + std::to_string(steps) + " steps";
      return late;
    }
    ++queries;
    return query(steps, budget_ms == 0 ? 0 : std::max(1u, (budget_ms - static_cast<unsigned>(spent)) / parts));
  };
  // Completing within T implies completing within T + 1 (every clause only gains literals), so the least T is where
  // the answers turn from unsat to sat: downward from `first` while sat, upward while unsat. A query out of time
  // breaks the monotone walk: then step counts further up are asked at doubling gaps until one is sat, and the gap
  // between the greatest step count asked without a table (`lo`) and the least with one is halved until it closes
  // (bisection) or the budget is spent. A sat answer's simulated steps may be fewer than asked; they are what counts.
  std::optional<supply_search_result> best;
  supply_search_result last;
  std::map<std::uint64_t, std::string> failed;  // step count → "unsat, reason" or "unknown, reason"
  std::uint64_t lo = 0;
  bool out_of_time = false;
  std::uint64_t steps = std::min(std::max<std::uint64_t>(1, first), max_steps);
  gap = std::max<std::uint64_t>(1, gap);
  for (bool opening = true;; opening = false) {
    const bool last_candidate = best && lo > 0 && best->steps == lo + 2;
    supply_search_result r = ask(steps, opening ? 4 : last_candidate ? 1 : 2);
    if (spent_all) {
      if (queries == 0) last = std::move(r);
      break;
    }
    if (r.answer == solver_answer::sat) {
      if (!best || r.steps < best->steps) best = std::move(r);
    } else {
      out_of_time = out_of_time || r.answer == solver_answer::unknown;
      failed[steps] = std::string(to_string(r.answer)) + ", " + r.reason;
      lo = std::max(lo, steps);
      last = std::move(r);
    }
    if (best) {
      if (best->steps <= lo + 1 || best->steps == 1) break;
      steps = lo == 0 ? best->steps - 1 : lo + (best->steps - lo) / 2;
    } else if (!out_of_time) {
      if (steps >= max_steps) break;
      ++steps;
    } else {
      if (lo >= max_steps) break;
      steps = std::min(lo + gap, max_steps);
      gap *= 2;
    }
  }
  if (!best) {
    last.queries = queries;
    last.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return last;
  }
  const auto below = failed.find(best->steps - 1);
  best->below = below == failed.end() ? "" : std::to_string(best->steps - 1) + " steps: " + below->second;
  best->queries = queries;
  best->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::move(*best);
}

}  // namespace detail

supply_search_result best_cycle_supply(const cycle_system& system, supply_policy policy, unsigned budget_ms,
                                       std::uint64_t max_steps, const supply_search_options& options) {
  std::uint64_t longest = 0;
  for (const torus_cycle& cy : system.cycles) longest = std::max<std::uint64_t>(longest, cy.length());
  return detail::search_least_supply(
      longest / 2, max_steps == 0 ? 2 * longest : max_steps, std::max<std::uint64_t>(2, longest / 16), budget_ms,
      [&](std::uint64_t steps, unsigned ms) { return schedule_cycle_supply(system, steps, policy, ms, options); });
}

}  // namespace dancecard::torus
