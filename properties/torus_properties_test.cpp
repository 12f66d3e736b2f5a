// Properties of the torus module under RapidCheck: for random admissible dimensions the Section 3.1 rules pass the
// cycle checks and the simulated step count is Theorem 2's n1·n2/2; a rewired port or a silenced PU is caught.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "dancecard/checkers/torus_check.hpp"

namespace dancecard {
namespace {

rc::Gen<torus> even_tori() {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange<std::uint32_t>(1, 21), rc::gen::inRange<std::uint32_t>(1, 21)),
                      [](const std::pair<std::uint32_t, std::uint32_t>& h) { return torus({2 * h.first, 2 * h.second}); });
}

RC_GTEST_PROP(torus_3_1, cycles_and_theorem_2_on_random_even_tori, ()) {
  const torus t = *rc::gen::resize(100, even_tori());
  const routing_table table = hamiltonian_2d(t);
  const torus_cycle_report cycles = forwarding_cycles(table);
  RC_ASSERT(cycles.holds());
  RC_ASSERT(cycles.all_hamiltonian);
  RC_ASSERT(cycles.undirected_cycles == 2u);
  const gossip_report run = simulate_gossip(table);
  RC_ASSERT(run.holds());
  RC_ASSERT(run.steps == static_cast<std::uint64_t>(t.dims()[0]) * t.dims()[1] / 2);
}

RC_GTEST_PROP(torus_checks, a_rewired_port_breaks_the_cycles_or_the_gossip, ()) {
  const torus t = *rc::gen::resize(100, even_tori());
  routing_table table = hamiltonian_2d(t);
  const pu_index pu = *rc::gen::inRange<pu_index>(0, t.size());
  const std::uint32_t out = *rc::gen::inRange<std::uint32_t>(0, 4);
  const std::uint32_t in = *rc::gen::inRange<std::uint32_t>(0, 4);
  RC_PRE(table.forward_at(pu, out) != in);
  table.forward_at(pu, out) = in;  // now two out-ports forward `in`, or an out-port forwards the stream it came from
  const torus_cycle_report cycles = forwarding_cycles(table);
  RC_ASSERT(!cycles.holds() || !cycles.all_hamiltonian);
}

RC_GTEST_PROP(torus_checks, a_silenced_pu_is_named_by_the_simulator, ()) {
  const torus t = *rc::gen::resize(100, even_tori());
  routing_table table = hamiltonian_2d(t);
  const pu_index pu = *rc::gen::inRange<pu_index>(0, t.size());
  for (std::uint32_t o = 0; o < 4; ++o) table.inject_at(pu, o) = no_packet;  // its own packets never leave
  const gossip_report run = simulate_gossip(table, 4 * t.size());
  RC_ASSERT(!run.holds());
  RC_ASSERT(!run.witnesses.empty());
  for (const torus_violation& v : run.witnesses) RC_ASSERT(v.packet / table.packets == pu);
}

}  // namespace
}  // namespace dancecard
