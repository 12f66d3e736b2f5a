// Google Benchmark: simulating an on-line 1024-relation on n = 1024 processors (about a million messages) under
// each contention discipline, against a baseline that only shuffles the same message list, in the same run.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>

#include "dancecard/core/online/online.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::online;
namespace {

const online_instance& instance() {
  static const online_instance i = random_online_relation(1024, 1024, 1);
  return i;
}

void shuffle_baseline(benchmark::State& state) {
  std::vector<online_message> messages = instance().messages();
  std::mt19937_64 random(1);
  for (auto _ : state) {
    std::shuffle(messages.begin(), messages.end(), random);
    benchmark::DoNotOptimize(messages.data());
  }
  state.counters["messages"] = static_cast<double>(messages.size());
}

template <contention D, online_protocol P>
void simulate(benchmark::State& state) {
  std::uint64_t rounds = 0, seed = 1;
  for (auto _ : state) {
    const online_run run = simulate_online(instance(), {.discipline = D, .protocol = P, .keep_trace = false}, seed++);
    rounds = run.rounds;
    benchmark::DoNotOptimize(rounds);
  }
  state.counters["messages"] = static_cast<double>(instance().messages().size());
  state.counters["rounds_over_h"] = static_cast<double>(rounds) / 1024.0;
}

BENCHMARK(shuffle_baseline)->Unit(benchmark::kMillisecond);
BENCHMARK(simulate<contention::ocpc, online_protocol::ggt>)->Unit(benchmark::kMillisecond);
BENCHMARK(simulate<contention::arbitrary, online_protocol::equal>)->Unit(benchmark::kMillisecond);
BENCHMARK(simulate<contention::arbitrary, online_protocol::weighted>)->Unit(benchmark::kMillisecond);
BENCHMARK(simulate<contention::fifo, online_protocol::fifo_staged>)->Unit(benchmark::kMillisecond);
BENCHMARK(simulate<contention::priority, online_protocol::random_priority>)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dancecard

BENCHMARK_MAIN();
