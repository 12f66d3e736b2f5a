// JSON for h-relations: instances ("dancecard.hrel/1") and slot schedules ("dancecard.hrel-schedule/1"), with the
// same positioned errors as the schedule formats (format_error: "messages[2].packets: ...").
//
//   {"format": "dancecard.hrel/1", "P": 6, "messages": [{"src": 0, "dst": 1, "packets": 3}, ...]}
//   {"format": "dancecard.hrel-schedule/1", "P": 6, "slots": [{"duration": "1/5",
//     "transfers": [{"from": 0, "to": 1, "message": 0, "amount": "1/5"}]}, ...]}
#pragma once

#include <iosfwd>
#include <string_view>

#include "dancecard/core/hrel/instance.hpp"
#include "dancecard/formats/dance_io.hpp"

namespace dancecard::hrel {

inline constexpr std::string_view hrel_format_name = "dancecard.hrel/1";
inline constexpr std::string_view hrel_schedule_format_name = "dancecard.hrel-schedule/1";

hrel_instance read_hrel_instance(std::string_view text);
void write_hrel_instance(std::ostream& out, const hrel_instance& instance);

/// Durations and amounts are exact: an integer or a string "a/b".
hrel_schedule read_hrel_schedule(std::string_view text);
void write_hrel_schedule(std::ostream& out, const hrel_schedule& schedule);

}  // namespace dancecard::hrel
