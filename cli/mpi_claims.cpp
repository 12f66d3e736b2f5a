// Theorem-book rows for the directed (full-duplex) model and the schedules MPI libraries ship (issue: property-test
// anyone's scheduler). Not claims of the four papers, but facts users rely on when they pick a model.
#include <bit>
#include <string>

#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/smt/directed.hpp"
#include "theorem_book.hpp"

namespace dancecard {

using namespace dancecard::dance;

void register_mpi_claims(theorem_book& book) {
  const std::string paper = "mpi-libraries";
  book.add({"mpi.pairwise.full_duplex", paper, "Open MPI / MPICH pairwise all-to-all",
            "both pairwise schedules are optimal full-duplex all-to-all schedules (p - 1 rounds)",
            claim_method::generator_and_checker, [] {
              for (rank p = 2; p <= 64; ++p)
                for (const directed_schedule& s : {openmpi_pairwise_schedule(p), mpich_pairwise_schedule(p)})
                  if (!check_directed_schedule(s).holds() || s.rounds() != p - 1)
                    return claim_result{verdict::violated, "p = 2..64",
                                        "p = " + std::to_string(p) + ": " + describe(check_directed_schedule(s))};
              return claim_result{verdict::holds, "p = 2..64", "directed checker accepts both in p - 1 rounds"};
            }});
  book.add(
      {"mpi.pairwise.half_duplex", paper, "Open MPI / MPICH pairwise all-to-all",
       "MPICH's XOR exchange is a half-duplex dance schedule (Q_p) exactly for powers of two; the shift only for p = 2",
       claim_method::generator_and_checker, [] {
         for (rank p = 2; p <= 64; ++p) {
           const bool xor_valid = check_dance_schedule(dance_view(mpich_pairwise_schedule(p))).holds();
           const bool shift_valid = check_dance_schedule(dance_view(openmpi_pairwise_schedule(p))).holds();
           if (xor_valid != std::has_single_bit(p) || shift_valid != (p == 2))
             return claim_result{verdict::violated, "p = 2..64", "p = " + std::to_string(p)};
           if (std::has_single_bit(p) &&
               to_partner_matrix(dance_view(mpich_pairwise_schedule(p))) != to_partner_matrix(searching_schedule(p)))
             return claim_result{verdict::violated, "p = 2..64",
                                 "XOR exchange differs from Q_p at p = " + std::to_string(p)};
         }
         return claim_result{verdict::holds, "p = 2..64", "dance checker on the half-duplex reading of each"};
       }});
  book.add({"mpi.directed.optimum", paper, "full-duplex all-to-all", "n - 1 rounds are optimal for every n",
            claim_method::smt,
            [] {
              std::uint64_t cp = 0, drat = 0, timeouts = 0;
              for (rank n = 2; n <= 16; ++n) {
                const auto r = prove_directed_optimum(n, {.timeout_ms = 30'000, .clausal_budget_ms = 1'000});
                if (r.status != proof_status::proven)
                  return claim_result{r.status == proof_status::refuted ? verdict::violated : verdict::unknown,
                                      "n = 2..16", "n = " + std::to_string(n) + ": " + r.reason};
                cp += r.certificate && r.certificate->accepted ? 1 : 0;
                drat += r.clausal && r.clausal->accepted ? 1 : 0;
                timeouts += r.clausal && r.clausal->status == "timeout" ? 1 : 0;
              }
              return claim_result{verdict::holds, "n = 2..16",
                                  "Z3 witness accepted by the directed checker, n - 2 rounds unsat",
                                  "cutting planes: " + std::to_string(cp) + " checked; DRAT: " + std::to_string(drat) +
                                      " checked, " + std::to_string(timeouts) + " CaDiCaL timeouts"};
            },
            claim_cost::slow});
}

}  // namespace dancecard
