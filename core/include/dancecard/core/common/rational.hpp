// Exact rational numbers for times and amounts (an h-relation schedule moves fractions of packets, e.g. 1/5).
// int64 numerator and positive denominator in lowest terms; every operation checks for overflow (128-bit
// intermediates) and throws std::overflow_error rather than rounding. Decisions never use floating point.
//
//   dancecard::rational t = dancecard::rational(6, 5) * dancecard::rational(3);   // 18/5
//   t.to_string() == "18/5";  dancecard::rational::parse("12/5") == dancecard::rational(12, 5)
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace dancecard {

/// 128-bit integers for exact intermediate products (a GCC/Clang extension, hence __extension__).
__extension__ using wide_integer = __int128;

class rational {
 public:
  constexpr rational() = default;
  rational(std::int64_t integer) : num_(integer), den_(1) {}  // NOLINT: implicit from integers on purpose
  /// require: denominator != 0 (std::domain_error).
  rational(std::int64_t numerator, std::int64_t denominator);

  std::int64_t numerator() const noexcept { return num_; }
  std::int64_t denominator() const noexcept { return den_; }

  friend rational operator+(const rational& a, const rational& b);
  friend rational operator-(const rational& a, const rational& b);
  friend rational operator*(const rational& a, const rational& b);
  /// require: b != 0.
  friend rational operator/(const rational& a, const rational& b);
  rational operator-() const;
  rational& operator+=(const rational& b) { return *this = *this + b; }
  rational& operator-=(const rational& b) { return *this = *this - b; }

  friend bool operator==(const rational&, const rational&) = default;
  friend std::strong_ordering operator<=>(const rational& a, const rational& b);

  /// "3", "-1/2", "12/5".
  std::string to_string() const;
  /// Parses "a", "-a" or "a/b" (b > 0); std::invalid_argument naming the text otherwise.
  static rational parse(std::string_view text);

 private:
  static rational from_wide(wide_integer numerator, wide_integer denominator);
  std::int64_t num_ = 0, den_ = 1;
};

}  // namespace dancecard
