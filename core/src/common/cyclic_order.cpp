// cyclic_order: an implicit treap with lazy reversal and parent links (see the header).
#include "dancecard/core/common/cyclic_order.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

namespace dancecard {

cyclic_order::cyclic_order(const std::vector<std::uint64_t>& order, std::uint64_t seed) {
  const std::uint64_t N = order.size();
  if (N == 0 || N >= nil)
    throw std::invalid_argument("cyclic_order: needs 1 to 2^32 - 2 vertices, got " + std::to_string(N));
  nodes_.assign(N, node{});
  std::vector<char> seen(N, 0);
  for (std::uint64_t t = 0; t < N; ++t) {
    if (order[t] >= N || seen[order[t]])
      throw std::invalid_argument("cyclic_order: position " + std::to_string(t) + " holds vertex " +
                                  std::to_string(order[t]) + ", not a permutation of 0 … " + std::to_string(N - 1));
    seen[order[t]] = 1;
  }
  std::mt19937 random(static_cast<std::mt19937::result_type>(seed));
  for (node& x : nodes_) x.priority = static_cast<std::uint32_t>(random());
  // Cartesian tree over the order (the heap on priorities): a stack of the right spine.
  std::vector<std::uint32_t> spine;
  for (std::uint64_t t = 0; t < N; ++t) {
    const auto v = static_cast<std::uint32_t>(order[t]);
    std::uint32_t last = nil;
    while (!spine.empty() && nodes_[spine.back()].priority < nodes_[v].priority) last = spine.back(), spine.pop_back();
    nodes_[v].left = last;
    if (!spine.empty()) nodes_[spine.back()].right = v;
    spine.push_back(v);
  }
  root_ = spine.front();
  // sizes and parents, children before parents (an explicit post-order: no recursion on a path-shaped tree)
  std::vector<std::pair<std::uint32_t, bool>> stack{{root_, false}};
  while (!stack.empty()) {
    auto [x, expanded] = stack.back();
    stack.pop_back();
    if (expanded) {
      update(x);
      continue;
    }
    stack.push_back({x, true});
    if (nodes_[x].left != nil) stack.push_back({nodes_[x].left, false});
    if (nodes_[x].right != nil) stack.push_back({nodes_[x].right, false});
  }
  nodes_[root_].parent = nil;
}

void cyclic_order::push(std::uint32_t x) {
  node& n = nodes_[x];
  if (!n.reversed) return;
  std::swap(n.left, n.right);
  if (n.left != nil) nodes_[n.left].reversed = !nodes_[n.left].reversed;
  if (n.right != nil) nodes_[n.right].reversed = !nodes_[n.right].reversed;
  n.reversed = false;
}

void cyclic_order::update(std::uint32_t x) {
  node& n = nodes_[x];
  n.size = 1 + size_of(n.left) + size_of(n.right);
  if (n.left != nil) nodes_[n.left].parent = x;
  if (n.right != nil) nodes_[n.right].parent = x;
}

std::pair<std::uint32_t, std::uint32_t> cyclic_order::split(std::uint32_t t, std::uint64_t k) {
  if (t == nil) return {nil, nil};
  push(t);
  if (size_of(nodes_[t].left) >= k) {
    const auto [a, b] = split(nodes_[t].left, k);
    nodes_[t].left = b;
    update(t);
    return {a, t};
  }
  const auto [a, b] = split(nodes_[t].right, k - size_of(nodes_[t].left) - 1);
  nodes_[t].right = a;
  update(t);
  return {t, b};
}

std::uint32_t cyclic_order::merge(std::uint32_t a, std::uint32_t b) {
  if (a == nil) return b;
  if (b == nil) return a;
  if (nodes_[a].priority > nodes_[b].priority) {
    push(a);
    nodes_[a].right = merge(nodes_[a].right, b);
    update(a);
    return a;
  }
  push(b);
  nodes_[b].left = merge(a, nodes_[b].left);
  update(b);
  return b;
}

std::uint64_t cyclic_order::position(std::uint64_t v) {
  if (v >= nodes_.size()) throw std::invalid_argument("cyclic_order: no vertex " + std::to_string(v));
  // Read-only, two passes up the path: a node's children are in true order unless the reversal flags of it and its
  // ancestors add up odd (`flipped`); the first pass finds that parity for v, the second climbs with it.
  bool flipped = false;
  for (auto x = static_cast<std::uint32_t>(v); x != nil; x = nodes_[x].parent) flipped ^= nodes_[x].reversed;
  auto x = static_cast<std::uint32_t>(v);
  std::uint64_t rank = size_of(flipped ? nodes_[x].right : nodes_[x].left);
  for (std::uint32_t up = nodes_[x].parent; up != nil; x = up, up = nodes_[up].parent) {
    flipped ^= nodes_[x].reversed;  // now the parity for `up`
    const node& a = nodes_[up];
    const bool x_on_true_right = (a.right == x) != flipped;
    if (x_on_true_right) rank += size_of(flipped ? a.right : a.left) + 1;
  }
  return rank;
}

std::vector<std::uint64_t> cyclic_order::sequence() {
  std::vector<std::uint64_t> out;
  out.reserve(nodes_.size());
  std::vector<std::uint32_t> stack;
  std::uint32_t x = root_;
  while (x != nil || !stack.empty()) {
    while (x != nil) {
      push(x);
      stack.push_back(x);
      x = nodes_[x].left;
    }
    x = stack.back();
    stack.pop_back();
    out.push_back(x);
    x = nodes_[x].right;
  }
  return out;
}

void cyclic_order::rearrange(const std::vector<std::uint64_t>& cuts,
                             const std::vector<std::pair<std::size_t, bool>>& route) {
  const std::size_t k = cuts.size();
  if (k == 0) throw std::invalid_argument("cyclic_order::rearrange: no cut");
  for (std::size_t i = 0; i < k; ++i)
    if (cuts[i] >= size() || (i > 0 && cuts[i] <= cuts[i - 1]))
      throw std::invalid_argument("cyclic_order::rearrange: cut " + std::to_string(i) + " (position " +
                                  std::to_string(cuts[i]) + ") is out of order or past the last position " +
                                  std::to_string(size() - 1));
  std::vector<char> taken(k, 0);
  if (route.size() != k)
    throw std::invalid_argument("cyclic_order::rearrange: the route must take each of the " + std::to_string(k) +
                                " arcs once");
  for (const auto& [arc, forward] : route) {
    if (arc >= k || taken[arc])
      throw std::invalid_argument("cyclic_order::rearrange: the route must take each of the " + std::to_string(k) +
                                  " arcs once");
    taken[arc] = 1;
  }
  std::vector<std::uint32_t> arcs(k, nil);
  auto [head, rest] = split(root_, cuts[0] + 1);  // positions 0 … cuts[0]: the end of the wrapping arc
  for (std::size_t i = 0; i + 1 < k; ++i) {
    const auto [arc, after] = split(rest, cuts[i + 1] - cuts[i]);
    arcs[i] = arc, rest = after;
  }
  arcs[k - 1] = merge(rest, head);
  root_ = nil;
  for (const auto& [arc, forward] : route) {
    const std::uint32_t a = arcs[arc];
    if (!forward) nodes_[a].reversed = !nodes_[a].reversed;
    root_ = merge(root_, a);
  }
  nodes_[root_].parent = nil;
}

}  // namespace dancecard
