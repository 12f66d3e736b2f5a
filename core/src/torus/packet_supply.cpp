// The packet-matched supply (packet_matched_routing in cycles.hpp): one packet per PU, scheduled switching, for any
// edge-disjoint cycle system — closed trails included, where the matched supply (matched_supply.cpp) declines.
//
// The matched supply asks every PU to get every cycle it is off, position by position, from two sources. That is
// more than gossip needs: a PU needs every packet once, and a packet lies on every cycle its PU is on. Where a cycle
// passes a PU twice the PU has too few free links for two sources of each other cycle (docs/torus.md), but it still
// has free in-links enough for the packets: a PU holds the packets of its own cycles after their circulation time,
// and what is left — the packets of PUs on none of its cycles — can be matched, packet by packet, to the slots
// (free in-link, step) that can carry it.
//
// What a slot can carry. The link x → v in step s forwards what arrived at x in step s − 1 on one in-port of x (or,
// in step 1, x's own packet). Those arrivals are fixed on the cycles' links — x at position i of cycle c gets the
// packets of positions i − (s − 1) and i + (s − 1) — and on x's free in-links they are what x's plan says (below).
// One hop further: an in-link y → x of x that x's plan leaves unused in step s − 1 can be given a packet y holds
// fresh in step s − 2, and x then forwards it to v in step s (x gets the packet too, and counts it).
//
// The plan. Every PU keeps, per free in-link and step, the packet it has been promised (committed) and from which
// in-port of the sender it comes. Round after round, every PU with packets still missing builds the bipartite graph
// of its missing packets and its uncommitted slots up to the target step T (direct offers and offers one hop
// further, over uncommitted upstream slots), finds a maximum matching (augmenting paths; direct offers tried first,
// then earlier slots) and commits it, whole or partial. Commitments are never taken back, so every offer a PU reads
// from a neighbour's plan stays true; the rounds end when every PU has every packet or a round commits nothing. Then
// the plan is made again with the PUs left short first (at most 4 plans).
// Held packets (max_delay > 1): a slot may also carry what x got up to max_delay steps before — x holds
// the packet, and its switch names the delay (port_switch::delay). Offers one step old come first, then older ones,
// then those one hop further (which stay one step per hop). On the closed trails where plans without them fall
// short of Theorem 7's bound (4 × 5 × 2 × 9 …) they meet it.
// Nothing here is a proof that T is reachable: a table is returned only when every PU's plan is complete, and its
// step count is the simulator's to tell (checkers/torus_check); least_packet_matched_routing searches T.
//
// Locality (both directions of every cycle a PU is off, check_supply) is not what the matching asks; a second pass
// gives a pair that gets its cycle one way only an unused slot that forwards the other way, where one exists within T
// (directly from a neighbour on the cycle, or one hop further), and counts the pairs left one way.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dancecard/core/torus/cycles.hpp"
#include "link_rules.hpp"

namespace dancecard::torus {
namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t own = none - 1;  // "in-port" of a PU's own packet (injected in step 1)

// What a PU holds fresh in a step: a packet and the in-port it came in on (own: the PU's own packet, step 0), with
// the cycle and way it runs when it came over a cycle link (way +1: from the predecessor, −1: from the successor).
struct offer {
  pu_index packet;
  std::uint32_t in;
  std::uint32_t cycle = none;
  int way = 0;
  std::uint32_t delay = 1;  // how many steps before the slot the sender got it (set by slot_offers)
};

class planner {
 public:
  planner(const cycle_system& system, std::uint32_t steps, std::uint32_t max_delay)
      : system_(system), net_(system.network), T_(steps), max_delay_(max_delay) {
    P_ = net_.size();
    ports_ = net_.ports();
    const cycle_links links = map_cycle_links(system);
    if (links.shared)
      throw std::invalid_argument("packet-matched supply: the cycles share the link leaving PU " +
                                  std::to_string(links.shared->pu) + " by port " + std::to_string(links.shared->port));
    free_.assign(static_cast<std::size_t>(P_) * ports_, 0);
    neighbor_.assign(free_.size(), 0);
    scratch_.nearby_id.assign(P_, none);
    for (pu_index v = 0; v < P_; ++v)
      for (std::uint32_t p = 0; p < ports_; ++p)
        free_[slot_link(v, p)] = !links.used(v, p), neighbor_[slot_link(v, p)] = net_.neighbor(v, p);
    passes_.resize(P_);
    for (std::uint32_t c = 0; c < system.cycles.size(); ++c)
      for (std::uint32_t i = 0; i < system.cycles[c].length(); ++i) passes_[system.cycles[c].pus[i]].push_back({c, i});
    plan_packet_.assign(static_cast<std::size_t>(P_) * ports_ * (T_ + 1), none);
    plan_from_.assign(plan_packet_.size(), none);
    plan_delay_.assign(plan_packet_.size(), 1);
    has_.assign(static_cast<std::size_t>(P_) * P_, 0);
    missing_.assign(P_, 0);
    for (pu_index v = 0; v < P_; ++v) {  // what v's own cycles bring within T
      has_[static_cast<std::size_t>(v) * P_ + v] = 1;
      for (const auto& [c, i] : passes_[v]) {
        const torus_cycle& cy = system.cycles[c];
        const auto m = static_cast<std::uint32_t>(cy.length());
        for (std::uint32_t j = 0; j < m; ++j) {
          const std::uint32_t dist = std::min((i + m - j) % m, (j + m - i) % m);
          if (dist <= T_) has_[static_cast<std::size_t>(v) * P_ + cy.pus[j]] = 1;
        }
      }
      for (pu_index u = 0; u < P_; ++u) missing_[v] += has_[static_cast<std::size_t>(v) * P_ + u] == 0;
    }
  }

  // Rounds of matchings, PUs in `order`, until every PU has every packet (true) or a round commits nothing (false).
  bool run(const std::vector<pu_index>& order) {
    for (;;) {
      std::uint64_t committed = 0, short_pus = 0;
      for (pu_index v : order) {
        if (missing_[v] == 0) continue;
        committed += match(v);
        short_pus += missing_[v] > 0;
      }
      if (short_pus == 0) return true;
      if (committed == 0) {
        short_pus_ = short_pus;
        return false;
      }
    }
  }

  std::vector<pu_index> short_list() const {
    std::vector<pu_index> list;
    for (pu_index v = 0; v < P_; ++v)
      if (missing_[v] > 0) list.push_back(v);
    return list;
  }

  // Pairs (PU, cycle) that get the cycle one way only: an unused slot forwarding the other way where one exists.
  std::uint64_t complete_directions() {
    std::uint64_t one_way = 0;
    const auto C = static_cast<std::uint32_t>(system_.cycles.size());
    for (pu_index v = 0; v < P_; ++v) {
      std::vector<std::uint8_t> ways(C, 0);  // bit 0: forward seen, bit 1: backward seen
      for (const auto& [c, i] : passes_[v]) ways[c] = 3;
      for (std::uint32_t p = 0; p < ports_; ++p) {
        if (!free_[slot_link(v, p)]) continue;
        for (std::uint32_t s = 2; s <= T_; ++s) {
          const auto [c, way] = origin(v, p, s);
          if (c != none) ways[c] |= way > 0 ? 1 : 2;
        }
      }
      for (std::uint32_t c = 0; c < C; ++c) {
        if (ways[c] == 3) continue;
        for (const int want : {1, -1}) {
          if ((ways[c] & (want > 0 ? 1 : 2)) != 0) continue;
          if (add_direction(v, c, want)) ways[c] |= want > 0 ? 1 : 2;
        }
        one_way += ways[c] != 3;
      }
    }
    return one_way;
  }

  // The routing table: the cycles forward both ways at every pass; every free out-link injects its PU's packet in
  // step 1 and forwards, from step 2 on, the in-port its plan names, switching wherever that changes.
  routing_table table() const {
    routing_table t = cycle_table(system_);
    for (pu_index v = 0; v < P_; ++v)
      for (std::uint32_t p = 0; p < ports_; ++p) {
        if (!free_[slot_link(v, p)]) continue;
        const pu_index x = neighbor(v, p);
        const std::uint32_t o = torus::network::opposite(p);
        t.inject_at(x, o) = 0;  // step 1: x's own packet (v may need it; a duplicate does no harm)
        link_rules rules(t, x, o);
        for (std::uint32_t s = 2; s <= T_; ++s)
          if (plan_from_[slot(v, p, s)] != none) rules.follow(s, plan_from_[slot(v, p, s)], plan_delay_[slot(v, p, s)]);
      }
    return t;
  }

  // The latest step in which some PU gets a packet it needs by its plan, or the circulation of its own cycles.
  std::uint64_t latest() const {
    std::uint64_t last = 0;
    for (pu_index v = 0; v < P_; ++v)
      for (const auto& [c, i] : passes_[v]) last = std::max<std::uint64_t>(last, system_.cycles[c].length() / 2);
    for (std::size_t k = 0; k < plan_packet_.size(); ++k)
      if (plan_packet_[k] != none) last = std::max<std::uint64_t>(last, k % (T_ + 1));
    return last;
  }

  std::uint64_t short_pus() const { return short_pus_; }

 private:
  std::size_t slot_link(pu_index v, std::uint32_t p) const { return static_cast<std::size_t>(v) * ports_ + p; }
  std::size_t slot(pu_index v, std::uint32_t p, std::uint32_t s) const { return slot_link(v, p) * (T_ + 1) + s; }
  bool holds(pu_index v, pu_index u) const { return has_[static_cast<std::size_t>(v) * P_ + u] != 0; }

  void commit(pu_index v, std::uint32_t p, std::uint32_t s, pu_index u, std::uint32_t from, std::uint32_t delay = 1) {
    plan_packet_[slot(v, p, s)] = u;
    plan_from_[slot(v, p, s)] = from;
    plan_delay_[slot(v, p, s)] = delay;
    std::uint8_t& h = has_[static_cast<std::size_t>(v) * P_ + u];
    if (h == 0) h = 1, --missing_[v];
  }

  // What x holds fresh in step s (s = 0: its own packet).
  void offers(pu_index x, std::uint32_t s, std::vector<offer>& out) const {
    if (s == 0) {
      out.push_back({x, own});
      return;
    }
    for (const auto& [c, i] : passes_[x]) {
      const torus_cycle& cy = system_.cycles[c];
      const auto m = static_cast<std::uint32_t>(cy.length());
      out.push_back({cy.pus[(i + m - s % m) % m], torus::network::opposite(cy.ports[(i + m - 1) % m]), c, 1});
      out.push_back({cy.pus[(i + s) % m], cy.ports[i], c, -1});
    }
    for (std::uint32_t r = 0; r < ports_; ++r)
      if (free_[slot_link(x, r)] && plan_packet_[slot(x, r, s)] != none)
        out.push_back({plan_packet_[slot(x, r, s)], r});
  }

  // Every way v's slot (in-port p, step s) can be filled, direct offers first: what x = neighbour(v, p) holds fresh in
  // step s − 1 (visit(offer, none)), then, from step 2 on, what a neighbour y of x holds fresh in step s − 2 over an
  // in-port `hop` of x that x's plan leaves unused in step s − 1 (visit(offer, hop)). visit returns true to stop.
  // source(z, t) gives what z holds fresh in step t, as offers() finds it (a span that the next call may invalidate).
  template <class Source, class Visit>
  void slot_offers(pu_index v, std::uint32_t p, std::uint32_t s, Source&& source, Visit&& visit) const {
    const pu_index x = neighbor(v, p);
    for (std::uint32_t delay = 1; delay <= max_delay_ && delay <= s; ++delay) {
      if (delay > 1 && delay == s) break;  // a PU's own packet leaves in step 1 only
      for (offer o : source(x, s - delay)) {
        o.delay = delay;
        if (visit(o, none)) return;
      }
    }
    if (s < 2) return;
    for (std::uint32_t hop = 0; hop < ports_; ++hop) {
      if (!free_[slot_link(x, hop)] || plan_packet_[slot(x, hop, s - 1)] != none) continue;
      const pu_index y = neighbor(x, hop);
      if (y == v) continue;
      for (const offer& o : source(y, s - 2))
        if (visit(o, hop)) return;
    }
  }

  // The cycle and way of the stream that v's slot (p, s) carries by the plan, traced back through relays.
  std::pair<std::uint32_t, int> origin(pu_index v, std::uint32_t p, std::uint32_t s) const {
    while (s >= 2) {
      const std::uint32_t in = plan_from_[slot(v, p, s)];
      if (in == none || in == own) return {none, 0};
      const pu_index x = neighbor(v, p);
      if (!free_[slot_link(x, in)]) {  // a cycle in-port of x
        for (const auto& [c, i] : passes_[x]) {
          const torus_cycle& cy = system_.cycles[c];
          const std::size_t m = cy.length();
          if (in == torus::network::opposite(cy.ports[(i + m - 1) % m])) return {c, 1};
          if (in == cy.ports[i]) return {c, -1};
        }
        return {none, 0};
      }
      const std::uint32_t delay = plan_delay_[slot(v, p, s)];
      if (s <= delay) return {none, 0};
      v = x, p = in, s -= delay;
    }
    return {none, 0};
  }

  // An unused slot of v (a free in-link, step >= 2) that forwards cycle c the given way: directly from a neighbour on
  // c, or one hop further over an unused upstream slot. The packet is a duplicate; it is committed as the stream.
  bool add_direction(pu_index v, std::uint32_t c, int way) {
    std::vector<offer> scratch;
    const auto source = [&](pu_index z, std::uint32_t t) {
      scratch.clear();
      offers(z, t, scratch);
      return std::span<const offer>(scratch);
    };
    for (std::uint32_t s = 2; s <= T_; ++s)
      for (std::uint32_t p = 0; p < ports_; ++p) {
        if (!free_[slot_link(v, p)] || plan_packet_[slot(v, p, s)] != none) continue;
        bool found = false;
        slot_offers(v, p, s, source, [&](const offer& o, std::uint32_t hop) {
          if (o.cycle != c || o.way != way) return false;
          if (hop != none) commit(neighbor(v, p), hop, s - 1, o.packet, o.in);
          commit(v, p, s, o.packet, hop != none ? hop : o.in, hop != none ? 1 : o.delay);
          return found = true;
        });
        if (found) return true;
      }
    return false;
  }

  // One maximum matching of v's missing packets to its uncommitted slots, committed. Returns the packets committed.
  std::uint64_t match(pu_index v) {
    match_scratch& m = scratch_;
    m.slots.clear(), m.needs.clear(), m.found.clear();
    m.need_index.assign(P_, none);
    for (pu_index u = 0; u < P_; ++u)
      if (!holds(v, u)) m.need_index[u] = static_cast<std::uint32_t>(m.needs.size()), m.needs.push_back(u);
    const auto needs = static_cast<std::uint32_t>(m.needs.size());
    // What each neighbour and next neighbour of v holds fresh in each step, found once: no plan changes until the
    // options are all made, and every (PU, step) is asked for by several slots (once per delay, and over two paths).
    m.held.clear(), m.held_at.clear(), m.nearby.clear();
    const auto source = [&](pu_index z, std::uint32_t t) {
      std::uint32_t& id = m.nearby_id[z];
      if (id == none) {
        id = static_cast<std::uint32_t>(m.nearby.size());
        m.nearby.push_back(z);
        m.held_at.resize(m.held_at.size() + T_ + 1, {none, 0});
      }
      auto& [at, count] = m.held_at[static_cast<std::size_t>(id) * (T_ + 1) + t];
      if (at == none) {
        at = static_cast<std::uint32_t>(m.held.size());
        offers(z, t, m.held);
        count = static_cast<std::uint32_t>(m.held.size() - at);
      }
      return std::span<const offer>(m.held.data() + at, count);
    };
    // steps in the outer loop: every packet's options come out earliest first
    for (std::uint32_t s = 1; s <= T_; ++s)
      for (std::uint32_t p = 0; p < ports_; ++p) {
        if (!free_[slot_link(v, p)] || plan_packet_[slot(v, p, s)] != none) continue;
        const auto k = static_cast<std::uint32_t>(m.slots.size());
        m.slots.emplace_back(p, s);
        slot_offers(v, p, s, source, [&](const offer& o, std::uint32_t hop) {
          if (const std::uint32_t need = m.need_index[o.packet]; need != none)
            m.found.push_back({need, hop == none ? option{k, o.in, none, false, o.delay} : option{k, hop, o.in}});
          return false;
        });
      }
    for (const pu_index z : m.nearby) m.nearby_id[z] = none;
    // Each need's options in one array, need after need (m.first[need] … m.first[need + 1]): direct offers first,
    // earliest first, then those one hop further, each kind in the order found (a counting sort on (need, hop)). A hop
    // takes an upstream slot another PU's plan may need (tried both ways: direct first completes at the bound where
    // step first fell short, e.g. 4 × 3 × 2 × 7 at 35 and 4 × 4 × 4 × 8 at 98).
    m.first.assign(2 * std::size_t{needs} + 1, 0);
    auto bucket = [](const std::pair<std::uint32_t, option>& f) {
      return 2 * std::size_t{f.first} + (f.second.y_in != none);
    };
    for (const auto& f : m.found) ++m.first[bucket(f) + 1];
    for (std::size_t b = 1; b < m.first.size(); ++b) m.first[b] += m.first[b - 1];
    m.options.resize(m.found.size());
    m.fill.assign(m.first.begin(), m.first.end() - 1);
    for (const auto& f : m.found) m.options[m.fill[bucket(f)]++] = f.second;
    const auto begin = [&](std::uint32_t need) { return m.first[2 * std::size_t{need}]; };
    const auto end = [&](std::uint32_t need) { return m.first[2 * std::size_t{need} + 2]; };
    // maximum matching by augmenting paths (iterative, so deep paths need no deep stack). Where a size is 2, two
    // free links of v come from one neighbour x, and their slots in one step can both take a hop over the same
    // upstream slot of x, which the matching cannot see: the later one's option is withdrawn and the matching found
    // again, until no two slots share an upstream slot. (Taking no hop over the second twin instead brought
    // 4 × 3 × 2 × 8 and 4 × 7 × 2 × 8 from short to Theorem 7's bound; splitting x's in-ports between the twins
    // brought 4 × 3 × 2 × 9 and 4 × 3 × 2 × 10 too; withdrawing only what collides leaves the twins every hop.)
    // A search from a need that finds no free slot leaves every slot it reached dead for the later needs: those
    // slots and their owners form a Hungarian tree, which no augmenting path can enter afterwards (every slot in it is
    // matched, every option of its needs leads back into it, and augmenting elsewhere changes none of its pairs;
    // Edmonds, Paths, trees, and flowers, 1965, Section 5), so passing over them finds the same paths in the same
    // order, with none of the searches that would have gone round the tree again.
    const auto slot_count = static_cast<std::uint32_t>(m.slots.size());
    const std::vector<std::uint32_t>& owner = m.owner;
    const std::vector<std::uint32_t>& chosen = m.chosen;
    for (bool collided = true; collided;) {
      m.owner.assign(slot_count, none), m.chosen.assign(slot_count, none), m.seen.assign(slot_count, none);
      m.dead.assign(slot_count, 0);
      m.option_of.assign(needs, none);
      // the free slots some option can fill: once none is left, no later need can augment, and the search stops
      m.fillable.assign(slot_count, 0);
      for (const option& o : m.options)
        if (!o.off) m.fillable[o.slot] = 1;
      auto open_slots = static_cast<std::uint32_t>(std::count(m.fillable.begin(), m.fillable.end(), 1));
      for (std::uint32_t root = 0; root < needs && open_slots > 0; ++root) {
        m.stack.assign(1, frame{root, begin(root)});
        m.reached.clear();
        bool found = false;
        while (!m.stack.empty() && !found) {
          frame& f = m.stack.back();
          if (f.next == end(f.need)) {
            m.stack.pop_back();
            continue;
          }
          const std::size_t e = f.next++;
          if (m.options[e].off) continue;
          const std::uint32_t k = m.options[e].slot;
          if (m.seen[k] == root || m.dead[k]) continue;
          m.seen[k] = root;
          m.reached.push_back(k);
          if (m.owner[k] == none) {
            // augment along the stack: each need on it takes the slot its frame last tried
            std::uint32_t slot_here = k;
            for (std::size_t level = m.stack.size(); level-- > 0;) {
              const std::uint32_t n = m.stack[level].need;
              const std::size_t opt = m.stack[level].next - 1;
              const std::uint32_t previous = m.option_of[n] == none ? none : m.options[m.option_of[n]].slot;
              m.owner[slot_here] = n;
              m.option_of[n] = static_cast<std::uint32_t>(opt);
              m.chosen[slot_here] = static_cast<std::uint32_t>(opt);
              slot_here = previous;
            }
            found = true;
            --open_slots;
          } else {
            m.stack.push_back(frame{m.owner[k], begin(m.owner[k])});
          }
        }
        if (!found)
          for (const std::uint32_t k : m.reached) m.dead[k] = 1;
      }
      collided = false;
      m.upstream.clear();  // (upstream slot, v's slot) of the matched hops
      for (std::uint32_t k = 0; k < slot_count; ++k)
        if (owner[k] != none && m.options[chosen[k]].y_in != none) {
          const auto [p, s] = m.slots[k];
          m.upstream.emplace_back(slot(neighbor(v, p), m.options[chosen[k]].x_in, s - 1), k);
        }
      std::sort(m.upstream.begin(), m.upstream.end());
      for (std::size_t i = 1; i < m.upstream.size(); ++i)
        if (m.upstream[i].first == m.upstream[i - 1].first) {
          m.options[chosen[m.upstream[i].second]].off = true;
          collided = true;
        }
    }
    std::uint64_t committed = 0;
    for (std::uint32_t k = 0; k < slot_count; ++k) {
      if (owner[k] == none) continue;
      const option& o = m.options[chosen[k]];
      const auto [p, s] = m.slots[k];
      const pu_index u = m.needs[owner[k]];
      // a hop's upstream slot was unused when the option was made, and collisions were withdrawn above
      if (o.y_in != none) commit(neighbor(v, p), o.x_in, s - 1, u, o.y_in);
      commit(v, p, s, u, o.x_in, o.delay);
      ++committed;
    }
    return committed;
  }

  // One way to fill a slot of the PU being matched, with the packet it needs.
  struct option {
    std::uint32_t slot;         // index into the PU's slots
    std::uint32_t x_in;         // the in-port of x forwarded to v
    std::uint32_t y_in = none;  // one hop further: the in-port of y forwarded to x (x_in is then x's in-port from y)
    bool off = false;           // withdrawn: its upstream slot went to another of v's slots
    std::uint32_t delay = 1;    // direct: how many steps x holds the packet before forwarding it
  };
  struct frame {
    std::uint32_t need;
    std::size_t next;  // the next option to try, an index into match_scratch::options
  };
  // match's arrays, kept from one call to the next so that their memory is allocated once.
  struct match_scratch {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> slots;  // (in-port p of v, step s)
    std::vector<std::uint32_t> need_index;                       // per packet: its index among the needs, or none
    std::vector<pu_index> needs;
    std::vector<std::uint32_t> nearby_id;                          // per PU: its index in `nearby`, or none
    std::vector<pu_index> nearby;                                  // the PUs whose offers were asked, in turn
    std::vector<std::pair<std::uint32_t, std::uint32_t>> held_at;  // [nearby index · (T + 1) + step]: (start, count)
    std::vector<offer> held;                                       // in `held`
    std::vector<std::pair<std::uint32_t, option>> found;           // (need, option) in the order slot_offers gave them
    std::vector<option> options;                                   // grouped by need
    std::vector<std::size_t> first, fill;
    std::vector<std::uint32_t> owner, chosen, seen, option_of;  // option_of: the option index matched, per need
    std::vector<std::uint8_t> dead, fillable;
    std::vector<std::uint32_t> reached;
    std::vector<frame> stack;
    std::vector<std::pair<std::size_t, std::uint32_t>> upstream;
  };

  pu_index neighbor(pu_index v, std::uint32_t p) const { return neighbor_[slot_link(v, p)]; }

  const cycle_system& system_;
  const torus::network& net_;
  std::uint32_t T_;
  std::uint32_t max_delay_;
  pu_index P_ = 0;
  std::uint32_t ports_ = 0;
  std::vector<std::uint8_t> free_;  // [v · ports + p]: no cycle uses the link
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> passes_;  // per PU: (cycle, position)
  std::vector<pu_index> plan_packet_;                                         // [(v · ports + p) · (T + 1) + s]
  std::vector<std::uint32_t> plan_from_;                                      // the sender's in-port (own: step 1)
  std::vector<std::uint32_t> plan_delay_;                                     // and how long it held the packet
  std::vector<std::uint8_t> has_;                                             // [v · P + u]
  std::vector<std::uint64_t> missing_;
  std::vector<pu_index> neighbor_;  // [v · ports + p]
  match_scratch scratch_;
  std::uint64_t short_pus_ = 0;
};

}  // namespace

packet_supply_result packet_matched_routing(const cycle_system& system, std::uint64_t steps, std::uint32_t max_delay) {
  packet_supply_result r;
  r.steps = steps;
  const torus::network& net = system.network;
  if (system.cycles.empty()) {
    r.reason = "no cycles";
    return r;
  }
  if (steps == 0 || steps > 0xffffffu) {
    r.reason = "steps outside 1 .. 2^24 - 1";
    return r;
  }
  const std::uint64_t P = net.size();
  {  // a PU on no cycle: its packet would leave by supply links only, outside the model (as matched_cycle_routing)
    std::vector<char> on(P, 0);
    for (const torus_cycle& cy : system.cycles)
      for (pu_index u : cy.pus)
        if (u < P) on[u] = 1;
    for (pu_index v = 0; v < P; ++v)
      if (!on[v]) {
        r.reason = "PU " + std::to_string(v) + " lies on no cycle";
        return r;
      }
  }
  if (P * P > packet_supply_work_limit || P * net.ports() * (steps + 1) > packet_supply_work_limit) {
    r.reason = "beyond the work limit (P^2 and P * ports * (steps + 1) <= 2^26)";
    return r;
  }
  // The PUs planned first take the slots they like; a PU left short is moved to the front (with the PUs left short
  // before it) and the plan made again, up to max_attempts times.
  constexpr int max_attempts = 4;
  std::vector<pu_index> first;  // PUs planned first, in the order they fell short
  std::vector<char> in_first(P, 0);
  for (int attempt = 0; attempt < max_attempts; ++attempt) {
    std::vector<pu_index> order = first;
    for (pu_index v = 0; v < P; ++v)
      if (!in_first[v]) order.push_back(v);
    planner plan(system, static_cast<std::uint32_t>(steps), max_delay);
    if (plan.run(order)) {
      r.one_way_pairs = plan.complete_directions();
      r.latest = plan.latest();
      r.table = plan.table();
      r.reason.clear();
      return r;
    }
    r.short_pus = plan.short_pus();
    r.reason = std::to_string(r.short_pus) + " PU(s) short of some packet within " + std::to_string(steps) +
               " steps (" + std::to_string(attempt + 1) + " plan(s), the PUs left short moved first each time)";
    bool added = false;
    for (pu_index v : plan.short_list())
      if (!in_first[v]) in_first[v] = 1, first.push_back(v), added = true;
    if (!added) break;
  }
  return r;
}

std::optional<routing_table> least_packet_matched_routing(const cycle_system& system,
                                                          std::pair<std::uint64_t, std::uint64_t>* estimate,
                                                          std::uint64_t max_steps, std::uint32_t max_delay) {
  // From the circulation of the longest cycle (before it a PU on that cycle must get its far packets by supply too)
  // upwards at doubling gaps until a plan is complete, then bisected. The plans are heuristic, so a larger target is
  // not guaranteed to succeed where a smaller one did; the search keeps the least complete one it met.
  std::uint64_t low = 1;
  for (const torus_cycle& cy : system.cycles) low = std::max<std::uint64_t>(low, cy.length() / 2);
  const std::uint64_t top = max_steps == 0 ? low + system.network.size() : max_steps;
  if (top < low) return std::nullopt;
  std::optional<packet_supply_result> best;
  std::uint64_t failed = low - 1, high = 0;  // the largest target known short, the least known complete
  for (std::uint64_t t = low, gap = 1;; gap *= 2) {
    packet_supply_result r = packet_matched_routing(system, t, max_delay);
    if (r.table) {
      high = t;
      best = std::move(r);
      break;
    }
    if (r.short_pus == 0) return std::nullopt;  // refused (work limit), not short
    failed = t;
    if (t >= top) break;
    t = std::min(low + gap, top);
  }
  if (!best) return std::nullopt;
  while (failed + 1 < high) {
    const std::uint64_t mid = failed + (high - failed) / 2;
    packet_supply_result r = packet_matched_routing(system, mid, max_delay);
    if (r.table) {
      high = mid;
      best = std::move(r);
    } else {
      failed = mid;
    }
  }
  if (estimate) *estimate = {best->one_way_pairs, best->latest};
  return std::move(best->table);
}

}  // namespace dancecard::torus
