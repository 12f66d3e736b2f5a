// The weighted protocol's draws (the on-line paper's Section 3 protocol for the arbitrary-write discipline): each
// processor sends, with probability w(d) = 1 − exp(−d/h_{k−1}), a message to a destination it still has d messages
// for (all scaled down where they sum above 1). The weight depends on the count only, so a draw picks a count with
// probability (destinations with it) · w(d) and then one of those destinations uniformly: the distribution of a draw
// by weight over the destinations, in O(distinct counts), at most √(2h) of them.
//
// Flat over all processors, so that a draw reads a few adjacent words and one entry: processor p's destinations are
// one range of entries sorted by count — bucket c from starts(p)[c] to starts(p)[c + 1], count 0 first — each
// carrying its count and its stack's top (the message a draw sends). A destination's count falls by one
// by swapping it with the first of its bucket and moving the bucket's start past it (the boundaries of a bucket sort
// kept as the keys fall). Each stack is linked through its messages. Only a drawn message can be delivered (the
// protocol sends nothing else until its final phase, which draws uniformly and needs none of this), so a delivery
// names the entry it was drawn from.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dancecard/core/online/online.hpp"

namespace dancecard::online::detail {

class weighted_draws {
 public:
  static constexpr std::uint32_t none = UINT32_MAX;

  /// Each processor's messages in the order given (mine(p), a vector of message numbers, for p < n), each pushed
  /// onto its destination's stack.
  template <class Mine>
  weighted_draws(const std::vector<online_message>& messages, std::size_t n, Mine mine)
      : levels_at_(n + 1, 0), total_(n, 0), left_(n, 0), below_(messages.size(), none) {
    std::vector<std::uint32_t> slot_of(n, none);  // per destination rank, while one processor is built
    std::vector<entry> here;                      // the processor's destinations, first seen first
    std::vector<rank> seen;                       // and their ranks
    for (std::size_t p = 0; p < n; ++p) {
      here.clear(), seen.clear();
      const std::vector<std::uint32_t>& own = mine(p);
      for (const std::uint32_t m : own) {
        std::uint32_t& s = slot_of[messages[m].dst];
        if (s == none)
          s = static_cast<std::uint32_t>(here.size()), here.push_back({none, 0}), seen.push_back(messages[m].dst);
        below_[m] = here[s].top;
        here[s].top = m;
        most_ = std::max(most_, ++here[s].count);
      }
      for (const rank d : seen) slot_of[d] = none;
      left_[p] = static_cast<std::uint32_t>(own.size());
      // bucket by count: a counting sort of the processor's destinations
      std::uint32_t most_here = 0;
      for (const entry& e : here) most_here = std::max(most_here, e.count);
      levels_at_[p] = static_cast<std::uint32_t>(starts_.size());
      starts_.resize(starts_.size() + most_here + 2, 0);
      std::uint32_t* const st = starts_.data() + levels_at_[p];
      for (const entry& e : here) ++st[e.count + 1];
      st[0] = static_cast<std::uint32_t>(entries_.size());
      for (std::uint32_t c = 1; c <= most_here + 1; ++c) st[c] += st[c - 1];
      std::vector<std::uint32_t> next(st, st + most_here + 1);
      entries_.resize(entries_.size() + here.size());
      for (const entry& e : here) entries_[next[e.count]++] = e;
    }
    levels_at_[n] = static_cast<std::uint32_t>(starts_.size());
  }

  /// The most messages one processor has for one destination.
  std::uint32_t most_to_one() const { return most_; }

  /// A new stage's weights w (w[0] = 0): each processor's sum of w(count) over its destinations.
  void weigh(const std::vector<double>& w) {
    for (std::size_t p = 0; p < total_.size(); ++p) {
      const std::uint32_t* st = starts(p);
      double t = 0;
      for (std::uint32_t c = 1; c + 1 < levels(p); ++c) t += static_cast<double>(st[c + 1] - st[c]) * w[c];
      total_[p] = t;
    }
  }

  double total(std::size_t p) const { return total_[p]; }
  /// Whether processor p has a message left.
  bool any_left(std::size_t p) const { return left_[p] != 0; }
  /// f(m) for each message processor p has left.
  template <class F>
  void for_each_left(std::size_t p, F f) const {
    const std::uint32_t* st = starts(p);
    for (std::uint32_t at = st[1]; at < st[levels(p) - 1]; ++at)
      for (std::uint32_t m = entries_[at].top; m != none; m = below_[m]) f(m);
  }

  /// The entry at u (0 <= u < total(p)) of p's count buckets' weights laid end to end, or none past their sum
  /// (rounding).
  std::uint32_t place(std::size_t p, double u, const std::vector<double>& w) const {
    const std::uint32_t* st = starts(p);
    for (std::uint32_t c = 1; c + 1 < levels(p); ++c) {
      const std::uint32_t size = st[c + 1] - st[c];
      const double weight = static_cast<double>(size) * w[c];
      if (u < weight) return st[c] + std::min(size - 1, static_cast<std::uint32_t>(u / w[c]));
      u -= weight;
    }
    return none;
  }

  /// The message a draw of that entry sends: the top of its destination's stack.
  std::uint32_t top_at(std::uint32_t place) const { return entries_[place].top; }

  /// The message drawn from processor p's entry `place` delivered: popped from its destination's stack, whose count
  /// falls by one.
  void deliver(std::uint32_t place, std::size_t p, const std::vector<double>& w) {
    entry& e = entries_[place];
    e.top = below_[e.top];
    const std::uint32_t d = e.count--;
    std::uint32_t& first = starts_[levels_at_[p] + d];
    std::swap(e, entries_[first]);
    ++first;
    total_[p] -= w[d] - w[d - 1];
    --left_[p];
  }

 private:
  struct entry {
    std::uint32_t top;    // the top of its stack
    std::uint32_t count;  // messages left
  };
  const std::uint32_t* starts(std::size_t p) const { return starts_.data() + levels_at_[p]; }
  std::uint32_t levels(std::size_t p) const { return levels_at_[p + 1] - levels_at_[p]; }

  std::vector<entry> entries_;            // per processor, its destinations by count
  std::vector<std::uint32_t> levels_at_;  // per processor: its bucket starts in starts_
  std::vector<std::uint32_t> starts_;     // per processor, per count 0 … most + 1
  std::vector<double> total_;             // per processor: Σ w(count) over its destinations
  std::vector<std::uint32_t> left_;       // per processor: messages left
  std::vector<std::uint32_t> below_;      // per message: the one under it on its destination's stack
  std::uint32_t most_ = 0;
};

}  // namespace dancecard::online::detail
