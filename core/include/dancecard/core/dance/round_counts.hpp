// Closed forms for the number of rounds of the dance-party schedules (exact integer arithmetic).
//
//   dancecard::dance::divide_rounds_theorem(10) == 11   // Theorem 1
//   dancecard::dance::optimal_rounds(7) == 7            // T(n), Proposition 5
#pragma once

#include <cstdint>

namespace dancecard::dance {

/// β(n): the number of factors 2 in n (0 for odd n). require: n >= 1.
std::uint64_t two_adic_valuation(std::uint64_t n);
/// b(n): the number of 1 bits of n.
std::uint64_t binary_weight(std::uint64_t n);
/// d(n) of Proposition 4: 1 if n is a power of two (n >= 1), else 0.
std::uint64_t power_of_two_indicator(std::uint64_t n);
/// ⌊log2 n⌋. require: n >= 1.
std::uint64_t floor_log2(std::uint64_t n);
/// ⌈log2 n⌉. require: n >= 1.
std::uint64_t ceil_log2(std::uint64_t n);

/// t(S_n) = n(n-1)/2.
std::uint64_t sequential_rounds(std::uint64_t n);
/// Proposition 2: t(Q_n) = 2^⌈log2 n⌉ − 1 (0 for n = 1). require: n >= 1.
std::uint64_t searching_rounds(std::uint64_t n);
/// Definition 1: t(D_0) = t(D_1) = 0, t(D_2) = 1, t(D_2k-1) = t(D_2k) = t(D_k) + k. O(log n).
std::uint64_t divide_rounds_definition(std::uint64_t n);
/// Theorem 1: t(D_n) = n + ⌊log2(n−1)⌋ + 1 − β(n) − b(n). require: n >= 2.
std::uint64_t divide_rounds_theorem(std::uint64_t n);
/// Section 5: t(G_n) = 2⌊(n+1)/2⌋ − 1.
std::uint64_t factorization_rounds(std::uint64_t n);
/// T(n) of Propositions 1 and 5: n − 1 for even n, n for odd n. require: n >= 1.
std::uint64_t optimal_rounds(std::uint64_t n);

}  // namespace dancecard::dance
