// Checks cutting-planes certificates ("dancecard.cp/1") in exact integer arithmetic, sharing no code with any solver.
//
// A certificate names an instance — a 0/1 integer program that the checker builds itself from the instance line —
// and derives new linear constraints Σ a_i x_i ≥ b from the instance's axioms by
//   sum  c_1 R_1 c_2 R_2 ...   non-negative integer combination of axioms and earlier derived constraints,
//   div  k R                   division by k ≥ 1 with rounding up (Chvátal–Gomory; sound because every x_i ≥ 0),
//   del  R                     forgetting a derived constraint (memory only),
// until `contradiction R` names a derived constraint that no 0/1 assignment satisfies (Σ of its positive
// coefficients < b, e.g. 0 ≥ 1). The file format is documented in docs/formats.md.
//
// Instances:
//   dance n=N rounds=R   — "a dance schedule for N people in R rounds exists": x(a,b,r) ∈ {0,1} for every pair
//                          a < b and round r; axioms
//                          pair:a:b          Σ_r x(a,b,r) ≥ 1             (every pair meets, (i))
//                          pair-atmost:a:b   −Σ_r x(a,b,r) ≥ −1           (at most once, (i))
//                          person:p:r        −Σ_q x(p,q,r) ≥ −1           (p dances at most once in round r, (ii))
//                          lower:a:b:r       x(a,b,r) ≥ 0,   upper:a:b:r   −x(a,b,r) ≥ −1
//   directed n=N rounds=R — "a full-duplex all-to-all schedule for N ranks in R rounds exists": x(i,j,r) ∈ {0,1}
//                          for i ≠ j; axioms send:i:j (Σ_r x(i,j,r) ≥ 1), sender:i:r (−Σ_j x(i,j,r) ≥ −1),
//                          receiver:j:r (−Σ_i x(i,j,r) ≥ −1)
//   hrel pes=P k=K slots=T forwarding=F messages=s>d*n,... — "every message (k·n pieces of 1/k packet) reaches its
//                          destination within T slots of 1/k, half duplex": x(t,a,b,m) = "in slot t, PE a sends a piece
//                          of m to PE b", every a ≠ b with F = 1 (moves back to the source or out of the destination
//                          included), only a = s, b = d with F = 0; axioms
//                          busy:p:t      −Σ (moves of p in slot t) ≥ −1                       (half duplex)
//                          hold:p:m:t    Σ_{t'<t} received − Σ_{t'≤t} sent ≥ −initial(p, m)   (only held pieces)
//                          final:p:m     Σ received − Σ sent ≥ −initial(p, m)                 (ends with >= 0)
//                          deliver:m     Σ received − Σ sent at d ≥ k·n                       (d ends with all)
//                          lower:t:a:b:m, upper:t:a:b:m   0/1 bounds (initial: k·n at the source, 0 elsewhere)
//
//   auto report = dancecard::certificates::check_cutting_planes(text);   // report.outcome == verdict::holds: accepted
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dancecard/checkers/report.hpp"

namespace dancecard::certificates {

inline constexpr std::string_view cutting_planes_format_name = "dancecard.cp/1";

struct cutting_planes_report {
  verdict outcome = verdict::violated;   // holds: every step valid and a contradiction derived
  bool malformed = false;                // the text is not a certificate at all (syntax, unknown instance)
  std::string instance;                  // what the certificate refutes, e.g. "dance n=7 rounds=6"
  std::uint64_t steps = 0;               // derivation steps checked
  std::uint64_t largest_constraint = 0;  // most terms in a derived constraint
  std::size_t line = 0;                  // 1-based line of the failure, 0 when accepted
  std::string problem;                   // why rejected or malformed
};

/// Checks a certificate. Never throws on bad input: malformed text gives malformed = true.
cutting_planes_report check_cutting_planes(std::string_view text);

std::string describe(const cutting_planes_report& report);

}  // namespace dancecard::certificates
