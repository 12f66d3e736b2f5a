// The torus gossip CNF: transitions (a packet crosses a link in step t when it arrived on the paired in-port in t - 1),
// completion, and the implied constraints that make the unsat answers fast: the arrival count with its parity
// classes, return exclusion, and the general model's implied forwarding. Each implied constraint says why it is sound.
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
  const torus::network& network = v.net;
  const pu_index P = network.size();
  const std::uint32_t ports = v.ports;
  if (v.steps < 2) return;  // the goal alone is then unsatisfiable or trivially met
  f.comments.push_back(
      "implied arrival count: per PU, fresh 'waste' variables for the in-slots of steps 2..T, ladders over each "
      "packet's "
      "non-waste slots, and a sequential counter allowing 2d(T-1) - (P - 1 - |step-1 neighbours|) wastes");
  const std::uint64_t m = (v.steps - 1) * ports;  // slots of steps 2 … T
  // The counts are the same at every PU (a translation maps PU 0 to it, with its neighbours, walks and slots), so they
  // are taken once, at PU 0, from core's arrival_parity_count (the walks of 2 … T hops that lead to it): s = slots −
  // fresh packets; s_c = the slots of steps of parity c, less the packets only they bring.
  const parity_count parity = arrival_parity_count(network, 0, v.steps);
  const std::int64_t allowed = static_cast<std::int64_t>(m) - static_cast<std::int64_t>(parity.fresh);
  if (allowed < 0) {  // fewer slots than packets to learn: no table completes (the counting bound)
    f.comments.push_back(
        "every PU has fewer in-slots than packets to learn: the empty clause (below the counting bound, "
        "so the DRAT proof certifies nothing beyond that count)");
    f.clauses.push_back({});
    return;
  }
  std::array<std::int64_t, 2> class_allowed{};
  for (int c = 0; c < 2; ++c)
    class_allowed[c] = static_cast<std::int64_t>(parity.slots[c]) - static_cast<std::int64_t>(parity.forced[c]);
  if (parity_classes && (class_allowed[0] < 0 || class_allowed[1] < 0)) {
    f.comments.push_back(
        "every PU has fewer in-slots in the steps of one parity than packets only those steps can bring: the empty "
        "clause (" +
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
        for (std::uint32_t j = 0; j < network.dimension(); ++j)
          moved[j] = (at[j] + cr[j] + network.dims()[j] - cu[j]) % network.dims()[j];
        const pu_index back = network.index(moved);
        for (std::uint32_t p = 0; p < ports; ++p)
          source[u * ports + p] =
              static_cast<std::uint64_t>(network.neighbor(back, p)) * ports + torus::network::opposite(p);
      } else {
        for (std::uint32_t p = 0; p < ports; ++p)
          source[u * ports + p] = static_cast<std::uint64_t>(v.preimage[u][network.neighbor(w, p)]) * ports +
                                  v.port_map[u][torus::network::opposite(p)];
      }
    }
    auto carries = [&](std::uint64_t k, pu_index u) {
      return v.x(2 + k / ports, source[u * ports + k % ports], v.orbit[u]);
    };
    const int waste0 = f.variables + 1;
    f.variables += static_cast<int>(m);
    for (std::uint64_t k = 0; k < m; ++k) {
      const int waste = waste0 + static_cast<int>(k);
      std::vector<int> some{waste};
      for (pu_index u = 0; u < P; ++u) {
        if (early[u])
          f.clauses.push_back({-carries(k, u), waste});
        else
          some.push_back(carries(k, u));
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
      std::vector<std::vector<int>> class_flags(
          2);  // the waste flags of the slots of steps of parity c (slot k: step 2 + k / ports)
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
    f.comments.push_back(
        "implied parity classes: at " + std::to_string(parity_counted) +
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
void add_return_exclusion(cnf_formula& f, const torus_variables& v,
                          const std::vector<std::vector<std::uint32_t>>& pairings) {
  const torus::network& network = v.net;
  if (v.steps < 2) return;
  const parity_count count = arrival_parity_count(network, 0, v.steps);
  const std::int64_t allowed =
      static_cast<std::int64_t>((v.steps - 1) * v.ports) - static_cast<std::int64_t>(count.fresh);
  if (allowed < 0) return;  // the count's empty clause says it all
  const std::int64_t longest =
      std::min<std::int64_t>(static_cast<std::int64_t>(v.steps) - 1 - allowed, 8);  // at most 4^8 walks a link
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
  auto head = [&](std::uint64_t link) {
    return network.neighbor(static_cast<pu_index>(link / ports), static_cast<std::uint32_t>(link % ports));
  };
  std::uint64_t walks = 0;
  std::vector<std::uint64_t> walk;  // f_0, f_1, …: walk[i + 1] leaves the PU walk[i] enters and forwards walk[i]
  std::vector<char> on_walk(links, 0);
  pu_index w = 0;
  std::function<void()> extend = [&] {
    const std::uint64_t last = walk.back();
    const pu_index at = head(last);
    const std::uint32_t arrived =
        torus::network::opposite(static_cast<std::uint32_t>(last % ports));  // the in-port of `at` it enters by
    for (std::uint32_t o = 0; o < ports; ++o) {
      if (v.model == torus_model::pairing && o == arrived) continue;  // no pairing forwards a port to itself
      const std::uint64_t next = static_cast<std::uint64_t>(at) * ports + o;
      if (on_walk[next]) continue;
      walk.push_back(next);
      if (head(next) == w) {  // back at w after walk.size() − 1 forwards
        std::vector<int> clause;
        for (std::size_t i = 0; i + 1 < walk.size(); ++i)
          not_forwarding(static_cast<pu_index>(walk[i + 1] / ports), static_cast<std::uint32_t>(walk[i + 1] % ports),
                         torus::network::opposite(static_cast<std::uint32_t>(walk[i] % ports)), clause);
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
  f.comments.push_back("implied: no stream back at its sender within " + std::to_string(longest) +
                       " forwards (it would waste more than the " + std::to_string(allowed) +
                       " slots a PU may): " + std::to_string(walks) + " clauses");
}

// The CNF of torus_gossip_cnf and torus_symmetric_cnf over a layout; the symmetry break only where `symmetry` is given
// (with a group that relabels ports: over its normalizer, whatever `symmetry` names).
cnf_formula gossip_cnf(const torus_variables& v, bool base_only, std::optional<torus_symmetry> symmetry,
                       bool arrival_count = true, bool parity_classes = true, bool returns = true) {
  const torus::network& network = v.net;
  const torus_model model = v.model;
  const std::uint64_t steps = v.steps;
  const pu_index P = network.size();
  const std::uint32_t ports = network.ports();
  const auto pairings = port_pairings(network.dimension());
  const std::uint64_t links = static_cast<std::uint64_t>(P) * ports;
  const std::uint64_t total =
      static_cast<std::uint64_t>(v.choice_count) + (steps >= 2 ? (steps - 1) * links * v.packets : 0);
  if (total > 50'000'000) throw std::invalid_argument("torus CNF: more than 5e7 variables");
  cnf_formula f;
  f.variables = static_cast<int>(total);
  f.comments.push_back("time-independent gossip on the " + network.name() + " torus, " + std::string(to_string(model)) +
                       " model, " + std::to_string(steps) + " steps");
  f.comments.push_back(model == torus_model::pairing
                           ? "variables 1.." + std::to_string(v.choice_count) + ": PU pu uses pairing c = pu*" +
                                 std::to_string(v.pairings) + " + c + 1"
                           : "variables 1.." + std::to_string(v.choice_count) +
                                 ": out-port o of PU pu forwards in-port i = (pu*" + std::to_string(ports) + " + o)*" +
                                 std::to_string(ports) + " + i + 1");
  f.comments.push_back("then x(t, link, u) for t >= 2: link pu*ports+o carries PU u's packet in step t");
  if (v.packets != P && v.port_map.empty())
    f.comments.push_back("translation-invariant tables: " + std::to_string(v.packets) +
                         " orbits; a PU uses its orbit's least PU's variables, and x follows only those PUs' packets");
  for (pu_index pu = 0; pu < P; ++pu) {
    if (v.orbit[pu] != pu) continue;  // shares its orbit's variables
    if (model == torus_model::pairing) {
      add_one_pairing(f, v, pu);
    } else {
      for (std::uint32_t o = 0; o < ports; ++o) add_out_port_rule(f, v, pu, o, base_only);
    }
  }
  if (!base_only && symmetry && *symmetry != torus_symmetry::none)
    add_symmetry_break(
        f, network, v, pairings, *symmetry == torus_symmetry::translations,
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
            return v.x(t - 1, static_cast<std::uint64_t>(from) * ports + torus::network::opposite(in), u);
          };
          justify(
              f, model, pairings, ports, o, x, previous, [&](std::uint32_t c) { return v.choice(pu, c); },
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
        for (std::uint64_t t = 2; t <= steps; ++t)
          reached.push_back(v.x(t, static_cast<std::uint64_t>(from) * ports + torus::network::opposite(p), u));
      }
      if (!step_one) f.clauses.push_back(reached);  // empty when steps < 2: unsatisfiable, as it should be
    }
  if (!base_only && arrival_count) add_arrival_count(f, v, parity_classes);
  if (!base_only && arrival_count && returns) add_return_exclusion(f, v, pairings);
  return f;
}

}  // namespace torus_cnf_detail

cnf_formula torus_gossip_cnf(const torus::network& network, torus_model model, std::uint64_t steps,
                             const torus_cnf_options& options) {
  return gossip_cnf(layout(network, model, steps, options.orbit), options.base_only, options.symmetry,
                    options.arrival_count, options.parity_classes, options.returns);
}

cnf_formula torus_symmetric_cnf(const torus::network& network, torus_model model, std::uint64_t steps,
                                const std::vector<torus_automorphism>& generators, const torus_cnf_options& options) {
  const bool arrival_count = options.arrival_count, symmetry_break = options.symmetry != torus_symmetry::none;
  const detail::group_orbits group = detail::orbits_of(network, generators);
  const torus_variables v = symmetric_layout(network, model, steps, group);
  cnf_formula f =
      gossip_cnf(v, false, symmetry_break ? std::optional(torus_symmetry::automorphisms) : std::nullopt, arrival_count);
  f.comments.push_back("tables invariant under the group of " + std::to_string(group.order) +
                       " automorphisms generated by " + describe(network, generators) + ": " +
                       std::to_string(v.packets) +
                       " orbits; a PU uses its orbit's least PU's variables through the ports' relabelling, "
                       "x follows only those PUs' packets" +
                       (symmetry_break ? "" : "; no symmetry break"));
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
          for (std::uint32_t in = 0; in < v.ports; ++in)
            f.clauses.push_back({-v.sel(r, o, in), v.sel(r, sigma[o], sigma[in])});
      }
    }
  return f;
}

}  // namespace dancecard::torus
