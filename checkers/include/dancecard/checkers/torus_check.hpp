// Checks of time-independent torus routing (core/torus): the cycles a routing table's forwarding rules form, and a
// step-by-step gossip simulation that records when each PU first holds each packet.
//
//   auto cycles = dancecard::forwarding_cycles(table);       // cycles.holds(): every rule part of a closed cycle
//   auto run = dancecard::simulate_gossip(table);            // run.holds(): every PU got every packet; run.steps
#pragma once

#include <array>
#include <string>
#include <vector>

#include "dancecard/checkers/report.hpp"
#include "dancecard/core/torus/torus.hpp"

namespace dancecard {

enum class torus_violation_kind {
  bad_rule,         // PU `pu`, out-port `port`: forwards a port that does not exist, or injects a packet >= packets
  shared_in_port,   // PU `pu`: in-port `port` is forwarded by more than one out-port (not a cycle structure)
  open_trail,       // the stream leaving PU `pu` by `port` reaches a PU that forwards it nowhere
  not_hamiltonian,  // a cycle through PU `pu` does not visit every PU exactly once
  never_reached,    // simulation: PU `pu` never receives packet `packet` within the step limit
};
inline constexpr std::size_t torus_violation_kind_count = 5;
std::string_view to_string(torus_violation_kind kind);

struct torus_violation {
  torus_violation_kind kind{};
  pu_index pu = 0;
  std::uint32_t port = 0, packet = 0;
};
std::string describe(const torus_violation& v);

/// The directed cycles of the forwarding rules (each a list of PUs in order), when every in-port that is forwarded is
/// forwarded by exactly one out-port and every stream closes.
struct torus_cycle_report : report<torus_violation> {
  std::array<std::uint64_t, torus_violation_kind_count> count_by_kind{};
  std::vector<std::vector<pu_index>> cycles;
  /// Distinct undirected cycles (a cycle and its reverse count once) and whether each visits every PU once.
  std::size_t undirected_cycles = 0;
  bool all_hamiltonian = false;
};

/// require_hamiltonian: report every cycle that misses a PU or visits one twice as a violation.
torus_cycle_report forwarding_cycles(const routing_table& table, bool require_hamiltonian = true,
                                     std::size_t max_witnesses = 10);

struct gossip_report : report<torus_violation> {
  std::array<std::uint64_t, torus_violation_kind_count> count_by_kind{};
  std::uint64_t steps = 0;       // the step after which every PU holds every packet (when holds())
  std::uint64_t link_steps = 0;  // packet transfers simulated (one per busy directed link and step)
};

/// Runs the table from step 1 (injection) until every PU holds all P·packets packets, or `max_steps`
/// (0: P·packets + P). Each directed link carries at most one packet per step by construction of the table.
gossip_report simulate_gossip(const routing_table& table, std::uint64_t max_steps = 0, std::size_t max_witnesses = 10);

std::string describe(const torus_cycle_report& r);
std::string describe(const gossip_report& r);

}  // namespace dancecard
