// Seeded campaigns of on-line simulations: every run's trace is replayed by check_online_trace, and rounds/h is
// summarized. Totals are exact (integers, and the mean as a rational for decisions); the mean and its 95% confidence
// interval in floating point are for display only.
//
//   auto s = dancecard::online::run_online_campaign(dancecard::online::total_exchange(256), options, 1, 10);
//   s.all_valid && s.mean_ratio <= dancecard::rational(21, 10)
#pragma once

#include <string>
#include <vector>

#include "dancecard/core/common/rational.hpp"
#include "dancecard/core/online/online.hpp"

namespace dancecard::online {

struct online_campaign {
  std::uint64_t h = 0, runs = 0;
  std::vector<std::uint64_t> rounds;  // per seed, in seed order
  std::uint64_t min_rounds = 0, max_rounds = 0;
  rational mean_ratio;        // Σ rounds / (runs · h), exact
  double mean = 0, ci95 = 0;  // rounds / h: mean and half-width of the 95% interval (Student t)
  bool all_finished = true, all_valid = true;
  std::string problem;  // the first unfinished run or rejected trace
};

/// Runs seeds first_seed .. first_seed + runs − 1. require: runs >= 1, instance.h() >= 1.
online_campaign run_online_campaign(const online_instance& instance, online_options options, std::uint64_t first_seed,
                                    std::uint64_t runs);

}  // namespace dancecard::online
