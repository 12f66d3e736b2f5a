// Theorem-book rows for the torus paper (the parts built so far: Section 3.1 / Theorem 2).
#include <string>
#include <tuple>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/smt/torus_encoding.hpp"
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

void register_torus_smt_claims(theorem_book& book) {
  book.add({"torus.smt.pairing_minima", "torus-gossip", "Section 2 (small tori)",
            "time-independent pairing routing with one packet per PU needs more than the time-dependent optimum "
            "ceil((P-1)/4): 3x3, 3x4, 3x5 need exactly one step more",
            claim_method::smt, [] {
              std::string evidence;
              for (const auto& [rows, cols, expected] : {std::tuple{3u, 3u, 3u}, std::tuple{3u, 4u, 4u}, std::tuple{3u, 5u, 5u}}) {
                const torus t({rows, cols});
                const torus_minimum_result r = prove_torus_pairing_minimum(t, 120'000);
                const std::uint64_t optimum = (t.size() - 1 + 3) / 4;
                if (r.status != proof_status::proven)
                  return claim_result{verdict::unknown, "3x3, 3x4, 3x5", t.name() + ": " + r.reason};
                if (r.minimum_steps != expected || r.minimum_steps != optimum + 1)
                  return claim_result{verdict::violated, "3x3, 3x4, 3x5",
                                      t.name() + ": minimum " + std::to_string(r.minimum_steps) + ", time-dependent " +
                                          std::to_string(optimum)};
                evidence += (evidence.empty() ? "" : "; ") + t.name() + " " + std::to_string(r.minimum_steps) + " vs " +
                            std::to_string(optimum) + " (" + std::to_string(static_cast<long long>(r.seconds * 1000)) + " ms)";
              }
              return claim_result{verdict::holds, "3x3, 3x4, 3x5", evidence + "; witness pairings simulated, one step less unsat",
                                  "none: Z3's unsat only"};
            }});
}

}  // namespace dancecard
