// Gossip routing along cycles (Meyer and Sibeyn, Sections 3 and 4): the forwarding table of a cycle system and the
// greedy supply of the PUs the cycles miss.
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

// ---- routing -----------------------------------------------------------------------------------------------------

namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

struct placement {
  std::uint32_t cycle = none;
  std::uint64_t position = 0;
};

constexpr std::uint64_t matched_work_limit =
    std::uint64_t{1} << 25;                    // P · (longest cycle) for the matched supply above whole_supply_limit
constexpr pu_index whole_supply_limit = 4096;  // PUs: up to here the greedy scores a stream by every packet's arrival

// Whether a stream runs direction `dir` in some step from 2 to `until` (step 1 delivers the supplier's own packet).
bool runs(const stream_shape& s, int dir, std::uint64_t until) {
  if (until < 2 + s.delay) return false;
  if (s.dir == dir) return true;
  return !s.flips.empty() && s.flips.front() + s.delay <= until;  // the first switch turns it to −s.dir = dir
}

// A PU that receives a direct stream (itself, or relayed `delay` steps later): first[p], the step in which the packet
// at position p of the stream's cycle reaches it without the stream (over its other streams and cycles; UINT64_MAX if
// never), and floor, the step by which every packet the stream cannot bring has reached it.
struct receiver {
  std::uint64_t delay = 0;
  std::vector<std::uint64_t> first;
  std::uint64_t floor = 0;
};

// The directions of a direct stream (supplier at `origin` on a cycle of m PUs) under the policy that let its receivers
// hold every packet soonest, the latest of them first, then in sum. `score(shape)` is the exact judge: (latest, sum)
// over the receivers, or nothing when the shape breaks a receiver's locality. Candidates: both plain directions; the
// least horizon T at which a matching exists of the stream's steps to the positions some receiver still lacks at T,
// each by step T − that receiver's delay (match_stream; monotone in T, so by bisection) — scheduled: that schedule,
// free steps turned in turn to either direction for locality; one switch: single switches around its first switch.
// Returns (latest, sum, shape) of the best candidate the judge accepted; latest UINT64_MAX if none.
template <typename Score>
std::tuple<std::uint64_t, std::uint64_t, stream_shape> tune_stream(std::uint64_t m, std::uint64_t origin,
                                                                   const std::vector<receiver>& receivers,
                                                                   supply_policy policy, const Score& score) {
  std::tuple<std::uint64_t, std::uint64_t, stream_shape> best{
      std::numeric_limits<std::uint64_t>::max(), 0, {origin, -1, 0, {}}};
  auto consider = [&](const stream_shape& shape) {
    const std::optional<std::pair<std::uint64_t, std::uint64_t>> judged = score(shape);
    if (judged && std::tie(judged->first, judged->second) < std::tie(std::get<0>(best), std::get<1>(best)))
      best = {judged->first, judged->second, shape};
  };
  for (int dir : {-1, 1}) consider({origin, dir, 0, {}});
  if (policy == supply_policy::time_independent) return best;
  std::uint64_t lo = 1, hi = m;
  for (const receiver& r : receivers) lo = std::max(lo, r.floor), hi = std::max(hi, m + r.delay);
  hi = std::max(hi, lo);
  std::vector<std::uint64_t> deadline(m);
  std::vector<int> dirs;
  auto feasible = [&](std::uint64_t horizon) {
    std::fill(deadline.begin(), deadline.end(), 0);
    for (const receiver& r : receivers) {
      if (horizon <= r.delay || horizon < r.floor) return false;
      const std::uint64_t by = horizon - r.delay;
      for (std::uint64_t p = 0; p < m; ++p)
        if (r.first[p] > horizon) deadline[p] = deadline[p] == 0 ? by : std::min(deadline[p], by);
    }
    return match_stream(m, origin, horizon, deadline, dirs);
  };
  if (lo > hi || !feasible(hi)) return best;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (feasible(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  if (!feasible(lo)) return best;
  for (int fill : {0, -1, 1}) {  // free steps: keep the direction (flips_of), or run −1, or +1 (locality)
    std::vector<int> filled = dirs;
    if (fill != 0)
      for (std::size_t k = 1; k < filled.size(); ++k)
        if (filled[k] == 0) filled[k] = fill;
    stream_shape shape{origin, -1, 0, {}};
    std::tie(shape.dir, shape.flips) = flips_of(filled, fill != 0 ? fill : -1);
    if (policy == supply_policy::scheduled) {
      consider(shape);
      continue;
    }
    if (!shape.flips.empty())  // one switch: around the matching's first switch
      for (std::uint64_t s = shape.flips.front() > 5 ? shape.flips.front() - 2 : 3; s <= shape.flips.front() + 2; ++s)
        for (int dir : {-1, 1}) consider({origin, dir, 0, {s}});
  }
  return best;
}

// cycle_routing under one policy, by the greedy below; a candidate stream scored by its own cycle's completion, or
// (by_arrival, up to whole_supply_limit PUs) by when every packet reaches the PU over all its cycles. `estimate`: the
// (PU, cycle) pairs whose streams all run one way (no switch), and the step after which every PU holds every packet as
// the streams describe it (UINT64_MAX: some packet never arrives); {0, 0} when not computed (more than
// whole_supply_limit PUs, or a packet per cycle).
routing_table greedy_cycle_routing(const cycle_system& system, supply_policy policy, bool one_packet, bool by_arrival,
                                   std::pair<std::uint64_t, std::uint64_t>& estimate) {
  const torus::network& net = system.network;
  const pu_index P = net.size();
  const std::uint32_t ports = net.ports();
  const auto cycles = static_cast<std::uint32_t>(system.cycles.size());
  if (cycles == 0) throw std::invalid_argument("cycle routing: no cycles");
  if (!one_packet && cycles > 64) throw std::invalid_argument("cycle routing: at most 64 packets per PU");
  routing_table t{net,
                  one_packet ? 1u : cycles,
                  std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, no_port),
                  std::vector<std::uint32_t>(static_cast<std::size_t>(P) * ports, no_packet),
                  {}};
  // where[pu · cycles + c]: the position of pu on cycle c, or none
  std::vector<std::uint64_t> where(static_cast<std::size_t>(P) * cycles, std::numeric_limits<std::uint64_t>::max());
  for (std::uint32_t c = 0; c < cycles; ++c) {
    const torus_cycle& cy = system.cycles[c];
    const std::uint64_t m = cy.length();
    if (m < 2 || cy.ports.size() != m)
      throw std::invalid_argument("cycle routing: cycle " + std::to_string(c) + " is malformed");
    if (!one_packet && m != P)
      throw std::invalid_argument("cycle routing: with one packet per cycle every cycle must be Hamiltonian");
    for (std::uint64_t i = 0; i < m; ++i) {
      const pu_index pu = cy.pus[i];
      if (pu >= P || cy.ports[i] >= ports || net.neighbor(pu, cy.ports[i]) != cy.pus[(i + 1) % m])
        throw std::invalid_argument("cycle routing: cycle " + std::to_string(c) + " position " + std::to_string(i) +
                                    " is not a link to the next PU");
      // A closed trail may pass a PU twice (Section 4.3.4: two zigzags through one PU); the first visit places it.
      if (where[pu * cycles + c] != std::numeric_limits<std::uint64_t>::max()) {
        if (!one_packet)
          throw std::invalid_argument("cycle routing: cycle " + std::to_string(c) + " visits PU " + std::to_string(pu) +
                                      " twice");
      } else {
        where[pu * cycles + c] = i;
      }
      const std::uint32_t out = cy.ports[i], back = torus::network::opposite(cy.ports[(i + m - 1) % m]);
      t.forward_at(pu, out) = back;  // the in-port from the predecessor is the port leading back to it
      t.forward_at(pu, back) = out;
      t.inject_at(pu, out) = t.inject_at(pu, back) = one_packet ? 0 : c;
    }
  }
  // link_used[pu · ports + p]: a cycle, or (set below) a supply stream runs over the link leaving pu by port p.
  const cycle_links links = map_cycle_links(system);  // every position was checked above
  if (links.shared)
    throw std::invalid_argument("cycle routing: the cycles share the link leaving PU " +
                                std::to_string(links.shared->pu) + " by port " + std::to_string(links.shared->port));
  std::vector<char> link_used(links.owner.size());
  for (std::size_t k = 0; k < link_used.size(); ++k) link_used[k] = links.owner[k] != cycle_links::none;
  if (one_packet)
    for (pu_index pu = 0; pu < P; ++pu) {
      bool on_some = false;
      for (std::uint32_t c = 0; c < cycles; ++c)
        on_some = on_some || where[pu * cycles + c] != std::numeric_limits<std::uint64_t>::max();
      if (!on_some)
        throw std::invalid_argument("cycle routing: PU " + std::to_string(pu) +
                                    " lies on no cycle, so its packet never leaves");
    }
  auto on = [&](pu_index pu, std::uint32_t c) {
    return where[pu * cycles + c] != std::numeric_limits<std::uint64_t>::max();
  };
  // in-port of an on-cycle PU carrying direction dir of cycle c (+1: from the successor, −1: from the predecessor)
  auto cycle_in_port = [&](pu_index pu, std::uint32_t c, int dir) {
    const torus_cycle& cy = system.cycles[c];
    const std::uint64_t i = where[pu * cycles + c], m = cy.length();
    return dir > 0 ? cy.ports[i] : torus::network::opposite(cy.ports[(i + m - 1) % m]);
  };
  // carries[pu · cycles + c]: an in-port of pu (off cycle c) on which a stream of cycle c arrives, once supplied
  std::vector<std::uint32_t> carries(static_cast<std::size_t>(P) * cycles * 2, none);
  // carried: the shape of that stream (origin position, direction, delay; plain unless it switches)
  std::vector<stream_shape> carried(static_cast<std::size_t>(P) * cycles * 2);
  std::vector<std::uint32_t> supplied(static_cast<std::size_t>(P) * cycles, 0);  // streams of cycle c arriving
  std::vector<std::vector<std::size_t>> relay_children(static_cast<std::size_t>(P) * cycles *
                                                       2);                // the streams relaying each
  std::vector<char> paired(static_cast<std::size_t>(P) * cycles * 2, 0);  // one of round 0's pairs (best_supply's plan)
  auto free_in_port = [&](pu_index pu, std::uint32_t p) {
    return !link_used[net.neighbor(pu, p) * ports + torus::network::opposite(p)];
  };

  std::map<std::tuple<std::uint64_t, std::uint64_t, supply_policy>, supply_plan> plans;  // by (length, gap, policy)
  // Round 0: pairs of adjacent on-cycle suppliers, chosen per PU by a small exhaustive search over its free in-ports.
  for (pu_index v = 0; v < P; ++v) {
    std::vector<std::uint32_t> need;
    for (std::uint32_t c = 0; c < cycles; ++c)
      if (!on(v, c)) need.push_back(c);
    if (need.empty()) continue;
    std::vector<std::uint32_t> free_ports;
    for (std::uint32_t p = 0; p < ports; ++p)
      if (free_in_port(v, p)) free_ports.push_back(p);
    struct choice {
      std::uint32_t p = none, q = none;
      supply_plan plan;
    };
    std::vector<choice> current(need.size()), best(need.size());
    std::size_t best_count = 0, best_starved = need.size() + 1;
    std::uint64_t best_worst = std::numeric_limits<std::uint64_t>::max();
    std::vector<char> taken(ports, 0);
    // starved: needs left without a pair whose only direct links the pairs took (they would get nothing directly)
    auto starved = [&]() {
      std::size_t n = 0;
      for (std::size_t k = 0; k < need.size(); ++k) {
        if (current[k].p != none) continue;
        bool had = false, left = false;
        for (std::uint32_t p : free_ports) {
          if (!on(net.neighbor(v, p), need[k])) continue;
          had = true;
          left = left || !taken[p];
        }
        n += had && !left;
      }
      return n;
    };
    auto search = [&](auto&& self, std::size_t k, std::size_t count, std::uint64_t worst) -> void {
      if (k == need.size()) {
        const std::size_t st = starved();
        if (st < best_starved ||
            (st == best_starved && (count > best_count || (count == best_count && worst < best_worst))))
          best = current, best_count = count, best_worst = worst, best_starved = st;
        return;
      }
      const std::uint32_t c = need[k];
      const std::uint64_t m = system.cycles[c].length();
      for (std::size_t x = 0; x < free_ports.size(); ++x)
        for (std::size_t y = 0; y < free_ports.size(); ++y) {
          const std::uint32_t p = free_ports[x], q = free_ports[y];
          if (p == q || taken[p] || taken[q]) continue;
          const pu_index a = net.neighbor(v, p), b = net.neighbor(v, q);
          if (!on(a, c) || !on(b, c)) continue;  // a == b: one supplier over two links (n_j = 2)
          const std::uint64_t pa = where[a * cycles + c], pb = where[b * cycles + c];
          const std::uint64_t gap = (pb + m - pa) % m;
          if (gap > m / 2 || (gap * 2 == m && p > q)) continue;  // each unordered pair once, A before B
          const auto key = std::make_tuple(m, gap, policy);
          auto known = plans.find(key);
          if (known == plans.end()) known = plans.emplace(key, best_supply(m, gap, policy)).first;
          const supply_plan& plan = known->second;
          taken[p] = taken[q] = 1;
          current[k] = {p, q, plan};
          self(self, k + 1, count + 1, std::max(worst, plan.steps));
          taken[p] = taken[q] = 0;
        }
      current[k] = {};
      self(self, k + 1, count, worst);
    };
    search(search, 0, 0, 0);
    for (std::size_t k = 0; k < need.size(); ++k) {
      const choice& ch = best[k];
      if (ch.p == none) continue;
      const std::uint32_t c = need[k];
      for (int side = 0; side < 2; ++side) {
        const std::uint32_t in = side == 0 ? ch.p : ch.q;  // in-port of v
        const pu_index s = net.neighbor(v, in);
        const std::uint32_t out = torus::network::opposite(in);  // out-port of the supplier
        const int dir = side == 0 ? ch.plan.direction_a : ch.plan.direction_b;
        const std::vector<std::uint64_t>& flips = side == 0 ? ch.plan.switches_a : ch.plan.switches_b;
        t.forward_at(s, out) = cycle_in_port(s, c, dir);
        t.inject_at(s, out) = 0;
        for (std::size_t f = 0; f < flips.size(); ++f)
          t.switches.push_back({s, out, flips[f], cycle_in_port(s, c, f % 2 == 0 ? -dir : dir)});
        link_used[s * ports + out] = 1;
        carries[(v * cycles + c) * 2 + side] = in;
        carried[(v * cycles + c) * 2 + side] = {where[s * cycles + c], dir, 0, flips};
        paired[(v * cycles + c) * 2 + side] = 1;
      }
      supplied[v * cycles + c] = 2;
    }
  }
  // What v holds when: the step each PU's packet first reaches v (over the cycles v lies on, both ways, and the streams
  // it is supplied with; `with` in place of v's streams of cycle c), as (PUs never reached, the latest step).
  const bool whole_supply = one_packet && P <= whole_supply_limit;
  std::vector<std::uint64_t> arrival(whole_supply ? P : 0);
  auto arrival_score = [&](pu_index v, std::uint32_t c, const std::vector<stream_shape>& with) {
    std::fill(arrival.begin(), arrival.end(), std::numeric_limits<std::uint64_t>::max());
    arrival[v] = 0;
    auto reach = [&](pu_index w, std::uint64_t t) { arrival[w] = std::min(arrival[w], t); };
    for (std::uint32_t k = 0; k < cycles; ++k) {
      const torus_cycle& cy = system.cycles[k];
      const std::uint64_t len = cy.length();
      if (on(v, k)) {
        for (std::uint64_t i = 0; i < len; ++i)
          if (cy.pus[i] == v)
            for (std::uint64_t j = 1; j < len; ++j)
              reach(cy.pus[(i + j) % len], j), reach(cy.pus[(i + len - j) % len], j);
        continue;
      }
      const std::size_t count = k == c ? with.size() : supplied[v * cycles + k];
      for (std::size_t x = 0; x < count; ++x) {
        const stream_shape& sh = k == c ? with[x] : carried[(v * cycles + k) * 2 + x];
        std::size_t flipped = 0;
        for (std::uint64_t t = sh.delay + 1; t <= last_useful_step(sh, len); ++t)
          reach(cy.pus[delivered(sh, t, len, flipped)], t);
      }
    }
    std::uint64_t never = 0, latest = 0;
    for (std::uint64_t a : arrival)
      if (a == std::numeric_limits<std::uint64_t>::max())
        ++never;
      else
        latest = std::max(latest, a);
    return std::make_pair(never, latest);
  };
  // Later rounds: single streams from an on-cycle neighbour, then relays of a neighbour's stream, one step later
  // each. Each pick is, after the rank below, the candidate whose stream, with those v already has, covers the cycle
  // soonest, or (by_arrival) brings v every packet soonest over all its cycles.
  for (bool direct_only : {true, false})
    for (bool progress = true; progress;) {
      progress = false;
      for (pu_index v = 0; v < P; ++v) {
        // The cycles v still needs, those with the fewest usable free links first (they compete for the links).
        auto usable = [&](std::uint32_t c) {
          std::uint32_t n = 0;
          for (std::uint32_t p = 0; p < ports; ++p) {
            const pu_index s = net.neighbor(v, p);
            n += free_in_port(v, p) && (on(s, c) || (!direct_only && supplied[s * cycles + c] > 0));
          }
          return n;
        };
        std::vector<std::uint32_t> order;
        for (std::uint32_t c = 0; c < cycles; ++c)
          if (!on(v, c) && supplied[v * cycles + c] < 2) order.push_back(c);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return usable(a) < usable(b); });
        for (std::uint32_t c : order) {
          if (supplied[v * cycles + c] == 2) continue;
          const std::uint64_t m = system.cycles[c].length();
          struct candidate {
            std::uint32_t port, source;  // v's in-port; the in-port of the neighbour it forwards
            bool inject;
            stream_shape shape;
            std::uint32_t relayed = none;  // a relay: which of the neighbour's streams of c (0 or 1)
          };
          std::vector<candidate> found;
          for (std::uint32_t p = 0; p < ports; ++p) {
            if (!free_in_port(v, p)) continue;
            const pu_index s = net.neighbor(v, p);
            if (on(s, c)) {
              for (int dir : {-1, 1})
                found.push_back({p, cycle_in_port(s, c, dir), true, {where[s * cycles + c], dir, 0, {}}});
            } else if (!direct_only) {
              for (std::uint32_t k = 0; k < supplied[s * cycles + c]; ++k) {
                const stream_shape& from = carried[(s * cycles + c) * 2 + k];
                found.push_back({p,
                                 carries[(s * cycles + c) * 2 + k],
                                 false,
                                 {from.origin, from.dir, from.delay + 1, from.flips},
                                 k});
              }
            }
          }
          if (found.empty()) continue;
          std::vector<stream_shape> have;
          for (std::uint32_t k = 0; k < supplied[v * cycles + c]; ++k)
            have.push_back(carried[(v * cycles + c) * 2 + k]);
          // One stream per (PU, cycle) and round, so that every cycle of a PU gets a turn at its free links; a
          // switching stream is relayed only when no plain one is at hand (its switch steps are tuned for its PU).
          // Ranked by: plain before switching; then (locality) delivering the direction v still misses; then steps.
          int missing = have.size() == 1 && have[0].plain() ? -have[0].dir : 0;
          if (have.empty()) {
            // A neighbour off the cycle that already has one plain stream may relay it to v later (over a free link):
            // then v's own stream should run the other way, so that between them both get both directions.
            for (std::uint32_t p = 0; p < ports && missing == 0; ++p) {
              const pu_index s = net.neighbor(v, p);
              if (!free_in_port(v, p) || on(s, c) || supplied[s * cycles + c] != 1) continue;
              const stream_shape& other = carried[(s * cycles + c) * 2];
              if (other.plain()) missing = -other.dir;
            }
          }
          auto rank = [&](const candidate& x) {
            return (x.shape.plain() ? 0 : 2) + (missing != 0 && x.shape.plain() && x.shape.dir != missing ? 1 : 0);
          };
          std::pair<std::uint64_t, std::uint64_t> best{std::numeric_limits<std::uint64_t>::max(), 0};
          std::size_t pick = found.size();
          for (std::size_t x = 0; x < found.size(); ++x) {
            std::vector<stream_shape> with = have;
            with.push_back(found[x].shape);
            const auto score = whole_supply && by_arrival ? arrival_score(v, c, with)
                                                          : std::make_pair(std::uint64_t{0}, completion_of(m, with));
            if (pick == found.size() || rank(found[x]) < rank(found[pick]) ||
                (rank(found[x]) == rank(found[pick]) && score < best))
              best = score, pick = x;
          }
          {
            const candidate& ch = found[pick];
            const pu_index s = net.neighbor(v, ch.port);
            const std::uint32_t out = torus::network::opposite(ch.port);
            t.forward_at(s, out) = ch.source;
            if (ch.inject) t.inject_at(s, out) = 0;
            if (ch.relayed != none)
              relay_children[(s * cycles + c) * 2 + ch.relayed].push_back((v * cycles + c) * 2 +
                                                                          supplied[v * cycles + c]);
            link_used[s * ports + out] = 1;
            const std::uint32_t k = supplied[v * cycles + c]++;
            carries[(v * cycles + c) * 2 + k] = ch.port;
            carried[(v * cycles + c) * 2 + k] = ch.shape;
          }
          progress = true;
        }
      }
    }
  // Retuning. A direct stream's directions were chosen for its own PU — round 0's pairs by best_supply, later rounds
  // one fixed direction before the PU's other stream was known — while neighbours relay it, one step later each, beside
  // streams of their own (on 4 x 4 x 4 x 8 some PUs get a cycle of 192 only by two relays of switching streams and
  // waited 182 steps for it). So, up to whole_supply_limit PUs: every PU's completion as the streams describe it; then,
  // in rounds while the latest falls (at most 8), each direct stream that reaches a PU completing last (itself or
  // relayed, transitively) gets its directions chosen again for all PUs that receive it (tune_stream, judged by when
  // each holds every packet over all its cycles), kept where the latest of those completes sooner, or as soon and the
  // sum falls, with the locality property kept at each (a receiver whose other streams run one way only gets a
  // stream that runs the other way before it completes). No PU ever completes later than the latest did.
  if (one_packet && P <= whole_supply_limit) {
    constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();
    auto completion_at = [&](pu_index w, std::uint32_t c, const std::vector<stream_shape>& with) {
      const auto [missed, latest] = arrival_score(w, c, with);
      return missed > 0 ? never : latest;
    };
    std::vector<std::uint64_t> done(P);
    for (pu_index w = 0; w < P; ++w) done[w] = completion_at(w, cycles, {});
    std::vector<char> retuned(static_cast<std::size_t>(P) * ports, 0);
    std::vector<std::vector<port_switch>> link_switches(static_cast<std::size_t>(P) * ports);
    auto streams_of = [&](std::size_t slot) {  // every stream of slot's (PU, cycle); the slot's own is [slot % 2]
      const std::size_t base = slot - slot % 2;
      std::vector<stream_shape> all;
      for (std::uint32_t x = 0; x < supplied[base / 2]; ++x) all.push_back(carried[base + x]);
      return all;
    };
    for (int round = 0; round < 8; ++round) {
      const std::uint64_t latest = *std::max_element(done.begin(), done.end());
      if (latest == never) break;
      bool changed = false;
      for (std::size_t at = 0; at < carried.size(); ++at) {
        const std::size_t pair = at / 2;  // v · cycles + c
        const pu_index v = static_cast<pu_index>(pair / cycles);
        const auto c = static_cast<std::uint32_t>(pair % cycles);
        if (on(v, c) || at % 2 >= supplied[pair] || carried[at].delay != 0) continue;
        // A pair of round 0 that nobody relays has best_supply's plan, the soonest for its cycle: left as it is.
        if (paired[at] && paired[at ^ 1] && relay_children[at].empty() && relay_children[at ^ 1].empty()) continue;
        std::vector<std::size_t> slots{at};  // the receivers: v, and every PU relaying the stream (transitively)
        for (std::size_t i = 0; i < slots.size(); ++i)
          for (std::size_t child : relay_children[slots[i]]) slots.push_back(child);
        bool critical = false, twice = false;  // twice: a PU that gets the stream over two ways (the judge takes one)
        for (std::size_t i = 0; i < slots.size(); ++i) {
          critical = critical || done[slots[i] / 2 / cycles] == latest;
          for (std::size_t j = 0; j < i; ++j) twice = twice || slots[j] / 2 == slots[i] / 2;
        }
        if (!critical || twice) continue;
        const torus_cycle& cy = system.cycles[c];
        const std::uint64_t m = cy.length();
        std::vector<receiver> receivers;
        std::vector<int> needs;
        std::uint64_t before = 0, before_sum = 0;
        for (std::size_t slot : slots) {
          const pu_index w = static_cast<pu_index>(slot / 2 / cycles);
          std::vector<stream_shape> others = streams_of(slot);
          others.erase(others.begin() + static_cast<std::ptrdiff_t>(slot % 2));
          arrival_score(w, c, others);  // fills `arrival`: each packet's step without this stream
          receiver r;
          r.delay = carried[slot].delay;
          r.first.resize(m);
          for (std::uint64_t p = 0; p < m; ++p) r.first[p] = arrival[cy.pus[p]];
          for (std::uint64_t p = 0; p < m; ++p) arrival[cy.pus[p]] = 0;  // what the stream may bring
          r.floor = *std::max_element(arrival.begin(), arrival.end());
          if (r.floor == never) break;  // some packet the stream cannot bring never arrives: nothing to tune for
          bool up = false, down = false;
          for (const stream_shape& o : others)
            up = up || !o.plain() || o.dir > 0, down = down || !o.plain() || o.dir < 0;
          needs.push_back(others.empty() || (up && down) ? 0 : up ? -1 : 1);
          before = std::max(before, done[w]), before_sum += done[w];
          receivers.push_back(std::move(r));
        }
        if (receivers.size() < slots.size()) continue;
        bool stuck = false;  // a receiver completing last waits for packets the stream cannot bring
        for (std::size_t i = 0; i < slots.size(); ++i)
          stuck = stuck || (done[slots[i] / 2 / cycles] == latest && receivers[i].floor >= latest);
        if (stuck) continue;
        // The judge: when each receiver holds every packet with the stream shaped so — a packet of the cycle at the
        // sooner of its step without the stream and the stream's delivery, every other by the receiver's floor.
        auto score = [&](const stream_shape& shape) -> std::optional<std::pair<std::uint64_t, std::uint64_t>> {
          std::uint64_t worst = 0, sum = 0;
          for (std::size_t i = 0; i < slots.size(); ++i) {
            const receiver& r = receivers[i];
            const stream_shape mine{shape.origin, shape.dir, r.delay, shape.flips};
            for (std::uint64_t p = 0; p < m; ++p) arrival[cy.pus[p]] = r.first[p];
            std::size_t flipped = 0;
            for (std::uint64_t t = r.delay + 1; t <= last_useful_step(mine, m); ++t) {
              std::uint64_t& a = arrival[cy.pus[delivered(mine, t, m, flipped)]];
              a = std::min(a, t);
            }
            std::uint64_t when = r.floor;
            for (std::uint64_t p = 0; p < m; ++p) when = std::max(when, arrival[cy.pus[p]]);
            if (when == never || (needs[i] != 0 && !runs(mine, needs[i], when))) return std::nullopt;
            worst = std::max(worst, when), sum += when;
          }
          return std::make_pair(worst, sum);
        };
        const auto [after, after_sum, shape] = tune_stream(m, carried[at].origin, receivers, policy, score);
        if (std::tie(after, after_sum) >= std::tie(before, before_sum)) continue;
        const pu_index s = net.neighbor(v, carries[at]);
        const std::uint32_t out = torus::network::opposite(carries[at]);
        t.forward_at(s, out) = cycle_in_port(s, c, shape.dir);
        retuned[static_cast<std::size_t>(s) * ports + out] = 1;
        std::vector<port_switch>& mine = link_switches[static_cast<std::size_t>(s) * ports + out];
        mine.clear();
        for (std::size_t f = 0; f < shape.flips.size(); ++f)
          mine.push_back({s, out, shape.flips[f], cycle_in_port(s, c, f % 2 == 0 ? -shape.dir : shape.dir)});
        for (std::size_t slot : slots) {
          const std::uint64_t delay = carried[slot].delay;
          carried[slot] = shape;
          carried[slot].delay = delay;
        }
        for (std::size_t slot : slots)
          done[slot / 2 / cycles] = completion_at(static_cast<pu_index>(slot / 2 / cycles), cycles, {});
        changed = true;
      }
      if (!changed || *std::max_element(done.begin(), done.end()) >= latest) break;
    }
    std::erase_if(t.switches,
                  [&](const port_switch& w) { return retuned[static_cast<std::size_t>(w.pu) * ports + w.port] != 0; });
    for (const auto& mine : link_switches) t.switches.insert(t.switches.end(), mine.begin(), mine.end());
  }
  for (pu_index v = 0; v < P; ++v)
    for (std::uint32_t c = 0; c < cycles; ++c)
      if (!on(v, c) && supplied[v * cycles + c] == 0)  // one stream still delivers every packet (slowly); none does not
        throw std::invalid_argument("cycle routing on " + net.name() +
                                    ": the greedy supply found no free link to bring PU " + std::to_string(v) +
                                    " (off cycle " + std::to_string(c) +
                                    ") that cycle's packets (a limit of the greedy, not a proof that none exists: the "
                                    "SAT supply, smt/torus_supply, may find one)");
  estimate = {0, 0};
  if (whole_supply)
    for (pu_index v = 0; v < P; ++v) {
      for (std::uint32_t c = 0; c < cycles; ++c) {  // a supply of plain streams all one way misses a direction
        if (on(v, c)) continue;
        bool up = false, down = false;
        for (std::uint32_t k = 0; k < supplied[v * cycles + c]; ++k) {
          const stream_shape& sh = carried[(v * cycles + c) * 2 + k];
          up = up || !sh.plain() || sh.dir > 0, down = down || !sh.plain() || sh.dir < 0;
        }
        estimate.first += !(up && down);
      }
      const auto [never, latest] = arrival_score(v, cycles, {});  // cycles: no cycle replaced, v's own streams
      estimate.second = never > 0 ? std::numeric_limits<std::uint64_t>::max() : std::max(estimate.second, latest);
    }
  return t;
}

}  // namespace

std::uint64_t theorem_7_switching_bound(const torus::network& network) {
  const std::uint64_t d = network.dimension(), P = network.size(), nd = network.dims().back();
  return ((nd + d) * P + 2 * d * nd - 1) / (2 * d * nd) + 2;
}

routing_table cycle_table(const cycle_system& system) {
  const torus::network& net = system.network;
  const std::size_t links = static_cast<std::size_t>(net.size()) * net.ports();
  routing_table t{net, 1, std::vector<std::uint32_t>(links, no_port), std::vector<std::uint32_t>(links, no_packet), {}};
  for (const torus_cycle& cy : system.cycles) {
    const std::size_t m = cy.length();
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint32_t out = cy.ports[i], back = torus::network::opposite(cy.ports[(i + m - 1) % m]);
      t.forward_at(cy.pus[i], out) = back;
      t.forward_at(cy.pus[i], back) = out;
      t.inject_at(cy.pus[i], out) = t.inject_at(cy.pus[i], back) = 0;
    }
  }
  return t;
}

routing_table cycle_routing(const cycle_system& system, supply_policy policy, packets_per_pu per_pu) {
  const bool one_packet = per_pu == packets_per_pu::one;
  // The greedy is myopic, and neither way of scoring a stream is always better (5^5 with fixed directions: 646 steps
  // by cycle completion, 720 by arrival). A policy allows what the weaker ones do (scheduled ⊇ one switch ⊇
  // time-independent), and the greedy for a stronger one is not always better either (it relays streams whose switches
  // were tuned for another PU). So where the streams' delivery is estimated (up to whole_supply_limit PUs, one packet
  // per PU) every such greedy table is built, and the one kept that leaves the fewest (PU, cycle) pairs with one
  // direction only, then has the soonest estimated completion (the requested policy, scored by completion, on a tie).
  // With scheduled switching the matched supply (matched_supply.cpp) guarantees max_c ⌊m_c/2⌋ + 2 steps where it
  // applies (simple cycles, two sources for every pair); its work grows as P · m, so above whole_supply_limit PUs it is
  // built only up to matched_work_limit, and then taken without building the greedy (which has no estimate there).
  std::optional<routing_table> matched;
  std::pair<std::uint64_t, std::uint64_t> matched_estimate;
  if (policy == supply_policy::scheduled && one_packet) {
    std::uint64_t longest = 0;
    for (const torus_cycle& cy : system.cycles) longest = std::max<std::uint64_t>(longest, cy.length());
    const bool small = system.network.size() <= whole_supply_limit;
    if (small || static_cast<std::uint64_t>(system.network.size()) * longest <= matched_work_limit) {
      matched = matched_cycle_routing(system, &matched_estimate);
      if (matched && !small) return std::move(*matched);
    }
  }
  // The packet-matched supply (packet_supply.cpp) competes on the same terms, up to whole_supply_limit PUs, closed
  // trails included; its search asks only targets below the best table so far (when that one gives every pair both
  // directions). The greedy may throw (a PU it leaves without a stream): then the packet-matched table, if there is
  // one, is given.
  std::pair<std::uint64_t, std::uint64_t> best_estimate;
  std::optional<routing_table> greedy;
  std::exception_ptr greedy_error;
  try {
    greedy = greedy_cycle_routing(system, policy, one_packet, false, best_estimate);
  } catch (const std::invalid_argument&) {
    greedy_error = std::current_exception();
  }
  std::optional<routing_table> packets;
  std::pair<std::uint64_t, std::uint64_t> packets_estimate;
  if (policy == supply_policy::scheduled && one_packet && system.network.size() <= whole_supply_limit) {
    std::uint64_t below = 0;  // 0: no limit
    const auto limit_by = [&](const std::pair<std::uint64_t, std::uint64_t>& e) {
      if (e.first == 0) below = below == 0 ? e.second : std::min(below, e.second);
    };
    if (greedy) limit_by(best_estimate);
    if (matched) limit_by(matched_estimate);
    if (below != 1) packets = least_packet_matched_routing(system, &packets_estimate, below == 0 ? 0 : below - 1);
  }
  if (!greedy) {
    if (!packets) std::rethrow_exception(greedy_error);
    return std::move(*packets);
  }
  routing_table best = std::move(*greedy);
  if (!one_packet || system.network.size() > whole_supply_limit) return best;  // no estimate to compare
  if (matched && matched_estimate < best_estimate) best = std::move(*matched), best_estimate = matched_estimate;
  if (packets && packets_estimate < best_estimate) best = std::move(*packets), best_estimate = packets_estimate;
  std::vector<supply_policy> policies{policy};
  if (policy == supply_policy::scheduled)
    policies = {policy, supply_policy::one_switch, supply_policy::time_independent};
  if (policy == supply_policy::one_switch) policies = {policy, supply_policy::time_independent};
  for (supply_policy p : policies)
    for (bool by_arrival : {false, true}) {
      if (p == policy && !by_arrival) continue;  // built above
      std::pair<std::uint64_t, std::uint64_t> estimate;
      routing_table other = greedy_cycle_routing(system, p, one_packet, by_arrival, estimate);
      if (estimate < best_estimate) best = std::move(other), best_estimate = estimate;
    }
  return best;
}

}  // namespace dancecard::torus
