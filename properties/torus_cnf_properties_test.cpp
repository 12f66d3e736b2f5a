// Properties of the torus CNF under RapidCheck: exact against the simulator (one and K packets, fixed tables), the
// implied constraints keep every table and the minimum (arrival count, parity), the injection chooser, and split
// queries answer as the whole query.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dancecard/checkers/cube_cover_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/common/cyclic_order.hpp"
#include "dancecard/search/torus_tables.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "dancecard/smt/torus_supply.hpp"
#include "torus_properties_support.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
using namespace dancecard::certificates;
namespace {

using namespace torus_properties;

// The CNF with a table fixed by unit clauses is sat exactly when the simulator says the table completes (unsat
// answers with their DRAT proof checked).
void sat_exactly_when(const cnf_formula& f, bool completes) {
  const clausal_result solved = solve_with_proof(f, 60'000);
  RC_ASSERT(solved.answer != solver_answer::unknown);
  RC_ASSERT((solved.answer == solver_answer::sat) == completes);
  if (solved.answer == solver_answer::unsat) RC_ASSERT(solved.proof.check(f.dimacs()).outcome == verdict::holds);
  RC_TAG(completes ? "completes" : "does not complete");
}

// The CNF of smt/torus_encoding (without implied or symmetry-breaking constraints) is exact: fixing its choice
// variables to a random table, it is satisfiable iff the simulator says the table completes gossip within T steps;
// when unsatisfiable, CaDiCaL's DRAT proof passes the checker. Half the time the table is invariant under a random
// translation (the same choice along each orbit) and the CNF is the invariant one, which follows only one packet per
// orbit.
RC_GTEST_PROP(torus_cnf, exact_against_the_simulator, ()) {
  const std::uint32_t n1 = *rc::gen::inRange<std::uint32_t>(2, 5), n2 = *rc::gen::inRange<std::uint32_t>(3, 5);
  const torus::network t({n1, n2});
  const bool pairing = *rc::gen::arbitrary<bool>();
  const torus_model model = pairing ? torus_model::pairing : torus_model::general;
  const std::uint64_t steps = *rc::gen::inRange<std::uint64_t>(1, 9);
  std::vector<pu_index> orbit;
  if (*rc::gen::arbitrary<bool>())
    orbit = translation_orbits(t, {{*rc::gen::inRange<std::uint32_t>(0, n1), *rc::gen::inRange<std::uint32_t>(0, n2)}});
  const auto owner = [&](pu_index pu) { return orbit.empty() ? pu : orbit[pu]; };
  cnf_formula f = torus_gossip_cnf(t, model, steps, {.base_only = true, .orbit = orbit});
  routing_table table{
      t, 1, std::vector<std::uint32_t>(t.size() * 4, no_port), std::vector<std::uint32_t>(t.size() * 4, 0), {}};
  if (pairing) {
    const auto pairings = port_pairings(2);
    std::vector<std::uint32_t> partner(t.size() * 4), chosen(t.size());
    for (pu_index pu = 0; pu < t.size(); ++pu) {
      const std::uint32_t c =
          owner(pu) == pu ? *rc::gen::inRange<std::uint32_t>(0, 3) : chosen[owner(pu)];  // owner(pu) <= pu
      chosen[pu] = c;
      for (std::uint32_t o = 0; o < 4; ++o) partner[pu * 4 + o] = pairings[c][o];
      if (owner(pu) != pu) continue;
      for (std::uint32_t k = 0; k < 3; ++k)
        f.clauses.push_back(
            {k == c ? torus_choice_variable(t, model, pu, k) : -torus_choice_variable(t, model, pu, k)});
    }
    table = pairing_table(t, partner, packets_per_pu::one);
  } else {
    for (pu_index pu = 0; pu < t.size(); ++pu)
      for (std::uint32_t o = 0; o < 4; ++o) {
        if (owner(pu) != pu) {
          table.forward_at(pu, o) = table.forward_at(owner(pu), o);
          continue;
        }
        const std::uint32_t in = *rc::gen::inRange<std::uint32_t>(0, 5);  // 4: forwards nothing
        table.forward_at(pu, o) = in == 4 ? no_port : in;
        for (std::uint32_t k = 0; k < 4; ++k)
          f.clauses.push_back(
              {k == in ? torus_choice_variable(t, model, pu, o, k) : -torus_choice_variable(t, model, pu, o, k)});
      }
  }
  const bool completes = simulate_gossip(table, steps).holds();
  sat_exactly_when(f, completes);
  RC_TAG(orbit.empty() ? "any table" : "invariant table");
}

// A small random torus for the k-packet properties: 2-D with sides 2 to 4 (three times in four), else 2 × 2 × 2 or
// 2 × 2 × 3.
torus::network small_packet_torus() {
  const std::uint32_t d = *rc::gen::weightedElement<std::uint32_t>({{3, 2u}, {1, 3u}});
  std::vector<std::uint32_t> dims(d, 2);
  if (d == 2)
    dims = {*rc::gen::inRange<std::uint32_t>(2, 5), *rc::gen::inRange<std::uint32_t>(2, 5)};
  else
    dims[2] = *rc::gen::inRange<std::uint32_t>(2, 4);
  return torus::network(dims);
}

// The k-packet CNF (torus_packets_cnf, no packet held) is exact: a random table with k own packets per PU — each
// out-port sending a random one of them (or none) in step 1, and forwarding by a random pairing or a random in-port
// (or none) — fixed in the CNF by unit clauses is sat exactly when the simulator says it completes within T steps.
// Half the time the table is invariant under a random group of translations (one or two generators; every PU of an
// orbit makes its least PU's choices) and the CNF is the one with that orbit map, which follows the least PUs' packets.
RC_GTEST_PROP(torus_packets, cnf_exact_against_the_simulator, ()) {
  const torus::network t = small_packet_torus();
  const std::uint32_t d = t.dimension();
  const std::vector<std::uint32_t>& dims = t.dims();
  const std::uint32_t ports = t.ports();
  const std::uint32_t k = *rc::gen::inRange<std::uint32_t>(1, 4);
  const torus_model model = *rc::gen::arbitrary<bool>() ? torus_model::pairing : torus_model::general;
  const std::uint64_t steps = *rc::gen::inRange<std::uint64_t>(1, 4 * k + 4);
  std::vector<pu_index> orbit;
  if (*rc::gen::arbitrary<bool>()) {
    std::vector<std::vector<std::uint32_t>> generators(*rc::gen::inRange<std::size_t>(1, 3),
                                                       std::vector<std::uint32_t>(d));
    for (auto& g : generators)
      for (std::uint32_t j = 0; j < d; ++j) g[j] = *rc::gen::inRange<std::uint32_t>(0, dims[j]);
    orbit = translation_orbits(t, generators);
  }
  const auto owner = [&](pu_index pu) { return orbit.empty() ? pu : orbit[pu]; };
  cnf_formula f = torus_packets_cnf(t, model, k, steps, {.base_only = true, .orbit = orbit});
  routing_table table{t,
                      k,
                      std::vector<std::uint32_t>(t.size() * ports, no_port),
                      std::vector<std::uint32_t>(t.size() * ports, no_packet),
                      {}};
  const auto pairings = port_pairings(d);
  for (pu_index pu = 0; pu < t.size(); ++pu) {
    if (owner(pu) != pu) {  // owner(pu) < pu: its choices are made
      for (std::uint32_t o = 0; o < ports; ++o)
        table.forward_at(pu, o) = table.forward_at(owner(pu), o),
                             table.inject_at(pu, o) = table.inject_at(owner(pu), o);
      continue;
    }
    if (model == torus_model::pairing) {
      const std::uint32_t c = *rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(pairings.size()));
      for (std::uint32_t o = 0; o < ports; ++o) table.forward_at(pu, o) = pairings[c][o];
      for (std::uint32_t j = 0; j < pairings.size(); ++j)
        f.clauses.push_back(
            {j == c ? torus_choice_variable(t, model, pu, j) : -torus_choice_variable(t, model, pu, j)});
    }
    const std::uint32_t shift = *rc::gen::inRange<std::uint32_t>(0, k);
    for (std::uint32_t o = 0; o < ports; ++o) {
      if (model == torus_model::general) {
        const std::uint32_t in = *rc::gen::inRange<std::uint32_t>(0, ports + 1);  // ports: forwards nothing
        table.forward_at(pu, o) = in == ports ? no_port : in;
        for (std::uint32_t j = 0; j < ports; ++j)
          f.clauses.push_back(
              {j == in ? torus_choice_variable(t, model, pu, o, j) : -torus_choice_variable(t, model, pu, o, j)});
      }
      // mostly every packet on some port (a packet sent nowhere is never received): port o sends (o + shift) mod k
      const std::uint32_t q = *rc::gen::weightedElement<std::uint32_t>({{8, 0u}, {1, 1u}}) == 0
                                  ? (o + shift) % k
                                  : *rc::gen::inRange<std::uint32_t>(0, k + 1);
      table.inject_at(pu, o) = q == k ? no_packet : q;
      for (std::uint32_t j = 0; j < k; ++j)
        f.clauses.push_back({j == q ? torus_injection_variable(t, model, k, pu, o, j)
                                    : -torus_injection_variable(t, model, k, pu, o, j)});
    }
  }
  const bool completes = simulate_gossip(table, steps).holds();
  sat_exactly_when(f, completes);
  RC_TAG(std::to_string(k) + " packets");
  RC_TAG(orbit.empty() ? "any table" : "invariant table");
}

// The implied constraints and the break of torus_packets_cnf (every out-port sends and forwards, every packet leaves,
// the arrival count, packet 0 on out-port 0) keep the minimum: on random small tori and k, the CNF with them and
// the CNF without are unsat and sat at the same step counts, asked upward from the counting bound until the CNF
// without them is sat; the unsat answers of the CNF with them come with DRAT proofs, checked. A sat answer of
// solve_torus_packets is simulated. Half the time both CNFs are over the tables invariant under the translations by
// a random shift (the arrival count then kept at the orbits' least PUs, the lex-leader over the group's normalizer).
RC_GTEST_PROP(torus_packets, implied_constraints_keep_the_minimum, ()) {
  const std::uint32_t d = *rc::gen::weightedElement<std::uint32_t>({{3, 2u}, {1, 3u}});
  std::vector<std::uint32_t> dims(d, 2);
  // small enough for both CNFs to answer within a second near the minimum: P <= 9
  if (d == 2) dims = {*rc::gen::inRange<std::uint32_t>(2, 4), *rc::gen::inRange<std::uint32_t>(2, 4)};
  const torus::network t(dims);
  const std::uint32_t k = *rc::gen::inRange<std::uint32_t>(1, 3);
  const torus_model model = *rc::gen::arbitrary<bool>() ? torus_model::pairing : torus_model::general;
  std::vector<pu_index> orbit;  // half the time: tables invariant under the translations by one random shift
  if (*rc::gen::arbitrary<bool>()) {
    std::vector<std::uint32_t> shift(dims.size());
    for (std::size_t j = 0; j < dims.size(); ++j) shift[j] = *rc::gen::inRange<std::uint32_t>(0, dims[j]);
    orbit = translation_orbits(t, {shift});
  }
  const std::uint64_t counting = (static_cast<std::uint64_t>(k) * (t.size() - 1) + t.ports() - 1) / t.ports();
  std::uint64_t minimum = 0;
  for (std::uint64_t steps = std::max<std::uint64_t>(counting, 1); steps <= counting + 5 && minimum == 0; ++steps) {
    const cnf_formula plain = torus_packets_cnf(t, model, k, steps, {.base_only = true, .orbit = orbit});
    const cnf_formula implied = torus_packets_cnf(t, model, k, steps, {.orbit = orbit});
    const clausal_result without = solve_with_proof(plain, 20'000);
    const clausal_result with = solve_with_proof(implied, 20'000);
    RC_PRE(without.answer != solver_answer::unknown && with.answer != solver_answer::unknown);
    RC_ASSERT(with.answer == without.answer);
    if (with.answer == solver_answer::unsat) {
      RC_ASSERT(with.proof.check(implied.dimacs()).outcome == verdict::holds);
    } else {
      minimum = steps;
      // (an invariant table is a table: the full question is sat there too)
      const torus_query_result q = solve_torus_packets(t, model, k, steps, 20'000);
      RC_ASSERT(q.answer == solver_answer::sat);
      RC_ASSERT(q.witness.has_value());
      RC_ASSERT(q.witness->packets == k);
      RC_ASSERT(simulate_gossip(*q.witness, steps).holds());
    }
  }
  RC_PRE(minimum != 0);
  RC_TAG(minimum == counting ? "minimum at the counting bound" : "minimum above the counting bound");
  RC_TAG(orbit.empty() ? "any table" : "invariant table");
}

// torus_injection_chooser (the injections of search_torus_table with k packets) against two methods that share
// nothing with it: for random forwarding rules (a random pairing per PU, or a random in-port or none per out-port), k
// and T, (a) the table with the chosen injections leaves exactly the reported pairs missing in the simulator; (b) every
// assignment of one random PU's 2d out-ports to its k packets, simulated with the other PUs' choices kept, leaves at
// least as many missing (where there are at most 729 assignments); (c) the k-packet CNF with the forwarding fixed and
// the injections free (no implied constraints) is sat exactly when the chooser reports none missing.
RC_GTEST_PROP(torus_packets, injection_chooser_against_brute_force_and_the_cnf, ()) {
  const torus::network t = small_packet_torus();
  const std::uint32_t d = t.dimension();
  const std::uint32_t ports = t.ports();
  const pu_index P = t.size();
  const std::uint32_t k = *rc::gen::inRange<std::uint32_t>(1, ports + 1);
  const torus_model model = *rc::gen::arbitrary<bool>() ? torus_model::pairing : torus_model::general;
  const std::uint64_t steps = *rc::gen::inRange<std::uint64_t>(1, 2 * static_cast<std::uint64_t>(k) * P / ports + 3);
  routing_table table{t, k, std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, no_port), {}, {}};
  const auto pairings = port_pairings(d);
  for (pu_index pu = 0; pu < P; ++pu) {
    const std::uint32_t c = *rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(pairings.size()));
    for (std::uint32_t o = 0; o < ports; ++o) {
      if (model == torus_model::pairing) {
        table.forward_at(pu, o) = pairings[c][o];
      } else {
        const std::uint32_t in =
            *rc::gen::weightedElement<std::uint32_t>({{1, ports}, {6, *rc::gen::inRange<std::uint32_t>(0, ports)}});
        table.forward_at(pu, o) = in == ports ? no_port : in;
      }
    }
  }
  const torus_injection_chooser chooser(t, k);
  const std::uint64_t missing = chooser.choose(table, steps, table.inject);
  RC_LOG() << t.name() << " k=" << k << " steps=" << steps << " model=" << to_string(model) << " missing=" << missing
           << "\n";
  auto missing_in_the_simulator = [&](const routing_table& r) {  // (PU, packet) pairs without an arrival within `steps`
    const gossip_report run =
        simulate_gossip(r, gossip_options{.max_steps = steps, .max_witnesses = 0, .record_arrivals = true});
    const auto missed =
        static_cast<std::uint64_t>(std::count(run.first_arrival.begin(), run.first_arrival.end(), UINT32_MAX));
    RC_ASSERT(run.holds() == (missed == 0));
    return missed;
  };
  // (a)
  RC_ASSERT(missing_in_the_simulator(table) == missing);
  // (b)
  std::uint64_t assignments = 1;
  for (std::uint32_t o = 0; o < ports; ++o) assignments *= k;
  if (assignments <= 729) {
    const pu_index u = *rc::gen::inRange<pu_index>(0, P);
    routing_table other = table;
    for (std::uint64_t a = 0; a < assignments; ++a) {
      for (std::uint32_t o = 0, rest = static_cast<std::uint32_t>(a); o < ports; ++o, rest /= k)
        other.inject_at(u, o) = rest % k;
      RC_ASSERT(missing_in_the_simulator(other) >= missing);
    }
  }
  // (c)
  cnf_formula f = torus_packets_cnf(t, model, k, steps, {.base_only = true});
  for (pu_index pu = 0; pu < P; ++pu) {
    std::vector<std::uint32_t> rule(ports);
    for (std::uint32_t o = 0; o < ports; ++o) rule[o] = table.forward_at(pu, o);
    fix_rule(f, t, model, pu, rule);
  }
  sat_exactly_when(f, missing == 0);
  RC_TAG(std::to_string(k) + " packets");
}

// The premise of the parity bound and of the arrival count's parity classes, in the simulator (which knows nothing of
// walks): in a one-packet table without held packets, PU u's packet first comes to w in a step t >= dist(u, w), and on
// a torus whose sides are all even only with t − dist(u, w) even; a table that completes takes at least
// parity_bound steps. Tables from the local search (they complete, near the minimum) or random general tables
// (idle out-ports included, most never complete).
RC_GTEST_PROP(torus_bounds, arrivals_keep_the_parity_of_the_distance, ()) {
  const std::uint32_t d = *rc::gen::inRange<std::uint32_t>(2, 4);
  std::vector<std::uint32_t> dims(d);
  for (auto& n : dims) n = *rc::gen::inRange<std::uint32_t>(2, d == 2 ? 9 : 5);
  const torus::network t(dims);
  const pu_index P = t.size();
  const bool even = std::all_of(dims.begin(), dims.end(), [](std::uint32_t n) { return n % 2 == 0; });
  const torus_model model = *rc::gen::arbitrary<bool>() ? torus_model::pairing : torus_model::general;
  const torus_heuristic_result found = search_torus_table(
      t, model, 60'000,
      {.seed = *rc::gen::inRange<std::uint64_t>(1, 1000), .goal = 0, .packets = 1, .max_evaluations = 2'000});
  RC_PRE(found.table.has_value());
  routing_table table = *found.table;
  const bool random = *rc::gen::arbitrary<bool>();
  if (random)
    for (std::uint32_t& in : table.forward)
      in =
          *rc::gen::weightedElement<std::uint32_t>({{1, no_port}, {4, *rc::gen::inRange<std::uint32_t>(0, t.ports())}});
  const gossip_report run =
      simulate_gossip(table, gossip_options{.max_steps = 3 * P, .max_witnesses = 0, .record_arrivals = true});
  for (pu_index w = 0; w < P; ++w)
    for (pu_index u = 0; u < P; ++u) {
      const std::uint32_t at = run.first_arrival[static_cast<std::size_t>(w) * P + u];
      if (u == w || at == UINT32_MAX) continue;
      const auto cw = t.coordinates(w), cu = t.coordinates(u);
      std::uint32_t distance = 0;
      for (std::uint32_t j = 0; j < d; ++j) {
        const std::uint32_t delta = cw[j] > cu[j] ? cw[j] - cu[j] : cu[j] - cw[j];
        distance += std::min(delta, dims[j] - delta);
      }
      RC_ASSERT(at >= distance);
      if (even) RC_ASSERT((at - distance) % 2 == 0);
    }
  if (run.holds()) RC_ASSERT(run.steps >= parity_bound(t));
  RC_TAG(even ? "all sides even" : "some side odd");
  RC_TAG(run.holds()
             ? (run.steps == parity_bound(t) ? "completes at the parity bound" : "completes above the parity bound")
             : "does not complete");
  if (parity_bound(t) > counting_bound(t)) RC_TAG("parity bound above the counting bound");
}

// The implied arrival count of torus_gossip_cnf (no PU wastes more than 2d·T − (P − 1) of its in-slots) keeps every
// table: a table from the local search (near the minimum, so with little slack) has its choices fixed in the CNF with
// the implied constraints and no symmetry break, and the CNF is sat at the table's simulated step count S and unsat,
// with a checked DRAT proof, at S − 1. (The general model's idle out-ports are made to forward in-port 0 first, as
// its other implied constraint asks; the simulator gives the changed table's S.) 3-D tori with sides of 2, where a
// PU's two neighbours along an axis coincide, have fewer than 2d packets in step 1.
RC_GTEST_PROP(torus_cnf, arrival_count_keeps_every_table, ()) {
  const std::uint32_t d = *rc::gen::weightedElement<std::uint32_t>({{3, 2u}, {1, 3u}});
  std::vector<std::uint32_t> dims(d);
  for (auto& n : dims) n = *rc::gen::inRange<std::uint32_t>(d == 2 ? 3 : 2, d == 2 ? 6 : 4);
  const torus::network t(dims);
  const std::uint32_t ports = t.ports();
  const torus_model model = *rc::gen::arbitrary<bool>() ? torus_model::pairing : torus_model::general;
  const std::uint64_t counting = counting_bound(t);
  const torus_heuristic_result found = search_torus_table(
      t, model, 60'000,
      {.seed = *rc::gen::inRange<std::uint64_t>(1, 1000), .goal = counting, .packets = 1, .max_evaluations = 5'000});
  RC_PRE(found.table.has_value());
  routing_table table = *found.table;
  for (std::uint32_t& in : table.forward)
    if (in == no_port) in = 0;
  const gossip_report report = simulate_gossip(table, 3 * t.size());
  RC_ASSERT(report.holds());
  const std::uint64_t S = report.steps;
  auto query = [&](std::uint64_t steps) {
    cnf_formula f = torus_gossip_cnf(t, model, steps, {.symmetry = torus_symmetry::none});
    for (pu_index pu = 0; pu < t.size(); ++pu) {
      std::vector<std::uint32_t> rule(ports);
      for (std::uint32_t o = 0; o < ports; ++o) rule[o] = table.forward_at(pu, o);
      fix_rule(f, t, model, pu, rule);
    }
    return f;
  };
  RC_ASSERT(solve_with_proof(query(S), 60'000).answer == solver_answer::sat);
  const cnf_formula below = query(S - 1);
  const clausal_result refuted = solve_with_proof(below, 60'000);
  RC_ASSERT(refuted.answer == solver_answer::unsat);
  RC_ASSERT(refuted.proof.check(below.dimacs()).outcome == verdict::holds);
  RC_TAG(S == counting ? "at the counting bound" : S == counting + 1 ? "counting bound + 1" : "further above");
  RC_TAG(std::any_of(below.comments.begin(), below.comments.end(),
                     [](const std::string& c) { return c.starts_with("implied parity classes"); })
             ? "counters per step parity"
             : "one counter");
  RC_TAG(d == 3 && std::find(dims.begin(), dims.end(), 2u) != dims.end() ? "coinciding neighbours"
                                                                         : "distinct neighbours");
}

// The arrival count keeps the minimum: on random small tori, over all tables or over the tables invariant under a
// random group of translations or of point automorphisms (where the count reads an untracked packet's arrival at w off
// the tracked one's at a preimage of w, through the element's port relabelling), the CNF with the count and the CNF
// without it (same symmetry break) are unsat and sat at the same step counts — asked upward from the counting bound
// until the CNF without the count is sat (that is the minimum over those tables). The count's unsat answers come with
// DRAT proofs, checked. A torus small enough for the CNFs to answer in well under a second near its minimum, drawn
// inside a property: 2-D sides 3 and 4, 3-D 2 x 2 x n with n <= 3 (2 x 2 x 4 pairing takes seconds).
torus::network quick_sat_torus() {
  const std::uint32_t d = *rc::gen::weightedElement<std::uint32_t>({{3, 2u}, {1, 3u}});
  std::vector<std::uint32_t> dims(d, 2);
  if (d == 2)
    dims = {*rc::gen::inRange<std::uint32_t>(3, 5), *rc::gen::inRange<std::uint32_t>(3, 5)};
  else
    dims[*rc::gen::inRange<std::size_t>(0, 3)] = *rc::gen::inRange<std::uint32_t>(2, 4);
  return torus::network(dims);
}

RC_GTEST_PROP(torus_cnf, arrival_count_keeps_the_minimum, ()) {
  const torus::network t = quick_sat_torus();
  const torus_model model = *rc::gen::arbitrary<bool>() ? torus_model::pairing : torus_model::general;
  // all tables, or tables invariant under a random group of translations or of point automorphisms (reflections,
  // rotations, glide reflections: the count's reading through a relabelling of ports)
  const int kind = *rc::gen::weightedElement<int>({{1, 0}, {1, 1}, {2, 2}});
  std::vector<pu_index> orbit;
  std::vector<torus_automorphism> generators;
  if (kind == 1) {
    const auto groups = translation_subgroups(t);
    orbit = translation_orbits(t, groups[*rc::gen::inRange<std::size_t>(0, groups.size())]);
  } else if (kind == 2) {
    const auto groups = point_subgroups(t);
    RC_PRE(!groups.empty());
    generators = groups[*rc::gen::inRange<std::size_t>(0, groups.size())];
  }
  auto cnf = [&](std::uint64_t steps, bool count) {
    return kind == 2 ? torus_symmetric_cnf(t, model, steps, generators, {.arrival_count = count})
                     : torus_gossip_cnf(t, model, steps, {.orbit = orbit, .arrival_count = count});
  };
  const std::uint64_t counting = counting_bound(t);
  std::uint64_t minimum = 0;
  for (std::uint64_t steps = counting; steps <= counting + 6 && minimum == 0; ++steps) {
    const cnf_formula plain = cnf(steps, false);
    const cnf_formula counted = cnf(steps, true);
    const clausal_result without = solve_with_proof(plain, 20'000);
    const clausal_result with = solve_with_proof(counted, 20'000);
    RC_PRE(without.answer != solver_answer::unknown && with.answer != solver_answer::unknown);
    RC_ASSERT(with.answer == without.answer);
    if (with.answer == solver_answer::unsat)
      RC_ASSERT(with.proof.check(counted.dimacs()).outcome == verdict::holds);
    else
      minimum = steps;
  }
  RC_PRE(minimum != 0);  // pairing tables invariant under a large group may never complete
  RC_TAG(kind == 0 ? "all tables" : kind == 1 ? "translation-invariant tables" : "point-group-invariant tables");
  RC_TAG(minimum == counting ? "minimum at the counting bound" : "minimum above the counting bound");
}

// A split query is the whole query in pieces: on random small tori, steps near the minimum, 1 to 16 cubes and any
// number of jobs, it answers as solve_torus_clausal does (sat with a simulated table, unsat with every cube's proof
// checked); its groups are clauses of the CNF, so the cover check accepts the full split — and refuses it with any
// cube left out.
RC_GTEST_PROP(torus_cnf, split_queries_answer_as_the_whole_query, ()) {
  const torus::network t = quick_sat_torus();
  const torus_model model = *rc::gen::arbitrary<bool>() ? torus_model::pairing : torus_model::general;
  const std::uint64_t steps = counting_bound(t) + *rc::gen::inRange<std::uint64_t>(0, 4);
  const std::uint64_t cubes = *rc::gen::inRange<std::uint64_t>(1, 17);
  const unsigned jobs = *rc::gen::inRange<unsigned>(1, 4);
  const torus_query_result whole = solve_torus_clausal(t, model, steps, 20'000);
  const torus_split_result split = solve_torus_cubes(t, model, steps, 20'000, {.cubes = cubes, .jobs = jobs});
  RC_PRE(whole.answer != solver_answer::unknown && split.query.answer != solver_answer::unknown);
  RC_ASSERT(split.query.answer == whole.answer);
  if (split.query.answer == solver_answer::sat) {
    RC_ASSERT(split.query.witness.has_value());
    const gossip_report run = simulate_gossip(*split.query.witness, steps);
    RC_ASSERT(run.holds());
  }
  if (split.cubes.empty()) return;  // below the counting bound: nothing split
  std::uint64_t product = 1;
  for (const auto& g : split.groups) product *= g.size();
  RC_ASSERT(product >= cubes);
  RC_ASSERT(split.cubes.size() == product);
  const cnf_formula f = torus_gossip_cnf(t, model, steps);
  std::vector<std::vector<int>> all;
  for (const torus_cube_answer& c : split.cubes) all.push_back(c.literals);
  RC_ASSERT(check_cube_cover(f.clauses, split.groups, all).holds());
  if (all.size() >= 2) {
    all.erase(all.begin() + static_cast<std::ptrdiff_t>(*rc::gen::inRange<std::size_t>(0, all.size())));
    RC_ASSERT(check_cube_cover(f.clauses, split.groups, all).outcome == verdict::violated);
  }
  RC_TAG(split.query.answer == solver_answer::sat ? "sat" : "unsat");
  RC_TAG(model == torus_model::pairing ? "pairing" : "general");
}

}  // namespace
}  // namespace dancecard
