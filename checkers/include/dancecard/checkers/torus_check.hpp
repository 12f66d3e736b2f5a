// Checks of time-independent torus routing (core/torus): the cycles a routing table's forwarding rules form, and a
// step-by-step gossip simulation that records when each PU first holds each packet.
//
//   auto cycles = dancecard::torus::forwarding_cycles(table);  // cycles.holds(): every rule part of a closed cycle
//   auto run = dancecard::torus::simulate_gossip(table);       // run.holds(): every PU got every packet; run.steps
#pragma once

#include <array>
#include <string>
#include <vector>

#include "dancecard/checkers/report.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/core/torus/torus.hpp"

namespace dancecard::torus {

enum class torus_violation_kind {
  bad_rule,            // PU `pu`, out-port `port`: forwards a port that does not exist, or injects a packet >= packets
  shared_in_port,      // PU `pu`: in-port `port` is forwarded by more than one out-port (not a cycle structure)
  open_trail,          // the stream leaving PU `pu` by `port` reaches a PU that forwards it nowhere
  not_hamiltonian,     // a cycle through PU `pu` does not visit every PU exactly once
  never_reached,       // simulation: PU `pu` never receives packet `packet` within the step limit
  broken_cycle,        // cycle `packet`: at PU `pu`, out-port `port` does not lead to the next PU of the cycle
  not_simple,          // cycle `packet` visits PU `pu` more than once
  shared_link,         // the link leaving PU `pu` by `port` belongs to more than one cycle (or twice to one)
  far_from_cycle,      // PU `pu` is farther than the allowed distance from cycle `packet` over links no cycle uses
  cycle_not_followed,  // PU `pu` on cycle `packet`: out-port `port` does not forward the cycle's stream
  unsupplied,  // PU `pu` off cycle `packet` never receives the stream running in direction `port` (0 fwd, 1 bwd)
  bad_switch,  // a switch names a PU, port or in-port that does not exist, a step below 2, or repeats a step
};
inline constexpr std::size_t torus_violation_kind_count = 12;
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

struct forwarding_cycle_options {
  bool require_hamiltonian = true;  // report every cycle that misses a PU or visits one twice as a violation
  std::size_t max_witnesses = 10;
};
torus_cycle_report forwarding_cycles(const routing_table& table, const forwarding_cycle_options& options = {});

struct gossip_report : report<torus_violation> {
  std::array<std::uint64_t, torus_violation_kind_count> count_by_kind{};
  std::uint64_t steps = 0;                // the step after which every PU holds every packet (when holds())
  std::uint64_t link_steps = 0;           // packet transfers simulated (one per busy directed link and step)
  std::uint64_t duplicate_receives = 0;   // transfers that brought a packet its receiver already held
  std::vector<std::uint64_t> completion;  // per PU: the step after which it held every packet (0: never)
  /// With record_arrivals: [pu · P·packets + packet] the step in which pu first held the packet (0: its own; never:
  /// UINT32_MAX). Empty otherwise.
  std::vector<std::uint32_t> first_arrival;
};

struct gossip_options {
  std::uint64_t max_steps = 0;  // 0: P·packets + P + the latest switch step
  std::size_t max_witnesses = 10;
  bool record_arrivals = false;  // fill first_arrival (P²·packets entries; refused above 2^28)
  // Step by step over every link, one bit per PU and packet at once (the method for tables with switches). A table
  // without switches is otherwise run one PU at a time — in step t an in-link carries the packet injected t − 1 links
  // upstream, following the forwarding rules back — with one PU's bits in memory; the report is the same.
  bool stepwise = false;
};

/// The step-by-step simulator holds one bit per PU and packet (P²·packets/8 bytes); above this either method answers
/// unknown (the one-PU-at-a-time method needs one row, but its work grows as fast).
inline constexpr std::uint64_t gossip_memory_limit_bytes = std::uint64_t{8} << 30;

/// Runs the table from step 1 (injection) until every PU holds all P·packets packets, or the step limit. Each
/// directed link carries at most one packet per step by construction of the table; switches apply from their step on.
gossip_report simulate_gossip(const routing_table& table, const gossip_options& options);
gossip_report simulate_gossip(const routing_table& table, std::uint64_t max_steps = 0, std::size_t max_witnesses = 10);

/// Cycle checks of a cycle system (core/torus/cycles.hpp), independent of any routing: every cycle closed along real
/// links and simple, no link in two cycles (or twice in one), and every PU within `max_distance` of every cycle it
/// is not on, over links no cycle uses (the locality of Sections 3.2–4.3: 1, or 2 where OOC PUs relay).
struct cycle_system_report : report<torus_violation> {
  std::array<std::uint64_t, torus_violation_kind_count> count_by_kind{};
  std::vector<std::uint64_t> lengths;  // per cycle
  std::uint64_t off_cycle_pairs = 0;   // (PU, cycle) pairs with the PU off the cycle
  std::uint64_t max_distance = 0;      // the largest distance of such a PU from its cycle
  std::uint64_t revisits = 0;          // passes of a cycle through a PU it already passed
};
/// allow_revisits: a cycle may pass a PU more than once (a closed trail, still edge-disjoint), counted in `revisits`.
cycle_system_report check_cycle_system(const cycle_system& system, std::uint64_t max_distance = 2,
                                       std::size_t max_witnesses = 10, bool allow_revisits = false);

/// The locality property of a routing table over a cycle system: every PU on a cycle forwards both directions of
/// it, and every PU off a cycle receives both directions of it (the streams traced back through the table to the
/// cycle links, through at most one relaying PU per step of delay, switches included).
struct supply_report : report<torus_violation> {
  std::array<std::uint64_t, torus_violation_kind_count> count_by_kind{};
  std::uint64_t max_delay = 0;       // 1: supplied by adjacent on-cycle PUs; 2: through one relaying PU; …
  std::uint64_t supplied_pairs = 0;  // (PU, cycle) pairs supplied with both directions
};
supply_report check_supply(const routing_table& table, const cycle_system& system, std::size_t max_witnesses = 10);

/// A lower bound on gossip over a cycle system with any supply, by counting. The model of every supply here
/// (cycle_routing, the matched, packet-matched and SAT supplies): the cycles' links carry their cycles' streams, and a
/// PU gets every other packet over its free in-links (links no cycle uses), at most one packet per link and step. A PU
/// v needs the packets of every PU on none of v's cycles — `need` of them — over its `free` in-links, so no supply
/// completes gossip in fewer than ⌈need/free⌉ steps (and none at all where need > 0 and free = 0). The bound is the
/// largest over the PUs; `pu` is one that attains it. Computed from the cycles alone, with code of its own (no supply
/// is built). A cycle system whose cycles do not run along links of the torus is reported as `valid = false`.
struct supply_counting_bound {
  bool valid = true;
  bool unreachable = false;                // some PU needs packets and has no free in-link
  std::uint64_t steps = 0;                 // max over PUs of ⌈need/free⌉
  pu_index pu = 0;                         // a PU attaining it
  std::uint64_t need = 0, free_links = 0;  // that PU's
};
supply_counting_bound count_supply_bound(const cycle_system& system);

/// The step of an induction over the sizes of 2-D cycle systems (core's square switches are proven with it): `large`
/// is the torus of `small` with two lines inserted across `axis` (0: rows, along x_1; 1: columns, along x_2) before
/// line `first` of small. Holds when (a) every link outside the inserted strip belongs to the same cycle (by index) in
/// both systems — lines from `first` on shifted by two, the links into and out of the strip in the place of the link
/// they replace — and (b) in `large`, every cycle runs from each link entering the strip from line first − 1 to the
/// link leaving it into line first + 2 at the same place, by a path inside the strip, and these paths take every link
/// of the strip. Then every cycle of `large` is its cycle of `small` with links subdivided and the strip's PUs added:
/// still one cycle, and Hamiltonian when the small one is. Mismatched shapes are a violated result, not an exception.
struct strip_report {
  verdict outcome = verdict::holds;
  std::string checked;  // the two tori and the strip
  std::string problem;  // the first difference found, when violated
  bool holds() const noexcept { return outcome == verdict::holds; }
};
strip_report check_strip_insertion(const cycle_system& small, const cycle_system& large, std::uint32_t axis,
                                   std::uint32_t first);
std::string describe(const strip_report& r);

/// Section 2's setting: the first Hamiltonian cycle visits 0, 1, …, P − 1; `second` is the second cycle's order (a
/// permutation of 0 … P − 1). With one packet per PU sent both ways along both cycles, PU i first holds PU k's packet
/// after the shorter of their two cycle distances; the result is the step after which every PU holds every packet.
/// Returns 0 when the cycles share an edge (not edge-disjoint) or `second` is not a permutation.
std::uint64_t two_cycle_gossip_steps(const std::vector<std::uint32_t>& second);

/// The least of two_cycle_gossip_steps over every second Hamiltonian cycle edge-disjoint from 0, 1, …, P − 1 (each
/// cycle once: it starts at 0 and is taken in one direction), by enumeration ((P − 1)!/2 orders). require 5 <= P <= 13.
struct two_cycle_minimum {
  std::uint64_t steps = 0;            // 0 when no edge-disjoint second cycle exists
  std::uint64_t cycles = 0;           // edge-disjoint second cycles enumerated
  std::vector<std::uint32_t> second;  // one second cycle reaching `steps`
};
two_cycle_minimum least_two_cycle_gossip_steps(std::uint32_t P);

std::string describe(const torus_cycle_report& r);
std::string describe(const gossip_report& r);
std::string describe(const cycle_system_report& r);
std::string describe(const supply_report& r);

}  // namespace dancecard::torus
