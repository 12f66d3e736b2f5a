// Closed forms of Sections 2–5 of the dance-party paper, in exact integer arithmetic.
#include "dancecard/core/dance/round_counts.hpp"

#include <bit>
#include <stdexcept>

namespace dancecard::dance {

namespace {
void require_positive(std::uint64_t n, const char* what) {
  if (n == 0) throw std::invalid_argument(std::string(what) + ": n must be at least 1");
}
}  // namespace

std::uint64_t two_adic_valuation(std::uint64_t n) {
  require_positive(n, "two_adic_valuation");
  return static_cast<std::uint64_t>(std::countr_zero(n));
}
std::uint64_t binary_weight(std::uint64_t n) { return static_cast<std::uint64_t>(std::popcount(n)); }
std::uint64_t power_of_two_indicator(std::uint64_t n) { return std::has_single_bit(n) ? 1 : 0; }
std::uint64_t floor_log2(std::uint64_t n) {
  require_positive(n, "floor_log2");
  return static_cast<std::uint64_t>(std::bit_width(n)) - 1;
}
std::uint64_t ceil_log2(std::uint64_t n) {
  require_positive(n, "ceil_log2");
  return n == 1 ? 0 : static_cast<std::uint64_t>(std::bit_width(n - 1));
}

std::uint64_t sequential_rounds(std::uint64_t n) { return n * (n - (n > 0 ? 1 : 0)) / 2; }

std::uint64_t searching_rounds(std::uint64_t n) { return (std::uint64_t{1} << ceil_log2(n)) - 1; }

std::uint64_t divide_rounds_definition(std::uint64_t n) {
  // Unrolls t(D_2k-1) = t(D_2k) = t(D_k) + k down to the bases t(D_0) = t(D_1) = 0, t(D_2) = 1.
  std::uint64_t total = 0;
  while (n > 2) {
    std::uint64_t k = (n + 1) / 2;
    total += k;
    n = k;
  }
  return total + (n == 2 ? 1 : 0);
}

std::uint64_t divide_rounds_theorem(std::uint64_t n) {
  if (n < 2) throw std::invalid_argument("divide_rounds_theorem: n must be at least 2");
  return n + floor_log2(n - 1) + 1 - two_adic_valuation(n) - binary_weight(n);
}

std::uint64_t factorization_rounds(std::uint64_t n) { return 2 * ((n + 1) / 2) - 1; }

std::uint64_t optimal_rounds(std::uint64_t n) {
  require_positive(n, "optimal_rounds");
  return n % 2 == 0 ? n - 1 : n;
}

}  // namespace dancecard::dance
