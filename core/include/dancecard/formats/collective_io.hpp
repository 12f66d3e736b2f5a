// JSON for collective schedules ("dancecard.collective/1"), with the positioned errors of every dancecard format
// (format_error: "steps[3].transfers[7].chunk: ..."). Ranks, chunks and steps are numbered from 0.
//
//   {"format": "dancecard.collective/1", "topology": "ring:4", "ports": "one-port-full-duplex",
//    "collective": {"kind": "allgather", "ranks": 4, "chunks": 1, "root": 0}, "algorithm": "ring",
//    "steps": [{"rounds": 1, "transfers": [[0, 0, 1], [1, 1, 2], [2, 2, 3], [3, 3, 0]]}, ...]}
//
// A transfer is [chunk, from, to] (a copy) or [chunk, from, to, "reduce"]. "topology" is a built-in name
// (complete:N, ring:N, torus:AxB…, hypercube:D, dgx1) or an object {"name": …, "ranks": N, "links": [[from, to,
// capacity], …]}. "ports" and "rounds" may be left out (all-port; 1 round).
#pragma once

#include <iosfwd>
#include <string_view>

#include "dancecard/core/collective/schedule.hpp"
#include "dancecard/formats/dance_io.hpp"

namespace dancecard::collective {

inline constexpr std::string_view collective_format_name = "dancecard.collective/1";

/// Throws format_error naming the place: malformed JSON, unknown keys, a topology that does not exist, a transfer
/// naming a rank or chunk that does not exist. (Whether the schedule is valid is checkers/collective_check's question.)
schedule read_collective_schedule(std::string_view text);
void write_collective_schedule(std::ostream& out, const schedule& schedule);

inline constexpr std::string_view topology_format_name = "dancecard.topology/1";

/// A network on its own (`prove collective --topology FILE`): {"format": "dancecard.topology/1", "name": …,
/// "ranks": N, "links": [[from, to, capacity], …]}, the object a schedule's "topology" may hold. Throws format_error
/// naming the place.
topology read_topology(std::string_view text);
void write_topology(std::ostream& out, const topology& network);

}  // namespace dancecard::collective
