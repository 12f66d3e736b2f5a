// Certificates (dancecard::certificates): the DRAT, cutting-planes and cube-cover checkers, which share no code
// with any solver.
// Compiles with the checkers component (find_package(dancecard COMPONENTS checkers)); the readers and writers link
// with the formats component. Solver-backed proofs are in the smt component's headers (dancecard/smt/).
#pragma once

#include "dancecard/checkers/cube_cover_check.hpp"
#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
