// Google Benchmark: certificate sizes and check times against the solve times they certify, per query family
// (dance lower bound T(n) − 1): Z3's unsat, the cutting-planes certificate, CaDiCaL's DRAT proof.
#include <benchmark/benchmark.h>

#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/dance_certificates.hpp"
#include "dancecard/smt/dance_encoding.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::certificates;
namespace {

dance_query lower_bound_query(rank n) { return {.n = n, .rounds = optimal_rounds(n) - 1, .requirements = {}}; }

// The baseline: Z3's unsat for the lower bound (counting encoding).
void z3_lower_bound(benchmark::State& state) {
  const rank n = static_cast<rank>(state.range(0));
  for (auto _ : state) {
    const auto r =
        solve_dance_existence(lower_bound_query(n), {.encoding = dance_encoding::counting, .symmetry_breaking = false});
    if (r.answer != solver_answer::unsat) state.SkipWithError("not unsat");
  }
}

void cutting_planes_generate_and_check(benchmark::State& state) {
  const rank n = static_cast<rank>(state.range(0));
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string text = dance_lower_bound_certificate(n);
    bytes = text.size();
    if (check_cutting_planes(text).outcome != verdict::holds) state.SkipWithError("rejected");
  }
  state.counters["certificate_bytes"] = static_cast<double>(bytes);
}

void cadical_solve_with_proof(benchmark::State& state) {
  const cnf_formula cnf = dance_query_cnf(lower_bound_query(static_cast<rank>(state.range(0))));
  std::size_t bytes = 0;
  for (auto _ : state) {
    const auto r = solve_with_proof(cnf, 60'000);
    if (r.answer != solver_answer::unsat) state.SkipWithError("not unsat within 60 s");
    bytes = r.proof.bytes();
  }
  state.counters["proof_bytes"] = static_cast<double>(bytes);
  state.counters["clauses"] = static_cast<double>(cnf.clauses.size());
}

void drat_check_of_cadical_proof(benchmark::State& state) {
  const cnf_formula cnf = dance_query_cnf(lower_bound_query(static_cast<rank>(state.range(0))));
  const std::string text = cnf.dimacs();
  const auto solved = solve_with_proof(cnf, 60'000);
  if (solved.answer != solver_answer::unsat) {
    state.SkipWithError("not unsat within 60 s");
    return;
  }
  drat_report r;
  for (auto _ : state) r = solved.proof.check(text);
  if (r.outcome != verdict::holds) state.SkipWithError("rejected");
  state.counters["proof_bytes"] = static_cast<double>(solved.proof.bytes());
  state.counters["lemmas"] = static_cast<double>(r.lemmas);
  state.counters["checked_lemmas"] = static_cast<double>(r.checked_lemmas);
}

// One proof per n, traced twice by CaDiCaL (text and binary: the same lemmas), checked four ways in one run:
//   0  the text read whole into memory and checked from the string (how every proof was checked before streaming)
//   1  the text streamed from its temporary file
//   2  the binary streamed from its temporary file (what dancecard now does for every proof it does not emit)
//   3  baseline: reading the binary trace back into memory, no checking (a copy of the same bytes)
void drat_check_by_encoding(benchmark::State& state) {
  const cnf_formula cnf = dance_query_cnf(lower_bound_query(static_cast<rank>(state.range(0))));
  const std::string dimacs = cnf.dimacs();
  const auto mode = state.range(1);
  const auto solved = solve_with_proof(cnf, 60'000, mode <= 1 ? drat_encoding::text : drat_encoding::binary);
  if (solved.answer != solver_answer::unsat) {
    state.SkipWithError("not unsat within 60 s");
    return;
  }
  const std::string text = mode == 0 ? solved.proof.read() : std::string();
  drat_report r;
  r.outcome = verdict::holds;
  for (auto _ : state) {
    if (mode == 0)
      r = check_drat(dimacs, text);
    else if (mode <= 2)
      r = solved.proof.check(dimacs);
    else
      benchmark::DoNotOptimize(solved.proof.read());
  }
  if (r.outcome != verdict::holds) state.SkipWithError("rejected");
  state.SetLabel(mode == 0   ? "text, in memory"
                 : mode == 1 ? "text, streamed"
                 : mode == 2 ? "binary, streamed"
                             : "baseline: read binary back");
  state.counters["proof_bytes"] = static_cast<double>(solved.proof.bytes());
  state.counters["checked_lemmas"] = static_cast<double>(r.checked_lemmas);
}

constexpr auto ms = benchmark::kMillisecond;
BENCHMARK(z3_lower_bound)->Arg(7)->Arg(10)->Arg(31)->Arg(63)->Arg(64)->Unit(ms);
BENCHMARK(cutting_planes_generate_and_check)->Arg(7)->Arg(10)->Arg(31)->Arg(63)->Arg(64)->Arg(199)->Arg(200)->Unit(ms);
BENCHMARK(cadical_solve_with_proof)->Arg(7)->Arg(8)->Arg(10)->Unit(ms);
BENCHMARK(drat_check_of_cadical_proof)->Arg(7)->Arg(8)->Arg(10)->Unit(ms);
BENCHMARK(drat_check_by_encoding)->ArgsProduct({{7, 10}, {0, 1, 2, 3}})->Unit(ms);

}  // namespace
}  // namespace dancecard

BENCHMARK_MAIN();
