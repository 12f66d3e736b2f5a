// Torus automorphisms beyond translations (reflections, rotations of square layers, glide reflections) and the
// groups they generate, for the searches over invariant tables.
#include "torus_groups.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace dancecard {

namespace {

// require: φ is a signed permutation of the axes keeping sizes, with d shifts.
void check_automorphism(const torus& network, const torus_automorphism& phi) {
  const std::uint32_t d = network.dimension();
  if (phi.ports.size() != 2 * d || phi.shift.size() != d)
    throw std::invalid_argument("torus automorphism: " + std::to_string(phi.ports.size()) + " ports and " + std::to_string(phi.shift.size()) +
                                " shifts for a torus of dimension " + std::to_string(d) + " (expected " + std::to_string(2 * d) + " and " + std::to_string(d) + ")");
  std::vector<char> hit(d, 0);
  for (std::uint32_t j = 0; j < d; ++j) {
    const std::uint32_t to = phi.ports[2 * j];
    if (to >= 2 * d || phi.ports[2 * j + 1] != (to ^ 1u) || hit[to / 2] != 0 || network.dims()[to / 2] != network.dims()[j])
      throw std::invalid_argument("torus automorphism: port map entry " + std::to_string(2 * j) + " is not a signed permutation of the axes keeping sizes");
    hit[to / 2] = 1;
  }
}

// A·v for φ's linear part: (A v)_π(j) = ±v_j.
std::vector<std::uint32_t> linear(const torus& network, const std::vector<std::uint32_t>& ports, const std::vector<std::uint32_t>& v) {
  std::vector<std::uint32_t> out(v.size());
  for (std::uint32_t j = 0; j < v.size(); ++j) {
    const std::uint32_t n = network.dims()[j], to = ports[2 * j] / 2;
    out[to] = (ports[2 * j] & 1u) != 0 ? (n - v[j] % n) % n : v[j] % n;
  }
  return out;
}

// second ∘ first
torus_automorphism compose(const torus& network, const torus_automorphism& second, const torus_automorphism& first) {
  torus_automorphism out{std::vector<std::uint32_t>(first.ports.size()), linear(network, second.ports, first.shift)};
  for (std::size_t p = 0; p < first.ports.size(); ++p) out.ports[p] = second.ports[first.ports[p]];
  for (std::size_t j = 0; j < out.shift.size(); ++j) out.shift[j] = (out.shift[j] + second.shift[j]) % network.dims()[j];
  return out;
}

torus_automorphism identity(const torus& network) {
  torus_automorphism id{std::vector<std::uint32_t>(network.ports()), std::vector<std::uint32_t>(network.dimension(), 0)};
  for (std::uint32_t p = 0; p < network.ports(); ++p) id.ports[p] = p;
  return id;
}

bool is_translation(const torus_automorphism& phi) {
  for (std::size_t p = 0; p < phi.ports.size(); ++p)
    if (phi.ports[p] != p) return false;
  return true;
}

std::vector<std::uint32_t> key(const torus_automorphism& phi) {
  std::vector<std::uint32_t> k = phi.ports;
  k.insert(k.end(), phi.shift.begin(), phi.shift.end());
  return k;
}

// The group's elements conjugated by the translation by v (τ φ τ⁻¹ = (σ, shift + v − A v)), as a sorted list of keys;
// the least over all v names the group's class under conjugation by translations.
std::vector<std::vector<std::uint32_t>> class_key(const torus& network, const std::vector<torus_automorphism>& elements) {
  std::vector<std::vector<std::uint32_t>> best;
  for (pu_index t = 0; t < network.size(); ++t) {
    const std::vector<std::uint32_t> v = network.coordinates(t);
    std::vector<std::vector<std::uint32_t>> keys;
    for (const torus_automorphism& e : elements) {
      const std::vector<std::uint32_t> av = linear(network, e.ports, v);
      torus_automorphism c = e;
      for (std::size_t j = 0; j < v.size(); ++j) {
        const std::uint32_t n = network.dims()[j];
        c.shift[j] = (e.shift[j] + v[j] + n - av[j]) % n;
      }
      keys.push_back(key(c));
    }
    std::sort(keys.begin(), keys.end());
    if (best.empty() || keys < best) best = std::move(keys);
  }
  return best;
}

}  // namespace

pu_index apply_automorphism(const torus& network, const torus_automorphism& phi, pu_index pu) {
  check_automorphism(network, phi);
  std::vector<std::uint32_t> y = linear(network, phi.ports, network.coordinates(pu));
  for (std::size_t j = 0; j < y.size(); ++j) y[j] = (y[j] + phi.shift[j]) % network.dims()[j];
  return network.index(y);
}

std::string describe(const torus& network, const torus_automorphism& phi) {
  check_automorphism(network, phi);
  const std::uint32_t d = network.dimension();
  std::string from = "(", to = "(";
  for (std::uint32_t k = 0; k < d; ++k) {
    from += (k ? ", x" : "x") + std::to_string(k + 1);
    std::uint32_t j = 0;
    while (phi.ports[2 * j] / 2 != k) ++j;
    to += k ? ", " : "";
    to += ((phi.ports[2 * j] & 1u) != 0 ? "-x" : "x") + std::to_string(j + 1);
    if (phi.shift[k] != 0) to += " + " + std::to_string(phi.shift[k]);
  }
  return from + ") -> " + to + ")";
}

namespace detail {

std::vector<std::vector<std::uint32_t>> port_relabellings(const torus& network) {
  const std::uint32_t d = network.dimension();
  std::vector<std::uint32_t> perm(d);
  for (std::uint32_t j = 0; j < d; ++j) perm[j] = j;
  std::vector<std::vector<std::uint32_t>> out;
  do {
    bool keeps_sizes = true;
    for (std::uint32_t j = 0; j < d; ++j) keeps_sizes = keeps_sizes && network.dims()[perm[j]] == network.dims()[j];
    if (!keeps_sizes) continue;
    for (std::uint32_t signs = 0; signs < (1u << d); ++signs) {
      std::vector<std::uint32_t> sigma(2 * d);
      for (std::uint32_t j = 0; j < d; ++j)
        for (std::uint32_t b = 0; b < 2; ++b) sigma[2 * j + b] = 2 * perm[j] + (b ^ ((signs >> j) & 1u));
      out.push_back(std::move(sigma));
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

std::vector<torus_automorphism> group_elements(const torus& network, const std::vector<torus_automorphism>& generators, std::size_t limit) {
  for (const torus_automorphism& g : generators) check_automorphism(network, g);
  std::vector<torus_automorphism> elements{identity(network)};
  std::set<std::vector<std::uint32_t>> seen{key(elements.front())};
  for (std::size_t next = 0; next < elements.size(); ++next)
    for (const torus_automorphism& g : generators) {
      torus_automorphism product = compose(network, g, elements[next]);
      if (!seen.insert(key(product)).second) continue;
      if (elements.size() == limit) return {};
      elements.push_back(std::move(product));
    }
  return elements;
}

group_orbits orbits_of(const torus& network, const std::vector<torus_automorphism>& generators) {
  const pu_index P = network.size();
  const std::vector<torus_automorphism> elements = group_elements(network, generators, static_cast<std::size_t>(P) * port_relabellings(network).size());
  group_orbits out;
  out.order = elements.size();
  out.orbit.assign(P, P);
  out.port_map.assign(P, {});
  out.stabilizer.assign(P, {});
  for (pu_index r = 0; r < P; ++r) {
    if (out.orbit[r] != P) continue;  // in the orbit of a smaller PU
    for (const torus_automorphism& g : elements) {
      const pu_index image = apply_automorphism(network, g, r);
      if (image == r && !is_translation(g) &&
          std::find(out.stabilizer[r].begin(), out.stabilizer[r].end(), g.ports) == out.stabilizer[r].end())
        out.stabilizer[r].push_back(g.ports);
      if (out.orbit[image] != P) continue;
      out.orbit[image] = r;
      std::vector<std::uint32_t> inverse(g.ports.size());
      for (std::uint32_t o = 0; o < g.ports.size(); ++o) inverse[g.ports[o]] = o;
      out.port_map[image] = std::move(inverse);
    }
  }
  return out;
}

}  // namespace detail

std::vector<std::vector<torus_automorphism>> point_subgroups(const torus& network) {
  const pu_index P = network.size();
  if (P > 256) throw std::invalid_argument("point_subgroups: at most 256 PUs, not " + std::to_string(P));
  const std::vector<std::vector<std::uint32_t>> relabellings = detail::port_relabellings(network);
  // A group G whose only translation is the identity maps injectively onto its linear part L (two elements with the
  // same σ differ by a translation), so G = {(σ, s(σ)) : σ in L}. So: every subgroup L of the port relabellings
  // (joins of cyclic ones), a few generators σ_1 … σ_k of L, and every choice of shifts t_i that keeps the group
  // generated by (σ_1, t_1) … (σ_i, t_i) as small as ⟨σ_1 … σ_i⟩, prefix by prefix.
  using perm = std::vector<std::uint32_t>;
  auto closure = [](const std::vector<perm>& generators) {
    std::set<perm> elements;
    std::vector<perm> order;
    if (generators.empty()) return elements;
    perm id(generators.front().size());
    for (std::uint32_t p = 0; p < id.size(); ++p) id[p] = p;
    elements.insert(id);
    order.push_back(id);
    for (std::size_t next = 0; next < order.size(); ++next)
      for (const perm& g : generators) {
        perm product(id.size());
        for (std::uint32_t p = 0; p < id.size(); ++p) product[p] = g[order[next][p]];
        if (elements.insert(product).second) order.push_back(product);
      }
    return elements;
  };
  std::set<std::set<perm>> linear;  // the non-trivial subgroups of the relabellings
  std::vector<perm> cyclic;
  for (std::size_t s = 1; s < relabellings.size(); ++s)
    if (linear.insert(closure({relabellings[s]})).second) cyclic.push_back(relabellings[s]);
  std::vector<std::set<perm>> pending(linear.begin(), linear.end());
  while (!pending.empty()) {
    const std::set<perm> base = std::move(pending.back());
    pending.pop_back();
    for (const perm& c : cyclic) {
      if (base.count(c) != 0) continue;
      std::vector<perm> generators(base.begin(), base.end());
      generators.push_back(c);
      std::set<perm> joined = closure(generators);
      if (linear.insert(joined).second) pending.push_back(std::move(joined));
    }
  }
  std::set<std::vector<std::vector<std::uint32_t>>> classes;
  std::vector<std::pair<std::size_t, std::vector<torus_automorphism>>> found;  // (order, generators)
  for (const std::set<perm>& group : linear) {
    // greedy generators: each one not in the group generated by those before it
    std::vector<perm> sigma;
    std::vector<std::size_t> prefix_order;
    for (const perm& g : group) {
      if (std::is_sorted(g.begin(), g.end())) continue;  // the identity
      if (!sigma.empty() && closure(sigma).count(g) != 0) continue;
      sigma.push_back(g);
      prefix_order.push_back(closure(sigma).size());
    }
    std::vector<torus_automorphism> chosen;
    auto assign = [&](auto& self, std::size_t i) -> void {
      if (i == sigma.size()) {
        const std::vector<torus_automorphism> elements = detail::group_elements(network, chosen, group.size());
        if (classes.insert(class_key(network, elements)).second) found.emplace_back(group.size(), chosen);
        return;
      }
      for (pu_index t = 0; t < P; ++t) {
        chosen.push_back({sigma[i], network.coordinates(t)});
        if (!detail::group_elements(network, chosen, prefix_order[i]).empty()) self(self, i + 1);
        chosen.pop_back();
      }
    };
    assign(assign, 0);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::vector<torus_automorphism>> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace dancecard
