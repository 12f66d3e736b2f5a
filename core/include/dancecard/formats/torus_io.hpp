// JSON form of time-independent torus routing tables:
//   {"format": "dancecard.torus-routing/1", "dims": [6, 8], "packets": 2,
//    "forward": [[1, null, 3, 2], ...],   // per PU (index order), per out-port: the in-port it forwards, or null
//    "inject":  [[0, 1, null, 0], ...]}   // per PU, per out-port: the own packet sent in step 1, or null
// Ports: 2j is +x_j, 2j + 1 is −x_j. Errors are format_error naming the place ("forward[7][2]: ...").
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string_view>

#include "dancecard/core/torus/torus.hpp"
#include "dancecard/formats/dance_io.hpp"

namespace dancecard::torus {

inline constexpr std::string_view torus_routing_format_name = "dancecard.torus-routing/1";

/// The latest switch step a table may name unless the reader is told more: 4·P·packets + 64, later than any gossip of
/// the torus takes with a sensible table (each PU learns at least one packet a step until it is done). A switch at
/// step 10^9 would otherwise make the simulator run a billion steps.
std::uint64_t default_max_switch_step(std::uint64_t pus, std::uint64_t packets);

/// max_switch_step 0: default_max_switch_step; a switch later than the limit is a format_error naming it.
routing_table read_torus_routing(std::string_view text, std::uint64_t max_switch_step = 0);
void write_torus_routing(std::ostream& out, const routing_table& table, std::string_view algorithm = {});

}  // namespace dancecard::torus
