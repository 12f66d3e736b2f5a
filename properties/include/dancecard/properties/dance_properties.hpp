// Reusable RapidCheck properties for anyone's dance-schedule generator: a tournament planner, an MPI all-gather
// schedule, a collective-algorithm synthesizer. Each property draws n itself (special sizes — 1, 2, powers of two,
// 2^k ± 1, primes — and random ones), calls the user's generator, and RC_ASSERTs; RapidCheck then shrinks a failure
// to the smallest failing n and prints the seed to reproduce it (RC_PARAMS="seed=...").
//
// In a user's GoogleTest suite (link dancecard::properties):
//
//   #include <rapidcheck/gtest.h>
//   #include <dancecard/properties/dance_properties.hpp>
//   dancecard::dance::dance_schedule my_schedule(dancecard::rank n);
//   RC_GTEST_PROP(my_scheduler, is_a_valid_dance_schedule, ()) {
//     dancecard::properties::dance_generator_is_valid(my_schedule, {.max_people = 300});
//   }
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "dancecard/core/dance/schedule.hpp"

namespace dancecard::properties {

using dance_generator = std::function<dance::dance_schedule(rank n)>;

struct dance_property_options {
  rank min_people = 1;
  rank max_people = 200;
  /// Rounds the generator may use beyond T(n) (the optimum); unset: any number.
  std::optional<std::uint64_t> max_gap;
};

/// The schedule the generator returns for a drawn n has n people and satisfies constraints (i)–(iii).
/// Also checks the round budget of options.max_gap, and tags each case with its gap to T(n).
void dance_generator_is_valid(const dance_generator& generator, const dance_property_options& options = {});

/// The Section 6 all-gather loop over the generator's schedule completes, without deadlock, every rank with all
/// n blocks.
void dance_generator_completes_allgather(const dance_generator& generator, const dance_property_options& options = {});

}  // namespace dancecard::properties
