// Damaged copies of valid files for the properties of the readers and checkers (formats_properties_test,
// drat_properties_test): a few random edits — bytes deleted, replaced or inserted, tokens spliced in or put in a
// number's place, the text cut short.
#pragma once

#include <rapidcheck.h>

#include <cctype>
#include <string>
#include <vector>

namespace dancecard::properties_test {

// Tokens that readers have to judge: numbers at and past the limits of int64, uint64 and double, signs, exponents,
// fractions, JSON structure, non-ASCII and NUL bytes.
inline const std::vector<std::string> tokens = {"1e999",
                                                "-1e999",
                                                "9223372036854775807",
                                                "9223372036854775808",
                                                "18446744073709551616",
                                                "-9223372036854775809",
                                                "4611686018427387904",
                                                "1.5",
                                                "-0",
                                                "-1",
                                                "0",
                                                "1/0",
                                                "7/2",
                                                "\"",
                                                "[",
                                                "]",
                                                "{",
                                                "}",
                                                ",",
                                                ":",
                                                "null",
                                                "true",
                                                "\"x\"",
                                                "[]",
                                                "{}",
                                                "\n",
                                                " ",
                                                std::string(1, '\0'),
                                                "\xff",
                                                "\xc3\xa9",
                                                "#",
                                                "1e3",
                                                "0x10",
                                                "nan"};

// The text damaged by a few random edits.
inline std::string damaged(std::string text) {
  const int edits = *rc::gen::inRange(1, 5);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const std::size_t at = *rc::gen::inRange<std::size_t>(0, text.size());
    switch (*rc::gen::inRange(0, 5)) {
      case 0:
        text.erase(at, *rc::gen::inRange<std::size_t>(1, 8));
        break;
      case 1:
        text[at] = *rc::gen::elementOf(std::string("0123456789-+ \n[]{}\",:.eE/"));
        break;
      case 2:
        text.insert(at, *rc::gen::elementOf(tokens));
        break;
      case 3: {  // a number replaced by a token: find the digits around `at`
        std::size_t from = at, to = at;
        while (from > 0 && std::isdigit(static_cast<unsigned char>(text[from - 1]))) --from;
        while (to < text.size() && std::isdigit(static_cast<unsigned char>(text[to]))) ++to;
        text.replace(from, to - from, *rc::gen::elementOf(tokens));
        break;
      }
      default:
        text.resize(at);  // cut short
    }
  }
  return text;
}

}  // namespace dancecard::properties_test
