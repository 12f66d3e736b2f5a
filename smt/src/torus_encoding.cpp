// Z3 encoding of time-independent gossip in the pairing model.
//
// Variables: choice_<pu> ∈ [0, M) — which of the M pairings of its ports PU pu uses; send_t<t>_p<pu>_o<o> ∈ [0, P) —
// the packet leaving pu through out-port o in step t. Step 1: send = pu (every PU sends its own packet everywhere).
// Step t > 1: for each pairing c, choice = c → send_t_pu_o = what arrived on partner_c(o) in step t − 1, i.e.
// send_{t−1} of neighbor(pu, partner_c(o)) on the opposite port. Goal: for every PU u and packet v ≠ u, some step
// t ≤ T and in-port p with send_t of neighbor(u, p) on opposite(p) equal to v. No implied or symmetry-breaking
// constraints are added.
#include "dancecard/smt/torus_encoding.hpp"

#include <z3++.h>
#include <chrono>

#include "torus_search.hpp"
#include "z3_query.hpp"

namespace dancecard::torus {

torus_query_result solve_torus_pairing(const torus::network& network, std::uint64_t steps, unsigned timeout_ms,
                                       const std::atomic<bool>* cancel) {
  torus_query_result out;
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  const auto pairings = port_pairings(network.dimension());
  dancecard::detail::run_timed_query(out, [&] {
    z3::context ctx;
    z3::solver s =
        dancecard::detail::make_solver(ctx, {.timeout_ms = timeout_ms, .encoding = dance::dance_encoding::counting});
    std::vector<z3::expr> choice;
    for (pu_index pu = 0; pu < P; ++pu) {
      choice.push_back(ctx.int_const(("choice_" + std::to_string(pu)).c_str()));
      s.add(choice.back() >= 0 && choice.back() < static_cast<int>(pairings.size()));
    }
    // send[t][pu·ports + o], t = 0 is step 1.
    std::vector<std::vector<z3::expr>> send;
    for (std::uint64_t t = 0; t < steps; ++t) {
      send.emplace_back();
      for (pu_index pu = 0; pu < P; ++pu)
        for (std::uint32_t o = 0; o < ports; ++o) {
          if (t == 0) {
            send[t].push_back(ctx.int_val(static_cast<int>(pu)));
            continue;
          }
          z3::expr x = ctx.int_const(
              ("send_t" + std::to_string(t + 1) + "_p" + std::to_string(pu) + "_o" + std::to_string(o)).c_str());
          for (std::size_t c = 0; c < pairings.size(); ++c) {
            const std::uint32_t in = pairings[c][o];
            const pu_index from = network.neighbor(pu, in);
            s.add(z3::implies(choice[pu] == static_cast<int>(c),
                              x == send[t - 1][from * ports + torus::network::opposite(in)]));
          }
          send[t].push_back(x);
        }
    }
    for (pu_index u = 0; u < P; ++u)
      for (pu_index v = 0; v < P; ++v) {
        if (u == v) continue;
        z3::expr_vector reached(ctx);
        for (std::uint64_t t = 0; t < steps; ++t)
          for (std::uint32_t p = 0; p < ports; ++p)
            reached.push_back(send[t][network.neighbor(u, p) * ports + torus::network::opposite(p)] ==
                              static_cast<int>(v));
        s.add(reached.empty() ? ctx.bool_val(false) : z3::mk_or(reached));
      }
    dancecard::detail::take_answer(
        s, out.answer, out.reason,
        [&](const z3::model& model) -> std::string {
          std::vector<std::uint32_t> partner(static_cast<std::size_t>(P) * ports);
          for (pu_index pu = 0; pu < P; ++pu) {
            const int c = model.eval(choice[pu], true).get_numeral_int();
            if (c < 0 || c >= static_cast<int>(pairings.size())) return "choice out of range";
            for (std::uint32_t o = 0; o < ports; ++o)
              partner[pu * ports + o] = pairings[static_cast<std::size_t>(c)][o];
          }
          routing_table table = pairing_table(network, partner, packets_per_pu::one);
          const gossip_report run = simulate_gossip(table, steps);
          if (!run.holds()) return describe(run);
          out.witness = std::move(table);
          return "";
        },
        cancel);
  });
  return out;
}

torus_minimum_result detail::prove_z3_pairing_minimum(const torus::network& network, unsigned timeout_ms,
                                                      const torus_minimum_options& options) {
  return detail::search_torus_minimum(
      network, true, options.max_steps,
      [&](std::uint64_t steps) {
        torus_query_result r = solve_torus_pairing(network, steps, timeout_ms, options.cancel);
        if (r.answer == solver_answer::sat)
          r.reason = "witness pairing completes in " + std::to_string(steps) + " steps (simulated)";
        if (r.answer == solver_answer::unsat) r.reason = "unsat (Z3 only, no certificate)";
        return r;
      },
      [&](std::uint64_t steps) { return detail::heuristic_witness(network, torus_model::pairing, steps, timeout_ms); },
      1, options.on_query, options.cancel);
}

}  // namespace dancecard::torus
