// solve-cube and merge-cubes, and the --emit-cubes of prove torus: cube and conquer through a batch scheduler.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace dancecard::cli {

/// Writes the split of the query `spec` (cube_queries.hpp) into `dir`: at least `wanted` cubes, each job with the
/// budget given (0: none). bad_input when the directory cannot be written.
void emit_cubes(const std::string& dir, const nlohmann::json& spec, std::uint64_t wanted, std::uint64_t conflicts,
                unsigned seconds);

}  // namespace dancecard::cli
