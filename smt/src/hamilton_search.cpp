// SAT search with lazy subtour cuts for Hamilton decompositions of tori (see the header).
#include "dancecard/smt/hamilton_search.hpp"

#include <cadical.hpp>
#include <chrono>

#include "cadical_deadline.hpp"

namespace dancecard::torus {

hamilton_search_result search_hamilton_decomposition(const torus::network& network, unsigned budget_ms) {
  const auto start = std::chrono::steady_clock::now();
  hamilton_search_result out;
  const pu_index P = network.size();
  const std::uint32_t d = network.dimension(), ports = network.ports();
  for (std::uint32_t j = 0; j < d; ++j)
    if (network.dims()[j] < 3)
      throw std::invalid_argument("Hamilton decomposition search on " + network.name() + ": needs every n_j >= 3");
  if (P > 4096)
    throw std::invalid_argument("Hamilton decomposition search on " + network.name() + ": at most 4096 PUs");
  // Edge e = pu·d + j joins pu and neighbor(pu, +x_j); colour c ∈ [0, d): variable e·d + c + 1.
  auto var = [&](std::uint64_t edge, std::uint32_t c) { return static_cast<int>(edge * d + c + 1); };
  auto edge_at = [&](pu_index pu, std::uint32_t port) -> std::uint64_t {  // the edge of the link leaving pu by port
    const std::uint32_t j = port / 2;
    return port % 2 == 0 ? static_cast<std::uint64_t>(pu) * d + j
                         : static_cast<std::uint64_t>(network.neighbor(pu, port)) * d + j;
  };
  CaDiCaL::Solver solver;
  solver.set("quiet", 1);
  auto clause = [&](const std::vector<int>& lits) {
    for (int l : lits) solver.add(l);
    solver.add(0);
  };
  const std::uint64_t edges = static_cast<std::uint64_t>(P) * d;
  for (std::uint64_t e = 0; e < edges; ++e) {  // exactly one colour per edge
    std::vector<int> some;
    for (std::uint32_t c = 0; c < d; ++c) some.push_back(var(e, c));
    clause(some);
    for (std::uint32_t a = 0; a < d; ++a)
      for (std::uint32_t b = a + 1; b < d; ++b) clause({-var(e, a), -var(e, b)});
  }
  for (pu_index pu = 0; pu < P; ++pu)  // every colour has degree exactly 2 at every PU
    for (std::uint32_t c = 0; c < d; ++c) {
      std::vector<int> inc;
      for (std::uint32_t p = 0; p < ports; ++p) inc.push_back(var(edge_at(pu, p), c));
      for (std::size_t skip = 0; skip < inc.size(); ++skip) {  // at least 2: every 2d − 1 of them contain a true one
        std::vector<int> rest;
        for (std::size_t i = 0; i < inc.size(); ++i)
          if (i != skip) rest.push_back(inc[i]);
        clause(rest);
      }
      for (std::size_t a = 0; a < inc.size(); ++a)  // at most 2
        for (std::size_t b = a + 1; b < inc.size(); ++b)
          for (std::size_t x = b + 1; x < inc.size(); ++x) clause({-inc[a], -inc[b], -inc[x]});
    }
  // Symmetry breaking, sound because colours are interchangeable: the +x_1 edge of PU 0 has colour 0.
  clause({var(0, 0)});
  dancecard::detail::cadical_deadline stop(budget_ms);
  solver.connect_terminator(&stop);
  while (true) {
    const int result = solver.solve();
    if (result == 20) {
      out.answer = solver_answer::unsat;
      out.reason = "no Hamilton decomposition exists (unsat after " + std::to_string(out.cuts) +
                   " cuts; CaDiCaL, no certificate)";
      break;
    }
    if (result != 10) {
      out.reason = "budget of " + std::to_string(budget_ms) + " ms ran out after " + std::to_string(out.cuts) + " cuts";
      break;
    }
    // Walk every colour's 2-factor.
    cycle_system system{network, {}, "hamiltonian-search"};
    bool all_single = true;
    std::vector<std::vector<int>> cuts;  // added after the walk: adding clauses leaves the satisfied state
    for (std::uint32_t c = 0; c < d; ++c) {
      std::vector<char> seen(P, 0);
      for (pu_index first = 0; first < P; ++first) {
        if (seen[first]) continue;
        torus_cycle cycle;
        pu_index at = first;
        std::uint32_t came = no_port;  // the port we arrived by, seen from `at`
        while (!seen[at]) {
          seen[at] = 1;
          std::uint32_t leave = no_port;
          for (std::uint32_t p = 0; p < ports && leave == no_port; ++p)
            if (p != came && solver.val(var(edge_at(at, p), c)) > 0) leave = p;
          cycle.pus.push_back(at);
          cycle.ports.push_back(leave);
          const pu_index next = network.neighbor(at, leave);
          came = torus::network::opposite(leave);
          at = next;
        }
        if (cycle.pus.size() == P) {
          system.cycles.push_back(std::move(cycle));
          continue;
        }
        all_single = false;
        // cut: some colour-c edge leaves this cycle's vertex set
        std::vector<char> inside(P, 0);
        for (pu_index v : cycle.pus) inside[v] = 1;
        std::vector<int> cut;
        for (pu_index v : cycle.pus)
          for (std::uint32_t p = 0; p < ports; ++p)
            if (!inside[network.neighbor(v, p)]) cut.push_back(var(edge_at(v, p), c));
        cuts.push_back(std::move(cut));
      }
    }
    for (const auto& cut : cuts) clause(cut);
    out.cuts += cuts.size();
    if (all_single) {
      out.answer = solver_answer::sat;
      out.system = std::move(system);
      out.reason = "found after " + std::to_string(out.cuts) + " subtour cuts";
      break;
    }
  }
  solver.disconnect_terminator();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::torus
