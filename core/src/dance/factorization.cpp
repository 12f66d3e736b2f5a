// Section 5 of the dance-party paper: one-factorization of K_2m, near-one-factorization of K_2m−1, and G_n.
//
// The one-factorization is the classical rotation ("round-robin circle") construction: vertex 0 at the centre,
// vertices 1..2m−1 on a circle; factor F_i takes the radius (0, i+1) and the m−1 chords perpendicular to it,
// (v_{i+j+1}, v_{i−j+1}) for j = 1..m−1, with subscripts read in 1..2m−1 modulo 2m−1. Deleting vertex 2m−1 leaves a
// near-one-factorization of K_2m−1. G_n is given by the paper's closed formula G'_n, which we evaluate directly
// (not through the factors) so that the tests can compare the two constructions.
#include <stdexcept>

#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/dance/round_counts.hpp"

namespace dancecard::dance {

namespace {

// Mathematical k mod q, for a possibly negative k.
std::int64_t modulo(std::int64_t k, std::int64_t q) { return ((k % q) + q) % q; }

dance_schedule factorization_of_k2m(rank m, bool drop_last_vertex) {
  if (m == 0) throw std::invalid_argument("one_factorization: m must be at least 1");
  const std::int64_t q = 2 * static_cast<std::int64_t>(m) - 1;
  const rank last = static_cast<rank>(q);  // vertex 2m − 1
  dance_schedule factors(drop_last_vertex ? last : last + 1);
  auto on_circle = [q](std::int64_t k) { return static_cast<rank>(modulo(k - 1, q) + 1); };
  for (std::int64_t i = 0; i < q; ++i) {
    factors.begin_round();
    auto add = [&](rank a, rank b) {
      if (!drop_last_vertex || (a != last && b != last)) factors.add_dance(a, b);
    };
    add(0, static_cast<rank>(i + 1));
    for (std::int64_t j = 1; j < static_cast<std::int64_t>(m); ++j) add(on_circle(i + j + 1), on_circle(i - j + 1));
  }
  return factors;
}

}  // namespace

dance_schedule one_factorization(rank m) { return factorization_of_k2m(m, false); }

dance_schedule near_one_factorization(rank m) { return factorization_of_k2m(m, true); }

dance_schedule factorization_schedule(rank n) {
  dance_schedule schedule(n);
  const std::int64_t m = (static_cast<std::int64_t>(n) + 1) / 2;  // n = 2m or n = 2m − 1
  const std::int64_t rounds = 2 * m - 1;
  schedule.reserve(static_cast<std::size_t>(rounds), sequential_rounds(n));
  const std::int64_t q = 2 * m - 1;
  const auto people = static_cast<std::int64_t>(n);
  for (std::int64_t r = 0; r < rounds; ++r) {
    schedule.begin_round();
    // G'_2m(i, r) = r + 1 for i = 0, 0 for i = r + 1, else (2r − i + 1) mod (2m − 1) + 1. The residue falls by one
    // (with wrap-around) as i grows, so it is updated instead of divided out for every entry.
    // G'_2m−1(i, r) = i (idle) where G'_2m(i, r) = 2m − 1, the deleted vertex: those partners are >= n and dropped.
    if (r + 1 < people) schedule.add_dance(0, static_cast<rank>(r + 1));
    std::int64_t residue = modulo(2 * r, q);  // (2r − i + 1) mod q at i = 1
    for (std::int64_t i = 1; i < people; ++i) {
      const std::int64_t partner = i == r + 1 ? 0 : residue + 1;
      if (partner > i && partner < people) schedule.add_dance(static_cast<rank>(i), static_cast<rank>(partner));
      residue = residue == 0 ? q - 1 : residue - 1;
    }
  }
  return schedule;
}

dance_schedule remove_person(const dance_schedule& schedule, rank dummy) {
  if (schedule.people() < 2 || dummy >= schedule.people())
    throw std::invalid_argument("remove_person: need n >= 2 and dummy < n");
  dance_schedule reduced(schedule.people() - 1);
  reduced.reserve(schedule.rounds(), schedule.dance_count());
  auto relabel = [dummy](rank p) { return p > dummy ? p - 1 : p; };
  for (std::size_t r = 0; r < schedule.rounds(); ++r) {
    reduced.begin_round();
    for (couple d : schedule.round(r))
      if (d.first != dummy && d.second != dummy) reduced.add_dance(relabel(d.first), relabel(d.second));
  }
  return reduced;
}

std::string_view name(dance_algorithm algorithm) {
  switch (algorithm) {
    case dance_algorithm::sequential:
      return "sequential";
    case dance_algorithm::searching:
      return "searching";
    case dance_algorithm::divide:
      return "divide";
    case dance_algorithm::factorization:
      return "factorization";
  }
  return "?";
}

std::optional<dance_algorithm> parse_dance_algorithm(std::string_view text) {
  for (dance_algorithm a : all_dance_algorithms)
    if (name(a) == text) return a;
  return std::nullopt;
}

dance_schedule generate(dance_algorithm algorithm, rank n) {
  switch (algorithm) {
    case dance_algorithm::sequential:
      return sequential_schedule(n);
    case dance_algorithm::searching:
      return searching_schedule(n);
    case dance_algorithm::divide:
      return divide_and_conquer_schedule(n);
    case dance_algorithm::factorization:
      return factorization_schedule(n);
  }
  throw std::invalid_argument("generate: unknown algorithm");
}

}  // namespace dancecard::dance
