// Euler orientation, the full-duplex h-round schedule and the direct 3⌈h/2⌉ half-duplex schedule.
#include "dancecard/core/hrel/schedules.hpp"

#include <algorithm>

#include "dancecard/core/hrel/edge_coloring.hpp"
#include "two_relations.hpp"

namespace dancecard::hrel {

std::vector<std::uint64_t> euler_orientation(const hrel_instance& instance) {
  const auto& messages = instance.messages();
  const rank P = instance.pes();
  // Half of every message each way; the odd packets (one per message of odd length) are oriented along closed trails
  // of the graph they form together with dummy edges that pair up its odd-degree vertices.
  std::vector<std::uint64_t> forward(messages.size());
  struct edge {
    rank a, b;
    std::size_t message;  // SIZE_MAX: a dummy
  };
  std::vector<edge> odd;
  std::vector<std::uint32_t> degree(P, 0);
  for (std::size_t m = 0; m < messages.size(); ++m) {
    forward[m] = messages[m].packets / 2;
    if (messages[m].packets % 2 == 1) {
      odd.push_back({messages[m].src, messages[m].dst, m});
      ++degree[messages[m].src];
      ++degree[messages[m].dst];
    }
  }
  rank pending = P;
  for (rank p = 0; p < P; ++p)
    if (degree[p] % 2 == 1) {
      if (pending == P) {
        pending = p;
      } else {
        odd.push_back({pending, p, SIZE_MAX});
        pending = P;
      }
    }
  std::vector<std::vector<std::size_t>> incident(P);
  for (std::size_t i = 0; i < odd.size(); ++i) incident[odd[i].a].push_back(i), incident[odd[i].b].push_back(i);
  std::vector<char> used(odd.size(), 0);
  std::vector<std::size_t> next(P, 0);
  for (rank origin = 0; origin < P; ++origin) {
    while (true) {
      while (next[origin] < incident[origin].size() && used[incident[origin][next[origin]]]) ++next[origin];
      if (next[origin] == incident[origin].size()) break;
      rank at = origin;
      do {  // every vertex has even degree: the trail closes at its origin
        while (used[incident[at][next[at]]]) ++next[at];
        const std::size_t i = incident[at][next[at]];
        used[i] = 1;
        const rank to = odd[i].a == at ? odd[i].b : odd[i].a;
        if (odd[i].message != SIZE_MAX && messages[odd[i].message].src == at) ++forward[odd[i].message];
        at = to;
      } while (at != origin);
    }
  }
  return forward;
}

hrel_schedule full_duplex_schedule(const hrel_instance& instance, decomposition method) {
  bipartite_multigraph g{instance.pes(), instance.pes(), {}};
  for (const hrel_message& m : instance.messages()) g.edges.push_back({m.src, m.dst, m.packets});
  hrel_schedule s{instance.pes(), {}};
  for (const weighted_matching& round : decompose_bipartite_edges(g, method)) {
    const rational w(static_cast<std::int64_t>(round.weight));
    hrel_slot slot{w, {}};
    for (std::size_t m : round.edges)
      slot.transfers.push_back({instance.messages()[m].src, instance.messages()[m].dst, m, w});
    s.slots.push_back(std::move(slot));
  }
  return s;
}

hrel_schedule direct_schedule(const hrel_instance& instance, decomposition method) {
  const auto& messages = instance.messages();
  hrel_schedule s{instance.pes(), {}};
  for (const weighted_matching& two_relation : detail::two_relations(instance, method)) {
    // Paths and cycles: colour their edges 0, 1, 0, 1, … along the walk; the last edge of an odd cycle meets the
    // first (both colour 0) and gets colour 2. Each colour is a matching: one slot of length `weight`.
    const rational w(static_cast<std::int64_t>(two_relation.weight));
    std::vector<hrel_slot> slots(3, hrel_slot{w, {}});
    for (const detail::component& c : detail::components(instance, two_relation.edges))
      for (std::size_t i = 0; i < c.messages.size(); ++i) {
        const std::size_t colour = c.cycle && c.messages.size() % 2 == 1 && i + 1 == c.messages.size() ? 2 : i % 2;
        const std::size_t m = c.messages[i];
        slots[colour].transfers.push_back({messages[m].src, messages[m].dst, m, w});
      }
    for (hrel_slot& slot : slots)
      if (!slot.transfers.empty()) s.slots.push_back(std::move(slot));
  }
  return s;
}

}  // namespace dancecard::hrel
