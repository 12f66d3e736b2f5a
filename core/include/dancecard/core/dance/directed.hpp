// Full-duplex directed rounds: in each round every rank sends to at most one rank and receives from at most one;
// all-to-all personalized exchange needs every ordered pair (i, j), i ≠ j, once — optimum n − 1 rounds for every n.
// This is the model of Open MPI's and MPICH's pairwise all-to-all algorithms, whose schedules are generated here.
//
//   auto ompi = dancecard::dance::openmpi_pairwise_schedule(6);     // round s: i sends to i + s, receives from i − s
//   namespace dance = dancecard::dance;
//   auto half = dance::to_directed(dance::factorization_schedule(6));  // 2 sub-rounds per dance round
#pragma once

#include <span>
#include <vector>

#include "dancecard/core/dance/schedule.hpp"

namespace dancecard::dance {

/// One message: `from` sends to `to`.
struct transfer {
  rank from = 0;
  rank to = 0;
  friend bool operator==(const transfer&, const transfer&) = default;
};

/// Rounds of transfers for n ranks, stored flat like dance_schedule. A value, not a proof of validity.
class directed_schedule {
 public:
  explicit directed_schedule(rank people);
  rank people() const noexcept { return people_; }
  std::size_t rounds() const noexcept { return round_begin_.size() - 1; }
  std::size_t transfer_count() const noexcept { return transfers_.size(); }
  std::span<const transfer> round(std::size_t r) const {
    return {transfers_.data() + round_begin_[r], transfers_.data() + round_begin_[r + 1]};
  }
  void begin_round() { round_begin_.push_back(transfers_.size()); }
  /// require: rounds() > 0, from < people(), to < people() (else std::out_of_range / std::logic_error).
  void add_transfer(rank from, rank to);
  friend bool operator==(const directed_schedule&, const directed_schedule&) = default;

 private:
  rank people_;
  std::vector<transfer> transfers_;
  std::vector<std::size_t> round_begin_;
};

/// A half-duplex dance schedule run as directed rounds: each dance round becomes two sub-rounds, the lower rank
/// of every pair sending in the first (the paper's Section 6 order), the higher in the second.
directed_schedule to_directed(const dance_schedule& schedule);

/// The half-duplex reading of a directed schedule: in each round, every unordered pair with a transfer in either
/// direction becomes one dance. A schedule whose rounds are mirrored exchanges (i → j with j → i) reads as a valid
/// dance schedule; a shift (i → i + s) does not (a rank would dance with two partners).
dance_schedule dance_view(const directed_schedule& schedule);

/// Open MPI's pairwise all-to-all (coll/base alltoall "pairwise"): round s = 1..p−1, rank i sends to (i + s) mod p
/// and receives from (i − s) mod p. require: p >= 1.
directed_schedule openmpi_pairwise_schedule(rank p);

/// MPICH's pairwise all-to-all: for p a power of two, round s = 1..p−1 exchanges with i xor s; otherwise the same
/// shift as Open MPI. require: p >= 1.
directed_schedule mpich_pairwise_schedule(rank p);

}  // namespace dancecard::dance
