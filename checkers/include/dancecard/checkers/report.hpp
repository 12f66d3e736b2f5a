// The verdict every checker, simulator and proof in dancecard reports, and the report that carries witnesses.
//
// An invalid input is a *result* (verdict::violated plus witnesses), never an exception. A report keeps the first
// few witnesses of each run and the exact count of all violations found, so that a schedule with a million errors
// is still reported in linear time and constant output.
//
//   auto r = dancecard::dance::check_dance_schedule(s);
//   if (!r.holds()) for (const auto& v : r.witnesses) std::cerr << describe(v) << '\n';
#pragma once

#include <array>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace dancecard {

enum class verdict { holds, violated, unknown };

constexpr std::string_view to_string(verdict v) {
  switch (v) {
    case verdict::holds:
      return "holds";
    case verdict::violated:
      return "violated";
    case verdict::unknown:
      return "unknown";
  }
  return "?";
}

/// A checker's answer: the verdict, a sentence saying what was checked, the first witnesses and how many there are.
template <class Violation>
struct report {
  verdict outcome = verdict::holds;
  std::string checked;                // e.g. "constraints (i)-(iii) for n = 6 over 5 rounds (15 dances)"
  std::vector<Violation> witnesses;   // the first max_witnesses violations, in the order found
  std::uint64_t violation_count = 0;  // all violations found, reported or not

  bool holds() const noexcept { return outcome == verdict::holds; }

  /// Records a violation; keeps it as a witness while fewer than `limit` are kept.
  void add(Violation v, std::size_t limit) {
    outcome = verdict::violated;
    ++violation_count;
    if (witnesses.size() < limit) witnesses.push_back(std::move(v));
  }
};

/// The text of a report: the verdict and what was checked, a line per witness, and — when witnesses were left out —
/// the count of every kind. `describe(Violation)` and `to_string(Kind)` are found by argument-dependent lookup.
template <class Kind, class Violation, std::size_t N>
std::string describe_report(const report<Violation>& r, const std::array<std::uint64_t, N>& count_by_kind) {
  std::ostringstream s;
  s << to_string(r.outcome) << ": " << r.checked << "\n";
  for (const auto& v : r.witnesses) s << "  " << describe(v) << "\n";
  if (r.violation_count > r.witnesses.size()) {
    s << "  ... " << r.violation_count << " violations in all:";
    for (std::size_t k = 0; k < N; ++k)
      if (count_by_kind[k] > 0) s << " " << to_string(static_cast<Kind>(k)) << " " << count_by_kind[k] << ";";
    s << "\n";
  }
  return s.str();
}

}  // namespace dancecard
