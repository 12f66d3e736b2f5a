// The translation subgroups of a torus, one per class under conjugation by its automorphisms, and the list of groups
// (translations, point groups, mixed groups) that the invariant-table searches ask in turn.
#include "dancecard/core/torus/group_orbits.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

namespace dancecard::torus {

std::vector<pu_index> translation_orbits(const torus::network& network,
                                         const std::vector<std::vector<std::uint32_t>>& generators) {
  const pu_index P = network.size();
  const std::uint32_t d = network.dimension();
  for (std::size_t g = 0; g < generators.size(); ++g)
    if (generators[g].size() != d)
      throw std::invalid_argument("translation generator " + std::to_string(g) + " has " +
                                  std::to_string(generators[g].size()) + " entries for a torus of dimension " +
                                  std::to_string(d));
  std::vector<pu_index> orbit(P, P);
  for (pu_index start = 0; start < P; ++start) {
    if (orbit[start] != P) continue;  // already in the orbit of a smaller PU
    orbit[start] = start;
    std::vector<pu_index> frontier{start};
    while (!frontier.empty()) {
      const pu_index pu = frontier.back();
      frontier.pop_back();
      const std::vector<std::uint32_t> c = network.coordinates(pu);
      for (const auto& g : generators) {
        std::vector<std::uint32_t> moved(d);
        for (std::uint32_t j = 0; j < d; ++j)
          moved[j] = static_cast<std::uint32_t>((c[j] + g[j] % network.dims()[j]) % network.dims()[j]);
        const pu_index next = network.index(moved);
        if (orbit[next] == P) orbit[next] = start, frontier.push_back(next);
      }
    }
  }
  return orbit;
}

std::vector<std::vector<std::vector<std::uint32_t>>> translation_subgroups(const torus::network& network) {
  const pu_index P = network.size();
  // A subgroup is known by its orbit map (the orbit of PU 0 is the subgroup itself: translation by a PU's
  // coordinates moves PU 0 there). Every subgroup is the join of cyclic ones, so joining the subgroups found with each
  // cyclic subgroup until nothing new appears gives them all.
  std::map<std::vector<pu_index>, std::vector<std::vector<std::uint32_t>>> groups;  // orbit map -> generators
  std::vector<std::vector<std::uint32_t>> cyclic;  // one generator per distinct cyclic subgroup
  for (pu_index g = 1; g < P; ++g) {
    std::vector<std::vector<std::uint32_t>> generators{network.coordinates(g)};
    if (groups.emplace(translation_orbits(network, generators), generators).second)
      cyclic.push_back(generators.front());
  }
  std::vector<std::vector<std::vector<std::uint32_t>>> pending;
  for (const auto& [orbit, generators] : groups) pending.push_back(generators);
  while (!pending.empty()) {
    const std::vector<std::vector<std::uint32_t>> base = std::move(pending.back());
    pending.pop_back();
    for (const auto& g : cyclic) {
      std::vector<std::vector<std::uint32_t>> generators = base;
      generators.push_back(g);
      std::vector<pu_index> orbit = translation_orbits(network, generators);
      if (groups.count(orbit) == 0)
        groups.emplace(std::move(orbit), generators), pending.push_back(std::move(generators));
    }
  }
  // One subgroup per class: the first met (in the orbit maps' order) of each class key.
  const std::vector<std::vector<std::uint32_t>> relabellings = detail::port_relabellings(network);
  std::set<std::vector<pu_index>> classes;
  std::vector<std::pair<std::size_t, std::vector<std::vector<std::uint32_t>>>> sized;
  for (auto& [orbit, generators] : groups) {
    std::vector<pu_index> elements;  // the orbit of PU 0 is the subgroup
    for (pu_index pu = 0; pu < P; ++pu)
      if (orbit[pu] == 0) elements.push_back(pu);
    if (classes.insert(detail::translation_class_key(network, relabellings, elements)).second)
      sized.emplace_back(elements.size(), std::move(generators));
  }
  std::stable_sort(sized.begin(), sized.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::vector<std::vector<std::uint32_t>>> out;
  for (auto& s : sized) out.push_back(std::move(s.second));
  return out;
}

std::vector<torus_symmetry_group> invariant_group_list(const torus::network& network, invariant_groups which) {
  std::vector<torus_symmetry_group> list;
  if (which != invariant_groups::point)
    for (auto& generators : translation_subgroups(network)) {
      const std::vector<pu_index> orbit = translation_orbits(network, generators);
      list.push_back(
          {std::move(generators), {}, static_cast<std::uint64_t>(std::count(orbit.begin(), orbit.end(), pu_index{0}))});
    }
  auto append = [&](std::vector<torus_symmetry_group> groups) {
    std::move(groups.begin(), groups.end(), std::back_inserter(list));
  };
  if (which != invariant_groups::translations) append(detail::point_groups(network));
  if (which == invariant_groups::with_mixed) append(detail::mixed_groups(network));
  return list;
}

std::string describe(const torus::network& network, const torus_symmetry_group& group) {
  if (!group.automorphisms.empty())
    return std::to_string(group.order) + " automorphisms generated by " + describe(network, group.automorphisms);
  std::ostringstream s;
  s << group.order << " translations generated by";
  for (const auto& g : group.translations) {
    s << " (";
    for (std::size_t j = 0; j < g.size(); ++j) s << (j ? "," : "") << g[j];
    s << ")";
  }
  return s.str();
}

}  // namespace dancecard::torus
