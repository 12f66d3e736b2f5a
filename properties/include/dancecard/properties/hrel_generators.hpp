// RapidCheck generators of h-relation instances for properties of schedulers: P PEs, messages with skewed sizes
// (mostly a few packets, sometimes a large share of h), every PE's half-duplex load capped at h. Shrinks towards
// fewer and shorter messages.
//
//   RC_GTEST_PROP(my_scheduler, routes_everything, ()) {
//     const dancecard::hrel::hrel_instance instance = *dancecard::properties::hrel_instances(64, 200);
//     namespace hrel = dancecard::hrel;
//     RC_ASSERT(hrel::check_hrel_schedule(instance, my_schedule(instance), hrel::duplex::half).holds());
//   }
#pragma once

#include <rapidcheck.h>

#include <map>
#include <ostream>
#include <tuple>
#include <vector>

#include "dancecard/core/hrel/instance.hpp"

namespace dancecard::hrel {

/// How RapidCheck prints an instance in a counterexample: P, h and the messages as src->dst:packets.
inline void showValue(const hrel_instance& instance, std::ostream& os) {
  os << "P = " << instance.pes() << ", h = " << instance.h_half_duplex() << ", messages";
  for (const hrel_message& m : instance.messages()) os << " " << m.src << "->" << m.dst << ":" << m.packets;
}
}  // namespace dancecard::hrel

namespace dancecard::properties {

/// require: max_pes >= 2, max_h >= 1.
inline rc::Gen<hrel::hrel_instance> hrel_instances(rank max_pes, std::uint64_t max_h) {
  return rc::gen::exec([max_pes, max_h] {
    const rank P = *rc::gen::inRange<rank>(2, max_pes + 1);
    const std::uint64_t h = *rc::gen::inRange<std::uint64_t>(1, max_h + 1);
    const std::size_t count = *rc::gen::inRange<std::size_t>(0, 4 * static_cast<std::size_t>(P) + 1);
    // Skew: a message is short (1..3 packets) or, one time in four, up to h.
    const auto wishes = *rc::gen::container<std::vector<std::tuple<rank, rank, std::uint64_t>>>(
        count, rc::gen::tuple(rc::gen::inRange<rank>(0, P), rc::gen::inRange<rank>(0, P),
                              rc::gen::weightedOneOf<std::uint64_t>({{3, rc::gen::inRange<std::uint64_t>(1, 4)},
                                                                     {1, rc::gen::inRange<std::uint64_t>(1, h + 1)}})));
    std::vector<std::uint64_t> load(P, 0);
    std::map<std::pair<rank, rank>, std::uint64_t> packets;
    for (const auto& [src, dst, want] : wishes) {
      if (src == dst) continue;
      const std::uint64_t room = std::min(h - load[src], h - load[dst]);
      const std::uint64_t take = std::min(want, room);
      if (take == 0) continue;
      load[src] += take, load[dst] += take;
      packets[{src, dst}] += take;
    }
    std::vector<hrel::hrel_message> messages;
    for (const auto& [pair, n] : packets) messages.push_back({pair.first, pair.second, n});
    return hrel::hrel_instance(P, std::move(messages));
  });
}

}  // namespace dancecard::properties
