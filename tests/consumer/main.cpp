// A user's own round-robin scheduler (the circle method), checked by dancecard's public checker API.
#include <dancecard/checkers/allgather_simulation.hpp>
#include <dancecard/checkers/dance_check.hpp>
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
  return report.holds() && run.outcome == dancecard::verdict::holds && rejected ? 0 : 1;
}
