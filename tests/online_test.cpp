// The on-line simulators: instances, every protocol under its disciplines checked by the trace replay, seeded
// reproducibility, and the replay rejecting corrupted traces.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "dancecard/checkers/online_trace_check.hpp"
#include "dancecard/core/online/online.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::online;
namespace {

TEST(online_instances, h_of_each_family) {
  EXPECT_EQ(random_online_relation(16, 5, 1).h(), 5u);
  EXPECT_EQ(random_online_relation(16, 5, 1).messages().size(), 80u);
  EXPECT_EQ(total_exchange(8).h(), 7u);
  const online_instance hard = difficult_relation(4);
  EXPECT_EQ(hard.h(), 4u);
  EXPECT_EQ(hard.processors(), 1u + 4 + 12 + 36);
  EXPECT_THROW(online_instance(3, {{0, 0}}), std::invalid_argument);
  EXPECT_THROW(online_instance(3, {{0, 3}}), std::invalid_argument);
}

struct combo {
  contention discipline;
  online_protocol protocol;
};
const combo combos[] = {
    {contention::ocpc, online_protocol::ggt},
    {contention::arbitrary, online_protocol::ggt},
    {contention::arbitrary, online_protocol::weighted},
    {contention::arbitrary, online_protocol::equal},
    {contention::fifo, online_protocol::fifo_staged},
    {contention::priority, online_protocol::fifo_staged},
    {contention::priority, online_protocol::random_priority},
};

TEST(online_simulation, every_protocol_finishes_and_its_trace_checks) {
  const online_instance instances[] = {random_online_relation(32, 16, 3), total_exchange(24), difficult_relation(5)};
  for (const online_instance& instance : instances)
    for (const combo& c : combos)
      for (std::uint64_t seed : {1u, 2u}) {
        const online_run run = simulate_online(instance, {.discipline = c.discipline, .protocol = c.protocol}, seed);
        const std::string tag = std::string(to_string(c.discipline)) + "/" + std::string(to_string(c.protocol));
        ASSERT_TRUE(run.finished) << tag;
        EXPECT_GE(run.rounds, instance.h()) << tag;
        const online_trace_report r = check_online_trace(instance, run.trace);
        ASSERT_TRUE(r.holds()) << tag << ": " << describe(r);
        EXPECT_EQ(r.rounds, run.rounds) << tag;
      }
}

TEST(online_simulation, the_same_seed_gives_the_same_trace) {
  const online_instance instance = random_online_relation(32, 8, 9);
  for (const combo& c : combos) {
    const online_options o{.discipline = c.discipline, .protocol = c.protocol};
    const online_run a = simulate_online(instance, o, 42), b = simulate_online(instance, o, 42),
                     other = simulate_online(instance, o, 43);
    ASSERT_EQ(a.trace.sends.size(), b.trace.sends.size());
    for (std::size_t i = 0; i < a.trace.sends.size(); ++i) {
      EXPECT_EQ(a.trace.sends[i].round, b.trace.sends[i].round);
      EXPECT_EQ(a.trace.sends[i].message, b.trace.sends[i].message);
    }
    EXPECT_EQ(a.rounds, b.rounds);
    bool differs = other.trace.sends.size() != a.trace.sends.size();
    for (std::size_t i = 0; !differs && i < a.trace.sends.size(); ++i)
      differs = a.trace.sends[i].message != other.trace.sends[i].message ||
                a.trace.sends[i].round != other.trace.sends[i].round;
    EXPECT_TRUE(differs) << to_string(c.protocol);
  }
}

TEST(online_simulation, a_protocol_outside_its_discipline_is_refused) {
  EXPECT_THROW(
      simulate_online(total_exchange(4), {.discipline = contention::ocpc, .protocol = online_protocol::fifo_staged}, 1),
      std::invalid_argument);
  EXPECT_THROW(
      simulate_online(total_exchange(4), {.discipline = contention::fifo, .protocol = online_protocol::weighted}, 1),
      std::invalid_argument);
}

TEST(online_trace_check, corrupted_traces_are_rejected_with_witnesses) {
  const online_instance instance = random_online_relation(16, 6, 5);
  {  // fifo: deliver a message one round late — the receiver idles, or takes two
    online_run run =
        simulate_online(instance, {.discipline = contention::fifo, .protocol = online_protocol::fifo_staged}, 1);
    ASSERT_TRUE(check_online_trace(instance, run.trace).holds());
    run.trace.deliveries.pop_back();
    const auto r = check_online_trace(instance, run.trace);
    EXPECT_FALSE(r.holds());
    EXPECT_GE(r.count(online_violation_kind::not_delivered) + r.count(online_violation_kind::idle_receiver), 1u)
        << describe(r);
  }
  {  // ocpc: a delivery in a colliding round
    online_run run = simulate_online(instance, {.discipline = contention::ocpc, .protocol = online_protocol::ggt}, 1);
    std::map<std::pair<std::uint64_t, rank>, std::vector<std::uint32_t>> by;
    for (const online_send& s : run.trace.sends) by[{s.round, instance.messages()[s.message].dst}].push_back(s.message);
    bool corrupted = false;
    for (const auto& [key, list] : by)
      if (list.size() >= 2) {
        auto& d = run.trace.deliveries;
        auto at = std::find_if(d.begin(), d.end(), [&](const online_delivery& x) { return x.round > key.first; });
        d.insert(at, {key.first, list[0]});
        corrupted = true;
        break;
      }
    ASSERT_TRUE(corrupted);
    const auto r = check_online_trace(instance, run.trace);
    EXPECT_FALSE(r.holds());
    EXPECT_GE(r.count(online_violation_kind::collision_delivered) + r.count(online_violation_kind::delivered_twice), 1u)
        << describe(r);
  }
  {  // priority: swap the priorities of two queued messages' deliveries by lowering one priority
    online_run run = simulate_online(
        instance, {.discipline = contention::priority, .protocol = online_protocol::random_priority}, 1);
    for (online_send& s : run.trace.sends) s.priority = UINT64_MAX - s.priority;  // reversed order: lowest first
    const auto r = check_online_trace(instance, run.trace);
    EXPECT_FALSE(r.holds());
    EXPECT_GE(r.count(online_violation_kind::queue_order), 1u) << describe(r);
  }
  {  // a stalled sender sends
    online_run run =
        simulate_online(instance, {.discipline = contention::fifo, .protocol = online_protocol::fifo_staged}, 2);
    online_trace t = run.trace;
    // Move each processor's second send to the round of its first.
    std::map<rank, std::size_t> first;
    for (std::size_t i = 0; i < t.sends.size(); ++i) {
      const rank p = instance.messages()[t.sends[i].message].src;
      if (!first.count(p)) {
        first[p] = i;
      } else if (t.sends[i].round > t.sends[first[p]].round + 0) {
        t.sends[i].round = t.sends[first[p]].round;
        break;
      }
    }
    std::stable_sort(t.sends.begin(), t.sends.end(),
                     [](const online_send& a, const online_send& b) { return a.round < b.round; });
    const auto r = check_online_trace(instance, t);
    EXPECT_FALSE(r.holds());
    EXPECT_GE(r.count(online_violation_kind::sends_twice) + r.count(online_violation_kind::stalled_send), 1u)
        << describe(r);
  }
}

}  // namespace
}  // namespace dancecard
