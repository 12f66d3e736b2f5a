// Translations of the built-in networks (see the header), each checked to be an automorphism of the network at hand.
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

}  // namespace dancecard::collective
