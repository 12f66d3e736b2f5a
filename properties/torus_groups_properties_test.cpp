// Properties of the torus's translation subgroups under RapidCheck: one listed group per class under the
// automorphisms, against a brute-force enumeration.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dancecard/core/torus/symmetry.hpp"

namespace dancecard {

using namespace dancecard::torus;
namespace {

// translation_subgroups lists one subgroup per class under the automorphisms: on random small tori, every non-trivial
// subgroup — found here by brute force, as the closures of up to d elements (a subgroup of Z_n1 × … × Z_nd needs no
// more generators) — is the image of exactly one listed group under a signed permutation of the axes that keeps the
// sizes (written out here over coordinates), the listed groups are subgroups, pairwise in different classes, and the
// largest come first.
RC_GTEST_PROP(torus_groups, translation_subgroups_one_per_class, ()) {
  const std::uint32_t d = *rc::gen::weightedElement<std::uint32_t>({{3, 2u}, {1, 3u}});
  std::vector<std::uint32_t> dims(d);
  for (auto& n : dims) n = *rc::gen::inRange<std::uint32_t>(2, d == 2 ? 7 : 5);
  if (*rc::gen::arbitrary<bool>()) std::fill(dims.begin(), dims.end(), dims.front());  // equal sides: the axes permute
  const torus::network t(dims);
  const pu_index P = t.size();
  RC_PRE(d == 2 || P <= 32);
  auto sum = [&](pu_index a, pu_index b) {
    std::vector<std::uint32_t> ca = t.coordinates(a), cb = t.coordinates(b);
    for (std::uint32_t j = 0; j < d; ++j) ca[j] = (ca[j] + cb[j]) % dims[j];
    return t.index(ca);
  };
  auto closure = [&](const std::vector<pu_index>& generators) {
    std::vector<char> in(P, 0);
    std::vector<pu_index> elements{0};
    in[0] = 1;
    for (std::size_t next = 0; next < elements.size(); ++next)
      for (pu_index g : generators)
        if (const pu_index s = sum(elements[next], g); in[s] == 0) in[s] = 1, elements.push_back(s);
    std::sort(elements.begin(), elements.end());
    return elements;
  };
  // the signed permutations: y_π(j) = ±x_j, n_π(j) = n_j
  std::vector<std::pair<std::vector<std::uint32_t>, std::uint32_t>> maps;
  std::vector<std::uint32_t> perm(d);
  for (std::uint32_t j = 0; j < d; ++j) perm[j] = j;
  do {
    bool keeps = true;
    for (std::uint32_t j = 0; j < d; ++j) keeps = keeps && dims[perm[j]] == dims[j];
    if (keeps)
      for (std::uint32_t signs = 0; signs < (1u << d); ++signs) maps.emplace_back(perm, signs);
  } while (std::next_permutation(perm.begin(), perm.end()));
  auto key = [&](const std::vector<pu_index>& elements) {
    std::vector<pu_index> best;
    for (const auto& [pi, signs] : maps) {
      std::vector<pu_index> image;
      for (pu_index e : elements) {
        const std::vector<std::uint32_t> x = t.coordinates(e);
        std::vector<std::uint32_t> y(d);
        for (std::uint32_t j = 0; j < d; ++j) y[pi[j]] = ((signs >> j) & 1u) != 0 ? (dims[j] - x[j]) % dims[j] : x[j];
        image.push_back(t.index(y));
      }
      std::sort(image.begin(), image.end());
      if (best.empty() || image < best) best = image;
    }
    return best;
  };
  std::set<std::vector<pu_index>> all_classes, subgroups;
  std::vector<pu_index> generators;
  auto every = [&](auto& self, std::uint32_t left) -> void {
    if (!generators.empty()) {
      std::vector<pu_index> h = closure(generators);
      if (h.size() > 1 && subgroups.insert(h).second) all_classes.insert(key(h));
    }
    if (left == 0) return;
    for (pu_index g = generators.empty() ? 1 : generators.back(); g < P; ++g) {
      generators.push_back(g);
      self(self, left - 1);
      generators.pop_back();
    }
  };
  every(every, d);
  const auto listed = translation_subgroups(t);
  std::set<std::vector<pu_index>> listed_classes;
  std::size_t previous = P;
  for (const auto& g : listed) {
    const std::vector<pu_index> orbit = translation_orbits(t, g);
    std::vector<pu_index> h;  // the orbit of PU 0 is the group
    for (pu_index pu = 0; pu < P; ++pu)
      if (orbit[pu] == 0) h.push_back(pu);
    RC_ASSERT(subgroups.count(h) == 1u);
    RC_ASSERT(listed_classes.insert(key(h)).second);  // no two listed groups in one class
    RC_ASSERT(h.size() <= previous);
    previous = h.size();
  }
  RC_ASSERT(listed_classes == all_classes);
  RC_TAG(listed.size() < subgroups.size() ? "classes merge subgroups" : "every class one subgroup");
}

}  // namespace
}  // namespace dancecard
