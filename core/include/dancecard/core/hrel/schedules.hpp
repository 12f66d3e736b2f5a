// Offline h-relation schedules (Sibeyn, "h-relations with forwarding, half duplex", and the offline remark of the
// on-line paper). All are built on the Δ-decomposition of bipartite multigraphs (edge_coloring.hpp); with
// decomposition::automatic, long messages are handled as weighted matchings (Section 3), so that the number of slots
// and the running time do not grow with the message lengths.
//
//   full_duplex_schedule — colour the sender × receiver multigraph with h_full colours: every PE sends at most one
//       packet and receives at most one per round. Makespan exactly h_full.
//   direct_schedule — Section 2.1 (no forwarding, half duplex): orient the packets along Euler trails (in- and
//       out-degree ≤ ⌈h/2⌉ at every PE), decompose the oriented out × in multigraph into ⌈h/2⌉ 2-relations (unions
//       of paths and cycles), route each in at most 3 steps (2 colours along paths and even cycles, a third for the
//       closing edge of an odd cycle). Makespan ≤ 3⌈h/2⌉.
//   forwarding_schedule — Sections 2.2–2.4: each 2-relation in 12 rounds of 1/5: odd cycles are paired, and in six
//       rounds PEs b_0, b_1, b_2 of one cycle forward three fifths of the closing packet a_{|A|-1} → a_0 of the other
//       while both keep sending their own pieces (Figure 2); a lone odd cycle is helped by an idle PE or the end of a
//       path instead. Where no helper exists (odd P), one packet is taken out into a matching M that is sent, one unit
//       slot, when no further packet fits (Lemma 1: M then holds at least ⌈P/4⌉ packets). Makespan ≤ 12/5⌈h/2⌉ +
//       the M slots: 6/5 (h + 1) for even P; about (6/5 + 2/P)(h + 1) for odd P (see forwarding_report).
//   regular_schedule — Section 4.1: the ℓ = min_{i≠j}(m_ij + m_ji) packets every pair exchanges go by the
//       1-factorization of the clique (round i: PE j with PE (i − j) mod P; for even P the otherwise idle PE pairs
//       with P − 1): (P − 1)ℓ for even P, Pℓ for odd P; the rest of the instance by forwarding_schedule.
#pragma once

#include <vector>

#include "dancecard/core/hrel/edge_coloring.hpp"
#include "dancecard/core/hrel/instance.hpp"

namespace dancecard::hrel {

/// For each message, how many of its packets the Euler orientation points from src to dst (the others point back).
/// Every PE then has at most ⌈h/2⌉ packets oriented out and at most ⌈h/2⌉ oriented in (h = h_half_duplex()).
std::vector<std::uint64_t> euler_orientation(const hrel_instance& instance);

hrel_schedule full_duplex_schedule(const hrel_instance& instance, decomposition method = decomposition::automatic);
hrel_schedule direct_schedule(const hrel_instance& instance, decomposition method = decomposition::automatic);

/// How the forwarding schedule was put together (for reports and the Lemma 1 check).
struct forwarding_report {
  std::uint64_t two_relations = 0;            // Σ weights of the 2-relations (⌈h/2⌉ when some PE has load h)
  std::uint64_t helped_by_cycle = 0;          // odd cycles helped by another odd cycle (counted per 2-relation class)
  std::uint64_t helped_by_single = 0;         // odd cycles helped by an idle PE or a path end
  std::uint64_t removed_packets = 0;          // packets taken out into M (odd P)
  std::vector<std::uint64_t> matching_sizes;  // |M| at each M slot, in order; all but the last were forced (Lemma 1)
  rational matching_time;                     // total duration of the M slots
};

hrel_schedule forwarding_schedule(const hrel_instance& instance, decomposition method = decomposition::automatic,
                                  forwarding_report* report = nullptr);

/// ℓ = min over pairs i < j of m_ij + m_ji (0 when P < 2).
std::uint64_t regular_part(const hrel_instance& instance);
/// require: regular_part(instance) >= 1 (std::invalid_argument names a pair that exchanges nothing otherwise).
hrel_schedule regular_schedule(const hrel_instance& instance, decomposition method = decomposition::automatic);

}  // namespace dancecard::hrel
