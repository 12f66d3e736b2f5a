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
namespace {

dance_query lower_bound_query(rank n) { return {.n = n, .rounds = optimal_rounds(n) - 1, .requirements = {}}; }

// The baseline: Z3's unsat for the lower bound (counting encoding).
void z3_lower_bound(benchmark::State& state) {
  const rank n = static_cast<rank>(state.range(0));
  for (auto _ : state) {
    const auto r = solve_dance_existence(lower_bound_query(n), {.encoding = dance_encoding::counting,
                                                                .symmetry_breaking = false});
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
    bytes = r.proof.size();
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
  for (auto _ : state) r = check_drat(text, solved.proof);
  if (r.outcome != verdict::holds) state.SkipWithError("rejected");
  state.counters["proof_bytes"] = static_cast<double>(solved.proof.size());
  state.counters["lemmas"] = static_cast<double>(r.lemmas);
  state.counters["checked_lemmas"] = static_cast<double>(r.checked_lemmas);
}

constexpr auto ms = benchmark::kMillisecond;
BENCHMARK(z3_lower_bound)->Arg(7)->Arg(10)->Arg(31)->Arg(63)->Arg(64)->Unit(ms);
BENCHMARK(cutting_planes_generate_and_check)->Arg(7)->Arg(10)->Arg(31)->Arg(63)->Arg(64)->Arg(199)->Arg(200)->Unit(ms);
BENCHMARK(cadical_solve_with_proof)->Arg(7)->Arg(8)->Arg(10)->Unit(ms);
BENCHMARK(drat_check_of_cadical_proof)->Arg(7)->Arg(8)->Arg(10)->Unit(ms);

}  // namespace
}  // namespace dancecard

BENCHMARK_MAIN();
