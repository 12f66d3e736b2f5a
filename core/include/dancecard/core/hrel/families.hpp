// Instance families of the h-relation papers, seeded and reproducible.
//
//   triangles(k, h)        — Section 2.5's lower-bound family: P = 3k PEs in k disjoint directed triangles, h/2
//                            packets on every arc (half-duplex h = h for even h);
//   triangle_copies(h)     — Section 2.1's footnote: h/2 copies of one triangle (3 PEs, h/2 packets per arc), which
//                            needs 3h/2 steps without forwarding;
//   random_relation(P, h, seed) — packets added between random pairs while every PE stays within h (half duplex);
//   skewed_relation(P, h, seed) — sample-sort-like: a few "splitter" PEs receive most of the data;
//   regular_relation(P, l, extra, seed) — Section 4.1: l packets between every pair, plus a random rest.
#pragma once

#include <cstdint>

#include "dancecard/core/hrel/instance.hpp"

namespace dancecard::hrel {

/// require: k >= 1, h >= 2 even.
hrel_instance triangles(rank k, std::uint64_t h);
/// require: h >= 2 even.
hrel_instance triangle_copies(std::uint64_t h);
/// require: P >= 2, h >= 1. Every PE sends plus receives at most h packets; most reach h exactly.
hrel_instance random_relation(rank P, std::uint64_t h, std::uint64_t seed);
/// require: P >= 2, h >= 1. Half of every PE's budget goes to one of ⌈P/8⌉ splitters, within h (half duplex).
hrel_instance skewed_relation(rank P, std::uint64_t h, std::uint64_t seed);
/// Section 4.1: every pair {i, j} exchanges exactly l packets (split at random between m_ij and m_ji), plus a
/// random relation of half-duplex load at most `extra` on top. require: P >= 2, l >= 1.
hrel_instance regular_relation(rank P, std::uint64_t l, std::uint64_t extra, std::uint64_t seed);

}  // namespace dancecard::hrel
