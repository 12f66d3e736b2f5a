// The 2-relations of an h-relation and their paths and cycles.
#include "two_relations.hpp"

#include "dancecard/core/hrel/schedules.hpp"

namespace dancecard::hrel::detail {

std::vector<weighted_matching> two_relations(const hrel_instance& instance, decomposition method) {
  const auto& messages = instance.messages();
  const std::vector<std::uint64_t> forward = euler_orientation(instance);
  bipartite_multigraph g{instance.pes(), instance.pes(), {}};
  for (std::size_t m = 0; m < messages.size(); ++m) {
    g.edges.push_back({messages[m].src, messages[m].dst, forward[m]});
    g.edges.push_back({messages[m].dst, messages[m].src, messages[m].packets - forward[m]});
  }
  return decompose_bipartite_edges(g, method);
}

std::vector<component> components(const hrel_instance& instance, const std::vector<std::size_t>& oriented_edges) {
  const auto& messages = instance.messages();
  const rank P = instance.pes();
  std::vector<std::vector<std::size_t>> at(P);  // positions in oriented_edges
  for (std::size_t k = 0; k < oriented_edges.size(); ++k) {
    const hrel_message& msg = messages[oriented_edges[k] / 2];
    at[msg.src].push_back(k);
    at[msg.dst].push_back(k);
  }
  std::vector<char> used(oriented_edges.size(), 0), seen(P, 0);
  std::vector<component> out;
  auto walk = [&](rank start) {
    component c;
    rank v = start;
    c.vertices.push_back(v);
    seen[v] = 1;
    while (true) {
      std::size_t next = SIZE_MAX;
      for (std::size_t k : at[v])
        if (!used[k]) next = k;
      if (next == SIZE_MAX) break;
      used[next] = 1;
      const hrel_message& msg = messages[oriented_edges[next] / 2];
      c.messages.push_back(oriented_edges[next] / 2);
      v = msg.src == v ? msg.dst : msg.src;
      if (v == start) {
        c.cycle = true;
        break;
      }
      c.vertices.push_back(v);
      seen[v] = 1;
    }
    out.push_back(std::move(c));
  };
  for (rank p = 0; p < P; ++p)  // paths (and isolated PEs) from an end
    if (!seen[p] && at[p].size() <= 1) walk(p);
  for (rank p = 0; p < P; ++p)  // what is left are cycles
    if (!seen[p]) walk(p);
  return out;
}

}  // namespace dancecard::hrel::detail
