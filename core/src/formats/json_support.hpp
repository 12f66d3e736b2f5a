// Helpers shared by the JSON readers of formats/: how a JSON value's type and a byte offset are named in errors.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>

#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/formats/torus_io.hpp"
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

// What the JSON formats that dancecard reads hold, so that a document given in the wrong place is named; empty for
// any other name.
inline std::string format_content(std::string_view name) {
  if (name == dance_format_name) return "a dance schedule";
  if (name == directed_format_name) return "a full-duplex all-to-all schedule";
  if (name == hrel_format_name) return "an h-relation instance";
  if (name == hrel_schedule_format_name) return "an h-relation schedule";
  if (name == torus_routing_format_name) return "a torus routing table";
  return "";
}

/// Parses `text` as a JSON object whose "format" is `format_name` and whose keys are all in `keys`; errors name the
/// place (line and column, or the key). The format is checked first: a document of another dancecard format (an
/// instance where a schedule is read, say — two arguments swapped) is named as such, not by its first unknown key.
inline json parse_document(std::string_view text, std::string_view format_name, std::initializer_list<const char*> keys) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // nlohmann's message is "[json.exception.parse_error.101] parse error at line 1, column 5: <reason>".
    std::string what = e.what();
    if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    throw format_error(line_column(text, e.byte > 0 ? e.byte - 1 : 0), "invalid JSON: " + what);
  } catch (const json::out_of_range& e) {
    // A number too large for a double ("1e999"): "[json.exception.out_of_range.406] number overflow parsing '1e999'",
    // with no offset; the place is that of the number's first occurrence in the text.
    std::string what = e.what();
    if (auto bracket = what.find("] "); bracket != std::string::npos) what = what.substr(bracket + 2);
    std::string place = "JSON";
    if (auto open = what.find('\''), close = what.rfind('\''); open != std::string::npos && close > open)
      if (auto at = text.find(what.substr(open + 1, close - open - 1)); at != std::string_view::npos) place = line_column(text, at);
    throw format_error(place, "invalid JSON: " + what);
  }
  if (!doc.is_object()) throw format_error("top level", "expected a JSON object, got " + type_name(doc));
  std::string expected(1, '"');  // (not "\"" + std::string: GCC 12 warns about that concatenation, wrongly)
  expected.append(format_name).push_back('"');
  if (!doc.contains("format")) throw format_error("format", "missing; expected " + expected);
  const json& format = doc["format"];
  if (!format.is_string() || format.get<std::string>() != format_name) {
    std::string message = "expected " + expected + ", got " + format.dump();
    if (const std::string content = format.is_string() ? format_content(format.get<std::string>()) : ""; !content.empty())
      message += ": this is " + content + ", not " + format_content(format_name) + " (the wrong file, or arguments swapped?)";
    throw format_error("format", message);
  }
  std::string listed;
  for (const char* k : keys) listed += (listed.empty() ? "" : ", ") + std::string(k);
  for (const auto& [key, value] : doc.items())
    if (std::find_if(keys.begin(), keys.end(), [&](const char* k) { return key == k; }) == keys.end())
      throw format_error(key, "unknown key (expected " + listed + ")");
  return doc;
}

inline std::uint64_t unsigned_at(const json& v, const std::string& place, std::uint64_t at_least) {
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() < at_least)
    throw format_error(place, "expected an integer >= " + std::to_string(at_least) + ", got " + v.dump());
  return v.get<std::uint64_t>();
}

}  // namespace dancecard::detail
