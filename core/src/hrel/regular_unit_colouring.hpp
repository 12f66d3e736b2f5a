// Edge colouring of a d-regular bipartite multigraph given as its unit edge copies in left-major order — Euler
// splits (Gabow's scheme, as edge_coloring.cpp) on a layout made for memory: four bytes per copy and no edge lists
// rebuilt per level (regular_unit_colouring.cpp).
#pragma once

#include <cstdint>
#include <vector>

namespace dancecard::hrel::detail {

inline constexpr std::uint32_t no_ref = UINT32_MAX;

/// The graph: k left and k right vertices, every vertex with d copies; left vertex u's copies at [u·d, (u+1)·d),
/// right[i] the right vertex of copy i and ref[i] what it stands for (no_ref: a dummy copy). Appends d classes to
/// `out`, each the refs of a perfect matching (dummies left out). require: right.size() == ref.size() == k·d < 2^31,
/// every right vertex has d copies (std::logic_error when the input is not d-regular).
void colour_regular_units(std::vector<std::uint32_t> right, std::vector<std::uint32_t> ref, std::uint32_t k,
                          std::uint32_t d, std::vector<std::vector<std::size_t>>& out);

}  // namespace dancecard::hrel::detail
