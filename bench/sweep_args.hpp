// The arguments the sweep programs share (sweep_torus, sweep_supply, sweep_twins): ranges in the CLI's one grammar
// (cli/range_grammar.hpp: A..B, A..B:S), errors as CLI11's, naming the option.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "range_grammar.hpp"

namespace sweep_args {

// "A..B" (or "A..B:S" where `stepped`) with least <= A <= B <= most; throws CLI::ValidationError naming the option.
inline dancecard::ranges::value_range parse_range(const std::string& option, const std::string& text,
                                                  std::uint32_t least, std::uint32_t most = 64, bool stepped = false) {
  try {
    const dancecard::ranges::value_range r = dancecard::ranges::parse_range(text, least, most);
    if (!stepped && r.step != 1) throw std::invalid_argument("expected A..B without a step, got '" + text + "'");
    return r;
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError(option, e.what());
  }
}

}  // namespace sweep_args
