// The papers' models as collective schedules (collective/adapters.hpp): the collective checker, exact, gives the
// verdict of each model's own checker — on dance and full-duplex schedules generated and damaged at random (a dance
// or transfer dropped, repeated in another round, moved into a round where its rank is busy), and on random torus
// routing tables run for a random number of steps; and on h-relation slot schedules (half and full duplex) generated
// and damaged at random, where the two differ only as adapters.hpp says.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/collective/adapters.hpp"
#include "dancecard/core/dance/directed.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "dancecard/properties/generators.hpp"
#include "dancecard/properties/hrel_generators.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;
namespace {

// A copy of `s` with one change: 0 — none; 1 — a dance dropped; 2 — a dance repeated in another round; 3 — a dance
// moved to another round (where its people may be busy); 4 — a dance's partner swapped for another person.
template <class Schedule, class Item, class Get, class Add>
Schedule damaged(const Schedule& s, int how, std::size_t at, std::size_t other_round, rank other_person, Get get,
                 Add add) {
  Schedule out(s.people());
  std::size_t index = 0;
  std::vector<std::vector<Item>> rounds(s.rounds());
  std::optional<Item> moved;
  for (std::size_t r = 0; r < s.rounds(); ++r)
    for (const Item& item : get(s, r)) {
      const bool here = index++ == at;
      if (here && how == 1) continue;
      if (here && how == 3) {
        moved = item;
        continue;
      }
      Item kept = item;
      if (here && how == 4 && other_person != kept.first_of()) kept.set_second(other_person);
      rounds[r].push_back(kept);
      if (here && how == 2) rounds[other_round].push_back(item);
    }
  if (moved) rounds[other_round].push_back(*moved);
  for (const auto& round : rounds) {
    out.begin_round();
    for (const Item& item : round) add(out, item);
  }
  return out;
}

struct dance_item {
  couple d;
  rank first_of() const { return d.first; }
  void set_second(rank r) { d.second = r; }
};
struct transfer_item {
  transfer t;
  rank first_of() const { return t.from; }
  void set_second(rank r) { t.to = r; }
};

RC_GTEST_PROP(collective_adapters, the_dance_checker_and_the_collective_checker_agree, ()) {
  const dance_algorithm a = *properties::algorithm();
  const rank n = *rc::gen::inRange<rank>(2, 14);
  const dance_schedule s = generate(a, n);
  RC_PRE(s.dance_count() > 0 && s.rounds() > 0);
  const int how = *rc::gen::inRange(0, 5);
  const std::size_t at = *rc::gen::inRange<std::size_t>(0, s.dance_count());
  const std::size_t other_round = *rc::gen::inRange<std::size_t>(0, s.rounds());
  const rank other_person = *rc::gen::inRange<rank>(0, n);
  const dance_schedule d = damaged<dance_schedule, dance_item>(
      s, how, at, other_round, other_person,
      [](const dance_schedule& x, std::size_t r) {
        std::vector<dance_item> items;
        for (const couple& v : x.round(r)) items.push_back({v});
        return items;
      },
      [](dance_schedule& x, const dance_item& i) { x.add_dance(i.d.first, i.d.second); });
  const bool old_holds = check_dance_schedule(d).holds();
  RC_TAG(how, old_holds);
  const collective::collective_report now =
      collective::check_collective_schedule(collective::from_dance(d), {.exact = true});
  RC_ASSERT(now.holds() == old_holds);
  if (how == 0) RC_ASSERT(now.holds());
}

RC_GTEST_PROP(collective_adapters, the_directed_checker_and_the_collective_checker_agree, ()) {
  const rank n = *rc::gen::inRange<rank>(2, 14);
  const directed_schedule s = *rc::gen::element(0, 1) == 0 ? openmpi_pairwise_schedule(n) : mpich_pairwise_schedule(n);
  RC_PRE(s.transfer_count() > 0 && s.rounds() > 0);
  const int how = *rc::gen::inRange(0, 5);
  const std::size_t at = *rc::gen::inRange<std::size_t>(0, s.transfer_count());
  const std::size_t other_round = *rc::gen::inRange<std::size_t>(0, s.rounds());
  const rank other_person = *rc::gen::inRange<rank>(0, n);
  const directed_schedule d = damaged<directed_schedule, transfer_item>(
      s, how, at, other_round, other_person,
      [](const directed_schedule& x, std::size_t r) {
        std::vector<transfer_item> items;
        for (const transfer& v : x.round(r)) items.push_back({v});
        return items;
      },
      [](directed_schedule& x, const transfer_item& i) { x.add_transfer(i.t.from, i.t.to); });
  const bool old_holds = check_directed_schedule(d).holds();
  RC_TAG(how, old_holds);
  const collective::collective_report now =
      collective::check_collective_schedule(collective::from_directed(d), {.exact = true});
  RC_ASSERT(now.holds() == old_holds);
  if (how == 0) RC_ASSERT(now.holds());
}

}  // namespace
}  // namespace dancecard

namespace dancecard {
namespace {

// A time-independent torus table (random forwarding, some out-ports idle, k packets injected at random, some not at
// all) run for T steps as a collective: it holds exactly when checkers/torus_check's simulator says the table
// completes gossip within T steps. Sides of 2 included (two links to one neighbour: capacity 2).
RC_GTEST_PROP(collective_adapters, a_torus_table_completes_exactly_when_its_collective_holds, ()) {
  const std::uint32_t d = *rc::gen::inRange<std::uint32_t>(1, 4);
  std::vector<std::uint32_t> dims(d);
  for (std::uint32_t& n : dims) n = *rc::gen::inRange<std::uint32_t>(2, d == 1 ? 10 : d == 2 ? 6 : 4);
  const torus::network t(dims);
  const std::uint32_t ports = t.ports();
  const std::uint32_t k = *rc::gen::inRange<std::uint32_t>(1, ports + 1);
  const std::size_t links = static_cast<std::size_t>(t.size()) * ports;
  routing_table table{
      t, k, std::vector<std::uint32_t>(links, no_port), std::vector<std::uint32_t>(links, no_packet), {}};
  for (std::uint32_t& in : table.forward)
    if (const std::uint32_t drawn = *rc::gen::inRange<std::uint32_t>(0, ports + 1); drawn < ports) in = drawn;
  for (std::uint32_t& q : table.inject)
    if (const std::uint32_t drawn = *rc::gen::inRange<std::uint32_t>(0, k + 1); drawn < k) q = drawn;
  const std::uint64_t steps = *rc::gen::inRange<std::uint64_t>(1, 2 * t.size() + 2);
  gossip_options options;
  options.max_steps = steps;
  options.max_witnesses = 0;
  const bool completes = simulate_gossip(table, options).holds();
  const collective::collective_report r =
      collective::check_collective_schedule(collective::from_torus_table(table, steps));
  RC_TAG(completes ? "completes" : "does not complete");
  RC_ASSERT(r.holds() == completes);
  RC_ASSERT(r.steps == steps);
  // nothing but missing chunks can be wrong: the adapter only forwards what arrived, one chunk per link and step
  RC_ASSERT(r.violation_count == r.count(collective::collective_violation_kind::missing));
}

}  // namespace
}  // namespace dancecard

namespace dancecard {
namespace {

// An h-relation schedule of one of the paper's constructions, with one change: 0 — none; 1 — a transfer dropped;
// 2 — a transfer moved to another slot; 3 — a transfer's amount doubled or halved; 4 — a transfer sent to another PE;
// 5 — a transfer repeated in another slot; 6 — a slot's duration halved; 7 — a transfer split in two halves in its
// slot. The h-relation checker (every violation kept) and the collective checker on from_hrel agree, but for the one
// difference adapters.hpp names: two transfers over one link in one slot.
RC_GTEST_PROP(collective_adapters, the_hrel_checker_and_the_collective_checker_agree, ()) {
  const hrel::hrel_instance instance = *rc::gen::resize(60, properties::hrel_instances(8, 6));
  const int construction = *rc::gen::inRange(0, 3);
  hrel::hrel_schedule s = construction == 0   ? hrel::forwarding_schedule(instance)
                          : construction == 1 ? hrel::direct_schedule(instance)
                                              : hrel::full_duplex_schedule(instance);
  std::vector<std::pair<std::size_t, std::size_t>> places;  // (slot, transfer)
  for (std::size_t i = 0; i < s.slots.size(); ++i)
    for (std::size_t k = 0; k < s.slots[i].transfers.size(); ++k) places.emplace_back(i, k);
  const int how = places.empty() ? 0 : *rc::gen::element(0, 1, 2, 3, 4, 5, 6, 7);
  if (how != 0) {
    const auto [slot, index] = *rc::gen::elementOf(places);
    const std::size_t other = *rc::gen::inRange<std::size_t>(0, s.slots.size());
    hrel::hrel_transfer& t = s.slots[slot].transfers[index];
    const hrel::hrel_transfer copy = t;
    switch (how) {
      case 1:
        s.slots[slot].transfers.erase(s.slots[slot].transfers.begin() + static_cast<std::ptrdiff_t>(index));
        break;
      case 2:
        s.slots[slot].transfers.erase(s.slots[slot].transfers.begin() + static_cast<std::ptrdiff_t>(index));
        s.slots[other].transfers.push_back(copy);
        break;
      case 3:
        t.amount = *rc::gen::element(0, 1) == 0 ? t.amount * rational(2) : t.amount / rational(2);
        break;
      case 4: {
        const rank to = *rc::gen::inRange<rank>(0, instance.pes());
        RC_PRE(to != t.from);
        t.to = to;
        break;
      }
      case 5:
        s.slots[other].transfers.push_back(copy);
        break;
      case 6:
        s.slots[slot].duration = s.slots[slot].duration / rational(2);
        break;
      default:  // split in two halves over the same link in the same slot
        t.amount = t.amount / rational(2);
        s.slots[slot].transfers.push_back(t);
    }
  }
  const hrel::duplex mode = *rc::gen::element(hrel::duplex::half, hrel::duplex::full);
  const hrel::hrel_report old = hrel::check_hrel_schedule(instance, s, mode, SIZE_MAX);
  const collective::schedule adapted =
      collective::from_hrel(instance, s,
                            mode == hrel::duplex::half ? collective::port_model::one_port_simplex
                                                       : collective::port_model::one_port_full_duplex);
  const collective::collective_report now = collective::check_collective_schedule(adapted);
  RC_TAG(how, old.holds());
  RC_ASSERT(now.steps == s.slots.size());
  if (!now.holds()) RC_ASSERT(!old.holds());  // the collective model is never the stricter
  if (now.holds() && !old.holds()) {          // then only the named difference: two transfers over one link in one slot
    RC_TAG("one link twice in a slot");
    RC_ASSERT(old.witnesses.size() == old.violation_count);
    for (const hrel::hrel_violation& v : old.witnesses) {
      RC_ASSERT(v.kind == hrel::hrel_violation_kind::port_busy);
      const hrel::hrel_transfer &a = s.slots[v.slot].transfers[v.first], &b = s.slots[v.slot].transfers[v.second];
      RC_ASSERT(a.from == b.from && a.to == b.to);
    }
  }
  if (how == 0 && (construction < 2 || mode == hrel::duplex::full)) RC_ASSERT(now.holds());
}

}  // namespace
}  // namespace dancecard
