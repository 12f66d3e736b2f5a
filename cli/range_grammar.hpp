// The one grammar of every option that takes several numbers (dancecard and the sweep programs in bench/):
//
//   LIST  = ITEM { "," ITEM }
//   ITEM  = N            one value
//         | A..B         every value from A to B (A <= B)
//         | A..B:S       from A to B in steps of S (S > 0; B itself only when reached)
//
// "2..64", "3,7,10..12", "4..64:6". Values come in the order written. The other spellings some tools use are refused
// with the spelling to use instead ("10-12" -> 10..12, "lo:hi" -> lo..hi, "A:B:S" -> A..B:S). Header-only and
// without CLI11, so that the sweep programs read their ranges with the same code; errors are std::invalid_argument
// whose message says what was expected and where ("at '10-12'").
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dancecard::ranges {

/// One ITEM as written: `last` and `step` empty when absent (N alone; A..B without a step).
struct item_text {
  std::string first, last, step;
};

/// Splits LIST into its items' parts. Throws std::invalid_argument for an empty item, a missing bound, or a spelling
/// of another grammar (naming the spelling to use).
inline std::vector<item_text> split_list(std::string_view text) {
  std::vector<item_text> out;
  std::size_t begin = 0;
  const std::string whole(text);
  while (true) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string item(text.substr(begin, comma - begin));
    const std::string at = " (at '" + item + "' in '" + whole + "')";
    if (item.empty()) throw std::invalid_argument("expected N, A..B or A..B:S between commas, got an empty item" + at);
    item_text parts;
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos) {
      const std::size_t colon = item.find(':');
      if (colon != std::string::npos) {
        const std::size_t second = item.find(':', colon + 1);
        const std::string a = item.substr(0, colon),
                          b = item.substr(colon + 1,
                                          second == std::string::npos ? std::string::npos : second - colon - 1);
        throw std::invalid_argument("a range is written A..B" + std::string(second == std::string::npos ? "" : ":S") +
                                    ": '" + item + "' is " + a + ".." + b +
                                    (second == std::string::npos ? "" : ":" + item.substr(second + 1)) + at);
      }
      const std::size_t dash = item.find('-', 1);
      if (dash != std::string::npos)
        throw std::invalid_argument("a range is written A..B: '" + item + "' is " + item.substr(0, dash) + ".." +
                                    item.substr(dash + 1) + at);
      parts.first = item;
    } else {
      parts.first = item.substr(0, dots);
      const std::string rest = item.substr(dots + 2);
      const std::size_t colon = rest.find(':');
      parts.last = rest.substr(0, colon);
      if (colon != std::string::npos) {
        parts.step = rest.substr(colon + 1);
        if (parts.step.empty()) throw std::invalid_argument("expected a step after ':'" + at);
      }
      if (parts.first.empty() || parts.last.empty()) throw std::invalid_argument("expected A..B with both bounds" + at);
    }
    out.push_back(std::move(parts));
    if (comma == text.size()) break;
    begin = comma + 1;
  }
  return out;
}

/// A non-negative decimal integer of at most 18 digits (no sign, no spaces), else std::invalid_argument.
inline std::uint64_t parse_count(const std::string& text, const std::string& at) {
  if (text.empty() || text.size() > 18 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return c >= '0' && c <= '9'; }))
    throw std::invalid_argument("'" + text + "' is not a non-negative integer" + at);
  std::uint64_t v = 0;
  for (const char c : text) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  return v;
}

/// One ITEM as {first, last, step} (N alone: first = last, step 1), both bounds within [lo, hi]. `whole`: the LIST it
/// stands in, for the message. Throws std::invalid_argument naming the item.
struct value_range {
  std::uint64_t first = 0, last = 0, step = 1;
};
inline value_range parse_item(const item_text& item, std::string_view whole, std::uint64_t lo, std::uint64_t hi) {
  const std::string written =
      item.first + (item.last.empty() ? "" : ".." + item.last) + (item.step.empty() ? "" : ":" + item.step);
  const std::string at = " (at '" + written + "' in '" + std::string(whole) + "')";
  value_range r;
  r.first = parse_count(item.first, at);
  r.last = item.last.empty() ? r.first : parse_count(item.last, at);
  r.step = item.step.empty() ? 1 : parse_count(item.step, at);
  if (r.step == 0) throw std::invalid_argument("a step of 0" + at);
  if (r.first > r.last)
    throw std::invalid_argument("the range runs backwards (" + std::to_string(r.first) + " > " +
                                std::to_string(r.last) + ")" + at);
  for (const std::uint64_t v : {r.first, r.last})
    if (v < lo || v > hi)
      throw std::invalid_argument(std::to_string(v) + " is out of range; expected " + std::to_string(lo) + ".." +
                                  std::to_string(hi) + at);
  return r;
}

/// Every value of LIST, in the order written, each within [lo, hi]; at most max_values of them (a guard against
/// "1..1000000000" expanding without end). Throws std::invalid_argument naming the item.
inline std::vector<std::uint64_t> parse_values(std::string_view text, std::uint64_t lo, std::uint64_t hi,
                                               std::uint64_t max_values = 100'000) {
  std::vector<std::uint64_t> out;
  for (const item_text& item : split_list(text)) {
    const value_range r = parse_item(item, text, lo, hi);
    if ((r.last - r.first) / r.step + 1 > max_values - std::min<std::uint64_t>(out.size(), max_values))
      throw std::invalid_argument("more than " + std::to_string(max_values) + " values (at '" + item.first +
                                  (item.last.empty() ? "" : ".." + item.last) +
                                  (item.step.empty() ? "" : ":" + item.step) + "' in '" + std::string(text) + "')");
    for (std::uint64_t v = r.first;; v += r.step) {
      out.push_back(v);
      if (r.last - v < r.step) break;
    }
  }
  return out;
}

/// One ITEM alone (no list): the sweeps' --sizes, --rows, … Throws std::invalid_argument.
inline value_range parse_range(std::string_view text, std::uint64_t lo, std::uint64_t hi) {
  const std::vector<item_text> items = split_list(text);
  if (items.size() != 1)
    throw std::invalid_argument("expected one range A..B or A..B:S, got the list '" + std::string(text) + "'");
  return parse_item(items.front(), text, lo, hi);
}

}  // namespace dancecard::ranges
