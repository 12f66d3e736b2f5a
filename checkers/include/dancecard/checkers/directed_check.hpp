// Checks a full-duplex directed schedule: per round every rank sends at most once and receives at most once, no rank
// sends to itself, and every ordered pair (i, j), i ≠ j, is sent exactly once. Linear time plus n²/8 bytes.
//
//   auto r = dancecard::dance::check_directed_schedule(dancecard::dance::openmpi_pairwise_schedule(8));   // r.holds()
#pragma once

#include <array>
#include <optional>
#include <string>

#include "dancecard/checkers/report.hpp"
#include "dancecard/core/dance/directed.hpp"

namespace dancecard::dance {

enum class directed_violation_kind {
  ordered_pair_missing,   // i never sends to j
  ordered_pair_repeated,  // i sends to j in `round` and again in `other_round`
  sends_twice,            // i sends to j and to k in `round`
  receives_twice,         // j receives from i and from k in `round` (a = j, b = i, c = k)
  self_transfer,          // i sends to itself in `round`
};
inline constexpr std::size_t directed_violation_kind_count = 5;
std::string_view to_string(directed_violation_kind kind);

struct directed_violation {
  directed_violation_kind kind{};
  rank a = 0, b = 0, c = 0;
  std::size_t round = 0, other_round = 0;
};
std::string describe(const directed_violation& v);

struct directed_report : report<directed_violation> {
  std::array<std::uint64_t, directed_violation_kind_count> count_by_kind{};
  std::uint64_t count(directed_violation_kind k) const { return count_by_kind[static_cast<std::size_t>(k)]; }
};

directed_report check_directed_schedule(const directed_schedule& schedule, std::size_t max_witnesses = 10);
std::string describe(const directed_report& report);

/// A directed schedule with the report that accepted it; only accept() builds one (see checked_dance_schedule).
class checked_directed_schedule {
 public:
  static std::optional<checked_directed_schedule> accept(directed_schedule schedule, std::size_t max_rounds,
                                                         directed_report* rejection = nullptr);
  const directed_schedule& schedule() const noexcept { return schedule_; }
  const directed_report& report() const noexcept { return report_; }

 private:
  checked_directed_schedule(directed_schedule s, directed_report r) : schedule_(std::move(s)), report_(std::move(r)) {}
  directed_schedule schedule_;
  directed_report report_;
};

}  // namespace dancecard::dance
