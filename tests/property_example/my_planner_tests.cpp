// A tournament planner's own test suite, using dancecard's properties on its round-robin generator.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <dancecard/properties/dance_properties.hpp>

// The user's planner: the circle method with a bye for odd n.
dancecard::dance::dance_schedule round_robin(dancecard::rank n) {
  const dancecard::rank even = n + n % 2;  // with a phantom player when n is odd
  dancecard::dance::dance_schedule s(n);
  for (dancecard::rank r = 0; r + 1 < even; ++r) {
    s.begin_round();
    auto add = [&](dancecard::rank a, dancecard::rank b) {
      if (a < n && b < n) s.add_dance(a, b);
    };
    add(even - 1, r);
    for (dancecard::rank k = 1; k < even / 2; ++k) add((r + k) % (even - 1), (r + even - 1 - k) % (even - 1));
  }
  return s;
}

RC_GTEST_PROP(my_planner, plays_every_pairing_once_in_optimal_rounds, ()) {
  dancecard::properties::dance_generator_is_valid(round_robin, {.max_people = 400, .max_gap = 0});
}

RC_GTEST_PROP(my_planner, schedule_runs_as_an_all_gather, ()) {
  dancecard::properties::dance_generator_completes_allgather(round_robin, {.max_people = 100});
}
