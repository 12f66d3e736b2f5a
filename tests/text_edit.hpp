// Tests that damage a text (a certificate, a file) in one place: the edit must find its place, or the test says so.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace dancecard::testing_support {

/// `text` with the first `from` replaced by `to`; a failed expectation when `from` is not there.
inline std::string replace_first(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace dancecard::testing_support
