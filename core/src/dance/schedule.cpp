// The flat dance schedule and its conversions to and from the paper's partner matrix.
#include "dancecard/core/dance/schedule.hpp"

namespace dancecard {

dance_schedule::dance_schedule(rank people) : people_(people), round_begin_{0} {
  if (people == 0) throw std::invalid_argument("dance_schedule: n must be at least 1");
}

void dance_schedule::add_dance(rank a, rank b) {
  if (rounds() == 0) throw std::logic_error("dance_schedule::add_dance before begin_round");
  if (a >= people_ || b >= people_) {
    throw std::out_of_range("dance_schedule::add_dance: rank " + std::to_string(a >= people_ ? a : b) +
                            " out of range for n = " + std::to_string(people_));
  }
  dances_.push_back({a, b});
  round_begin_.back() = dances_.size();
}

void dance_schedule::reserve(std::size_t rounds, std::size_t dances) {
  round_begin_.reserve(rounds + 1);
  dances_.reserve(dances);
}

partner_matrix::partner_matrix(rank people, std::size_t rounds)
    : people_(people), rounds_(rounds), entries_(static_cast<std::size_t>(people) * rounds) {
  if (people == 0) throw std::invalid_argument("partner_matrix: n must be at least 1");
  for (rank i = 1; i <= people; ++i)
    for (std::size_t r = 1; r <= rounds; ++r) set(i, r, i);
}

partner_matrix to_partner_matrix(const dance_schedule& schedule) {
  partner_matrix matrix(schedule.people(), schedule.rounds());
  for (std::size_t r = 0; r < schedule.rounds(); ++r) {
    for (dance d : schedule.round(r)) {
      matrix.set(d.first + 1, r + 1, d.second + 1);
      matrix.set(d.second + 1, r + 1, d.first + 1);
    }
  }
  return matrix;
}

dance_schedule from_partner_matrix(const partner_matrix& matrix) {
  dance_schedule schedule(matrix.people());
  for (std::size_t r = 1; r <= matrix.rounds(); ++r) {
    schedule.begin_round();
    for (rank i = 1; i <= matrix.people(); ++i) {
      std::uint32_t j = matrix.at(i, r);
      if (j > i && j <= matrix.people() && matrix.at(j, r) == i) schedule.add_dance(i - 1, j - 1);
    }
  }
  return schedule;
}

std::string to_string(dance d) {
  return "(" + std::to_string(d.first) + ", " + std::to_string(d.second) + ")";
}

}  // namespace dancecard
