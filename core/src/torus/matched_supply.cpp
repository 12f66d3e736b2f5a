// The matched supply (matched_cycle_routing in cycles.hpp): every PU off a cycle gets that cycle's packets from two
// sources over free links, each source an adjacent PU on the cycle (direct, delay 1) or an adjacent PU that gets the
// cycle directly (relay, delay 2), and the supplying links switch streams step by step as a perfect matching of the
// cycle's positions to (source, step) slots asks.
//
// Why a perfect matching exists. Number the positions of cycle c (length m) 0 … m − 1. A direct source u at position
// i holds, after step s, the packets of positions i − s (forward stream) and i + s (backward stream); the link u → v
// can bring v one of them in step s + 1 (s = 0: u's own packet). So every position has exactly one earliest slot per
// source (step = its cycle distance from u, + 1), and every slot offers at most two positions (i ± s). A relay x that
// gets the cycle from two direct sources by such a matching receives every position exactly once among its matched
// slots, at most two per step; the link x → v can bring v one of the positions x received in step τ, in step τ + 1.
// So, for v with two sources, the bipartite graph positions × slots has every position of degree exactly 2 (one slot
// per source) and every slot of degree at most 2. For any set S of positions, the 2|S| edges leaving S end in slots
// of degree <= 2, so S has at least |S| neighbours: Hall's condition holds and every position can be given a slot
// of its own. The latest slot used is step ⌊m/2⌋ + 1 for direct sources and ⌊m/2⌋ + 2 for relays, and a PU on the
// cycle has its packets after ⌊m/2⌋ steps: gossip completes within max_c ⌊m_c/2⌋ + 2 steps, Theorem 7's
// (1 + d/n_d)·P/(2d) + 2 on the zigzag cycles (all of length (1 + d/n_d)·P/d), whenever every (PU, cycle) pair gets
// two sources. Whether they do is a question of allocating each PU's free in-links; with 2d ports, cycles using two
// of them at every PU they pass and d − k cycles to get at a PU on k of them, the 2d − 2k free links are exactly
// enough on simple zigzag cycles, so the allocation below is exhaustive per PU and iterates until the pairs' levels
// settle. Where a PU's free links leave a pair no relay of a direct pair (5-D tori such as 5 × 3 × 2 × 5 × 5), a relay
// of a relayed pair serves it (level 3, one step later still). A bottleneck on the matchings (no slot after step
// ⌊m/2⌋ + L − 1 at level L, where a matching allows it) lets the relays finish one step sooner: ⌊m/2⌋ + 1 in all
// where relays of direct pairs suffice and every direct pair got its bottleneck.
#include "dancecard/core/torus/cycles.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dancecard::torus {
namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

// A perfect matching of `points` points, each offered exactly two slots (slot_of[y][0] != slot_of[y][1]), to slots
// offered to at most two points each. Degree-1 vertices are matched first (a point with one slot left must take it;
// a slot offered to one point left can take it without loss: swap it into any perfect matching); what remains has
// every vertex of degree 2 — even cycles — where any choice extends. Slots s with s mod horizon > limit are closed
// (a bottleneck: no step after limit). Empty when some point is left without a slot (with no slot closed this cannot
// happen under the degree bounds, by Hall's condition; checked anyway).
std::vector<std::uint32_t> match_two_slots(const std::vector<std::array<std::uint32_t, 2>>& slot_of,
                                           std::uint32_t slots, std::uint32_t horizon, std::uint32_t limit) {
  const auto points = static_cast<std::uint32_t>(slot_of.size());
  std::vector<std::array<std::uint32_t, 2>> offered(slots, {none, none});
  for (std::uint32_t y = 0; y < points; ++y)
    for (std::uint32_t k = 0; k < 2; ++k) {
      std::array<std::uint32_t, 2>& o = offered[slot_of[y][k]];
      if (o[0] == none)
        o[0] = y;
      else if (o[1] == none)
        o[1] = y;
      else
        return {};  // a slot offered to three points: outside the argument
    }
  std::vector<std::uint32_t> slot(points, none);
  std::vector<char> used(slots, 0);
  std::vector<std::uint32_t> forced_points, leaf_slots;
  auto left_of = [&](std::uint32_t y) {  // slots still open to point y
    return static_cast<std::uint32_t>(!used[slot_of[y][0]]) + static_cast<std::uint32_t>(!used[slot_of[y][1]]);
  };
  auto open_points = [&](std::uint32_t s) {  // unmatched points still offered slot s
    std::uint32_t n = 0;
    for (std::uint32_t y : offered[s]) n += y != none && slot[y] == none;
    return n;
  };
  bool failed = false;
  auto take = [&](std::uint32_t y, std::uint32_t s) {
    slot[y] = s;
    used[s] = 1;
    for (std::uint32_t z : offered[s])  // the other point of s loses it
      if (z != none && slot[z] == none) {
        const std::uint32_t left = left_of(z);
        if (left == 0) failed = true;
        if (left == 1) forced_points.push_back(z);
      }
    for (std::uint32_t t : slot_of[y])  // y's other slot loses y
      if (!used[t] && open_points(t) == 1) leaf_slots.push_back(t);
  };
  for (std::uint32_t s = 0; s < slots; ++s) used[s] = s % horizon > limit;
  for (std::uint32_t y = 0; y < points; ++y) {
    if (left_of(y) == 0) return {};
    if (left_of(y) == 1) forced_points.push_back(y);
  }
  for (std::uint32_t s = 0; s < slots; ++s)
    if (!used[s] && open_points(s) == 1) leaf_slots.push_back(s);
  std::uint32_t next = 0;  // the next point to start a cycle from
  while (!failed) {
    if (!forced_points.empty()) {
      const std::uint32_t y = forced_points.back();
      forced_points.pop_back();
      if (slot[y] != none) continue;
      take(y, !used[slot_of[y][0]] ? slot_of[y][0] : slot_of[y][1]);
    } else if (!leaf_slots.empty()) {
      const std::uint32_t s = leaf_slots.back();
      leaf_slots.pop_back();
      if (used[s] || open_points(s) != 1) continue;
      take(offered[s][offered[s][0] != none && slot[offered[s][0]] == none ? 0 : 1], s);
    } else {
      while (next < points && slot[next] != none) ++next;
      if (next == points) break;
      if (left_of(next) == 0) return {};
      take(next, !used[slot_of[next][0]] ? slot_of[next][0] : slot_of[next][1]);
    }
  }
  if (failed) return {};
  return slot;
}

}  // namespace

std::optional<routing_table> matched_cycle_routing(const cycle_system& system,
                                                   std::pair<std::uint64_t, std::uint64_t>* estimate) {
  const torus::network& net = system.network;
  const pu_index P = net.size();
  const std::uint32_t ports = net.ports();
  const auto C = static_cast<std::uint32_t>(system.cycles.size());
  if (C == 0 || C > 64) return std::nullopt;
  const cycle_links links = map_cycle_links(system);
  if (links.shared)
    throw std::invalid_argument("matched supply: the cycles share the link leaving PU " +
                                std::to_string(links.shared->pu) + " by port " + std::to_string(links.shared->port));
  // where[v · C + c]: v's position on cycle c, or none; a closed trail (a PU passed twice) is outside the argument
  std::vector<std::uint32_t> where(static_cast<std::size_t>(P) * C, none);
  std::vector<std::uint64_t> on(P, 0);
  for (std::uint32_t c = 0; c < C; ++c) {
    const torus_cycle& cy = system.cycles[c];
    if (cy.length() < 2 || cy.length() >= none) return std::nullopt;
    for (std::size_t i = 0; i < cy.length(); ++i) {
      std::uint32_t& w = where[static_cast<std::size_t>(cy.pus[i]) * C + c];
      if (w != none) return std::nullopt;
      w = static_cast<std::uint32_t>(i);
      on[cy.pus[i]] |= std::uint64_t{1} << c;
    }
  }
  for (pu_index v = 0; v < P; ++v)
    if (on[v] == 0) return std::nullopt;  // its packet never leaves
  auto is_on = [&](pu_index v, std::uint32_t c) { return (on[v] >> c & 1) != 0; };

  // Allocation: source[(v · C + c) · 2 + k] = the in-port of v bringing cycle c (k = 0, 1), for every c v is off.
  // level[v · C + c]: 1 when both sources are on the cycle, else 1 + the deepest level among its relays' source pairs
  // (so a relay's pair is levelled lower than the pairs it serves, and relays form no cycle), at most `deepest`.
  // Optimistic start — level 1 where two adjacent PUs on the cycle are over free links, unknown elsewhere — then per
  // PU the assignment with the least deepest level, then the least sum, given the others' levels (exhaustive, at
  // most max_nodes partial assignments), pass after pass until no level changes (at most max_passes). A PU whose
  // relays' pairs have no level yet (they come later in the pass, or next pass) is left for the next pass; the
  // allocation stands only when a pass changes no level and leaves no PU without an assignment (a pass that changes
  // nothing and still leaves one would repeat itself: the supply declines).
  constexpr std::uint32_t deepest = 3, max_passes = 64;
  constexpr std::uint64_t max_nodes = 1u << 16;
  std::vector<std::uint32_t> source(static_cast<std::size_t>(P) * C * 2, none);
  std::vector<std::uint32_t> level(static_cast<std::size_t>(P) * C, none);
  for (pu_index v = 0; v < P; ++v)
    for (std::uint32_t c = 0; c < C; ++c) {
      if (is_on(v, c)) continue;
      std::uint32_t n = 0;
      for (std::uint32_t p = 0; p < ports; ++p) n += !links.used(v, p) && is_on(net.neighbor(v, p), c);
      if (n >= 2) level[static_cast<std::size_t>(v) * C + c] = 1;
    }
  bool stable = false, complete = false;
  for (std::uint32_t pass = 0; pass < max_passes && !stable; ++pass) {
    stable = complete = true;
    for (pu_index v = 0; v < P; ++v) {
      std::vector<std::uint32_t> need, free_ports;
      for (std::uint32_t c = 0; c < C; ++c)
        if (!is_on(v, c)) need.push_back(c);
      if (need.empty()) continue;
      for (std::uint32_t p = 0; p < ports; ++p)
        if (!links.used(v, p)) free_ports.push_back(p);
      // the level a source over port p gives toward cycle c: 0 on the cycle, the relay's pair level, none if unusable
      auto source_level = [&](std::uint32_t p, std::uint32_t c) -> std::uint32_t {
        const pu_index x = net.neighbor(v, p);
        if (is_on(x, c)) return 0;
        const std::uint32_t l = level[static_cast<std::size_t>(x) * C + c];
        return l < deepest ? l : none;
      };
      std::vector<char> taken(ports, 0);
      std::vector<std::array<std::uint32_t, 2>> choice(need.size()), best;
      std::pair<std::uint32_t, std::uint32_t> best_score{none, none};  // (deepest level, level sum)
      std::uint64_t nodes = 0;
      std::function<void(std::size_t, std::uint32_t, std::uint32_t)> place = [&](std::size_t k, std::uint32_t top,
                                                                                 std::uint32_t sum) {
        if (++nodes > max_nodes || std::make_pair(top, sum) >= best_score) return;  // nothing better below
        if (k == need.size()) {
          best_score = {top, sum}, best = choice;
          return;
        }
        for (std::size_t a = 0; a < free_ports.size(); ++a)
          for (std::size_t b = a + 1; b < free_ports.size(); ++b) {
            const std::uint32_t p = free_ports[a], q = free_ports[b];
            if (taken[p] || taken[q]) continue;
            const std::uint32_t lp = source_level(p, need[k]), lq = source_level(q, need[k]);
            if (lp == none || lq == none) continue;
            const std::uint32_t l = 1 + std::max(lp, lq);
            taken[p] = taken[q] = 1;
            choice[k] = {p, q};
            place(k + 1, std::max(top, l), sum + l);
            taken[p] = taken[q] = 0;
          }
      };
      place(0, 0, 0);
      if (best.empty()) {  // some pair has no two sources given the levels so far
        complete = false;
        continue;
      }
      for (std::size_t k = 0; k < need.size(); ++k) {
        const std::size_t pair = static_cast<std::size_t>(v) * C + need[k];
        source[pair * 2] = best[k][0];
        source[pair * 2 + 1] = best[k][1];
        const std::uint32_t l = 1 + std::max(source_level(best[k][0], need[k]), source_level(best[k][1], need[k]));
        if (level[pair] != l) level[pair] = l, stable = false;
      }
    }
  }
  if (!stable || !complete) return std::nullopt;  // the levels did not settle, or some pair has no two sources

  routing_table t = cycle_table(system);  // the cycles: both directions through every PU on them
  // plan[out-link]: (step, in-port) the supplying out-link must forward at that step (steps >= 2)
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> plan(static_cast<std::size_t>(P) * ports);
  // arrival[v · C + c] for a direct pair some relay uses: per position, the step it reaches v and the in-port
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> arrival(static_cast<std::size_t>(P) * C);
  std::vector<char> relayed(static_cast<std::size_t>(P) * C, 0);
  for (pu_index v = 0; v < P; ++v)
    for (std::uint32_t c = 0; c < C; ++c)
      if (!is_on(v, c))
        for (std::uint32_t k = 0; k < 2; ++k) {
          const pu_index x = net.neighbor(v, source[(static_cast<std::size_t>(v) * C + c) * 2 + k]);
          if (!is_on(x, c)) relayed[static_cast<std::size_t>(x) * C + c] = 1;
        }
  std::uint64_t latest = 0, one_way = 0;
  for (std::uint32_t c = 0; c < C; ++c) latest = std::max<std::uint64_t>(latest, system.cycles[c].length() / 2);
  // Level by level (a relay reads the arrivals of its own pair, levelled lower).
  for (std::uint32_t round = 1; round <= deepest; ++round)
    for (pu_index v = 0; v < P; ++v)
      for (std::uint32_t c = 0; c < C; ++c) {
        const std::size_t pair = static_cast<std::size_t>(v) * C + c;
        if (is_on(v, c) || level[pair] != round) continue;
        const torus_cycle& cy = system.cycles[c];
        const auto m = static_cast<std::uint32_t>(cy.length());
        const std::uint32_t horizon = m / 2 + deepest + 1;  // steps 0 … m/2 + deepest per source
        std::vector<std::array<std::uint32_t, 2>> slot_of(m);
        // what a slot brings: per source and step, the position → (in-port at the source, +1 forward / −1 backward)
        std::array<pu_index, 2> from{};
        std::array<std::uint32_t, 2> out_port{};
        std::vector<std::uint32_t> via(2 * static_cast<std::size_t>(m),
                                       none);  // [k · m + y]: the source's in-port bringing y
        std::vector<signed char> way(2 * static_cast<std::size_t>(m), 0);
        for (std::uint32_t k = 0; k < 2; ++k) {
          const std::uint32_t p = source[pair * 2 + k];
          from[k] = net.neighbor(v, p);
          out_port[k] = torus::network::opposite(p);
          if (is_on(from[k], c)) {
            const std::uint32_t i = where[static_cast<std::size_t>(from[k]) * C + c];
            const std::uint32_t pred_port = torus::network::opposite(cy.ports[(i + m - 1) % m]),
                                succ_port = cy.ports[i];
            for (std::uint32_t y = 0; y < m; ++y) {
              const std::uint32_t behind = (i + m - y) % m, ahead = (y + m - i) % m;  // forward and backward distances
              const bool forward = behind <= ahead;
              const std::uint32_t s = forward ? behind : ahead;
              slot_of[y][k] = k * horizon + s + 1;  // arrives at v in step s + 1
              via[k * m + y] = s == 0 ? none : forward ? pred_port : succ_port;
              way[k * m + y] = static_cast<signed char>(s == 0    ? 0
                                                        : forward ? 1
                                                                  : -1);  // 0: the source's own packet, no stream
            }
          } else {  // a relay: one step after the position reached the relay
            const std::vector<std::pair<std::uint32_t, std::uint32_t>>& got =
                arrival[static_cast<std::size_t>(from[k]) * C + c];
            if (got.size() != m) throw std::logic_error("matched supply: a relay's source pair has no arrivals");
            for (std::uint32_t y = 0; y < m; ++y) {
              slot_of[y][k] = k * horizon + got[y].first + 1;
              via[k * m + y] = got[y].second & 0x3fffffffu;
              way[k * m + y] = static_cast<signed char>(static_cast<int>(got[y].second >> 30) - 1);  // the relay's way
            }
          }
        }
        // A pair of level L first tries to bring everything within ⌊m/2⌋ + L − 1 steps, so that a relay of it brings
        // everything within ⌊m/2⌋ + L (then a pair of level L + 1 has its matching within that by the same Hall
        // argument); failing that, the matching without a bottleneck, whose latest slot is ⌊m/2⌋ + L at most (a
        // source pair of level L − 1 brings everything by ⌊m/2⌋ + L − 1 either way).
        std::vector<std::uint32_t> slot = match_two_slots(slot_of, 2 * horizon, horizon, m / 2 + round - 1);
        if (slot.empty()) slot = match_two_slots(slot_of, 2 * horizon, horizon, horizon);
        if (slot.size() != m)
          throw std::logic_error("matched supply: no perfect matching for PU " + std::to_string(v) + " and cycle " +
                                 std::to_string(c));
        bool up = false, down = false;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> mine;
        if (relayed[pair]) mine.resize(m);
        for (std::uint32_t y = 0; y < m; ++y) {
          const std::uint32_t k = slot[y] / horizon, step = slot[y] % horizon;
          latest = std::max<std::uint64_t>(latest, step);
          if (way[k * m + y] != 0) (way[k * m + y] > 0 ? up : down) = true;
          const std::uint32_t in = via[k * m + y];
          if (step == 1)
            t.inject_at(from[k], out_port[k]) = 0;  // the source's own packet
          else
            plan[static_cast<std::size_t>(from[k]) * ports + out_port[k]].emplace_back(step, in);
          // v's in-port, and the way in the top two bits (0 backward, 1 none, 2 forward)
          if (relayed[pair])
            mine[y] = {step, source[pair * 2 + k] | static_cast<std::uint32_t>(way[k * m + y] + 1) << 30};
        }
        if (!(up && down)) {  // every matched slot runs one way: an unused slot that offers the other way forwards it
          std::vector<char> taken(2 * static_cast<std::size_t>(horizon), 0);
          for (std::uint32_t y = 0; y < m; ++y) taken[slot[y]] = 1;
          const signed char missing = up ? -1 : 1;
          for (std::uint32_t k = 0; k < 2 && !(up && down); ++k)
            for (std::uint32_t y = 0; y < m && !(up && down); ++y) {
              const std::uint32_t sl = slot_of[y][k];
              if (taken[sl] || sl % horizon < 2 || way[k * m + y] != missing) continue;
              plan[static_cast<std::size_t>(from[k]) * ports + out_port[k]].emplace_back(sl % horizon, via[k * m + y]);
              up = down = true;  // a duplicate of y, the other way
            }
        }
        one_way += !(up && down);
        if (relayed[pair]) arrival[pair] = std::move(mine);
      }
  // The supplying links: the in-port of their first planned step from step 2 on, a switch wherever it changes.
  for (pu_index x = 0; x < P; ++x)
    for (std::uint32_t o = 0; o < ports; ++o) {
      std::vector<std::pair<std::uint32_t, std::uint32_t>>& steps = plan[static_cast<std::size_t>(x) * ports + o];
      if (steps.empty()) continue;
      std::sort(steps.begin(), steps.end());
      for (std::size_t k = 1; k < steps.size(); ++k)
        if (steps[k].first == steps[k - 1].first) throw std::logic_error("matched supply: two positions in one slot");
      t.inject_at(x, o) = 0;
      t.forward_at(x, o) = steps.front().second;
      for (std::size_t k = 1; k < steps.size(); ++k)
        if (steps[k].second != steps[k - 1].second)
          t.switches.push_back(port_switch{x, o, steps[k].first, steps[k].second});
    }
  if (estimate) *estimate = {one_way, latest};
  return t;
}

}  // namespace dancecard::torus
