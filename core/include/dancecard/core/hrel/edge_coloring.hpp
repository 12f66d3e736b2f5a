// Edge colouring of bipartite multigraphs with exactly Δ colours (Kőnig's theorem), in O(E log E) per Δ-halving
// step, following N. Alon, "A simple algorithm for edge-coloring bipartite multigraphs", IPL 85 (2003):
//   * the graph is first made Δ-regular (vertices of small degree merged on each side, then dummy edges added);
//   * even Δ: an Euler split (every multiplicity halved; the edges of odd multiplicity form an even-degree graph whose
//     Euler circuits are split alternately) gives two Δ/2-regular halves, coloured recursively;
//   * odd Δ: one perfect matching is taken out — by Hopcroft–Karp on the support (default, Gabow's scheme), or by
//     Alon's method (scale to a 2^t-regular graph by adding a "bad" perfect matching, then t Euler splits, always
//     keeping the half with less bad multiplicity — none is left at the end);
//   * Δ = 1: the regular graph is itself a perfect matching.
// Multiplicities are arithmetic throughout, so the work depends on the number of distinct edges and on log Δ, not on
// how many packets a message has — except that the colour classes are listed one by one (Δ of them).
// No maximum matching is computed per colour.
// decompose_bipartite_edges gives the same decomposition as weighted matchings: for long messages it peels perfect
// matchings of the regularized graph with their least multiplicity (Birkhoff–von Neumann style), so the work depends
// on the number of distinct edges only.
//
//   dancecard::hrel::bipartite_multigraph g{2, 2, {{0, 0, 2}, {0, 1, 1}, {1, 1, 2}, {1, 0, 1}}};   // 3-regular
//   auto colours = dancecard::hrel::color_bipartite_edges(g);   // 3 classes; each a matching of edge indices
#pragma once

#include <cstdint>
#include <vector>

namespace dancecard::hrel {

struct bipartite_edge {
  std::uint32_t left = 0, right = 0;
  std::uint64_t multiplicity = 1;
};

struct bipartite_multigraph {
  std::uint32_t left_vertices = 0, right_vertices = 0;
  std::vector<bipartite_edge> edges;
  /// Δ: the largest number of edge copies at a vertex.
  std::uint64_t max_degree() const;
};

/// How the perfect matching is found when the recursion meets an odd degree (at most ⌊log2 Δ⌋ + 1 times on any
/// branch; the even degrees are always halved by Euler splits):
enum class colouring_engine {
  euler_hopcroft_karp,   // Hopcroft–Karp on the support (Gabow's Euler-partition scheme): O(E √V) worst case per
                         // odd level, a few linear phases in practice — the default, and the faster one measured; on
                         // the regular graph's unit copies (4 bytes each, left-major, nothing rebuilt per level) when
                         // there are at most 8 per distinct edge, else on the multiplicities
  alon,                  // Alon 2003: t ≈ log2(kΔ) Euler splits of a 2^t-regular scaling: O(E log E) per odd level
  euler_multiplicities,  // the default's scheme on the multiplicities always (for comparison in bench/)
};

/// Δ colour classes; class c lists edge indices (an edge of multiplicity m is in exactly m classes), and no vertex
/// has two edges in one class. require: every edge names existing vertices; Δ <= 2^40.
std::vector<std::vector<std::size_t>> color_bipartite_edges(
    const bipartite_multigraph& graph, colouring_engine engine = colouring_engine::euler_hopcroft_karp);

/// A matching (edge indices) taken `weight` times: the weighted form of a colouring (the paper's Section 3).
struct weighted_matching {
  std::vector<std::size_t> edges;
  std::uint64_t weight = 1;
};

enum class decomposition {
  automatic,         // unit_colouring when Δ <= the number of distinct edges (after regularization), else peeling
  unit_colouring,    // color_bipartite_edges: Δ classes of weight 1
  matching_peeling,  // Section 3: at most (distinct edges + 2·vertices) weighted matchings, whatever Δ is
};

/// Weighted matchings whose weights sum to Δ, covering every edge exactly `multiplicity` times (counted with
/// weight); no vertex has two edges in one matching. With matching_peeling the number of matchings and the running
/// time (O(E²) for E distinct edges) do not depend on the multiplicities — messages of 10^9 packets cost what
/// messages of one packet cost. require: as color_bipartite_edges.
std::vector<weighted_matching> decompose_bipartite_edges(const bipartite_multigraph& graph,
                                                         decomposition method = decomposition::automatic);

}  // namespace dancecard::hrel
