// Helpers shared by the JSON readers of formats/: how a JSON value's type and a byte offset are named in errors.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <vector>

#include <string>
#include <string_view>
#include "dancecard/formats/collective_io.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/formats/torus_io.hpp"

namespace dancecard::detail {

using json = nlohmann::json;

inline std::string type_name(const json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number_float()) return "a non-integer number";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return std::string("a ") + v.type_name();
}

namespace excerpt_detail {
// Appends at most `budget` more characters of v's JSON text to out, nested values below `depth` levels as "…": never
// deeper than that, however deep the value (a value nested 100,000 deep would overflow the stack of a whole dump).
inline void append(std::string& out, const json& v, int depth, std::size_t budget) {
  if (out.size() >= budget) return;
  if (v.is_array() || v.is_object()) {
    if (depth == 0) {
      out += v.is_array() ? "[…]" : "{…}";
      return;
    }
    out += v.is_array() ? '[' : '{';
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (out.size() >= budget) break;
      if (!first) out += ", ";
      first = false;
      if (v.is_object()) out += json(it.key()).dump() + ": ";
      append(out, it.value(), depth - 1, budget);
    }
    out += v.is_array() ? ']' : '}';
    return;
  }
  const std::string text = v.dump(-1, ' ', true);  // a scalar; non-ASCII escaped, so the excerpt is printable
  const std::size_t room = budget > out.size() ? budget - out.size() + 1 : 1;
  out.append(text, 0, std::min(room, text.size()));
}
}  // namespace excerpt_detail

/// A token of the input quoted for an error message: at most 40 characters, the rest as "…", and every byte that is
/// not printable ASCII as \xNN.
inline std::string quoted_excerpt(std::string_view token) {
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (token.size() > 40) out += "…";
  return out + "'";
}

/// A short, printable excerpt of a JSON value for an error message: at most about 60 characters, nesting beyond two
/// levels shown as "…", cut values ending in "…".
inline std::string excerpt(const json& v) {
  constexpr std::size_t budget = 60;
  std::string out;
  excerpt_detail::append(out, v, 2, budget);
  if (out.size() > budget) out = out.substr(0, budget) + "…";
  return out;
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
  if (name == dance::dance_format_name) return "a dance schedule";
  if (name == dance::directed_format_name) return "a full-duplex all-to-all schedule";
  if (name == hrel::hrel_format_name) return "an h-relation instance";
  if (name == hrel::hrel_schedule_format_name) return "an h-relation schedule";
  if (name == torus::torus_routing_format_name) return "a torus routing table";
  if (name == collective::collective_format_name) return "a collective schedule";
  return "";
}

/// Refuses a key of an object that is not in `keys` (a misspelt "pakets" would otherwise pass silently); the place is
/// the key itself at the top level (place empty), else place.key.
inline void only_keys(const json& object, const std::string& place, std::span<const char* const> keys) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string& key = it.key();  // (a named variable, not a structured binding: lambdas capture it in C++17 too)
    if (std::find_if(keys.begin(), keys.end(), [&](const char* k) { return key == k; }) == keys.end()) {
      std::string listed;
      for (const char* k : keys) listed += (listed.empty() ? "" : ", ") + std::string(k);
      throw format_error(place.empty() ? key.substr(0, 40) : place + "." + key.substr(0, 40),
                         "unknown key (expected " + listed + ")");
    }
  }
}
inline void only_keys(const json& object, const std::string& place, std::initializer_list<const char*> keys) {
  only_keys(object, place, std::span<const char* const>(keys.begin(), keys.size()));
}

/// Parses `text` as a JSON object whose "format" is `format_name` and whose keys are all in `keys`; errors name the
/// place (line and column, or the key). The format is checked first: a document of another dancecard format (an
/// instance where a schedule is read, say — two arguments swapped) is named as such, not by its first unknown key.
inline json parse_document(std::string_view text, std::string_view format_name,
                           std::initializer_list<const char*> keys) {
  // A NUL byte ends what some readers see of a file: refused, so that nothing after it is silently ignored.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    throw format_error(line_column(text, nul), "a NUL byte: not JSON text");
  // JSON lets a key repeat and nlohmann keeps the last value: refused, so that "rounds": "oops", "rounds": [...]
  // is not read as either. One set of keys per open object.
  std::vector<std::set<std::string>> open_objects;
  const json::parser_callback_t no_repeated_keys = [&open_objects](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      open_objects.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      if (!open_objects.empty()) open_objects.pop_back();
    } else if (event == json::parse_event_t::key && !open_objects.empty()) {
      const std::string key = parsed.get<std::string>();
      if (!open_objects.back().insert(key).second)
        throw format_error(quoted_excerpt(key), "a key given twice in one object (JSON keeps one of them silently)");
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(text.begin(), text.end(), no_repeated_keys);
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
      if (auto at = text.find(what.substr(open + 1, close - open - 1)); at != std::string_view::npos)
        place = line_column(text, at);
    throw format_error(place, "invalid JSON: " + what);
  }
  if (!doc.is_object()) throw format_error("top level", "expected a JSON object, got " + type_name(doc));
  std::string expected(1, '"');  // (not "\"" + std::string: GCC 12 warns about that concatenation, wrongly)
  expected.append(format_name).push_back('"');
  if (!doc.contains("format")) throw format_error("format", "missing; expected " + expected);
  const json& format = doc["format"];
  if (!format.is_string() || format.get<std::string>() != format_name) {
    std::string message = "expected " + expected + ", got " + excerpt(format);
    if (const std::string content = format.is_string() ? format_content(format.get<std::string>()) : "";
        !content.empty())
      message +=
          ": this is " + content + ", not " + format_content(format_name) + " (the wrong file, or arguments swapped?)";
    throw format_error("format", message);
  }
  only_keys(doc, "", keys);
  return doc;
}

inline std::uint64_t unsigned_at(const json& v, const std::string& place, std::uint64_t at_least) {
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() < at_least)
    throw format_error(place, "expected an integer >= " + std::to_string(at_least) + ", got " + excerpt(v));
  return v.get<std::uint64_t>();
}

}  // namespace dancecard::detail
