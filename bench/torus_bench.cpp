// Google Benchmark: the gossip simulator's throughput (link-steps per second) on 64 x 64 (Section 3.1 rules, run to
// completion), on 32 x 32 x 32 (straight-line rings in every dimension, a fixed number of steps) and a whole 3-D
// one-packet gossip on 30 x 30 x 32, against a baseline that streams the same number of link-steps through memory.
#include <benchmark/benchmark.h>

#include <optional>
#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/common/cyclic_order.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "dancecard/smt/torus_supply.hpp"

namespace dancecard {
namespace {

// +x_j ↔ −x_j at every PU: a ring per line in each dimension.
routing_table straight_rings(const torus& t) {
  std::vector<std::uint32_t> partner(static_cast<std::size_t>(t.size()) * t.ports());
  for (pu_index pu = 0; pu < t.size(); ++pu)
    for (std::uint32_t p = 0; p < t.ports(); ++p) partner[pu * t.ports() + p] = torus::opposite(p);
  return pairing_table(t, partner);
}

// Arg 0: the switch-free method, one PU at a time along its in-links' chains (the default); 1: step by step over every
// link with every PU's bits (gossip_options::stepwise), the baseline in the same run.
gossip_options method(const benchmark::State& state, std::uint64_t max_steps = 0) {
  gossip_options o;
  o.max_steps = max_steps;
  o.stepwise = state.range(0) == 1;
  return o;
}

void gossip_64x64(benchmark::State& state) {
  const routing_table table = hamiltonian_2d(torus({64, 64}));
  std::uint64_t link_steps = 0;
  for (auto _ : state) {
    const gossip_report r = simulate_gossip(table, method(state));
    link_steps = r.link_steps;
    benchmark::DoNotOptimize(r.steps);
  }
  state.counters["link_steps_per_s"] = benchmark::Counter(static_cast<double>(link_steps), benchmark::Counter::kIsIterationInvariantRate);
}

void rings_32x32x32(benchmark::State& state) {
  const routing_table table = straight_rings(torus({32, 32, 32}));
  const std::uint64_t steps = static_cast<std::uint64_t>(state.range(1));
  std::uint64_t link_steps = 0;
  for (auto _ : state) {
    const gossip_report r = simulate_gossip(table, method(state, steps));
    link_steps = r.link_steps;
    benchmark::DoNotOptimize(r.steps);
  }
  state.counters["link_steps_per_s"] = benchmark::Counter(static_cast<double>(link_steps), benchmark::Counter::kIsIterationInvariantRate);
}

// A whole one-packet gossip in 3-D: the Section 4.2 zigzag cycles on 30 x 30 x 32 (28,800 PUs, the admissible size
// nearest 32^3: n1 must be a multiple of 3), scheduled supply, run to completion.
void zigzag_30x30x32(benchmark::State& state) {
  const routing_table table = cycle_routing(zigzag_cycles(torus({30, 30, 32})), supply_policy::scheduled);
  std::uint64_t link_steps = 0;
  for (auto _ : state) {
    const gossip_report r = simulate_gossip(table);
    link_steps = r.link_steps;
    state.counters["steps"] = static_cast<double>(r.steps);
  }
  state.counters["link_steps_per_s"] = benchmark::Counter(static_cast<double>(link_steps), benchmark::Counter::kIsIterationInvariantRate);
}

// The least number of steps in the pairing model on 3 x 5 (5: 4 unsat, 5 sat): the clausal encoding (CaDiCaL, the
// DRAT proof checked) against the Z3 encoding of the same question as the baseline, in the same run.
void pairing_minimum_3x5_sat(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(prove_torus_minimum(torus({3, 5}), torus_model::pairing, 600'000).minimum_steps);
}
void pairing_minimum_3x5_z3(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(prove_torus_pairing_minimum(torus({3, 5}), 600'000).minimum_steps);
}
// Two Hamiltonian cycles of a 15 x 17 torus (both odd: no construction built) by SAT search with subtour cuts.
void hamilton_search_15x17(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(search_hamilton_decomposition(torus({15, 17}), 600'000).cuts);
}

// A table with the least number of steps (8, proven) of the pairing model on 4 x 6: by local search against the
// simulator (search_torus_table, seed 1, stopping at the goal), against CaDiCaL's witness for "within 8 steps" (the
// sat query alone, its model decoded and simulated) as the baseline, in the same run.
void local_search_4x6_pairing(benchmark::State& state) {
  std::uint64_t evaluations = 0;
  for (auto _ : state) {
    const torus_heuristic_result r = search_torus_table(torus({4, 6}), torus_model::pairing, 600'000, 1, 8);
    evaluations = r.evaluations;
    state.counters["steps"] = static_cast<double>(r.steps);
  }
  state.counters["tables_per_s"] = benchmark::Counter(static_cast<double>(evaluations), benchmark::Counter::kIsIterationInvariantRate);
}
void sat_witness_4x6_pairing(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(solve_torus_clausal(torus({4, 6}), torus_model::pairing, 8, 600'000).answer);
}

// The tabu search's count of missing pairs (torus_missing_pairs: backward walks from every PU's in-links) on a 10-step
// pairing table of 4 x 8 — at 9 steps, where pairs are missing — against the simulator's run of the same table to the
// same horizon (the one-PU-at-a-time method, then stepwise), as the baseline in the same run. Arg: 0 count, 1
// simulator, 2 stepwise simulator.
const routing_table& pairing_4x8_table() {
  static const routing_table table = *tabu_search_torus_table(torus({4, 8}), torus_model::pairing, 600'000, 2, 10, 8'000).table;
  return table;
}
void missing_pairs_4x8(benchmark::State& state) {
  const routing_table& table = pairing_4x8_table();
  gossip_options o;
  o.max_steps = 9, o.max_witnesses = 0, o.stepwise = state.range(0) == 2;
  for (auto _ : state) {
    if (state.range(0) == 0) benchmark::DoNotOptimize(torus_missing_pairs(table, 9));
    else benchmark::DoNotOptimize(simulate_gossip(table, o).count_by_kind);
  }
  state.counters["tables_per_s"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(missing_pairs_4x8)->Arg(0)->Arg(1)->Arg(2);

// Search quality in equal time: the tabu search and the local search (search_torus_table), 20 s each, seed 1, on
// 4 x 8 pairing (minimum 10, proven) and 4 x 9 pairing (11 … 12 open); the steps reached are the counters.
void search_in_20_s(benchmark::State& state, torus network, bool tabu) {
  for (auto _ : state) {
    const torus_heuristic_result r = tabu ? tabu_search_torus_table(network, torus_model::pairing, 20'000, 1)
                                          : search_torus_table(network, torus_model::pairing, 20'000, 1);
    state.counters["steps"] = static_cast<double>(r.steps);
    state.counters["evaluations"] = static_cast<double>(r.evaluations);
  }
}
BENCHMARK_CAPTURE(search_in_20_s, 4x8_pairing_tabu, torus({4, 8}), true)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(search_in_20_s, 4x8_pairing_local, torus({4, 8}), false)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(search_in_20_s, 4x9_pairing_tabu, torus({4, 9}), true)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(search_in_20_s, 4x9_pairing_local, torus({4, 9}), false)->Iterations(1)->Unit(benchmark::kSecond);

// The tabu search over invariant tables: 4 x 7 general, minimum 8 (proven), 60 s at most, seed 1, stopping
// at 8 — under the 2 translations by (2, 0) (group 4 of the translation list; Arg 1 without the solver's start, Arg 2
// with it), against the tabu search without a group in the same run as the baseline (Arg 0).
// Counters: the steps reached and the seconds taken.
void invariant_tabu_4x7_general(benchmark::State& state) {
  const torus network({4, 7});
  const std::optional<torus_symmetry_group> group =
      state.range(0) != 0 ? std::optional(invariant_group_list(network, invariant_groups::translations).at(4)) : std::nullopt;
  for (auto _ : state) {
    const torus_heuristic_result r = tabu_search_torus_table(network, torus_model::general, 60'000, 1, 8, 0, std::nullopt, group, state.range(0) == 2);
    state.counters["steps"] = static_cast<double>(r.steps);
    state.counters["seconds"] = r.seconds;
  }
}
BENCHMARK(invariant_tabu_4x7_general)->Arg(0)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond);

// The solver's start: 3 x 12 general under the point group of order 4 generated by (x1, x2) -> (-x1, x2)
// and (x1, x2) -> (x1, -x2 + 1) (group 1 of the point list, which fixes the 12 PUs with x1 = 0), 30 s at most, seed
// 1, stopping at 12 (that group's least: 11 steps unsat for it, 0.2 s) — with the SAT start (Arg 1), against the
// search from the pairing search (Arg 0) in the same run as the baseline.
void invariant_tabu_3x12_point(benchmark::State& state) {
  const torus network({3, 12});
  const torus_symmetry_group group = invariant_group_list(network, invariant_groups::point).at(1);
  for (auto _ : state) {
    const torus_heuristic_result r = tabu_search_torus_table(network, torus_model::general, 30'000, 1, 12, 0, std::nullopt, group, state.range(0) == 1);
    state.counters["steps"] = r.table ? static_cast<double>(r.steps) : 0.0;
    state.counters["seconds"] = r.seconds;
  }
}
BENCHMARK(invariant_tabu_3x12_point)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond);

// A two-packet table of 4 x 4 at the counting bound 8 (the proven minimum with two packets, Section 3.1's count) by
// the local search with k packets (search_torus_table, seed 1, stopping at the goal; each table's injections chosen by
// torus_injection_chooser), against CaDiCaL's witness for "within 8 steps" with two packets (solve_torus_packets, the
// sat query alone, its model decoded and simulated) as the baseline, in the same run.
void local_search_4x4_two_packets(benchmark::State& state) {
  std::uint64_t evaluations = 0;
  for (auto _ : state) {
    const torus_heuristic_result r = search_torus_table(torus({4, 4}), torus_model::pairing, 600'000, 1, 8, 2);
    evaluations = r.evaluations;
    state.counters["steps"] = static_cast<double>(r.steps);
  }
  state.counters["tables_per_s"] = benchmark::Counter(static_cast<double>(evaluations), benchmark::Counter::kIsIterationInvariantRate);
}
void sat_witness_4x4_two_packets(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(solve_torus_packets(torus({4, 4}), torus_model::pairing, 2, 8, 600'000).answer);
}
// What choosing the injections costs per table: torus_injection_chooser::choose on Section 3.1's 6 x 6 table (two
// packets, 18 steps: the counting bound), against one simulation of the same table with its injections fixed (the
// one-packet search's whole evaluation), in the same run.
void choose_injections_6x6(benchmark::State& state) {
  const routing_table table = hamiltonian_2d(torus({6, 6}));
  const torus_injection_chooser chooser(table.network, 2);
  std::vector<std::uint32_t> inject;
  for (auto _ : state) state.counters["missing"] = static_cast<double>(chooser.choose(table, 18, inject));
}
void simulate_two_packets_6x6(benchmark::State& state) {
  const routing_table table = hamiltonian_2d(torus({6, 6}));
  for (auto _ : state) benchmark::DoNotOptimize(simulate_gossip(table, gossip_options{.max_steps = 18, .max_witnesses = 0, .record_arrivals = false}).steps);
}

// 3 x 4, general model, three packets per PU, 9 steps (the counting bound, so the minimum): a table invariant under a
// group of translations (search_invariant_packets_table, largest groups first), against the full query
// (solve_torus_packets) capped at 60 s as the baseline, in the same run.
void invariant_packets_3x4_general(benchmark::State& state) {
  for (auto _ : state) {
    const torus_invariant_search_result r = search_invariant_packets_table(torus({3, 4}), torus_model::general, 3, 9, 600'000);
    if (!r.table) state.SkipWithError("no invariant table found");
    state.counters["group_order"] = r.group ? static_cast<double>(r.group->order) : 0.0;
  }
}
void full_packets_3x4_general(benchmark::State& state) {
  for (auto _ : state) state.counters["sat"] = solve_torus_packets(torus({3, 4}), torus_model::general, 3, 9, 60'000).answer == solver_answer::sat ? 1 : 0;
}

// A 5-step table of the general model on 4 x 4 (the proven minimum) by SAT over translation-invariant tables
// (search_invariant_table, largest groups first), against the full query's witness (solve_torus_clausal, the sat
// query alone) as the baseline, in the same run; and 4 x 5's 6-step general table, whose full query takes minutes.
void invariant_witness_4x4_general(benchmark::State& state) {
  for (auto _ : state) state.counters["group_order"] = static_cast<double>(search_invariant_table(torus({4, 4}), torus_model::general, 5, 600'000).group.value().order);
}
void full_witness_4x4_general(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(solve_torus_clausal(torus({4, 4}), torus_model::general, 5, 600'000).answer);
}
void invariant_witness_4x5_general(benchmark::State& state) {
  for (auto _ : state) state.counters["group_order"] = static_cast<double>(search_invariant_table(torus({4, 5}), torus_model::general, 6, 600'000).group.value().order);
}

// 3 x 7's 6-step general table (the proven minimum; no table invariant under translations exists) by SAT over tables
// invariant under point groups (reflections, rotations, glide reflections), against the full query's witness as the
// baseline, in the same run.
void point_witness_3x7_general(benchmark::State& state) {
  for (auto _ : state) {
    const torus_invariant_search_result r = search_invariant_table(torus({3, 7}), torus_model::general, 6, 600'000, 0, invariant_groups::point);
    if (!r.table) state.SkipWithError("no point-group table found");
    state.counters["group_order"] = r.group ? static_cast<double>(r.group->order) : 0.0;
    state.counters["queries"] = static_cast<double>(r.queries);
  }
}
// The invariant search in rounds (search_invariant_table: every open group gets the round's budget,
// those out of time come back with twice as much, resumed) against a one-pass scheme as the baseline, written out
// here: every group once, largest first (translations, then point groups), each at most an eighth of the budget.
std::optional<routing_table> one_pass_invariant_table(const torus& t, torus_model model, std::uint64_t steps, unsigned budget_ms, invariant_groups which,
                                                      std::uint64_t& asked) {
  const auto start = std::chrono::steady_clock::now();
  const unsigned cap = std::max(1000u, budget_ms / 8);
  auto left = [&]() -> unsigned {
    const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    return spent >= budget_ms ? 0u : std::min(cap, budget_ms - static_cast<unsigned>(spent));
  };
  if (which != invariant_groups::point)
    for (const auto& generators : translation_subgroups(t)) {
      if (left() == 0) return std::nullopt;
      ++asked;
      torus_query_result r = solve_torus_invariant(t, model, steps, translation_orbits(t, generators), left());
      if (r.witness) return std::move(r.witness);
    }
  if (which != invariant_groups::translations)
    for (const auto& generators : point_subgroups(t)) {
      if (left() == 0) return std::nullopt;
      ++asked;
      torus_query_result r = solve_torus_symmetric(t, model, steps, generators, left());
      if (r.witness) return std::move(r.witness);
    }
  return std::nullopt;
}

// 3 x 7 general in 6 steps (point groups: the table's group is the last of four) and 3 x 12 general in 10 (point
// groups: the table's group is the fourth of ten, behind groups out of time).
struct invariant_case {
  torus network;
  torus_model model;
  std::uint64_t steps;
  invariant_groups groups;
};
const invariant_case invariant_cases[] = {{torus({3, 7}), torus_model::general, 6, invariant_groups::point},
                                          {torus({3, 12}), torus_model::general, 10, invariant_groups::point}};

void rounds_invariant_search(benchmark::State& state) {
  const invariant_case& c = invariant_cases[static_cast<std::size_t>(state.range(0))];
  state.SetLabel(c.network.name());
  for (auto _ : state) {
    const torus_invariant_search_result r = search_invariant_table(c.network, c.model, c.steps, 1'800'000, 0, c.groups);
    if (!r.table) state.SkipWithError("no table found");
    state.counters["groups_asked"] = static_cast<double>(r.asked);
    state.counters["queries"] = static_cast<double>(r.queries);
  }
}
void one_pass_invariant_search(benchmark::State& state) {
  const invariant_case& c = invariant_cases[static_cast<std::size_t>(state.range(0))];
  state.SetLabel(c.network.name());
  for (auto _ : state) {
    std::uint64_t asked = 0;
    if (!one_pass_invariant_table(c.network, c.model, c.steps, 1'800'000, c.groups, asked)) state.SkipWithError("no table found");
    state.counters["groups_asked"] = static_cast<double>(asked);
  }
}

// One translation group per class (translation_subgroups) against every translation subgroup (found
// here as the orbit maps of every set of up to d translations: a subgroup of Z_n1 × … × Z_nd needs no more generators),
// each group asked alone with solve_torus_invariant, on questions where every group is unsat: 2 x 4 x 4 general at 5
// steps and 2 x 2 x 4 pairing at 4 (both one below their minima).
std::vector<std::vector<pu_index>> every_translation_subgroup(const torus& t) {
  const std::uint32_t d = t.dimension();
  std::set<std::vector<pu_index>> orbits;
  std::vector<std::vector<std::uint32_t>> generators;
  auto every = [&](auto& self, pu_index from) -> void {
    if (!generators.empty()) {
      std::vector<pu_index> orbit = translation_orbits(t, generators);
      if (std::count(orbit.begin(), orbit.end(), pu_index{0}) > 1) orbits.insert(std::move(orbit));
    }
    if (generators.size() == d) return;
    for (pu_index g = from; g < t.size(); ++g) {
      generators.push_back(t.coordinates(g));
      self(self, g);
      generators.pop_back();
    }
  };
  every(every, 1);
  return {orbits.begin(), orbits.end()};
}
struct unsat_case {
  torus network;
  torus_model model;
  std::uint64_t steps;
};
const unsat_case unsat_cases[] = {{torus({2, 4, 4}), torus_model::general, 5}, {torus({2, 2, 4}), torus_model::pairing, 4}};
void translation_classes(benchmark::State& state) {
  const unsat_case& c = unsat_cases[static_cast<std::size_t>(state.range(0))];
  state.SetLabel(c.network.name());
  for (auto _ : state) {
    std::uint64_t asked = 0;
    for (const auto& generators : translation_subgroups(c.network)) {
      ++asked;
      if (solve_torus_invariant(c.network, c.model, c.steps, translation_orbits(c.network, generators), 600'000).answer != solver_answer::unsat)
        state.SkipWithError("expected unsat");
    }
    state.counters["groups_asked"] = static_cast<double>(asked);
  }
}
void every_translation_group(benchmark::State& state) {
  const unsat_case& c = unsat_cases[static_cast<std::size_t>(state.range(0))];
  state.SetLabel(c.network.name());
  const std::vector<std::vector<pu_index>> every = every_translation_subgroup(c.network);
  for (auto _ : state) {
    std::uint64_t asked = 0;
    for (const auto& orbit : every) {
      ++asked;
      if (solve_torus_invariant(c.network, c.model, c.steps, orbit, 600'000).answer != solver_answer::unsat) state.SkipWithError("expected unsat");
    }
    state.counters["groups_asked"] = static_cast<double>(asked);
  }
}

// Listing the groups the invariant searches ask (point_subgroups takes one linear group per class under
// the relabellings, and both lists keep every conjugate of the classes found for lookup, each left coset of the group
// conjugated by once, where each group had been given a canonical key, its least conjugate over every automorphism),
// beside the translation groups of the same torus (translation_subgroups, the list every search starts with) as the
// baseline in the same run. range(1): 0 translations, 1 point groups, 2 mixed groups.
const torus group_list_tori[] = {torus({4, 4, 4}), torus({2, 2, 8}), torus({2, 2, 2, 2})};
void group_list(benchmark::State& state) {
  const torus& t = group_list_tori[static_cast<std::size_t>(state.range(0))];
  const char* kinds[] = {"translations", "point", "mixed"};
  state.SetLabel(t.name() + " " + kinds[state.range(1)]);
  for (auto _ : state) {
    const std::size_t groups = state.range(1) == 0 ? translation_subgroups(t).size()
                               : state.range(1) == 1 ? point_subgroups(t).size()
                                                     : mixed_subgroups(t).size();
    state.counters["groups"] = static_cast<double>(groups);
  }
}

void full_witness_3x7_general(benchmark::State& state) {
  for (auto _ : state)
    if (solve_torus_clausal(torus({3, 7}), torus_model::general, 6, 1'200'000).answer != solver_answer::sat) state.SkipWithError("expected sat");
}

// The symmetry break of the CNF: the lex-leader over every automorphism fixing PU 0 (reflections, permutations of equal
// sizes) against the translations-only break as the baseline, in the same run, on unsat queries one step below known
// minima (CaDiCaL plus the DRAT check): 3 x 8 general at 6 steps, 2 x 2 x 4 pairing at 4. And the line swaps of the
// sides of length 2 (±x_j exchanged at one line's two PUs) against the same break without them: 2 x 2 x 4
// pairing at 4, 2 x 2 x 5 pairing at 5.
void symmetry_break(benchmark::State& state, const torus& network, torus_model model, std::uint64_t steps, torus_symmetry symmetry) {
  for (auto _ : state) {
    const torus_query_result q = solve_torus_clausal(network, model, steps, 600'000, symmetry);
    if (q.answer != solver_answer::unsat) state.SkipWithError(("expected unsat: " + q.reason).c_str());
  }
}
BENCHMARK_CAPTURE(symmetry_break, 3x8_general_6_automorphisms, torus({3, 8}), torus_model::general, 6, torus_symmetry::automorphisms)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 3x8_general_6_translations, torus({3, 8}), torus_model::general, 6, torus_symmetry::translations)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x4_pairing_4_automorphisms, torus({2, 2, 4}), torus_model::pairing, 4, torus_symmetry::automorphisms)
    ->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x4_pairing_4_translations, torus({2, 2, 4}), torus_model::pairing, 4, torus_symmetry::translations)
    ->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x4_pairing_4_without_line_swaps, torus({2, 2, 4}), torus_model::pairing, 4,
                  torus_symmetry::automorphisms_without_line_swaps)
    ->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x5_pairing_5_automorphisms, torus({2, 2, 5}), torus_model::pairing, 5, torus_symmetry::automorphisms)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x5_pairing_5_without_line_swaps, torus({2, 2, 5}), torus_model::pairing, 5,
                  torus_symmetry::automorphisms_without_line_swaps)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
// The hypercube's automorphisms (where two sides are 4, the bit permutations of C4 × C4 = Q4, 24
// relabellings of PU 0's ports where reflections and permutations give 8) against the break without them, in the same
// run, on the unsat queries one below 4 x 4's minima (the only torus in docs/torus-limits.md with two sides of 4 and
// an unsat query that answers: 2 x 4 x 4's are open).
BENCHMARK_CAPTURE(symmetry_break, 4x4_general_4_automorphisms, torus({4, 4}), torus_model::general, 4, torus_symmetry::automorphisms)
    ->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 4x4_general_4_without_hypercube, torus({4, 4}), torus_model::general, 4, torus_symmetry::automorphisms_without_hypercube)
    ->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 4x4_pairing_5_automorphisms, torus({4, 4}), torus_model::pairing, 5, torus_symmetry::automorphisms)
    ->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 4x4_pairing_5_without_hypercube, torus({4, 4}), torus_model::pairing, 5, torus_symmetry::automorphisms_without_hypercube)
    ->Iterations(3)->Unit(benchmark::kMillisecond);

// A query split into cubes (solve_torus_cubes) against the whole query in the same run (cubes = 0: the
// baseline, solve_torus_clausal), on unsat queries one below known minima; CaDiCaL and the DRAT checks included.
// Counters: the work summed over the cubes, the longest cube (the wall time with a core per cube) and the least wall
// time J cores could reach by this split, max(longest, sum / J), for J = 8 and 64 — a bound from the measured cubes,
// not a run on that many cores.
void split_query(benchmark::State& state, const torus& network, torus_model model, std::uint64_t steps) {
  const std::uint64_t cubes = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    if (cubes == 0) {
      const torus_query_result q = solve_torus_clausal(network, model, steps, 1'200'000);
      if (q.answer != solver_answer::unsat) state.SkipWithError(("expected unsat: " + q.reason).c_str());
      continue;
    }
    const torus_split_result r = solve_torus_cubes(network, model, steps, 1'200'000, {.cubes = cubes, .jobs = static_cast<unsigned>(state.range(1))});
    if (r.query.answer != solver_answer::unsat) state.SkipWithError(("expected unsat: " + r.query.reason).c_str());
    double longest = 0;
    for (const torus_cube_answer& c : r.cubes) longest = std::max(longest, c.seconds);
    state.counters["cubes"] = static_cast<double>(r.cubes.size());
    state.counters["work_s"] = r.cube_seconds;
    state.counters["longest_s"] = longest;
    state.counters["wall_8_cores_s"] = std::max(longest, r.cube_seconds / 8);
    state.counters["wall_64_cores_s"] = std::max(longest, r.cube_seconds / 64);
  }
}
BENCHMARK_CAPTURE(split_query, 3x9_pairing_8, torus({3, 9}), torus_model::pairing, 8)
    ->Args({0, 1})->Args({9, 2})->Args({27, 2})->Args({81, 2})->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(split_query, 4x5_general_5, torus({4, 5}), torus_model::general, 5)
    ->Args({0, 1})->Args({16, 2})->Args({64, 2})->Iterations(1)->Unit(benchmark::kSecond);

// The timed loop of the unsat CNF benchmarks below: CaDiCaL, then the DRAT check of its proof, each iteration; an
// answer other than unsat or a rejected proof is an error. The clause count as a counter.
void solve_unsat_with_checked_proof(benchmark::State& state, const cnf_formula& f) {
  for (auto _ : state) {
    const clausal_result solved = solve_with_proof(f, 600'000);
    if (solved.answer != solver_answer::unsat) state.SkipWithError("expected unsat");
    else if (solved.proof.check(f.dimacs()).outcome != verdict::holds) state.SkipWithError("proof rejected");
  }
  state.counters["clauses"] = static_cast<double>(f.clauses.size());
}

// The break of the invariant CNFs over the group's normalizer (the automorphisms that keep the group)
// against the break before it as the baseline, in the same run, on invariant queries that are unsat (CaDiCaL plus the
// DRAT check): 2 x 3 x 4 pairing at 5 steps, the 2 translations generated by (1, 0, 0) (group 13 of `generate torus
// --groups all --list-groups`; before: translations only) and the 2 automorphisms generated by (x1, x2, x3) ->
// (-x1 + 1, x2, -x3) (group 209; before: no break).
void invariant_break(benchmark::State& state, const torus& network, torus_model model, std::uint64_t steps, std::size_t group, bool normalizer) {
  const torus_symmetry_group g = invariant_group_list(network, invariant_groups::all).at(group);
  const cnf_formula f = g.automorphisms.empty()
                            ? torus_gossip_cnf(network, model, steps, false, translation_orbits(network, g.translations),
                                               normalizer ? torus_symmetry::automorphisms : torus_symmetry::translations)
                            : torus_symmetric_cnf(network, model, steps, g.automorphisms, true, normalizer);
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(invariant_break, 2x3x4_pairing_5_group_13_normalizer, torus({2, 3, 4}), torus_model::pairing, 5, 13, true)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_break, 2x3x4_pairing_5_group_13_translations, torus({2, 3, 4}), torus_model::pairing, 5, 13, false)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_break, 2x3x4_pairing_5_group_209_normalizer, torus({2, 3, 4}), torus_model::pairing, 5, 209, true)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_break, 2x3x4_pairing_5_group_209_none, torus({2, 3, 4}), torus_model::pairing, 5, 209, false)
    ->Iterations(1)->Unit(benchmark::kMillisecond);

// The same with two own packets per PU (torus_packets_cnf with an orbit map: over the normalizer, before:
// translations only), both unsat: 2 x 3 x 4 pairing at 8 steps (the counting bound ⌈2·23/6⌉), the 4 translations
// generated by (1, 0, 1) and the 3 generated by (0, 1, 0) (groups 10 and 11 of `generate torus --dims 2x3x4 --algo
// invariant --packets 2 --list-groups`).
void invariant_packets_break(benchmark::State& state, const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps, std::size_t group,
                             bool normalizer) {
  const torus_symmetry_group g = invariant_group_list(network, invariant_groups::translations).at(group);
  const cnf_formula f = torus_packets_cnf(network, model, packets, steps, false, translation_orbits(network, g.translations),
                                          normalizer ? torus_symmetry::automorphisms : torus_symmetry::translations);
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(invariant_packets_break, 2x3x4_pairing_2_packets_8_group_10_normalizer, torus({2, 3, 4}), torus_model::pairing, 2, 8, 10, true)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_packets_break, 2x3x4_pairing_2_packets_8_group_10_translations, torus({2, 3, 4}), torus_model::pairing, 2, 8, 10, false)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_packets_break, 2x3x4_pairing_2_packets_8_group_11_normalizer, torus({2, 3, 4}), torus_model::pairing, 2, 8, 11, true)
    ->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_packets_break, 2x3x4_pairing_2_packets_8_group_11_translations, torus({2, 3, 4}), torus_model::pairing, 2, 8, 11, false)
    ->Iterations(1)->Unit(benchmark::kMillisecond);

// The implied arrival count of the CNF (no PU wastes more in-slots than 2d·T − (P − 1)) against the same CNF without
// it as the baseline, in the same run, on unsat queries at or just above the counting bound (CaDiCaL plus the DRAT
// check of the proof): 5 x 5 general at 6 steps (the counting bound), 3 x 6 general at 5 (the counting bound), 4 x 5
// pairing at 6 (one below its minimum).
void arrival_count(benchmark::State& state, const torus& network, torus_model model, std::uint64_t steps, bool count, bool parity_classes = true) {
  const cnf_formula f = torus_gossip_cnf(network, model, steps, false, {}, torus_symmetry::automorphisms, count, parity_classes);
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(arrival_count, 5x5_general_6_counted, torus({5, 5}), torus_model::general, 6, true)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 5x5_general_6_uncounted, torus({5, 5}), torus_model::general, 6, false)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 3x6_general_5_counted, torus({3, 6}), torus_model::general, 5, true)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 3x6_general_5_uncounted, torus({3, 6}), torus_model::general, 5, false)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x5_pairing_6_counted, torus({4, 5}), torus_model::pairing, 6, true)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x5_pairing_6_uncounted, torus({4, 5}), torus_model::pairing, 6, false)->Iterations(1)->Unit(benchmark::kMillisecond);

// The return exclusion (no stream back at its sender within T − 1 − s forwards) against the same CNF
// without it as the baseline, in the same run, on unsat queries at the counting bound (CaDiCaL plus the DRAT check):
// 3 x 9 general at 7 (s = 2: U-turns, the rings of 3 gone straight, walks of 3 and 4 forwards) and 4 x 7 general at
// 7 (s = 1: walks of up to 5 forwards, no ring of 3).
void return_exclusion(benchmark::State& state, const torus& network, torus_model model, std::uint64_t steps, bool returns) {
  const cnf_formula f = torus_gossip_cnf(network, model, steps, false, {}, torus_symmetry::automorphisms, true, true, returns);
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(return_exclusion, 3x9_general_7_with, torus({3, 9}), torus_model::general, 7, true)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(return_exclusion, 3x9_general_7_without, torus({3, 9}), torus_model::general, 7, false)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(return_exclusion, 4x7_general_7_with, torus({4, 7}), torus_model::general, 7, true)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(return_exclusion, 4x7_general_7_without, torus({4, 7}), torus_model::general, 7, false)->Iterations(1)->Unit(benchmark::kSecond);

// k packets per PU (torus_packets_cnf): the implied constraints (the arrival count over K(P − 1) packets, every packet
// sent, every out-port busy) and the break (packet 0 on out-port 0) against the bare CNF as the baseline, in the same
// run, on an unsat query one step below a minimum (CaDiCaL plus the DRAT check): 3 x 3, three packets, pairing model,
// 7 steps.
void packets_cnf(benchmark::State& state, const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps, bool base_only) {
  const cnf_formula f = torus_packets_cnf(network, model, packets, steps, base_only);
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(packets_cnf, 3x3_pairing_3_packets_7_implied, torus({3, 3}), torus_model::pairing, 3, 7, false)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(packets_cnf, 3x3_pairing_3_packets_7_bare, torus({3, 3}), torus_model::pairing, 3, 7, true)->Iterations(1)->Unit(benchmark::kMillisecond);

// The arrival count's counters per step parity (on tori whose sides are all even a packet at even distance comes in
// even steps only) against the one counter over all slots as the baseline, in the same run, on unsat queries at the
// counting bound (CaDiCaL plus the DRAT check): 4 x 8 general at 8, 4 x 6 general at 6, 4 x 6 pairing at 7 (one below
// its minimum).
BENCHMARK_CAPTURE(arrival_count, 4x8_general_8_by_parity, torus({4, 8}), torus_model::general, 8, true, true)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x8_general_8_one_counter, torus({4, 8}), torus_model::general, 8, true, false)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x6_general_6_by_parity, torus({4, 6}), torus_model::general, 6, true, true)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x6_general_6_one_counter, torus({4, 6}), torus_model::general, 6, true, false)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x6_pairing_7_by_parity, torus({4, 6}), torus_model::pairing, 7, true, true)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x6_pairing_7_one_counter, torus({4, 6}), torus_model::pairing, 7, true, false)->Iterations(1)->Unit(benchmark::kMillisecond);

// Three Hamiltonian cycles of 10 x 10 x 10: the randomized square-switch search against the SAT search (CaDiCaL with
// lazy subtour cuts) as the baseline, in the same run; and the switch search alone on 32 x 32 x 32.
void switch_search_10x10x10(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus({10, 10, 10})).has_value());
}
void sat_search_10x10x10(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(search_hamilton_decomposition(torus({10, 10, 10}), 600'000).cuts);
}
void switch_search_32x32x32(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus({32, 32, 32})).has_value());
}
// Park's explicit construction (hamiltonian_product_cycles on a cube) on the same 32 x 32 x 32 and on 64^3, 129^3:
// three walks of P steps each plus the port bookkeeping.
void explicit_cube(benchmark::State& state) {
  const auto m = static_cast<std::uint32_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hamiltonian_product_cycles(torus({m, m, m})).cycles.size());
}
// The layered construction (one dimension at a time) on non-cubes with an odd size: 31 x 32 x 32 (beside the cube
// above and the square-switch search on the same torus), 63 x 64 x 64, and 7-D 3 x 4 x 4 x 4 x 4 x 4 x 4 (12,288 PUs).
void layered(benchmark::State& state, const torus& network) {
  for (auto _ : state) benchmark::DoNotOptimize(hamiltonian_product_cycles(network).cycles.size());
}
void switch_search_31x32x32(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus({31, 32, 32})).has_value());
}
// Every size even (layered on scrambled frames, construction hamiltonian-layered-searched) against the square-switch
// search on the same tori.
void switch_search_20x22x24(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus({20, 22, 24})).has_value());
}
void switch_search_30x32x32(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(torus({30, 32, 32})).has_value());
}
// The same pair on every size even in 5-D (no product construction there): 4^5; and the layered one alone on 4^7
// (16,384 PUs: the square-switch search had not finished after 300 s).
void switch_search(benchmark::State& state, const torus& network) {
  for (auto _ : state) benchmark::DoNotOptimize(switch_search_decomposition(network).has_value());
}

// The scrambled frames' k-opt moves on a cycle of N vertices: 4 cuts at random positions, the 4 arcs joined in a
// random order and orientation, then 8 position queries (what a kept double switch costs), by cyclic_order (an
// implicit treap, O(log N)) against the vector it replaced as the baseline: the arcs copied into a fresh order and
// every position rewritten (O(N)). The same moves from the same seed in both.
struct random_move {
  std::vector<std::uint64_t> cuts;
  std::vector<std::pair<std::size_t, bool>> route;
};
random_move draw_move(std::mt19937_64& random, std::uint64_t N) {
  random_move m;
  while (m.cuts.size() < 4) {
    const std::uint64_t t = random() % N;
    if (std::find(m.cuts.begin(), m.cuts.end(), t) == m.cuts.end()) m.cuts.push_back(t);
  }
  std::sort(m.cuts.begin(), m.cuts.end());
  std::vector<std::size_t> arcs{0, 1, 2, 3};
  std::shuffle(arcs.begin(), arcs.end(), random);
  for (std::size_t a : arcs) m.route.push_back({a, random() % 2 == 0});
  return m;
}
// 1,000 moves per iteration on a fresh cycle 0, 1, …, N − 1 (built outside the timing): `apply` makes a move,
// `query` answers a position.
template <class Cycle, class Apply, class Query>
void run_moves(benchmark::State& state, const std::function<Cycle(const std::vector<std::uint64_t>&)>& make, Apply apply, Query query) {
  const auto N = static_cast<std::uint64_t>(state.range(0));
  std::vector<std::uint64_t> start(N);
  std::iota(start.begin(), start.end(), std::uint64_t{0});
  for (auto _ : state) {
    state.PauseTiming();
    Cycle cycle = make(start);
    std::mt19937_64 random(1);
    state.ResumeTiming();
    std::uint64_t sum = 0;
    for (int move = 0; move < 1000; ++move) {
      apply(cycle, draw_move(random, N));
      for (int k = 0; k < 8; ++k) sum += query(cycle, random() % N);
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 1000);
}
void cyclic_order_moves(benchmark::State& state) {
  run_moves<cyclic_order>(
      state, [](const std::vector<std::uint64_t>& start) { return cyclic_order(start); },
      [](cyclic_order& order, const random_move& m) { order.rearrange(m.cuts, m.route); },
      [](cyclic_order& order, std::uint64_t v) { return order.position(v); });
}
struct vector_cycle {
  std::vector<std::uint64_t> order, position, fresh;
};
void vector_relink_moves(benchmark::State& state) {
  run_moves<vector_cycle>(
      state, [](const std::vector<std::uint64_t>& start) { return vector_cycle{start, start, std::vector<std::uint64_t>(start.size())}; },
      [](vector_cycle& c, const random_move& m) {
        const std::uint64_t N = c.order.size();
        std::uint64_t out = 0;
        for (const auto& [a, forward] : m.route) {
          const std::uint64_t first = (m.cuts[a] + 1) % N, last = m.cuts[(a + 1) % 4], length = (last + N - first) % N + 1;
          for (std::uint64_t x = 0; x < length; ++x) c.fresh[out++] = c.order[forward ? (first + x) % N : (last + N - x) % N];
        }
        c.order.swap(c.fresh);
        for (std::uint64_t t = 0; t < N; ++t) c.position[c.order[t]] = t;
      },
      [](vector_cycle& c, std::uint64_t v) { return c.position[v]; });
}

// Supply of the off-cycle packets on the 4 x 2 x 4 x 5 zigzag cycles: the SAT search for the least scheduled supply
// (smt/torus_supply, upward from the circulation) against the greedy cycle_routing as the baseline; "steps" is the
// simulated gossip time each gives (Theorem 7's bound: 38).
void supply_search_4x2x4x5(benchmark::State& state) {
  const cycle_system system = zigzag_cycles(torus({4, 2, 4, 5}));
  for (auto _ : state) state.counters["steps"] = static_cast<double>(best_cycle_supply(system, supply_policy::scheduled, 600'000).steps);
}
void greedy_supply_4x2x4x5(benchmark::State& state) {
  const cycle_system system = zigzag_cycles(torus({4, 2, 4, 5}));
  for (auto _ : state) state.counters["steps"] = static_cast<double>(simulate_gossip(cycle_routing(system, supply_policy::scheduled)).steps);
}

// A supply built from the zigzag cycles of `dims` by `build` (a table, or none where it declines), timed; "steps" is
// the simulated gossip time, simulated outside the timing (0 without a table).
template <class Build>
void supply_run(benchmark::State& state, const std::vector<std::uint32_t>& dims, Build build) {
  const cycle_system system = zigzag_cycles(torus(dims));
  for (auto _ : state) {
    const std::optional<routing_table> table = build(system);
    state.PauseTiming();
    state.counters["steps"] = table ? static_cast<double>(simulate_gossip(*table).steps) : 0.0;
    state.ResumeTiming();
  }
}
// The greedy alone: cycle_routing with one switch per link (the scheduled policy compares the greedy with the others).
std::optional<routing_table> greedy_supply(const cycle_system& system) { return cycle_routing(system, supply_policy::one_switch); }

// The matched supply (core: two sources per PU and cycle, a perfect matching of positions to steps) on the 8⁴ zigzag
// cycles, against the greedy on the same cycles (Theorem 7's bound: 770).
void matched_supply_8x8x8x8(benchmark::State& state) {
  supply_run(state, {8, 8, 8, 8}, [](const cycle_system& system) { return matched_cycle_routing(system); });
}
void greedy_supply_8x8x8x8(benchmark::State& state) { supply_run(state, {8, 8, 8, 8}, greedy_supply); }

// The packet-matched supply (core: every PU's missing packets matched to its free in-links' steps, relays one hop
// further) on the closed trails of 4 × 5 × 4 × 5, where the matched supply declines: the least target found by search
// (doubling from the circulation, then bisection), against the greedy on the same trails; and at Theorem 7's bound on
// the 8⁴ cycles, beside the matched supply above (bounds: 92 and 770).
void packet_supply_4x5x4x5(benchmark::State& state) {
  supply_run(state, {4, 5, 4, 5}, [](const cycle_system& system) { return least_packet_matched_routing(system); });
}
void greedy_supply_4x5x4x5(benchmark::State& state) { supply_run(state, {4, 5, 4, 5}, greedy_supply); }
// The same least search on the closed trails of 4 × 5 × 2 × 9 with senders that hold packets up to max_switch_delay
// steps (delayed switches), against the search without them (Theorem 7's bound: 67; the circulation: 65).
void held_supply_4x5x2x9(benchmark::State& state) {
  supply_run(state, {4, 5, 2, 9}, [](const cycle_system& system) {
    return least_packet_matched_routing(system, nullptr, 0, max_switch_delay);
  });
}
void packet_supply_4x5x2x9(benchmark::State& state) {
  supply_run(state, {4, 5, 2, 9}, [](const cycle_system& system) { return least_packet_matched_routing(system); });
}
void packet_supply_8x8x8x8(benchmark::State& state) {
  supply_run(state, {8, 8, 8, 8}, [](const cycle_system& system) { return packet_matched_routing(system, 770).table; });
}

// Two packets per PU on Section 3.2's partial cycles of 64 × 65 (core: twin_cycle_routing — hosts take the column's
// second packets, per-PU matchings supply the off-cycle PUs), against the one-packet scheduled supply of the same
// cycles (cycle_routing) as the baseline; "steps" simulated outside the timing (Theorem 3: 2,080).
void partial_supply_run(benchmark::State& state, bool two_packets) {
  const cycle_system system = partial_2d_cycles(torus({64, 65}));
  for (auto _ : state) {
    const routing_table table =
        two_packets ? twin_cycle_routing(system).table : cycle_routing(system, supply_policy::scheduled);
    state.PauseTiming();
    state.counters["steps"] = static_cast<double>(simulate_gossip(table).steps);
    state.counters["switches"] = static_cast<double>(table.switches.size());
    state.ResumeTiming();
  }
}
void twin_supply_64x65(benchmark::State& state) { partial_supply_run(state, true); }
void one_packet_supply_64x65(benchmark::State& state) { partial_supply_run(state, false); }

// Baseline: read the same number of 4-byte link entries sequentially (what a link-step costs at the least).
void stream_baseline(benchmark::State& state) {
  std::vector<std::uint32_t> links(32 * 32 * 32 * 6);
  std::iota(links.begin(), links.end(), 0u);
  const std::uint64_t steps = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (std::uint64_t s = 0; s < steps; ++s)
      for (std::uint32_t v : links) sum += v;
    benchmark::DoNotOptimize(sum);
  }
  state.counters["link_steps_per_s"] =
      benchmark::Counter(static_cast<double>(links.size() * steps), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(gossip_64x64)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(rings_32x32x32)->Args({0, 64})->Args({1, 64})->Args({0, 1024})->Args({1, 1024})->Unit(benchmark::kMillisecond);
BENCHMARK(stream_baseline)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(group_list)->Args({0, 0})->Args({0, 1})->Args({0, 2})->Args({1, 0})->Args({1, 1})->Args({1, 2})->Args({2, 0})->Args({2, 1})->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(twin_supply_64x65)->Unit(benchmark::kMillisecond);
BENCHMARK(held_supply_4x5x2x9)->Unit(benchmark::kMillisecond);
BENCHMARK(packet_supply_4x5x2x9)->Unit(benchmark::kMillisecond);
BENCHMARK(one_packet_supply_64x65)->Unit(benchmark::kMillisecond);
BENCHMARK(zigzag_30x30x32)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(pairing_minimum_3x5_sat)->Unit(benchmark::kMillisecond);
BENCHMARK(pairing_minimum_3x5_z3)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(hamilton_search_15x17)->Unit(benchmark::kMillisecond);
BENCHMARK(local_search_4x6_pairing)->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_10x10x10)->Unit(benchmark::kMillisecond);
BENCHMARK(sat_search_10x10x10)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_32x32x32)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(explicit_cube)->Arg(32)->Arg(64)->Arg(129)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 31x32x32, torus({31, 32, 32}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 63x64x64, torus({63, 64, 64}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 3x4x4x4x4x4x4, torus({3, 4, 4, 4, 4, 4, 4}))->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_31x32x32)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 4x6x8, torus({4, 6, 8}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 20x22x24, torus({20, 22, 24}))->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 4x4x4x4x4, torus({4, 4, 4, 4, 4}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(switch_search, 4x4x4x4x4, torus({4, 4, 4, 4, 4}))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 4x4x4x4x4x4x4, torus({4, 4, 4, 4, 4, 4, 4}))->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_20x22x24)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 30x32x32, torus({30, 32, 32}))->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(layered, 64x64x128, torus({64, 64, 128}))->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(cyclic_order_moves)->Arg(1 << 14)->Arg(1 << 17)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(vector_relink_moves)->Arg(1 << 14)->Arg(1 << 17)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(switch_search_30x32x32)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(sat_witness_4x6_pairing)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(local_search_4x4_two_packets)->Unit(benchmark::kMillisecond);
BENCHMARK(sat_witness_4x4_two_packets)->Unit(benchmark::kMillisecond);
BENCHMARK(choose_injections_6x6)->Unit(benchmark::kMicrosecond);
BENCHMARK(simulate_two_packets_6x6)->Unit(benchmark::kMicrosecond);
BENCHMARK(invariant_packets_3x4_general)->Unit(benchmark::kMillisecond);
BENCHMARK(full_packets_3x4_general)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(supply_search_4x2x4x5)->Unit(benchmark::kMillisecond);
BENCHMARK(greedy_supply_4x2x4x5)->Unit(benchmark::kMillisecond);
BENCHMARK(matched_supply_8x8x8x8)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(greedy_supply_8x8x8x8)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(packet_supply_4x5x4x5)->Unit(benchmark::kMillisecond);
BENCHMARK(greedy_supply_4x5x4x5)->Unit(benchmark::kMillisecond);
BENCHMARK(packet_supply_8x8x8x8)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(invariant_witness_4x4_general)->Unit(benchmark::kMillisecond);
BENCHMARK(translation_classes)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(every_translation_group)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(full_witness_4x4_general)->Unit(benchmark::kMillisecond);
BENCHMARK(invariant_witness_4x5_general)->Unit(benchmark::kMillisecond);
BENCHMARK(point_witness_3x7_general)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(full_witness_3x7_general)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(rounds_invariant_search)->DenseRange(0, 1)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(one_pass_invariant_search)->DenseRange(0, 1)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dancecard

BENCHMARK_MAIN();
