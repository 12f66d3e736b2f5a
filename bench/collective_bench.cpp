// Google Benchmark: the collective checker on a 1,024-rank ring all-gather (1,047,552 transfers) and a 64-rank ring
// all-reduce with 8 chunks per rank (contribution sets of 64 bits), against the baseline of copying the transfers
// themselves (memcpy of the steps' transfer arrays) in the same run: the checker is linear in the transfers, and this
// says by what factor. The MSCCL-IR checker on that all-reduce exported on 8 channels, against copying the program's
// steps.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/msccl_check.hpp"
#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/collective/msccl.hpp"

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

const msccl_program& allreduce_64_msccl() {
  static const msccl_program p = to_msccl(allreduce_64(), {.channels = 8});
  return p;
}

void BM_copy_msccl_allreduce_64x8_8_channels(benchmark::State& state) {
  const msccl_program& p = allreduce_64_msccl();
  std::vector<msccl_step> to(p.step_count());
  for (auto _ : state) {
    std::size_t at = 0;
    for (const msccl_gpu& g : p.gpus)
      for (const msccl_threadblock& tb : g.threadblocks) {
        std::memcpy(to.data() + at, tb.steps.data(), tb.steps.size() * sizeof(msccl_step));
        at += tb.steps.size();
      }
    benchmark::DoNotOptimize(to.data());
    benchmark::ClobberMemory();
  }
  state.counters["steps"] = static_cast<double>(p.step_count());
}

void BM_check_msccl_allreduce_64x8_8_channels(benchmark::State& state) {
  const msccl_program& p = allreduce_64_msccl();
  for (auto _ : state) {
    const msccl_report r = check_msccl_program(p);
    if (!r.holds()) state.SkipWithError("the program does not hold");
    benchmark::DoNotOptimize(r.steps);
  }
  state.counters["steps"] = static_cast<double>(p.step_count());
}

void BM_memcpy_ring_allgather_1024(benchmark::State& state) { copy_transfers(state, ring_1024()); }
void BM_check_ring_allgather_1024(benchmark::State& state) { check(state, ring_1024()); }
void BM_memcpy_ring_allreduce_64x8(benchmark::State& state) { copy_transfers(state, allreduce_64()); }
void BM_check_ring_allreduce_64x8(benchmark::State& state) { check(state, allreduce_64()); }
BENCHMARK(BM_memcpy_ring_allgather_1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_check_ring_allgather_1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_memcpy_ring_allreduce_64x8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_check_ring_allreduce_64x8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_copy_msccl_allreduce_64x8_8_channels)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_check_msccl_allreduce_64x8_8_channels)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dancecard::collective

BENCHMARK_MAIN();
