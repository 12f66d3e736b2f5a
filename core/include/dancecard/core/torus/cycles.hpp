// Edge-disjoint (partial) Hamiltonian cycles on tori and the routing tables that gossip along them (Meyer and Sibeyn,
// "Time-independent gossiping on full-port tori", Sections 3.1, 3.2, 3.4 and 4).
//
//   dancecard::torus::network t({6, 8});
//   auto system = dancecard::torus::zigzag_cycles(t);             // Section 4.1: two cycles of n1·n2/2 + n1 PUs each
//   auto table = dancecard::torus::cycle_routing(system, dancecard::torus::supply_policy::one_switch);
//   // checkers/torus_check: check_cycle_system(system), check_supply(table, system), simulate_gossip(table)
//
// A cycle is a closed walk given by its PUs and the out-port each leaves by. A PU off a cycle (out-of-cycle, OOC) is
// supplied with the packets of both directions of the cycle over links no cycle uses: by adjacent on-cycle PUs, or
// (when none is free) by an adjacent PU that is itself supplied, one step later.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dancecard/core/torus/torus.hpp"

namespace dancecard::torus {

struct torus_cycle {
  std::vector<pu_index> pus;         // in order; the cycle closes from the last back to the first
  std::vector<std::uint32_t> ports;  // ports[i]: the out-port of pus[i] that leads to pus[i + 1 mod length]
  std::size_t length() const noexcept { return pus.size(); }
};

struct cycle_system {
  torus::network network;
  std::vector<torus_cycle> cycles;
  std::string construction;  // "zigzag", "hamiltonian-product", …
};

/// Sections 4.1–4.3: d cycles built from laps (zigzag(d, j) followed by moves along x_d); cycle j starts in
/// PU (j, 0, …, 0). Coordinates follow the paper: dims = {n_1, …, n_d}, port 2(k − 1) is +x_k.
/// require (std::invalid_argument names the condition): d >= 2, (1) (Σ_{j=2}^{d−1} Π_{l=j}^{d−1} n_l) mod n_1 = 0,
/// (2) n_1 mod d = 0, (3) n_d >= d; and the cycles must come out edge-disjoint — Section 4.3.3 argues they always do,
/// but with the printed lap rule they are only where n_1 = d or n_1 divides n_2, …, n_{d−2} (always for d <= 3;
/// derived for d = 4, checked by sweep for d = 4, 5: docs/torus.md, theorem-book row torus.lap_rule). A shared link
/// is refused the same way, naming the cycles and the link (e.g. 8 × 4 × 8 × 4). Either refusal names an order of the
/// same sizes that works where there is one (zigzag_axis_order; 8 × 4 × 8 × 4 → 4 × 8 × 8 × 4). A cycle may pass a PU
/// twice (a closed trail; 4-D and 5-D with n_1 = d, e.g. the paper's own 4 × 5 × 2 × n_4).
cycle_system zigzag_cycles(const torus::network& network);
/// The lap rule as printed, without the edge-disjointness check (for studying where it fails: check_cycle_system
/// reports the shared links). Same conditions (1)-(3).
cycle_system zigzag_trails(const torus::network& network);
/// Which of zigzag_trails' requirements (d >= 2 and conditions (1)-(3)) the torus fails, named as the error names it;
/// "" when all hold (the torus is admissible; its trails may still share links, see zigzag_cycles).
std::string zigzag_condition_failure(const torus::network& network);

/// Theorem 7's bound with switching on the zigzag cycles of a d-dimensional torus, ⌈(1 + d/n_d) · P/(2d)⌉ + 2 steps
/// (exact integers). require: d >= 1 and n_d >= 1.
std::uint64_t theorem_7_switching_bound(const torus::network& network);

/// The sizes of the torus in an order for which zigzag_cycles succeeds, if one exists: conditions (1)-(3) hold and the
/// trails come out edge-disjoint (each candidate built and mapped by map_cycle_links, not assumed; only orders with
/// n_1 = d or n_1 dividing n_2, …, n_{d−2} are built, since the others share a link up to d = 5 — docs/torus.md).
/// Preferred: cycles rather than closed trails (no PU passed twice by one cycle: the supply of the off-cycle PUs is
/// easier), then the largest n_d (Theorem 7's bound (1 + d/n_d)·P/(2d) + 2 falls as n_d grows — the paper's advice
/// after Theorem 7), then the lexicographically least order. The order as given counts too. require: d <= 8.
std::optional<std::vector<std::uint32_t>> zigzag_axis_order(const torus::network& network);

/// The links a cycle system runs over. A cycle uses each of its links both ways (gossip sends both directions), so
/// a link belongs to a cycle at both ends: owner[pu · ports + p] is the cycle that runs over the link leaving pu by
/// port p, or cycle_links::none. shared, if any, is the first pass — in the order (cycle, position) — over a link an
/// earlier pass already ran over (second == first: one cycle runs over it twice); the map stops there, so owner is
/// complete only when shared is empty. zigzag_cycles, cycle_routing and the SAT supply (smt/torus_supply) refuse a
/// system with a shared link; checkers/torus_check (check_cycle_system) decides edge-disjointness with code of its own.
struct cycle_links {
  static constexpr std::uint32_t none = 0xffffffffu;
  struct pass {
    pu_index pu = 0;                      // the PU the second pass leaves
    std::uint32_t port = 0;               // by this out-port
    std::uint32_t first = 0, second = 0;  // the cycles of the earlier and the later pass
  };
  std::uint32_t ports = 0;
  std::vector<std::uint32_t> owner;
  std::optional<pass> shared;
  bool used(pu_index pu, std::uint32_t port) const {
    return owner[static_cast<std::size_t>(pu) * ports + port] != none;
  }
};
/// require (std::invalid_argument naming cycle and position): every position of every cycle is a link of the torus to
/// the next PU (pus[i] leaves by ports[i] to pus[i + 1 mod length]).
cycle_links map_cycle_links(const cycle_system& system);

/// The moves of zigzag(d, j) as axes 1 … d (Section 4.3.1): d − j + 1 along x_1, one along each of x_2 … x_j, d − 1
/// along x_d, alternating with the x_d moves. require 1 <= j < d.
std::vector<std::uint32_t> zigzag_moves(std::uint32_t d, std::uint32_t j);

/// Lap i (1-based) of a zigzag cycle uses zigzag(d, j) with j the largest index in 1 … d − 1 such that
/// i mod (n_1/d · n_2 ⋯ n_{j−1}) = 0 (Section 4.3.1).
std::uint32_t zigzag_type(const std::vector<std::uint32_t>& dims, std::uint64_t lap);

/// Section 3.4: d edge-disjoint Hamiltonian cycles, d = 1 … 8.
/// 3-D cubes m × m × m (m >= 3, m != 4), construction "hamiltonian-cube": the explicit decomposition of S. Park,
/// "Hamilton decompositions of the directed 3-torus: a return-map and odometer view", arXiv:2603.24708 (2026) — at
/// every PU colour c moves along one of +x_1, +x_2, +x_3 as a direction triple on the layer i + j + k (mod m) says
/// (odd m: five Kempe swaps of the canonical colouring; even m >= 6: "Route E"); the rules are in
/// core/src/torus/hamiltonian_products.cpp. Every colour is walked and must visit all m³ PUs (std::logic_error
/// otherwise). Other d by the product principle (Alspach, Bermond and Sotteau, "Decomposition into cycles I: Hamilton
/// decompositions", 1990, after Kotzig): if G = H_1 ∪ … ∪ H_r and G' = H'_1 ∪ … ∪ H'_r are Hamilton decompositions,
/// then G □ G' is the union of the H_i □ H'_i, each a 2-D torus |G| × |G'|, split into two Hamiltonian cycles — by
/// Section 3.1's rules when both sizes are even, else by square switches (Kotzig, "Every Cartesian product of two
/// circuits is decomposable into two Hamiltonian circuits", 1973: start from the row rings and the column rings and
/// switch unit squares that merge rings; our schedule of squares, in core/src/torus/hamiltonian_2d.cpp, takes any sizes
/// >= 3 and is proven there by induction, and the walk that reads the cycles off verifies that both are Hamiltonian).
/// So every 2-D torus with both sizes >= 3, or both even, is covered. The dims split in halves (d = 6: two 3-D cubes; d
/// = 4: two 2-D factors).
/// Where that does not apply (d = 5, 7; a 3-D factor not a cube, or 4 × 4 × 4) and every size is >= 3 with one of them
/// odd, construction "hamiltonian-layered": one dimension at a time in the scheme of Aubert and Schneider
/// ("Décomposition de la somme cartésienne d'un cycle et de l'union de deux cycles hamiltoniens en cycles
/// hamiltoniens", Discrete Math. 38, 1982: G the union of k Hamiltonian cycles ⇒ G □ C_n the union of k + 1): H_1 □ C_n
/// split by square switches, the layer copies of every other H_j joined by squares on its edges (rules in
/// core/src/torus/hamiltonian_products.cpp), odd sizes first. The choice of squares is deterministic and not proven to
/// succeed; every cycle is walked (std::logic_error otherwise). Tori with every size even and no product (3-D: 4 × 4 ×
/// 4, 4 × 6 × 8, …; every 5-D and 7-D one), construction "hamiltonian-layered-searched": the same
/// steps, where the square switches' frame leaves the greedy stuck, with that frame scrambled by seeded double switches
/// (seeds 1 … 8, 16 to P moves) and, if need be, the sizes in another order — deterministic, walked, found by search
/// (a sweep in docs/torus.md), up to 2^21 = 2,097,152 PUs (above 32,768 within a budget of 2^33 vertex visits, about
/// two minutes), refused by name where nothing finishes.
/// require (std::invalid_argument names it): either d = 1, 2, 3, 4, 6 or 8 with every 3-D factor a cube with m >= 3,
/// m != 4 and every 2-D torus on the way (the factors (n_1, n_2), (n_3, n_4), … and their products) both sizes even or
/// both >= 3; or every size >= 3 and one of them odd; or every size >= 4 and even and P <= 2,097,152.
cycle_system hamiltonian_product_cycles(const torus::network& network);
/// Two Hamiltonian cycles of any 2-D torus with both sizes >= 3 by our schedule of square switches, construction
/// "square-switches" (Kotzig's merging; the schedule and the induction that proves it for every size, from a base of
/// R = 3 … 7, C = 3 … 6 walked by the tests, are in core/src/torus/hamiltonian_2d.cpp). hamiltonian_product_cycles uses
/// the same cycles for 2-D tori not both even, and for every 2-D torus on the way of the layered construction.
/// require (std::invalid_argument names it): a 2-D torus, both sizes >= 3.
cycle_system square_switch_cycles(const torus::network& network);
/// Whether square switches split the rows × cols torus into two Hamiltonian cycles: both sizes >= 3
/// (hamiltonian_product_cycles uses them for every 2-D torus on the way that is not both even).
bool square_switches_apply(std::uint64_t rows, std::uint64_t cols);

/// The two Hamiltonian cycles of Section 3.1's rules (n1, n2 even), walked from the pairing table.
cycle_system hamiltonian_2d_cycles(const torus::network& network);

/// Section 3.2's rules read for n_1 rows even and n_2 columns odd (the paper's Figure 2, 6 × 7): Section 3.1's rules,
/// except that column n_2 − 2 passes L ↔ R only. Two edge-disjoint cycles of n_1·n_2 − n_1/2 PUs; the PUs of column
/// n_2 − 2 alternate between the cycles and are supplied by their vertical neighbours. Gossip over them needs one
/// packet per PU (cycle_routing with packets_per_pu::one): with two packets per PU the cycles carry 2P − n_1 of the 2P
/// packets. n_1 odd too (Section 3.3, reconstructed — its Figure 4 is lost and the printed rules do not give two
/// supplied cycles, docs/torus.md): in addition the last row crosses straight (T ↔ B, L ↔ R) left of column n_2 − 2 and
/// pairs B ↔ R, T ↔ L in the last two columns, and PU (n_1 − 2, n_2 − 2) pairs B ↔ L, T ↔ R. Every PU lies on a cycle
/// and is adjacent over a free link to the other; cycle_routing serves a few PUs through an off-cycle neighbour.
/// require (std::invalid_argument names it): 2-D, n_2 odd, n_2 >= 5, n_1 even or odd >= 5.
cycle_system partial_2d_cycles(const torus::network& network);

enum class supply_policy {
  time_independent,  // every supplying link forwards one stream forever
  one_switch,        // Section 3.2's switching strategy: a supplying link may change stream once
  scheduled,         // time-dependent supply: a supplying link changes stream as often as a matching of steps to
                     // packets asks, which reaches the fewest steps two suppliers allow (see best_supply)
};
std::string_view to_string(supply_policy policy);

/// The routing of gossip along a cycle system. packets_per_pu::one: every PU injects its one packet on both
/// directions of every cycle it lies on; per_cycle: cycle c carries packet c of every PU (then every cycle must be
/// Hamiltonian). OOC PUs are supplied over links no cycle uses; under every policy the pair of supplying on-cycle
/// PUs, their streams and (policy permitting) switch steps are chosen to minimise the steps that PU needs
/// (best_supply). A cycle may be a closed trail that passes a PU more than once (edge-disjoint, as Section 4.3's
/// zigzags allow): every pass forwards both ways and injects the PU's packet. A PU that can get only one direction of a
/// cycle over free links gets that one (check_supply reports the missing direction). Greedy, not optimal
/// (smt/torus_supply searches the least supply): up to 4,096 PUs with one packet per PU it builds the tables of
/// `policy` and of the weaker policies (a table with fewer switches is allowed too), scoring streams by their own cycle
/// or by when every packet reaches the PU, then in each table tunes again the directions of the direct streams that
/// reach the PUs completing last, for every PU that receives them (its own and the relays'; never making the latest
/// completion later), and returns the one with the fewest one-direction supplies, then the soonest completion of its
/// streams as modelled (which is what the simulator counts). With the scheduled policy and one packet per PU the
/// matched supply (matched_cycle_routing, below) competes on the same terms, and above 4,096 PUs is taken whenever it
/// applies and P · (longest cycle) <= 2^25 (8 × 8 × 8 × 8: 769 steps against the greedy's 1,433; 8 × 8 × 8 × 16: 1,281,
/// about 1 GB); so does the packet-matched supply (least_packet_matched_routing, below) up to 4,096 PUs, closed trails
/// included (4 × 5 × 4 × 5: 90 steps against the greedy's 176). Throws std::invalid_argument naming a PU and cycle the
/// greedy leaves without a stream where no packet-matched table completes either (a limit of the greedy: the SAT supply
/// may still find one), cycles that share a link (map_cycle_links), or a PU on no cycle (one packet).
routing_table cycle_routing(const cycle_system& system, supply_policy policy,
                            packets_per_pu packets = packets_per_pu::one);
/// Gossip along the cycles alone, one packet per PU: at every pass of every cycle the PU forwards both ways and injects
/// its packet on both links; every other out-port idle (no supply). The supplies below start from it.
routing_table cycle_table(const cycle_system& system);
/// The matched supply (core/src/torus/matched_supply.cpp, where the argument is written out): one packet per PU,
/// scheduled switching. Every (PU, cycle) pair with the PU off the cycle gets two sources over free links — an adjacent
/// PU on the cycle (direct), or an adjacent PU whose own pair is served at a lower level (relay; level 1: both sources
/// direct, up to level 3) — allocated per PU, exhaustively (least deepest level, then least sum), pass after pass until
/// the levels settle; then each supplying link forwards, step by step, what a perfect matching of the cycle's
/// positions to (source, step) slots gives it (one exists by Hall's condition: every position has one slot per
/// source, every slot offers at most two positions). Gossip then completes within max_c ⌊m_c/2⌋ + L steps, L the
/// deepest level (at least 2) — with relays of direct pairs only, Theorem 7's bound on the zigzag cycles. A pair's
/// matching first closes the slots after step ⌊m/2⌋ + L − 1 where it can, so that its relays bring everything one
/// step sooner (8 × 8 × 8 × 8: 769 steps, bound 770; 4 × 4 × 4 × 5: 72, bound 74; 5 × 3 × 2 × 5 × 5, with relays
/// of relays: 150, bound 152). std::nullopt where it does not apply: a cycle passes a PU twice (closed trails), a PU
/// lies on no cycle, some pair cannot get two sources, or the levels do not settle. `estimate`, when given: the
/// pairs whose matched slots all run one way, and the latest step a matched slot uses (every packet is then
/// everywhere: the PUs on a cycle have its packets after ⌊m_c/2⌋ steps). Throws std::invalid_argument when the
/// cycles share a link.
std::optional<routing_table> matched_cycle_routing(const cycle_system& system,
                                                   std::pair<std::uint64_t, std::uint64_t>* estimate = nullptr);

/// The packet-matched supply (core/src/torus/packet_supply.cpp, where the method is written out): one packet per PU,
/// scheduled switching, for any edge-disjoint cycle system — closed trails included, where matched_cycle_routing
/// declines. Instead of two sources per (PU, cycle) pair, every PU's missing packets (those its own cycles do not bring
/// within `steps`) are matched one by one to (free in-link, step) slots that can carry them: what the neighbour got in
/// the step before, on a cycle link or by its own plan, or one hop further over an upstream slot that plan leaves
/// unused; maximum matchings per PU, committed round after round and never taken back. No table where a PU lies on no
/// cycle (its packet is outside the model). A heuristic: `table` only when
/// every PU's plan is complete within `steps` (then gossip completes within `steps` — the simulator tells the exact
/// count); a second pass gives a pair that gets a cycle one way only an unused slot forwarding the other way, where one
/// exists (`one_way_pairs` counts the rest). On the closed trails of the printed lap rule it reaches the cycles'
/// circulation ⌈(m − 1)/2⌉, below Theorem 7's bound (4 × 5 × 4 × 5: 90 steps, bound 92, the greedy supply 176).
/// Throws std::invalid_argument when the cycles share a link.
struct packet_supply_result {
  std::optional<routing_table> table;
  std::uint64_t steps = 0;          // the target asked
  std::uint64_t latest = 0;         // with a table: the latest step a plan uses (or the cycles' circulation)
  std::uint64_t one_way_pairs = 0;  // with a table: (PU, cycle) pairs that get the cycle one way only
  std::uint64_t short_pus = 0;      // without: PUs whose plan stayed short of some packet
  std::string reason;               // without: why
};
/// P² and P · ports · (steps + 1) at most this (the plan and the packets each PU holds are kept whole).
inline constexpr std::uint64_t packet_supply_work_limit = std::uint64_t{1} << 26;
/// max_delay: a slot may also carry what the sender got up to that many steps before (1: the previous step only, the
/// time-independent forwarding; up to max_switch_delay: the sender holds packets — switches with a delay).
packet_supply_result packet_matched_routing(const cycle_system& system, std::uint64_t steps,
                                            std::uint32_t max_delay = 1);
/// The least target for which packet_matched_routing completes, searched upwards from the longest cycle's
/// circulation ⌊m/2⌋ at doubling gaps (the last one max_steps), then bisected (the heuristic is not known to be
/// monotone in the target; the least complete one found is kept). `estimate`: (one_way_pairs, latest) of that table.
/// std::nullopt when no target up to max_steps (0: ⌊m/2⌋ + P) completes, or the torus is beyond
/// packet_supply_work_limit.
std::optional<routing_table> least_packet_matched_routing(const cycle_system& system,
                                                          std::pair<std::uint64_t, std::uint64_t>* estimate = nullptr,
                                                          std::uint64_t max_steps = 0, std::uint32_t max_delay = 1);

/// Two packets per PU on cycles that do not pass every PU — Theorems 3 and 4 on Sections 3.2 and 3.3's partial
/// cycles (core/src/torus/twin_supply.cpp, where the argument is written out). Cycle c carries packet c of every PU
/// (packets = number of cycles). A PU off cycle c hands its packet c in step 1, over a free link, to an adjacent PU
/// on c (its host, by a bipartite matching; or, with no such neighbour, through a neighbour that relays it in step 2),
/// which sends it both ways right after its own and then forwards its cycle's streams that much later
/// (port_switch::delay), so the cycle carries all P packets c. A PU off a
/// cycle gets that cycle's packets over its free in-links, a maximum matching of its missing packets to (free in-link,
/// step) slots that offer what the sender got one or two steps before; a PU whose sources are off the cycle too is
/// served after them, and Section 3.3's pair at distance 2 (each the other's second source) together. `steps`: the
/// least target found — searched from the counting bound ⌈(packets·P − packets)/(2d)⌉ upwards at doubling gaps up to
/// max_steps (0: that bound + P), then bisected — at which every PU on a cycle gets the whole ring (walked) and every
/// matching is complete: a plan, not a proof; the simulator (checkers) tells the table's steps.
/// On partial_2d_cycles the target is ⌈P/2⌉ on every size swept (2 <= n1 <= 30, odd 5 <= n2 <= 31): Theorem 3's
/// n1·n2/2, the counting bound, and Theorem 4's ⌈n1·n2/2⌉.
/// Throws std::invalid_argument: more than twin_routing_max_pus PUs, cycles that share a link or pass a PU twice, a
/// pair (PU, cycle) with no host within two free links or none left (the matching also keeps every link to one
/// hand-over per step, and may miss an assignment because of it), or no target up to max_steps.
struct twin_routing_result {
  routing_table table;
  std::uint64_t steps = 0;         // the target the plan meets
  std::uint64_t hosts = 0;         // packets handed to a host (pairs (PU, cycle) with the PU off the cycle)
  std::uint64_t double_hosts = 0;  // hosts that take two packets of one cycle (and forward it with delay 3)
  std::uint64_t relayed = 0;       // packets handed over two links (no PU on the cycle adjacent over a free link)
};
inline constexpr pu_index twin_routing_max_pus = pu_index{1} << 14;
twin_routing_result twin_cycle_routing(const cycle_system& system, std::uint64_t max_steps = 0);

/// Supply of an OOC PU by two on-cycle PUs A and B on a cycle of `length` PUs, B `gap` positions after A. A stream
/// delivers the supplier's own packet in step 1 and from step t >= 2 the packet of the PU t − 1 positions away in its
/// direction (+1: packets arriving from ahead, i.e. running backward; −1: from behind, running forward).
struct supply_plan {
  int direction_a = -1, direction_b = 1;              // in step 1 and 2
  std::vector<std::uint64_t> switches_a, switches_b;  // steps from which the direction flips (increasing)
  std::uint64_t steps = 0;                            // the step after which every packet of the cycle has arrived
};
/// The best plan that delivers both directions of the cycle (the locality property: opposite streams, or a switch).
/// time_independent: no switches; one_switch: at most one per supplier (searched over the switch steps where arcs
/// meet; equal to exhaustive search in tests for lengths up to 26 and 40, 61); scheduled: the fewest steps any
/// direction sequence reaches, by a maximum matching of (supplier, step) slots to cycle positions (slot (A, t) can
/// deliver a + (t − 1) or a − (t − 1)). require gap < length (gap 0: one PU supplies over two links, as when n_j = 2).
supply_plan best_supply(std::uint64_t length, std::uint64_t gap, supply_policy policy);
/// Whether the plan runs both directions within its `steps` (opposite first directions, or a switch taking effect in a
/// step from 3 to `steps`): the locality property of Section 3.2 for the supplied PU.
bool delivers_both_directions(const supply_plan& plan);
/// The step after which the plan has delivered all `length` positions (UINT64_MAX if never), by stepping through it.
std::uint64_t supply_completion(std::uint64_t length, std::uint64_t gap, const supply_plan& plan);

}  // namespace dancecard::torus
