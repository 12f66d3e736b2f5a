// sweep_twins: Theorems 3 and 4 with two packets per PU on the partial cycles of Sections 3.2 and 3.3, by the twin
// hand-over (core: twin_cycle_routing), each table simulated and locality-checked by checkers/ — the sweep of
// docs/torus.md behind "exactly ⌈n1·n2/2⌉ on every swept partial torus", kept so that anyone can run it again. Every
// n1 × n2 torus with n1 in --rows and odd n2 in --cols where partial_2d_cycles applies (n1 even, or odd >= 5). A
// torus holds when the table completes gossip in exactly ⌈n1·n2/2⌉ steps (the theorems' count; for even P also the
// counting bound), the plan's target says the same, and every PU gets both directions of every cycle it is off.
// Exit 0: every torus holds; 1: some did not (named, with the reason); 2: bad arguments.
//   build/bin/sweep_twins --rows 2..30 --cols 5..31
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "sweep_args.hpp"

int main(int argc, char** argv) {
  using namespace dancecard;
  using namespace dancecard::torus;
  CLI::App app{
      "Theorems 3 and 4 with two packets per PU over a range of partial-cycle tori, by the twin hand-over, each table "
      "checked"};
  std::string rows = "2..12", cols = "5..13";
  app.add_option("--rows", rows, "A..B, the range of n1 (A >= 2)");
  app.add_option("--cols", cols, "A..B, the range of n2 (A >= 5; only odd n2)");
  dancecard::ranges::value_range r, c;
  try {
    app.parse(argc, argv);
    r = sweep_args::parse_range("--rows", rows, 2);
    c = sweep_args::parse_range("--cols", cols, 5);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  std::uint64_t total = 0, failed = 0, at_counting = 0, switches = 0;
  double worst = 0;
  std::string worst_name;
  for (std::uint32_t n1 = r.first; n1 <= r.last; ++n1)
    for (std::uint32_t n2 = static_cast<std::uint32_t>(c.first | 1); n2 <= c.last; n2 += 2) {
      if (n1 % 2 == 1 && n1 < 5) continue;  // partial_2d_cycles: n1 even or odd >= 5
      const torus::network t({n1, n2});
      const cycle_system system = partial_2d_cycles(t);
      const std::uint64_t P = t.size(), count = (P + 1) / 2, counting = (2 * (P - 1) + 3) / 4;
      ++total;
      const auto start = std::chrono::steady_clock::now();
      std::string problem;
      std::uint64_t steps = 0;
      try {
        const twin_routing_result twin = twin_cycle_routing(system);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > worst) worst = seconds, worst_name = t.name();
        const gossip_report run = simulate_gossip(twin.table);
        const supply_report supply = check_supply(twin.table, system);
        steps = run.steps;
        switches += twin.table.switches.size();
        if (!run.holds())
          problem = describe(run);
        else if (run.steps != count)
          problem = std::to_string(run.steps) + " steps, not " + std::to_string(count);
        else if (twin.steps != run.steps)
          problem =
              "the plan's target " + std::to_string(twin.steps) + " is not the simulated " + std::to_string(run.steps);
        else if (!supply.holds())
          problem = describe(supply);
        else
          std::cout << "holds " << t.name() << ": " << steps << " steps (counting bound " << counting << "), "
                    << twin.hosts << " hosts, " << twin.table.switches.size() << " switches, " << seconds << " s"
                    << std::endl;
      } catch (const std::invalid_argument& e) {
        problem = e.what();
      }
      if (!problem.empty()) {
        ++failed;
        std::cout << "VIOLATED " << t.name() << ": " << problem << std::endl;
      } else {
        at_counting += steps == counting;
      }
    }
  std::cout << total << " tori, " << failed << " not holding, " << at_counting << " at the counting bound; " << switches
            << " switches in all; the slowest " << worst << " s (" << worst_name << ")\n";
  return failed == 0 ? 0 : 1;
}
