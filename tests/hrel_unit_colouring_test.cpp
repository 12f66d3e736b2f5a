// The unit-copy colouring of regular bipartite graphs (core/src/hrel/regular_unit_colouring.cpp) called directly: its
// classes are perfect matchings that use every copy once, at every degree and size the packed copy word meets, and a
// graph that is not regular is refused with std::logic_error rather than read out of bounds.
#include <gtest/gtest.h>

#include "regular_unit_colouring.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

namespace dancecard::hrel::detail {
namespace {

struct regular_graph {
  std::vector<std::uint32_t> right, ref;  // left-major: left vertex u's copies at [u·d, (u+1)·d)
};

// d random permutations on k + k vertices; with `dummies`, about every fifth copy a dummy (no_ref); the others named by
// their index.
regular_graph random_regular(std::uint32_t k, std::uint32_t d, std::mt19937_64& random, bool dummies) {
  regular_graph g{std::vector<std::uint32_t>(std::size_t{k} * d), std::vector<std::uint32_t>(std::size_t{k} * d)};
  std::vector<std::uint32_t> perm(k);
  std::iota(perm.begin(), perm.end(), 0u);
  for (std::uint32_t slot = 0; slot < d; ++slot) {
    std::shuffle(perm.begin(), perm.end(), random);
    for (std::uint32_t u = 0; u < k; ++u) g.right[std::size_t{u} * d + slot] = perm[u];
  }
  for (std::uint32_t i = 0; i < g.ref.size(); ++i) g.ref[i] = dummies && random() % 5 == 0 ? no_ref : i;
  return g;
}

// "" when `classes` are d matchings, perfect when there are no dummies (which they leave out), that together hold
// every named copy once.
std::string colouring_problem(const regular_graph& g, std::uint32_t k, std::uint32_t d,
                              const std::vector<std::vector<std::size_t>>& classes) {
  if (classes.size() != d) return std::to_string(classes.size()) + " classes for degree " + std::to_string(d);
  std::vector<int> used(g.ref.size(), 0);
  const bool dummies = std::count(g.ref.begin(), g.ref.end(), no_ref) != 0;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    std::set<std::uint32_t> left, right;
    for (const std::size_t copy : classes[c]) {
      if (copy >= g.ref.size() || g.ref[copy] != copy)
        return "class " + std::to_string(c) + " names a dummy or no copy";
      ++used[copy];
      if (!left.insert(static_cast<std::uint32_t>(copy / d)).second || !right.insert(g.right[copy]).second)
        return "class " + std::to_string(c) + " is not a matching";
    }
    if (!dummies && left.size() != k)
      return "class " + std::to_string(c) + " has " + std::to_string(left.size()) + " of " + std::to_string(k) +
             " edges";
  }
  for (std::size_t i = 0; i < g.ref.size(); ++i)
    if (g.ref[i] != no_ref && used[i] != 1)
      return "copy " + std::to_string(i) + " is in " + std::to_string(used[i]) + " classes";
  return "";
}

TEST(unit_colouring, every_degree_and_vertex_count_around_the_packed_words_bounds) {
  // Degrees odd and even (a matching, a split, both in turn), vertex counts at and beside powers of two, where the
  // right vertex's bits in the packed word end.
  std::mt19937_64 random(20261130);
  for (const std::uint32_t k : {0u, 1u, 2u, 3u, 63u, 64u, 65u, 255u, 256u, 1000u})
    for (const std::uint32_t d : {1u, 2u, 3u, 4u, 5u, 6u, 8u, 12u, 25u, 100u}) {
      const bool dummies = (k + d) % 2 == 1;
      const regular_graph g = random_regular(k, d, random, dummies);
      std::vector<std::vector<std::size_t>> classes;
      colour_regular_units(g.right, g.ref, k, d, classes);
      EXPECT_EQ(colouring_problem(g, k, d, classes), "") << "k = " << k << ", d = " << d << ", dummies " << dummies;
    }
}

TEST(unit_colouring, a_graph_that_is_not_regular_is_refused) {
  std::mt19937_64 random(7);
  for (const std::uint32_t d : {3u, 4u}) {  // the first level a matching, or a split
    const regular_graph g = random_regular(50, d, random, false);
    std::vector<std::vector<std::size_t>> classes;
    regular_graph twice = g;  // right vertex 1 gets a copy of right vertex 0's
    std::replace(twice.right.begin(), twice.right.end(), 0u, 1u);
    EXPECT_THROW(colour_regular_units(twice.right, twice.ref, 50, d, classes), std::logic_error) << d;
    regular_graph outside = g;  // a right vertex beyond k
    outside.right[17] = 50;
    EXPECT_THROW(colour_regular_units(outside.right, outside.ref, 50, d, classes), std::logic_error) << d;
    EXPECT_THROW(colour_regular_units(g.right, g.ref, 49, d, classes), std::logic_error) << "sizes " << d;
  }
}

}  // namespace
}  // namespace dancecard::hrel::detail
