// CNF encoding of time-independent torus gossip (pairing and general models), solved by CaDiCaL; unsat answers are
// certified by checking the DRAT proof with checkers/drat_check, sat answers by simulating the decoded table.
#include <chrono>

#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "torus_search.hpp"

namespace dancecard {

std::string_view to_string(torus_model model) { return model == torus_model::pairing ? "pairing" : "general"; }

namespace {

struct torus_variables {
  const torus& net;
  torus_model model;
  std::uint64_t steps;
  std::uint32_t ports, pairings;
  int choice_count = 0;
  // choice(pu, c) (pairing) or sel(pu, out, in) (general), 1-based
  int choice(pu_index pu, std::uint32_t c) const { return static_cast<int>(pu * pairings + c + 1); }
  int sel(pu_index pu, std::uint32_t out, std::uint32_t in) const { return static_cast<int>((pu * ports + out) * ports + in + 1); }
  // x(t, link, u) for t >= 2, link = pu · ports + out
  int x(std::uint64_t t, std::uint64_t link, pu_index u) const {
    return choice_count + static_cast<int>(((t - 2) * net.size() * ports + link) * net.size() + u + 1);
  }
};

torus_variables layout(const torus& network, torus_model model, std::uint64_t steps) {
  torus_variables v{network, model, steps, network.ports(), static_cast<std::uint32_t>(port_pairings(network.dimension()).size())};
  v.choice_count = model == torus_model::pairing ? static_cast<int>(network.size() * v.pairings)
                                                 : static_cast<int>(network.size() * v.ports * v.ports);
  return v;
}

}  // namespace

int torus_choice_variable(const torus& network, torus_model model, pu_index pu, std::uint32_t c_or_out, std::uint32_t in_port) {
  const torus_variables v = layout(network, model, 1);
  return model == torus_model::pairing ? v.choice(pu, c_or_out) : v.sel(pu, c_or_out, in_port);
}

cnf_formula torus_gossip_cnf(const torus& network, torus_model model, std::uint64_t steps, bool base_only) {
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  const auto pairings = port_pairings(network.dimension());
  const torus_variables v = layout(network, model, steps);
  const std::uint64_t links = static_cast<std::uint64_t>(P) * ports;
  const std::uint64_t total = static_cast<std::uint64_t>(v.choice_count) + (steps >= 2 ? (steps - 1) * links * P : 0);
  if (total > 50'000'000) throw std::invalid_argument("torus CNF: more than 5e7 variables");
  cnf_formula f;
  f.variables = static_cast<int>(total);
  f.comments.push_back("time-independent gossip on the " + network.name() + " torus, " + std::string(to_string(model)) + " model, " +
                       std::to_string(steps) + " steps");
  f.comments.push_back(model == torus_model::pairing ? "variables 1.." + std::to_string(v.choice_count) + ": PU pu uses pairing c = pu*" +
                                                           std::to_string(v.pairings) + " + c + 1"
                                                     : "variables 1.." + std::to_string(v.choice_count) + ": out-port o of PU pu forwards in-port i = (pu*" +
                                                           std::to_string(ports) + " + o)*" + std::to_string(ports) + " + i + 1");
  f.comments.push_back("then x(t, link, u) for t >= 2: link pu*ports+o carries PU u's packet in step t");
  for (pu_index pu = 0; pu < P; ++pu) {
    if (model == torus_model::pairing) {
      std::vector<int> some;
      for (std::uint32_t c = 0; c < v.pairings; ++c) some.push_back(v.choice(pu, c));
      f.clauses.push_back(some);
      for (std::uint32_t a = 0; a < v.pairings; ++a)
        for (std::uint32_t b = a + 1; b < v.pairings; ++b) f.clauses.push_back({-v.choice(pu, a), -v.choice(pu, b)});
    } else {
      for (std::uint32_t o = 0; o < ports; ++o) {
        for (std::uint32_t a = 0; a < ports; ++a)
          for (std::uint32_t b = a + 1; b < ports; ++b) f.clauses.push_back({-v.sel(pu, o, a), -v.sel(pu, o, b)});
        if (base_only) continue;
        // Implied: every out-port forwards some in-port. Sound because a forward only adds transfers on a link that
        // would otherwise be idle; it never removes or delays a delivery, so a table with an idle out-port completes
        // no later once that port forwards anything.
        std::vector<int> some;
        for (std::uint32_t in = 0; in < ports; ++in) some.push_back(v.sel(pu, o, in));
        f.clauses.push_back(some);
      }
    }
  }
  // Symmetry breaking: translations of the torus are automorphisms that keep every port's direction, so they map
  // tables to tables with the same step count. Some PU's choice is the least among all PUs (pairing: the index of
  // its pairing; general: the in-port its out-port 0 forwards); translating that PU to PU 0 gives a table in which
  // PU 0's choice is <= every PU's. Requiring that keeps a solution whenever one exists.
  for (pu_index pu = 1; pu < P && !base_only; ++pu) {
    if (model == torus_model::pairing) {
      for (std::uint32_t c = 1; c < v.pairings; ++c)
        for (std::uint32_t smaller = 0; smaller < c; ++smaller) f.clauses.push_back({-v.choice(0, c), -v.choice(pu, smaller)});
    } else {
      for (std::uint32_t i = 1; i < ports; ++i)
        for (std::uint32_t smaller = 0; smaller < i; ++smaller) f.clauses.push_back({-v.sel(0, 0, i), -v.sel(pu, 0, smaller)});
    }
  }
  // Justification of every transfer from step 2 on.
  for (std::uint64_t t = 2; t <= steps; ++t)
    for (pu_index pu = 0; pu < P; ++pu)
      for (std::uint32_t o = 0; o < ports; ++o) {
        const std::uint64_t link = static_cast<std::uint64_t>(pu) * ports + o;
        for (pu_index u = 0; u < P; ++u) {
          const int x = v.x(t, link, u);
          // what arrives on in-port i of pu in step t − 1 carries u?
          auto previous = [&](std::uint32_t in) -> int {  // 0: constant false, INT_MAX: constant true, else a literal
            const pu_index from = network.neighbor(pu, in);
            if (t - 1 == 1) return from == u ? INT32_MAX : 0;
            return v.x(t - 1, static_cast<std::uint64_t>(from) * ports + torus::opposite(in), u);
          };
          auto add = [&](int chosen, std::uint32_t in) {
            const int prev = previous(in);
            if (prev == INT32_MAX) return;
            if (prev == 0) f.clauses.push_back({-x, -chosen});
            else f.clauses.push_back({-x, -chosen, prev});
          };
          if (model == torus_model::pairing) {
            for (std::uint32_t c = 0; c < v.pairings; ++c) add(v.choice(pu, c), pairings[c][o]);
          } else {
            std::vector<int> some{-x};
            for (std::uint32_t in = 0; in < ports; ++in) {
              add(v.sel(pu, o, in), in);
              some.push_back(v.sel(pu, o, in));
            }
            f.clauses.push_back(some);
          }
        }
      }
  // Goal: every PU receives every other PU's packet.
  for (pu_index w = 0; w < P; ++w)
    for (pu_index u = 0; u < P; ++u) {
      if (u == w) continue;
      std::vector<int> reached;
      bool step_one = false;
      for (std::uint32_t p = 0; p < ports; ++p) {
        const pu_index from = network.neighbor(w, p);
        if (from == u) step_one = true;
        for (std::uint64_t t = 2; t <= steps; ++t) reached.push_back(v.x(t, static_cast<std::uint64_t>(from) * ports + torus::opposite(p), u));
      }
      if (!step_one) f.clauses.push_back(reached);  // empty when steps < 2: unsatisfiable, as it should be
    }
  return f;
}

torus_query_result solve_torus_clausal(const torus& network, torus_model model, std::uint64_t steps, unsigned budget_ms) {
  torus_query_result out;
  const auto start = std::chrono::steady_clock::now();
  const cnf_formula f = torus_gossip_cnf(network, model, steps);
  const clausal_result solved = solve_with_proof(f, budget_ms);
  out.answer = solved.answer;
  out.reason = solved.reason;
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  if (solved.answer == solver_answer::sat) {
    std::vector<char> truth(static_cast<std::size_t>(f.variables) + 1, 0);
    for (int lit : solved.model) truth[static_cast<std::size_t>(lit)] = 1;
    const torus_variables v = layout(network, model, steps);
    routing_table table = [&] {
      if (model == torus_model::pairing) {
        const auto pairings = port_pairings(network.dimension());
        std::vector<std::uint32_t> partner(static_cast<std::size_t>(P) * ports);
        for (pu_index pu = 0; pu < P; ++pu)
          for (std::uint32_t c = 0; c < v.pairings; ++c)
            if (truth[static_cast<std::size_t>(v.choice(pu, c))])
              for (std::uint32_t o = 0; o < ports; ++o) partner[pu * ports + o] = pairings[c][o];
        return pairing_table(network, partner, true);
      }
      routing_table general{network, 1, std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, no_port),
                            std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, 0), {}};
      for (pu_index pu = 0; pu < P; ++pu)
        for (std::uint32_t o = 0; o < ports; ++o)
          for (std::uint32_t in = 0; in < ports; ++in)
            if (truth[static_cast<std::size_t>(v.sel(pu, o, in))]) general.forward_at(pu, o) = in;
      return general;
    }();
    const gossip_report run = simulate_gossip(table, steps);
    if (run.holds()) {
      out.witness = std::move(table);
      out.reason = "witness table completes in " + std::to_string(run.steps) + " steps (simulated)";
    } else {
      out.answer = solver_answer::unknown;
      out.reason = "the decoded table fails in the simulator: " + describe(run);
    }
  } else if (solved.answer == solver_answer::unsat) {
    const drat_report check = check_drat(f.dimacs(), solved.proof);
    if (check.outcome == verdict::holds) {
      out.reason = "unsat, DRAT proof checked (" + std::to_string(check.checked_lemmas) + " of " + std::to_string(check.lemmas) +
                   " lemmas, " + std::to_string(check.core_clauses) + " core clauses of " + std::to_string(f.clauses.size()) + ")";
    } else {
      out.answer = solver_answer::unknown;
      out.reason = "CaDiCaL said unsat but its DRAT proof was not accepted: " + describe(check);
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

torus_minimum_result prove_torus_minimum(const torus& network, torus_model model, unsigned budget_ms, std::uint64_t max_steps) {
  return detail::search_torus_minimum(
      network, model == torus_model::pairing, max_steps, [&](std::uint64_t steps) { return solve_torus_clausal(network, model, steps, budget_ms); },
      [&](std::uint64_t steps) { return detail::heuristic_witness(network, model, steps, budget_ms); });
}

}  // namespace dancecard
