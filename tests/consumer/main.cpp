// A user's own round-robin scheduler (the circle method), checked by dancecard's public checker API.
#include <dancecard/checkers/allgather_simulation.hpp>
#include <dancecard/checkers/dance_check.hpp>
#include <dancecard/checkers/torus_check.hpp>
#include <iostream>

int main() {
  const dancecard::rank n = 10;
  dancecard::dance_schedule mine(n);
  for (dancecard::rank r = 0; r + 1 < n; ++r) {
    mine.begin_round();
    mine.add_dance(n - 1, r);
    for (dancecard::rank k = 1; k < n / 2; ++k) mine.add_dance((r + k) % (n - 1), (r + n - 1 - k) % (n - 1));
  }
  const auto report = dancecard::check_dance_schedule(mine);
  const auto run = dancecard::simulate_allgather(mine);
  std::cout << dancecard::describe(report) << dancecard::describe(run) << "\n";
  // A broken copy must be rejected, or the check would prove nothing.
  dancecard::dance_schedule broken(n);
  broken.begin_round();
  broken.add_dance(0, 1);
  const bool rejected = !dancecard::check_dance_schedule(broken).holds();
  // A user's own torus routing: one snake-shaped Hamiltonian cycle of the 4 x 4 torus (row by row, alternating
  // direction, closing over the wrap-around), walked both ways with one packet per PU: ceil((16 - 1)/2) = 8 steps.
  const dancecard::torus t({4, 4});
  dancecard::cycle_system snake{t, {}, "snake"};
  snake.cycles.emplace_back();
  for (std::uint32_t row = 0; row < 4; ++row)
    for (std::uint32_t k = 0; k < 4; ++k) {
      const std::uint32_t col = row % 2 == 0 ? k : 3 - k;
      snake.cycles[0].pus.push_back(t.index({row, col}));
      const bool row_end = k == 3;
      snake.cycles[0].ports.push_back(row_end ? 0u : (row % 2 == 0 ? 2u : 3u));  // down at a row's end, else R or L
    }
  const auto cycles = dancecard::check_cycle_system(snake, 0);
  const auto gossip =
      dancecard::simulate_gossip(dancecard::cycle_routing(snake, dancecard::supply_policy::time_independent));
  std::cout << dancecard::describe(cycles) << dancecard::describe(gossip) << "steps " << gossip.steps << "\n";
  const bool torus_ok = cycles.holds() && gossip.holds() && gossip.steps == 8;
  return report.holds() && run.outcome == dancecard::verdict::holds && rejected && torus_ok ? 0 : 1;
}
