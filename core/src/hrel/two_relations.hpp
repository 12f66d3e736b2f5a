// Internal: the 2-relations of an h-relation (Section 2.1) and their paths and cycles.
#pragma once

#include <cstdint>
#include <vector>

#include "dancecard/core/hrel/edge_coloring.hpp"
#include "dancecard/core/hrel/instance.hpp"

namespace dancecard::hrel::detail {

/// The Euler-oriented out × in multigraph decomposed into weighted matchings; an edge index e stands for message
/// e / 2 (oriented src → dst when e is even, dst → src when odd). Every class is a 2-relation: each PE has at most
/// one packet oriented out and one oriented in, so the class is a union of paths and cycles. Weights sum to ⌈h/2⌉
/// (or less when no PE reaches h).
std::vector<weighted_matching> two_relations(const hrel_instance& instance, decomposition method);

/// A path or cycle of a 2-relation: vertices v_0 … v_{L-1}; edge i (a message index) joins v_i and v_{i+1}, and for a
/// cycle edge L-1 joins v_{L-1} and v_0. A path's v_0 is an end. Isolated PEs are paths of one vertex, no edges.
struct component {
  bool cycle = false;
  std::vector<rank> vertices;
  std::vector<std::size_t> messages;
};

/// The components of one class (message indices = edge / 2), cycles first found from every vertex.
std::vector<component> components(const hrel_instance& instance, const std::vector<std::size_t>& oriented_edges);

}  // namespace dancecard::hrel::detail
