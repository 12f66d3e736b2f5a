// Directed (full-duplex) schedules, the MPI pairwise all-to-all schedules, and the conversions between models.
#include "dancecard/core/dance/directed.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace dancecard::dance {

directed_schedule::directed_schedule(rank people) : people_(people), round_begin_{0} {
  if (people == 0) throw std::invalid_argument("directed_schedule: n must be at least 1");
}

void directed_schedule::add_transfer(rank from, rank to) {
  if (rounds() == 0) throw std::logic_error("directed_schedule::add_transfer before begin_round");
  if (from >= people_ || to >= people_)
    throw std::out_of_range("directed_schedule::add_transfer: rank " + std::to_string(std::max(from, to)) +
                            " out of range for n = " + std::to_string(people_));
  transfers_.push_back({from, to});
  round_begin_.back() = transfers_.size();
}

directed_schedule to_directed(const dance_schedule& schedule) {
  directed_schedule out(schedule.people());
  for (std::size_t r = 0; r < schedule.rounds(); ++r)
    for (int phase = 0; phase < 2; ++phase) {
      out.begin_round();
      for (couple d : schedule.round(r)) {
        const rank lo = std::min(d.first, d.second), hi = std::max(d.first, d.second);
        if (phase == 0)
          out.add_transfer(lo, hi);
        else
          out.add_transfer(hi, lo);
      }
    }
  return out;
}

dance_schedule dance_view(const directed_schedule& schedule) {
  dance_schedule out(schedule.people());
  // sent_to[i] is i's destination in the current round (stamped with the round), to recognise j → i as the mirror.
  std::vector<std::size_t> stamp(schedule.people(), 0);
  std::vector<rank> sent_to(schedule.people(), 0);
  for (std::size_t r = 0; r < schedule.rounds(); ++r) {
    out.begin_round();
    for (transfer t : schedule.round(r)) {
      const bool mirror = stamp[t.to] == r + 1 && sent_to[t.to] == t.from;
      stamp[t.from] = r + 1;
      sent_to[t.from] = t.to;
      if (!mirror) out.add_dance(t.from, t.to);
    }
  }
  return out;
}

directed_schedule openmpi_pairwise_schedule(rank p) {
  directed_schedule out(p);
  for (rank s = 1; s < p; ++s) {
    out.begin_round();
    for (rank i = 0; i < p; ++i) out.add_transfer(i, (i + s) % p);
  }
  return out;
}

directed_schedule mpich_pairwise_schedule(rank p) {
  if (!std::has_single_bit(p)) return openmpi_pairwise_schedule(p);
  directed_schedule out(p);
  for (rank s = 1; s < p; ++s) {
    out.begin_round();
    for (rank i = 0; i < p; ++i) out.add_transfer(i, i ^ s);
  }
  return out;
}

}  // namespace dancecard::dance
