// The dance-party model (dancecard::dance): schedules, directed (full-duplex) schedules, the paper's generators,
// the JSON and partner-matrix formats, the checkers and the all-gather simulation.
// Compiles with the checkers component (find_package(dancecard COMPONENTS checkers)); the readers and writers link
// with the formats component. Solver-backed proofs are in the smt component's headers (dancecard/smt/).
#pragma once

#include "dancecard/checkers/allgather_simulation.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/core/dance/directed.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/core/dance/schedule.hpp"
#include "dancecard/formats/dance_io.hpp"
