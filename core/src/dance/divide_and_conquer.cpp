// Section 4 of the dance-party paper: the divide-and-conquer schedule D_n.
//
// The people [lo, lo + n) split into a first half of ⌈n/2⌉ and a second of ⌊n/2⌋. Both halves run their own
// sub-schedules in parallel from round 0; then come ⌈n/2⌉ inter-group rounds, where in round s the i-th person of
// the first half meets the ((i + s) mod ⌈n/2⌉)-th person of the second (for odd n that index is sometimes the
// missing person, and the first-half person idles). The paper describes the inter-group phase only in words; the
// cyclic pairing is the one that reproduces its printed D_6 entry for entry, and gives Definition 1's round count
// t(D_2k-1) = t(D_2k) = t(D_k) + k. (For n = 2^k the paper calls D_n "identical" to Q_n; with this pairing the
// round counts agree but the matrices do not from n = 8 on — the theorem book reports it.)
//
// Rounds are emitted one at a time by walking the recursion, so no per-round containers are allocated.
#include <algorithm>
#include <map>

#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/dance/round_counts.hpp"

namespace dancecard::dance {

namespace {

// The algorithm's own round count: both halves in parallel, then ⌈n/2⌉ inter-group rounds. Deliberately not
// Definition 1 (round_counts.hpp), so that their agreement is something the tests check. Memoized: each recursion
// level has at most two distinct sizes.
class round_counter {
 public:
  std::uint64_t rounds(rank n) {
    if (n < 2) return 0;
    if (auto it = memo_.find(n); it != memo_.end()) return it->second;
    const std::uint64_t value = std::max(rounds((n + 1) / 2), rounds(n / 2)) + (n + 1) / 2;
    memo_.emplace(n, value);
    return value;
  }

 private:
  std::map<rank, std::uint64_t> memo_;
};

void emit_round(dance_schedule& schedule, round_counter& counter, rank lo, rank n, std::uint64_t r) {
  if (n < 2 || r >= counter.rounds(n)) return;  // a shorter half idles while the longer one finishes
  const rank first = (n + 1) / 2;
  const rank second = n / 2;
  const std::uint64_t inner = std::max(counter.rounds(first), counter.rounds(second));
  if (r < inner) {
    emit_round(schedule, counter, lo, first, r);
    emit_round(schedule, counter, lo + first, second, r);
    return;
  }
  const std::uint64_t s = r - inner;
  for (rank i = 0; i < first; ++i) {
    const rank k = static_cast<rank>((i + s) % first);
    if (k < second) schedule.add_dance(lo + i, lo + first + k);
  }
}

}  // namespace

dance_schedule divide_and_conquer_schedule(rank n) {
  dance_schedule schedule(n);
  round_counter counter;
  const std::uint64_t rounds = counter.rounds(n);
  schedule.reserve(rounds, sequential_rounds(n));
  for (std::uint64_t r = 0; r < rounds; ++r) {
    schedule.begin_round();
    emit_round(schedule, counter, 0, n, r);
  }
  return schedule;
}

}  // namespace dancecard::dance
