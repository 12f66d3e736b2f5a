// Translations of the built-in networks (see the header), each checked to be an automorphism of the network at hand,
// and the elements of a group that acts regularly on the ranks.
#include "dancecard/core/collective/symmetry.hpp"

#include <algorithm>
#include <string>

#include "dancecard/core/torus/torus.hpp"

namespace dancecard::collective {

bool is_automorphism(const topology& network, const rank_permutation& perm) {
  const rank n = network.size();
  if (perm.size() != n) return false;
  std::vector<char> seen(n, 0);
  for (const rank r : perm) {
    if (r >= n || seen[r]) return false;
    seen[r] = 1;
  }
  // A bijection on the links too: each maps to a link of the same capacity, and there are as many as before.
  return std::all_of(network.links().begin(), network.links().end(),
                     [&](const link& l) { return network.capacity(perm[l.from], perm[l.to]) == l.capacity; });
}

std::vector<rank_permutation> translations(const topology& network) {
  const rank n = network.size();
  const std::string& name = network.name();
  std::vector<rank_permutation> candidates;
  if (n <= 1) return {};
  if (name.rfind("ring:", 0) == 0 || name.rfind("complete:", 0) == 0) {
    rank_permutation p(n);
    for (rank r = 0; r < n; ++r) p[r] = (r + 1) % n;
    candidates.push_back(std::move(p));
  } else if (name.rfind("hypercube:", 0) == 0) {
    for (rank bit = 1; bit < n && bit != 0; bit <<= 1) {
      rank_permutation p(n);
      for (rank r = 0; r < n; ++r) p[r] = r ^ bit;
      candidates.push_back(std::move(p));
    }
  } else if (name.rfind("torus:", 0) == 0) {
    try {
      const torus::network shape = torus::network::parse(name.substr(6));
      if (shape.size() != n) return {};
      for (std::uint32_t port = 0; port < shape.ports(); port += 2) {  // one direction per dimension
        rank_permutation p(n);
        for (rank r = 0; r < n; ++r) p[r] = static_cast<rank>(shape.neighbor(r, port));
        candidates.push_back(std::move(p));
      }
    } catch (const std::exception&) {
      return {};
    }
  }
  std::vector<rank_permutation> out;
  for (rank_permutation& p : candidates)
    if (is_automorphism(network, p) && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  return out;
}

// Closure from the identity under left multiplication by the generators, one element kept per image of rank 0: every
// product of generators is reached, so if each product agrees with the element kept for its image of 0, the group has
// no more elements than kept, each taking 0 somewhere else.
std::optional<std::vector<rank_permutation>> regular_elements(const std::vector<rank_permutation>& generators, rank n) {
  for (const rank_permutation& g : generators) {
    if (g.size() != n) return std::nullopt;
    std::vector<char> seen(n, 0);
    for (const rank r : g) {
      if (r >= n || seen[r]) return std::nullopt;
      seen[r] = 1;
    }
  }
  if (n == 0) return std::nullopt;
  std::vector<rank_permutation> by_image(n);
  rank_permutation identity(n);
  for (rank r = 0; r < n; ++r) identity[r] = r;
  by_image[0] = identity;
  std::vector<rank> queue{0};
  for (std::size_t next = 0; next < queue.size(); ++next) {
    for (const rank_permutation& g : generators) {
      const rank_permutation& e = by_image[queue[next]];
      rank_permutation product(n);
      for (rank r = 0; r < n; ++r) product[r] = g[e[r]];
      rank_permutation& kept = by_image[product[0]];
      if (kept.empty()) {
        kept = std::move(product);
        queue.push_back(kept[0]);
      } else if (kept != product) {
        return std::nullopt;
      }
    }
  }
  if (queue.size() != n) return std::nullopt;
  return by_image;
}

}  // namespace dancecard::collective
