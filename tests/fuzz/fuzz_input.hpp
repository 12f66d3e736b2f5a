// What every fuzz target shares: the input as text, and the split of an input that holds two documents (an instance
// and its schedule, a formula and its proof) at the first line "%%" (the seeds put it there; a mutated input without
// one is all first document and an empty second).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace dancecard::fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

inline std::pair<std::string_view, std::string_view> split_documents(std::string_view input) {
  const std::size_t at = input.find("\n%%\n");
  if (at == std::string_view::npos) return {input, {}};
  return {input.substr(0, at + 1), input.substr(at + 4)};
}

}  // namespace dancecard::fuzz
