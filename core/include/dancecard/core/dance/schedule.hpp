// The dance-party schedule: n people, rounds of pairwise dances, stored flat (CSR), plus the paper's partner matrix.
//
// A schedule is a *value*, not a proof of validity: it may hold a pair twice, a person booked twice in a round or a
// pair never met. Deciding whether it satisfies the paper's constraints (i)–(iii) is the job of checkers/.
// The only invariant kept here is structural: every rank is in [0, n).
//
//   dancecard::dance::dance_schedule s(4);
//   s.begin_round(); s.add_dance(0, 1); s.add_dance(2, 3);
//   s.begin_round(); s.add_dance(0, 2); s.add_dance(1, 3);
//   for (auto d : s.round(1)) { /* d.first, d.second */ }
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace dancecard {

/// A 0-based participant index (a person, a processor rank), shared by every domain.
using rank = std::uint32_t;

}  // namespace dancecard

namespace dancecard::dance {

/// One couple: two people who dance together in a round. Order is kept as written (generators reproduce the paper's
/// order).
struct couple {
  rank first = 0;
  rank second = 0;
  friend bool operator==(const couple&, const couple&) = default;
};

/// Rounds of dances for n people. All dances live in one vector; round r is [round_begin[r], round_begin[r+1]).
class dance_schedule {
 public:
  /// require: people >= 1.
  explicit dance_schedule(rank people);

  rank people() const noexcept { return people_; }
  std::size_t rounds() const noexcept { return round_begin_.size() - 1; }
  std::size_t dance_count() const noexcept { return dances_.size(); }

  /// require: r < rounds().
  std::span<const couple> round(std::size_t r) const {
    return {dances_.data() + round_begin_[r], dances_.data() + round_begin_[r + 1]};
  }
  /// Every dance of every round, in order.
  std::span<const couple> all_dances() const noexcept { return dances_; }
  /// Offsets: round r occupies all_dances()[round_offsets()[r] .. round_offsets()[r+1]).
  std::span<const std::size_t> round_offsets() const noexcept { return round_begin_; }

  /// Opens a new (empty) round; later add_dance calls go into it.
  void begin_round() { round_begin_.push_back(dances_.size()); }
  /// Appends a dance to the last round. require: rounds() > 0, a < people(), b < people() (else std::out_of_range).
  void add_dance(rank a, rank b) {
    if (a >= people_ || b >= people_ || rounds() == 0) [[unlikely]]
      reject_dance(a, b);
    dances_.push_back({a, b});
    round_begin_.back() = dances_.size();
  }
  /// Capacity hint to avoid reallocation when the sizes are known.
  void reserve(std::size_t rounds, std::size_t dances);

  friend bool operator==(const dance_schedule&, const dance_schedule&) = default;

 private:
  [[noreturn]] void reject_dance(rank a, rank b) const;

  rank people_;
  std::vector<couple> dances_;
  std::vector<std::size_t> round_begin_;  // rounds() + 1 offsets, first is 0
};

/// A schedule's dances and round offsets in memory someone else owns (a NumPy array from Python), with the accessors
/// of dance_schedule and no copy; a dance_schedule converts to it. The structural invariant is the owner's to keep:
/// every rank below people(), offsets non-decreasing from 0 to dances.size() (rounds() + 1 of them).
class dance_schedule_view {
 public:
  dance_schedule_view(rank people, std::span<const couple> dances, std::span<const std::size_t> offsets)
      : people_(people), dances_(dances), offsets_(offsets) {}
  dance_schedule_view(const dance_schedule& s)  // NOLINT(google-explicit-constructor): a view of it, as a span's
      : people_(s.people()), dances_(s.all_dances()), offsets_(s.round_offsets()) {}

  rank people() const noexcept { return people_; }
  std::size_t rounds() const noexcept { return offsets_.size() - 1; }
  std::size_t dance_count() const noexcept { return dances_.size(); }
  std::span<const couple> round(std::size_t r) const {
    return dances_.subspan(offsets_[r], offsets_[r + 1] - offsets_[r]);
  }
  std::span<const couple> all_dances() const noexcept { return dances_; }
  std::span<const std::size_t> round_offsets() const noexcept { return offsets_; }

 private:
  rank people_;
  std::span<const couple> dances_;
  std::span<const std::size_t> offsets_;
};

/// The paper's n × t partner matrix, 1-based: entry (i, r) is the partner of person i in round r, or i when idle.
/// Stored row-major (a row per person), values 1..n. It can express what a schedule cannot: asymmetric entries.
class partner_matrix {
 public:
  /// require: people >= 1. All entries start idle.
  partner_matrix(rank people, std::size_t rounds);

  rank people() const noexcept { return people_; }
  std::size_t rounds() const noexcept { return rounds_; }
  /// 1-based person i, 1-based round r. require: 1 <= i <= people, 1 <= r <= rounds.
  std::uint32_t at(rank i, std::size_t r) const { return entries_[(i - 1) * rounds_ + (r - 1)]; }
  void set(rank i, std::size_t r, std::uint32_t partner) { entries_[(i - 1) * rounds_ + (r - 1)] = partner; }
  std::span<const std::uint32_t> entries() const noexcept { return entries_; }
  std::span<std::uint32_t> entries() noexcept { return entries_; }

  friend bool operator==(const partner_matrix&, const partner_matrix&) = default;

 private:
  rank people_;
  std::size_t rounds_;
  std::vector<std::uint32_t> entries_;
};

/// Calls visit(r, column) for the 1-based rounds r = 1..rounds() in order, where column[i - 1] = P(i, r). The matrix
/// is stored a row per person, so reading one column directly touches one memory page per person; this reads blocks
/// of rounds row by row into a small buffer instead (a blocked transpose), which keeps large matrices fast.
template <class Visit>
void for_each_round(const partner_matrix& matrix, Visit&& visit) {
  constexpr std::size_t block = 32;
  const std::size_t n = matrix.people();
  std::vector<std::uint32_t> buffer(block * n);
  for (std::size_t first = 1; first <= matrix.rounds(); first += block) {
    const std::size_t width = std::min(block, matrix.rounds() - first + 1);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t* row = matrix.entries().data() + i * matrix.rounds() + (first - 1);
      for (std::size_t c = 0; c < width; ++c) buffer[c * n + i] = row[c];
    }
    for (std::size_t c = 0; c < width; ++c) visit(first + c, std::span<const std::uint32_t>(buffer.data() + c * n, n));
  }
}

/// The matrix of a schedule. A person in two dances of one round keeps the later entry (the checker reports the
/// double booking on the schedule itself; the matrix cannot show it).
partner_matrix to_partner_matrix(const dance_schedule& schedule);

/// The schedule of a matrix: each entry j > i with P(j, r) == i becomes the dance (i-1, j-1) in round r.
/// Entries that are not mirrored are dropped here; use checkers::check_partner_matrix to have them reported.
dance_schedule from_partner_matrix(const partner_matrix& matrix);

/// Text form of a dance: "(a, b)" with 0-based ranks.
std::string to_string(couple d);

}  // namespace dancecard::dance
