// Euler orientation, the full-duplex h-round schedule and the direct 3⌈h/2⌉ half-duplex schedule.
#include "dancecard/core/hrel/schedules.hpp"

#include <algorithm>

#include "dancecard/core/hrel/edge_coloring.hpp"

namespace dancecard {

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

hrel_schedule full_duplex_schedule(const hrel_instance& instance) {
  bipartite_multigraph g{instance.pes(), instance.pes(), {}};
  for (const hrel_message& m : instance.messages()) g.edges.push_back({m.src, m.dst, m.packets});
  hrel_schedule s{instance.pes(), {}};
  for (const auto& colour_class : color_bipartite_edges(g)) {
    hrel_slot slot{rational(1), {}};
    for (std::size_t m : colour_class)
      slot.transfers.push_back({instance.messages()[m].src, instance.messages()[m].dst, m, rational(1)});
    s.slots.push_back(std::move(slot));
  }
  return s;
}

hrel_schedule direct_schedule(const hrel_instance& instance) {
  const auto& messages = instance.messages();
  const std::vector<std::uint64_t> forward = euler_orientation(instance);
  // Edge 2m: packets of message m oriented src → dst; edge 2m + 1: oriented dst → src.
  bipartite_multigraph g{instance.pes(), instance.pes(), {}};
  for (std::size_t m = 0; m < messages.size(); ++m) {
    g.edges.push_back({messages[m].src, messages[m].dst, forward[m]});
    g.edges.push_back({messages[m].dst, messages[m].src, messages[m].packets - forward[m]});
  }
  hrel_schedule s{instance.pes(), {}};
  for (const auto& two_relation : color_bipartite_edges(g)) {
    // Each PE has at most one packet out and one in (by orientation): paths and cycles. Colour their edges properly
    // with at most 3 colours by walking each component, starting paths at an end.
    std::vector<std::vector<std::size_t>> at(instance.pes());
    for (std::size_t k = 0; k < two_relation.size(); ++k) {
      const hrel_message& msg = messages[two_relation[k] / 2];
      at[msg.src].push_back(k);
      at[msg.dst].push_back(k);
    }
    std::vector<int> colour(two_relation.size(), -1);
    auto walk = [&](rank start, std::size_t first_edge) {
      rank v = start;
      std::size_t e = first_edge;
      int c = 0;
      std::vector<std::size_t> trail;
      while (colour[e] == -1) {
        colour[e] = c;
        trail.push_back(e);
        c = 1 - c;
        const hrel_message& msg = messages[two_relation[e] / 2];
        v = msg.src == v ? msg.dst : msg.src;
        std::size_t next = SIZE_MAX;
        for (std::size_t f : at[v])
          if (f != e && colour[f] == -1) next = f;
        if (next == SIZE_MAX) break;
        e = next;
      }
      // A closed odd trail: its last edge meets the first, which has colour 0 like it — give it colour 2.
      if (trail.size() % 2 == 1 && trail.size() > 1 && v == start) colour[trail.back()] = 2;
    };
    for (rank p = 0; p < instance.pes(); ++p)  // paths first, from their ends
      if (at[p].size() == 1 && colour[at[p][0]] == -1) walk(p, at[p][0]);
    for (rank p = 0; p < instance.pes(); ++p)  // then the cycles
      for (std::size_t e : at[p])
        if (colour[e] == -1) walk(p, e);
    for (int c = 0; c < 3; ++c) {
      hrel_slot slot{rational(1), {}};
      for (std::size_t k = 0; k < two_relation.size(); ++k)
        if (colour[k] == c) {
          const std::size_t m = two_relation[k] / 2;
          slot.transfers.push_back({messages[m].src, messages[m].dst, m, rational(1)});
        }
      if (!slot.transfers.empty()) s.slots.push_back(std::move(slot));
    }
  }
  return s;
}

}  // namespace dancecard
