// The forwarding schedule of Sections 2.2–2.4 and the 1-factorization schedule of Section 4.1.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "dancecard/core/hrel/schedules.hpp"
#include "two_relations.hpp"

namespace dancecard::hrel {

namespace {

using detail::component;

// Twelve rounds of length w/5 (Figure 2's rounds 1..12 are rounds 0..11 here).
struct rounds {
  std::array<std::vector<hrel_transfer>, 12> transfers;
  void add(int round, rank from, rank to, std::size_t message, const rational& amount) {
    transfers[static_cast<std::size_t>(round)].push_back({from, to, message, amount});
  }
};

// An odd cycle named as in Section 2.3: a_0 … a_{L-1}, edge j joins a_j and a_{j+1 mod L}, and the closing edge
// L-1 really goes a_{L-1} → a_0 (the direction of its message).
struct odd_cycle {
  std::vector<rank> a;
  std::vector<std::size_t> edge;
};

odd_cycle name_cycle(const component& c, const std::vector<hrel_message>& messages) {
  const std::size_t L = c.vertices.size();
  odd_cycle out{c.vertices, c.messages};
  if (messages[c.messages[L - 1]].src != c.vertices[L - 1]) {  // walk the other way round
    for (std::size_t i = 0; i < L; ++i) out.a[i] = c.vertices[L - 1 - i];
    for (std::size_t i = 0; i + 1 < L; ++i) out.edge[i] = c.messages[L - 2 - i];
    out.edge[L - 1] = c.messages[L - 1];
  }
  return out;
}

class planner {
 public:
  planner(const hrel_instance& instance, hrel_schedule& out, forwarding_report& report)
      : messages_(instance.messages()),
        instance_(instance),
        out_(out),
        report_(report),
        in_matching_(instance.pes(), 0) {}

  void schedule_class(std::vector<std::size_t> edges, std::uint64_t weight) {
    const rational w(static_cast<std::int64_t>(weight)), piece = w / rational(5);
    std::vector<component> parts = detail::components(instance_, edges);
    std::vector<odd_cycle> odd;
    std::vector<rank> singles;  // PEs free in rounds 0..5: idle PEs, and path ends whose edge has an even index
    bool any_edge = false;
    for (const component& c : parts) {
      any_edge = any_edge || !c.messages.empty();
      if (c.cycle && c.vertices.size() % 2 == 1) {
        odd.push_back(name_cycle(c, messages_));
      } else if (!c.cycle) {
        singles.push_back(c.vertices.front());
        if (c.vertices.size() >= 2 && (c.messages.size() - 1) % 2 == 0) singles.push_back(c.vertices.back());
      }
    }
    if (!any_edge) return;
    if (odd.size() % 2 == 1 && singles.empty()) {
      // No helper for the last odd cycle (odd P): take one packet out into M, then the class has a helper or an
      // even number of odd cycles. Prefer a packet of an odd cycle (its cycle becomes a path).
      std::size_t chosen = pick_removable(parts);
      if (chosen == SIZE_MAX) {
        flush_matching();
        chosen = pick_removable(parts);
      }
      const hrel_message& msg = messages_[chosen];
      matching_.push_back({chosen, w});
      in_matching_[msg.src] = in_matching_[msg.dst] = 1;
      report_.removed_packets += weight;
      // Remove one oriented copy of that message from the class.
      for (std::size_t i = 0; i < edges.size(); ++i)
        if (edges[i] / 2 == chosen) {
          edges.erase(edges.begin() + static_cast<std::ptrdiff_t>(i));
          break;
        }
      schedule_class(std::move(edges), weight);  // counts the class
      return;
    }
    report_.two_relations += weight;
    if (odd.empty()) {  // paths and even cycles only: two colours, two slots of length w
      std::array<hrel_slot, 2> slots{hrel_slot{w, {}}, hrel_slot{w, {}}};
      for (const component& c : parts)
        for (std::size_t i = 0; i < c.messages.size(); ++i)
          slots[i % 2].transfers.push_back(
              {messages_[c.messages[i]].src, messages_[c.messages[i]].dst, c.messages[i], w});
      for (hrel_slot& s : slots)
        if (!s.transfers.empty()) out_.slots.push_back(std::move(s));
      return;
    }
    rounds r;
    // Paths and even cycles: odd-indexed edges in rounds 0..4, even-indexed ones (a path's first edge among them, so
    // its first PE is free in rounds 0..5) in rounds 6..10: five pieces each.
    for (const component& c : parts) {
      if (c.cycle && c.vertices.size() % 2 == 1) continue;
      for (std::size_t i = 0; i < c.messages.size(); ++i)
        for (int k = 0; k < 5; ++k)
          r.add((i % 2 == 1 ? 0 : 6) + k, messages_[c.messages[i]].src, messages_[c.messages[i]].dst, c.messages[i],
                piece);
    }
    std::size_t next = 0;
    for (; next + 1 < odd.size(); next += 2) {  // pairs: B helps A in rounds 0..5, A helps B in rounds 6..11
      const odd_cycle &A = odd[next], &B = odd[next + 1];
      helped(r, A, 0, {B.a[0], B.a[1], B.a[2]}, piece);
      on_its_own(r, B, 0, piece);
      helped(r, B, 6, {A.a[0], A.a[1], A.a[2]}, piece);
      on_its_own(r, A, 6, piece);
      report_.helped_by_cycle += 2 * weight;
    }
    if (next < odd.size()) {  // the lone odd cycle: helped in rounds 0..5 by a PE free then
      const rank helper = singles.front();
      helped(r, odd[next], 0, {helper, helper, helper}, piece);
      on_its_own(r, odd[next], 6, piece);
      report_.helped_by_single += weight;
    }
    for (auto& round : r.transfers)
      if (!round.empty()) out_.slots.push_back({piece, std::move(round)});
  }

  void flush_matching() {
    if (matching_.empty()) return;
    hrel_slot slot{rational(0), {}};
    for (const auto& [m, amount] : matching_) {
      slot.duration = std::max(slot.duration, amount);
      slot.transfers.push_back({messages_[m].src, messages_[m].dst, m, amount});
    }
    report_.matching_sizes.push_back(matching_.size());
    report_.matching_time += slot.duration;
    out_.slots.push_back(std::move(slot));
    matching_.clear();
    std::fill(in_matching_.begin(), in_matching_.end(), 0);
  }

 private:
  // Section 2.3, the helped cycle A in rounds base..base+5: in round base+2i the even edges a_{2k} – a_{2k+1} and
  // a_{L-1} → helper_i; in round base+2i+1 the odd edges a_{2k+1} – a_{2k+2} and helper_i → a_0. Three pieces each.
  void helped(rounds& r, const odd_cycle& A, int base, std::array<rank, 3> helpers, const rational& piece) {
    const std::size_t L = A.a.size();
    const std::size_t closing = A.edge[L - 1];
    for (int i = 0; i < 3; ++i) {
      for (std::size_t j = 0; j + 1 < L; ++j)
        r.add(base + 2 * i + static_cast<int>(j % 2), messages_[A.edge[j]].src, messages_[A.edge[j]].dst, A.edge[j],
              piece);
      r.add(base + 2 * i, A.a[L - 1], helpers[static_cast<std::size_t>(i)], closing, piece);
      r.add(base + 2 * i + 1, helpers[static_cast<std::size_t>(i)], A.a[0], closing, piece);
    }
  }
  // The cycle on its own in rounds base..base+5 (cycle B of Figure 2): two pieces of the odd edges in rounds base,
  // base+1 (a_0 free), of the even edges but the first in base+2, base+3 (a_1 free), of edge 0 in base+4, base+5
  // (a_2 free) — so that a_0, a_1, a_2 can forward for the other cycle in those rounds.
  void on_its_own(rounds& r, const odd_cycle& B, int base, const rational& piece) {
    for (std::size_t j = 0; j < B.edge.size(); ++j) {
      const int group = j % 2 == 1 ? 0 : (j == 0 ? 2 : 1);
      for (int k = 0; k < 2; ++k)
        r.add(base + 2 * group + k, messages_[B.edge[j]].src, messages_[B.edge[j]].dst, B.edge[j], piece);
    }
  }
  std::size_t pick_removable(const std::vector<component>& parts) const {
    for (int want_odd = 1; want_odd >= 0; --want_odd)
      for (const component& c : parts)
        if (c.cycle && static_cast<int>(c.vertices.size() % 2) == want_odd)
          for (std::size_t m : c.messages)
            if (!in_matching_[messages_[m].src] && !in_matching_[messages_[m].dst]) return m;
    return SIZE_MAX;
  }

  const std::vector<hrel_message>& messages_;
  const hrel_instance& instance_;
  hrel_schedule& out_;
  forwarding_report& report_;
  std::vector<std::pair<std::size_t, rational>> matching_;  // M: (message, amount)
  std::vector<char> in_matching_;
};

}  // namespace

hrel_schedule forwarding_schedule(const hrel_instance& instance, decomposition method, forwarding_report* report) {
  hrel_schedule out{instance.pes(), {}};
  forwarding_report local;
  planner plan(instance, out, local);
  for (const weighted_matching& c : detail::two_relations(instance, method)) plan.schedule_class(c.edges, c.weight);
  plan.flush_matching();
  if (report != nullptr) *report = std::move(local);
  return out;
}

namespace {
// The pair {low, high} (low < high, the first in that order) that exchanges the fewest packets, and how many.
struct least_pair {
  std::uint64_t packets = 0;
  rank low = 0, high = 0;
};
least_pair least_exchanging_pair(const hrel_instance& instance) {
  const rank P = instance.pes();
  if (P < 2) return {};
  std::vector<std::uint64_t> pair(static_cast<std::size_t>(P) * P, 0);
  for (const hrel_message& m : instance.messages())
    pair[std::min(m.src, m.dst) * P + std::max(m.src, m.dst)] += m.packets;
  least_pair least{UINT64_MAX, 0, 0};
  for (rank i = 0; i < P; ++i)
    for (rank j = i + 1; j < P; ++j)
      if (pair[i * P + j] < least.packets) least = {pair[i * P + j], i, j};
  return least;
}
}  // namespace

std::uint64_t regular_part(const hrel_instance& instance) { return least_exchanging_pair(instance).packets; }

hrel_schedule regular_schedule(const hrel_instance& instance, decomposition method) {
  const rank P = instance.pes();
  if (P < 2) throw std::invalid_argument("regular schedule: needs at least 2 PEs");
  const least_pair least = least_exchanging_pair(instance);
  const std::uint64_t l = least.packets;
  if (l == 0)
    throw std::invalid_argument("regular schedule: PEs " + std::to_string(least.low) + " and " +
                                std::to_string(least.high) +
                                " exchange no packets, so the instance has no regular part (l = 0)");
  const auto& messages = instance.messages();
  std::vector<std::size_t> index(static_cast<std::size_t>(P) * P, SIZE_MAX);  // (src, dst) → message
  for (std::size_t m = 0; m < messages.size(); ++m) index[messages[m].src * P + messages[m].dst] = m;
  std::vector<std::uint64_t> left(messages.size());
  for (std::size_t m = 0; m < messages.size(); ++m) left[m] = messages[m].packets;
  hrel_schedule out{P, {}};
  const rank odd = P % 2 == 1 ? P : P - 1;  // the PEs 0..odd-1 run the odd-P factorization
  const std::int64_t L = static_cast<std::int64_t>(l);
  for (rank round = 0; round < odd; ++round) {
    // Pairs of this round and how much each sends first (lower PE → higher) before the rest goes back.
    struct exchange {
      rank low, high;
      std::int64_t first;  // packets low → high, then l − first high → low
    };
    std::vector<exchange> pairs;
    for (rank j = 0; j < odd; ++j) {
      const rank partner = static_cast<rank>((round + odd - j) % odd);
      rank other = partner;
      if (partner == j) {
        if (P == odd) continue;  // odd P: idle this round
        other = P - 1;
      } else if (partner < j) {
        continue;  // listed from the lower PE
      }
      const rank low = std::min(j, other), high = std::max(j, other);
      const std::size_t up = index[low * P + high], down = index[high * P + low];
      const std::uint64_t a = up == SIZE_MAX ? 0 : std::min<std::uint64_t>(left[up], l);
      if (up != SIZE_MAX) left[up] -= a;
      if (l > a) left[down] -= l - a;  // m_ij + m_ji >= l, so the message back has enough
      pairs.push_back({low, high, static_cast<std::int64_t>(a)});
    }
    // Cut the round [0, l) at every pair's switch point; in each piece every pair sends one way.
    std::vector<std::int64_t> cuts{0, L};
    for (const exchange& e : pairs) cuts.push_back(e.first);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
      const std::int64_t from = cuts[c], to = cuts[c + 1];
      hrel_slot slot{rational(to - from), {}};
      for (const exchange& e : pairs) {
        if (to <= e.first)
          slot.transfers.push_back({e.low, e.high, index[e.low * P + e.high], rational(to - from)});
        else
          slot.transfers.push_back({e.high, e.low, index[e.high * P + e.low], rational(to - from)});
      }
      out.slots.push_back(std::move(slot));
    }
  }
  // The rest (m_ij minus what went above) by the forwarding schedule, message numbers mapped back.
  std::vector<hrel_message> rest;
  std::vector<std::size_t> original;
  for (std::size_t m = 0; m < messages.size(); ++m)
    if (left[m] > 0) rest.push_back({messages[m].src, messages[m].dst, left[m]}), original.push_back(m);
  if (!rest.empty()) {
    const hrel_schedule tail = forwarding_schedule(hrel_instance(P, std::move(rest)), method);
    for (hrel_slot slot : tail.slots) {
      for (hrel_transfer& t : slot.transfers) t.message = original[t.message];
      out.slots.push_back(std::move(slot));
    }
  }
  return out;
}

}  // namespace dancecard::hrel
