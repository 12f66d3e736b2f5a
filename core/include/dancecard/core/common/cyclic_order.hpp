// A cyclic order of the vertices 0 … N − 1 (a tour, e.g. a Hamiltonian cycle) that supports the k-opt moves of
// local search: the position of a vertex, and cutting the order into arcs and joining them again in another order
// and orientation, each in O(k log N) expected time. An implicit treap (randomized search tree keyed by position)
// with lazy reversal and parent links; a plain vector costs N per move. Used by the scrambled frames of the torus
// Hamilton decompositions (core/src/torus/hamiltonian_products.cpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace dancecard {

class cyclic_order {
 public:
  /// order[t]: the vertex at position t; must be a permutation of 0 … N − 1 (std::invalid_argument otherwise).
  /// `seed` fixes the treap's shape (never the order it represents).
  explicit cyclic_order(const std::vector<std::uint64_t>& order, std::uint64_t seed = 1);

  std::uint64_t size() const { return nodes_.size(); }
  /// The position of vertex v (0 … N − 1), O(log N) expected.
  std::uint64_t position(std::uint64_t v);
  /// The vertices in order, position 0 first.
  std::vector<std::uint64_t> sequence();

  /// An arc of the order between cuts, and the way it is joined: cuts are positions t whose link t → t + 1 is removed
  /// (sorted, distinct, at least one); arc i runs from position cuts[i] + 1 to cuts[i + 1], the last one wrapping
  /// around from cuts.back() + 1 to cuts[0]. `route` lists every arc exactly once, (index, forward), in the new order;
  /// the result starts with the first arc of the route (at position 0). std::invalid_argument on a bad cut or route.
  void rearrange(const std::vector<std::uint64_t>& cuts, const std::vector<std::pair<std::size_t, bool>>& route);

 private:
  static constexpr std::uint32_t nil = 0xffffffffu;
  struct node {
    std::uint32_t left = nil, right = nil, parent = nil, size = 1;
    std::uint32_t priority = 0;
    bool reversed = false;  // the subtree's children are still to be swapped (lazy)
  };
  std::uint32_t size_of(std::uint32_t x) const { return x == nil ? 0 : nodes_[x].size; }
  void push(std::uint32_t x);
  void update(std::uint32_t x);
  std::pair<std::uint32_t, std::uint32_t> split(std::uint32_t t, std::uint64_t k);  // the first k, the rest
  std::uint32_t merge(std::uint32_t a, std::uint32_t b);
  std::vector<node> nodes_;
  std::uint32_t root_ = nil;
};

}  // namespace dancecard
