// Certificates for the dance-party lower bound T(n) ≥ n − 1 (even n) / n (odd n) that code sharing nothing with
// the solver can check (checkers/cutting_planes_check.hpp).
//
//   std::string cp = dancecard::dance::dance_lower_bound_certificate(9);   // "dancecard.cp/1 ... contradiction #17"
//   dancecard::certificates::check_cutting_planes(cp).outcome == verdict::holds
#pragma once

#include <string>

#include "dancecard/core/dance/schedule.hpp"

namespace dancecard::dance {

/// A cutting-planes refutation of "a schedule for n people in T(n) − 1 rounds exists" (Proposition 1):
/// odd n — for each round, the person axioms add up to −2·(dances in the round) ≥ −n, and division by 2 rounds
///         this to −dances ≥ −(n−1)/2; adding the n − 1 rounds and the pair axioms gives 0 ≥ (n−1)/2;
/// even n — person 0's axioms over the n − 2 rounds plus its n − 1 pair axioms give 0 ≥ 1.
/// O(n³) text for odd n (about 1 MB at n = 200), O(n) for even n. require: n >= 2.
std::string dance_lower_bound_certificate(rank n);

/// The instance such a certificate refutes, as the checker names it (cutting_planes_report::instance):
/// "dance n=N rounds=R".
std::string dance_certificate_instance(rank n, std::uint64_t rounds);

}  // namespace dancecard::dance
