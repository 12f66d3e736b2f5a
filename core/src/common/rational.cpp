// Exact rationals with overflow detection.
#include "dancecard/core/common/rational.hpp"

#include <charconv>
#include <limits>
#include <stdexcept>

namespace dancecard {

namespace {
wide_integer gcd(wide_integer a, wide_integer b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    const wide_integer t = a % b;
    a = b;
    b = t;
  }
  return a;
}
}  // namespace

rational rational::from_wide(wide_integer numerator, wide_integer denominator) {
  if (denominator == 0) throw std::domain_error("rational: denominator 0");
  if (denominator < 0) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const wide_integer g = gcd(numerator, denominator);
  if (g > 1) {
    numerator /= g;
    denominator /= g;
  }
  constexpr auto lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  if (numerator < lo || numerator > hi || denominator > hi) throw std::overflow_error("rational: overflow");
  rational r;
  r.num_ = static_cast<std::int64_t>(numerator);
  r.den_ = static_cast<std::int64_t>(denominator);
  return r;
}

rational::rational(std::int64_t numerator, std::int64_t denominator) { *this = from_wide(numerator, denominator); }

rational operator+(const rational& a, const rational& b) {
  return rational::from_wide(static_cast<wide_integer>(a.num_) * b.den_ + static_cast<wide_integer>(b.num_) * a.den_,
                             static_cast<wide_integer>(a.den_) * b.den_);
}
rational operator-(const rational& a, const rational& b) { return a + (-b); }
rational operator*(const rational& a, const rational& b) {
  return rational::from_wide(static_cast<wide_integer>(a.num_) * b.num_, static_cast<wide_integer>(a.den_) * b.den_);
}
rational operator/(const rational& a, const rational& b) {
  if (b.num_ == 0) throw std::domain_error("rational: division by 0");
  return rational::from_wide(static_cast<wide_integer>(a.num_) * b.den_, static_cast<wide_integer>(a.den_) * b.num_);
}
rational rational::operator-() const { return from_wide(-static_cast<wide_integer>(num_), den_); }

std::strong_ordering operator<=>(const rational& a, const rational& b) {
  return static_cast<wide_integer>(a.num_) * b.den_ <=> static_cast<wide_integer>(b.num_) * a.den_;
}

std::string rational::to_string() const {
  return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_);
}

rational rational::parse(std::string_view text) {
  auto number = [&](std::string_view part) {
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size())
      throw std::invalid_argument("'" + std::string(text) + "' is not an exact number (write 3, -1/2 or 12/5)");
    return v;
  };
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return rational(number(text));
  const std::int64_t d = number(text.substr(slash + 1));
  if (d <= 0) throw std::invalid_argument("'" + std::string(text) + "': the denominator must be positive");
  return rational(number(text.substr(0, slash)), d);
}

}  // namespace dancecard
