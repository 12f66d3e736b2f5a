// Checks a dance schedule against the paper's constraints (i)–(iii), optionally restricted to a required pair set
// (then it is an edge-colouring check) and to the side conditions a real scheduler has: fixed dances, forbidden
// dances, unavailable people, a round budget. Linear time in the schedule size plus O(n²/64) for the pair bits
// (n²/8 bytes).
//
//   dancecard::dance::dance_requirements req;           // default: the complete graph, as in the paper
//   auto r = dancecard::dance::check_dance_schedule(schedule, req);
//   // r.holds(), or r.witnesses[k].kind == dance_violation_kind::pair_never_meets with r.witnesses[k].a / .b
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "dancecard/checkers/report.hpp"
#include "dancecard/core/dance/schedule.hpp"

namespace dancecard::dance {

enum class dance_violation_kind {
  pair_never_meets,           // (i): a required pair {a, b} has no round
  pair_meets_twice,           // (i): {a, b} meets in `round` and again in `other_round`
  person_booked_twice,        // (ii): person a dances with b and with c in `round`
  self_dance,                 // (ii)/(iii): a pair (a, a) in `round`
  asymmetric_entry,           // (iii): P(a, round) = b but P(b, round) = c (matrix form only; 1-based in the text)
  entry_out_of_range,         // matrix entry P(a, round) = b is not in 1..n
  pair_not_allowed,           // {a, b} dances in `round` but is not in the required pair set
  fixed_dance_missing,        // requirement: {a, b} must dance in `round`
  forbidden_dance_present,    // requirement: {a, b} may not dance in `round`
  unavailable_person_dances,  // requirement: a is unavailable in `round` but dances with b
  too_many_rounds,            // requirement: at most b rounds, the schedule has `round`
};
inline constexpr std::size_t dance_violation_kind_count = 11;
std::string_view to_string(dance_violation_kind kind);

/// One violation and its witness. Which fields are meaningful depends on the kind (see the enum). Ranks are 0-based
/// and rounds 0-based, except in describe(), which also gives the paper's 1-based numbering.
struct dance_violation {
  dance_violation_kind kind{};
  rank a = 0, b = 0, c = 0;
  std::size_t round = 0, other_round = 0;
};
std::string describe(const dance_violation& v);

struct fixed_dance {
  rank a = 0, b = 0;
  std::size_t round = 0;
};
struct unavailability {
  rank person = 0;
  std::size_t round = 0;
};

/// What a schedule must satisfy besides (ii) and (iii). The default is the paper's: every pair exactly once.
struct dance_requirements {
  /// The pairs that must meet exactly once (an edge-colouring check); nullopt = all n(n-1)/2 pairs.
  std::optional<std::vector<std::pair<rank, rank>>> required_pairs;
  std::vector<fixed_dance> fixed;      // must happen in that round
  std::vector<fixed_dance> forbidden;  // must not happen in that round
  std::vector<unavailability> unavailable;
  std::optional<std::size_t> max_rounds;
  std::size_t max_witnesses = 10;
};

struct dance_report : report<dance_violation> {
  std::array<std::uint64_t, dance_violation_kind_count> count_by_kind{};
  std::uint64_t count(dance_violation_kind k) const { return count_by_kind[static_cast<std::size_t>(k)]; }
};

/// Checks (i)–(iii) and the requirements. Never throws on a bad schedule; throws std::invalid_argument only for
/// requirements that name ranks outside [0, n) (a caller error, not a schedule error).
dance_report check_dance_schedule(const dance_schedule& schedule, const dance_requirements& requirements = {});
/// The same on dances in memory someone else owns (dance_schedule_view: every rank below people()).
dance_report check_dance_schedule(dance_schedule_view schedule, const dance_requirements& requirements = {});
/// The same where nobody has checked the ranks yet (a NumPy array): each round's ranks are compared with people()
/// just before the round is checked, while its dances are in cache, instead of in a pass of their own; nullopt where
/// a rank is out of range (the view then breaks its invariant, and its owner says where).
std::optional<dance_report> check_dance_schedule_unvalidated(dance_schedule_view schedule,
                                                             const dance_requirements& requirements = {});

/// Checks a partner matrix: entries in range and symmetric (iii), then (i)–(ii) and the requirements on the
/// symmetric part. Rounds and people in witnesses are 0-based like everywhere else.
dance_report check_partner_matrix(const partner_matrix& matrix, const dance_requirements& requirements = {});

/// One line per witness plus a summary of the counts, for people.
std::string describe(const dance_report& report);

/// A schedule together with the report that accepted it. The only way to build one is accept(), which runs the
/// checker: code that holds a checked_dance_schedule (such as an SMT optimality result) cannot hold an unchecked
/// witness by mistake.
class checked_dance_schedule {
 public:
  /// The checked schedule, or nullopt when the checker rejects it (the rejection is written to *rejection if given).
  static std::optional<checked_dance_schedule> accept(dance_schedule schedule, const dance_requirements& requirements,
                                                      dance_report* rejection = nullptr);
  const dance_schedule& schedule() const noexcept { return schedule_; }
  const dance_report& report() const noexcept { return report_; }

 private:
  checked_dance_schedule(dance_schedule s, dance_report r) : schedule_(std::move(s)), report_(std::move(r)) {}
  dance_schedule schedule_;
  dance_report report_;
};

}  // namespace dancecard::dance
