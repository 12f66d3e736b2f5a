// The `prove` commands of dancecard-mpi: queries split into cubes and solved by the ranks of the job.
#pragma once

#include <CLI/CLI.hpp>

namespace dancecard::cubes {

/// Adds `prove torus …` and `prove collective …` to the app; its callback sets `code` (0 sat, 1 unsat, 3 unknown).
void add_prove_commands(CLI::App& app, int& code);

}  // namespace dancecard::cubes
