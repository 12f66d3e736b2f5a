// Seeded on-line campaigns with every trace replayed.
#include "dancecard/checkers/online_experiment.hpp"

#include <cmath>
#include <stdexcept>

#include "dancecard/checkers/online_trace_check.hpp"

namespace dancecard::online {

namespace {
// Two-sided 95% Student t quantiles for 1..30 degrees of freedom; 1.96 beyond.
double t95(std::uint64_t df) {
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  return df >= 1 && df <= 30 ? table[df - 1] : 1.96;
}
}  // namespace

online_campaign run_online_campaign(const online_instance& instance, online_options options, std::uint64_t first_seed,
                                    std::uint64_t runs) {
  if (runs == 0 || instance.h() == 0) throw std::invalid_argument("run_online_campaign: needs runs >= 1 and h >= 1");
  online_campaign out;
  out.h = instance.h();
  out.runs = runs;
  options.keep_trace = true;
  std::uint64_t total = 0;
  for (std::uint64_t i = 0; i < runs; ++i) {
    const std::uint64_t seed = first_seed + i;
    const online_run run = simulate_online(instance, options, seed);
    if (!run.finished && out.all_finished) {
      out.all_finished = false;
      if (out.problem.empty()) out.problem = "seed " + std::to_string(seed) + ": not finished within the round limit";
    }
    const online_trace_report r = check_online_trace(instance, run.trace, 3);
    if (!r.holds() && out.all_valid) {
      out.all_valid = false;
      if (out.problem.empty()) out.problem = "seed " + std::to_string(seed) + ": " + describe(r);
    }
    out.rounds.push_back(run.rounds);
    total += run.rounds;
    out.min_rounds = i == 0 ? run.rounds : std::min(out.min_rounds, run.rounds);
    out.max_rounds = std::max(out.max_rounds, run.rounds);
  }
  out.mean_ratio = rational(static_cast<std::int64_t>(total), static_cast<std::int64_t>(runs * out.h));
  const double h = static_cast<double>(out.h);
  double sum = 0, squares = 0;
  for (std::uint64_t r : out.rounds) sum += static_cast<double>(r) / h;
  out.mean = sum / static_cast<double>(runs);
  for (std::uint64_t r : out.rounds) squares += std::pow(static_cast<double>(r) / h - out.mean, 2);
  if (runs >= 2)
    out.ci95 =
        t95(runs - 1) * std::sqrt(squares / static_cast<double>(runs - 1)) / std::sqrt(static_cast<double>(runs));
  return out;
}

}  // namespace dancecard::online
