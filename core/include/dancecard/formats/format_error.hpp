// The error every reader throws: the place in the input (a JSON path such as rounds[2][1][0], or a line and column)
// and the problem, so that a user can fix the file without reading our code. Shared by every format.
#pragma once

#include <stdexcept>
#include <string>

#include "dancecard/core/dance/schedule.hpp"

namespace dancecard {

/// A malformed input. what() is "<place>: <problem>", e.g. "rounds[0][1][0]: rank 7 is out of range for n = 4".
class format_error : public std::runtime_error {
 public:
  format_error(std::string place, const std::string& problem)
      : std::runtime_error(place + ": " + problem), place_(std::move(place)) {}
  const std::string& place() const noexcept { return place_; }

 private:
  std::string place_;
};

/// The largest n any reader accepts: a guard against allocating for a typo such as n = 1e12 (checking n people
/// needs n²/16 bytes of pair bitset: 625 MB at this limit).
inline constexpr rank max_readable_people = 100'000;

}  // namespace dancecard
