// Time bounds of the h-relation paper as exact rationals (half duplex, forwarding allowed unless said otherwise).
//
//   counting_lower_bound — every PE sends and receives its own h_i packets one at a time, and at most ⌊P/2⌋
//       transfers run at once while every packet needs at least one: max(h, V/⌊P/2⌋), V = Σ packets.
//   triangles_lower_bound — Section 2.5 for triangles(k, h): at any moment at most one arc per triangle carries a
//       packet directly (D ≤ k), the other P − 2D PEs form at most ⌊(P − 2D)/2⌋ transfers, and a forwarded packet
//       needs two transfers, so delivery progresses at rate at most max_D D + ⌊(P − 2D)/2⌋/2; the volume is hP/2.
//       Computed by that maximum, not by the closed form, so that the two can be compared:
//   paper_triangles_bound — the closed form printed in Section 2.5 (6h/5 for even P, h/(5/6 − 1/(2P)) for odd P).
//   theorem1_upper_bound — 6/5 (h + 1) for even P, (6/5 + 2/P)(h + 1) for odd P, as printed.
#pragma once

#include "dancecard/core/hrel/instance.hpp"

namespace dancecard::hrel {

rational counting_lower_bound(const hrel_instance& instance);
/// require: k >= 1, h >= 2 even.
rational triangles_lower_bound(rank k, std::uint64_t h);
rational paper_triangles_bound(rank k, std::uint64_t h);
rational theorem1_upper_bound(rank P, std::uint64_t h);

}  // namespace dancecard::hrel
