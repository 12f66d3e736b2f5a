// The automorphism group of any network, by a stabiliser chain (Sims, "Computational methods in the study of
// permutation groups", 1970): for each rank b from the last to the first, an automorphism that fixes 0 … b − 1 and
// takes b to each rank of b's orbit that the generators found so far do not reach. Each is found by a backtracking
// search that maps ranks in breadth-first order, a rank only onto one with the same in- and out-capacities and the
// same capacities to and from every rank mapped before it (McKay's individualisation, without his refinement).
#include <algorithm>
#include <numeric>
#include <vector>

#include "dancecard/core/collective/symmetry.hpp"

namespace dancecard::collective {

namespace {

constexpr rank unmapped = static_cast<rank>(-1);

class automorphism_search {
 public:
  automorphism_search(const topology& network, std::uint64_t max_nodes)
      : n_(network.size()), capacity_(static_cast<std::size_t>(n_) * n_, 0), nodes_left_(max_nodes) {
    for (const link& l : network.links()) capacity_[index(l.from, l.to)] = l.capacity;
    // A rank's profile: its in- and out-capacities, sorted; an automorphism keeps it.
    std::vector<std::vector<std::uint32_t>> profile(n_);
    for (rank r = 0; r < n_; ++r) {
      for (rank u = 0; u < n_; ++u)
        if (capacity_[index(r, u)] != 0) profile[r].push_back(capacity_[index(r, u)]);
      profile[r].push_back(0);  // between the out- and the in-capacities
      for (rank u = 0; u < n_; ++u)
        if (capacity_[index(u, r)] != 0) profile[r].push_back(capacity_[index(u, r)] | 0x80000000u);
      std::sort(profile[r].begin(), profile[r].end());
    }
    class_.assign(n_, 0);
    std::vector<rank> order(n_);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](rank a, rank b) { return profile[a] < profile[b]; });
    for (std::size_t i = 1; i < order.size(); ++i)
      class_[order[i]] = class_[order[i - 1]] + (profile[order[i]] != profile[order[i - 1]] ? 1 : 0);
  }

  bool exhausted() const { return nodes_left_ == 0; }

  /// An automorphism that fixes 0 … b − 1 and takes b to v, or empty.
  rank_permutation find(rank b, rank v) {
    if (class_[b] != class_[v]) return {};
    image_.assign(n_, unmapped);
    used_.assign(n_, 0);
    for (rank r = 0; r < b; ++r) image_[r] = r, used_[r] = 1;
    if (!consistent(b, v)) return {};
    image_[b] = v, used_[v] = 1;
    if (order_for_ != b) order_rest(b);
    if (!extend(0)) return {};
    return image_;
  }

 private:
  std::size_t index(rank a, rank b) const { return static_cast<std::size_t>(a) * n_ + b; }

  // The order in which find maps the ranks other than 0 … b: breadth-first from those, so that each rank meets mapped
  // neighbours. It depends on b alone, so it is kept for every v tried at b.
  void order_rest(rank b) {
    order_for_ = b;
    order_.clear();
    std::vector<char> queued(n_, 0);
    std::vector<rank> frontier;
    for (rank r = 0; r <= b; ++r) frontier.push_back(r), queued[r] = 1;
    for (std::size_t i = 0; i < frontier.size(); ++i) {
      for (rank u = 0; u < n_; ++u)
        if (!queued[u] && (capacity_[index(frontier[i], u)] != 0 || capacity_[index(u, frontier[i])] != 0))
          queued[u] = 1, frontier.push_back(u), order_.push_back(u);
      if (i + 1 == frontier.size())  // another component: start it at its first rank
        for (rank u = 0; u < n_; ++u)
          if (!queued[u]) {
            queued[u] = 1, frontier.push_back(u), order_.push_back(u);
            break;
          }
    }
  }

  // Whether u → w keeps every capacity to and from the ranks mapped so far.
  bool consistent(rank u, rank w) const {
    if (class_[u] != class_[w]) return false;
    for (rank a = 0; a < n_; ++a) {
      if (image_[a] == unmapped) continue;
      if (capacity_[index(u, a)] != capacity_[index(w, image_[a])]) return false;
      if (capacity_[index(a, u)] != capacity_[index(image_[a], w)]) return false;
    }
    return true;
  }

  bool extend(std::size_t at) {
    if (at == order_.size()) return true;
    const rank u = order_[at];
    for (rank w = 0; w < n_; ++w) {
      if (used_[w] || !consistent(u, w)) continue;
      if (nodes_left_ == 0) return false;
      --nodes_left_;
      image_[u] = w, used_[w] = 1;
      if (extend(at + 1)) return true;
      image_[u] = unmapped, used_[w] = 0;
    }
    return false;
  }

  rank n_;
  std::vector<std::uint32_t> capacity_;
  std::vector<std::uint32_t> class_;
  std::uint64_t nodes_left_;
  rank_permutation image_;
  std::vector<char> used_;
  std::vector<rank> order_;
  rank order_for_ = unmapped;  // the b that order_ was made for
};

// The orbit of b under the group the generators make (all of which fix 0 … b − 1).
std::vector<char> orbit_of(rank b, rank n, const std::vector<rank_permutation>& generators) {
  std::vector<char> in(n, 0);
  std::vector<rank> queue{b};
  in[b] = 1;
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (const rank_permutation& g : generators)
      if (!in[g[queue[i]]]) in[g[queue[i]]] = 1, queue.push_back(g[queue[i]]);
  return in;
}

}  // namespace

std::vector<rank_permutation> automorphism_generators(const topology& network, std::uint64_t max_nodes) {
  const rank n = network.size();
  if (n <= 1 || n > max_automorphism_ranks) return {};
  automorphism_search search(network, max_nodes);
  std::vector<rank_permutation> generators;
  for (rank b = n; b-- > 0;) {
    std::vector<char> reached = orbit_of(b, n, generators);
    for (rank v = b + 1; v < n && !search.exhausted(); ++v) {
      if (reached[v]) continue;
      rank_permutation g = search.find(b, v);
      if (g.empty()) continue;
      generators.push_back(std::move(g));
      reached = orbit_of(b, n, generators);
    }
  }
  return generators;
}

}  // namespace dancecard::collective
