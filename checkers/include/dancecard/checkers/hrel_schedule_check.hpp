// Checks an h-relation schedule against its instance, in exact rational arithmetic:
//   ports     — half duplex: every PE in at most one transfer per slot (as sender or receiver); full duplex: at most
//               one send and at most one receive per slot;
//   rate      — a transfer moves at most `duration` packets in its slot (one packet per time unit);
//   causality — a PE sends only data it holds at the start of the slot (forwarded data arrived in an earlier slot);
//   delivery  — at the end every message is whole at its destination; nothing is invented (holdings never go
//               negative) or lost.
// Reports the makespan, or the violations with witnesses. The arithmetic is exact over 64-bit rationals: where a sum
// leaves them (amounts near 2^63, or durations whose denominators' lcm passes 2^63) it throws std::overflow_error
// rather than answer from a wrapped number; `dancecard check hrel` reports that as bad input (exit 2).
//
//   auto r = dancecard::hrel::check_hrel_schedule(instance, schedule, dancecard::hrel::duplex::half);
//   r.holds() && r.makespan == dancecard::rational(12, 5)
#pragma once

#include <array>
#include <string>

#include "dancecard/checkers/report.hpp"
#include "dancecard/core/hrel/instance.hpp"

namespace dancecard::hrel {

enum class duplex { half, full };

enum class hrel_violation_kind {
  port_busy,            // PE `pe` is in two transfers of slot `slot` (transfers `first`, `second` of the slot)
  amount_not_positive,  // transfer `first` of slot `slot` moves nothing or a negative amount
  amount_exceeds_slot,  // transfer `first` of slot `slot` moves more than the slot's duration
  not_yet_held,         // transfer `first` of slot `slot`: PE `pe` holds only `held` of message `message`
  message_incomplete,   // message `message` has `held` of its packets at its destination at the end
  bad_reference,        // transfer `first` of slot `slot` names a PE or message that does not exist
  bad_duration,         // slot `slot` has a non-positive duration
};
inline constexpr std::size_t hrel_violation_kind_count = 7;
std::string_view to_string(hrel_violation_kind kind);

struct hrel_violation {
  hrel_violation_kind kind{};
  std::size_t slot = 0, first = 0, second = 0, message = 0;
  rank pe = 0;
  rational held, amount;
};
std::string describe(const hrel_violation& v);

struct hrel_report : report<hrel_violation> {
  std::array<std::uint64_t, hrel_violation_kind_count> count_by_kind{};
  rational makespan;  // Σ durations (also when violated)
  std::uint64_t count(hrel_violation_kind k) const { return count_by_kind[static_cast<std::size_t>(k)]; }
};

hrel_report check_hrel_schedule(const hrel_instance& instance, const hrel_schedule& schedule, duplex mode,
                                std::size_t max_witnesses = 10);
std::string describe(const hrel_report& report);

}  // namespace dancecard::hrel
