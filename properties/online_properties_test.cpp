// Properties of the on-line simulators under RapidCheck: for random instances (including skewed ones where a few
// processors receive most messages) every protocol under every discipline it runs in finishes, its trace passes the
// replay checker, and it takes at least h rounds; a trace with one delivery dropped is rejected.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "dancecard/checkers/online_trace_check.hpp"
#include "dancecard/core/online/online.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::online;
namespace {

rc::Gen<online_instance> online_instances() {
  return rc::gen::exec([] {
    const rank n = *rc::gen::inRange<rank>(2, 64);
    const auto pairs = *rc::gen::container<std::vector<std::pair<rank, rank>>>(rc::gen::pair(
        rc::gen::inRange<rank>(0, n),
        rc::gen::weightedOneOf<rank>({{3, rc::gen::inRange<rank>(0, n)}, {1, rc::gen::inRange<rank>(0, 2)}})));
    std::vector<online_message> messages;
    for (const auto& [a, b] : pairs)
      if (a != b) messages.push_back({a, b});
    return online_instance(n, std::move(messages));
  });
}

struct combo {
  contention discipline;
  online_protocol protocol;
};

RC_GTEST_PROP(online_simulation, every_protocol_delivers_everything_with_a_valid_trace, ()) {
  const online_instance instance = *rc::gen::resize(100, online_instances());
  const combo c = *rc::gen::element(
      combo{contention::ocpc, online_protocol::ggt}, combo{contention::arbitrary, online_protocol::ggt},
      combo{contention::arbitrary, online_protocol::weighted}, combo{contention::arbitrary, online_protocol::equal},
      combo{contention::fifo, online_protocol::fifo_staged}, combo{contention::priority, online_protocol::fifo_staged},
      combo{contention::priority, online_protocol::random_priority});
  const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
  RC_TAG(std::string(to_string(c.discipline)) + "/" + std::string(to_string(c.protocol)));
  const online_run run = simulate_online(instance, {.discipline = c.discipline, .protocol = c.protocol}, seed);
  RC_ASSERT(run.finished);
  const online_trace_report r = check_online_trace(instance, run.trace);
  RC_ASSERT(r.holds());
  RC_ASSERT(run.rounds == r.rounds);
  RC_ASSERT(run.rounds >= instance.h());
  if (!run.trace.deliveries.empty()) {
    online_trace dropped = run.trace;
    dropped.deliveries.erase(dropped.deliveries.begin() +
                             static_cast<std::ptrdiff_t>(*rc::gen::inRange<std::size_t>(0, dropped.deliveries.size())));
    RC_ASSERT(!check_online_trace(instance, dropped).holds());
  }
}

}  // namespace
}  // namespace dancecard
