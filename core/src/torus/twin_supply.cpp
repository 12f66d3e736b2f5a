// Two packets per PU on partial cycles (twin_cycle_routing in cycles.hpp): Theorems 3 and 4 of Meyer and Sibeyn on
// the cycles of Sections 3.2 and 3.3, which do not pass every PU.
//
// The gap in the paper. With two packets per PU, cycle c carries packet c of every PU on it. A PU off cycle c (the
// column n2 − 2 of Section 3.2: each of its PUs lies on one cycle only) has a packet c that no cycle carries, and the
// paper does not say how it travels. Counting shows how little room there is: on an n1 × n2 torus with n1 even and n2
// odd, a PU must receive 2P − 2 packets over 4 in-links, so n1·n2/2 = P/2 steps (Theorem 3) leave two idle slots.
//
// Twins. A PU u off cycle c hands its packet c in step 1, over a link no cycle uses, to an adjacent PU h on c — its
// host — or, where no PU on c is adjacent over a free link, to a neighbour that relays it to a host in step 2 (a
// bipartite matching of the pairs (u, c) to the places (h, c); a host takes a second twin of one cycle only where one
// per host leaves a pair without, as at the corner of Section 3.3's 5 × 5). The host sends its own packet c on both of
// its cycle-c links in step 1, its twins in the steps after they arrive, and otherwise forwards each of its cycle's
// streams, first in, first out: from the last twin on, with a delay of one more than its twins (port_switch::delay:
// a buffer of one packet per twin and out-port). Along each way of the cycle a host so counts as consecutive
// positions, and the cycle carries all P packets c, as a ring of P positions would: a packet reaches a PU on the ring
// from one way or the other within about P/2 steps (its two distances add up to P, or a little more for a twin).
// Whether every PU on a cycle has the whole ring within the target is checked, per target, by running the rings step
// by step as the table will (run_rings).
//
// Supply. A PU v off cycle c must get the packets c of all other PUs over its free in-links (links no cycle uses).
// Every free in-link x → v and step t is a slot; it can carry what x got on any in-port one to max_switch_delay steps
// before (the cycles' streams, a handed twin, or what x's own supply brought it), or x's own packet in step 1. The
// missing packets of v are matched to its slots (maximum matching, augmenting paths; offers one step old before
// older ones); v is served when every packet is matched. The order of the offers decides how often links switch: the
// plan is made with x's in-ports in a fixed order and in a split one (a PU's two suppliers along an axis prefer
// opposite ways and swap at half the steps, after Section 3.2's strategy), and the one with fewer switches kept.
// Where both leave a PU one way of a cycle only, it is made again with the order reversed on the −x_j out-ports, and
// failing that on every other step (both ways are the locality check_supply asks).
// A PU whose sources are off the cycle too is served in a later pass, from what its neighbours' finished plans bring
// them. Section 3.3's pair at
// distance 2 — two adjacent PUs off the cycle, each with one source on it and the other as its second — relay to
// each other and are planned together (serve_pair). Nothing here is a proof that a target is reachable: the table is
// returned with the target at which every plan is complete, and its step count is the simulator's to tell
// (checkers/torus_check: simulate_gossip runs the delayed switches). On every partial_2d_cycles torus with
// 2 <= n1 <= 30 and odd 5 <= n2 <= 31 (392; bench/twin_sweep.cpp) it gossips in exactly ⌈P/2⌉ steps — Theorems 3 and
// 4's counts; for even P the counting bound ⌈(2P − 2)/4⌉, for odd P one above it.
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
#include "link_rules.hpp"

namespace dancecard::torus {
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
// ring grows by j positions (two suffice on every swept partial torus — the hosts of Section 3.3's corner take two;
// more are taken only where fewer leave a PU without a host).
constexpr std::uint32_t max_twins = 4;
static_assert(max_twins + 1 <= max_switch_delay);

// A packet a host takes: the packet c of a PU off cycle c, which the host sends on both ways of c in step `sent`.
struct twin {
  pu_index owner = 0;         // the PU whose packet it is
  std::uint32_t in = none;    // the host's in-port it arrives on (none: the place is unused)
  std::uint32_t arrives = 0;  // 1: from its owner; 2: relayed by a PU adjacent to both (the owner is two links away)
  std::uint64_t sent = 0;     // the step the host sends it (after its own packet in step 1, in arrival order)
};

struct host_assignment {
  std::vector<std::array<twin, max_twins>> twins;  // [c · P + h]: the packets of cycle c host h takes, in send order
  struct send {
    std::size_t link;  // pu · ports + out-port
    std::uint64_t step;
    std::uint32_t packet, in;  // in: own, or the in-port of a relayed packet (delay 1)
  };
  std::vector<send> sends;  // the hand-overs: step 1 from the owner, step 2 from a relaying PU
  std::uint64_t hosts = 0;
  std::uint64_t double_hosts = 0;  // (host, cycle) places with two twins
  std::uint64_t relayed = 0;       // packets handed over two links
};

// The order in which a sender's in-ports are offered to the matching (it prefers earlier offers): fixed; split —
// reversed on the −x_j out-ports in the first half of the steps and on the +x_j ones in the second, after Section
// 3.2's strategy (one supplier forwards one way, then the other; the other supplier the reverse), which keeps links
// on one stream for long runs (64 × 65: 12,992 switches against 252,480 in the fixed order); by_link — reversed on the
// −x_j out-ports (a PU's two suppliers along an axis then prefer opposite ways); or by_step — reversed on odd steps
// (both ways used on every link, with a switch almost every step).
enum class offer_order { fixed, split, by_link, by_step };

class twin_planner {
 public:
  // rings_from: a planner of the same system and target whose rings (run_rings) this one takes over.
  twin_planner(const cycle_system& system, const cycle_links& links, const host_assignment& hosts, std::uint64_t steps,
               offer_order order, const twin_planner* rings_from = nullptr)
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
        if (!links_.used(u, p)) sends_[u * ports_ + p].assign(T_ + 1, sent{});
    for (const host_assignment::send& h : hosts_.sends)
      if (h.step <= T_) sends_[h.link][h.step] = sent{h.packet, h.in, 1};
    if (rings_from) {
      ring_ = rings_from->ring_;
      rings_complete_ = rings_from->rings_complete_;
    } else {
      run_rings();
    }
  }

  // Does every PU on a cycle get all its P packets of that cycle within T (run_rings)?
  bool cycles_complete() const { return rings_complete_; }

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
          const bool from_behind = w.in == torus::network::opposite(cy.ports[(i + m - 1) % m]);
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
        const std::uint32_t ahead = cy.ports[i], behind = torus::network::opposite(cy.ports[(i + m - 1) % m]);
        t.forward_at(v, ahead) = behind;
        t.forward_at(v, behind) = ahead;
        t.inject_at(v, ahead) = t.inject_at(v, behind) = c;
        const auto& twins = hosts_.twins[c * P_ + v];
        std::uint64_t last = 0;
        for (const twin& w : twins)
          if (w.in != none) last = std::max(last, w.sent);
        if (last == 0) continue;
        for (const auto& [out, in] : {std::pair{ahead, behind}, std::pair{behind, ahead}}) {
          // Step by step until the last twin has left: a twin in its step (from its in-port, as many steps after it
          // arrived), otherwise the oldest stream packet not yet sent (from `in`, as many steps after it arrived);
          // a switch wherever that changes. From then on the stream runs with delay 1 + (twins).
          link_rules rules(t, v, out);
          std::uint64_t next = 1;  // the stream packet that arrived in this step is the next to send
          for (std::uint64_t s = 2; s <= last + 1; ++s) {
            std::uint32_t r = in, dl = 0;
            for (const twin& w : twins)
              if (w.in != none && w.sent == s) r = w.in, dl = static_cast<std::uint32_t>(s - w.arrives);
            if (dl == 0) dl = static_cast<std::uint32_t>(s - next++);
            rules.follow(s, r, dl);
          }
        }
      }
    }
    for (pu_index x = 0; x < P_; ++x)
      for (std::uint32_t o = 0; o < ports_; ++o) {
        const std::vector<sent>& plan = sends_[x * ports_ + o];
        if (plan.empty()) continue;
        if (plan[1].packet != none) t.inject_at(x, o) = plan[1].packet % k_;
        link_rules rules(t, x, o);
        for (std::uint64_t s = 2; s <= T_; ++s)
          if (plan[s].packet != none) rules.follow(s, plan[s].in, plan[s].delay);
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

  // The packet arriving at v on in-port q in step t (1 … T), or none (also: not planned yet; over a cycle link: v
  // sends on no free link, so nobody asks).
  std::uint32_t arrival(pu_index v, std::uint32_t q, std::uint64_t t) const {
    if (t < 1 || t > T_) return none;
    if (!links_.used(v, q)) return sends_[net_.neighbor(v, q) * ports_ + torus::network::opposite(q)][t].packet;
    const std::vector<std::uint32_t>& seq = ring_[v * ports_ + q];
    return seq.empty() ? none : seq[t - 1];
  }

  // Runs both ways of every cycle for T steps, as the table will: a PU sends its own packet in step 1, a host its
  // twins in their steps, and otherwise what came in from behind, first in, first out (a host's queue holds one packet
  // per twin sent). Records what arrives over the cycle links of every PU that sends on a free link (the suppliers'
  // offers), and whether every PU on a cycle has all P packets of it by step T.
  void run_rings() {
    rings_complete_ = true;
    std::vector<char> supplier(P_, 0);
    for (pu_index x = 0; x < P_; ++x)
      for (std::uint32_t o = 0; o < ports_; ++o) supplier[x] |= !links_.used(x, o);
    // What a PU on the cycle holds, one bit per (PU, element): element (x, j) is the packet the PU at position x
    // sends first (j = 0: its own) or as its j-th twin. Bits are laid out by (distance back to x, j) and then by the
    // holder, so that the holders of one step, which get elements about equally far back, touch neighbouring bits.
    constexpr std::size_t slots = max_twins + 1;
    std::vector<std::uint64_t> got, seen;
    std::vector<std::uint32_t> element(P_);  // owner → position · slots + j on the cycle being run
    for (std::uint32_t c = 0; c < k_; ++c) {
      const torus_cycle& cy = system_.cycles[c];
      const std::size_t m = cy.length();
      for (std::size_t i = 0; i < m; ++i) {
        element[cy.pus[i]] = static_cast<std::uint32_t>(i * slots);
        for (std::uint32_t j = 0; j < max_twins; ++j) {
          const twin& w = hosts_.twins[c * P_ + cy.pus[i]][j];
          if (w.in != none) element[w.owner] = static_cast<std::uint32_t>(i * slots + 1 + j);
        }
      }
      got.assign(m, 0);
      seen.assign((m * m * slots + 63) / 64, 0);
      auto take = [&](std::size_t i, std::uint32_t packet) {  // packets of cycle c are owner · k + c
        if (packet == none) return;
        const std::size_t e = element[packet / k_], x = e / slots, back = i >= x ? i - x : i + m - x;
        const std::size_t bit = (back * slots + (e - x * slots)) * m + i;
        std::uint64_t& word = seen[bit >> 6];
        const std::uint64_t mask = std::uint64_t{1} << (bit & 63);
        if (!(word & mask)) word |= mask, ++got[i];
      };
      for (std::size_t i = 0; i < m; ++i) {
        take(i, cy.pus[i] * k_ + c);
        for (const twin& w : hosts_.twins[c * P_ + cy.pus[i]])
          if (w.in != none) take(i, w.owner * k_ + c);
      }
      // per position: the steps its twins leave in and their packets (none: no twin), and the last such step
      std::vector<std::array<std::uint64_t, max_twins>> twin_step(m);
      std::vector<std::array<std::uint32_t, max_twins>> twin_packet(m);
      std::vector<std::uint64_t> last_twin(m, 0);
      for (std::size_t i = 0; i < m; ++i)
        for (std::uint32_t j = 0; j < max_twins; ++j) {
          const twin& w = hosts_.twins[c * P_ + cy.pus[i]][j];
          twin_step[i][j] = w.in != none ? w.sent : 0;
          twin_packet[i][j] = w.owner * k_ + c;
          last_twin[i] = std::max(last_twin[i], twin_step[i][j]);
        }
      constexpr std::size_t room = max_twins + 2;  // a queue never holds more than one packet per twin, plus one
      for (int way = 0; way < 2; ++way) {          // 0: running forward (position i sends to i + 1), 1: backward
        std::vector<std::uint32_t> queue(m * room), out(m);
        std::vector<std::uint32_t> head(m, 0), size(m, 0);
        std::vector<std::vector<std::uint32_t>*> record(m, nullptr);
        for (std::size_t i = 0; i < m; ++i) {
          const pu_index v = cy.pus[i];
          const std::uint32_t q = way == 0 ? torus::network::opposite(cy.ports[(i + m - 1) % m]) : cy.ports[i];
          if (supplier[v]) record[i] = &ring_[v * ports_ + q], record[i]->reserve(T_);
        }
        for (std::uint64_t s = 1; s <= T_; ++s) {
          for (std::size_t i = 0; i < m; ++i) {
            std::uint32_t x = none;
            if (s == 1) {
              x = cy.pus[i] * k_ + c;
            } else {
              if (s <= last_twin[i])
                for (std::uint32_t j = 0; j < max_twins; ++j)
                  if (twin_step[i][j] == s) x = twin_packet[i][j];
              if (x == none && size[i] > 0) x = queue[i * room + head[i]], head[i] = (head[i] + 1) % room, --size[i];
            }
            out[i] = x;
          }
          for (std::size_t i = 0; i < m; ++i) {
            const std::size_t r = way == 0 ? (i + 1 == m ? 0 : i + 1) : (i == 0 ? m - 1 : i - 1);
            if (record[r]) record[r]->push_back(out[i]);
            if (out[i] == none) continue;
            queue[r * room + (head[r] + size[r]) % room] = out[i], ++size[r];
            take(r, out[i]);
          }
        }
      }
      for (std::size_t i = 0; i < m; ++i) rings_complete_ &= got[i] == P_;
    }
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
        const bool reversed = order_ == offer_order::split     ? (o % 2 == 1) != (2 * s > T_)
                              : order_ == offer_order::by_link ? o % 2 == 1
                                                               : order_ == offer_order::by_step && s % 2 == 1;
        for (std::uint32_t delay = 1; delay <= max_switch_delay && delay < s; ++delay)
          for (std::uint32_t r = 0; r < ports_; ++r) {
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
        for (const sent& w : sends_[net_.neighbor(v, p) * ports_ + torus::network::opposite(p)])
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
      if (!links_.used(v, p)) add_slots(slots, net_.neighbor(v, p), torus::network::opposite(p), T_, index, off);
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
    const std::array<std::uint32_t, 2> towards{to_w, torus::network::opposite(to_w)};  // of v to w, of w to v
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
      add_slots(slots, net_.neighbor(pair[side], direct[side]), torus::network::opposite(direct[side]), T_ - 1, index,
                off);
    if (match(slots, missing, index, false) < missing.size()) return false;
    for (int side = 0; side < 2; ++side) {  // the relay links: own packet, then the direct link's packets a step later
      const pu_index x = pair[side];
      const std::vector<sent>& in =
          sends_[net_.neighbor(x, direct[side]) * ports_ + torus::network::opposite(direct[side])];
      std::vector<sent>& out = sends_[x * ports_ + towards[side]];
      out[1] = sent{x * k_ + off[0], own, 1};
      for (std::uint64_t s = 2; s <= T_; ++s)
        if (in[s - 1].packet != none) out[s] = sent{in[s - 1].packet, direct[side], 1};
    }
    return true;
  }

  const cycle_system& system_;
  const torus::network& net_;
  const cycle_links& links_;
  const host_assignment& hosts_;
  std::uint64_t T_;
  offer_order order_;
  pu_index P_ = 0;
  std::uint32_t ports_ = 0, k_ = 0;
  std::vector<std::uint32_t> position_;           // [c · P + pu]: position on cycle c, or none
  std::vector<std::vector<std::uint32_t>> ring_;  // [pu · ports + q]: arrivals over cycle link q (suppliers only)
  bool rings_complete_ = false;
  std::vector<std::vector<sent>> sends_;  // [pu · ports + o]: a free out-link's plan, steps 0 … T
};

// Hosts for every pair (u, c) with u off c: a PU h on c that u reaches over a free link (u hands its packet over in
// step 1), or over two (u → w → h, w relaying it in step 2, where no PU on c is adjacent over a free link — as in 4-D
// zigzag cycles). At most max_twins pairs per host and cycle, one hand-over per link and step: a maximum bipartite
// matching with one place per host first (direct hand-overs tried before relayed ones), then more.
// std::invalid_argument names a pair left without a host.
host_assignment assign_hosts(const cycle_system& system, const cycle_links& links) {
  const torus::network& net = system.network;
  const pu_index P = net.size();
  const std::uint32_t ports = net.ports(), k = static_cast<std::uint32_t>(system.cycles.size());
  std::vector<char> on(static_cast<std::size_t>(k) * P, 0);
  for (std::uint32_t c = 0; c < k; ++c)
    for (pu_index v : system.cycles[c].pus) on[c * P + v] = 1;
  struct route {
    pu_index host;
    std::uint32_t first, second = none;  // u's out-port, and the relaying PU's out-port (none: direct)
  };
  std::vector<std::pair<pu_index, std::uint32_t>> pairs;  // (u, c)
  std::vector<std::vector<route>> routes;
  for (pu_index u = 0; u < P; ++u)
    for (std::uint32_t c = 0; c < k; ++c) {
      if (on[c * P + u]) continue;
      std::vector<route> r;
      for (std::uint32_t p = 0; p < ports; ++p)
        if (!links.used(u, p) && on[c * P + net.neighbor(u, p)]) r.push_back({net.neighbor(u, p), p});
      if (r.empty())  // two links away
        for (std::uint32_t p = 0; p < ports; ++p) {
          if (links.used(u, p)) continue;
          const pu_index w = net.neighbor(u, p);
          for (std::uint32_t q = 0; q < ports; ++q)
            if (!links.used(w, q) && net.neighbor(w, q) != u && on[c * P + net.neighbor(w, q)])
              r.push_back({net.neighbor(w, q), p, q});
        }
      pairs.emplace_back(u, c);
      routes.push_back(std::move(r));
    }
  std::vector<std::uint32_t> taken(static_cast<std::size_t>(k) * P * max_twins, none);  // ((c, h), place) → pair
  std::vector<std::uint32_t> place_of(pairs.size(), none), route_of(pairs.size(), none), visited(pairs.size(), 0);
  // The links a route uses — u's out-link in step 1, a relay's in step 2 — may carry one hand-over each: a route
  // whose link another pair holds is passed over (a constraint beside the matching, so a matching may be missed).
  std::vector<std::uint32_t> first_holder(static_cast<std::size_t>(P) * ports, none),
      second_holder(first_holder.size(), none);
  auto links_of = [&](std::uint32_t a, std::uint32_t r) {
    const route& x = routes[a][r];
    const pu_index u = pairs[a].first;
    const std::size_t first = static_cast<std::size_t>(u) * ports + x.first;
    const std::size_t second =
        x.second == none ? none : static_cast<std::size_t>(net.neighbor(u, x.first)) * ports + x.second;
    return std::pair{first, second};
  };
  auto claim = [&](std::uint32_t a, std::uint32_t r, std::uint32_t who) {
    const auto [first, second] = links_of(a, r);
    first_holder[first] = who;
    if (second != none) second_holder[second] = who;
  };
  auto links_free = [&](std::uint32_t a, std::uint32_t r) {  // for pair a's route r: held by nobody else
    const auto [first, second] = links_of(a, r);
    return (first_holder[first] == none || first_holder[first] == a) &&
           (second == none || second_holder[second] == none || second_holder[second] == a);
  };
  std::uint32_t round = 0, places = 1;
  auto augment = [&](auto& self, std::uint32_t a) -> bool {
    const std::uint32_t c = pairs[a].second;
    for (std::uint32_t j = 0; j < places; ++j)
      for (std::uint32_t r = 0; r < routes[a].size(); ++r) {
        if (!links_free(a, r)) continue;
        const std::size_t place = (static_cast<std::size_t>(c) * P + routes[a][r].host) * max_twins + j;
        const std::uint32_t holder = taken[place];
        if (holder != none && (visited[holder] == round || (visited[holder] = round, !self(self, holder)))) continue;
        if (!links_free(a, r)) continue;  // the holder, moved, may have claimed this route's links meanwhile
        if (place_of[a] != none) taken[place_of[a]] = none, claim(a, route_of[a], none);
        taken[place] = a;
        place_of[a] = static_cast<std::uint32_t>(place);
        route_of[a] = r;
        claim(a, r, a);
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
        throw std::invalid_argument("twin hand-over: PU " + std::to_string(u) + " is off cycle " + std::to_string(c) +
                                    (routes[a].empty()
                                         ? " and no PU on it is within two free links"
                                         : " and every PU on it within reach over free links already takes " +
                                               std::to_string(max_twins) + " packets of it"));
      }
    }
  // The matching left every link with one hand-over per step (links_free), so the sends below never collide.
  host_assignment out;
  out.twins.assign(static_cast<std::size_t>(k) * P, {});
  for (std::uint32_t a = 0; a < pairs.size(); ++a) {
    const auto [u, c] = pairs[a];
    const route& r = routes[a][route_of[a]];
    const std::uint32_t packet = u * k + c;
    const auto [first, second] = links_of(a, route_of[a]);
    out.sends.push_back({first, 1, packet, own});
    twin w{u, 0, 1, 0};
    if (r.second == none) {
      w.in = torus::network::opposite(r.first);
    } else {
      out.sends.push_back({second, 2, packet, torus::network::opposite(r.first)});
      w.in = torus::network::opposite(r.second), w.arrives = 2;
      ++out.relayed;
    }
    auto& twins = out.twins[c * P + r.host];
    *std::find_if(twins.begin(), twins.end(), [](const twin& x) { return x.in == none; }) = w;
    ++out.hosts;
  }
  for (auto& twins : out.twins) {  // send steps: in arrival order, each in the first step after it arrived
    std::stable_sort(twins.begin(), twins.end(), [](const twin& a, const twin& b) {
      return (a.in != none) > (b.in != none) || ((a.in != none) == (b.in != none) && a.arrives < b.arrives);
    });
    std::uint64_t step = 1;
    for (twin& w : twins)
      if (w.in != none) step = std::max<std::uint64_t>(step + 1, w.arrives + 1), w.sent = step;
    out.double_hosts += twins[1].in != none;
  }
  return out;
}

}  // namespace

twin_routing_result twin_cycle_routing(const cycle_system& system, std::uint64_t max_steps) {
  const torus::network& net = system.network;
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
  // The plan at target T: with a sender's in-ports offered in the split order and in the fixed one, the plan with both
  // ways of every cycle for every PU and fewer switches kept; where neither gives both ways, again with the order
  // reversed on one of a PU's suppliers, then on every other step (both ways, a switch almost every step).
  auto attempt = [&](std::uint64_t T) -> std::optional<twin_routing_result> {
    std::optional<twin_planner> rings;  // the first planner: its rings serve the others
    std::optional<twin_routing_result> best;
    bool best_local = false;
    for (offer_order order : {offer_order::split, offer_order::fixed, offer_order::by_link, offer_order::by_step}) {
      if (best_local && order != offer_order::fixed) break;  // the fallbacks only where no plan so far is local
      twin_planner planner(system, links, hosts, T, order, rings ? &*rings : nullptr);
      if (!planner.cycles_complete()) return std::nullopt;  // the rings do not depend on the order
      if (planner.plan()) {
        const bool local = planner.both_ways();
        twin_routing_result r{planner.table(), T, hosts.hosts, hosts.double_hosts, hosts.relayed};
        if (!best || (local && !best_local) ||
            (local == best_local && r.table.switches.size() < best->table.switches.size()))
          best = std::move(r), best_local = local;
      }
      if (!rings) rings.emplace(std::move(planner));
    }
    return best;
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

}  // namespace dancecard::torus
