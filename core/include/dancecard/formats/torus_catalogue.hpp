// The catalogue of time-independent torus tables: for the small tori of docs/torus-limits.md and the two models of
// its SMT minima (one packet per PU, sent on every port in step 1, then only forwarding: pairing — each PU pairs its
// ports; general — each out-port forwards one fixed in-port), the table with the fewest steps dancecard has found: at
// the proven minimum where docs/torus-limits.md gives one, else at its best upper bound. So a scheduler gets these
// tables at once instead of re-running searches that took minutes to hours. The files are
// core/data/torus/torus_<n1>x<n2>[x<n3>]_<model>_<steps>_steps.json (dancecard.torus-routing/1, sizes ascending),
// embedded at build time; the unit tests simulate every one in exactly its steps.
//
//   auto found = dancecard::torus::catalogued_torus_table(dancecard::torus::network({6, 5}), "general");
//   // found->first.steps == 9 (an upper bound: 8 is open), found->second: the table for 6 x 5 (axes relabelled)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dancecard/core/torus/torus.hpp"

namespace dancecard::torus {

struct torus_catalogue_entry {
  std::vector<std::uint32_t> dims;  // ascending
  std::string model;                // "pairing" or "general"
  std::uint64_t steps = 0;          // the table completes gossip in exactly this many steps
  std::string file;                 // its name under core/data/torus/
};

/// Every catalogued table, in file-name order.
std::vector<torus_catalogue_entry> torus_catalogue();

/// The catalogued table with the fewest steps for this torus in this model — for "general" the pairing tables count
/// too (a pairing is a general rule; on a tie the general model's own table) — with its entry; sizes in any order (the
/// table of the ascending sizes with its axes relabelled). None when the torus is not catalogued. require: model is
/// "pairing" or "general" (std::invalid_argument).
std::optional<std::pair<torus_catalogue_entry, routing_table>> catalogued_torus_table(const torus::network& network,
                                                                                      std::string_view model);

}  // namespace dancecard::torus
