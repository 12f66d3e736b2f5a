// Torus automorphisms beyond translations (reflections, rotations of square layers, glide reflections) and the
// groups they generate, for the searches over invariant tables.
#include "dancecard/core/torus/group_orbits.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace dancecard::torus {

namespace {

// require: φ is a signed permutation of the axes keeping sizes, with d shifts.
void check_automorphism(const torus::network& network, const torus_automorphism& phi) {
  const std::uint32_t d = network.dimension();
  if (phi.ports.size() != 2 * d || phi.shift.size() != d)
    throw std::invalid_argument("torus automorphism: " + std::to_string(phi.ports.size()) + " ports and " +
                                std::to_string(phi.shift.size()) + " shifts for a torus of dimension " +
                                std::to_string(d) + " (expected " + std::to_string(2 * d) + " and " +
                                std::to_string(d) + ")");
  std::vector<char> hit(d, 0);
  for (std::uint32_t j = 0; j < d; ++j) {
    const std::uint32_t to = phi.ports[2 * j];
    if (to >= 2 * d || phi.ports[2 * j + 1] != (to ^ 1u) || hit[to / 2] != 0 ||
        network.dims()[to / 2] != network.dims()[j])
      throw std::invalid_argument("torus automorphism: port map entry " + std::to_string(2 * j) +
                                  " is not a signed permutation of the axes keeping sizes");
    hit[to / 2] = 1;
  }
}

// A·v for φ's linear part: (A v)_π(j) = ±v_j.
std::vector<std::uint32_t> linear(const torus::network& network, const std::vector<std::uint32_t>& ports,
                                  const std::vector<std::uint32_t>& v) {
  std::vector<std::uint32_t> out(v.size());
  for (std::uint32_t j = 0; j < v.size(); ++j) {
    const std::uint32_t n = network.dims()[j], to = ports[2 * j] / 2;
    out[to] = (ports[2 * j] & 1u) != 0 ? (n - v[j] % n) % n : v[j] % n;
  }
  return out;
}

}  // namespace

pu_index apply_automorphism(const torus::network& network, const torus_automorphism& phi, pu_index pu) {
  check_automorphism(network, phi);
  std::vector<std::uint32_t> y = linear(network, phi.ports, network.coordinates(pu));
  for (std::size_t j = 0; j < y.size(); ++j) y[j] = (y[j] + phi.shift[j]) % network.dims()[j];
  return network.index(y);
}

std::string describe(const torus::network& network, const torus_automorphism& phi) {
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

std::string describe(const torus::network& network, const std::vector<torus_automorphism>& generators) {
  std::string out;
  for (const torus_automorphism& g : generators) out += (out.empty() ? "" : "; ") + describe(network, g);
  return out;
}

namespace detail {

std::vector<std::vector<std::uint32_t>> port_relabellings(const torus::network& network) {
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

std::vector<local_automorphism> hypercube_stabilizer(const torus::network& network) {
  const std::uint32_t d = network.dimension();
  std::vector<std::uint32_t> fours;  // the sides of 4
  for (std::uint32_t j = 0; j < d; ++j)
    if (network.dims()[j] == 4) fours.push_back(j);
  if (fours.size() < 2) return {};
  static constexpr std::uint32_t gray[4] = {0, 1, 3, 2},
                                 from_gray[4] = {0, 1, 3, 2};  // the Gray code is its own inverse on 2 bits
  const std::uint32_t bits = 2 * static_cast<std::uint32_t>(fours.size());
  std::vector<std::uint32_t> perm(bits);
  for (std::uint32_t b = 0; b < bits; ++b) perm[b] = b;
  std::vector<local_automorphism> out;
  do {
    local_automorphism a{std::vector<pu_index>(network.size()),
                         std::vector<std::vector<std::uint32_t>>(network.size())};
    for (pu_index pu = 0; pu < network.size(); ++pu) {
      std::vector<std::uint32_t> x = network.coordinates(pu);
      std::uint32_t word = 0, moved = 0;
      for (std::size_t i = 0; i < fours.size(); ++i) word |= gray[x[fours[i]]] << (2 * i);
      for (std::uint32_t b = 0; b < bits; ++b) moved |= ((word >> b) & 1u) << perm[b];
      for (std::size_t i = 0; i < fours.size(); ++i) x[fours[i]] = from_gray[(moved >> (2 * i)) & 3u];
      a.map[pu] = network.index(x);
    }
    for (pu_index pu = 0; pu < network.size(); ++pu) {
      std::vector<std::uint32_t>& ports = a.ports[pu];
      ports.resize(network.ports());
      for (std::uint32_t o = 0; o < network.ports(); ++o) {
        ports[o] = o;  // the other sides: their coordinates are kept, and with them the port
        if (network.dims()[o / 2] != 4) continue;
        const pu_index target = a.map[network.neighbor(pu, o)];
        for (std::uint32_t p = 0; p < network.ports(); ++p)
          if (network.dims()[p / 2] == 4 && network.neighbor(a.map[pu], p) == target) ports[o] = p;
      }
    }
    out.push_back(std::move(a));
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

pu_index linear_image(const torus::network& network, const std::vector<std::uint32_t>& sigma, pu_index pu) {
  return network.index(linear(network, sigma, network.coordinates(pu)));
}

std::vector<pu_index> translation_class_key(const torus::network& network,
                                            const std::vector<std::vector<std::uint32_t>>& relabellings,
                                            const std::vector<pu_index>& subgroup) {
  std::vector<pu_index> best, image(subgroup.size());
  for (const std::vector<std::uint32_t>& sigma : relabellings) {
    for (std::size_t e = 0; e < subgroup.size(); ++e)
      image[e] = network.index(linear(network, sigma, network.coordinates(subgroup[e])));
    std::sort(image.begin(), image.end());
    if (best.empty() || image < best) best = image;
  }
  return best;
}

}  // namespace detail

namespace {

// The automorphisms (σ, shift) of a small torus as integers σ·P + shift (σ the index of a port relabelling, shift a
// PU's coordinates), with the tables that compose and conjugate them without allocating: point_subgroups asks
// thousands of closures and conjugates on 3-D tori.
struct encoded_automorphisms {
  const torus::network& net;
  pu_index P;
  std::vector<std::vector<std::uint32_t>> sigma;  // the relabellings, the identity first
  std::vector<std::uint32_t> compose_sigma;       // [a·R + b]: the index of σ_a ∘ σ_b
  std::vector<std::uint32_t> inverse_sigma;
  std::vector<pu_index> linear_of;  // [a·P + v]: A_a v
  std::vector<pu_index> add;        // [u·P + v]: u + v
  std::vector<pu_index> negate;
  std::map<std::vector<std::uint32_t>, std::uint32_t> index;  // σ -> its index
  std::vector<char> seen;                                     // closure and add_conjugates scratch, all 0 between calls

  // The add table has P² entries: less than the CNF over any group of such a torus (steps · P · 2d · P / |G| x
  // variables), and point_subgroups takes at most 256 PUs.
  explicit encoded_automorphisms(const torus::network& network)
      : net(network),
        P(network.size()),
        sigma(detail::port_relabellings(network)),
        seen(sigma.size() * network.size(), 0) {
    const std::size_t R = sigma.size();
    for (std::uint32_t a = 0; a < R; ++a) index.emplace(sigma[a], a);
    compose_sigma.resize(R * R);
    inverse_sigma.resize(R);
    for (std::uint32_t a = 0; a < R; ++a)
      for (std::uint32_t b = 0; b < R; ++b) {
        std::vector<std::uint32_t> product(sigma[a].size());
        for (std::size_t p = 0; p < product.size(); ++p) product[p] = sigma[a][sigma[b][p]];
        compose_sigma[a * R + b] = index.at(product);
        if (compose_sigma[a * R + b] == 0) inverse_sigma[a] = b;
      }
    linear_of.resize(R * P);
    for (std::uint32_t a = 0; a < R; ++a)
      for (pu_index v = 0; v < P; ++v)
        linear_of[a * P + v] = network.index(linear(network, sigma[a], network.coordinates(v)));
    add.resize(static_cast<std::size_t>(P) * P);
    negate.resize(P);
    for (pu_index u = 0; u < P; ++u) {
      const std::vector<std::uint32_t> cu = network.coordinates(u);
      std::vector<std::uint32_t> minus(cu.size());
      for (std::size_t j = 0; j < cu.size(); ++j) minus[j] = (network.dims()[j] - cu[j]) % network.dims()[j];
      negate[u] = network.index(minus);
      for (pu_index v = 0; v < P; ++v) {
        std::vector<std::uint32_t> sum = network.coordinates(v);
        for (std::size_t j = 0; j < sum.size(); ++j) sum[j] = (sum[j] + cu[j]) % network.dims()[j];
        add[static_cast<std::size_t>(u) * P + v] = network.index(sum);
      }
    }
  }
  std::uint64_t encode(std::uint32_t a, pu_index shift) const { return static_cast<std::uint64_t>(a) * P + shift; }
  std::uint64_t encode(const torus_automorphism& phi) const {
    check_automorphism(net, phi);  // then σ is one of the relabellings
    std::vector<std::uint32_t> shift(phi.shift.size());
    for (std::size_t j = 0; j < shift.size(); ++j) shift[j] = phi.shift[j] % net.dims()[j];
    return encode(index.at(phi.ports), net.index(shift));
  }
  // φ(pu) for an encoded φ = (a, s): A_a pu + s
  pu_index apply(std::uint64_t phi, pu_index pu) const {
    return add[static_cast<std::size_t>(linear_of[(phi / P) * P + pu]) * P + phi % P];
  }
  // (a2, s2) ∘ (a1, s1) = (σ_a2 σ_a1, A_a2 s1 + s2)
  std::uint64_t compose(std::uint64_t second, std::uint64_t first) const {
    const std::uint32_t a2 = static_cast<std::uint32_t>(second / P), a1 = static_cast<std::uint32_t>(first / P);
    const pu_index s2 = static_cast<pu_index>(second % P), s1 = static_cast<pu_index>(first % P);
    return encode(compose_sigma[a2 * sigma.size() + a1],
                  add[static_cast<std::size_t>(linear_of[a2 * P + s1]) * P + s2]);
  }
  // The group generated, or empty as soon as it has more than `limit` elements.
  std::vector<std::uint64_t> closure(const std::vector<std::uint64_t>& generators, std::size_t limit) {
    std::vector<std::uint64_t> elements{encode(0, 0)};
    seen[elements.front()] = 1;
    bool over = false;
    for (std::size_t next = 0; next < elements.size() && !over; ++next)
      for (std::uint64_t g : generators) {
        const std::uint64_t product = compose(g, elements[next]);
        if (seen[product] != 0) continue;
        seen[product] = 1;
        elements.push_back(product);
        if (elements.size() > limit) {
          over = true;
          break;
        }
      }
    for (std::uint64_t e : elements) seen[e] = 0;
    if (over) elements.clear();
    return elements;
  }
  // Marks the left coset ψG (ψ·g for g in G's elements) in `mark`, listing what it newly marks in `marked` (for the
  // caller to clear).
  void mark_coset(std::uint64_t psi, const std::vector<std::uint64_t>& elements, std::vector<char>& mark,
                  std::vector<std::uint64_t>& marked) const {
    for (std::uint64_t g : elements) {
      const std::uint64_t e = compose(psi, g);
      if (mark[e] == 0) mark[e] = 1, marked.push_back(e);
    }
  }
  // Every ψ G ψ⁻¹ for ψ = τ_v ∘ ρ_r, ρ_r among `relabellings`, v any PU, as sorted elements, into `known`: ρ (σ, s) ρ⁻¹
  // = (ρσρ⁻¹, A_ρ s), and τ_v (σ, s) τ_v⁻¹ = (σ, s + v − A_σ v). A table invariant under G, moved by ψ, is invariant
  // under ψ G ψ⁻¹ and gossips in as many steps, so one group per class is enough to ask; with every conjugate of the
  // classes found in `known`, a group's class is found exactly when the group itself is in `known` — one lookup a
  // group, where a canonical key (the least conjugate) would take all |relabellings|·P conjugates of every group asked.
  // relabellings: those that can conjugate one group asked into another (point_groups: the ρ with ρLρ⁻¹ = L for the
  // common linear part L; mixed_groups: the ρ with A_ρ H = H for the common translations H).
  // ψ and ψg (g in G) give the same conjugate, so each left coset ψG is conjugated by once (marked in `seen`).
  void add_conjugates(const std::vector<std::uint64_t>& elements, const std::vector<std::uint32_t>& relabellings,
                      std::set<std::vector<std::uint64_t>>& known) {
    std::vector<std::uint64_t> image(elements.size()), marked;
    for (std::uint32_t r : relabellings)
      for (pu_index v = 0; v < P; ++v) {
        const std::uint64_t psi = encode(r, v);
        if (seen[psi] != 0) continue;
        mark_coset(psi, elements, seen, marked);
        for (std::size_t e = 0; e < elements.size(); ++e) image[e] = conjugate(r, v, elements[e]);
        std::sort(image.begin(), image.end());
        known.insert(image);
      }
    for (std::uint64_t e : marked) seen[e] = 0;
  }
  // The index of ρ_r σ_a ρ_r⁻¹.
  std::uint32_t conjugate_sigma(std::uint32_t r, std::uint32_t a) const {
    const std::size_t R = sigma.size();
    return compose_sigma[compose_sigma[r * R + a] * R + inverse_sigma[r]];
  }
  // ψ e ψ⁻¹ for ψ = τ_v ∘ ρ_r: (σ_a, s) goes to (ρσ_aρ⁻¹, A_r s + v − A_ρσ_aρ⁻¹ v).
  std::uint64_t conjugate(std::uint32_t r, pu_index v, std::uint64_t e) const {
    const std::uint32_t a = static_cast<std::uint32_t>(e / P);
    const pu_index s = static_cast<pu_index>(e % P);
    const std::uint32_t turned = conjugate_sigma(r, a);
    return encode(turned,
                  add[static_cast<std::size_t>(add[static_cast<std::size_t>(linear_of[r * P + s]) * P + v]) * P +
                      negate[linear_of[turned * P + v]]]);
  }
  torus_automorphism decode(std::uint64_t e) const {
    return {sigma[static_cast<std::size_t>(e / P)], net.coordinates(static_cast<pu_index>(e % P))};
  }
  // Groups found as (order, encoded generators), decoded with their orders, the largest first (ties in the order
  // found).
  std::vector<torus_symmetry_group> largest_first(
      std::vector<std::pair<std::size_t, std::vector<std::uint64_t>>>& found) const {
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<torus_symmetry_group> out;
    for (const auto& [order, generators] : found) {
      std::vector<torus_automorphism> decoded;
      for (std::uint64_t g : generators) decoded.push_back(decode(g));
      out.push_back({{}, std::move(decoded), order});
    }
    return out;
  }
};

}  // namespace

namespace detail {

group_orbits orbits_of(const torus::network& network, const std::vector<torus_automorphism>& generators) {
  const pu_index P = network.size();
  encoded_automorphisms group(network);
  std::vector<std::uint64_t> encoded;
  for (const torus_automorphism& g : generators) encoded.push_back(group.encode(g));
  const std::vector<std::uint64_t> elements = group.closure(encoded, group.sigma.size() * P);  // never more
  group_orbits out;
  out.order = elements.size();
  out.orbit.assign(P, P);
  out.port_map.assign(P, {});
  out.preimage.assign(P, {});
  out.stabilizer.assign(P, {});
  for (pu_index r = 0; r < P; ++r) {
    if (out.orbit[r] != P) continue;  // in the orbit of a smaller PU
    for (std::uint64_t g : elements) {
      const pu_index image = group.apply(g, r);
      const std::uint32_t a = static_cast<std::uint32_t>(g / P);  // 0: a translation
      if (image == r && a != 0 &&
          std::find(out.stabilizer[r].begin(), out.stabilizer[r].end(), group.sigma[a]) == out.stabilizer[r].end())
        out.stabilizer[r].push_back(group.sigma[a]);
      if (out.orbit[image] != P) continue;
      out.orbit[image] = r;
      out.port_map[image] = group.sigma[group.inverse_sigma[a]];
      out.preimage[image].resize(P);
      for (pu_index b = 0; b < P; ++b) out.preimage[image][group.apply(g, b)] = b;
    }
  }
  // The normalizer: ψ = τ_v ∘ ρ_r is in it when it conjugates every generator into G (then ψ G ψ⁻¹ ⊆ G, and equal, both
  // of |G| elements).
  const std::size_t R = group.sigma.size();
  std::vector<char> member(R * P, 0), covered(R * P, 0);
  for (std::uint64_t e : elements) member[e] = 1;
  for (std::uint32_t r = 0; r < R; ++r)
    for (pu_index v = 0; v < P; ++v) {
      const std::uint64_t psi = group.encode(r, v);
      if (covered[psi] != 0) continue;
      if (!std::all_of(encoded.begin(), encoded.end(),
                       [&](std::uint64_t e) { return member[group.conjugate(r, v, e)] != 0; }))
        continue;
      for (std::uint64_t g : elements) covered[group.compose(psi, g)] = 1;  // the coset ψG
      if (member[psi] != 0) continue;                                       // G itself: ψ(A) = A
      // ψ(x) = A_r x + v, so ψ⁻¹(0) = A_r⁻¹(−v)
      out.normalizer.emplace_back(group.sigma[r], group.linear_of[group.inverse_sigma[r] * P + group.negate[v]]);
    }
  return out;
}

}  // namespace detail

namespace detail {

struct group_containment::impl {
  encoded_automorphisms group;
  std::vector<std::vector<std::uint64_t>> generators;  // per listed group, encoded
  std::vector<std::vector<char>> member;               // per listed group: member[e] for every encoded automorphism e
  std::vector<std::uint64_t> order;
  enum class kind { translations, point, mixed };
  std::vector<kind> kinds;
  explicit impl(const torus::network& network) : group(network) {}
};

group_containment::group_containment(const torus::network& network, const std::vector<torus_symmetry_group>& list) {
  if (network.size() > 256) return;  // the P² tables of encoded_automorphisms: meant for the invariant searches' tori
  impl_ = std::make_unique<impl>(network);
  encoded_automorphisms& group = impl_->group;
  const std::size_t all = group.sigma.size() * group.P;
  for (const torus_symmetry_group& g : list) {
    std::vector<std::uint64_t> encoded;
    for (const auto& shift : g.translations)
      encoded.push_back(group.encode(torus_automorphism{group.sigma.front(), shift}));
    for (const torus_automorphism& a : g.automorphisms) encoded.push_back(group.encode(a));
    std::vector<char> member(all, 0);
    std::size_t translations = 0;  // the translations are the elements encoded below P (σ the identity)
    for (std::uint64_t e : group.closure(encoded, all)) member[e] = 1, translations += e < group.P ? 1 : 0;
    impl_->generators.push_back(std::move(encoded));
    impl_->member.push_back(std::move(member));
    impl_->order.push_back(g.order);
    impl_->kinds.push_back(g.automorphisms.empty() ? impl::kind::translations
                           : translations == 1     ? impl::kind::point
                                                   : impl::kind::mixed);
  }
}

group_containment::~group_containment() = default;
group_containment::group_containment(group_containment&&) noexcept = default;
group_containment& group_containment::operator=(group_containment&&) noexcept = default;

bool group_containment::contains_conjugate(std::size_t big, std::size_t small) const {
  if (!impl_ || big >= impl_->order.size() || small >= impl_->order.size()) return false;
  // A point group holds no translation but the identity and a translation group no relabelling, so neither holds a
  // conjugate of a group of another kind (conjugates of translations are translations, and of other elements not); a
  // mixed group holds both, and may hold a conjugate of any kind; a subgroup's order divides the group's.
  const impl::kind big_kind = impl_->kinds[big];
  if ((big_kind != impl::kind::mixed && big_kind != impl_->kinds[small]) || impl_->order[small] >= impl_->order[big] ||
      impl_->order[big] % impl_->order[small] != 0)
    return false;
  const encoded_automorphisms& g = impl_->group;
  const std::vector<char>& member = impl_->member[big];
  const std::vector<std::uint64_t>& generators = impl_->generators[small];
  // translations commute with τ_v, so for a group of translations the relabellings alone
  const pu_index shifts = impl_->kinds[small] == impl::kind::translations ? 1 : g.P;
  for (std::uint32_t r = 0; r < g.sigma.size(); ++r)
    for (pu_index v = 0; v < shifts; ++v)
      if (std::all_of(generators.begin(), generators.end(),
                      [&](std::uint64_t e) { return member[g.conjugate(r, v, e)] != 0; }))
        return true;
  return false;
}

}  // namespace detail

namespace detail {

std::vector<torus_symmetry_group> point_groups(const torus::network& network) {
  const pu_index P = network.size();
  if (P > 256) throw std::invalid_argument("point_subgroups: at most 256 PUs, not " + std::to_string(P));
  encoded_automorphisms group(network);
  const std::size_t R = group.sigma.size();
  // A group G whose only translation is the identity maps injectively onto its linear part L (two elements with the
  // same σ differ by a translation), so G = {(σ, s(σ)) : σ in L}. So: every subgroup L of the port relabellings
  // (joins of cyclic ones), a few generators σ_1 … σ_k of L, and every choice of shifts t_i that keeps the group
  // generated by (σ_1, t_1) … (σ_i, t_i) as small as ⟨σ_1 … σ_i⟩, prefix by prefix. Conjugating by the translation by v
  // changes t_1 by v − A_1 v, so t_1 is only taken least in its class (one group per class is kept anyway).
  auto linear_closure = [&](const std::vector<std::uint32_t>& generators) {
    std::vector<std::uint64_t> encoded;
    for (std::uint32_t a : generators) encoded.push_back(group.encode(a, 0));
    std::set<std::uint32_t> out;
    for (std::uint64_t e : group.closure(encoded, R)) out.insert(static_cast<std::uint32_t>(e / P));
    return out;
  };
  std::set<std::set<std::uint32_t>> linear_groups;  // the non-trivial subgroups of the relabellings
  std::vector<std::uint32_t> cyclic;
  for (std::uint32_t a = 1; a < R; ++a)
    if (linear_groups.insert(linear_closure({a})).second) cyclic.push_back(a);
  std::vector<std::set<std::uint32_t>> pending(linear_groups.begin(), linear_groups.end());
  while (!pending.empty()) {
    const std::set<std::uint32_t> base = std::move(pending.back());
    pending.pop_back();
    for (std::uint32_t c : cyclic) {
      if (base.count(c) != 0) continue;
      std::vector<std::uint32_t> generators(base.begin(), base.end());
      generators.push_back(c);
      std::set<std::uint32_t> joined = linear_closure(generators);
      if (linear_groups.insert(joined).second) pending.push_back(std::move(joined));
    }
  }
  // Conjugating by ρ (no shift) carries the groups over L onto those over ρLρ⁻¹, so only the first linear group of each
  // class (in the set's order) is taken: the groups over a later one are conjugate to groups found over the first,
  // whose shifts were all tried. Over one L, two groups are conjugate only by a ψ whose ρ normalizes L (both linear
  // parts are L), so `known` holds the conjugates by those alone, and only while L is taken.
  std::set<std::set<std::uint32_t>> taken;                                // every conjugate of the linear groups taken
  std::vector<std::pair<std::size_t, std::vector<std::uint64_t>>> found;  // (order, generators)
  for (const std::set<std::uint32_t>& linear_group : linear_groups) {
    if (taken.count(linear_group) != 0) continue;
    std::vector<std::uint32_t> normalizer;
    for (std::uint32_t r = 0; r < R; ++r) {
      std::set<std::uint32_t> image;
      for (std::uint32_t a : linear_group) image.insert(group.conjugate_sigma(r, a));
      if (image == linear_group) normalizer.push_back(r);
      taken.insert(std::move(image));
    }
    // greedy generators: each one not in the group generated by those before it (the identity, 0, never)
    std::vector<std::uint32_t> sigma;
    std::vector<std::size_t> prefix_order;
    for (std::uint32_t a : linear_group) {
      if (a == 0 || (!sigma.empty() && linear_closure(sigma).count(a) != 0)) continue;
      sigma.push_back(a);
      prefix_order.push_back(linear_closure(sigma).size());
    }
    std::vector<char> first_shift(P, 1);  // t_1 least in its class t_1 + (v − A_1 v)
    for (pu_index t = 0; t < P && !sigma.empty(); ++t)
      for (pu_index v = 0; v < P && first_shift[t] != 0; ++v)
        if (group.add[static_cast<std::size_t>(group.add[static_cast<std::size_t>(t) * P + v]) * P +
                      group.negate[group.linear_of[sigma[0] * P + v]]] < t)
          first_shift[t] = 0;
    std::set<std::vector<std::uint64_t>> known;  // every conjugate of the groups found over L
    std::vector<std::uint64_t> chosen;
    auto assign = [&](auto& self, std::size_t i) -> void {
      if (i == sigma.size()) {
        std::vector<std::uint64_t> elements = group.closure(chosen, linear_group.size());
        std::sort(elements.begin(), elements.end());
        if (known.count(elements) != 0) return;
        group.add_conjugates(elements, normalizer, known);
        found.emplace_back(linear_group.size(), chosen);
        return;
      }
      for (pu_index t = 0; t < P; ++t) {
        if (i == 0 && first_shift[t] == 0) continue;
        chosen.push_back(group.encode(sigma[i], t));
        if (!group.closure(chosen, prefix_order[i]).empty()) self(self, i + 1);
        chosen.pop_back();
      }
    };
    assign(assign, 0);
  }
  return group.largest_first(found);
}

std::vector<torus_symmetry_group> mixed_groups(const torus::network& network) {
  const pu_index P = network.size();
  if (P > 256) throw std::invalid_argument("mixed_subgroups: at most 256 PUs, not " + std::to_string(P));
  encoded_automorphisms group(network);
  const std::size_t R = group.sigma.size();
  const std::size_t all = R * P;
  // G's translations H = G ∩ T are normal in G (τ_s conjugated by (σ, t) is τ_{A_σ s}), so every element (σ, t) of G
  // has A_σ H = H: G lies in N(H) = T ⋊ {σ : A_σ H = H}. Conjugating G conjugates H, so H may be taken as the
  // representative of its class (translation_subgroups). Then G = ⟨H, φ_1, …, φ_k⟩ with φ_i in N(H) outside T, and
  // every ⟨H, φ_1, …, φ_i⟩ lies in G and holds H, so its translations are exactly H: adding one such φ at a time to the
  // groups found, keeping those whose translations are still H, reaches every G. φ matters only up to H (φ and φ·h
  // generate the same group with H), so its shift is taken least in its coset. Two such groups are conjugate only by a
  // ψ that keeps H (both groups' translations are H), so their classes are told apart by conjugating with those alone
  // (and groups over different H never share a class, so `known` is kept per H); a group conjugate to one found has
  // conjugate extensions, so only new classes are extended.
  std::vector<std::pair<std::size_t, std::vector<std::uint64_t>>> found;  // (order, generators)
  std::vector<char> in_h(P, 0), in_group(all, 0);
  for (const auto& shifts : translation_subgroups(network)) {
    std::vector<std::uint64_t> base;
    for (const auto& shift : shifts) base.push_back(group.encode(torus_automorphism{group.sigma.front(), shift}));
    const std::vector<std::uint64_t> h = group.closure(base, P);
    std::fill(in_h.begin(), in_h.end(), 0);
    for (std::uint64_t e : h) in_h[static_cast<pu_index>(e % P)] = 1;
    std::vector<std::uint64_t> candidates;  // (σ, t): σ ≠ identity keeps H, t least in t + H
    std::vector<std::uint32_t> keeping{0};  // the relabellings σ with A_σ H = H
    for (std::uint32_t a = 1; a < R; ++a) {
      if (!std::all_of(h.begin(), h.end(), [&](std::uint64_t e) { return in_h[group.linear_of[a * P + e % P]] != 0; }))
        continue;
      keeping.push_back(a);
      for (pu_index t = 0; t < P; ++t)
        if (std::none_of(h.begin(), h.end(),
                         [&](std::uint64_t e) { return group.add[static_cast<std::size_t>(t) * P + e % P] < t; }))
          candidates.push_back(group.encode(a, t));
    }
    std::set<std::vector<std::uint64_t>>
        known;  // every conjugate of the groups found over H (among them every group met)
    std::vector<std::vector<std::uint64_t>> pending{base};
    while (!pending.empty()) {
      const std::vector<std::uint64_t> generators = std::move(pending.back());
      pending.pop_back();
      const std::vector<std::uint64_t> members = group.closure(generators, all);
      // marked in in_group: the group, then the coset φ·G of each φ taken (φ·g joined to the group gives what φ gives)
      std::vector<std::uint64_t> covered;
      for (std::uint64_t e : members) in_group[e] = 1, covered.push_back(e);
      for (std::uint64_t phi : candidates) {
        if (in_group[phi] != 0) continue;
        group.mark_coset(phi, members, in_group, covered);  // the coset φ·G, done
        std::vector<std::uint64_t> joined = generators;
        joined.push_back(phi);
        std::vector<std::uint64_t> elements = group.closure(joined, all);
        if (static_cast<std::size_t>(
                std::count_if(elements.begin(), elements.end(), [&](std::uint64_t e) { return e < P; })) != h.size())
          continue;
        std::sort(elements.begin(), elements.end());
        if (known.count(elements) != 0) continue;
        group.add_conjugates(elements, keeping, known);
        found.emplace_back(elements.size(), joined);
        pending.push_back(std::move(joined));
      }
      for (std::uint64_t e : covered) in_group[e] = 0;
    }
  }
  return group.largest_first(found);
}

}  // namespace detail

namespace {

std::vector<std::vector<torus_automorphism>> generators_of(std::vector<torus_symmetry_group> groups) {
  std::vector<std::vector<torus_automorphism>> out;
  for (torus_symmetry_group& g : groups) out.push_back(std::move(g.automorphisms));
  return out;
}

}  // namespace

std::vector<std::vector<torus_automorphism>> point_subgroups(const torus::network& network) {
  return generators_of(detail::point_groups(network));
}

std::vector<std::vector<torus_automorphism>> mixed_subgroups(const torus::network& network) {
  return generators_of(detail::mixed_groups(network));
}

}  // namespace dancecard::torus
