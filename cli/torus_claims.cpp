// Theorem-book rows for the torus paper (the parts built so far: Section 3.1 / Theorem 2).
#include <string>

#include "dancecard/checkers/torus_check.hpp"
#include "theorem_book.hpp"

namespace dancecard {

void register_torus_claims(theorem_book& book) {
  book.add({"torus.thm2", "torus-gossip", "Section 3.1, Theorem 2",
            "n1, n2 even: the rules form two edge-disjoint Hamiltonian cycles, and with 2 packets per PU gossip takes "
            "n1 n2 / 2 steps",
            claim_method::simulation, [] {
              std::uint64_t count = 0;
              for (std::uint32_t rows = 2; rows <= 24; rows += 2)
                for (std::uint32_t cols = 2; cols <= 24; cols += 2) {
                  const routing_table table = hamiltonian_2d(torus({rows, cols}));
                  const torus_cycle_report cycles = forwarding_cycles(table);
                  const gossip_report run = simulate_gossip(table);
                  const std::string where = std::to_string(rows) + "x" + std::to_string(cols);
                  if (!cycles.holds() || !cycles.all_hamiltonian || cycles.undirected_cycles != 2)
                    return claim_result{verdict::violated, "n1, n2 = 2..24 even", where + ": " + describe(cycles)};
                  if (!run.holds() || run.steps != static_cast<std::uint64_t>(rows) * cols / 2)
                    return claim_result{verdict::violated, "n1, n2 = 2..24 even",
                                        where + ": " + (run.holds() ? std::to_string(run.steps) + " steps" : describe(run))};
                  ++count;
                }
              return claim_result{verdict::holds, "n1, n2 = 2..24 even (" + std::to_string(count) + " tori)",
                                  "2 undirected Hamiltonian cycles each; simulated steps = n1 n2 / 2 exactly"};
            }});
}

}  // namespace dancecard
