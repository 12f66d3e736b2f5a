// The arguments the sweep programs share (sweep_supply, sweep_twins).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace sweep_args {

// "lo:hi" → {lo, hi}, least <= lo <= hi <= 64; throws CLI::ValidationError naming the option.
inline std::pair<std::uint32_t, std::uint32_t> parse_range(const std::string& option, const std::string& text, std::uint32_t least) {
  const auto colon = text.find(':');
  std::uint32_t lo = 0, hi = 0;
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no colon");
    lo = static_cast<std::uint32_t>(std::stoul(text.substr(0, colon)));
    hi = static_cast<std::uint32_t>(std::stoul(text.substr(colon + 1)));
  } catch (const std::exception&) {
    throw CLI::ValidationError(option, "expected lo:hi, got " + text);
  }
  if (lo < least || hi < lo || hi > 64) throw CLI::ValidationError(option, "expected " + std::to_string(least) + " <= lo <= hi <= 64, got " + text);
  return {lo, hi};
}

}  // namespace sweep_args
