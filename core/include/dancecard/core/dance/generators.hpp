// Generators of the dance-party paper (Wang, Blum, Parker, Massey): S_n, Q_n, D_n, G_n and the
// (near-)one-factorizations of complete graphs, each reproducing the paper's printed tables entry for entry.
//
//   auto g = dancecard::dance::factorization_schedule(6);   // G_6, 5 rounds, the paper's Section 5 table
//   auto q = dancecard::dance::searching_schedule(6);       // Q_6, 7 rounds
#pragma once

#include <optional>
#include <string_view>

#include "dancecard/core/dance/schedule.hpp"

namespace dancecard::dance {

/// Section 2: S_n, person 1 dances with 2..n one per round, then 2 with 3..n, ... (n(n-1)/2 rounds).
/// require: n >= 1.
dance_schedule sequential_schedule(rank n);

/// Section 3: Q_n by the greedy search — in each round, person i (in increasing order, if still free) takes the
/// smallest j it has not yet danced with that is still free in the round; stops at the first all-idle round.
/// Runs the search itself (it does not use the XOR structure of Proposition 2). O(n · t · n/64) time.
/// require: n >= 1.
dance_schedule searching_schedule(rank n);

/// Section 4: D_n by divide and conquer. Halves of sizes ⌈n/2⌉ (first ranks) and ⌊n/2⌋ run their sub-schedules in
/// parallel; then ⌈n/2⌉ inter-group rounds, in round s the i-th person of the first half meets the
/// ((i + s) mod ⌈n/2⌉)-th of the second (idle when that index falls on the missing person of an odd n).
/// This cyclic pairing is the one that reproduces the printed D_6. require: n >= 1.
dance_schedule divide_and_conquer_schedule(rank n);

/// Section 5: G_n from the G'_2m / G'_2m-1 formula; 2⌊(n+1)/2⌋ − 1 rounds. require: n >= 1.
dance_schedule factorization_schedule(rank n);

/// Section 5: one-factorization F_0..F_{2m-2} of K_2m on vertices 0..2m-1, F_i = {(0, i+1)} ∪
/// {(v_{i+j+1}, v_{i-j+1}) : j = 1..m-1}, subscripts taken in 1..2m-1 modulo 2m-1. One round per factor, pairs
/// in the formula's order. require: m >= 1.
dance_schedule one_factorization(rank m);

/// Section 5: near-one-factorization of K_{2m-1}: the one-factorization of K_2m without the edges of vertex 2m-1.
/// require: m >= 1.
dance_schedule near_one_factorization(rank m);

/// Proposition 1's dummy-person reduction: removes the person `dummy` (every dance with them becomes idleness)
/// and renumbers the people above it down by one. require: schedule.people() >= 2, dummy < schedule.people().
dance_schedule remove_person(const dance_schedule& schedule, rank dummy);

/// The four algorithms by name, for the CLI and the theorem book.
enum class dance_algorithm { sequential, searching, divide, factorization };
inline constexpr dance_algorithm all_dance_algorithms[] = {dance_algorithm::sequential, dance_algorithm::searching,
                                                           dance_algorithm::divide, dance_algorithm::factorization};
std::string_view name(dance_algorithm algorithm);
std::optional<dance_algorithm> parse_dance_algorithm(std::string_view name);
dance_schedule generate(dance_algorithm algorithm, rank n);

}  // namespace dancecard::dance
