// Helpers shared by the JSON readers of formats/: how a JSON value's type and a byte offset are named in errors.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace dancecard::detail {

using json = nlohmann::json;

inline std::string type_name(const json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number_float()) return "a non-integer number";
  return std::string("a ") + v.type_name();
}

// Line and column (1-based) of a byte offset, for parse errors.
inline std::string line_column(std::string_view text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace dancecard::detail
