// Google Benchmark: generating and checking dance schedules against a memcpy and a read of the same bytes, the
// all-gather simulation, and the SMT optimality campaign T(n) for n = 2..64.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "dancecard/checkers/allgather_simulation.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard {

using namespace dancecard::dance;
namespace {

void set_bytes(benchmark::State& state, const dance_schedule& s) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * s.dance_count() * sizeof(couple)));
  state.counters["dances"] = static_cast<double>(s.dance_count());
}

// The floor: copying the schedule's dance array once (destination allocated and touched beforehand).
void memcpy_of_the_schedule(benchmark::State& state) {
  const dance_schedule s = factorization_schedule(static_cast<rank>(state.range(0)));
  std::vector<couple> destination(s.dance_count());
  std::memcpy(destination.data(), s.all_dances().data(), s.dance_count() * sizeof(couple));
  for (auto _ : state) {
    std::memcpy(destination.data(), s.all_dances().data(), s.dance_count() * sizeof(couple));
    benchmark::DoNotOptimize(destination.data());
    benchmark::ClobberMemory();
  }
  set_bytes(state, s);
}

// A second floor: reading the schedule's dance array once, nothing written: the sum of its 8-byte words, which the
// compiler vectorises.
void read_of_the_schedule(benchmark::State& state) {
  const dance_schedule s = factorization_schedule(static_cast<rank>(state.range(0)));
  const auto* bytes = reinterpret_cast<const unsigned char*>(s.all_dances().data());
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (std::size_t k = 0; k < s.dance_count(); ++k) {
      std::uint64_t word;
      std::memcpy(&word, bytes + k * sizeof(couple), sizeof word);
      sum += word;
    }
    benchmark::DoNotOptimize(sum);
  }
  set_bytes(state, s);
}

template <dance_algorithm A>
void generate_schedule(benchmark::State& state) {
  const rank n = static_cast<rank>(state.range(0));
  std::size_t dances = 0;
  for (auto _ : state) {
    dance_schedule s = generate(A, n);
    dances = s.dance_count();
    benchmark::DoNotOptimize(s.all_dances().data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * dances * sizeof(couple)));
}

template <dance_algorithm A>
void check_schedule(benchmark::State& state) {
  const dance_schedule s = generate(A, static_cast<rank>(state.range(0)));
  for (auto _ : state) {
    dance_report r = check_dance_schedule(s);
    if (!r.holds()) state.SkipWithError("generator output rejected");
    benchmark::DoNotOptimize(r);
  }
  set_bytes(state, s);
}

void check_partner_matrix_form(benchmark::State& state) {
  const partner_matrix m = to_partner_matrix(factorization_schedule(static_cast<rank>(state.range(0))));
  for (auto _ : state) benchmark::DoNotOptimize(check_partner_matrix(m));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * m.entries().size() * sizeof(std::uint32_t)));
}

void allgather_simulation(benchmark::State& state) {
  const dance_schedule s = factorization_schedule(static_cast<rank>(state.range(0)));
  for (auto _ : state) {
    allgather_report r = simulate_allgather(s);
    if (r.outcome != verdict::holds) state.SkipWithError("simulation failed");
    benchmark::DoNotOptimize(r);
  }
  set_bytes(state, s);
}

// The T(n) campaign: prove_dance_optimum for every n in [2, range(0)], on as many threads as the machine has cores.
void optimality_campaign(benchmark::State& state) {
  const rank last = static_cast<rank>(state.range(0));
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (auto _ : state) {
    std::atomic<rank> next{2};
    std::atomic<int> not_proven{0};
    auto worker = [&] {
      for (rank n; (n = next++) <= last;)
        if (prove_dance_optimum(n, {.timeout_ms = 300'000}).status != proof_status::proven) ++not_proven;
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    if (not_proven > 0) state.SkipWithError("some n not proven");
  }
  state.counters["instances"] = last - 1;
  state.counters["threads"] = threads;
}

constexpr auto ms = benchmark::kMillisecond;
BENCHMARK(memcpy_of_the_schedule)->Arg(1'000)->Arg(10'000)->Unit(ms);
BENCHMARK(read_of_the_schedule)->Arg(1'000)->Arg(10'000)->Unit(ms);
BENCHMARK(check_schedule<dance_algorithm::factorization>)->Arg(1'000)->Arg(10'000)->Unit(ms);
BENCHMARK(check_schedule<dance_algorithm::divide>)->Arg(1'000)->Arg(10'000)->Unit(ms);
BENCHMARK(check_schedule<dance_algorithm::searching>)->Arg(1'000)->Arg(10'000)->Unit(ms);
BENCHMARK(check_partner_matrix_form)->Arg(1'000)->Arg(10'000)->Unit(ms);
BENCHMARK(generate_schedule<dance_algorithm::factorization>)->Arg(1'000)->Arg(10'000)->Unit(ms);
BENCHMARK(generate_schedule<dance_algorithm::divide>)->Arg(1'000)->Arg(10'000)->Unit(ms);
BENCHMARK(generate_schedule<dance_algorithm::searching>)->Arg(1'000)->Arg(10'000)->Unit(ms)->Iterations(1);
BENCHMARK(generate_schedule<dance_algorithm::sequential>)->Arg(1'000)->Unit(ms);
BENCHMARK(allgather_simulation)->Arg(1'000)->Arg(5'000)->Unit(ms);
BENCHMARK(optimality_campaign)->Arg(16)->Arg(64)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace
}  // namespace dancecard

BENCHMARK_MAIN();
