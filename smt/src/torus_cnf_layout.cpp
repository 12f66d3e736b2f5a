// The variables of the torus gossip CNF (Meyer and Sibeyn's time-independent model, one packet per PU): the choice
// of each PU's forwarding (pairing or general), shared along the orbits of a symmetry group, and the transfer
// variables x(t, link, u); lexicographic leaders for the symmetry breaking (Crawford et al., KR 1996).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "cnf_cardinality.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/core/torus/group_orbits.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "torus_cnf_detail.hpp"
#include "torus_search.hpp"

namespace dancecard::torus {

using namespace torus_cnf_detail;

namespace torus_cnf_detail {

torus_variables layout(const torus::network& network, torus_model model, std::uint64_t steps,
                       const std::vector<pu_index>& orbit) {
  torus_variables v{network,
                    model,
                    steps,
                    network.ports(),
                    static_cast<std::uint32_t>(port_pairings(network.dimension()).size()),
                    orbit,
                    {},
                    0,
                    0,
                    {},
                    {},
                    {},
                    {}};
  if (v.orbit.empty()) {
    v.orbit.resize(network.size());
    for (pu_index pu = 0; pu < network.size(); ++pu) v.orbit[pu] = pu;
  } else if (v.orbit.size() != network.size()) {
    throw std::invalid_argument("torus CNF: the orbit map has " + std::to_string(v.orbit.size()) + " entries for " +
                                std::to_string(network.size()) + " PUs");
  }
  v.tracked.assign(network.size(), -1);
  for (pu_index pu = 0; pu < network.size(); ++pu) {
    if (v.orbit[pu] > pu || v.orbit[v.orbit[pu]] != v.orbit[pu])
      throw std::invalid_argument("torus CNF: orbit[" + std::to_string(pu) + "] is not the least PU of its orbit");
    if (v.orbit[pu] == pu) v.tracked[pu] = static_cast<std::int64_t>(v.packets++);
  }
  // The one-packet-per-orbit goal and the symmetry break are sound for the orbits of a translation group only: the
  // map must be the cosets of S = orbit of PU 0 (every orbit closed under translation by S and of |S| PUs; then S is
  // closed under addition, a subgroup).
  std::vector<pu_index> group;
  for (pu_index pu = 0; pu < network.size(); ++pu)
    if (v.orbit[pu] == 0) group.push_back(pu);
  std::vector<std::uint64_t> orbit_size(network.size(), 0);
  for (pu_index pu = 0; pu < network.size(); ++pu) {
    ++orbit_size[v.orbit[pu]];
    const std::vector<std::uint32_t> c = network.coordinates(pu);
    for (pu_index g : group) {
      std::vector<std::uint32_t> moved = network.coordinates(g);
      for (std::uint32_t j = 0; j < network.dimension(); ++j) moved[j] = (moved[j] + c[j]) % network.dims()[j];
      if (v.orbit[network.index(moved)] != v.orbit[pu])
        throw std::invalid_argument("torus CNF: the orbit map is not that of a translation group (PU " +
                                    std::to_string(pu) + ")");
    }
  }
  for (pu_index pu = 0; pu < network.size(); ++pu)
    if (v.orbit[pu] == pu && orbit_size[pu] != group.size())
      throw std::invalid_argument("torus CNF: the orbit map is not that of a translation group (orbit of PU " +
                                  std::to_string(pu) + ")");
  v.choice_count = model == torus_model::pairing ? static_cast<int>(network.size() * v.pairings)
                                                 : static_cast<int>(network.size() * v.ports * v.ports);
  return v;
}

// image[c]: the index of σ·(pairing c) — the pairing that pairs σ(o) with σ(o') where pairing c pairs o with o'.
std::vector<std::uint32_t> pairing_image(const std::vector<std::vector<std::uint32_t>>& pairings,
                                         const std::vector<std::uint32_t>& sigma) {
  std::vector<std::uint32_t> image(pairings.size(), 0);
  for (std::uint32_t c = 0; c < pairings.size(); ++c) {
    std::vector<std::uint32_t> partner(sigma.size());
    for (std::uint32_t o = 0; o < sigma.size(); ++o) partner[sigma[o]] = sigma[pairings[c][o]];
    image[c] = static_cast<std::uint32_t>(std::find(pairings.begin(), pairings.end(), partner) - pairings.begin());
  }
  return image;
}

// The layout of torus_symmetric_cnf: the orbits of the group, each PU reading its orbit's least PU's variables through
// the port relabelling of a group element (orbits_of), x following the least PUs' packets.
torus_variables symmetric_layout(const torus::network& network, torus_model model, std::uint64_t steps,
                                 const detail::group_orbits& group) {
  torus_variables v = layout(network, model, steps);
  v.orbit = group.orbit;
  v.port_map = group.port_map;
  v.preimage = group.preimage;
  v.normalizer = group.normalizer;
  const auto pairings = port_pairings(network.dimension());
  v.pairing_map.resize(network.size());
  for (pu_index pu = 0; pu < network.size(); ++pu) v.pairing_map[pu] = pairing_image(pairings, v.port_map[pu]);
  v.tracked.assign(network.size(), -1);
  v.packets = 0;
  for (pu_index pu = 0; pu < network.size(); ++pu)
    if (v.orbit[pu] == pu) v.tracked[pu] = static_cast<std::int64_t>(v.packets++);
  return v;
}

// leader <=lex other, over entries each exactly one of its values (pairing: one pairing per PU; general outside
// base_only: one in-port per out-port). equal_k (a fresh variable, k >= 1) is implied by "the first k entries agree" —
// only that direction is needed, as equal_k is used only to impose the next comparison.
void add_lex_at_most(cnf_formula& f, const std::vector<std::vector<int>>& leader,
                     const std::vector<std::vector<int>>& other) {
  int equal = 0;  // 0: the constant true (k = 0)
  for (std::size_t k = 0; k < leader.size(); ++k) {
    const std::uint32_t values = static_cast<std::uint32_t>(leader[k].size());
    for (std::uint32_t a = 1; a < values; ++a)
      for (std::uint32_t b = 0; b < a; ++b) {
        std::vector<int> clause{-leader[k][a], -other[k][b]};
        if (equal != 0) clause.push_back(-equal);
        f.clauses.push_back(clause);
      }
    if (k + 1 == leader.size()) break;
    const int next = ++f.variables;
    for (std::uint32_t a = 0; a < values; ++a) {
      std::vector<int> clause{-leader[k][a], -other[k][a], next};
      if (equal != 0) clause.push_back(-equal);
      f.clauses.push_back(clause);
    }
    equal = next;
  }
}

// Symmetry breaking, a lex-leader constraint on PU 0's local view. A PU's rule is its pairing (pairing model) or the
// tuple (in-port forwarded by out-port 0, …, by out-port 2d − 1) (general model; exactly one each outside base_only).
// Its view is its rule — in the 2-D pairing model followed by the rules of the PUs behind its ports 0, …, 2d − 1.
// An automorphism φ = translation ∘ ρ, ρ fixing PU 0 with port relabelling σ, maps a table A to the table B with
// B's rule at φ(p) equal to σ·A_p (σ·A: out-port σ(o) forwards σ(i) where A's o forwards i; a pairing's pairs
// relabelled by σ). B completes gossip in as many steps (φ maps the deliveries of A to those of B). Among all
// (p, σ) pick one with σ·A_p lexicographically least and apply the automorphism that sends p to PU 0 by way of σ:
// then B_0 = σ·A_p, and every τ·B_q (τ any relabelling) is some (τσ)·A_p', so B_0 <=lex τ·B_q for every PU q and
// every τ. Requiring that for every q and τ keeps a solution whenever one exists. The same holds of views: the PU
// behind port k of φ(p) is φ of the PU behind port σ⁻¹(k) of p, so B's view at φ(p) — rules in port order — is A's
// view at p with every rule relabelled by σ and the neighbours taken in the order σ⁻¹(0), σ⁻¹(1), … Comparing a
// prefix of the rule only is weaker and as sound (B_0 <=lex τ·B_q implies the same of the first entries): with
// translations only, the general model compares out-port 0's in-port alone — the earlier break, kept as it was (bench/
// compares the two).
// Invariant tables (a group G): the automorphisms ψ to use are those of G's normalizer N (ψ G ψ⁻¹ = G), which carry a
// G-invariant table to a G-invariant one (if A = g·A for every g in G, then ψA = (ψgψ⁻¹)·ψA); an automorphism outside
// N carries it to a table invariant under another group, outside the question. The argument above within N: among the
// tables ψA, ψ in N, take B with the least view at PU 0; every ψB is among them, so B_0 <=lex (ψB)_0 = σ_ψ·B_ψ⁻¹(0) for
// every ψ in N. ψ and ψg (g in G) give the same table, so one ψ per coset ψG is enough, and G itself gives B_0 <=lex
// B_0. For a group of translations H (an orbit map) N holds every translation and the relabellings σ with A_σ·H = H:
// the comparisons are σ·A_p for those σ and p the orbits' least PUs (a translation by an element of H moves p within
// its orbit, and the rule there is the same); with translations only, σ the identity — a translated invariant table is
// invariant under the same group. For a group that relabels ports (torus_symmetric_cnf), orbits_of lists N's cosets.
// The full CNF where two or more sides are 4: their product is a hypercube, and the bit permutations of
// hypercube_stabilizer are automorphisms fixing PU 0 whose port relabelling differs from PU to PU. The argument holds
// for any automorphism φ with a port relabelling σ_x at each PU x (B's rule at φ(x) σ_x·A_x): with φ = s ∘ (the
// translation taking q to 0), s fixing PU 0, (φB)'s rule at PU 0 is σ·B_q for σ = s's relabelling at PU 0, and the
// PU behind its port k is φ of n = neighbor(q, σ⁻¹(k)), with rule σ'·B_n, σ' s's relabelling at neighbor(0, σ⁻¹(k)) —
// a translation keeps ports. So each s gives comparisons (q, σ, the σ' behind each port); they are added for s = b ∘ ρ,
// b a bit permutation and ρ a signed permutation, where the relabellings at PU 0 and behind its ports are new.
void add_symmetry_break(cnf_formula& f, const torus::network& network, const torus_variables& v,
                        const std::vector<std::vector<std::uint32_t>>& pairings, bool translations_only,
                        bool line_swaps, bool hypercube) {
  const pu_index P = network.size();
  const std::uint32_t ports = v.ports;
  const bool point_group = !v.port_map.empty();
  // the comparisons (σ, p): B_0 <=lex σ·B_p; in `around`, where the neighbours' relabellings differ from σ, the
  // relabelling of the rule behind port k (in the order compared)
  struct comparison {
    std::vector<std::uint32_t> sigma;
    pu_index pu;
    std::vector<std::vector<std::uint32_t>> around;
  };
  std::vector<comparison> views;
  std::size_t relabellings_used = 0, hypercube_relabellings = 0;
  // With neighbours in the 2-D pairing model only, where it was measured to pay (4 x 5 at 6 steps: 44.8 s -> 3.1 s,
  // 4 x 6 at 7: 46.7 s -> 5.7 s, 3 x 8 at 7: 13.5 s -> 2.3 s); in the general model and in 3-D it was slower (4 x 5
  // general at 5: 5.0 s -> 7.5 s; 2 x 2 x 4 pairing at 4: 0.9 s -> 1.8 s; 2 x 2 x 5 pairing at 5: 367 s -> 454 s).
  // docs/torus-limits.md has the table.
  const bool neighbours = !translations_only && v.model == torus_model::pairing && network.dimension() == 2;
  auto inverse_of = [&](const std::vector<std::uint32_t>& sigma) {
    std::vector<std::uint32_t> inverse(ports);
    for (std::uint32_t o = 0; o < ports; ++o) inverse[sigma[o]] = o;
    return inverse;
  };
  if (point_group) {
    for (const auto& [sigma, pu] : v.normalizer) views.push_back({sigma, pu, {}});
  } else {
    std::vector<std::vector<std::uint32_t>> relabellings = detail::port_relabellings(network);
    if (translations_only) relabellings.resize(1);
    std::vector<pu_index> subgroup;  // H: the orbit of PU 0 (just PU 0 without a group)
    for (pu_index pu = 0; pu < P; ++pu)
      if (v.orbit[pu] == 0) subgroup.push_back(pu);
    for (const std::vector<std::uint32_t>& sigma : relabellings) {
      if (!std::all_of(subgroup.begin(), subgroup.end(),
                       [&](pu_index h) { return v.orbit[detail::linear_image(network, sigma, h)] == 0; }))
        continue;
      ++relabellings_used;
      const bool identity = sigma == relabellings.front();
      for (pu_index pu = 0; pu < P; ++pu)
        if (v.orbit[pu] == pu && !(pu == 0 && identity)) views.push_back({sigma, pu, {}});
    }
    if (hypercube && !translations_only && v.packets == P) {
      // the hypercube's bit permutations b after the signed permutations ρ: s = b ∘ ρ relabels the ports of x by
      // b's relabelling at ρ(x) after σ_ρ
      std::set<std::vector<std::vector<std::uint32_t>>> seen;  // σ, then the relabellings behind ports 0 … 2d − 1
      auto key_of = [&](const std::vector<std::uint32_t>& sigma,
                        const std::vector<std::vector<std::uint32_t>>& around) {
        std::vector<std::vector<std::uint32_t>> key{sigma};
        if (neighbours) key.insert(key.end(), around.begin(), around.end());
        return key;
      };
      for (const std::vector<std::uint32_t>& rho : relabellings)
        seen.insert(key_of(rho, std::vector<std::vector<std::uint32_t>>(ports, rho)));
      for (const detail::local_automorphism& b : detail::hypercube_stabilizer(network))
        for (const std::vector<std::uint32_t>& rho : relabellings) {
          auto at = [&](pu_index x) {  // s's relabelling at x
            const std::vector<std::uint32_t>& inner = b.ports[detail::linear_image(network, rho, x)];
            std::vector<std::uint32_t> sigma(ports);
            for (std::uint32_t o = 0; o < ports; ++o) sigma[o] = inner[rho[o]];
            return sigma;
          };
          const std::vector<std::uint32_t> sigma = at(0);
          const std::vector<std::uint32_t> inverse = inverse_of(sigma);
          std::vector<std::vector<std::uint32_t>> around(ports);
          for (std::uint32_t k = 0; k < ports; ++k) around[k] = at(network.neighbor(0, inverse[k]));
          if (!seen.insert(key_of(sigma, around)).second) continue;
          ++hypercube_relabellings;
          for (pu_index pu = 0; pu < P; ++pu)
            views.push_back({sigma, pu, neighbours ? around : std::vector<std::vector<std::uint32_t>>{}});
        }
    }
  }
  // A PU's view under σ: its σ-relabelled rule, then (with neighbours) the σ-relabelled rules of the PUs behind its
  // ports σ⁻¹(0), …, σ⁻¹(2d − 1) (the hypercube's: each by its own relabelling). Each entry is a one-hot group of
  // literals, value j true when the entry is j.
  if (views.empty()) return;
  const std::string whose =
      point_group
          ? std::to_string(views.size()) + " automorphisms normalizing the group (one per coset but the group's own)"
      : translations_only
          ? std::string("no automorphism but translations") +
                (v.model == torus_model::general ? " (general model: out-port 0 only)" : "")
          : std::to_string(relabellings_used) + " port relabellings (reflections, permutations of equal sizes" +
                (v.packets != P ? ", those keeping the group of translations" : "") + ") after translations" +
                (hypercube_relabellings > 0
                     ? ", and " + std::to_string(hypercube_relabellings) +
                           " more of the automorphisms fixing PU 0 that permute the hypercube's bits (sides of 4)"
                     : std::string());
  f.comments.push_back("symmetry break: PU 0's rule (" +
                       std::string(v.model == torus_model::pairing ? "its pairing's index"
                                                                   : "the in-ports its out-ports forward, as a tuple") +
                       (neighbours ? ", then its 4 neighbours' rules in port order" : "") +
                       ") is lexicographically at most its image under " + whose +
                       ((v.model == torus_model::general && !translations_only) || neighbours
                            ? "; variables after the x variables: 'equal so far' flags of the comparisons"
                            : ""));
  using entry = std::vector<int>;
  const std::uint32_t compared = translations_only ? 1 : ports;  // general model: how many out-ports of a rule
  auto rule_entries = [&](pu_index q, const std::vector<std::uint32_t>& inverse,
                          const std::vector<std::uint32_t>& image, std::vector<entry>& out) {
    if (v.model == torus_model::pairing) {
      entry e(v.pairings);
      for (std::uint32_t c = 0; c < v.pairings; ++c) e[image[c]] = v.choice(q, c);
      out.push_back(std::move(e));
      return;
    }
    for (std::uint32_t o = 0; o < compared; ++o) {
      entry e(ports);
      for (std::uint32_t in = 0; in < ports; ++in) e[in] = v.sel(q, inverse[o], inverse[in]);
      out.push_back(std::move(e));
    }
  };
  std::vector<entry> leader;  // PU 0's view under the identity
  std::vector<std::uint32_t> identity_map(ports), identity_image(v.pairings);
  for (std::uint32_t o = 0; o < ports; ++o) identity_map[o] = o;
  for (std::uint32_t c = 0; c < v.pairings; ++c) identity_image[c] = c;
  rule_entries(0, identity_map, identity_image, leader);
  if (neighbours)
    for (std::uint32_t k = 0; k < ports; ++k)
      rule_entries(network.neighbor(0, k), identity_map, identity_image, leader);
  for (const auto& [sigma, pu, around] : views) {
    const std::vector<std::uint32_t> inverse = inverse_of(sigma);
    const std::vector<std::uint32_t> image =
        pairing_image(pairings, sigma);  // pairing model: the index of σ·(pairing c)
    std::vector<entry> other;
    rule_entries(pu, inverse, image, other);
    if (neighbours)
      for (std::uint32_t k = 0; k < ports; ++k) {
        if (around.empty())
          rule_entries(network.neighbor(pu, inverse[k]), inverse, image, other);
        else
          rule_entries(network.neighbor(pu, inverse[k]), inverse_of(around[k]), pairing_image(pairings, around[k]),
                       other);
      }
    add_lex_at_most(f, leader, other);
  }
  // The line swaps. Where a side has length 2, the two links of a line along it (±x_j at both of its PUs) join the
  // same two PUs, and swapping the labels ±x_j at those two PUs alone is a symmetry ψ of the question: ψ exchanges the
  // two links in each direction and fixes every other link, and the table B' with the rules of the line's PUs u, v
  // relabelled by σ_j (±x_j exchanged) carries on ψ(L) in step t what B carries on L (step 1 sends the own packet on
  // every port; from step 2 on, at u and v, B' forwards σ_j(i) to σ_j(o) where B forwards i to o, and the in-port of
  // ψ(L) is σ_j of L's), so it completes in as many steps. These swaps commute; with s sides of length 2 they form a
  // group of 2^(s·P/2) on top of the automorphisms (2^24 on 2 x 2 x 6). The break: for each line not through PU 0, u <
  // v its PUs, (rule_u, rule_v) <=lex (σ_j·rule_u, σ_j·rule_v) — the lex-leader constraint of that one swap under the
  // order "PUs by index, then a rule's entries", which the least table of a table's orbit under the swaps of those
  // lines meets for every swap. Jointly with the break above: take B meeting it (B_0 <=lex τ·B_q for every q and τ); a
  // swap leaves B_0 alone and only relabels rules by σ_j, which is among the relabellings τ (the reflection of axis j
  // fixes PU 0), so the set {τ·B_q} is unchanged and B_0 stays least; so the least table of B's orbit under these swaps
  // meets both breaks. Only with rules as views (with neighbourhoods a swap changes the views of other PUs' neighbours)
  // and the full group (a translations-only break has no σ_j).
  if (translations_only || neighbours || !line_swaps || v.packets != P || point_group) return;
  std::uint64_t lines = 0;
  for (std::uint32_t j = 0; j < network.dimension(); ++j) {
    if (network.dims()[j] != 2) continue;
    std::vector<std::uint32_t> sigma(ports);
    for (std::uint32_t o = 0; o < ports; ++o) sigma[o] = o / 2 == j ? torus::network::opposite(o) : o;
    const std::vector<std::uint32_t> image = pairing_image(pairings, sigma);
    for (pu_index u = 1; u < P; ++u) {
      if (network.coordinates(u)[j] != 0) continue;
      const pu_index w = network.neighbor(u, 2 * j);
      std::vector<entry> plain, swapped;
      for (pu_index q : {std::min(u, w), std::max(u, w)}) {
        rule_entries(q, identity_map, identity_image, plain);
        rule_entries(q, sigma, image, swapped);  // σ_j is its own inverse
      }
      add_lex_at_most(f, plain, swapped);
      ++lines;
    }
  }
  if (lines > 0)
    f.comments.push_back("symmetry break: line swaps on the sides of length 2 — for each of " + std::to_string(lines) +
                         " lines not through PU 0, its two PUs' rules are lexicographically at most the same with +x_j "
                         "and -x_j exchanged ('equal so far' flags after the x variables)");
}
}  // namespace torus_cnf_detail

int torus_choice_variable(const torus::network& network, torus_model model, pu_index pu, std::uint32_t c_or_out,
                          std::uint32_t in_port) {
  const torus_variables v = layout(network, model, 1);
  return model == torus_model::pairing ? v.choice(pu, c_or_out) : v.sel(pu, c_or_out, in_port);
}

}  // namespace dancecard::torus
