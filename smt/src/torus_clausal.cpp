// CNF encoding of time-independent torus gossip (pairing and general models), solved by CaDiCaL; unsat answers are
// certified by checking the DRAT proof with checkers/drat_check, sat answers by simulating the decoded table.
#include <algorithm>
#include <functional>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "cnf_cardinality.hpp"
#include "torus_groups.hpp"
#include "torus_search.hpp"

namespace dancecard {

std::string_view to_string(torus_model model) { return model == torus_model::pairing ? "pairing" : "general"; }

namespace {

struct torus_variables {
  const torus& net;
  torus_model model;
  std::uint64_t steps;
  std::uint32_t ports, pairings;
  std::vector<pu_index> orbit;  // orbit[pu]: the PU whose choice pu shares (itself without a group)
  std::vector<std::int64_t> tracked;  // tracked[u]: the index of u's packet among the x variables, or -1
  std::uint64_t packets = 0;  // how many packets the x variables follow
  int choice_count = 0;
  // With a group that relabels ports (torus_symmetric_cnf; empty otherwise): port o of pu is port port_map[pu][o] of
  // orbit[pu], and pairing c of pu is pairing pairing_map[pu][c] of orbit[pu].
  std::vector<std::vector<std::uint32_t>> port_map, pairing_map;
  // With such a group: preimage[pu][a] = g⁻¹(a) for the element g that port_map[pu] describes (orbit[pu] to pu).
  std::vector<std::vector<pu_index>> preimage;
  // With such a group: its normalizer, one element ψ per coset other than the group, as (σ_ψ, ψ⁻¹(0)) (orbits_of).
  std::vector<std::pair<std::vector<std::uint32_t>, pu_index>> normalizer;
  // choice(pu, c) (pairing) or sel(pu, out, in) (general), 1-based; PUs of one orbit share their variables
  int choice(pu_index pu, std::uint32_t c) const {
    return static_cast<int>(orbit[pu] * pairings + (pairing_map.empty() ? c : pairing_map[pu][c]) + 1);
  }
  int sel(pu_index pu, std::uint32_t out, std::uint32_t in) const {
    if (!port_map.empty()) out = port_map[pu][out], in = port_map[pu][in];
    return static_cast<int>((orbit[pu] * ports + out) * ports + in + 1);
  }
  // x(t, link, u) for t >= 2, link = pu · ports + out, u a tracked packet
  int x(std::uint64_t t, std::uint64_t link, pu_index u) const {
    return choice_count + static_cast<int>(((t - 2) * net.size() * ports + link) * packets + static_cast<std::uint64_t>(tracked[u]) + 1);
  }
};

torus_variables layout(const torus& network, torus_model model, std::uint64_t steps, const std::vector<pu_index>& orbit = {}) {
  torus_variables v{network, model, steps, network.ports(), static_cast<std::uint32_t>(port_pairings(network.dimension()).size()), orbit, {}, 0, 0, {}, {}, {}, {}};
  if (v.orbit.empty()) {
    v.orbit.resize(network.size());
    for (pu_index pu = 0; pu < network.size(); ++pu) v.orbit[pu] = pu;
  } else if (v.orbit.size() != network.size()) {
    throw std::invalid_argument("torus CNF: the orbit map has " + std::to_string(v.orbit.size()) + " entries for " + std::to_string(network.size()) + " PUs");
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
        throw std::invalid_argument("torus CNF: the orbit map is not that of a translation group (PU " + std::to_string(pu) + ")");
    }
  }
  for (pu_index pu = 0; pu < network.size(); ++pu)
    if (v.orbit[pu] == pu && orbit_size[pu] != group.size())
      throw std::invalid_argument("torus CNF: the orbit map is not that of a translation group (orbit of PU " + std::to_string(pu) + ")");
  v.choice_count = model == torus_model::pairing ? static_cast<int>(network.size() * v.pairings)
                                                 : static_cast<int>(network.size() * v.ports * v.ports);
  return v;
}

// image[c]: the index of σ·(pairing c) — the pairing that pairs σ(o) with σ(o') where pairing c pairs o with o'.
std::vector<std::uint32_t> pairing_image(const std::vector<std::vector<std::uint32_t>>& pairings, const std::vector<std::uint32_t>& sigma) {
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
torus_variables symmetric_layout(const torus& network, torus_model model, std::uint64_t steps, const detail::group_orbits& group) {
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
void add_lex_at_most(cnf_formula& f, const std::vector<std::vector<int>>& leader, const std::vector<std::vector<int>>& other) {
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
// every ψ in N. ψ and ψg (g in G) give the same table, so one ψ per coset ψG is enough, and G itself gives B_0 <=lex B_0.
// For a group of translations H (an orbit map) N holds every translation and the relabellings σ with A_σ·H = H: the
// comparisons are σ·A_p for those σ and p the orbits' least PUs (a translation by an element of H moves p within its
// orbit, and the rule there is the same); with translations only, σ the identity — a translated invariant table is
// invariant under the same group. For a group that relabels ports (torus_symmetric_cnf), orbits_of lists N's cosets.
// The full CNF where two or more sides are 4: their product is a hypercube, and the bit permutations of
// hypercube_stabilizer are automorphisms fixing PU 0 whose port relabelling differs from PU to PU. The argument holds
// for any automorphism φ with a port relabelling σ_x at each PU x (B's rule at φ(x) σ_x·A_x): with φ = s ∘ (the
// translation taking q to 0), s fixing PU 0, (φB)'s rule at PU 0 is σ·B_q for σ = s's relabelling at PU 0, and the
// PU behind its port k is φ of n = neighbor(q, σ⁻¹(k)), with rule σ'·B_n, σ' s's relabelling at neighbor(0, σ⁻¹(k)) —
// a translation keeps ports. So each s gives comparisons (q, σ, the σ' behind each port); they are added for s = b ∘ ρ,
// b a bit permutation and ρ a signed permutation, where the relabellings at PU 0 and behind its ports are new.
void add_symmetry_break(cnf_formula& f, const torus& network, const torus_variables& v, const std::vector<std::vector<std::uint32_t>>& pairings,
                        bool translations_only, bool line_swaps, bool hypercube) {
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
  // general at 5: 5.0 s -> 7.5 s; 2 x 2 x 4 pairing at 4: 0.9 s -> 1.8 s; 2 x 2 x 5 pairing at 5: 367 s -> 454 s). docs/torus-limits.md has the table.
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
      if (!std::all_of(subgroup.begin(), subgroup.end(), [&](pu_index h) { return v.orbit[detail::linear_image(network, sigma, h)] == 0; })) continue;
      ++relabellings_used;
      const bool identity = sigma == relabellings.front();
      for (pu_index pu = 0; pu < P; ++pu)
        if (v.orbit[pu] == pu && !(pu == 0 && identity)) views.push_back({sigma, pu, {}});
    }
    if (hypercube && !translations_only && v.packets == P) {
      // the hypercube's bit permutations b after the signed permutations ρ: s = b ∘ ρ relabels the ports of x by
      // b's relabelling at ρ(x) after σ_ρ
      std::set<std::vector<std::vector<std::uint32_t>>> seen;  // σ, then the relabellings behind ports 0 … 2d − 1
      auto key_of = [&](const std::vector<std::uint32_t>& sigma, const std::vector<std::vector<std::uint32_t>>& around) {
        std::vector<std::vector<std::uint32_t>> key{sigma};
        if (neighbours) key.insert(key.end(), around.begin(), around.end());
        return key;
      };
      for (const std::vector<std::uint32_t>& rho : relabellings) seen.insert(key_of(rho, std::vector<std::vector<std::uint32_t>>(ports, rho)));
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
          for (pu_index pu = 0; pu < P; ++pu) views.push_back({sigma, pu, neighbours ? around : std::vector<std::vector<std::uint32_t>>{}});
        }
    }
  }
  // A PU's view under σ: its σ-relabelled rule, then (with neighbours) the σ-relabelled rules of the PUs behind its
  // ports σ⁻¹(0), …, σ⁻¹(2d − 1) (the hypercube's: each by its own relabelling). Each entry is a one-hot group of
  // literals, value j true when the entry is j.
  if (views.empty()) return;
  const std::string whose = point_group ? std::to_string(views.size()) + " automorphisms normalizing the group (one per coset but the group's own)"
                            : translations_only ? std::string("no automorphism but translations") + (v.model == torus_model::general ? " (general model: out-port 0 only)" : "")
                            : std::to_string(relabellings_used) + " port relabellings (reflections, permutations of equal sizes" +
                                  (v.packets != P ? ", those keeping the group of translations" : "") + ") after translations" +
                                  (hypercube_relabellings > 0 ? ", and " + std::to_string(hypercube_relabellings) +
                                                                    " more of the automorphisms fixing PU 0 that permute the hypercube's bits (sides of 4)"
                                                              : std::string());
  f.comments.push_back("symmetry break: PU 0's rule (" + std::string(v.model == torus_model::pairing ? "its pairing's index" : "the in-ports its out-ports forward, as a tuple") +
                       (neighbours ? ", then its 4 neighbours' rules in port order" : "") + ") is lexicographically at most its image under " + whose +
                       ((v.model == torus_model::general && !translations_only) || neighbours ? "; variables after the x variables: 'equal so far' flags of the comparisons" : ""));
  using entry = std::vector<int>;
  const std::uint32_t compared = translations_only ? 1 : ports;  // general model: how many out-ports of a rule
  auto rule_entries = [&](pu_index q, const std::vector<std::uint32_t>& inverse, const std::vector<std::uint32_t>& image, std::vector<entry>& out) {
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
    for (std::uint32_t k = 0; k < ports; ++k) rule_entries(network.neighbor(0, k), identity_map, identity_image, leader);
  for (const auto& [sigma, pu, around] : views) {
    const std::vector<std::uint32_t> inverse = inverse_of(sigma);
    const std::vector<std::uint32_t> image = pairing_image(pairings, sigma);  // pairing model: the index of σ·(pairing c)
    std::vector<entry> other;
    rule_entries(pu, inverse, image, other);
    if (neighbours)
      for (std::uint32_t k = 0; k < ports; ++k) {
        if (around.empty()) rule_entries(network.neighbor(pu, inverse[k]), inverse, image, other);
        else rule_entries(network.neighbor(pu, inverse[k]), inverse_of(around[k]), pairing_image(pairings, around[k]), other);
      }
    add_lex_at_most(f, leader, other);
  }
  // The line swaps. Where a side has length 2, the two links of a line along it (±x_j at both of its PUs) join the
  // same two PUs, and swapping the labels ±x_j at those two PUs alone is a symmetry ψ of the question: ψ exchanges the
  // two links in each direction and fixes every other link, and the table B' with the rules of the line's PUs u, v
  // relabelled by σ_j (±x_j exchanged) carries on ψ(L) in step t what B carries on L (step 1 sends the own packet on
  // every port; from step 2 on, at u and v, B' forwards σ_j(i) to σ_j(o) where B forwards i to o, and the in-port of
  // ψ(L) is σ_j of L's), so it completes in as many steps. These swaps commute; with s sides of length 2 they form a
  // group of 2^(s·P/2) on top of the automorphisms (2^24 on 2 x 2 x 6). The break: for each line not through PU 0, u < v
  // its PUs, (rule_u, rule_v) <=lex (σ_j·rule_u, σ_j·rule_v) — the lex-leader constraint of that one swap under the order
  // "PUs by index, then a rule's entries", which the least table of a table's orbit under the swaps of those lines
  // meets for every swap. Jointly with the break above: take B meeting it (B_0 <=lex τ·B_q for every q and τ); a swap
  // leaves B_0 alone and only relabels rules by σ_j, which is among the relabellings τ (the reflection of axis j fixes
  // PU 0), so the set {τ·B_q} is unchanged and B_0 stays least; so the least table of B's orbit under these swaps
  // meets both breaks. Only with rules as views (with neighbourhoods a swap changes the views of other PUs' neighbours)
  // and the full group (a translations-only break has no σ_j).
  if (translations_only || neighbours || !line_swaps || v.packets != P || point_group) return;
  std::uint64_t lines = 0;
  for (std::uint32_t j = 0; j < network.dimension(); ++j) {
    if (network.dims()[j] != 2) continue;
    std::vector<std::uint32_t> sigma(ports);
    for (std::uint32_t o = 0; o < ports; ++o) sigma[o] = o / 2 == j ? torus::opposite(o) : o;
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
  if (lines > 0) f.comments.push_back("symmetry break: line swaps on the sides of length 2 — for each of " + std::to_string(lines) +
                                      " lines not through PU 0, its two PUs' rules are lexicographically at most the same with +x_j and -x_j exchanged ('equal so far' flags after the x variables)");
}
}  // namespace

int torus_choice_variable(const torus& network, torus_model model, pu_index pu, std::uint32_t c_or_out, std::uint32_t in_port) {
  const torus_variables v = layout(network, model, 1);
  return model == torus_model::pairing ? v.choice(pu, c_or_out) : v.sel(pu, c_or_out, in_port);
}

namespace {

// The words by which the empty clause below the parity bound is told apart in the CNF's comments (check_unsat).
constexpr std::string_view below_parity_bound = "below the parity bound";

using detail::at_most;  // Sinz's sequential counter (cnf_cardinality.hpp)

// Implied: the arrival count. A PU w has 2d in-slots per step (in-port p in step t), 2d·T in all, and must learn
// P − 1 packets, at most one per slot; so at most 2d·T − (P − 1) slots may be wasted — carry nothing, w's own packet,
// or a packet w has already had. Step 1's slots carry the neighbours' packets (N1, |N1| <= 2d distinct); the count
// is kept over the slots of steps 2 … T: with waste(w, t, p) a fresh variable per slot,
//   (a) waste ∨ the slot carries some packet outside {w} ∪ N1,
//   (b) the slot carries a packet of {w} ∪ N1 → waste,
//   (c) no packet u is carried by two slots that are both not waste (a ladder per (w, u): seen_k = "u in a
//       non-waste slot among the first k", so a later non-waste slot with u contradicts it),
//   (d) at most s(w) = 2d·(T − 1) − (P − 1 − |N1|) wastes (Sinz's sequential counter; s < 0: the empty clause).
// Sound: take any table completing within T steps (after the general model's implied forwarding and the symmetry
// break, which both keep a completing table) and the true transfers as the x variables; for every packet u outside
// {w} ∪ N1 mark the earliest slot of steps >= 2 that brings it to w (the least in-port among ties) as not waste, every
// other slot as waste. (a) and (b) hold since a link carries one packet per step, (c) since each u has one marked
// slot, and (d) since the table brings all P − 1 − |N1| such packets, so exactly s(w) slots are waste; the ladder and
// counter variables take their defining values. The x true in a model are real transfers whatever the waste
// variables say, so exactness is kept.
// Invariant tables (x follows only the packets of the orbits' least PUs): for u = g(r), r = u's orbit's least PU and g
// a group element, an invariant table carries u on a link L exactly when it carries r on g⁻¹(L) — for a translation
// the link of the same port at τ⁻¹ of L's tail; for an automorphism with port relabelling σ, port σ⁻¹(o) at
// g⁻¹(tail) (torus_symmetric_cnf) — so w's slot brings u exactly when an x variable says so. The count is then kept
// at the orbits' least PUs only (an element maps a PU's slots and packets one to one onto its image's; a subset of
// implied constraints is as sound).
// The parity refinement of (d). A packet moves one hop per step, so u can come to w in step t only if some walk of
// exactly t hops leads from u to w (on a torus whose sides are all even, only when t ≡ dist(u, w) mod 2). For each
// step parity c, let F_c be the packets outside {w} ∪ N1 that some walk of t hops brings to w for some t in 2 … T,
// and every such t has parity c: in the table above each of them is marked in a slot of a step of parity c, so at
// most s_c(w) = 2d·|{t in 2 … T : t ≡ c}| − |F_c| of those slots are waste (same proof: the marked slots are not
// waste). A second counter per class is kept when s_c < s (then at least one class is tighter than the whole); when
// s_even + s_odd <= s (all sides even: the classes split the packets, and the sum is s), the counter over all slots
// is implied by the two and left out. s_c < 0: the empty clause.
void add_arrival_count(cnf_formula& f, const torus_variables& v, bool parity_classes) {
  const torus& network = v.net;
  const pu_index P = network.size();
  const std::uint32_t ports = v.ports;
  if (v.steps < 2) return;  // the goal alone is then unsatisfiable or trivially met
  f.comments.push_back("implied arrival count: per PU, fresh 'waste' variables for the in-slots of steps 2..T, ladders over each packet's "
                       "non-waste slots, and a sequential counter allowing 2d(T-1) - (P - 1 - |step-1 neighbours|) wastes");
  const std::uint64_t m = (v.steps - 1) * ports;  // slots of steps 2 … T
  // The counts are the same at every PU (a translation maps PU 0 to it, with its neighbours, walks and slots), so they
  // are taken once, at PU 0, from core's arrival_parity_count (the walks of 2 … T hops that lead to it): s = slots −
  // fresh packets; s_c = the slots of steps of parity c, less the packets only they bring.
  const parity_count parity = arrival_parity_count(network, 0, v.steps);
  const std::int64_t allowed = static_cast<std::int64_t>(m) - static_cast<std::int64_t>(parity.fresh);
  if (allowed < 0) {  // fewer slots than packets to learn: no table completes (the counting bound)
    f.comments.push_back("every PU has fewer in-slots than packets to learn: the empty clause (below the counting bound, "
                         "so the DRAT proof certifies nothing beyond that count)");
    f.clauses.push_back({});
    return;
  }
  std::array<std::int64_t, 2> class_allowed{};
  for (int c = 0; c < 2; ++c) class_allowed[c] = static_cast<std::int64_t>(parity.slots[c]) - static_cast<std::int64_t>(parity.forced[c]);
  if (parity_classes && (class_allowed[0] < 0 || class_allowed[1] < 0)) {
    f.comments.push_back("every PU has fewer in-slots in the steps of one parity than packets only those steps can bring: the empty clause (" +
                         std::string(below_parity_bound) + ", so the DRAT proof certifies nothing beyond that count)");
    f.clauses.push_back({});
    return;
  }
  const bool by_class = parity_classes && (class_allowed[0] < allowed || class_allowed[1] < allowed);
  std::uint64_t parity_counted = 0;  // PUs with a counter per step parity
  for (pu_index w = 0; w < P; ++w) {
    if (v.orbit[w] != w) continue;
    std::vector<char> early(P, 0);  // {w} ∪ N1
    early[w] = 1;
    for (std::uint32_t p = 0; p < ports; ++p) early[network.neighbor(w, p)] = 1;
    // slot k = (t − 2)·ports + p: the link L from the PU behind port p of w. source[u·ports + p]: the link g⁻¹(L),
    // the same in every step, on which orbit[u] travels when u travels on L
    const std::vector<std::uint32_t> at = network.coordinates(w);
    std::vector<std::uint64_t> source(static_cast<std::uint64_t>(P) * ports);
    for (pu_index u = 0; u < P; ++u) {
      if (v.preimage.empty()) {  // a translation τ, τ(orbit[u]) = u: g⁻¹(L) is the same port's link into τ⁻¹(w)
        const std::vector<std::uint32_t> cu = network.coordinates(u), cr = network.coordinates(v.orbit[u]);
        std::vector<std::uint32_t> moved(network.dimension());
        for (std::uint32_t j = 0; j < network.dimension(); ++j) moved[j] = (at[j] + cr[j] + network.dims()[j] - cu[j]) % network.dims()[j];
        const pu_index back = network.index(moved);
        for (std::uint32_t p = 0; p < ports; ++p) source[u * ports + p] = static_cast<std::uint64_t>(network.neighbor(back, p)) * ports + torus::opposite(p);
      } else {
        for (std::uint32_t p = 0; p < ports; ++p)
          source[u * ports + p] = static_cast<std::uint64_t>(v.preimage[u][network.neighbor(w, p)]) * ports + v.port_map[u][torus::opposite(p)];
      }
    }
    auto carries = [&](std::uint64_t k, pu_index u) { return v.x(2 + k / ports, source[u * ports + k % ports], v.orbit[u]); };
    const int waste0 = f.variables + 1;
    f.variables += static_cast<int>(m);
    for (std::uint64_t k = 0; k < m; ++k) {
      const int waste = waste0 + static_cast<int>(k);
      std::vector<int> some{waste};
      for (pu_index u = 0; u < P; ++u) {
        if (early[u]) f.clauses.push_back({-carries(k, u), waste});
        else some.push_back(carries(k, u));
      }
      f.clauses.push_back(some);
    }
    for (pu_index u = 0; u < P; ++u) {
      if (early[u]) continue;
      int seen = 0;  // 0: none yet
      for (std::uint64_t k = 0; k < m; ++k) {
        const int waste = waste0 + static_cast<int>(k);
        if (seen != 0) f.clauses.push_back({-carries(k, u), waste, -seen});
        if (k + 1 == m) break;
        const int next = ++f.variables;
        f.clauses.push_back({-carries(k, u), waste, next});
        if (seen != 0) f.clauses.push_back({-seen, next});
        seen = next;
      }
    }
    if (by_class) {
      ++parity_counted;
      std::vector<std::vector<int>> class_flags(2);  // the waste flags of the slots of steps of parity c (slot k: step 2 + k / ports)
      for (std::uint64_t k = 0; k < m; ++k) class_flags[(2 + k / ports) % 2].push_back(waste0 + static_cast<int>(k));
      for (int c = 0; c < 2; ++c)
        if (class_allowed[c] < allowed) at_most(f, class_flags[c], static_cast<std::uint64_t>(class_allowed[c]));
    }
    if (by_class && class_allowed[0] + class_allowed[1] <= allowed) continue;
    std::vector<int> all(m);
    for (std::uint64_t k = 0; k < m; ++k) all[k] = waste0 + static_cast<int>(k);
    at_most(f, all, static_cast<std::uint64_t>(allowed));
  }
  if (parity_counted != 0)
    f.comments.push_back("implied parity classes: at " + std::to_string(parity_counted) +
                         " PUs a counter per step parity (packets that only walks of even, or only of odd, length bring)");
}

// Implied: no stream comes back soon to the PU that sent it. The rules make each link's stream a backward walk: in
// step t a link L carries what the link g(L) — the in-link its out-port forwards — carried in step t − 1. Take PU w and
// links f_0 = (w → x_1), f_1, …, f_j entering w (each leaving the PU the one before enters) with f_i = g(f_{i+1}): in
// each step t = j + 1 … T, f_j brings w what f_0 carried in step t − j, which w sent, so held before — its own packet
// in step j + 1, then packets it had had. None of those T − j slots is the earliest arrival of a packet outside
// {w} ∪ N1. A table completing within T steps brings w each of its P − 1 − |N1| such packets in an earliest slot, so at
// most s = 2d·(T − 1) − (P − 1 − |N1|) of w's slots of steps 2 … T are not earliest (the count above): T − j <= s,
// and no such walk of j <= T − 1 − s forwards exists in such a table. The clauses: for each such walk, not every one of
// its j forwards chosen — j = 1 is a U-turn (out-port o of x_1 forwards its in-port o, general model), j = 2 on a side
// of 3 two PUs of the ring going straight, j = 3 a square. A walk that came back to w is not extended (the longer
// walk's clause would hold the shorter one's). In the pairing model the forward "out-port o takes in-port i" is the
// pairings that pair o with i (one in 2-D, three in 3-D); since a PU has exactly one pairing, its negation is "one of
// the other pairings", so each walk is still one clause. s is the same at every PU (a translation maps PU 0's walks
// and slots to any PU's). Over invariant tables the clauses go through the orbit's variables (an invariant table is a
// table, so they stay implied).
void add_return_exclusion(cnf_formula& f, const torus_variables& v, const std::vector<std::vector<std::uint32_t>>& pairings) {
  const torus& network = v.net;
  if (v.steps < 2) return;
  const parity_count count = arrival_parity_count(network, 0, v.steps);
  const std::int64_t allowed = static_cast<std::int64_t>((v.steps - 1) * v.ports) - static_cast<std::int64_t>(count.fresh);
  if (allowed < 0) return;  // the count's empty clause says it all
  const std::int64_t longest = std::min<std::int64_t>(static_cast<std::int64_t>(v.steps) - 1 - allowed, 8);  // at most 4^8 walks a link
  if (longest < 1) return;
  const std::uint32_t ports = v.ports;
  const std::uint64_t links = static_cast<std::uint64_t>(network.size()) * ports;
  // appends to `clause` literals of which one holds exactly when out-port `out` of pu does not forward in-port `in`
  auto not_forwarding = [&](pu_index pu, std::uint32_t out, std::uint32_t in, std::vector<int>& clause) {
    if (v.model == torus_model::general) {
      clause.push_back(-v.sel(pu, out, in));
      return;
    }
    for (std::uint32_t c = 0; c < pairings.size(); ++c)
      if (pairings[c][out] != in) clause.push_back(v.choice(pu, c));
  };
  auto head = [&](std::uint64_t link) { return network.neighbor(static_cast<pu_index>(link / ports), static_cast<std::uint32_t>(link % ports)); };
  std::uint64_t walks = 0;
  std::vector<std::uint64_t> walk;  // f_0, f_1, …: walk[i + 1] leaves the PU walk[i] enters and forwards walk[i]
  std::vector<char> on_walk(links, 0);
  pu_index w = 0;
  std::function<void()> extend = [&] {
    const std::uint64_t last = walk.back();
    const pu_index at = head(last);
    const std::uint32_t arrived = torus::opposite(static_cast<std::uint32_t>(last % ports));  // the in-port of `at` it enters by
    for (std::uint32_t o = 0; o < ports; ++o) {
      if (v.model == torus_model::pairing && o == arrived) continue;  // no pairing forwards a port to itself
      const std::uint64_t next = static_cast<std::uint64_t>(at) * ports + o;
      if (on_walk[next]) continue;
      walk.push_back(next);
      if (head(next) == w) {  // back at w after walk.size() − 1 forwards
        std::vector<int> clause;
        for (std::size_t i = 0; i + 1 < walk.size(); ++i)
          not_forwarding(static_cast<pu_index>(walk[i + 1] / ports), static_cast<std::uint32_t>(walk[i + 1] % ports),
                         torus::opposite(static_cast<std::uint32_t>(walk[i] % ports)), clause);
        std::sort(clause.begin(), clause.end());
        clause.erase(std::unique(clause.begin(), clause.end()), clause.end());
        f.clauses.push_back(std::move(clause));
        ++walks;
      } else if (static_cast<std::int64_t>(walk.size()) - 1 < longest) {
        on_walk[next] = 1;
        extend();
        on_walk[next] = 0;
      }
      walk.pop_back();
    }
  };
  for (w = 0; w < network.size(); ++w)
    for (std::uint32_t o = 0; o < ports; ++o) {
      const std::uint64_t first = static_cast<std::uint64_t>(w) * ports + o;
      walk.assign(1, first);
      on_walk[first] = 1;
      extend();
      on_walk[first] = 0;
    }
  f.comments.push_back("implied: no stream back at its sender within " + std::to_string(longest) + " forwards (it would waste more than the " +
                       std::to_string(allowed) + " slots a PU may): " + std::to_string(walks) + " clauses");
}

// Exactly one pairing at pu (pairing model), over any layout with choice(pu, c) and `pairings`.
template <class Variables>
void add_one_pairing(cnf_formula& f, const Variables& v, pu_index pu) {
  std::vector<int> some;
  for (std::uint32_t c = 0; c < v.pairings; ++c) some.push_back(v.choice(pu, c));
  f.clauses.push_back(some);
  for (std::uint32_t a = 0; a < v.pairings; ++a)
    for (std::uint32_t b = a + 1; b < v.pairings; ++b) f.clauses.push_back({-v.choice(pu, a), -v.choice(pu, b)});
}

// The general model's rule at out-port o of pu: at most one in-port forwarded; unless base_only also the implied "at
// least one". Sound because a forward only adds transfers on a link that would otherwise be idle; it never removes or
// delays a delivery, so a table with an idle out-port completes no later once that port forwards anything.
template <class Variables>
void add_out_port_rule(cnf_formula& f, const Variables& v, pu_index pu, std::uint32_t o, bool base_only) {
  for (std::uint32_t a = 0; a < v.ports; ++a)
    for (std::uint32_t b = a + 1; b < v.ports; ++b) f.clauses.push_back({-v.sel(pu, o, a), -v.sel(pu, o, b)});
  if (base_only) return;
  std::vector<int> some;
  for (std::uint32_t in = 0; in < v.ports; ++in) some.push_back(v.sel(pu, o, in));
  f.clauses.push_back(some);
}

// The justification of a transfer x — "out-port o of a PU carries a packet in step t" — by the PU's rule: for each
// pairing c (choice(c)) or in-port i (sel(i)) it might use, that in-port carried the packet in step t − 1
// (previous(i): a literal, 0 for constant false, INT32_MAX for constant true); in the general model x also needs
// some in-port chosen.
template <class Previous, class Choice, class Sel>
void justify(cnf_formula& f, torus_model model, const std::vector<std::vector<std::uint32_t>>& pairings, std::uint32_t ports, std::uint32_t o, int x,
             Previous&& previous, Choice&& choice, Sel&& sel) {
  auto add = [&](int chosen, std::uint32_t in) {
    const int prev = previous(in);
    if (prev == INT32_MAX) return;
    if (prev == 0) f.clauses.push_back({-x, -chosen});
    else f.clauses.push_back({-x, -chosen, prev});
  };
  if (model == torus_model::pairing) {
    for (std::uint32_t c = 0; c < pairings.size(); ++c) add(choice(c), pairings[c][o]);
    return;
  }
  std::vector<int> some{-x};
  for (std::uint32_t in = 0; in < ports; ++in) {
    add(sel(in), in);
    some.push_back(sel(in));
  }
  f.clauses.push_back(some);
}

// The CNF of torus_gossip_cnf and torus_symmetric_cnf over a layout; the symmetry break only where `symmetry` is given
// (with a group that relabels ports: over its normalizer, whatever `symmetry` names).
cnf_formula gossip_cnf(const torus_variables& v, bool base_only, std::optional<torus_symmetry> symmetry, bool arrival_count = true,
                       bool parity_classes = true, bool returns = true) {
  const torus& network = v.net;
  const torus_model model = v.model;
  const std::uint64_t steps = v.steps;
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  const auto pairings = port_pairings(network.dimension());
  const std::uint64_t links = static_cast<std::uint64_t>(P) * ports;
  const std::uint64_t total = static_cast<std::uint64_t>(v.choice_count) + (steps >= 2 ? (steps - 1) * links * v.packets : 0);
  if (total > 50'000'000) throw std::invalid_argument("torus CNF: more than 5e7 variables");
  cnf_formula f;
  f.variables = static_cast<int>(total);
  f.comments.push_back("time-independent gossip on the " + network.name() + " torus, " + std::string(to_string(model)) + " model, " +
                       std::to_string(steps) + " steps");
  f.comments.push_back(model == torus_model::pairing ? "variables 1.." + std::to_string(v.choice_count) + ": PU pu uses pairing c = pu*" +
                                                           std::to_string(v.pairings) + " + c + 1"
                                                     : "variables 1.." + std::to_string(v.choice_count) + ": out-port o of PU pu forwards in-port i = (pu*" +
                                                           std::to_string(ports) + " + o)*" + std::to_string(ports) + " + i + 1");
  f.comments.push_back("then x(t, link, u) for t >= 2: link pu*ports+o carries PU u's packet in step t");
  if (v.packets != P && v.port_map.empty())
    f.comments.push_back("translation-invariant tables: " + std::to_string(v.packets) + " orbits; a PU uses its orbit's least PU's variables, and x follows only those PUs' packets");
  for (pu_index pu = 0; pu < P; ++pu) {
    if (v.orbit[pu] != pu) continue;  // shares its orbit's variables
    if (model == torus_model::pairing) {
      add_one_pairing(f, v, pu);
    } else {
      for (std::uint32_t o = 0; o < ports; ++o) add_out_port_rule(f, v, pu, o, base_only);
    }
  }
  if (!base_only && symmetry && *symmetry != torus_symmetry::none)
    add_symmetry_break(f, network, v, pairings, *symmetry == torus_symmetry::translations,
                       *symmetry == torus_symmetry::automorphisms || *symmetry == torus_symmetry::automorphisms_without_hypercube,
                       *symmetry == torus_symmetry::automorphisms || *symmetry == torus_symmetry::automorphisms_without_line_swaps);
  // Justification of every transfer from step 2 on.
  for (std::uint64_t t = 2; t <= steps; ++t)
    for (pu_index pu = 0; pu < P; ++pu)
      for (std::uint32_t o = 0; o < ports; ++o) {
        const std::uint64_t link = static_cast<std::uint64_t>(pu) * ports + o;
        for (pu_index u = 0; u < P; ++u) {
          if (v.tracked[u] < 0) continue;
          const int x = v.x(t, link, u);
          // what arrives on in-port i of pu in step t − 1 carries u?
          auto previous = [&](std::uint32_t in) -> int {  // 0: constant false, INT_MAX: constant true, else a literal
            const pu_index from = network.neighbor(pu, in);
            if (t - 1 == 1) return from == u ? INT32_MAX : 0;
            return v.x(t - 1, static_cast<std::uint64_t>(from) * ports + torus::opposite(in), u);
          };
          justify(f, model, pairings, ports, o, x, previous, [&](std::uint32_t c) { return v.choice(pu, c); },
                  [&](std::uint32_t in) { return v.sel(pu, o, in); });
        }
      }
  // Goal: every PU receives every other PU's packet. With a translation group: every PU receives the packet of every
  // orbit's least PU; a table invariant under translation g carries g(u)'s packet to g(w) when it carries u's to w,
  // so that is every packet.
  for (pu_index w = 0; w < P; ++w)
    for (pu_index u = 0; u < P; ++u) {
      if (u == w || v.tracked[u] < 0) continue;
      std::vector<int> reached;
      bool step_one = false;
      for (std::uint32_t p = 0; p < ports; ++p) {
        const pu_index from = network.neighbor(w, p);
        if (from == u) step_one = true;
        for (std::uint64_t t = 2; t <= steps; ++t) reached.push_back(v.x(t, static_cast<std::uint64_t>(from) * ports + torus::opposite(p), u));
      }
      if (!step_one) f.clauses.push_back(reached);  // empty when steps < 2: unsatisfiable, as it should be
    }
  if (!base_only && arrival_count) add_arrival_count(f, v, parity_classes);
  if (!base_only && arrival_count && returns) add_return_exclusion(f, v, pairings);
  return f;
}

}  // namespace

cnf_formula torus_gossip_cnf(const torus& network, torus_model model, std::uint64_t steps, bool base_only, const std::vector<pu_index>& orbit,
                             torus_symmetry symmetry, bool arrival_count, bool parity_classes, bool returns) {
  return gossip_cnf(layout(network, model, steps, orbit), base_only, symmetry, arrival_count, parity_classes, returns);
}

cnf_formula torus_symmetric_cnf(const torus& network, torus_model model, std::uint64_t steps, const std::vector<torus_automorphism>& generators,
                                bool arrival_count, bool symmetry_break) {
  const detail::group_orbits group = detail::orbits_of(network, generators);
  const torus_variables v = symmetric_layout(network, model, steps, group);
  cnf_formula f = gossip_cnf(v, false, symmetry_break ? std::optional(torus_symmetry::automorphisms) : std::nullopt, arrival_count);
  f.comments.push_back("tables invariant under the group of " + std::to_string(group.order) + " automorphisms generated by " + describe(network, generators) + ": " +
                       std::to_string(v.packets) + " orbits; a PU uses its orbit's least PU's variables through the ports' relabelling, "
                       "x follows only those PUs' packets" + (symmetry_break ? "" : "; no symmetry break"));
  // An orbit's least PU r is mapped to itself by the elements of its stabilizer: an invariant table's rule at r is
  // its own relabelling by each (σ·A_r = A_r). One direction per element suffices, as the stabilizer holds inverses.
  const auto pairings = port_pairings(network.dimension());
  for (pu_index r = 0; r < network.size(); ++r)
    for (const std::vector<std::uint32_t>& sigma : group.stabilizer[r]) {
      if (model == torus_model::pairing) {
        const std::vector<std::uint32_t> image = pairing_image(pairings, sigma);
        for (std::uint32_t c = 0; c < v.pairings; ++c) f.clauses.push_back({-v.choice(r, c), v.choice(r, image[c])});
      } else {
        for (std::uint32_t o = 0; o < v.ports; ++o)
          for (std::uint32_t in = 0; in < v.ports; ++in) f.clauses.push_back({-v.sel(r, o, in), v.sel(r, sigma[o], sigma[in])});
      }
    }
  return f;
}

namespace {

// The table of a model of torus_gossip_cnf (PUs of one orbit read their orbit's variables).
routing_table decode_table(const torus& network, const torus_variables& v, const std::vector<int>& model_true, int variables) {
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  std::vector<char> truth(static_cast<std::size_t>(variables) + 1, 0);
  for (int lit : model_true) truth[static_cast<std::size_t>(lit)] = 1;
  if (v.model == torus_model::pairing) {
    const auto pairings = port_pairings(network.dimension());
    std::vector<std::uint32_t> partner(static_cast<std::size_t>(P) * ports);
    for (pu_index pu = 0; pu < P; ++pu)
      for (std::uint32_t c = 0; c < v.pairings; ++c)
        if (truth[static_cast<std::size_t>(v.choice(pu, c))])
          for (std::uint32_t o = 0; o < ports; ++o) partner[pu * ports + o] = pairings[c][o];
    return pairing_table(network, partner, true);
  }
  routing_table general{network, 1, std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, no_port),
                        std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, 0), {}};
  for (pu_index pu = 0; pu < P; ++pu)
    for (std::uint32_t o = 0; o < ports; ++o)
      for (std::uint32_t in = 0; in < ports; ++in)
        if (truth[static_cast<std::size_t>(v.sel(pu, o, in))]) general.forward_at(pu, o) = in;
  return general;
}

// A sat answer counts only with its decoded table simulated within `steps`.
void accept_witness(torus_query_result& out, routing_table table, std::uint64_t steps) {
  const gossip_report run = simulate_gossip(table, steps);
  if (run.holds()) {
    out.witness = std::move(table);
    out.reason = "witness table completes in " + std::to_string(run.steps) + " steps (simulated)";
  } else {
    out.answer = solver_answer::unknown;
    out.reason = "the decoded table fails in the simulator: " + describe(run);
  }
}

// An unsat answer stands only when checkers/drat_check accepts its DRAT proof for the formula: out.reason then says
// what was checked, after `what`; otherwise out is unknown, saying why. Returns the formula's DIMACS text.
std::string check_unsat(torus_query_result& out, const clausal_result& solved, const cnf_formula& f, const std::string& what) {
  std::string dimacs = f.dimacs();
  // Below the counting or parity bound the count writes the empty clause: the proof is then that clause, and the
  // answer rests on the count's argument (add_arrival_count), not on a search — the reason says so.
  std::string by;
  if (std::any_of(f.clauses.begin(), f.clauses.end(), [](const std::vector<int>& c) { return c.empty(); })) {
    const bool parity = std::any_of(f.comments.begin(), f.comments.end(), [](const std::string& c) { return c.find(below_parity_bound) != std::string::npos; });
    by = parity ? " by the parity count alone (packets move one hop per step, so some PU has fewer in-slots in the steps of one parity than "
                  "packets only those steps can bring; no search)"
                : " by the counting bound alone (some PU has fewer in-slots than packets to learn; no search)";
  }
  const auto checking = std::chrono::steady_clock::now();
  const drat_report check = solved.proof.check(dimacs);
  if (check.outcome == verdict::holds) {
    // the split of the time: long queries spend as much in the check as in the solver, or more
    const double check_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - checking).count();
    char times[96];
    std::snprintf(times, sizeof times, "; CaDiCaL %.1f s, check %.1f s", solved.seconds, check_seconds);
    out.answer = solver_answer::unsat;
    out.reason = what + by + ", DRAT proof checked (" + std::to_string(check.checked_lemmas) + " of " + std::to_string(check.lemmas) + " lemmas, " +
                 std::to_string(check.core_clauses) + " core clauses of " + std::to_string(f.clauses.size()) + times + ")";
  } else {
    out.answer = solver_answer::unknown;
    out.reason = "CaDiCaL said unsat but its DRAT proof was not accepted: " + describe(check);
  }
  return dimacs;
}

}  // namespace

namespace {

// A full query solved: sat with the table decode(model) simulated within `steps`, unsat with its DRAT proof checked
// (and, keep_certificate, the DIMACS and the text proof kept in the answer).
template <class Decode>
torus_query_result solve_full_query(const cnf_formula& f, std::uint64_t steps, unsigned budget_ms, bool keep_certificate, Decode&& decode) {
  torus_query_result out;
  const auto start = std::chrono::steady_clock::now();
  clausal_result solved = solve_with_proof(f, budget_ms, keep_certificate ? drat_encoding::text : drat_encoding::binary);
  out.answer = solved.answer;
  out.reason = solved.reason;
  if (solved.answer == solver_answer::sat) {
    accept_witness(out, decode(solved.model), steps);
  } else if (solved.answer == solver_answer::unsat) {
    std::string dimacs = check_unsat(out, solved, f, "unsat");
    if (keep_certificate && out.answer == solver_answer::unsat) {
      out.formula = std::move(dimacs);
      out.proof = solved.proof;
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace

routing_table detail::decode_full_table(const torus& network, torus_model model, std::uint64_t steps, const std::vector<int>& model_true,
                                        int variables) {
  return decode_table(network, layout(network, model, steps), model_true, variables);
}

torus_query_result solve_torus_clausal(const torus& network, torus_model model, std::uint64_t steps, unsigned budget_ms, torus_symmetry symmetry,
                                       bool keep_certificate) {
  const auto start = std::chrono::steady_clock::now();
  const cnf_formula f = torus_gossip_cnf(network, model, steps, false, {}, symmetry);
  torus_query_result out = solve_full_query(f, steps, budget_ms, keep_certificate, [&](const std::vector<int>& true_literals) {
    return detail::decode_full_table(network, model, steps, true_literals, f.variables);
  });
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();  // building the CNF included
  return out;
}

namespace {

// The variables of torus_packets_cnf: the model's choices (numbered as in torus_gossip_cnf without a group), then
// inj(pu, out, q), then x(t, link, p) for t >= 2 and p = i·k + q (packet q of the i-th tracked PU). With an orbit map
// (tables invariant under a group of translations) a PU uses its orbit's least PU's choice and injection variables,
// and only the least PUs' packets are tracked; without, every PU is its own orbit.
struct packet_variables {
  const torus& net;
  torus_model model;
  std::uint32_t k;
  std::uint64_t steps;
  std::uint32_t ports, pairings;
  int choices, injections;
  std::vector<pu_index> orbit;        // orbit[pu]: the least PU of pu's orbit
  std::vector<pu_index> source;       // source[i]: the i-th tracked PU
  std::vector<std::int64_t> tracked;  // tracked[u]: u's index among the tracked PUs, or -1
  // The packet count the CNFs accept: 1 to 2d (std::invalid_argument otherwise).
  static void require_packets(const torus& network, std::uint32_t packets) {
    if (packets == 0 || packets > network.ports())
      throw std::invalid_argument("torus packets CNF: " + std::to_string(packets) + " packets per PU (1 to " + std::to_string(network.ports()) +
                                  ": each needs an out-port in step 1)");
  }
  packet_variables(const torus& network, torus_model m, std::uint32_t packets, std::uint64_t t, const std::vector<pu_index>& orbit_map = {})
      : net(network), model(m), k(packets), steps(t), ports(network.ports()), pairings(static_cast<std::uint32_t>(port_pairings(network.dimension()).size())),
        orbit(orbit_map) {
    require_packets(network, packets);
    orbit = layout(network, m, t, orbit_map).orbit;  // refuses a map that is not a translation group's orbits
    choices = model == torus_model::pairing ? static_cast<int>(network.size() * pairings) : static_cast<int>(network.size() * ports * ports);
    injections = static_cast<int>(network.size() * ports * k);
    tracked.assign(network.size(), -1);
    for (pu_index pu = 0; pu < network.size(); ++pu)
      if (orbit[pu] == pu) tracked[pu] = static_cast<std::int64_t>(source.size()), source.push_back(pu);
  }
  int choice(pu_index pu, std::uint32_t c) const { return static_cast<int>(orbit[pu] * pairings + c + 1); }
  int sel(pu_index pu, std::uint32_t out, std::uint32_t in) const { return static_cast<int>((orbit[pu] * ports + out) * ports + in + 1); }
  int inj(pu_index pu, std::uint32_t out, std::uint32_t q) const { return choices + static_cast<int>((orbit[pu] * ports + out) * k + q + 1); }
  std::uint64_t packet_count() const { return static_cast<std::uint64_t>(source.size()) * k; }
  int x(std::uint64_t t, std::uint64_t link, std::uint64_t p) const {
    return choices + injections + static_cast<int>(((t - 2) * net.size() * ports + link) * packet_count() + p + 1);
  }
  std::uint64_t total() const { return static_cast<std::uint64_t>(choices) + injections + (steps >= 2 ? (steps - 1) * net.size() * ports * packet_count() : 0); }
  // w − (u − orbit[u]): where the tracked packet of orbit[u] arrives when u's arrives at w (a translation keeps ports)
  pu_index translate_back(pu_index w, pu_index u) const {
    const std::vector<std::uint32_t> cw = net.coordinates(w), cu = net.coordinates(u), cr = net.coordinates(orbit[u]);
    std::vector<std::uint32_t> c(cw.size());
    for (std::size_t j = 0; j < c.size(); ++j) c[j] = (cw[j] + cr[j] + net.dims()[j] - cu[j]) % net.dims()[j];
    return net.index(c);
  }
};

}  // namespace

int torus_injection_variable(const torus& network, torus_model model, std::uint32_t packets, pu_index pu, std::uint32_t out, std::uint32_t packet) {
  return packet_variables(network, model, packets, 1).inj(pu, out, packet);
}

cnf_formula torus_packets_cnf(const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps, bool base_only,
                              const std::vector<pu_index>& orbit, torus_symmetry symmetry) {
  const packet_variables v(network, model, packets, steps, orbit);
  const pu_index P = network.size();
  const std::uint32_t ports = v.ports, k = v.k;
  const auto pairings = port_pairings(network.dimension());
  if (v.total() > 50'000'000) throw std::invalid_argument("torus packets CNF: more than 5e7 variables");
  cnf_formula f;
  f.variables = static_cast<int>(v.total());
  f.comments.push_back("time-independent gossip with " + std::to_string(k) + " packets per PU on the " + network.name() + " torus, " +
                       std::string(to_string(model)) + " model, " + std::to_string(steps) + " steps, no packet held");
  f.comments.push_back("variables 1.." + std::to_string(v.choices) + ": the model's choices, as torus_gossip_cnf; then inj(pu, o, q) = " +
                       std::to_string(v.choices) + " + (pu*" + std::to_string(ports) + " + o)*" + std::to_string(k) +
                       " + q + 1: out-port o of pu sends its packet q in step 1; then x(t, link, i*k + q) for t >= 2, i the i-th tracked PU");
  if (v.source.size() != P)
    f.comments.push_back("translation-invariant tables: " + std::to_string(v.source.size()) +
                         " orbits; a PU uses its orbit's least PU's choice and injection variables, and x follows only those PUs' packets");
  // Counting: a PU receives at most 2d packets a step and must receive k·(P − 1).
  if (counting_bound(network, k) > steps) {
    f.comments.push_back("below the counting bound: a PU receives at most " + std::to_string(ports) + " packets a step and needs " +
                         std::to_string(static_cast<std::uint64_t>(k) * (P - 1)));
    f.clauses.push_back({});
    return f;
  }
  for (pu_index pu = 0; pu < P; ++pu) {
    if (v.orbit[pu] != pu) continue;  // its variables are its orbit's least PU's
    if (model == torus_model::pairing) add_one_pairing(f, v, pu);
    for (std::uint32_t o = 0; o < ports; ++o) {
      if (model == torus_model::general) add_out_port_rule(f, v, pu, o, base_only);
      for (std::uint32_t a = 0; a < k; ++a)
        for (std::uint32_t b = a + 1; b < k; ++b) f.clauses.push_back({-v.inj(pu, o, a), -v.inj(pu, o, b)});
      if (base_only) continue;
      // Implied: every out-port sends some packet in step 1. Sound as add_out_port_rule's forward: a step-1 packet on
      // a link that would otherwise be idle only adds transfers, so a table with an idle out-port completes no later
      // once it sends something (and an invariant table stays invariant when every PU of the orbit does the same).
      std::vector<int> some;
      for (std::uint32_t q = 0; q < k; ++q) some.push_back(v.inj(pu, o, q));
      f.clauses.push_back(some);
    }
    if (base_only) continue;
    // Implied: each packet leaves its PU in step 1 — a packet sent on no port is never forwarded (only arrivals are),
    // so no other PU ever gets it, and with P >= 2 no table completes.
    for (std::uint32_t q = 0; q < k; ++q) {
      std::vector<int> some;
      for (std::uint32_t o = 0; o < ports; ++o) some.push_back(v.inj(pu, o, q));
      f.clauses.push_back(some);
    }
    // Symmetry break: out-port 0 sends packet 0. Renaming one PU's own packets (a permutation of 0 … k − 1 at that PU,
    // in its injections) maps a table to one that completes in the same steps — the goal asks for every packet of
    // every PU alike — so some renaming of every completing table has packet 0 on out-port 0 at every PU. (Invariant
    // tables: one renaming for every PU of an orbit keeps the table invariant.)
    f.clauses.push_back({v.inj(pu, 0, 0)});
  }
  // And torus_gossip_cnf's lex-leader on the forwarding rules (add_symmetry_break over every automorphism fixing PU 0,
  // after translations; the choice variables are numbered alike). Its argument carries over: an automorphism φ with
  // port relabelling σ maps a k-packet table to one whose rule at φ(p) is σ·A_p and whose out-port σ(o) at φ(p)
  // sends what out-port o at p sent in step 1; φ maps deliveries to deliveries, so the image completes in as many
  // steps. Pick φ as there (the rules alone decide which), then rename each PU's packets for the break above, which
  // leaves the rules as they are. The line swaps likewise: a swap relabels the injections of the line's two PUs with
  // their rules (out-port σ_j(o) sends what o sent) and maps deliveries to deliveries; the renaming follows. Invariant
  // The hypercube's bit permutations (sides of 4) likewise: a per-PU relabelling carries the injections with the rules.
  // Invariant tables (a group of translations H): over H's normalizer, as the one-packet CNF with an orbit map — an
  // automorphism ψ = translation ∘ ρ with A_σ·H = H carries an H-invariant k-packet table to an H-invariant one
  // (ψhψ⁻¹ is in H), its injections with it; the PUs of an orbit then have equal rules and injections (a translation
  // keeps ports), so one renaming for the whole orbit gives packet 0 on out-port 0 and keeps the table invariant.
  // torus_symmetry::translations keeps the break over translations alone (bench/ compares the two); none: no lex-leader.
  if (!base_only && symmetry != torus_symmetry::none)
    add_symmetry_break(f, network, layout(network, model, steps, orbit), pairings, symmetry == torus_symmetry::translations,
                       symmetry == torus_symmetry::automorphisms || symmetry == torus_symmetry::automorphisms_without_hypercube,
                       symmetry == torus_symmetry::automorphisms || symmetry == torus_symmetry::automorphisms_without_line_swaps);
  // carried(w, t, in, p): the literal "in-port `in` of w brings tracked packet p in step t" (0: never — step 1 brings
  // only the neighbour's own packets)
  auto carried = [&](pu_index w, std::uint64_t t, std::uint32_t in, std::uint64_t p) -> int {
    const pu_index from = network.neighbor(w, in);
    if (t == 1) return from == v.source[p / k] ? v.inj(from, torus::opposite(in), static_cast<std::uint32_t>(p % k)) : 0;
    return v.x(t, static_cast<std::uint64_t>(from) * ports + torus::opposite(in), p);
  };
  // Justification of every transfer from step 2 on: x(t, pu→o, p) needs the rule's in-port to have carried p in step
  // t − 1 (step 1: the neighbour's injection of p, when p is the neighbour's).
  for (std::uint64_t t = 2; t <= steps; ++t)
    for (pu_index pu = 0; pu < P; ++pu)
      for (std::uint32_t o = 0; o < ports; ++o)
        for (std::uint64_t p = 0; p < v.packet_count(); ++p)
          justify(f, model, pairings, ports, o, v.x(t, static_cast<std::uint64_t>(pu) * ports + o, p), [&](std::uint32_t in) { return carried(pu, t - 1, in, p); },
                  [&](std::uint32_t c) { return v.choice(pu, c); }, [&](std::uint32_t in) { return v.sel(pu, o, in); });
  // Goal: every PU w gets every tracked packet of every other PU on some in-link in some step <= steps. (Invariant
  // tables: a translation τ of the group carries the arrival of u's packet at τ⁻¹(w) to that of τ(u)'s at w, so the
  // tracked packets everywhere are every packet everywhere.)
  for (pu_index w = 0; w < P; ++w)
    for (std::uint64_t p = 0; p < v.packet_count(); ++p) {
      if (v.source[p / k] == w) continue;
      std::vector<int> some;
      for (std::uint64_t t = 1; t <= steps; ++t)
        for (std::uint32_t in = 0; in < ports; ++in)
          if (const int c = carried(w, t, in, p); c != 0) some.push_back(c);
      f.clauses.push_back(some);
    }
  if (base_only) return f;
  // Implied: the arrival count. w has 2d·T in-slots and must learn the k·(P − 1) packets of the others, at most one a
  // slot, so at most s = 2d·T − k·(P − 1) slots may be wasted (bring nothing, one of w's own packets, or one w had).
  // A fresh waste(w, t, in) per slot, and
  //   (a) waste ∨ the slot brings some packet of another PU,
  //   (b) no such packet p is brought by two slots that are both not waste (a ladder per (w, p) over the slots in
  //       order: seen = "p in a non-waste slot so far"),
  //   (c) at most s wastes (Sinz's sequential counter).
  // Sound: for a table completing within T steps (after the implied constraints and the break above, which keep one),
  // take the real transfers as x and mark as not waste, for each packet p of another PU, the earliest slot that
  // brings it (the least in-port among ties), every other slot as waste: (a) and (b) hold, and exactly s slots are
  // waste. The x true in a model are real transfers whatever the waste variables say, so exactness is kept.
  // Invariant tables: kept at the orbits' least PUs w (every PU is one of them up to a translation of the group, which
  // carries slots to slots), and packet q of an untracked u arrives at w exactly when the tracked packet q of u's
  // orbit's least PU r arrives at w − (u − r) on the same in-port in the same step (the translation by u − r is in the
  // group and keeps port directions).
  const std::uint64_t slack = static_cast<std::uint64_t>(ports) * steps - static_cast<std::uint64_t>(k) * (P - 1);
  f.comments.push_back("arrival count: at most " + std::to_string(slack) + " wasted in-slots per PU");
  auto arrives = [&](pu_index w, std::uint64_t t, std::uint32_t in, pu_index u, std::uint32_t q) {
    if (v.orbit[u] == u) return carried(w, t, in, static_cast<std::uint64_t>(v.tracked[u]) * k + q);
    return carried(v.translate_back(w, u), t, in, static_cast<std::uint64_t>(v.tracked[v.orbit[u]]) * k + q);
  };
  for (pu_index w = 0; w < P; ++w) {
    if (v.orbit[w] != w) continue;
    std::vector<int> waste;
    for (std::uint64_t t = 1; t <= steps; ++t)
      for (std::uint32_t in = 0; in < ports; ++in) {
        const int flag = ++f.variables;
        waste.push_back(flag);
        std::vector<int> some{flag};
        for (pu_index u = 0; u < P; ++u)
          for (std::uint32_t q = 0; q < k && u != w; ++q)
            if (const int c = arrives(w, t, in, u, q); c != 0) some.push_back(c);
        f.clauses.push_back(some);
      }
    for (pu_index u = 0; u < P; ++u)
      for (std::uint32_t q = 0; q < k && u != w; ++q) {
        int seen = 0;  // 0: nothing yet
        std::size_t slot = 0;
        for (std::uint64_t t = 1; t <= steps; ++t)
          for (std::uint32_t in = 0; in < ports; ++in, ++slot) {
            const int c = arrives(w, t, in, u, q);
            if (c == 0) continue;
            if (seen != 0) f.clauses.push_back({-c, waste[slot], -seen});  // p again in a non-waste slot
            const int next = ++f.variables;
            f.clauses.push_back({-c, waste[slot], next});
            if (seen != 0) f.clauses.push_back({-seen, next});
            seen = next;
          }
      }
    at_most(f, waste, slack);
  }
  return f;
}

namespace {

// A model of torus_packets_cnf as a table: the forwarding as torus_gossip_cnf's decoder reads it (the choice variables
// are numbered alike, with the same orbit map), then the injections.
routing_table decode_packets(const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps, const std::vector<pu_index>& orbit,
                             const std::vector<int>& true_literals, int variables) {
  routing_table table = decode_table(network, layout(network, model, steps, orbit), true_literals, variables);
  const packet_variables v(network, model, packets, steps, orbit);
  std::vector<char> truth(static_cast<std::size_t>(variables) + 1, 0);
  for (int lit : true_literals) truth[static_cast<std::size_t>(lit)] = 1;
  table.packets = packets;
  for (pu_index pu = 0; pu < network.size(); ++pu)
    for (std::uint32_t o = 0; o < v.ports; ++o) {
      table.inject_at(pu, o) = no_packet;
      for (std::uint32_t q = 0; q < packets; ++q)
        if (truth[static_cast<std::size_t>(v.inj(pu, o, q))]) table.inject_at(pu, o) = q;
    }
  return table;
}

}  // namespace

torus_query_result solve_torus_packets(const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps, unsigned budget_ms,
                                       bool keep_certificate) {
  const auto start = std::chrono::steady_clock::now();
  const cnf_formula f = torus_packets_cnf(network, model, packets, steps);
  torus_query_result out = solve_full_query(f, steps, budget_ms, keep_certificate, [&](const std::vector<int>& true_literals) {
    return decode_packets(network, model, packets, steps, {}, true_literals, f.variables);
  });
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();  // building the CNF included
  return out;
}

std::vector<pu_index> translation_orbits(const torus& network, const std::vector<std::vector<std::uint32_t>>& generators) {
  const pu_index P = network.size();
  const std::uint32_t d = network.dimension();
  for (std::size_t g = 0; g < generators.size(); ++g)
    if (generators[g].size() != d)
      throw std::invalid_argument("translation generator " + std::to_string(g) + " has " + std::to_string(generators[g].size()) +
                                  " entries for a torus of dimension " + std::to_string(d));
  std::vector<pu_index> orbit(P, P);
  for (pu_index start = 0; start < P; ++start) {
    if (orbit[start] != P) continue;  // already in the orbit of a smaller PU
    orbit[start] = start;
    std::vector<pu_index> frontier{start};
    while (!frontier.empty()) {
      const pu_index pu = frontier.back();
      frontier.pop_back();
      const std::vector<std::uint32_t> c = network.coordinates(pu);
      for (const auto& g : generators) {
        std::vector<std::uint32_t> moved(d);
        for (std::uint32_t j = 0; j < d; ++j) moved[j] = static_cast<std::uint32_t>((c[j] + g[j] % network.dims()[j]) % network.dims()[j]);
        const pu_index next = network.index(moved);
        if (orbit[next] == P) orbit[next] = start, frontier.push_back(next);
      }
    }
  }
  return orbit;
}

std::vector<std::vector<std::vector<std::uint32_t>>> translation_subgroups(const torus& network) {
  const pu_index P = network.size();
  // A subgroup is known by its orbit map (the orbit of PU 0 is the subgroup itself: translation by a PU's
  // coordinates moves PU 0 there). Every subgroup is the join of cyclic ones, so joining the subgroups found with each
  // cyclic subgroup until nothing new appears gives them all.
  std::map<std::vector<pu_index>, std::vector<std::vector<std::uint32_t>>> groups;  // orbit map -> generators
  std::vector<std::vector<std::uint32_t>> cyclic;  // one generator per distinct cyclic subgroup
  for (pu_index g = 1; g < P; ++g) {
    std::vector<std::vector<std::uint32_t>> generators{network.coordinates(g)};
    if (groups.emplace(translation_orbits(network, generators), generators).second) cyclic.push_back(generators.front());
  }
  std::vector<std::vector<std::vector<std::uint32_t>>> pending;
  for (const auto& [orbit, generators] : groups) pending.push_back(generators);
  while (!pending.empty()) {
    const std::vector<std::vector<std::uint32_t>> base = std::move(pending.back());
    pending.pop_back();
    for (const auto& g : cyclic) {
      std::vector<std::vector<std::uint32_t>> generators = base;
      generators.push_back(g);
      std::vector<pu_index> orbit = translation_orbits(network, generators);
      if (groups.count(orbit) == 0) groups.emplace(std::move(orbit), generators), pending.push_back(std::move(generators));
    }
  }
  // One subgroup per class: the first met (in the orbit maps' order) of each class key.
  const std::vector<std::vector<std::uint32_t>> relabellings = detail::port_relabellings(network);
  std::set<std::vector<pu_index>> classes;
  std::vector<std::pair<std::size_t, std::vector<std::vector<std::uint32_t>>>> sized;
  for (auto& [orbit, generators] : groups) {
    std::vector<pu_index> elements;  // the orbit of PU 0 is the subgroup
    for (pu_index pu = 0; pu < P; ++pu)
      if (orbit[pu] == 0) elements.push_back(pu);
    if (classes.insert(detail::translation_class_key(network, relabellings, elements)).second)
      sized.emplace_back(elements.size(), std::move(generators));
  }
  std::stable_sort(sized.begin(), sized.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::vector<std::vector<std::uint32_t>>> out;
  for (auto& s : sized) out.push_back(std::move(s.second));
  return out;
}

namespace {

// The SAT query over the tables invariant under one group, which search_invariant_table keeps between its rounds so
// that a later round goes on where the earlier one stopped. Only the decoder is kept; CaDiCaL holds the clauses.
class invariant_query {
 public:
  using decoder = std::function<routing_table(const std::vector<int>& true_literals, int variables)>;
  // certify: the formula is kept, the solver traces a DRAT proof, and an unsat answer stands only once it is checked
  invariant_query(cnf_formula f, decoder decode, bool certify)
      : variables_(f.variables), decode_(std::move(decode)), solver_(f, certify ? std::optional(drat_encoding::binary) : std::nullopt) {
    if (certify) formula_ = std::move(f);
  }
  torus_query_result ask(std::uint64_t steps, unsigned budget_ms) {
    torus_query_result out;
    const auto start = std::chrono::steady_clock::now();
    const clausal_result solved = solver_.solve(budget_ms);
    out.answer = solved.answer;
    out.reason = solved.reason;
    if (solved.answer == solver_answer::sat) accept_witness(out, decode_(solved.model, variables_), steps);
    if (solved.answer == solver_answer::unsat) {
      if (formula_) check_unsat(out, solved, *formula_, "no table invariant under the group");
      else out.reason = "no table invariant under the group (CaDiCaL, no certificate: says nothing about other tables)";
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }

 private:
  int variables_;
  decoder decode_;
  resumable_solve solver_;
  std::optional<cnf_formula> formula_;
};

// The decoder of a CNF over a layout (the torus and the layout held by value).
invariant_query::decoder table_decoder(const torus& network, torus_variables v) {
  return [network, v = std::move(v)](const std::vector<int>& true_literals, int variables) { return decode_table(network, v, true_literals, variables); };
}

invariant_query translation_query(const torus& network, torus_model model, std::uint64_t steps, const std::vector<pu_index>& orbit, bool certify) {
  return invariant_query(torus_gossip_cnf(network, model, steps, false, orbit), table_decoder(network, layout(network, model, steps, orbit)), certify);
}

invariant_query point_group_query(const torus& network, torus_model model, std::uint64_t steps, const std::vector<torus_automorphism>& generators,
                                  bool certify) {
  return invariant_query(torus_symmetric_cnf(network, model, steps, generators),
                         table_decoder(network, symmetric_layout(network, model, steps, detail::orbits_of(network, generators))), certify);
}

// k packets per PU, tables invariant under a group of translations (torus_packets_cnf with the orbit map).
invariant_query packets_translation_query(const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps,
                                          const std::vector<pu_index>& orbit, bool certify) {
  return invariant_query(torus_packets_cnf(network, model, packets, steps, false, orbit),
                         [network, model, packets, steps, orbit](const std::vector<int>& true_literals, int variables) {
                           return decode_packets(network, model, packets, steps, orbit, true_literals, variables);
                         },
                         certify);
}

// The time of building the query and asking it once.
torus_query_result ask_once(const std::chrono::steady_clock::time_point start, invariant_query query, std::uint64_t steps, unsigned budget_ms) {
  torus_query_result out = query.ask(steps, budget_ms);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace

torus_query_result solve_torus_invariant(const torus& network, torus_model model, std::uint64_t steps, const std::vector<pu_index>& orbit,
                                         unsigned budget_ms, bool certify) {
  const auto start = std::chrono::steady_clock::now();
  return ask_once(start, translation_query(network, model, steps, orbit, certify), steps, budget_ms);
}

torus_query_result solve_torus_symmetric(const torus& network, torus_model model, std::uint64_t steps, const std::vector<torus_automorphism>& generators,
                                         unsigned budget_ms, bool certify) {
  const auto start = std::chrono::steady_clock::now();
  return ask_once(start, point_group_query(network, model, steps, generators, certify), steps, budget_ms);
}

std::vector<torus_symmetry_group> invariant_group_list(const torus& network, invariant_groups which) {
  std::vector<torus_symmetry_group> list;
  if (which != invariant_groups::point)
    for (auto& generators : translation_subgroups(network)) {
      const std::vector<pu_index> orbit = translation_orbits(network, generators);
      list.push_back({std::move(generators), {}, static_cast<std::uint64_t>(std::count(orbit.begin(), orbit.end(), pu_index{0}))});
    }
  auto append = [&](std::vector<torus_symmetry_group> groups) { std::move(groups.begin(), groups.end(), std::back_inserter(list)); };
  if (which != invariant_groups::translations) append(detail::point_groups(network));
  if (which == invariant_groups::with_mixed) append(detail::mixed_groups(network));
  return list;
}

std::string describe(const torus& network, const torus_symmetry_group& group) {
  if (!group.automorphisms.empty())
    return std::to_string(group.order) + " automorphisms generated by " + describe(network, group.automorphisms);
  std::ostringstream s;
  s << group.order << " translations generated by";
  for (const auto& g : group.translations) {
    s << " (";
    for (std::size_t j = 0; j < g.size(); ++j) s << (j ? "," : "") << g[j];
    s << ")";
  }
  return s.str();
}

namespace {

// search_invariant_table over the groups of `list`, build(g) making group g's query.
torus_invariant_search_result search_groups(const torus& network, const std::vector<torus_symmetry_group>& list,
                                            const std::function<invariant_query(std::size_t)>& build, std::uint64_t steps, unsigned budget_ms,
                                            unsigned query_ms, bool certify, const std::vector<std::size_t>& only,
                                            const std::function<void(const invariant_group_answer&)>& on_answer) {
  const auto start = std::chrono::steady_clock::now();
  torus_invariant_search_result out;
  // Question q of the rounds is group numbers[q]: every group, largest first within each kind (translations, then point
  // groups), or those of `only`.
  std::vector<std::size_t> numbers = only;
  if (numbers.empty())
    for (std::size_t g = 0; g < list.size(); ++g) numbers.push_back(g);
  for (std::size_t g : numbers)
    if (g >= list.size())
      throw std::invalid_argument("search_invariant_table: group " + std::to_string(g) + " out of range (" + std::to_string(list.size()) + " groups)");
  out.groups = numbers.size();
  if (out.groups == 0) return out;
  // In rounds (detail::ask_in_rounds): the groups that answer at once (hundreds in 3-D) are all asked before a hard
  // one takes the budget. Up to kept_queries groups out of time keep their solver, which goes on where it stopped (so a
  // group that needs t is answered after about t of its own solving); the others are built again (after at most 2t).
  constexpr std::size_t kept_queries = 16;  // a CaDiCaL instance of a 36-PU query holds tens of MB
  std::map<std::size_t, invariant_query> kept;
  std::vector<solver_answer> last(numbers.size(), solver_answer::unknown);
  std::vector<bool> asked(numbers.size(), false);
  std::vector<double> spent(numbers.size(), 0.0);  // each group's queries, building included
  // A group that contains a conjugate of a group answered unsat is unsat too (detail::group_containment): it is not
  // asked again, and answers unsat when the rounds come to it (or at the end).
  const detail::group_containment containment(network, list);
  std::vector<std::optional<std::size_t>> implied_by(numbers.size());  // the unsat group (its number) it contains a conjugate of
  std::uint64_t instant = 0;  // calls of ask answered by such an implication, not by the solver
  const auto since = [](std::chrono::steady_clock::time_point from) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count(); };
  auto answered = [&](std::size_t q, solver_answer answer) {
    if (on_answer)
      on_answer({numbers[q], list[numbers[q]], answer, certify && answer == solver_answer::unsat && !implied_by[q], spent[q], since(start), implied_by[q]});
    if (answer == solver_answer::unsat && !implied_by[q])
      for (std::size_t other = 0; other < numbers.size(); ++other)
        if (last[other] == solver_answer::unknown && !implied_by[other] && other != q && containment.contains_conjugate(numbers[other], numbers[q]))
          implied_by[other] = numbers[q];
    return last[q] = answer;
  };
  auto ask = [&](std::size_t q, unsigned ms) {
    const std::size_t g = numbers[q];
    const auto begun = std::chrono::steady_clock::now();
    asked[q] = true;
    if (implied_by[q]) {
      ++instant;
      kept.erase(g);
      return answered(q, solver_answer::unsat);
    }
    auto it = kept.find(g);
    invariant_query query = it != kept.end() ? std::move(it->second) : build(g);
    if (it != kept.end()) kept.erase(it);
    torus_query_result r = query.ask(steps, ms);
    spent[q] += since(begun);
    if (r.answer == solver_answer::sat && r.witness) {
      out.table = std::move(r.witness);
      return answered(q, solver_answer::sat);
    }
    if (r.answer == solver_answer::unsat) return answered(q, solver_answer::unsat);
    if (kept.size() < kept_queries) kept.emplace(g, std::move(query));
    return last[q] = solver_answer::unknown;
  };
  const detail::rounds_outcome rounds = detail::ask_in_rounds(out.groups, budget_ms, query_ms, ask, [&] {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count());
  });
  out.asked = rounds.asked;
  out.unsat = rounds.unsat;
  out.unknown = rounds.unknown;
  out.queries = rounds.queries - instant;
  if (rounds.sat) {
    out.group_index = numbers[*rounds.sat];
    out.group = list[*out.group_index];
  } else {
    for (std::size_t q = 0; q < numbers.size(); ++q) {
      if (implied_by[q] && last[q] == solver_answer::unknown) {  // implied after the rounds last came to it
        out.asked += asked[q] ? 0 : 1;
        out.unknown -= asked[q] ? 1 : 0;
        asked[q] = true;
        ++out.unsat;
        answered(q, solver_answer::unsat);
      }
      if (!asked[q] || last[q] == solver_answer::unknown) out.open_groups.push_back(numbers[q]);
    }
  }
  for (std::size_t q = 0; q < numbers.size(); ++q) out.implied += implied_by[q] && last[q] == solver_answer::unsat ? 1 : 0;
  out.rounds = rounds.rounds;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace

torus_invariant_search_result search_invariant_table(const torus& network, torus_model model, std::uint64_t steps, unsigned budget_ms,
                                                     unsigned query_ms, invariant_groups which, bool certify, const std::vector<std::size_t>& only,
                                                     const std::function<void(const invariant_group_answer&)>& on_answer) {
  const std::vector<torus_symmetry_group> list = invariant_group_list(network, which);
  auto build = [&](std::size_t g) {
    const torus_symmetry_group& group = list[g];
    if (group.automorphisms.empty()) return translation_query(network, model, steps, translation_orbits(network, group.translations), certify);
    return point_group_query(network, model, steps, group.automorphisms, certify);
  };
  return search_groups(network, list, build, steps, budget_ms, query_ms, certify, only, on_answer);
}

torus_invariant_search_result search_invariant_packets_table(const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps,
                                                             unsigned budget_ms, unsigned query_ms, bool certify, const std::vector<std::size_t>& only,
                                                             const std::function<void(const invariant_group_answer&)>& on_answer) {
  packet_variables::require_packets(network, packets);  // before any group is built
  const std::vector<torus_symmetry_group> list = invariant_group_list(network, invariant_groups::translations);
  auto build = [&](std::size_t g) {
    return packets_translation_query(network, model, packets, steps, translation_orbits(network, list[g].translations), certify);
  };
  return search_groups(network, list, build, steps, budget_ms, query_ms, certify, only, on_answer);
}

torus_minimum_result prove_torus_packets_minimum(const torus& network, torus_model model, std::uint32_t packets, unsigned budget_ms,
                                                 std::uint64_t max_steps, bool keep_certificate) {
  packet_variables::require_packets(network, packets);  // as the queries' CNFs do
  // General model: each step count is first asked of the pairing model (a tenth of the budget, at most 30 s) — a
  // pairing table is a general table (out-port o forwards its partner's in-port), and its query is far smaller (4 x 5
  // with two packets in 10 steps: sat in 13 s, the general query unknown after 600 s). Its sat answer is a simulated
  // witness like any other; only the general query's unsat is a lower bound.
  const unsigned quick_ms = std::min(budget_ms / 10, 30'000u);
  auto query = [&](std::uint64_t T) {
    if (model == torus_model::general && quick_ms > 0) {
      torus_query_result quick = solve_torus_packets(network, torus_model::pairing, packets, T, quick_ms);
      if (quick.answer == solver_answer::sat) {
        quick.reason = "a pairing table (a pairing is a general rule): " + quick.reason;
        return quick;
      }
    }
    return solve_torus_packets(network, model, packets, T, budget_ms, keep_certificate);
  };
  // Past a query out of time, the local search with k packets and the translation-invariant tables give an upper bound,
  // and the search asks the steps below it.
  return detail::search_torus_minimum(
      network, model == torus_model::pairing, max_steps, query,
      [&](std::uint64_t steps) { return detail::heuristic_witness(network, model, steps, budget_ms, packets); }, packets);
}

torus_minimum_result prove_torus_minimum(const torus& network, torus_model model, unsigned budget_ms, std::uint64_t max_steps,
                                         bool keep_certificate) {
  // Each step count is first asked of the tables invariant under a group (translations, then point groups, in the
  // rounds of search_invariant_table), with a tenth of the budget (at most 30 s): where one exists, its group's query
  // often answers in well under a second (4 x 5 general in 6 steps: 28 ms, the full query 262–347 s), and where none
  // does, the small queries are mostly unsat at once. A sat answer there is a simulated witness like any other; only
  // the full query's unsat counts as a lower bound.
  const unsigned quick_ms = std::min(budget_ms / 10, 30'000u);
  auto query = [&](std::uint64_t steps) {
    if (network.size() <= 256 && quick_ms > 0) {
      torus_query_result quick = detail::invariant_witness(network, model, steps, quick_ms);
      if (quick.answer == solver_answer::sat) return quick;
    }
    return solve_torus_clausal(network, model, steps, budget_ms, torus_symmetry::automorphisms, keep_certificate);
  };
  return detail::search_torus_minimum(
      network, model == torus_model::pairing, max_steps, query,
      [&](std::uint64_t steps) { return detail::heuristic_witness(network, model, steps, budget_ms); });
}

}  // namespace dancecard
