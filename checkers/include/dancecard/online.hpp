// On-line h-relations (dancecard::online): the protocols, the trace checker and the experiments.
// Compiles with the checkers component (find_package(dancecard COMPONENTS checkers)); the readers and writers link
// with the formats component. Solver-backed proofs are in the smt component's headers (dancecard/smt/).
#pragma once

#include "dancecard/checkers/online_experiment.hpp"
#include "dancecard/checkers/online_trace_check.hpp"
#include "dancecard/core/online/online.hpp"
