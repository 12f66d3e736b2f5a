// d-dimensional tori n_1 × … × n_d in the full-port store-and-forward model (Meyer and Sibeyn, "Time-independent
// gossiping on full-port tori"): every PU has 2d ports ±x_j, and in each step every directed link carries at most
// one packet. A time-independent routing table says, once and for all, which in-port's stream each out-port forwards
// (or nothing), and which own packet each out-port injects in step 1.
//
//   dancecard::torus::network t({6, 8});                       // 6 rows, 8 columns; PU (i, j) has index i·8 + j
//   auto table = dancecard::torus::hamiltonian_2d(t);        // Section 3.1: two edge-disjoint Hamiltonian cycles
//   // checkers/torus_check: pairing_cycles(table) and simulate_gossip(table).steps == 24 (Theorem 2)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dancecard::torus {

using pu_index = std::uint32_t;

/// Ports: 2j is +x_j (towards coordinate + 1), 2j + 1 is −x_j. In 2-D with dims {rows, cols}: 0 = B (down),
/// 1 = T (up), 2 = R, 3 = L.
class network {
 public:
  /// require: 1 <= dims.size() <= 8, every n_j >= 2, product <= 2^24 (std::invalid_argument names the problem).
  explicit network(std::vector<std::uint32_t> dims);
  const std::vector<std::uint32_t>& dims() const noexcept { return dims_; }
  std::uint32_t dimension() const noexcept { return static_cast<std::uint32_t>(dims_.size()); }
  std::uint32_t ports() const noexcept { return 2 * dimension(); }
  pu_index size() const noexcept { return size_; }
  std::vector<std::uint32_t> coordinates(pu_index pu) const;
  pu_index index(const std::vector<std::uint32_t>& coordinates) const;
  /// The PU reached by leaving `pu` through `port`.
  pu_index neighbor(pu_index pu, std::uint32_t port) const;
  static std::uint32_t opposite(std::uint32_t port) { return port ^ 1u; }
  /// "6x8"
  std::string name() const;
  /// Parses "6x8" or "4x4x4". Throws std::invalid_argument naming the problem.
  static torus::network parse(const std::string& text);

 private:
  std::vector<std::uint32_t> dims_;
  std::vector<pu_index> stride_;
  pu_index size_ = 1;
};

/// ⌈packets·(P − 1)/2d⌉: a PU learns at most one packet per in-port and step and must learn the packets of the other
/// P − 1 PUs, so no gossip with that many own packets per PU on the full-port torus (time-dependent or not) completes
/// in fewer steps (one packet: ⌈(P − 1)/2d⌉).
std::uint64_t counting_bound(const torus::network& network, std::uint32_t packets = 1);

/// The arrival count of PU w split by step parity, for one-packet gossip in which every packet moves one hop in every
/// step (sent on all ports in step 1, then forwarded in the step after it arrives and never held — the pairing and
/// general models of the SAT queries; not tables with held packets, port_switch::delay > 1). A packet then comes to w
/// in step t only if a walk of exactly t hops leads from its source to w. Over the steps 2 … T:
struct parity_count {
  std::uint64_t fresh = 0;               // packets other than w's own and its neighbours' (P − 1 − |N1|)
  std::uint64_t unreached = 0;           // of those, the ones no walk of 2 … T hops brings to w
  std::array<std::uint64_t, 2> slots{};  // slots[c]: w's in-slots in the steps t of 2 … T with t mod 2 = c (2d each)
  std::array<std::uint64_t, 2>
      forced{};  // forced[c]: fresh packets that walks of 2 … T hops bring only in steps of parity c
  /// Some table could still complete within T steps by this count: every fresh packet reachable, at least as many
  /// slots as fresh packets, and as many slots of each parity as packets that only that parity can bring.
  bool allows() const;
};
/// O(T · P · d). require: w < P (std::invalid_argument).
parity_count arrival_parity_count(const torus::network& network, pu_index w, std::uint64_t steps);
/// The parity bound: one more than the largest T whose arrival_parity_count at PU 0 does not allow completion (every
/// PU is PU 0 up to a translation), and at least counting_bound; a lower bound for one-packet gossip without held
/// packets. Above the counting bound only where parity splits the slots badly: with all sides even, a packet at
/// even distance comes in even steps only (6 × 6: 17 such packets, 4 slots in each of the even steps 2, 4, 6, 8, so
/// 10 steps against the counting bound's 9). O(P² / d): for the small tori of the SAT queries (P <= 4,096, else
/// std::invalid_argument).
std::uint64_t parity_bound(const torus::network& network);

inline constexpr std::uint32_t no_port = UINT32_MAX;
inline constexpr std::uint32_t no_packet = UINT32_MAX;

/// The switching strategy of Section 3.2 as an explicit exception to time independence: from step `step` on (steps
/// count from 1, switches apply from step 2), out-port `port` of PU `pu` forwards in-port `in_port` instead of its
/// `forward` entry (or an earlier switch's). One switch per out-port is the paper's strategy; more are allowed.
/// `delay`: what arrived on `in_port` that many steps before — 1 (the previous step, as every `forward` entry) up to
/// max_switch_delay (held longer: a buffer of delay − 1 packets per out-port, which the two-packet routing of the
/// partial cycles uses to make room in a cycle's streams); a switch with delay δ starts in step δ + 1 or later.
struct port_switch {
  pu_index pu = 0;
  std::uint32_t port = 0;
  std::uint64_t step = 0;
  std::uint32_t in_port = 0;
  std::uint32_t delay = 1;
  friend bool operator==(const port_switch&, const port_switch&) = default;
};
inline constexpr std::uint32_t max_switch_delay = 8;  // a buffer of up to 7 packets per out-port

/// For every PU and out-port: `forward` — the in-port whose arrivals (of the previous step) this out-port sends on,
/// or no_port; `inject` — which of the PU's own packets (0 … packets − 1) it sends in step 1, or no_packet.
/// An in-port p of a PU is the link arriving from neighbor(pu, p).
struct routing_table {
  torus::network network;
  std::uint32_t packets = 1;           // own packets per PU
  std::vector<std::uint32_t> forward;  // [pu · ports + out-port]
  std::vector<std::uint32_t> inject;   // [pu · ports + out-port]
  std::vector<port_switch> switches;   // empty: time-independent
  std::uint32_t& forward_at(pu_index pu, std::uint32_t port) { return forward[pu * network.ports() + port]; }
  std::uint32_t forward_at(pu_index pu, std::uint32_t port) const { return forward[pu * network.ports() + port]; }
  std::uint32_t& inject_at(pu_index pu, std::uint32_t port) { return inject[pu * network.ports() + port]; }
  std::uint32_t inject_at(pu_index pu, std::uint32_t port) const { return inject[pu * network.ports() + port]; }
};

/// The own packets of every PU in a table built from pairings or cycles: one (sent on every port, or both directions
/// of every cycle through the PU, in step 1 — the model of the SMT minima and the searches), or one per pair of ports
/// or per cycle (packet q on the ports of the PU's q-th pair; cycle c carries packet c of every PU).
enum class packets_per_pu { one, per_cycle };

/// The pairing model: each PU pairs its 2d ports; what arrives on a port leaves through its partner. `partner` is
/// [pu · ports + port] → port. per_cycle: one packet per pair (packets = d), packet q out on both ports of the PU's
/// q-th pair (pairs ordered by their smaller port) in step 1; one: one packet per PU, sent on every port in step 1.
routing_table pairing_table(const torus::network& network, const std::vector<std::uint32_t>& partner,
                            packets_per_pu packets = packets_per_pu::per_cycle);

/// All pairings of the 2d ports of one PU (perfect matchings of {0 … 2d−1}): 3 in 2-D, 15 in 3-D. Each as
/// partner[port].
std::vector<std::vector<std::uint32_t>> port_pairings(std::uint32_t dimension);

/// The two models of time-independent tables that the searches and the SAT queries choose from: in both, every PU
/// sends its own packet on every port in step 1 and from step 2 on only forwards. pairing: each PU pairs its 2d ports
/// and forwards what arrives on a port out of its partner; general: each out-port forwards one fixed in-port's stream
/// (any of the 2d, its own included) or nothing.
enum class torus_model { pairing, general };
std::string_view to_string(torus_model model);

/// Section 3.1's rule at a PU in column `col` of a torus with `cols` columns: the port that what arrives on `port`
/// leaves by (ports 0 = B, 1 = T, 2 = R, 3 = L). Columns col < cols − 1 even and the last column: T↔R, B↔L; odd: T↔L,
/// B↔R.
std::uint32_t section_3_1_partner(std::uint64_t cols, std::uint64_t col, std::uint32_t port);

/// Section 3.1 (n_1, n_2 even): j < n_2 − 1 even: T↔R, B↔L; j odd: T↔L, B↔R; j = n_2 − 1: T↔R, B↔L. Two
/// edge-disjoint Hamiltonian cycles, two packets per PU. require: a 2-D torus with both sides even
/// (std::invalid_argument names the condition otherwise).
routing_table hamiltonian_2d(const torus::network& network);
/// Whether hamiltonian_2d applies: a 2-D torus with both sides even.
bool section_3_1_applies(const torus::network& network);

}  // namespace dancecard::torus
