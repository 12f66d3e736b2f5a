// The flat dance schedule and its conversions to and from the paper's partner matrix.
#include "dancecard/core/dance/schedule.hpp"

#include <algorithm>

namespace dancecard::dance {

dance_schedule::dance_schedule(rank people) : people_(people), round_begin_{0} {
  if (people == 0) throw std::invalid_argument("dance_schedule: n must be at least 1");
}

void dance_schedule::reject_dance(rank a, rank b) const {
  if (rounds() == 0) throw std::logic_error("dance_schedule::add_dance before begin_round");
  throw std::out_of_range("dance_schedule::add_dance: rank " + std::to_string(a >= people_ ? a : b) +
                          " out of range for n = " + std::to_string(people_));
}

void dance_schedule::reserve(std::size_t rounds, std::size_t dances) {
  round_begin_.reserve(rounds + 1);
  dances_.reserve(dances);
}

partner_matrix::partner_matrix(rank people, std::size_t rounds)
    : people_(people), rounds_(rounds), entries_(static_cast<std::size_t>(people) * rounds) {
  if (people == 0) throw std::invalid_argument("partner_matrix: n must be at least 1");
  for (rank i = 0; i < people; ++i)
    std::fill_n(entries_.begin() + static_cast<std::ptrdiff_t>(i * rounds), rounds, i + 1);
}

partner_matrix to_partner_matrix(const dance_schedule& schedule) {
  // Blocks of rounds are assembled column-wise in a buffer and then written out row by row (see for_each_round):
  // writing each dance straight into the row-major matrix would touch one page per person in every round.
  constexpr std::size_t block = 32;
  const rank n = schedule.people();
  const std::size_t t = schedule.rounds();
  partner_matrix matrix(n, t);
  std::vector<std::uint32_t> buffer(block * n);
  for (std::size_t first = 0; first < t; first += block) {
    const std::size_t width = std::min(block, t - first);
    for (std::size_t c = 0; c < width; ++c) {
      std::uint32_t* column = buffer.data() + c * n;
      for (rank i = 0; i < n; ++i) column[i] = i + 1;
      for (couple d : schedule.round(first + c)) {
        column[d.first] = d.second + 1;
        column[d.second] = d.first + 1;
      }
    }
    for (rank i = 0; i < n; ++i) {
      std::uint32_t* row = matrix.entries().data() + static_cast<std::size_t>(i) * t + first;
      for (std::size_t c = 0; c < width; ++c) row[c] = buffer[c * n + i];
    }
  }
  return matrix;
}

dance_schedule from_partner_matrix(const partner_matrix& matrix) {
  dance_schedule schedule(matrix.people());
  schedule.reserve(matrix.rounds(), matrix.entries().size() / 2);
  for_each_round(matrix, [&](std::size_t, std::span<const std::uint32_t> column) {
    schedule.begin_round();
    const std::size_t n = column.size();
    for (std::size_t i = 1; i <= n; ++i) {
      const std::uint32_t j = column[i - 1];
      if (j > i && j <= n && column[j - 1] == i) schedule.add_dance(static_cast<rank>(i - 1), j - 1);
    }
  });
  return schedule;
}

std::string to_string(couple d) {
  std::string text = "(";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on the one-expression form
  text += std::to_string(d.first);
  text += ", ";
  text += std::to_string(d.second);
  text += ")";
  return text;
}

}  // namespace dancecard::dance
