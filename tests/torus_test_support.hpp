// What the torus tests share.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "dancecard/smt/torus_encoding.hpp"

namespace dancecard::torus_test {

using namespace dancecard::dance;
using namespace dancecard::torus;

// Every automorphism of the group carries the table to itself: f(φ(pu), σ(o)) = σ(f(pu, o)), an idle out-port to an
// idle one.
inline void expect_invariant(const routing_table& table, const std::vector<torus_automorphism>& generators) {
  const torus::network& t = table.network;
  for (const torus_automorphism& g : generators)
    for (pu_index pu = 0; pu < t.size(); ++pu)
      for (std::uint32_t o = 0; o < t.ports(); ++o) {
        const std::uint32_t in = table.forward_at(pu, o);
        EXPECT_EQ(table.forward_at(apply_automorphism(t, g, pu), g.ports[o]), in == no_port ? no_port : g.ports[in])
            << describe(t, g) << " PU " << pu;
      }
}

}  // namespace dancecard::torus_test
