// Two packets per PU on partial cycles (twin_cycle_routing in cycles.hpp): Theorems 3 and 4 of Meyer and Sibeyn on
// the cycles of Sections 3.2 and 3.3, which do not pass every PU.
//
// The gap in the paper. With two packets per PU, cycle c carries packet c of every PU on it. A PU off cycle c (the
// column n2 − 2 of Section 3.2: each of its PUs lies on one cycle only) has a packet c that no cycle carries, and the
// paper does not say how it travels. Counting shows how little room there is: on an n1 × n2 torus with n1 even and n2
// odd, a PU must receive 2P − 2 packets over 4 in-links, so n1·n2/2 = P/2 steps (Theorem 3) leave two idle slots.
//
// Twins. A PU u off cycle c hands its packet c in step 1, over a link no cycle uses, to an adjacent PU h on c — its
// host (a bipartite matching of the pairs (u, c) to the places (h, c); a host takes a second twin of one cycle only
// where one per host leaves a pair without, as at the corner of Section 3.3's 5 × 5). The host sends its own packet c
// on both of its cycle-c links in step 1, its twins in the next steps, and then forwards each of its cycle's streams
// with a delay of one more than its twins (port_switch::delay: a buffer of one packet per twin and out-port). Along
// each way of the cycle a host so counts as consecutive positions, and the cycle carries all P packets c, as a ring of
// P positions would: a packet reaches a PU on the ring from one way or the other within about P/2 steps (its two
// distances add up to P, or a little more for a twin, which follows its host's own packet on both ways). Whether
// every PU on a cycle has the whole ring within the target is checked, per target, by walking the streams.
//
// Supply. A PU v off cycle c must get the packets c of all other PUs over its free in-links (links no cycle uses).
// Every free in-link x → v and step t is a slot; it can carry what x got on any in-port one to max_switch_delay steps
// before (the cycles' streams, a handed twin, or what x's own supply brought it), or x's own packet in step 1. The
// missing packets of v are matched to its slots (maximum matching, augmenting paths; offers one step old before
// older ones); v is served when every packet is matched. Where that leaves a PU one way of a cycle only, the plan is
// made again with x's in-ports offered in the reverse order on its −x_j out-ports, so that a PU's two suppliers along
// an axis prefer opposite ways, and failing that on every other step (both ways are the locality check_supply asks).
// A PU whose sources are off the cycle too is served in a later pass, from what its neighbours' finished plans bring
// them. Section 3.3's pair at
// distance 2 — two adjacent PUs off the cycle, each with one source on it and the other as its second — relay to
// each other and are planned together (serve_pair). Nothing here is a proof that a target is reachable: the table is
// returned with the target at which every plan is complete, and its step count is the simulator's to tell
// (checkers/torus_check: simulate_gossip runs the delayed switches). On every partial_2d_cycles torus with
// 2 <= n1 <= 30 and odd 5 <= n2 <= 31 (392) it gossips in exactly ⌈P/2⌉ steps — Theorems 3 and 4's counts; for even
// P the counting bound ⌈(2P − 2)/4⌉, for odd P one above it.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dancecard/core/torus/cycles.hpp"

namespace dancecard {
namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t own = none - 1;  // "in-port" of a PU's own packet (sent in step 1)

// What a free out-link sends in one step: a packet, and the in-port (own: a packet of the sender's own) and delay
// it is taken from.
struct sent {
  std::uint32_t packet = none;
  std::uint32_t in = none;
  std::uint32_t delay = 1;
};

// One option of a slot.
struct offer {
  std::uint32_t packet, in, delay;
};

// At most this many twins per host and cycle: a host with j twins forwards its streams with delay j + 1, and its
// ring grows by j positions (two suffice on every swept partial torus; the hosts of Section 3.3's corner take two).
constexpr std::uint32_t max_twins = 2;
static_assert(max_twins + 1 <= max_switch_delay);

struct host_assignment {
  std::vector<std::array<std::uint32_t, max_twins>> twin_port;  // [c · P + h]: the in-ports of h its twins of cycle c
                                                                // arrive on (in the order it sends them), or none
  std::vector<std::uint32_t> handover;  // [u · ports + p]: the cycle whose packet u hands over port p, or none
  std::uint64_t hosts = 0;
  std::uint64_t double_hosts = 0;  // (host, cycle) places with two twins
};

// The order in which a sender's in-ports are offered to the matching (it prefers earlier offers): fixed; reversed on
// the out-ports −x_j (a PU's two suppliers along one axis then prefer opposite ways, as in Section 3.2's strategy);
// or reversed on odd steps (both ways used on every link, with a switch almost every step).
enum class offer_order { fixed, by_link, by_step };

class twin_planner {
 public:
  twin_planner(const cycle_system& system, const cycle_links& links, const host_assignment& hosts, std::uint64_t steps,
               offer_order order)
      : system_(system), net_(system.network), links_(links), hosts_(hosts), T_(steps), order_(order) {
    P_ = net_.size();
    ports_ = net_.ports();
    k_ = static_cast<std::uint32_t>(system.cycles.size());
    position_.assign(static_cast<std::size_t>(k_) * P_, none);
    for (std::uint32_t c = 0; c < k_; ++c)
      for (std::size_t i = 0; i < system.cycles[c].length(); ++i)
        position_[c * P_ + system.cycles[c].pus[i]] = static_cast<std::uint32_t>(i);
    ring_.resize(static_cast<std::size_t>(P_) * ports_);
    sends_.resize(static_cast<std::size_t>(P_) * ports_);
    for (pu_index u = 0; u < P_; ++u)
      for (std::uint32_t p = 0; p < ports_; ++p)
        if (!links_.used(u, p)) {
          sends_[u * ports_ + p].assign(T_ + 1, sent{});
          if (hosts_.handover[u * ports_ + p] != none)
            sends_[u * ports_ + p][1] = sent{u * k_ + hosts_.handover[u * ports_ + p], own, 1};
        }
  }

  // Does every PU on a cycle get all its P packets within T? (Walks both ways of each stream.)
  bool cycles_complete() {
    std::vector<std::uint32_t> seen(static_cast<std::size_t>(P_) * k_, none);
    std::uint32_t stamp = 0;
    for (std::uint32_t c = 0; c < k_; ++c) {
      const torus_cycle& cy = system_.cycles[c];
      const std::size_t m = cy.length();
      for (std::size_t i = 0; i < m; ++i, ++stamp) {
        const pu_index v = cy.pus[i];
        std::uint64_t got = 0;
        auto take = [&](std::uint32_t x) {
          if (x != none && seen[x] != stamp) seen[x] = stamp, ++got;
        };
        take(v * k_ + c);
        for (std::uint32_t twin : hosts_.twin_port[c * P_ + v])
          if (twin != none) take(net_.neighbor(v, twin) * k_ + c);
        const std::uint32_t behind = torus::opposite(cy.ports[(i + m - 1) % m]), ahead = cy.ports[i];
        for (std::uint64_t t = 1; t <= T_; ++t) take(arrival(v, behind, t)), take(arrival(v, ahead, t));
        if (got < P_) return false;
      }
    }
    return true;
  }

  // Plans the supply of every PU off some cycle, pass after pass. A pass serves every PU whose whole plan can be
  // matched now; when a pass serves nobody (PUs that relay to each other, as Section 3.3's pair at distance 2 from
  // a cycle), every waiting PU commits the part of its plan that matches, so that its neighbours see what it will
  // hold. False when a pass commits nothing.
  bool plan() {
    std::vector<pu_index> waiting;
    for (pu_index v = 0; v < P_; ++v)
      if (!off_cycles(v).empty()) waiting.push_back(v);
    bool partial = false;
    while (!waiting.empty()) {
      std::vector<pu_index> still;
      std::size_t committed = 0;
      if (partial)  // first the pairs at distance 2 that relay to each other, planned together
        for (std::size_t a = 0; a < waiting.size(); ++a)
          for (std::size_t b = a + 1; b < waiting.size(); ++b)
            if (waiting[a] != none && waiting[b] != none && serve_pair(waiting[a], waiting[b])) {
              waiting[a] = waiting[b] = none;
              committed = 1;
            }
      if (committed != 0) {
        std::erase(waiting, none);
        partial = false;
        continue;
      }
      for (pu_index v : waiting) {
        const auto [done, count] = serve(v, partial);
        committed += count;
        if (!done) still.push_back(v);
      }
      if (committed == 0) {
        if (partial) return false;
        partial = true;
      } else {
        partial = false;
      }
      waiting = std::move(still);
    }
    return true;
  }

  // Does every PU that a PU on cycle c supplies directly with packets of c get both ways of c that way (the
  // locality check_supply asks)?
  bool both_ways() const {
    std::vector<std::uint8_t> ways(static_cast<std::size_t>(k_) * P_, 0);  // bit 0: running forward, bit 1: backward
    for (pu_index x = 0; x < P_; ++x)
      for (std::uint32_t o = 0; o < ports_; ++o)
        for (const sent& w : sends_[x * ports_ + o]) {
          if (w.packet == none || w.in == own || !links_.used(x, w.in)) continue;
          const std::uint32_t c = links_.owner[x * ports_ + w.in];
          const torus_cycle& cy = system_.cycles[c];
          const std::size_t m = cy.length(), i = position_[c * P_ + x];
          const bool from_behind = w.in == torus::opposite(cy.ports[(i + m - 1) % m]);
          ways[c * P_ + net_.neighbor(x, o)] |= from_behind ? 1 : 2;
        }
    return std::none_of(ways.begin(), ways.end(), [](std::uint8_t b) { return b == 1 || b == 2; });
  }

  routing_table table() const {
    const std::size_t entries = static_cast<std::size_t>(P_) * ports_;
    routing_table t{
        net_, k_, std::vector<std::uint32_t>(entries, no_port), std::vector<std::uint32_t>(entries, no_packet), {}};
    for (std::uint32_t c = 0; c < k_; ++c) {
      const torus_cycle& cy = system_.cycles[c];
      const std::size_t m = cy.length();
      for (std::size_t i = 0; i < m; ++i) {
        const pu_index v = cy.pus[i];
        const std::uint32_t ahead = cy.ports[i], behind = torus::opposite(cy.ports[(i + m - 1) % m]);
        t.forward_at(v, ahead) = behind;
        t.forward_at(v, behind) = ahead;
        t.inject_at(v, ahead) = t.inject_at(v, behind) = c;
        const auto& twins = hosts_.twin_port[c * P_ + v];
        const auto count = static_cast<std::uint32_t>(
            std::count_if(twins.begin(), twins.end(), [](std::uint32_t q) { return q != none; }));
        if (count == 0) continue;
        for (const auto& [out, in] : {std::pair{ahead, behind}, std::pair{behind, ahead}}) {
          // The twins, in the steps after the own packet (each arrived in step 1), then the stream, as many steps
          // later than it came as there are twins.
          for (std::uint32_t j = 0; j < count; ++j) t.switches.push_back({v, out, 2 + j, twins[j], 1 + j});
          t.switches.push_back({v, out, 2 + count, in, 1 + count});
        }
      }
    }
    for (pu_index x = 0; x < P_; ++x)
      for (std::uint32_t o = 0; o < ports_; ++o) {
        const std::vector<sent>& plan = sends_[x * ports_ + o];
        if (plan.empty()) continue;
        if (plan[1].packet != none) t.inject_at(x, o) = plan[1].packet % k_;
        std::uint32_t in = no_port, delay = 1;
        for (std::uint64_t s = 2; s <= T_; ++s) {
          const sent& w = plan[s];
          if (w.packet == none || (w.in == in && w.delay == delay)) continue;
          if (in == no_port && s == 2 && w.delay == 1)
            t.forward_at(x, o) = w.in;
          else
            t.switches.push_back({x, o, s, w.in, w.delay});
          in = w.in, delay = w.delay;
        }
      }
    return t;
  }

 private:
  std::vector<std::uint32_t> off_cycles(pu_index v) const {
    std::vector<std::uint32_t> off;
    for (std::uint32_t c = 0; c < k_; ++c)
      if (position_[c * P_ + v] == none) off.push_back(c);
    return off;
  }

  // The packet arriving at v on in-port q in step t (1 … T), or none (also: not planned yet).
  std::uint32_t arrival(pu_index v, std::uint32_t q, std::uint64_t t) {
    if (t < 1 || t > T_) return none;
    if (!links_.used(v, q)) {
      const std::vector<sent>& plan = sends_[net_.neighbor(v, q) * ports_ + torus::opposite(q)];
      return plan[t].packet;
    }
    std::vector<std::uint32_t>& seq = ring_[v * ports_ + q];
    if (seq.empty()) seq = ring_stream(v, q);
    return seq[t - 1];
  }

  // What arrives at v over cycle link q in steps 1 … T: the packets of the positions behind that link, nearest
  // first, a host's twin right after its own packet.
  std::vector<std::uint32_t> ring_stream(pu_index v, std::uint32_t q) const {
    const std::uint32_t c = links_.owner[v * ports_ + q];
    const torus_cycle& cy = system_.cycles[c];
    const std::size_t m = cy.length(), i = position_[c * P_ + v];
    const bool from_behind = q == torus::opposite(cy.ports[(i + m - 1) % m]);
    std::vector<std::uint32_t> seq;
    seq.reserve(T_);
    for (std::size_t hop = 1; seq.size() < T_; ++hop) {
      const pu_index x = cy.pus[from_behind ? (i + m * T_ - hop) % m : (i + hop) % m];
      seq.push_back(x * k_ + c);
      for (std::uint32_t twin : hosts_.twin_port[c * P_ + x])
        if (twin != none && seq.size() < T_) seq.push_back(net_.neighbor(x, twin) * k_ + c);
    }
    return seq;
  }

  struct slot {
    std::uint32_t link;
    std::uint64_t step;
    std::vector<offer> offers;
  };

  // The open slots of the free link leaving x by out-port o, steps 1 … last, with what they can carry of the packets
  // `index` marks: x's own packets of the cycles in `off` in step 1, later what x got one to max_switch_delay steps
  // before on any other in-port (not from the receiver).
  void add_slots(std::vector<slot>& slots, pu_index x, std::uint32_t o, std::uint64_t last,
                 const std::vector<std::uint32_t>& index, const std::vector<std::uint32_t>& off) {
    const std::uint32_t link = x * ports_ + o;
    for (std::uint64_t s = 1; s <= last; ++s) {
      if (sends_[link][s].packet != none) continue;  // a handover or an earlier commit
      slot sl{link, s, {}};
      if (s == 1) {
        for (std::uint32_t c : off)
          if (index[x * k_ + c] != none) sl.offers.push_back({x * k_ + c, own, 1});
      } else {
        for (std::uint32_t delay = 1; delay <= max_switch_delay && delay < s; ++delay)
          for (std::uint32_t r = 0; r < ports_; ++r) {
            const bool reversed =
                order_ == offer_order::by_link ? o % 2 == 1 : order_ == offer_order::by_step && s % 2 == 1;
            const std::uint32_t q = reversed ? ports_ - 1 - r : r;
            if (q == o) continue;  // from the receiver itself
            const std::uint32_t packet = arrival(x, q, s - delay);
            if (packet != none && index[packet] != none) sl.offers.push_back({packet, q, delay});
          }
      }
      if (!sl.offers.empty()) slots.push_back(std::move(sl));
    }
  }

  // A maximum matching of the slots to the `missing` packets (index: packet → its place in missing), by augmenting
  // paths in phases (Kuhn's algorithm; a phase reuses its visited marks, phases repeat until one finds no path).
  // Commits the matched slots when all are matched or `partial`; returns how many were matched.
  std::size_t match(const std::vector<slot>& slots, const std::vector<std::uint32_t>& missing,
                    const std::vector<std::uint32_t>& index, bool partial) {
    if (slots.size() < missing.size() && !partial) return 0;
    std::vector<std::uint32_t> slot_of(missing.size(), none), chosen(slots.size(), none);
    std::vector<std::uint32_t> visited(missing.size(), 0);
    std::uint32_t phase = 0;
    std::size_t matched = 0;
    auto augment = [&](auto& self, std::uint32_t sl) -> bool {
      for (std::uint32_t k = 0; k < slots[sl].offers.size(); ++k) {
        const std::uint32_t want = index[slots[sl].offers[k].packet];
        if (visited[want] == phase) continue;
        visited[want] = phase;
        if (slot_of[want] == none || self(self, slot_of[want])) {
          slot_of[want] = sl;
          chosen[sl] = k;
          return true;
        }
      }
      return false;
    };
    for (bool grew = true; grew && matched < missing.size();) {
      grew = false;
      ++phase;
      for (std::uint32_t sl = 0; sl < slots.size() && matched < missing.size(); ++sl)
        if (chosen[sl] == none && augment(augment, sl)) ++matched, grew = true;
    }
    if (matched < missing.size() && !partial) return matched;
    for (std::uint32_t want = 0; want < missing.size(); ++want) {
      if (slot_of[want] == none) continue;
      const slot& sl = slots[slot_of[want]];
      const offer& f = sl.offers[chosen[slot_of[want]]];
      sends_[sl.link][sl.step] = sent{f.packet, f.in, f.delay};
    }
    return matched;
  }

  // The packets c of every PU but `except`, for every c in off, not yet on the way to v (index: packet → place).
  std::vector<std::uint32_t> missing_of(pu_index v, const std::vector<pu_index>& except,
                                        const std::vector<std::uint32_t>& off,
                                        std::vector<std::uint32_t>& index) const {
    std::vector<char> planned(static_cast<std::size_t>(P_) * k_, 0);  // already on the way to v (earlier commits)
    for (std::uint32_t p = 0; p < ports_; ++p)
      if (!links_.used(v, p))
        for (const sent& w : sends_[net_.neighbor(v, p) * ports_ + torus::opposite(p)])
          if (w.packet != none) planned[w.packet] = 1;
    std::vector<std::uint32_t> missing;
    for (std::uint32_t c : off)
      for (pu_index u = 0; u < P_; ++u)
        if (std::find(except.begin(), except.end(), u) == except.end() && !planned[u * k_ + c] &&
            index[u * k_ + c] == none)
          index[u * k_ + c] = static_cast<std::uint32_t>(missing.size()), missing.push_back(u * k_ + c);
    return missing;
  }

  // Matches v's missing packets (the packets c of every other PU, for every cycle c v is off) to its open slots;
  // commits the plan when every packet is matched, or (partial) whatever matched. (served, packets committed)
  std::pair<bool, std::size_t> serve(pu_index v, bool partial) {
    const std::vector<std::uint32_t> off = off_cycles(v);
    std::vector<std::uint32_t> index(static_cast<std::size_t>(P_) * k_, none);
    const std::vector<std::uint32_t> missing = missing_of(v, {v}, off, index);
    if (missing.empty()) return {true, 0};
    std::vector<slot> slots;
    for (std::uint32_t p = 0; p < ports_; ++p)
      if (!links_.used(v, p)) add_slots(slots, net_.neighbor(v, p), torus::opposite(p), T_, index, off);
    const std::size_t matched = match(slots, missing, index, partial);
    if (matched < missing.size() && !partial) return {false, 0};
    return {matched == missing.size(), matched};
  }

  // Section 3.3's PUs at distance 2: v and w, off the same single cycle, each with two free in-links — one from the
  // other, one from a PU on the cycle (direct). Neither can be served alone (each waits for what the other will hold),
  // so both are planned at once: the link w → v carries w's own packet in step 1 and then, one step later, whatever
  // w's direct link brings (and v → w likewise), so a packet the direct link into v or w carries by step T − 1 reaches
  // both. One matching of the packets both miss to those direct slots. True when it is complete (then committed).
  bool serve_pair(pu_index v, pu_index w) {
    const std::vector<std::uint32_t> off = off_cycles(v);
    if (off.size() != 1 || off_cycles(w) != off || T_ < 2) return false;
    std::uint32_t to_w = none;  // the port of v towards w
    for (std::uint32_t p = 0; p < ports_; ++p)
      if (net_.neighbor(v, p) == w && !links_.used(v, p)) to_w = p;
    if (to_w == none) return false;
    std::array<std::uint32_t, 2> direct{none, none};  // the in-port of v and of w from its direct source
    const std::array<pu_index, 2> pair{v, w};
    const std::array<std::uint32_t, 2> towards{to_w, torus::opposite(to_w)};  // of v to w, of w to v
    for (int side = 0; side < 2; ++side) {
      const pu_index x = pair[side];
      for (std::uint32_t p = 0; p < ports_; ++p) {
        if (links_.used(x, p) || p == towards[side]) continue;
        const pu_index y = net_.neighbor(x, p);
        if (position_[off[0] * P_ + y] == none || direct[side] != none)
          return false;  // only one source, and on the cycle
        direct[side] = p;
      }
      if (direct[side] == none || sends_[x * ports_ + towards[side]][1].packet != none)
        return false;  // the relay link's step 1 is free
    }
    std::vector<std::uint32_t> index(static_cast<std::size_t>(P_) * k_, none);
    std::vector<std::uint32_t> missing = missing_of(v, {v, w}, off, index);
    if (missing_of(w, {v, w}, off, index).size() != 0 || missing.size() != P_ - 2) return false;  // nothing planned yet
    std::vector<slot> slots;
    for (int side = 0; side < 2; ++side)
      add_slots(slots, net_.neighbor(pair[side], direct[side]), torus::opposite(direct[side]), T_ - 1, index, off);
    if (match(slots, missing, index, false) < missing.size()) return false;
    for (int side = 0; side < 2; ++side) {  // the relay links: own packet, then the direct link's packets a step later
      const pu_index x = pair[side];
      const std::vector<sent>& in = sends_[net_.neighbor(x, direct[side]) * ports_ + torus::opposite(direct[side])];
      std::vector<sent>& out = sends_[x * ports_ + towards[side]];
      out[1] = sent{x * k_ + off[0], own, 1};
      for (std::uint64_t s = 2; s <= T_; ++s)
        if (in[s - 1].packet != none) out[s] = sent{in[s - 1].packet, direct[side], 1};
    }
    return true;
  }

  const cycle_system& system_;
  const torus& net_;
  const cycle_links& links_;
  const host_assignment& hosts_;
  std::uint64_t T_;
  offer_order order_;
  pu_index P_ = 0;
  std::uint32_t ports_ = 0, k_ = 0;
  std::vector<std::uint32_t> position_;           // [c · P + pu]: position on cycle c, or none
  std::vector<std::vector<std::uint32_t>> ring_;  // [pu · ports + q]: arrivals over cycle link q (lazily)
  std::vector<std::vector<sent>> sends_;          // [pu · ports + o]: a free out-link's plan, steps 0 … T
};

// Hosts for every pair (u, c) with u off c: an adjacent PU on c over a free link of u, one handover per link, and
// at most max_twins pairs per host and cycle — a second twin only where one per host leaves a pair without (a maximum
// bipartite matching with one place per host first, then a second; std::invalid_argument names a pair left without).
host_assignment assign_hosts(const cycle_system& system, const cycle_links& links) {
  const torus& net = system.network;
  const pu_index P = net.size();
  const std::uint32_t ports = net.ports(), k = static_cast<std::uint32_t>(system.cycles.size());
  std::vector<char> on(static_cast<std::size_t>(k) * P, 0);
  for (std::uint32_t c = 0; c < k; ++c)
    for (pu_index v : system.cycles[c].pus) on[c * P + v] = 1;
  std::vector<std::pair<pu_index, std::uint32_t>> pairs;  // (u, c)
  for (pu_index u = 0; u < P; ++u)
    for (std::uint32_t c = 0; c < k; ++c)
      if (!on[c * P + u]) pairs.emplace_back(u, c);
  std::vector<std::uint32_t> taken(static_cast<std::size_t>(k) * P * max_twins, none);  // ((c, h), place) → pair
  std::vector<std::uint32_t> place_of(pairs.size(), none), port_of(pairs.size(), none), visited(pairs.size(), 0);
  std::uint32_t round = 0, places = 1;
  auto augment = [&](auto& self, std::uint32_t a) -> bool {
    const auto [u, c] = pairs[a];
    for (std::uint32_t j = 0; j < places; ++j)
      for (std::uint32_t p = 0; p < ports; ++p) {
        const pu_index h = net.neighbor(u, p);
        if (links.used(u, p) || !on[c * P + h]) continue;
        const std::size_t place = (static_cast<std::size_t>(c) * P + h) * max_twins + j;
        const std::uint32_t holder = taken[place];
        if (holder != none && (visited[holder] == round || (visited[holder] = round, !self(self, holder)))) continue;
        if (place_of[a] != none) taken[place_of[a]] = none;
        taken[place] = a;
        place_of[a] = static_cast<std::uint32_t>(place);
        port_of[a] = p;
        return true;
      }
    return false;
  };
  for (; places <= max_twins; ++places)
    for (std::uint32_t a = 0; a < pairs.size(); ++a) {
      if (place_of[a] != none) continue;
      ++round;
      visited[a] = round;
      if (!augment(augment, a) && places == max_twins) {
        const auto [u, c] = pairs[a];
        bool adjacent = false;
        for (std::uint32_t p = 0; p < ports; ++p) adjacent |= !links.used(u, p) && on[c * P + net.neighbor(u, p)];
        throw std::invalid_argument(
            "twin hand-over: PU " + std::to_string(u) + " is off cycle " + std::to_string(c) +
            (adjacent ? " and every adjacent PU on it over a free link already takes " + std::to_string(max_twins) +
                            " packets of it"
                      : " and no adjacent PU over a free link is on it (a hand-over two links away is not built)"));
      }
    }
  host_assignment out;
  out.twin_port.assign(static_cast<std::size_t>(k) * P, {});
  for (auto& twins : out.twin_port) twins.fill(none);
  out.handover.assign(static_cast<std::size_t>(P) * ports, none);
  for (std::uint32_t a = 0; a < pairs.size(); ++a) {
    const auto [u, c] = pairs[a];
    const std::uint32_t p = port_of[a];
    if (out.handover[u * ports + p] != none)
      throw std::invalid_argument("twin hand-over: PU " + std::to_string(u) + " would hand two packets over port " +
                                  std::to_string(p));
    out.handover[u * ports + p] = c;
    auto& twins = out.twin_port[c * P + net.neighbor(u, p)];
    *std::find(twins.begin(), twins.end(), none) = torus::opposite(p);
    out.double_hosts += twins[1] != none;  // its second
    ++out.hosts;
  }
  return out;
}

}  // namespace

twin_routing_result twin_cycle_routing(const cycle_system& system, std::uint64_t max_steps) {
  const torus& net = system.network;
  const pu_index P = net.size();
  const auto k = static_cast<std::uint32_t>(system.cycles.size());
  if (k == 0) throw std::invalid_argument("twin hand-over: the cycle system has no cycle");
  if (P > twin_routing_max_pus)
    throw std::invalid_argument("twin hand-over: " + std::to_string(P) + " PUs, more than " +
                                std::to_string(twin_routing_max_pus));
  const cycle_links links = map_cycle_links(system);
  if (links.shared)
    throw std::invalid_argument("twin hand-over: cycles " + std::to_string(links.shared->first) + " and " +
                                std::to_string(links.shared->second) + " share the link leaving PU " +
                                std::to_string(links.shared->pu) + " by port " + std::to_string(links.shared->port));
  for (std::uint32_t c = 0; c < k; ++c) {
    std::vector<char> passed(P, 0);
    for (pu_index v : system.cycles[c].pus) {
      if (passed[v])
        throw std::invalid_argument("twin hand-over: cycle " + std::to_string(c) + " passes PU " + std::to_string(v) +
                                    " twice (a closed trail)");
      passed[v] = 1;
    }
  }
  const host_assignment hosts = assign_hosts(system, links);
  // No PU gets more than one packet per in-link and step: 2d per step, k·P − k to get.
  const std::uint64_t lower =
      std::max<std::uint64_t>(1, (static_cast<std::uint64_t>(k) * P - k + net.ports() - 1) / net.ports());
  const std::uint64_t last = max_steps != 0 ? max_steps : lower + P;
  // The plan at target T: first with a sender's in-ports in a fixed order (few switches); where that leaves a PU one
  // way of a cycle only, again with the order reversed on one of a PU's suppliers, then on every other step (both
  // ways, a switch almost every step).
  auto attempt = [&](std::uint64_t T) -> std::optional<twin_routing_result> {
    std::optional<twin_planner> kept;
    for (offer_order order : {offer_order::fixed, offer_order::by_link, offer_order::by_step}) {
      twin_planner planner(system, links, hosts, T, order);
      if (!planner.cycles_complete() || !planner.plan()) continue;
      const bool local = planner.both_ways();
      if (!kept || local) kept.emplace(std::move(planner));
      if (local) break;
    }
    if (!kept) return std::nullopt;
    return twin_routing_result{kept->table(), T, hosts.hosts, hosts.double_hosts};
  };
  // Upwards from the counting bound at doubling gaps (lower, lower + 1, lower + 2, lower + 4, …, last), then bisected
  // between the last target that fell short and the first that completed. The plans are heuristic, so a larger target
  // is not known to complete where a smaller one did; the least complete target met is kept. (On the partial cycles
  // the first or second target completes.)
  std::optional<twin_routing_result> best;
  std::uint64_t failed = lower - 1;
  for (std::uint64_t T = std::min(lower, last), gap = 1;; gap *= 2) {
    best = attempt(T);
    if (best) break;
    failed = T;
    if (T >= last) break;
    T = std::min(lower + gap, last);
  }
  if (!best) throw std::invalid_argument("twin hand-over: no plan completes within " + std::to_string(last) + " steps");
  while (failed + 1 < best->steps) {
    const std::uint64_t mid = failed + (best->steps - failed) / 2;
    if (std::optional<twin_routing_result> r = attempt(mid))
      best = std::move(r);
    else
      failed = mid;
  }
  return std::move(*best);
}

}  // namespace dancecard
