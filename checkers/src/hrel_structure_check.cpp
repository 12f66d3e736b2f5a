// Edge-colouring and orientation checks.
#include "dancecard/checkers/hrel_structure_check.hpp"

namespace dancecard {

std::string edge_coloring_problem(const bipartite_multigraph& g, const std::vector<std::vector<std::size_t>>& classes) {
  if (classes.size() != g.max_degree())
    return std::to_string(classes.size()) + " colours for maximum degree " + std::to_string(g.max_degree());
  std::vector<std::uint64_t> uses(g.edges.size(), 0);
  for (std::size_t c = 0; c < classes.size(); ++c) {
    std::vector<char> left(g.left_vertices, 0), right(g.right_vertices, 0);
    for (std::size_t e : classes[c]) {
      if (e >= g.edges.size()) return "class " + std::to_string(c) + " names edge " + std::to_string(e);
      if (left[g.edges[e].left]++ || right[g.edges[e].right]++) return "class " + std::to_string(c) + " is not a matching";
      ++uses[e];
    }
  }
  for (std::size_t e = 0; e < g.edges.size(); ++e)
    if (uses[e] != g.edges[e].multiplicity)
      return "edge " + std::to_string(e) + " is coloured " + std::to_string(uses[e]) + " times, its multiplicity is " +
             std::to_string(g.edges[e].multiplicity);
  return "";
}

std::string weighted_decomposition_problem(const bipartite_multigraph& g, const std::vector<weighted_matching>& classes) {
  std::vector<std::uint64_t> uses(g.edges.size(), 0);
  std::uint64_t total = 0;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    if (classes[c].weight == 0) return "matching " + std::to_string(c) + " has weight 0";
    total += classes[c].weight;
    std::vector<char> left(g.left_vertices, 0), right(g.right_vertices, 0);
    for (std::size_t e : classes[c].edges) {
      if (e >= g.edges.size()) return "matching " + std::to_string(c) + " names edge " + std::to_string(e);
      if (left[g.edges[e].left]++ || right[g.edges[e].right]++) return "matching " + std::to_string(c) + " is not a matching";
      uses[e] += classes[c].weight;
    }
  }
  if (total != g.max_degree())
    return "weights sum to " + std::to_string(total) + " for maximum degree " + std::to_string(g.max_degree());
  for (std::size_t e = 0; e < g.edges.size(); ++e)
    if (uses[e] != g.edges[e].multiplicity)
      return "edge " + std::to_string(e) + " is covered " + std::to_string(uses[e]) + " times, its multiplicity is " +
             std::to_string(g.edges[e].multiplicity);
  return "";
}

std::string orientation_problem(const hrel_instance& instance, const std::vector<std::uint64_t>& forward) {
  const auto& messages = instance.messages();
  if (forward.size() != messages.size()) return "the orientation does not cover every message";
  std::vector<std::uint64_t> out(instance.pes(), 0), in(instance.pes(), 0);
  for (std::size_t m = 0; m < messages.size(); ++m) {
    if (forward[m] > messages[m].packets) return "message " + std::to_string(m) + " orients more packets than it has";
    out[messages[m].src] += forward[m], in[messages[m].dst] += forward[m];
    out[messages[m].dst] += messages[m].packets - forward[m], in[messages[m].src] += messages[m].packets - forward[m];
  }
  const std::uint64_t half = (instance.h_half_duplex() + 1) / 2;
  for (rank p = 0; p < instance.pes(); ++p)
    if (out[p] > half || in[p] > half)
      return "PE " + std::to_string(p) + " has " + std::to_string(out[p]) + " out and " + std::to_string(in[p]) +
             " in, above ceil(h/2) = " + std::to_string(half);
  return "";
}

}  // namespace dancecard
