// The translations of the built-in networks, checked as automorphisms; the whole automorphism group of any network,
// against brute force; and the witnesses found first among the schedules they leave unchanged: invariant where found,
// and the same least steps and rounds as the whole model.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "dancecard/core/collective/symmetry.hpp"
#include "dancecard/smt/collective_synthesis.hpp"

namespace dancecard::collective {
namespace {

TEST(collective_symmetry, translations_of_the_built_in_networks_are_automorphisms) {
  EXPECT_EQ(translations(ring_topology(5)).size(), 1u);
  EXPECT_EQ(translations(complete_topology(4)).size(), 1u);
  EXPECT_EQ(translations(hypercube_topology(4)).size(), 4u);
  EXPECT_EQ(translations(*builtin_topology("torus:4x8")).size(), 2u);
  EXPECT_EQ(translations(*builtin_topology("torus:3x3x3")).size(), 3u);
  EXPECT_TRUE(translations(dgx1_topology()).empty());  // not a translation-symmetric network: none claimed
  EXPECT_TRUE(translations(ring_topology(1)).empty());
  for (const char* name : {"ring:6", "complete:5", "hypercube:3", "torus:2x3", "torus:4x4"}) {
    const topology net = *builtin_topology(name);
    for (const rank_permutation& g : translations(net)) EXPECT_TRUE(is_automorphism(net, g)) << name;
  }
}

TEST(collective_symmetry, a_network_that_only_bears_a_built_in_name_keeps_no_translation) {
  std::vector<link> links = ring_topology(4).links();
  links[0].capacity = 2;  // 0 -> 1 wider than the other links: the rotation no longer maps links onto equals
  const topology lopsided("ring:4", 4, links);
  EXPECT_TRUE(translations(lopsided).empty());
  EXPECT_FALSE(is_automorphism(lopsided, {1, 2, 3, 0}));
  EXPECT_TRUE(is_automorphism(ring_topology(4), {1, 2, 3, 0}));
  EXPECT_TRUE(is_automorphism(ring_topology(4), {0, 3, 2, 1}));   // a reflection
  EXPECT_FALSE(is_automorphism(ring_topology(4), {0, 2, 1, 3}));  // 0 -> 1 goes to 0 -> 2, no link
  EXPECT_FALSE(is_automorphism(ring_topology(4), {1, 1, 2, 3}));  // not a permutation
  EXPECT_FALSE(is_automorphism(ring_topology(4), {1, 2, 3}));     // too short
}

// The order of the group the generators make (every product, breadth first), and every automorphism by brute force.
std::size_t group_order(rank n, const std::vector<rank_permutation>& generators) {
  rank_permutation identity(n);
  for (rank r = 0; r < n; ++r) identity[r] = r;
  std::set<rank_permutation> seen{identity};
  std::vector<rank_permutation> queue{identity};
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (const rank_permutation& g : generators) {
      rank_permutation product(n);
      for (rank r = 0; r < n; ++r) product[r] = g[queue[i][r]];
      if (seen.insert(product).second) queue.push_back(std::move(product));
    }
  return seen.size();
}

std::size_t automorphisms_by_brute_force(const topology& net) {
  rank_permutation p(net.size());
  for (rank r = 0; r < net.size(); ++r) p[r] = r;
  std::size_t count = 0;
  do count += is_automorphism(net, p) ? 1 : 0;
  while (std::next_permutation(p.begin(), p.end()));
  return count;
}

TEST(collective_symmetry, automorphism_generators_make_the_whole_group) {
  std::vector<topology> nets;
  for (const char* name : {"dgx1", "ring:5", "ring:8", "complete:5", "hypercube:3", "torus:2x3", "torus:2x2x2"})
    nets.push_back(*builtin_topology(name));
  auto both_ways = [](rank n, std::initializer_list<std::pair<rank, rank>> edges, std::uint32_t capacity = 1) {
    std::vector<link> links;
    for (const auto& [a, b] : edges) links.push_back({a, b, capacity}), links.push_back({b, a, capacity});
    return topology("file", n, links);
  };
  nets.push_back(both_ways(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}}));  // two triangles: 72
  nets.push_back(both_ways(6, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}}));          // a star: 120
  nets.push_back(both_ways(6, {{0, 3}, {0, 4}, {0, 5}, {1, 3}, {1, 4}, {1, 5}, {2, 3}, {2, 4}, {2, 5}}));  // K3,3
  nets.push_back(both_ways(7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}}));                          // a path: 2
  nets.push_back(topology("file", 4, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 0, 1}}));  // one way round: 4
  std::vector<link> lopsided = ring_topology(6).links();
  lopsided[0].capacity = 2;  // one wider link: only the reflection through it
  nets.push_back(topology("file", 6, lopsided));
  nets.push_back(topology("file", 5, {}));  // no links: every permutation
  for (const topology& net : nets) {
    const std::vector<rank_permutation> generators = automorphism_generators(net);
    for (const rank_permutation& g : generators) EXPECT_TRUE(is_automorphism(net, g)) << net.name();
    EXPECT_EQ(group_order(net.size(), generators), automorphisms_by_brute_force(net)) << net.name();
  }
  EXPECT_EQ(group_order(8, automorphism_generators(dgx1_topology())), 4u);
  EXPECT_TRUE(automorphism_generators(ring_topology(1)).empty());
  // A search cut short still returns automorphisms only.
  for (const rank_permutation& g : automorphism_generators(complete_topology(7), 20))
    EXPECT_TRUE(is_automorphism(complete_topology(7), g));
}

// The transfers of each step as a set, and the set each generator makes of it (chunk and ranks mapped).
void expect_invariant(const schedule& s, const std::vector<rank_permutation>& generators) {
  const std::uint64_t C = s.coll.chunks;
  for (const step& st : s.steps) {
    std::set<std::tuple<std::uint64_t, rank, rank>> here;
    for (const transfer& t : st.transfers) here.insert({t.chunk, t.from, t.to});
    for (const rank_permutation& g : generators) {
      std::set<std::tuple<std::uint64_t, rank, rank>> moved;
      for (const auto& [c, from, to] : here) moved.insert({std::uint64_t{g[c / C]} * C + c % C, g[from], g[to]});
      EXPECT_EQ(moved, here);
    }
  }
}

// The least rounds of an all-gather in `steps` steps, proven with a witness that the symmetries keep (found within
// the invariant query's conflict budget, with no time limit: the answer does not depend on the machine's speed).
least_steps_result expect_invariant_witness(const topology& net, std::uint32_t chunks, std::uint64_t steps,
                                            std::uint64_t rounds, const std::string& kind,
                                            const std::vector<rank_permutation>& symmetries) {
  synthesis_options options;
  options.budget_ms = 0;
  const least_steps_result r =
      prove_least_rounds(net, {collective_kind::allgather, net.size(), chunks, 0}, steps, 12, options);
  EXPECT_EQ(r.status, proof_status::proven) << r.reason;
  if (!r.witness) {
    ADD_FAILURE() << "no witness: " << r.reason;
    return r;
  }
  EXPECT_EQ(check_collective_schedule(*r.witness).rounds, rounds);
  EXPECT_NE(r.queries.back().detail.find("invariant under the network's " + kind), std::string::npos)
      << r.queries.back().detail;
  expect_invariant(*r.witness, symmetries);
  return r;
}

TEST(collective_symmetry, the_hypercube_point_at_its_cut_bound_has_an_invariant_witness) {
  // All-gather, 4 chunks per rank, 4 steps on the 16-rank hypercube: 60 chunks into each rank over 4 links, at least
  // 15 rounds (a cut), and every query below refuted by a checked cut certificate.
  const topology net = hypercube_topology(4);
  const least_steps_result r = expect_invariant_witness(net, 4, 4, 15, "translations", translations(net));
  for (std::size_t q = 0; q + 1 < r.queries.size(); ++q)
    EXPECT_NE(r.queries[q].detail.find("cutting-planes certificate checked"), std::string::npos) << q;
}

TEST(collective_symmetry, dgx1_points_have_witnesses_its_automorphisms_keep) {
  // SCCL's bandwidth-optimal all-gather point (6, 3, 7) on DGX-1, which has no translations: the witness is found
  // among the schedules its automorphism group (order 4) keeps, and 6 rounds are refuted by a checked cut.
  const topology net = dgx1_topology();
  expect_invariant_witness(net, 6, 3, 7, "automorphisms", automorphism_generators(net));
}

TEST(collective_symmetry, the_same_answers_with_and_without_invariant_witnesses) {
  struct cell {
    const char* network;
    collective_kind kind;
    std::uint32_t chunks;
    port_model ports;
  };
  for (const cell& c : {cell{"ring:6", collective_kind::allgather, 1, port_model::one_port_full_duplex},
                        cell{"ring:5", collective_kind::alltoall, 1, port_model::all_port},
                        cell{"hypercube:3", collective_kind::allgather, 2, port_model::all_port},
                        cell{"torus:3x3", collective_kind::allgather, 1, port_model::all_port},
                        cell{"complete:4", collective_kind::alltoall, 1, port_model::one_port_full_duplex},
                        cell{"dgx1", collective_kind::allgather, 1, port_model::all_port}}) {
    const topology net = *builtin_topology(c.network);
    const collective coll{c.kind, net.size(), c.chunks, 0};
    synthesis_options with, without;
    with.budget_ms = without.budget_ms = 0;
    with.ports = without.ports = c.ports;
    without.symmetric_witnesses = false;
    const least_steps_result a = prove_least_steps(net, coll, with), b = prove_least_steps(net, coll, without);
    ASSERT_EQ(a.status, proof_status::proven) << c.network << ": " << a.reason;
    ASSERT_EQ(b.status, proof_status::proven) << c.network << ": " << b.reason;
    EXPECT_EQ(a.steps, b.steps) << c.network;
    const least_steps_result ra = prove_least_rounds(net, coll, a.steps, 8, with);
    const least_steps_result rb = prove_least_rounds(net, coll, a.steps, 8, without);
    ASSERT_EQ(ra.status, proof_status::proven) << c.network << ": " << ra.reason;
    ASSERT_EQ(rb.status, proof_status::proven) << c.network << ": " << rb.reason;
    EXPECT_EQ(check_collective_schedule(*ra.witness).rounds, check_collective_schedule(*rb.witness).rounds)
        << c.network;
    for (const synthesis_query& q : b.queries) EXPECT_EQ(q.detail.find("invariant"), std::string::npos);
  }
}

TEST(collective_symmetry, regular_elements_of_the_translations_take_rank_0_to_each_rank_once) {
  for (const char* name : {"ring:5", "complete:4", "hypercube:3", "torus:3x4", "torus:2x3", "torus:3x3x3"}) {
    const topology net = *builtin_topology(name);
    const rank n = net.size();
    const std::optional<std::vector<rank_permutation>> elements = regular_elements(translations(net), n);
    ASSERT_TRUE(elements) << name;
    ASSERT_EQ(elements->size(), n) << name;
    EXPECT_EQ(group_order(n, translations(net)), n) << name;
    for (rank v = 0; v < n; ++v) {
      EXPECT_EQ((*elements)[v][0], v) << name;
      EXPECT_TRUE(is_automorphism(net, (*elements)[v])) << name << ": " << v;
      for (const rank_permutation& h : *elements) {  // closed: a product is the element for its image of 0
        rank_permutation product(n);
        for (rank r = 0; r < n; ++r) product[r] = h[(*elements)[v][r]];
        EXPECT_EQ(product, (*elements)[product[0]]) << name;
      }
    }
  }
  // Not regular: a reflection beside the rotation (the dihedral group, 10 elements on 5 ranks), DGX-1's group (4
  // elements on 8 ranks), one translation of a 2-D torus (rank 0 reaches 3 of 12 ranks), and no permutation.
  EXPECT_FALSE(regular_elements({{1, 2, 3, 4, 0}, {0, 4, 3, 2, 1}}, 5));
  EXPECT_FALSE(regular_elements(automorphism_generators(dgx1_topology()), 8));
  EXPECT_FALSE(regular_elements({translations(*builtin_topology("torus:3x4"))[0]}, 12));
  EXPECT_FALSE(regular_elements({{1, 1, 0}}, 3));
  EXPECT_FALSE(regular_elements({{1, 2, 0}}, 4));
  EXPECT_TRUE(regular_elements({}, 1));  // one rank: the identity alone
}

// Where chunk c of an all-gather or all-to-all goes under g (its source's and destination's images).
std::uint64_t chunk_under(const collective& coll, const rank_permutation& g, std::uint64_t c) {
  const std::uint64_t C = coll.chunks, n = coll.ranks;
  if (coll.kind == collective_kind::allgather) return std::uint64_t{g[c / C]} * C + c % C;
  return (std::uint64_t{g[c / C / n]} * n + g[c / C % n]) * C + c % C;
}

TEST(collective_symmetry, the_quotient_by_the_translations_answers_as_the_invariant_formula) {
  struct cell {
    const char* network;
    collective_kind kind;
    std::uint32_t chunks;
    port_model ports;
    std::uint64_t max_steps;
    std::optional<std::uint32_t> total_rounds;
  };
  std::size_t sat = 0, unsat = 0;
  for (const cell& c : {cell{"ring:5", collective_kind::allgather, 1, port_model::all_port, 3, {}},
                        cell{"ring:6", collective_kind::allgather, 1, port_model::one_port_full_duplex, 6, {}},
                        cell{"ring:5", collective_kind::alltoall, 1, port_model::all_port, 4, {}},
                        cell{"torus:3x3", collective_kind::allgather, 2, port_model::all_port, 3, 5},
                        cell{"torus:2x3", collective_kind::allgather, 1, port_model::all_port, 3, {}},
                        cell{"hypercube:3", collective_kind::alltoall, 1, port_model::all_port, 4, {}},
                        cell{"hypercube:3", collective_kind::allgather, 2, port_model::all_port, 3, 4},
                        cell{"complete:4", collective_kind::alltoall, 1, port_model::one_port_full_duplex, 4, {}}}) {
    const topology net = *builtin_topology(c.network);
    const collective coll{c.kind, net.size(), c.chunks, 0};
    const std::vector<rank_permutation> group = translations(net);
    synthesis_options options;
    options.ports = c.ports;
    options.total_rounds = c.total_rounds;
    for (std::uint64_t s = c.total_rounds ? 2 : 1; s <= c.max_steps; ++s) {
      const std::string at =
          std::string(c.network) + " " + std::string(to_string(c.kind)) + ", " + std::to_string(s) + " steps";
      const std::optional<quotient_query> q = quotient_steps_cnf(net, coll, s, options);
      ASSERT_TRUE(q) << at;
      EXPECT_EQ(q->chunks.size(), coll.chunk_count() / net.size()) << at;
      const clausal_result quotient = solve_for_model(q->formula, 0);
      const clausal_result invariant = solve_for_model(*invariant_steps_cnf(net, coll, s, options), 0);
      ASSERT_NE(quotient.answer, solver_answer::unknown) << at;
      EXPECT_EQ(quotient.answer, invariant.answer) << at;
      if (quotient.answer != solver_answer::sat) {
        ++unsat;
        continue;
      }
      ++sat;
      const schedule w = decode_quotient_model(net, coll, s, options, *q, quotient.model, "quotient");
      const collective_report check = check_collective_schedule(w);
      EXPECT_TRUE(check.holds()) << at << ": " << describe(check);
      if (c.total_rounds) {
        EXPECT_LE(check.rounds, *c.total_rounds) << at;
      }
      for (const step& st : w.steps) {  // every translation maps each step's transfers onto themselves
        std::set<std::tuple<std::uint64_t, rank, rank>> here;
        for (const transfer& t : st.transfers) here.insert({t.chunk, t.from, t.to});
        for (const rank_permutation& g : group) {
          std::set<std::tuple<std::uint64_t, rank, rank>> moved;
          for (const auto& [chunk, from, to] : here) moved.insert({chunk_under(coll, g, chunk), g[from], g[to]});
          EXPECT_EQ(moved, here) << at;
        }
      }
    }
  }
  EXPECT_GT(sat, 0u);  // both answers were met
  EXPECT_GT(unsat, 0u);
  // No quotient for a collective with a root, nor on a network whose only symmetries are not translations.
  EXPECT_FALSE(quotient_steps_cnf(ring_topology(4), {collective_kind::broadcast, 4, 1, 0}, 2));
  EXPECT_FALSE(quotient_steps_cnf(dgx1_topology(), {collective_kind::allgather, 8, 1, 0}, 2));
}

TEST(collective_symmetry, the_32_rank_torus_reaches_its_in_link_bound_in_the_diameters_steps) {
  // All-gather on torus:4x8 with 4 chunks per rank: 124 chunks into each rank over its 4 links need 31 rounds, and the
  // diameter 6 steps. A witness of both at once is found in the quotient by the translations (at most its conflict
  // budget; no time limit), judged by the checker, and 30 rounds are refuted by a checked cut.
  const topology net = *builtin_topology("torus:4x8");
  synthesis_options options;
  options.budget_ms = 0;
  const least_steps_result r = prove_least_rounds(net, {collective_kind::allgather, 32, 4, 0}, 6, 25, options);
  ASSERT_EQ(r.status, proof_status::proven) << r.reason;
  ASSERT_TRUE(r.witness);
  const collective_report check = check_collective_schedule(*r.witness, {.exact = true});
  EXPECT_TRUE(check.holds()) << describe(check);
  EXPECT_EQ(check.steps, 6u);
  EXPECT_EQ(check.rounds, 31u);
  EXPECT_NE(r.queries.back().detail.find("invariant under the network's translations"), std::string::npos);
  expect_invariant(*r.witness, translations(net));
  ASSERT_EQ(r.queries.size(), 26u);  // 6 … 30 rounds refuted, each by a checked cut
  for (std::size_t q = 0; q + 1 < r.queries.size(); ++q)
    EXPECT_NE(r.queries[q].detail.find("cutting-planes certificate checked"), std::string::npos) << q;
}

TEST(collective_symmetry, the_invariant_formula_only_where_symmetries_fix_the_collective) {
  EXPECT_TRUE(invariant_steps_cnf(ring_topology(4), {collective_kind::allgather, 4, 1, 0}, 2));
  EXPECT_TRUE(invariant_steps_cnf(ring_topology(4), {collective_kind::alltoall, 4, 1, 0}, 2));
  EXPECT_FALSE(invariant_steps_cnf(ring_topology(4), {collective_kind::broadcast, 4, 1, 0}, 2));  // a root
  EXPECT_TRUE(invariant_steps_cnf(dgx1_topology(), {collective_kind::allgather, 8, 1, 0}, 2));    // automorphisms
  std::vector<link> lopsided = ring_topology(5).links();
  lopsided[0].capacity = 2, lopsided[1].capacity = 3;  // 0 -> 1 and 0 -> 4 wider, and unlike: only the identity
  EXPECT_FALSE(invariant_steps_cnf(topology("file", 5, lopsided), {collective_kind::allgather, 5, 1, 0}, 2));
  // One more pair of equalities per held and send variable and generator at most, nothing else.
  const cnf_formula whole = collective_steps_cnf(ring_topology(4), {collective_kind::allgather, 4, 1, 0}, 2);
  const cnf_formula invariant = *invariant_steps_cnf(ring_topology(4), {collective_kind::allgather, 4, 1, 0}, 2);
  EXPECT_EQ(invariant.variables, whole.variables);
  EXPECT_EQ(invariant.clauses.size(), whole.clauses.size() + 2 * (3 * 4 * 4 + 2 * 8 * 4));
  EXPECT_TRUE(std::equal(whole.clauses.begin(), whole.clauses.end(), invariant.clauses.begin()));
}

}  // namespace
}  // namespace dancecard::collective
