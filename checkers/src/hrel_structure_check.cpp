// Edge-colouring and orientation checks.
#include "dancecard/checkers/hrel_structure_check.hpp"

namespace dancecard::hrel {

namespace {

// Each class must be a matching of g with a positive weight; uses[e] gathers the weight covering edge e. `noun` names
// a class in the message ("class", "matching").
template <class Edges, class Weight>
std::string matchings_problem(const bipartite_multigraph& g, std::size_t count, Edges edges_of, Weight weight_of,
                              const char* noun, std::vector<std::uint64_t>& uses) {
  uses.assign(g.edges.size(), 0);
  for (std::size_t c = 0; c < count; ++c) {
    const std::uint64_t weight = weight_of(c);
    if (weight == 0) return std::string(noun) + " " + std::to_string(c) + " has weight 0";
    std::vector<char> left(g.left_vertices, 0), right(g.right_vertices, 0);
    for (std::size_t e : edges_of(c)) {
      if (e >= g.edges.size()) return std::string(noun) + " " + std::to_string(c) + " names edge " + std::to_string(e);
      if (left[g.edges[e].left]++ || right[g.edges[e].right]++)
        return std::string(noun) + " " + std::to_string(c) + " is not a matching";
      uses[e] += weight;
    }
  }
  return "";
}

// Every edge covered exactly its multiplicity; `verb` says how ("coloured", "covered").
std::string multiplicity_problem(const bipartite_multigraph& g, const std::vector<std::uint64_t>& uses,
                                 const char* verb) {
  for (std::size_t e = 0; e < g.edges.size(); ++e)
    if (uses[e] != g.edges[e].multiplicity)
      return "edge " + std::to_string(e) + " is " + verb + " " + std::to_string(uses[e]) +
             " times, its multiplicity is " + std::to_string(g.edges[e].multiplicity);
  return "";
}

}  // namespace

std::string edge_coloring_problem(const bipartite_multigraph& g, const std::vector<std::vector<std::size_t>>& classes) {
  if (classes.size() != g.max_degree())
    return std::to_string(classes.size()) + " colours for maximum degree " + std::to_string(g.max_degree());
  std::vector<std::uint64_t> uses;
  const std::string problem = matchings_problem(
      g, classes.size(), [&](std::size_t c) -> const std::vector<std::size_t>& { return classes[c]; },
      [](std::size_t) { return std::uint64_t{1}; }, "class", uses);
  return problem.empty() ? multiplicity_problem(g, uses, "coloured") : problem;
}

std::string weighted_decomposition_problem(const bipartite_multigraph& g,
                                           const std::vector<weighted_matching>& classes) {
  std::vector<std::uint64_t> uses;
  const std::string problem = matchings_problem(
      g, classes.size(), [&](std::size_t c) -> const std::vector<std::size_t>& { return classes[c].edges; },
      [&](std::size_t c) { return classes[c].weight; }, "matching", uses);
  if (!problem.empty()) return problem;
  std::uint64_t total = 0;
  for (const weighted_matching& m : classes) total += m.weight;
  if (total != g.max_degree())
    return "weights sum to " + std::to_string(total) + " for maximum degree " + std::to_string(g.max_degree());
  return multiplicity_problem(g, uses, "covered");
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

}  // namespace dancecard::hrel
