// Cutting-planes certificates for the dance-party lower bounds (the counting argument of Proposition 1).
#include "dancecard/smt/dance_certificates.hpp"

#include <sstream>
#include <stdexcept>
#include <vector>

#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"

namespace dancecard::dance {

std::string dance_certificate_instance(rank n, std::uint64_t rounds) {
  return "dance n=" + std::to_string(n) + " rounds=" + std::to_string(rounds);
}

std::string dance_lower_bound_certificate(rank n) {
  if (n < 2) throw std::invalid_argument("dance_lower_bound_certificate: n must be at least 2");
  const std::uint64_t rounds = optimal_rounds(n) - 1;
  std::ostringstream out;
  out << certificates::cutting_planes_format_name << "\n";
  out << "# Proposition 1 of the dance-party paper: no schedule for " << n << " people in " << rounds << " rounds.\n";
  out << "instance " << dance_certificate_instance(n, rounds) << "\n";
  if (n % 2 == 0) {
    out << "# person 0 dances at most once per round, but must meet all " << n - 1 << " others\n";
    out << "c 1 sum";
    for (std::uint64_t r = 0; r < rounds; ++r) out << " 1 person:0:" << r;
    for (rank q = 1; q < n; ++q) out << " 1 pair:0:" << q;
    out << "\ncontradiction #1\n";
    return out.str();
  }
  out << "# each round holds at most (n-1)/2 dances: sum the person axioms, divide by 2 and round\n";
  std::uint64_t id = 0;
  std::vector<std::uint64_t> per_round;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    out << "c " << ++id << " sum";
    for (rank p = 0; p < n; ++p) out << " 1 person:" << p << ":" << r;
    out << "\nc " << id + 1 << " div 2 #" << id << "\ndel #" << id << "\n";
    per_round.push_back(++id);
  }
  out << "# all n(n-1)/2 pairs must meet, but the rounds hold only " << rounds << "*(n-1)/2 dances\n";
  out << "c " << ++id << " sum";
  for (std::uint64_t k : per_round) out << " 1 #" << k;
  for (rank a = 0; a < n; ++a)
    for (rank b = a + 1; b < n; ++b) out << " 1 pair:" << a << ":" << b;
  out << "\ncontradiction #" << id << "\n";
  return out.str();
}

}  // namespace dancecard::dance
