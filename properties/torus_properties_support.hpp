// What the torus property tests share: generators of tori and tables, and helpers that fix a table in the CNF.
#pragma once

#include <rapidcheck.h>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dancecard/checkers/cube_cover_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/common/cyclic_order.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "dancecard/smt/torus_supply.hpp"

namespace dancecard::torus_properties {

using namespace dancecard::dance;
using namespace dancecard::torus;
using namespace dancecard::certificates;

// The index of a pairing (its partner list) among `pairings` (port_pairings); pairings.size() when it is none.
inline std::uint32_t pairing_index(const std::vector<std::vector<std::uint32_t>>& pairings,
                                   const std::vector<std::uint32_t>& partner) {
  return static_cast<std::uint32_t>(std::find(pairings.begin(), pairings.end(), partner) - pairings.begin());
}

// Unit clauses fixing PU pu's choice variables of torus_gossip_cnf / torus_symmetric_cnf to a rule (the pairing's
// partner list, or the in-port each out-port forwards).
inline void fix_rule(cnf_formula& f, const torus::network& t, torus_model model, pu_index pu,
                     const std::vector<std::uint32_t>& rule) {
  const std::uint32_t ports = t.ports();
  if (model == torus_model::pairing) {
    const auto pairings = port_pairings(t.dimension());
    const std::uint32_t c = pairing_index(pairings, rule);
    for (std::uint32_t k = 0; k < pairings.size(); ++k)
      f.clauses.push_back({k == c ? torus_choice_variable(t, model, pu, k) : -torus_choice_variable(t, model, pu, k)});
    return;
  }
  for (std::uint32_t o = 0; o < ports; ++o)
    for (std::uint32_t k = 0; k < ports; ++k)
      f.clauses.push_back(
          {k == rule[o] ? torus_choice_variable(t, model, pu, o, k) : -torus_choice_variable(t, model, pu, o, k)});
}

}  // namespace dancecard::torus_properties
