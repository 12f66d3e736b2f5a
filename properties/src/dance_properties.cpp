// The reusable dance properties: draw n, call the user's generator, check with checkers/, RC_ASSERT.
#include "dancecard/properties/dance_properties.hpp"

#include <rapidcheck.h>

#include "dancecard/checkers/allgather_simulation.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/properties/generators.hpp"

namespace dancecard::properties {

using namespace dancecard::dance;

namespace {

rank draw(const dance_property_options& options) {
  const rank n = *people(options.max_people);
  RC_PRE(n >= options.min_people);
  return n;
}

// RapidCheck's greedy shrinking can stop at a local minimum (n = 15 when 7 also fails). On a failure at n, the
// properties therefore also try every smaller n in increasing order and report the smallest failing one, so the
// counterexample is the smallest n for certain. `problem(m)` is empty when m passes.
template <class Problem>
void fail_at_smallest(rank n, const dance_property_options& options, Problem problem) {
  std::string found = problem(n);
  if (found.empty()) return;
  for (rank m = options.min_people; m < n; ++m)
    if (std::string smaller = problem(m); !smaller.empty()) {
      RC_FAIL("smallest failing n = " + std::to_string(m) + " (first seen at n = " + std::to_string(n) +
              "): " + smaller);
    }
  RC_FAIL("smallest failing n = " + std::to_string(n) + ": " + found);
}

std::string validity_problem(const dance_generator& generator, const dance_property_options& options, rank n) {
  const dance_schedule s = generator(n);
  if (s.people() != n) return "the schedule has " + std::to_string(s.people()) + " people, not " + std::to_string(n);
  const dance_report report = check_dance_schedule(s);
  if (!report.holds()) return describe(report);
  const std::uint64_t gap = s.rounds() - std::min<std::uint64_t>(s.rounds(), optimal_rounds(n));
  if (options.max_gap && gap > *options.max_gap)
    return std::to_string(s.rounds()) + " rounds, T(n) = " + std::to_string(optimal_rounds(n)) + ", more than " +
           std::to_string(*options.max_gap) + " above";
  return "";
}

}  // namespace

void dance_generator_is_valid(const dance_generator& generator, const dance_property_options& options) {
  const rank n = draw(options);
  fail_at_smallest(n, options, [&](rank m) { return validity_problem(generator, options, m); });
  // The gap to the optimum, reported in RapidCheck's distribution table ("gap 0", "gap 3", ...).
  const std::size_t rounds = generator(n).rounds();
  const std::uint64_t gap = rounds - std::min<std::uint64_t>(rounds, optimal_rounds(n));
  RC_TAG("gap " + std::to_string(gap));
}

void dance_generator_completes_allgather(const dance_generator& generator, const dance_property_options& options) {
  const rank n = draw(options);
  fail_at_smallest(n, options, [&](rank m) {
    const allgather_report r = simulate_allgather(generator(m));
    return r.outcome == verdict::holds ? std::string() : describe(r);
  });
}

}  // namespace dancecard::properties
