// Google Benchmark (bench_torus): the torus CNF and what is built on it -- invariant and point-group searches, the
// symmetry breaks, cube and conquer, the implied constraints (arrival count, return exclusion), k packets -- each
// against its baseline in the same run.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>
#include <optional>
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

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

// 3 x 4, general model, three packets per PU, 9 steps (the counting bound, so the minimum): a table invariant under a
// group of translations (search_invariant_table with packets = 3, largest groups first), against the full query
// (solve_torus_packets) capped at 60 s as the baseline, in the same run.
void invariant_packets_3x4_general(benchmark::State& state) {
  for (auto _ : state) {
    const torus_invariant_search_result r =
        search_invariant_table(torus::network({3, 4}), torus_model::general, 9, 600'000, {.packets = 3});
    if (!r.table) state.SkipWithError("no invariant table found");
    state.counters["group_order"] = r.group ? static_cast<double>(r.group->order) : 0.0;
  }
}
void full_packets_3x4_general(benchmark::State& state) {
  for (auto _ : state)
    state.counters["sat"] =
        solve_torus_packets(torus::network({3, 4}), torus_model::general, 3, 9, 60'000).answer == solver_answer::sat
            ? 1
            : 0;
}

// A 5-step table of the general model on 4 x 4 (the proven minimum) by SAT over translation-invariant tables
// (search_invariant_table, largest groups first), against the full query's witness (solve_torus_clausal, the sat
// query alone) as the baseline, in the same run; and 4 x 5's 6-step general table, whose full query takes minutes.
void invariant_witness_4x4_general(benchmark::State& state) {
  for (auto _ : state)
    state.counters["group_order"] = static_cast<double>(
        search_invariant_table(torus::network({4, 4}), torus_model::general, 5, 600'000).group.value().order);
}
void full_witness_4x4_general(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(solve_torus_clausal(torus::network({4, 4}), torus_model::general, 5, 600'000).answer);
}
void invariant_witness_4x5_general(benchmark::State& state) {
  for (auto _ : state)
    state.counters["group_order"] = static_cast<double>(
        search_invariant_table(torus::network({4, 5}), torus_model::general, 6, 600'000).group.value().order);
}

// 3 x 7's 6-step general table (the proven minimum; no table invariant under translations exists) by SAT over tables
// invariant under point groups (reflections, rotations, glide reflections), against the full query's witness as the
// baseline, in the same run.
void point_witness_3x7_general(benchmark::State& state) {
  for (auto _ : state) {
    const torus_invariant_search_result r = search_invariant_table(torus::network({3, 7}), torus_model::general, 6,
                                                                   600'000, {.groups = invariant_groups::point});
    if (!r.table) state.SkipWithError("no point-group table found");
    state.counters["group_order"] = r.group ? static_cast<double>(r.group->order) : 0.0;
    state.counters["queries"] = static_cast<double>(r.queries);
  }
}
// The invariant search in rounds (search_invariant_table: every open group gets the round's budget,
// those out of time come back with twice as much, resumed) against a one-pass scheme as the baseline, written out
// here: every group once, largest first (translations, then point groups), each at most an eighth of the budget.
std::optional<routing_table> one_pass_invariant_table(const torus::network& t, torus_model model, std::uint64_t steps,
                                                      unsigned budget_ms, invariant_groups which,
                                                      std::uint64_t& asked) {
  const auto start = std::chrono::steady_clock::now();
  const unsigned cap = std::max(1000u, budget_ms / 8);
  auto left = [&]() -> unsigned {
    const auto spent =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
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
  torus::network network;
  torus_model model;
  std::uint64_t steps;
  invariant_groups groups;
};
const invariant_case invariant_cases[] = {{torus::network({3, 7}), torus_model::general, 6, invariant_groups::point},
                                          {torus::network({3, 12}), torus_model::general, 10, invariant_groups::point}};

void rounds_invariant_search(benchmark::State& state) {
  const invariant_case& c = invariant_cases[static_cast<std::size_t>(state.range(0))];
  state.SetLabel(c.network.name());
  for (auto _ : state) {
    const torus_invariant_search_result r =
        search_invariant_table(c.network, c.model, c.steps, 1'800'000, {.groups = c.groups});
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
    if (!one_pass_invariant_table(c.network, c.model, c.steps, 1'800'000, c.groups, asked))
      state.SkipWithError("no table found");
    state.counters["groups_asked"] = static_cast<double>(asked);
  }
}

// One translation group per class (translation_subgroups) against every translation subgroup (found
// here as the orbit maps of every set of up to d translations: a subgroup of Z_n1 × … × Z_nd needs no more generators),
// each group asked alone with solve_torus_invariant, on questions where every group is unsat: 2 x 4 x 4 general at 5
// steps and 2 x 2 x 4 pairing at 4 (both one below their minima).
std::vector<std::vector<pu_index>> every_translation_subgroup(const torus::network& t) {
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
  torus::network network;
  torus_model model;
  std::uint64_t steps;
};
const unsat_case unsat_cases[] = {{torus::network({2, 4, 4}), torus_model::general, 5},
                                  {torus::network({2, 2, 4}), torus_model::pairing, 4}};
void translation_classes(benchmark::State& state) {
  const unsat_case& c = unsat_cases[static_cast<std::size_t>(state.range(0))];
  state.SetLabel(c.network.name());
  for (auto _ : state) {
    std::uint64_t asked = 0;
    for (const auto& generators : translation_subgroups(c.network)) {
      ++asked;
      if (solve_torus_invariant(c.network, c.model, c.steps, translation_orbits(c.network, generators), 600'000)
              .answer != solver_answer::unsat)
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
      if (solve_torus_invariant(c.network, c.model, c.steps, orbit, 600'000).answer != solver_answer::unsat)
        state.SkipWithError("expected unsat");
    }
    state.counters["groups_asked"] = static_cast<double>(asked);
  }
}

// Listing the groups the invariant searches ask (point_subgroups takes one linear group per class under
// the relabellings, and both lists keep every conjugate of the classes found for lookup, each left coset of the group
// conjugated by once, where each group had been given a canonical key, its least conjugate over every automorphism),
// beside the translation groups of the same torus (translation_subgroups, the list every search starts with) as the
// baseline in the same run. range(1): 0 translations, 1 point groups, 2 mixed groups.
const torus::network group_list_tori[] = {torus::network({4, 4, 4}), torus::network({2, 2, 8}),
                                          torus::network({2, 2, 2, 2})};
void group_list(benchmark::State& state) {
  const torus::network& t = group_list_tori[static_cast<std::size_t>(state.range(0))];
  const char* kinds[] = {"translations", "point", "mixed"};
  state.SetLabel(t.name() + " " + kinds[state.range(1)]);
  for (auto _ : state) {
    const std::size_t groups = state.range(1) == 0   ? translation_subgroups(t).size()
                               : state.range(1) == 1 ? point_subgroups(t).size()
                                                     : mixed_subgroups(t).size();
    state.counters["groups"] = static_cast<double>(groups);
  }
}

void full_witness_3x7_general(benchmark::State& state) {
  for (auto _ : state)
    if (solve_torus_clausal(torus::network({3, 7}), torus_model::general, 6, 1'200'000).answer != solver_answer::sat)
      state.SkipWithError("expected sat");
}

// The symmetry break of the CNF: the lex-leader over every automorphism fixing PU 0 (reflections, permutations of equal
// sizes) against the translations-only break as the baseline, in the same run, on unsat queries one step below known
// minima (CaDiCaL plus the DRAT check): 3 x 8 general at 6 steps, 2 x 2 x 4 pairing at 4. And the line swaps of the
// sides of length 2 (±x_j exchanged at one line's two PUs) against the same break without them: 2 x 2 x 4
// pairing at 4, 2 x 2 x 5 pairing at 5.
void symmetry_break(benchmark::State& state, const torus::network& network, torus_model model, std::uint64_t steps,
                    torus_symmetry symmetry) {
  for (auto _ : state) {
    const torus_query_result q = solve_torus_clausal(network, model, steps, 600'000, symmetry);
    if (q.answer != solver_answer::unsat) state.SkipWithError(("expected unsat: " + q.reason).c_str());
  }
}
BENCHMARK_CAPTURE(symmetry_break, 3x8_general_6_automorphisms, torus::network({3, 8}), torus_model::general, 6,
                  torus_symmetry::automorphisms)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 3x8_general_6_translations, torus::network({3, 8}), torus_model::general, 6,
                  torus_symmetry::translations)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x4_pairing_4_automorphisms, torus::network({2, 2, 4}), torus_model::pairing, 4,
                  torus_symmetry::automorphisms)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x4_pairing_4_translations, torus::network({2, 2, 4}), torus_model::pairing, 4,
                  torus_symmetry::translations)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x4_pairing_4_without_line_swaps, torus::network({2, 2, 4}), torus_model::pairing,
                  4, torus_symmetry::automorphisms_without_line_swaps)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x5_pairing_5_automorphisms, torus::network({2, 2, 5}), torus_model::pairing, 5,
                  torus_symmetry::automorphisms)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 2x2x5_pairing_5_without_line_swaps, torus::network({2, 2, 5}), torus_model::pairing,
                  5, torus_symmetry::automorphisms_without_line_swaps)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
// The hypercube's automorphisms (where two sides are 4, the bit permutations of C4 × C4 = Q4, 24
// relabellings of PU 0's ports where reflections and permutations give 8) against the break without them, in the same
// run, on the unsat queries one below 4 x 4's minima (the only torus in docs/torus-limits.md with two sides of 4 and
// an unsat query that answers: 2 x 4 x 4's are open).
BENCHMARK_CAPTURE(symmetry_break, 4x4_general_4_automorphisms, torus::network({4, 4}), torus_model::general, 4,
                  torus_symmetry::automorphisms)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 4x4_general_4_without_hypercube, torus::network({4, 4}), torus_model::general, 4,
                  torus_symmetry::automorphisms_without_hypercube)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 4x4_pairing_5_automorphisms, torus::network({4, 4}), torus_model::pairing, 5,
                  torus_symmetry::automorphisms)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symmetry_break, 4x4_pairing_5_without_hypercube, torus::network({4, 4}), torus_model::pairing, 5,
                  torus_symmetry::automorphisms_without_hypercube)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);

// A query split into cubes (solve_torus_cubes) against the whole query in the same run (cubes = 0: the
// baseline, solve_torus_clausal), on unsat queries one below known minima; CaDiCaL and the DRAT checks included.
// Counters: the work summed over the cubes, the longest cube (the wall time with a core per cube) and the least wall
// time J cores could reach by this split, max(longest, sum / J), for J = 8 and 64 — a bound from the measured cubes,
// not a run on that many cores.
void split_query(benchmark::State& state, const torus::network& network, torus_model model, std::uint64_t steps) {
  const std::uint64_t cubes = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    if (cubes == 0) {
      const torus_query_result q = solve_torus_clausal(network, model, steps, 1'200'000);
      if (q.answer != solver_answer::unsat) state.SkipWithError(("expected unsat: " + q.reason).c_str());
      continue;
    }
    const torus_split_result r = solve_torus_cubes(network, model, steps, 1'200'000,
                                                   {.cubes = cubes, .jobs = static_cast<unsigned>(state.range(1))});
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
BENCHMARK_CAPTURE(split_query, 3x9_pairing_8, torus::network({3, 9}), torus_model::pairing, 8)
    ->Args({0, 1})
    ->Args({9, 2})
    ->Args({27, 2})
    ->Args({81, 2})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(split_query, 4x5_general_5, torus::network({4, 5}), torus_model::general, 5)
    ->Args({0, 1})
    ->Args({16, 2})
    ->Args({64, 2})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// The timed loop of the unsat CNF benchmarks below: CaDiCaL, then the DRAT check of its proof, each iteration; an
// answer other than unsat or a rejected proof is an error. The clause count as a counter.
void solve_unsat_with_checked_proof(benchmark::State& state, const cnf_formula& f) {
  for (auto _ : state) {
    const clausal_result solved = solve_with_proof(f, 600'000);
    if (solved.answer != solver_answer::unsat)
      state.SkipWithError("expected unsat");
    else if (solved.proof.check(f.dimacs()).outcome != verdict::holds)
      state.SkipWithError("proof rejected");
  }
  state.counters["clauses"] = static_cast<double>(f.clauses.size());
}

// The break of the invariant CNFs over the group's normalizer (the automorphisms that keep the group)
// against the break before it as the baseline, in the same run, on invariant queries that are unsat (CaDiCaL plus the
// DRAT check): 2 x 3 x 4 pairing at 5 steps, the 2 translations generated by (1, 0, 0) (group 13 of `generate torus
// --groups all --list-groups`; before: translations only) and the 2 automorphisms generated by (x1, x2, x3) ->
// (-x1 + 1, x2, -x3) (group 209; before: no break).
void invariant_break(benchmark::State& state, const torus::network& network, torus_model model, std::uint64_t steps,
                     std::size_t group, bool normalizer) {
  const torus_symmetry_group g = invariant_group_list(network, invariant_groups::all).at(group);
  const cnf_formula f =
      g.automorphisms.empty()
          ? torus_gossip_cnf(network, model, steps,
                             {.orbit = translation_orbits(network, g.translations),
                              .symmetry = normalizer ? torus_symmetry::automorphisms : torus_symmetry::translations})
          : torus_symmetric_cnf(network, model, steps, g.automorphisms,
                                {.symmetry = normalizer ? torus_symmetry::automorphisms : torus_symmetry::none});
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(invariant_break, 2x3x4_pairing_5_group_13_normalizer, torus::network({2, 3, 4}), torus_model::pairing,
                  5, 13, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_break, 2x3x4_pairing_5_group_13_translations, torus::network({2, 3, 4}),
                  torus_model::pairing, 5, 13, false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_break, 2x3x4_pairing_5_group_209_normalizer, torus::network({2, 3, 4}),
                  torus_model::pairing, 5, 209, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_break, 2x3x4_pairing_5_group_209_none, torus::network({2, 3, 4}), torus_model::pairing, 5,
                  209, false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// The same with two own packets per PU (torus_packets_cnf with an orbit map: over the normalizer, before:
// translations only), both unsat: 2 x 3 x 4 pairing at 8 steps (the counting bound ⌈2·23/6⌉), the 4 translations
// generated by (1, 0, 1) and the 3 generated by (0, 1, 0) (groups 10 and 11 of `generate torus --dims 2x3x4 --algo
// invariant --packets 2 --list-groups`).
void invariant_packets_break(benchmark::State& state, const torus::network& network, torus_model model,
                             std::uint32_t packets, std::uint64_t steps, std::size_t group, bool normalizer) {
  const torus_symmetry_group g = invariant_group_list(network, invariant_groups::translations).at(group);
  const cnf_formula f =
      torus_packets_cnf(network, model, packets, steps,
                        {.orbit = translation_orbits(network, g.translations),
                         .symmetry = normalizer ? torus_symmetry::automorphisms : torus_symmetry::translations});
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(invariant_packets_break, 2x3x4_pairing_2_packets_8_group_10_normalizer, torus::network({2, 3, 4}),
                  torus_model::pairing, 2, 8, 10, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_packets_break, 2x3x4_pairing_2_packets_8_group_10_translations, torus::network({2, 3, 4}),
                  torus_model::pairing, 2, 8, 10, false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_packets_break, 2x3x4_pairing_2_packets_8_group_11_normalizer, torus::network({2, 3, 4}),
                  torus_model::pairing, 2, 8, 11, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(invariant_packets_break, 2x3x4_pairing_2_packets_8_group_11_translations, torus::network({2, 3, 4}),
                  torus_model::pairing, 2, 8, 11, false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// The implied arrival count of the CNF (no PU wastes more in-slots than 2d·T − (P − 1)) against the same CNF without
// it as the baseline, in the same run, on unsat queries at or just above the counting bound (CaDiCaL plus the DRAT
// check of the proof): 5 x 5 general at 6 steps (the counting bound), 3 x 6 general at 5 (the counting bound), 4 x 5
// pairing at 6 (one below its minimum).
void arrival_count(benchmark::State& state, const torus::network& network, torus_model model, std::uint64_t steps,
                   bool count, bool parity_classes = true) {
  const cnf_formula f =
      torus_gossip_cnf(network, model, steps, {.arrival_count = count, .parity_classes = parity_classes});
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(arrival_count, 5x5_general_6_counted, torus::network({5, 5}), torus_model::general, 6, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 5x5_general_6_uncounted, torus::network({5, 5}), torus_model::general, 6, false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 3x6_general_5_counted, torus::network({3, 6}), torus_model::general, 5, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 3x6_general_5_uncounted, torus::network({3, 6}), torus_model::general, 5, false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x5_pairing_6_counted, torus::network({4, 5}), torus_model::pairing, 6, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x5_pairing_6_uncounted, torus::network({4, 5}), torus_model::pairing, 6, false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// The return exclusion (no stream back at its sender within T − 1 − s forwards) against the same CNF
// without it as the baseline, in the same run, on unsat queries at the counting bound (CaDiCaL plus the DRAT check):
// 3 x 9 general at 7 (s = 2: U-turns, the rings of 3 gone straight, walks of 3 and 4 forwards) and 4 x 7 general at
// 7 (s = 1: walks of up to 5 forwards, no ring of 3).
void return_exclusion(benchmark::State& state, const torus::network& network, torus_model model, std::uint64_t steps,
                      bool returns) {
  const cnf_formula f = torus_gossip_cnf(network, model, steps, {.returns = returns});
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(return_exclusion, 3x9_general_7_with, torus::network({3, 9}), torus_model::general, 7, true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(return_exclusion, 3x9_general_7_without, torus::network({3, 9}), torus_model::general, 7, false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(return_exclusion, 4x7_general_7_with, torus::network({4, 7}), torus_model::general, 7, true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(return_exclusion, 4x7_general_7_without, torus::network({4, 7}), torus_model::general, 7, false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// k packets per PU (torus_packets_cnf): the implied constraints (the arrival count over K(P − 1) packets, every packet
// sent, every out-port busy) and the break (packet 0 on out-port 0) against the bare CNF as the baseline, in the same
// run, on an unsat query one step below a minimum (CaDiCaL plus the DRAT check): 3 x 3, three packets, pairing model,
// 7 steps.
void packets_cnf(benchmark::State& state, const torus::network& network, torus_model model, std::uint32_t packets,
                 std::uint64_t steps, bool base_only) {
  const cnf_formula f = torus_packets_cnf(network, model, packets, steps, {.base_only = base_only});
  solve_unsat_with_checked_proof(state, f);
}
BENCHMARK_CAPTURE(packets_cnf, 3x3_pairing_3_packets_7_implied, torus::network({3, 3}), torus_model::pairing, 3, 7,
                  false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(packets_cnf, 3x3_pairing_3_packets_7_bare, torus::network({3, 3}), torus_model::pairing, 3, 7, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// The arrival count's counters per step parity (on tori whose sides are all even a packet at even distance comes in
// even steps only) against the one counter over all slots as the baseline, in the same run, on unsat queries at the
// counting bound (CaDiCaL plus the DRAT check): 4 x 8 general at 8, 4 x 6 general at 6, 4 x 6 pairing at 7 (one below
// its minimum).
BENCHMARK_CAPTURE(arrival_count, 4x8_general_8_by_parity, torus::network({4, 8}), torus_model::general, 8, true, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x8_general_8_one_counter, torus::network({4, 8}), torus_model::general, 8, true,
                  false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x6_general_6_by_parity, torus::network({4, 6}), torus_model::general, 6, true, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x6_general_6_one_counter, torus::network({4, 6}), torus_model::general, 6, true,
                  false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x6_pairing_7_by_parity, torus::network({4, 6}), torus_model::pairing, 7, true, true)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(arrival_count, 4x6_pairing_7_one_counter, torus::network({4, 6}), torus_model::pairing, 7, true,
                  false)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

BENCHMARK(group_list)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({0, 2})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({1, 2})
    ->Args({2, 0})
    ->Args({2, 1})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(invariant_packets_3x4_general)->Unit(benchmark::kMillisecond);
BENCHMARK(full_packets_3x4_general)->Iterations(1)->Unit(benchmark::kMillisecond);
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
