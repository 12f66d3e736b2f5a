// Torus gossip (dancecard::torus): the network, routing tables, cycle constructions, symmetry groups, the formats
// (routing tables, the catalogue, evidence) and the checkers and simulators.
// Compiles with the checkers component (find_package(dancecard COMPONENTS checkers)); the readers and writers link
// with the formats component. Solver-backed proofs are in the smt component's headers (dancecard/smt/).
#pragma once

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/core/torus/symmetry.hpp"
#include "dancecard/core/torus/torus.hpp"
#include "dancecard/formats/torus_catalogue.hpp"
#include "dancecard/formats/torus_evidence.hpp"
#include "dancecard/formats/torus_io.hpp"
