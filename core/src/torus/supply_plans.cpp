// Supply plans (Meyer and Sibeyn, Sections 3.2-3.4 and 4): how a PU off a cycle, or a cycle's own streams, deliver
// every packet within a step count: direction schedules matched to deadlines, and their completion.
#include "dancecard/core/torus/cycles.hpp"

#include "cycles_detail.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace dancecard::torus {

using namespace cycles_detail;

// ---- supply plans ------------------------------------------------------------------------------------------------

namespace cycles_detail {

// Positions a stream covers by step `horizon`: the supplier at `origin`, direction f until step s − 1, then −f.
// Returns up to two arcs (start, length) on the cycle of length m.
struct arc {
  std::uint64_t start = 0, length = 0;
};

void stream_arcs(std::uint64_t m, std::uint64_t origin, int f, std::uint64_t s, std::uint64_t horizon,
                 std::vector<arc>& out) {
  // offsets k = t − 1 for t = 1 … horizon; direction f for t < s (all t when s = 0), −f from t = s on
  const std::uint64_t first_end = s == 0 ? horizon : std::min(horizon, s - 1);  // k in [0, first_end)
  auto add = [&](int dir, std::uint64_t lo, std::uint64_t hi) {  // offsets lo … hi − 1 in direction dir
    if (hi <= lo) return;
    const std::uint64_t len = std::min(hi - lo, m);
    const std::uint64_t start = dir > 0 ? (origin + lo) % m : (origin + m - (hi - 1) % m) % m;
    out.push_back({len == m ? 0 : start, len});
  };
  add(f, 0, first_end);
  if (s != 0 && horizon >= s) add(-f, s - 1, horizon);
}

bool covers_all(std::uint64_t m, const std::vector<arc>& arcs) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;  // [lo, hi) within [0, m)
  for (const arc& a : arcs) {
    if (a.length >= m) return true;
    const std::uint64_t end = a.start + a.length;
    if (end <= m)
      spans.push_back({a.start, end});
    else
      spans.push_back({a.start, m}), spans.push_back({0, end - m});
  }
  std::sort(spans.begin(), spans.end());
  std::uint64_t reach = 0;
  for (const auto& [lo, hi] : spans) {
    if (lo > reach) return false;
    reach = std::max(reach, hi);
  }
  return reach >= m;
}

bool plan_covers(std::uint64_t m, std::uint64_t gap, int fa, std::uint64_t sa, int fb, std::uint64_t sb,
                 std::uint64_t horizon) {
  std::vector<arc> arcs;
  stream_arcs(m, 0, fa, sa, horizon, arcs);
  stream_arcs(m, gap, fb, sb, horizon, arcs);
  return covers_all(m, arcs);
}

// The position stream s delivers in step t > s.delay on its cycle of m PUs; `flipped` counts the switches of s taken so
// far (the caller visits steps in increasing order).
std::uint64_t delivered(const stream_shape& s, std::uint64_t t, std::uint64_t m, std::size_t& flipped) {
  const std::uint64_t u = t - s.delay;
  while (flipped < s.flips.size() && s.flips[flipped] <= u) ++flipped;
  const int f = flipped % 2 == 0 ? s.dir : -s.dir;
  const std::uint64_t offset = (u - 1) % m;
  return f > 0 ? (s.origin + offset) % m : (s.origin + m - offset) % m;
}

// The last step worth stepping a stream to: after its last switch it delivers every position within m steps.
std::uint64_t last_useful_step(const stream_shape& s, std::uint64_t m) {
  return s.delay + (s.plain() ? 0 : s.flips.back()) + m;
}

// The step after which the streams together have delivered all m positions of their cycle (UINT64_MAX if never), by
// stepping through them: exact for switching and relayed streams too.
std::uint64_t completion_of(std::uint64_t m, const std::vector<stream_shape>& streams) {
  std::uint64_t limit = 0;
  for (const stream_shape& s : streams) limit = std::max(limit, last_useful_step(s, m));
  std::vector<char> got(m, 0);
  std::uint64_t missing = m;
  std::vector<std::size_t> flipped(streams.size(), 0);  // switches of each stream taken so far
  for (std::uint64_t t = 1; t <= limit; ++t)
    for (std::size_t k = 0; k < streams.size(); ++k) {
      if (t <= streams[k].delay) continue;
      const std::uint64_t pos = delivered(streams[k], t, m, flipped[k]);
      if (!got[pos]) got[pos] = 1, --missing;
      if (missing == 0) return t;
    }
  return std::numeric_limits<std::uint64_t>::max();
}

}  // namespace cycles_detail

std::uint64_t supply_completion(std::uint64_t length, std::uint64_t gap, const supply_plan& plan) {
  return completion_of(length, {stream_shape{0, plan.direction_a, 0, plan.switches_a},
                                stream_shape{gap % length, plan.direction_b, 0, plan.switches_b}});
}

std::string_view to_string(supply_policy policy) {
  switch (policy) {
    case supply_policy::time_independent:
      return "time-independent";
    case supply_policy::one_switch:
      return "one-switch";
    case supply_policy::scheduled:
      return "scheduled";
  }
  return "?";
}

namespace cycles_detail {

std::vector<std::uint64_t> one_flip(std::uint64_t s) {
  return s == 0 ? std::vector<std::uint64_t>{} : std::vector<std::uint64_t>{s};
}

// Scheduled supply: slots (supplier, step t = 1 … horizon) each deliver one of two positions; a maximum matching
// of slots to positions covers the cycle iff some direction sequence does. Kuhn's augmenting paths.
bool match_slots(std::uint64_t m, std::uint64_t gap, std::uint64_t horizon, std::vector<int>& dir_a,
                 std::vector<int>& dir_b) {
  const std::uint64_t slots = 2 * horizon;
  auto options = [&](std::uint64_t slot, int which) {  // which 0: +, 1: −
    const std::uint64_t origin = slot % 2 == 0 ? 0 : gap, k = (slot / 2) % m;
    return which == 0 ? (origin + k) % m : (origin + m - k) % m;
  };
  std::vector<std::uint64_t> owner(m, UINT64_MAX), seen(m, UINT64_MAX);
  std::uint64_t matched = 0, round = 0;
  auto augment = [&](auto&& self, std::uint64_t slot) -> bool {
    for (int which = 0; which < 2; ++which) {
      const std::uint64_t p = options(slot, which);
      if (seen[p] == round) continue;
      seen[p] = round;
      if (owner[p] == UINT64_MAX || self(self, owner[p])) {
        owner[p] = slot;
        return true;
      }
    }
    return false;
  };
  for (std::uint64_t s = 0; s < slots && matched < m; ++s, ++round)
    if (augment(augment, s)) ++matched;
  if (matched < m) return false;
  std::vector<int> chosen(slots, 0);
  for (std::uint64_t p = 0; p < m; ++p)
    if (owner[p] != UINT64_MAX) chosen[owner[p]] = options(owner[p], 0) == p ? 1 : -1;
  dir_a.assign(horizon, 0), dir_b.assign(horizon, 0);
  for (std::uint64_t s = 0; s < slots; ++s) (s % 2 == 0 ? dir_a : dir_b)[s / 2] = chosen[s];
  return true;
}

// One scheduled stream beside streams already fixed: its supplier at `origin` offers origin ± (t − 1) in step t; can
// its directions be chosen so that it delivers every position p with deadline[p] != 0 by step deadline[p]? The same
// matching as match_slots, with one supplier, positions that may wait only so long, and steps 1 … horizon.
// dirs[t − 1]: +1, −1, or 0 where step t is free.
bool match_stream(std::uint64_t m, std::uint64_t origin, std::uint64_t horizon,
                  const std::vector<std::uint64_t>& deadline, std::vector<int>& dirs) {
  std::uint64_t wanted = 0;
  for (std::uint64_t d : deadline) wanted += d != 0;
  if (wanted > horizon) return false;                 // a step delivers one position
  auto option = [&](std::uint64_t step, int which) {  // step counted from 0; which 0: +, 1: −
    const std::uint64_t k = step % m;
    return which == 0 ? (origin + k) % m : (origin + m - k) % m;
  };
  std::vector<std::uint64_t> owner(m, UINT64_MAX), seen(m, UINT64_MAX);
  std::uint64_t matched = 0;
  auto augment = [&](auto&& self, std::uint64_t step, std::uint64_t round) -> bool {
    for (int which = 0; which < 2; ++which) {
      const std::uint64_t p = option(step, which);
      if (deadline[p] <= step || seen[p] == round) continue;  // not wanted (0), or wanted before step + 1
      seen[p] = round;
      if (owner[p] == UINT64_MAX || self(self, owner[p], round)) {
        owner[p] = step;
        return true;
      }
    }
    return false;
  };
  for (std::uint64_t step = 0; step < horizon && matched < wanted; ++step)
    if (augment(augment, step, step)) ++matched;
  if (matched < wanted) return false;
  dirs.assign(horizon, 0);
  for (std::uint64_t p = 0; p < m; ++p)
    if (owner[p] != UINT64_MAX) dirs[owner[p]] = option(owner[p], 0) == p ? 1 : -1;
  return true;
}

// Directions per step (0: free) to a first direction and flip steps, keeping the direction where the step is free.
std::pair<int, std::vector<std::uint64_t>> flips_of(const std::vector<int>& dirs, int fallback) {
  int first = fallback;
  for (std::size_t t = 1; t < dirs.size(); ++t)  // step 1 (t = 0) delivers the supplier's own packet either way
    if (dirs[t] != 0) {
      first = dirs[t];
      break;
    }
  std::vector<std::uint64_t> flips;
  int current = first;
  for (std::size_t t = 1; t < dirs.size(); ++t)
    if (dirs[t] != 0 && dirs[t] != current) current = dirs[t], flips.push_back(t + 1);
  return {first, flips};
}

}  // namespace cycles_detail

bool delivers_both_directions(const supply_plan& plan) {
  // Step 1 delivers the suppliers' own packets, direction-less; a switch counts once its new direction runs in a step
  // from 3 up to the plan's last step.
  if (plan.direction_a != plan.direction_b) return true;
  for (const auto* flips : {&plan.switches_a, &plan.switches_b})
    for (std::uint64_t s : *flips)
      if (s >= 3 && s <= plan.steps) return true;
  return false;
}

supply_plan best_supply(std::uint64_t m, std::uint64_t gap, supply_policy policy) {
  if (m < 2 || gap >= m) throw std::invalid_argument("best_supply: needs gap < length");
  if (policy == supply_policy::scheduled) {
    // The matching may pick one direction for both suppliers (then the locality property fails); the one-switch plan
    // is the fallback, and the matching is tried only where it could do better.
    const supply_plan once = best_supply(m, gap, supply_policy::one_switch);
    for (std::uint64_t horizon = (m + 1) / 2; horizon < once.steps; ++horizon) {
      std::vector<int> dir_a, dir_b;
      if (!match_slots(m, gap, horizon, dir_a, dir_b)) continue;
      supply_plan plan;
      std::tie(plan.direction_a, plan.switches_a) = flips_of(dir_a, -1);
      std::tie(plan.direction_b, plan.switches_b) = flips_of(dir_b, plan.direction_a == -1 ? 1 : -1);
      plan.steps = horizon;
      if (!delivers_both_directions(plan)) {
        plan.direction_b = -plan.direction_a;  // both directions must be delivered: a free step may take the other
        plan.switches_b.clear();
      }
      if (supply_completion(m, gap, plan) != horizon || !delivers_both_directions(plan)) continue;
      return plan;
    }
    return once;
  }
  for (std::uint64_t horizon = (m + 1) / 2; horizon <= m; ++horizon) {
    // Switch steps worth trying: where an arc of one stream meets the other supplier or the far end of its arcs.
    std::vector<std::uint64_t> candidates{0};
    if (policy == supply_policy::one_switch) {
      const std::uint64_t g = gap, h = horizon;
      for (std::uint64_t x : {g, m - g, h > g ? h - g : 0, h > m - g ? h - (m - g) : 0, m > h ? m - h : 0,
                              2 * h > m ? 2 * h - m : 0, (m - g + 1) / 2, (g + 1) / 2, h + g > m ? h + g - m : 0})
        for (std::uint64_t y = x > 2 ? x - 2 : 0; y <= x + 3; ++y)
          if (y >= 3 && y <= horizon)
            candidates.push_back(y);  // a switch at step 2 would never run the first direction
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    }
    for (int fa : {-1, 1})
      for (int fb : {-1, 1})
        for (std::uint64_t sa : candidates)
          for (std::uint64_t sb : candidates)
            if (plan_covers(m, gap, fa, sa, fb, sb, horizon)) {
              const supply_plan plan{fa, fb, one_flip(sa), one_flip(sb), horizon};
              if (supply_completion(m, gap, plan) == horizon && delivers_both_directions(plan)) return plan;
            }
  }
  supply_plan fallback{-1, 1, {}, {}, 0};  // unreachable: opposite streams cover by step m
  fallback.steps = supply_completion(m, gap, fallback);
  return fallback;
}

}  // namespace dancecard::torus
