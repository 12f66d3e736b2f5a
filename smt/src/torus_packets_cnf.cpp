// The torus gossip CNF with K own packets per PU (Meyer and Sibeyn, Sections 3.2-3.4: d or 2 packets per PU): which
// out-port injects which packet in step 1, then forwarding as in the one-packet CNF.
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

// The variables of torus_packets_cnf: the model's choices (numbered as in torus_gossip_cnf without a group), then
// inj(pu, out, q), then x(t, link, p) for t >= 2 and p = i·k + q (packet q of the i-th tracked PU). With an orbit map
// (tables invariant under a group of translations) a PU uses its orbit's least PU's choice and injection variables,
// and only the least PUs' packets are tracked; without, every PU is its own orbit.
struct packet_variables {
  const torus::network& net;
  torus_model model;
  std::uint32_t k;
  std::uint64_t steps;
  std::uint32_t ports, pairings;
  int choices, injections;
  std::vector<pu_index> orbit;        // orbit[pu]: the least PU of pu's orbit
  std::vector<pu_index> source;       // source[i]: the i-th tracked PU
  std::vector<std::int64_t> tracked;  // tracked[u]: u's index among the tracked PUs, or -1
  // The packet count the CNFs accept: 1 to 2d (std::invalid_argument otherwise).
  static void require_packets(const torus::network& network, std::uint32_t packets) {
    if (packets == 0 || packets > network.ports())
      throw std::invalid_argument("torus packets CNF: " + std::to_string(packets) + " packets per PU (1 to " +
                                  std::to_string(network.ports()) + ": each needs an out-port in step 1)");
  }
  packet_variables(const torus::network& network, torus_model m, std::uint32_t packets, std::uint64_t t,
                   const std::vector<pu_index>& orbit_map = {})
      : net(network),
        model(m),
        k(packets),
        steps(t),
        ports(network.ports()),
        pairings(static_cast<std::uint32_t>(port_pairings(network.dimension()).size())),
        orbit(orbit_map) {
    require_packets(network, packets);
    orbit = layout(network, m, t, orbit_map).orbit;  // refuses a map that is not a translation group's orbits
    choices = model == torus_model::pairing ? static_cast<int>(network.size() * pairings)
                                            : static_cast<int>(network.size() * ports * ports);
    injections = static_cast<int>(network.size() * ports * k);
    tracked.assign(network.size(), -1);
    for (pu_index pu = 0; pu < network.size(); ++pu)
      if (orbit[pu] == pu) tracked[pu] = static_cast<std::int64_t>(source.size()), source.push_back(pu);
  }
  int choice(pu_index pu, std::uint32_t c) const { return static_cast<int>(orbit[pu] * pairings + c + 1); }
  int sel(pu_index pu, std::uint32_t out, std::uint32_t in) const {
    return static_cast<int>((orbit[pu] * ports + out) * ports + in + 1);
  }
  int inj(pu_index pu, std::uint32_t out, std::uint32_t q) const {
    return choices + static_cast<int>((orbit[pu] * ports + out) * k + q + 1);
  }
  std::uint64_t packet_count() const { return static_cast<std::uint64_t>(source.size()) * k; }
  int x(std::uint64_t t, std::uint64_t link, std::uint64_t p) const {
    return choices + injections + static_cast<int>(((t - 2) * net.size() * ports + link) * packet_count() + p + 1);
  }
  std::uint64_t total() const {
    return static_cast<std::uint64_t>(choices) + injections +
           (steps >= 2 ? (steps - 1) * net.size() * ports * packet_count() : 0);
  }
  // w − (u − orbit[u]): where the tracked packet of orbit[u] arrives when u's arrives at w (a translation keeps ports)
  pu_index translate_back(pu_index w, pu_index u) const {
    const std::vector<std::uint32_t> cw = net.coordinates(w), cu = net.coordinates(u), cr = net.coordinates(orbit[u]);
    std::vector<std::uint32_t> c(cw.size());
    for (std::size_t j = 0; j < c.size(); ++j) c[j] = (cw[j] + cr[j] + net.dims()[j] - cu[j]) % net.dims()[j];
    return net.index(c);
  }
};

}  // namespace torus_cnf_detail

int torus_injection_variable(const torus::network& network, torus_model model, std::uint32_t packets, pu_index pu,
                             std::uint32_t out, std::uint32_t packet) {
  return packet_variables(network, model, packets, 1).inj(pu, out, packet);
}

cnf_formula torus_packets_cnf(const torus::network& network, torus_model model, std::uint32_t packets,
                              std::uint64_t steps, const torus_cnf_options& options) {
  const bool base_only = options.base_only;
  const std::vector<pu_index>& orbit = options.orbit;
  const torus_symmetry symmetry = options.symmetry;
  const packet_variables v(network, model, packets, steps, orbit);
  const pu_index P = network.size();
  const std::uint32_t ports = v.ports, k = v.k;
  const auto pairings = port_pairings(network.dimension());
  if (v.total() > 50'000'000) throw std::invalid_argument("torus packets CNF: more than 5e7 variables");
  cnf_formula f;
  f.variables = static_cast<int>(v.total());
  f.comments.push_back("time-independent gossip with " + std::to_string(k) + " packets per PU on the " +
                       network.name() + " torus, " + std::string(to_string(model)) + " model, " +
                       std::to_string(steps) + " steps, no packet held");
  f.comments.push_back("variables 1.." + std::to_string(v.choices) +
                       ": the model's choices, as torus_gossip_cnf; then inj(pu, o, q) = " + std::to_string(v.choices) +
                       " + (pu*" + std::to_string(ports) + " + o)*" + std::to_string(k) +
                       " + q + 1: out-port o of pu sends its packet q in step 1; then x(t, link, i*k + q) for t >= 2, "
                       "i the i-th tracked PU");
  if (v.source.size() != P)
    f.comments.push_back("translation-invariant tables: " + std::to_string(v.source.size()) +
                         " orbits; a PU uses its orbit's least PU's choice and injection variables, and x follows only "
                         "those PUs' packets");
  // Counting: a PU receives at most 2d packets a step and must receive k·(P − 1).
  if (counting_bound(network, k) > steps) {
    f.comments.push_back("below the counting bound: a PU receives at most " + std::to_string(ports) +
                         " packets a step and needs " + std::to_string(static_cast<std::uint64_t>(k) * (P - 1)));
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
  // torus_symmetry::translations keeps the break over translations alone (bench/ compares the two); none: no
  // lex-leader.
  if (!base_only && symmetry != torus_symmetry::none)
    add_symmetry_break(
        f, network, layout(network, model, steps, orbit), pairings, symmetry == torus_symmetry::translations,
        symmetry == torus_symmetry::automorphisms || symmetry == torus_symmetry::automorphisms_without_hypercube,
        symmetry == torus_symmetry::automorphisms || symmetry == torus_symmetry::automorphisms_without_line_swaps);
  // carried(w, t, in, p): the literal "in-port `in` of w brings tracked packet p in step t" (0: never — step 1 brings
  // only the neighbour's own packets)
  auto carried = [&](pu_index w, std::uint64_t t, std::uint32_t in, std::uint64_t p) -> int {
    const pu_index from = network.neighbor(w, in);
    if (t == 1)
      return from == v.source[p / k] ? v.inj(from, torus::network::opposite(in), static_cast<std::uint32_t>(p % k)) : 0;
    return v.x(t, static_cast<std::uint64_t>(from) * ports + torus::network::opposite(in), p);
  };
  // Justification of every transfer from step 2 on: x(t, pu→o, p) needs the rule's in-port to have carried p in step
  // t − 1 (step 1: the neighbour's injection of p, when p is the neighbour's).
  for (std::uint64_t t = 2; t <= steps; ++t)
    for (pu_index pu = 0; pu < P; ++pu)
      for (std::uint32_t o = 0; o < ports; ++o)
        for (std::uint64_t p = 0; p < v.packet_count(); ++p)
          justify(
              f, model, pairings, ports, o, v.x(t, static_cast<std::uint64_t>(pu) * ports + o, p),
              [&](std::uint32_t in) { return carried(pu, t - 1, in, p); },
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

namespace torus_cnf_detail {

// A model of torus_packets_cnf as a table: the forwarding as torus_gossip_cnf's decoder reads it (the choice variables
// are numbered alike, with the same orbit map), then the injections.
void require_packets(const torus::network& network, std::uint32_t packets) {
  packet_variables::require_packets(network, packets);
}

routing_table decode_packets(const torus::network& network, torus_model model, std::uint32_t packets,
                             std::uint64_t steps, const std::vector<pu_index>& orbit,
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

}  // namespace torus_cnf_detail

torus_query_result solve_torus_packets(const torus::network& network, torus_model model, std::uint32_t packets,
                                       std::uint64_t steps, unsigned budget_ms, bool keep_certificate,
                                       const std::atomic<bool>* cancel) {
  const auto start = std::chrono::steady_clock::now();
  const cnf_formula f = torus_packets_cnf(network, model, packets, steps);
  torus_query_result out = solve_full_query(
      f, steps, budget_ms, keep_certificate,
      [&](const std::vector<int>& true_literals) {
        return decode_packets(network, model, packets, steps, {}, true_literals, f.variables);
      },
      cancel);
  out.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();  // building the CNF included
  return out;
}

torus_minimum_result detail::prove_packets_minimum(const torus::network& network, torus_model model, unsigned budget_ms,
                                                   const torus_minimum_options& options) {
  const std::uint32_t packets = options.packets;
  const std::atomic<bool>* cancel = options.cancel;
  packet_variables::require_packets(network, packets);  // as the queries' CNFs do
  // Each step count is first asked of smaller queries, each with a tenth of the budget (at most 30 s), whose sat
  // answers are simulated witnesses like any other; only the full query's unsat is a lower bound. In the general
  // model, first the pairing model: a pairing table is a general table (out-port o forwards its partner's in-port),
  // and its query is far smaller (4 x 5 with two packets in 10 steps: sat in 13 s, the general query unknown after
  // 600 s). Then, in either model, the tables invariant under translations (quick_invariant_witness, as with one
  // packet).
  const unsigned quick_ms = detail::quick_query_ms(budget_ms);
  auto query = [&](std::uint64_t T) {
    if (model == torus_model::general && quick_ms > 0) {
      torus_query_result quick =
          solve_torus_packets(network, torus_model::pairing, packets, T, quick_ms, false, cancel);
      if (quick.answer == solver_answer::sat) {
        quick.reason = "a pairing table (a pairing is a general rule): " + quick.reason;
        return quick;
      }
    }
    if (torus_query_result quick = detail::quick_invariant_witness(network, model, T, budget_ms, packets, cancel);
        quick.answer == solver_answer::sat)
      return quick;
    return solve_torus_packets(network, model, packets, T, budget_ms, options.keep_certificate, cancel);
  };
  // Past a query out of time, the local search with k packets and the translation-invariant tables give an upper bound,
  // and the search asks the steps below it.
  return detail::search_torus_minimum(
      network, model == torus_model::pairing, options.max_steps, query,
      [&](std::uint64_t steps) { return detail::heuristic_witness(network, model, steps, budget_ms, packets); },
      packets, options.on_query, cancel);
}

}  // namespace dancecard::torus
