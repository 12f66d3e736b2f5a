// Offline h-relation schedules built on the Δ-colouring of bipartite multigraphs.
//
//   full_duplex_schedule — the remark of the on-line paper: colour the sender × receiver multigraph (one edge copy
//       per packet) with h_full colours; colour c is round c, in which every PE sends at most one packet and
//       receives at most one. h_full unit slots.
//   direct_schedule — Section 2.1 of the h-relations paper (no forwarding, half duplex): orient every packet along
//       Euler trails so that each PE has in- and out-degree at most ⌈h/2⌉ (euler_orientation), colour the oriented
//       out × in multigraph with at most ⌈h/2⌉ colours — each class a "2-relation", a union of paths and cycles —
//       and route every 2-relation in at most 3 unit slots (its edges 3-coloured: 2 colours along paths and even
//       cycles, a third for the closing edge of an odd cycle). At most 3⌈h/2⌉ slots.
#pragma once

#include <vector>

#include "dancecard/core/hrel/instance.hpp"

namespace dancecard {

/// For each message, how many of its packets the Euler orientation points from src to dst (the others point back).
/// Every PE then has at most ⌈h/2⌉ packets oriented out and at most ⌈h/2⌉ oriented in (h = h_half_duplex()).
std::vector<std::uint64_t> euler_orientation(const hrel_instance& instance);

hrel_schedule full_duplex_schedule(const hrel_instance& instance);
hrel_schedule direct_schedule(const hrel_instance& instance);

}  // namespace dancecard
