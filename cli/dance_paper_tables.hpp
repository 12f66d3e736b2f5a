// The dance-party paper's printed tables, transcribed entry for entry (1-based partner matrices, one row per person).
// They are the expected values of the theorem book and the unit tests; nothing in core/ or checkers/ reads them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace dancecard::paper {

using matrix_rows = std::vector<std::vector<std::uint32_t>>;

// Section 1: optimal schedules for n = 2, 3, 4.
inline const matrix_rows intro_n2 = {{2}, {1}};
inline const matrix_rows intro_n3 = {{2, 3, 1}, {1, 2, 3}, {3, 1, 2}};
inline const matrix_rows intro_n4 = {{2, 3, 4}, {1, 4, 3}, {4, 1, 2}, {3, 2, 1}};

// Section 2: S_4.
inline const matrix_rows S4 = {{2, 3, 4, 1, 1, 1}, {1, 2, 2, 3, 4, 2}, {3, 1, 3, 2, 3, 4}, {4, 4, 1, 4, 2, 3}};

// Section 3: Q_8 and Q_6.
inline const matrix_rows Q8 = {{2, 3, 4, 5, 6, 7, 8}, {1, 4, 3, 6, 5, 8, 7}, {4, 1, 2, 7, 8, 5, 6},
                               {3, 2, 1, 8, 7, 6, 5}, {6, 7, 8, 1, 2, 3, 4}, {5, 8, 7, 2, 1, 4, 3},
                               {8, 5, 6, 3, 4, 1, 2}, {7, 6, 5, 4, 3, 2, 1}};
inline const matrix_rows Q6 = {{2, 3, 4, 5, 6, 1, 1}, {1, 4, 3, 6, 5, 2, 2}, {4, 1, 2, 3, 3, 5, 6},
                               {3, 2, 1, 4, 4, 6, 5}, {6, 5, 5, 1, 2, 3, 4}, {5, 6, 6, 2, 1, 4, 3}};

// Section 4: D_6.
inline const matrix_rows D6 = {{2, 3, 1, 4, 5, 6}, {1, 2, 3, 5, 6, 4}, {3, 1, 2, 6, 4, 5},
                               {5, 6, 4, 1, 3, 2}, {4, 5, 5, 2, 1, 3}, {6, 4, 6, 3, 2, 1}};

// Printed entries that contradict the paper's own constraints, with the value the construction gives. An erratum is
// only accepted by the theorem book and the tests if the checker rejects the table as printed.
struct erratum {
  std::uint32_t row, column;  // 1-based, as printed
  std::uint32_t printed, corrected;
};
// D_6, round 3: persons 5 and 6 are printed idle (5 and 6), so the pair {5, 6} never meets and the printed table
// violates constraint (i). The second half {4, 5, 6} runs D_3 like the first half, whose round 3 is 2–3: here 5–6.
inline const std::vector<erratum> D6_errata = {{5, 3, 5, 6}, {6, 3, 6, 5}};

// Section 4: the table of t(D_n) and β(n) for even n = 6..32.
struct divide_row {
  std::uint64_t n, t, beta;
};
inline const std::vector<divide_row> divide_table = {{6, 6, 1},   {8, 7, 3},   {10, 11, 1}, {12, 12, 2}, {14, 14, 1},
                                                     {16, 15, 4}, {18, 20, 1}, {20, 21, 2}, {22, 23, 1}, {24, 24, 3},
                                                     {26, 27, 1}, {28, 28, 2}, {30, 30, 1}, {32, 31, 5}};

// Section 5: the factors of K_6 and K_5, pairs in the printed order (0-based vertices).
using factor = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
inline const std::vector<factor> K6_factors = {{{0, 1}, {2, 5}, {3, 4}},
                                               {{0, 2}, {3, 1}, {4, 5}},
                                               {{0, 3}, {4, 2}, {5, 1}},
                                               {{0, 4}, {5, 3}, {1, 2}},
                                               {{0, 5}, {1, 4}, {2, 3}}};
inline const std::vector<factor> K5_factors = {
    {{0, 1}, {3, 4}}, {{0, 2}, {3, 1}}, {{0, 3}, {4, 2}}, {{0, 4}, {1, 2}}, {{1, 4}, {2, 3}}};

// Section 5: G_6 and G_5.
inline const matrix_rows G6 = {{2, 3, 4, 5, 6}, {1, 4, 6, 3, 5}, {6, 1, 5, 2, 4},
                               {5, 2, 1, 6, 3}, {4, 6, 3, 1, 2}, {3, 5, 2, 4, 1}};
inline const matrix_rows G5 = {{2, 3, 4, 5, 1}, {1, 4, 2, 3, 5}, {3, 1, 5, 2, 4}, {5, 2, 1, 4, 3}, {4, 5, 3, 1, 2}};

}  // namespace dancecard::paper
