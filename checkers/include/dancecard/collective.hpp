// Collective schedules on any topology (dancecard::collective): topologies and port models, the eight
// collectives, the classic algorithms, the adapters from the papers' models, dancecard.collective/1 and the checker;
// MSCCL-IR programs, their XML, their checker and their import as collective schedules.
// Compiles with the checkers component (find_package(dancecard COMPONENTS checkers)); the readers and writers link
// with the formats component. Solver-backed proofs are in the smt component's headers (dancecard/smt/).
#pragma once

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/msccl_check.hpp"
#include "dancecard/checkers/msccl_import.hpp"
#include "dancecard/core/collective/adapters.hpp"
#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/core/collective/schedule.hpp"
#include "dancecard/core/collective/topology.hpp"
#include "dancecard/formats/collective_io.hpp"
#include "dancecard/formats/msccl_io.hpp"
