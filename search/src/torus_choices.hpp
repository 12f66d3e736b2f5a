// Internal to search/: a table as the searches hold it — one choice per PU (pairing model) or per out-port (general
// model) — and back. Not installed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dancecard/core/torus/torus.hpp"

namespace dancecard::torus::detail {

/// The one-packet table of a search's choices (the local and the tabu search): pairing — the index of each PU's
/// pairing in port_pairings(d); general — for each out-port the in-port it forwards. Every out-port sends the packet in
/// step 1. `pairings`: port_pairings(d) when the caller has it (computed here otherwise).
routing_table table_of_choices(const torus::network& network, torus_model model,
                               const std::vector<std::uint32_t>& choice,
                               const std::vector<std::vector<std::uint32_t>>* pairings = nullptr);
/// A start table's choices (search_torus_table's and tabu_search_torus_table's `start`): general — an idle out-port
/// forwards straight on (an idle out-port never helps); pairing — every PU must pair its ports. `who` names the search
/// in the std::invalid_argument thrown for a table of another torus, with switches, or (pairing) without a pairing.
std::vector<std::uint32_t> start_choices(const torus::network& network, torus_model model, const routing_table& from,
                                         const std::string& who);

}  // namespace dancecard::torus::detail
