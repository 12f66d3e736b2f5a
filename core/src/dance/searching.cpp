// Section 3 of the dance-party paper: the searching schedule Q_n.
//
// The paper defines Q_n by a greedy search: in every round, people are served in increasing label order; a person
// not yet taken in the round picks the smallest person that it has not danced with and that is still free in the
// round, or stays idle. The search stops at the first round in which everybody is idle (that round is not part of
// the schedule). Proposition 2 states t(Q_n) = 2^⌈log2 n⌉ − 1; the printed Q_8 shows the XOR structure
// Q(i, r) = i xor r. We run the search itself so that the proposition is checked, not assumed.
//
// Cost: two n × n bit matrices would be wasteful; one "not yet danced" bitset row per person (n²/8 bytes, 50 MB at
// n = 20,000) and a "free in this round" bitset suffice. A person's search is a word-wise AND of its row with the
// free set, starting at the lowest word of its row that still has a bit (a pointer that only moves forward).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "dancecard/core/dance/generators.hpp"

namespace dancecard::dance {

dance_schedule searching_schedule(rank n) {
  dance_schedule schedule(n);
  const std::size_t words = (static_cast<std::size_t>(n) + 63) / 64;
  std::vector<std::uint64_t> undanced(static_cast<std::size_t>(n) * words, 0);
  auto clear_bit = [](std::uint64_t* row, rank j) { row[j / 64] &= ~(std::uint64_t{1} << (j % 64)); };
  for (rank i = 0; i < n; ++i) {
    std::uint64_t* row = &undanced[static_cast<std::size_t>(i) * words];
    for (std::size_t w = 0; w < words; ++w) row[w] = ~std::uint64_t{0};
    if (n % 64 != 0) row[words - 1] = (std::uint64_t{1} << (n % 64)) - 1;
    clear_bit(row, i);
  }
  std::vector<std::size_t> lowest_word(n, 0);
  std::vector<std::uint64_t> free_now(words);
  std::vector<couple> this_round;
  this_round.reserve(n / 2);
  for (;;) {
    for (std::size_t w = 0; w < words; ++w) free_now[w] = ~std::uint64_t{0};
    this_round.clear();
    for (rank i = 0; i < n; ++i) {
      if (!(free_now[i / 64] >> (i % 64) & 1)) continue;  // taken earlier in this round by a smaller label
      std::uint64_t* row = &undanced[static_cast<std::size_t>(i) * words];
      std::size_t& w = lowest_word[i];
      while (w < words && row[w] == 0) ++w;
      // Only j > i can be a candidate: a j < i still free now was served before i and found nobody while i was free,
      // so it has danced with i already. Starting the scan at i's own word changes no choice, only the work.
      const std::size_t from = std::max(w, static_cast<std::size_t>(i) / 64);
      for (std::size_t v = from; v < words; ++v) {
        std::uint64_t candidates = row[v] & free_now[v];
        if (candidates == 0) continue;
        rank j = static_cast<rank>(v * 64 + static_cast<std::size_t>(std::countr_zero(candidates)));
        this_round.push_back({i, j});
        clear_bit(free_now.data(), i);
        clear_bit(free_now.data(), j);
        clear_bit(row, j);
        clear_bit(&undanced[static_cast<std::size_t>(j) * words], i);
        break;
      }
    }
    if (this_round.empty()) break;
    schedule.begin_round();
    for (couple d : this_round) schedule.add_dance(d.first, d.second);
  }
  return schedule;
}

}  // namespace dancecard::dance
