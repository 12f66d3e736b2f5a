// A user's own round-robin scheduler (the circle method), checked by dancecard's public checker API through the
// domain umbrella headers.
#include <dancecard/dance.hpp>
#include <dancecard/torus.hpp>
#include <iostream>

int main() {
  namespace dance = dancecard::dance;
  namespace torus = dancecard::torus;
  const dancecard::rank n = 10;
  dance::dance_schedule mine(n);
  for (dancecard::rank r = 0; r + 1 < n; ++r) {
    mine.begin_round();
    mine.add_dance(r, n - 1);
    for (dancecard::rank k = 1; k < n / 2; ++k) mine.add_dance((r + k) % (n - 1), (r + n - 1 - k) % (n - 1));
  }
  const auto report = dance::check_dance_schedule(mine);
  const auto run = dance::simulate_allgather(mine);
  std::cout << describe(report) << describe(run) << "\n";

  dance::dance_schedule broken(n);
  broken.begin_round();
  broken.add_dance(0, 1);
  const bool rejected = !dance::check_dance_schedule(broken).holds();
  // A user's own torus routing: one snake-shaped Hamiltonian cycle of the 4 x 4 torus (row by row, alternating
  // direction, closing over the wrap-around), walked both ways with one packet per PU: ceil((16 - 1)/2) = 8 steps.
  const torus::network t({4, 4});
  torus::cycle_system snake{t, {}, "snake"};
  snake.cycles.emplace_back();
  for (std::uint32_t row = 0; row < 4; ++row)
    for (std::uint32_t k = 0; k < 4; ++k) {
      const std::uint32_t col = row % 2 == 0 ? k : 3 - k;
      snake.cycles[0].pus.push_back(t.index({row, col}));
      const bool row_end = k == 3;
      snake.cycles[0].ports.push_back(row_end ? 0u : (row % 2 == 0 ? 2u : 3u));  // down at a row's end, else R or L
    }
  const auto cycles = torus::check_cycle_system(snake, 0);
  const auto gossip = torus::simulate_gossip(torus::cycle_routing(snake, torus::supply_policy::time_independent));
  std::cout << describe(cycles) << describe(gossip) << "steps " << gossip.steps << "\n";
  const bool torus_ok = cycles.holds() && gossip.holds() && gossip.steps == 8;
  return report.holds() && run.outcome == dancecard::verdict::holds && rejected && torus_ok ? 0 : 1;
}
