// h-relations (dancecard::hrel): instances, the families, bounds, edge colouring, schedules with and without
// forwarding, the formats and the checkers.
// Compiles with the checkers component (find_package(dancecard COMPONENTS checkers)); the readers and writers link
// with the formats component. Solver-backed proofs are in the smt component's headers (dancecard/smt/).
#pragma once

#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/checkers/hrel_structure_check.hpp"
#include "dancecard/core/hrel/bounds.hpp"
#include "dancecard/core/hrel/edge_coloring.hpp"
#include "dancecard/core/hrel/families.hpp"
#include "dancecard/core/hrel/instance.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "dancecard/formats/hrel_io.hpp"
