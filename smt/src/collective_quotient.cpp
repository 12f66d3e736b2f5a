// The invariant witness query in the quotient by a group of translations that acts regularly on the ranks (see
// quotient_steps_cnf in the header). A schedule that such a group G leaves unchanged is fixed by what it does with
// rank 0's chunks: chunk g(c) crosses link g(l) in step t exactly when c crosses l. Since G fixes no rank, it fixes no
// link either, so the links fall into orbits of n links each, one out of every rank and one into every rank; the link
// g(l) carries, in step t, chunk g'(c) for each g' and c with c crossing g'^-1 g(l), that is, one send of rank 0's
// chunks per link of the orbit. So the capacity and port conditions of the whole schedule are conditions on the orbits,
// and the quotient keeps 1/n of the held and send variables of the formula with equalities (invariant_steps_cnf),
// which CaDiCaL otherwise solves with all n copies of every link's counter.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cnf_cardinality.hpp"
#include "collective_cnf_parts.hpp"
#include "dancecard/smt/collective_synthesis.hpp"

namespace dancecard::collective {

namespace {

cnf_parts::held_send_layout layout_of(const topology& network, const quotient_query& q, std::uint64_t steps) {
  return cnf_parts::make_held_send_layout(q.chunks.size(), steps, network.size(), network.links().size());
}

// The orbit of every link under the elements, numbered by the links out of rank 0 (each orbit has exactly one);
// empty if some link is met twice or never, which a regular group of automorphisms rules out.
std::vector<std::size_t> link_orbits(const topology& network, const std::vector<rank_permutation>& elements) {
  const auto& links = network.links();
  const std::size_t none = links.size();
  std::vector<std::size_t> orbit(links.size(), none);
  std::size_t orbits = 0;
  for (std::size_t l0 = 0; l0 < links.size(); ++l0) {
    if (links[l0].from != 0) continue;
    for (const rank_permutation& g : elements) {
      if (network.capacity(g[links[l0].from], g[links[l0].to]) != links[l0].capacity) return {};
      std::size_t& o = orbit[network.link_index(g[links[l0].from], g[links[l0].to])];
      if (o != none) return {};
      o = orbits;
    }
    ++orbits;
  }
  for (const std::size_t o : orbit)
    if (o == none) return {};
  return orbit;
}

}  // namespace

std::optional<quotient_query> quotient_steps_cnf(const topology& network, const collective& coll, std::uint64_t steps,
                                                 const synthesis_options& options) {
  cnf_parts::require_synthesizable(network, coll, options);
  if (coll.kind != collective_kind::allgather && coll.kind != collective_kind::alltoall) return std::nullopt;
  std::optional<std::vector<rank_permutation>> elements = regular_elements(translations(network), network.size());
  if (!elements) return std::nullopt;
  const std::vector<std::size_t> orbit = link_orbits(network, *elements);
  if (orbit.empty()) return std::nullopt;
  quotient_query q;
  q.elements = std::move(*elements);
  for (std::uint64_t c = 0; c < coll.chunk_count(); ++c)
    if (coll.source(c) == 0) q.chunks.push_back(c);
  const cnf_parts::held_send_layout at = layout_of(network, q, steps);
  const auto& links = network.links();
  const rank n = network.size();
  cnf_formula& f = q.formula;
  f.variables = at.last();
  const cnf_parts::round_spread spread = cnf_parts::spread_rounds(f, steps, options);
  f.comments.push_back(cnf_parts::query_comment(network, coll, steps, options));
  f.comments.push_back("in the quotient by the network's " + std::to_string(n) +
                       " translations: rank 0's chunks only, held(k, r, t) = 1 + (t*" + std::to_string(n) + " + r)*" +
                       std::to_string(at.chunks) + " + k; send(k, link l, t) = " + std::to_string(at.send(0, 0, 0)) +
                       " + (t*" + std::to_string(links.size()) + " + l)*" + std::to_string(at.chunks) + " + k");
  for (std::uint64_t k = 0; k < at.chunks; ++k)
    for (rank r = 0; r < n; ++r) {
      f.clauses.push_back({coll.source(q.chunks[k]) == r ? at.held(k, r, 0) : -at.held(k, r, 0)});
      if (coll.wanted(q.chunks[k], r)) f.clauses.push_back({at.held(k, r, steps)});
    }
  std::size_t orbits = 0;
  for (const std::size_t o : orbit) orbits = std::max(orbits, o + 1);
  for (std::uint64_t t = 0; t < steps; ++t) {
    for (std::uint64_t k = 0; k < at.chunks; ++k) cnf_parts::chunk_moves(f, network, at, k, t);
    cnf_parts::require_within_limit(f, options);
    std::vector<std::vector<int>> sends(orbits);  // what each link of the orbit carries in the whole schedule
    std::vector<std::uint32_t> capacity(orbits, 0);
    for (std::size_t l = 0; l < links.size(); ++l) {
      capacity[orbit[l]] = links[l].capacity;
      for (std::uint64_t k = 0; k < at.chunks; ++k) sends[orbit[l]].push_back(at.send(k, l, t));
    }
    for (std::size_t o = 0; o < orbits; ++o) cnf_parts::limit_link(f, sends[o], capacity[o], t, options, spread);
    if (options.ports == port_model::one_port_full_duplex) {  // each rank's out- and in-links: one per orbit
      std::vector<int> used(orbits);
      for (std::size_t o = 0; o < orbits; ++o) {
        used[o] = ++f.variables;
        for (const int s : sends[o]) f.clauses.push_back({-s, used[o]});
      }
      detail::at_most(f, used, 1);
    }
  }
  return q;
}

schedule decode_quotient_model(const topology& network, const collective& coll, std::uint64_t steps,
                               const synthesis_options& options, const quotient_query& query,
                               const std::vector<int>& model, const std::string& algorithm) {
  const cnf_parts::held_send_layout at = layout_of(network, query, steps);
  const std::vector<char> truth = cnf_parts::truth_of(model, query.formula.variables);
  schedule w = cnf_parts::steps_of_model(network, coll, steps, options, truth, at.last() + 1, algorithm);
  const auto& links = network.links();
  auto is = [&truth](int var) { return truth[static_cast<std::size_t>(var)] != 0; };
  for (std::uint64_t t = 0; t < steps; ++t) {
    std::vector<char> arrived(static_cast<std::size_t>(network.size()) * at.chunks, 0);
    for (std::size_t l = 0; l < links.size(); ++l)
      for (std::uint64_t k = 0; k < at.chunks; ++k) {
        const rank to = links[l].to;
        char& once = arrived[static_cast<std::size_t>(to) * at.chunks + k];
        if (!is(at.send(k, l, t)) || is(at.held(k, to, t)) || once) continue;
        once = 1;
        for (const rank_permutation& g : query.elements)
          w.steps[t].transfers.push_back(
              {cnf_parts::chunk_image(coll, g, query.chunks[k]), g[links[l].from], g[to], transfer_op::copy});
      }
  }
  return w;
}

}  // namespace dancecard::collective
