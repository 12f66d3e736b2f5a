// Google Benchmark: the collective checker on a 1,024-rank ring all-gather (1,047,552 transfers) and a 64-rank ring
// all-reduce with 8 chunks per rank (contribution sets of 64 bits), against the baseline of copying the transfers
// themselves (memcpy of the steps' transfer arrays) in the same run: the checker is linear in the transfers, and this
// says by what factor.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/core/collective/generators.hpp"

namespace dancecard::collective {

using namespace dancecard::dance;
namespace {

const schedule& ring_1024() {
  static const schedule s = ring_allgather(1024);
  return s;
}

const schedule& allreduce_64() {
  static const schedule s = ring_allreduce(64, 8);
  return s;
}

void copy_transfers(benchmark::State& state, const schedule& s) {
  std::vector<transfer> to(s.transfers());
  for (auto _ : state) {
    std::size_t at = 0;
    for (const step& st : s.steps) {
      std::memcpy(to.data() + at, st.transfers.data(), st.transfers.size() * sizeof(transfer));
      at += st.transfers.size();
    }
    benchmark::DoNotOptimize(to.data());
    benchmark::ClobberMemory();
  }
  state.counters["transfers"] = static_cast<double>(s.transfers());
}

void check(benchmark::State& state, const schedule& s) {
  for (auto _ : state) {
    const collective_report r = check_collective_schedule(s);
    if (!r.holds()) state.SkipWithError("the schedule does not hold");
    benchmark::DoNotOptimize(r.steps);
  }
  state.counters["transfers"] = static_cast<double>(s.transfers());
}

void BM_memcpy_ring_allgather_1024(benchmark::State& state) { copy_transfers(state, ring_1024()); }
void BM_check_ring_allgather_1024(benchmark::State& state) { check(state, ring_1024()); }
void BM_memcpy_ring_allreduce_64x8(benchmark::State& state) { copy_transfers(state, allreduce_64()); }
void BM_check_ring_allreduce_64x8(benchmark::State& state) { check(state, allreduce_64()); }
BENCHMARK(BM_memcpy_ring_allgather_1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_check_ring_allgather_1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_memcpy_ring_allreduce_64x8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_check_ring_allreduce_64x8)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dancecard::collective

BENCHMARK_MAIN();
