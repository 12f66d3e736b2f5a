// sweep_supply: Theorem 7's bound with switching over a range of zigzag tori, by the packet-matched supply (core:
// least_packet_matched_routing), each table simulated and locality-checked by checkers/ — the sweep of docs/torus.md
// behind "within the bound on every swept trail torus", kept so that anyone can run it again. Every torus
// d × n_2 × … × n_d (n_1 = d, the lap rule's edge-disjoint case) with n_2 … n_{d−1} in --sizes, n_d in --last,
// conditions (1)-(3) holding and P <= --max-pus; --trails keeps only those whose zigzags pass a PU twice (closed
// trails, where the matched supply declines). A torus holds when the table completes gossip within Theorem 7's
// bound (1 + d/n_d) P/(2d) + 2 and every PU gets both directions of every cycle it is off.
// Exit 0: every torus holds; 1: some did not (named, with the reason); 2: bad arguments.
//   build/bin/sweep_supply --d 4 --sizes 2..8 --last 4..8 --max-pus 1500 --trails [--max-delay 8]
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "sweep_args.hpp"

int main(int argc, char** argv) {
  using namespace dancecard;
  using namespace dancecard::torus;
  CLI::App app{
      "Theorem 7's bound with switching over a range of zigzag tori, by the packet-matched supply, each table checked"};
  std::uint32_t d = 4;
  std::string sizes = "2..8", last = "4..8";
  std::uint64_t max_pus = 1500;
  bool trails_only = false;
  app.add_option("--d", d, "dimension, 4 or 5")->check(CLI::Range(4, 5));
  app.add_option("--sizes", sizes, "A..B, the range of n_2 … n_{d-1} (A >= 2)");
  app.add_option("--last", last, "A..B, the range of n_d (A >= d)");
  app.add_option("--max-pus", max_pus, "only tori with at most this many PUs")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{4096}));
  app.add_flag("--trails", trails_only, "only tori whose zigzags are closed trails");
  std::uint32_t max_delay = 1;
  app.add_option("--max-delay", max_delay,
                 "senders may hold packets up to this many steps (delayed switches; default 1)")
      ->check(CLI::Range(std::uint32_t{1}, dancecard::torus::max_switch_delay));
  dancecard::ranges::value_range middle, end;
  try {
    app.parse(argc, argv);
    middle = sweep_args::parse_range("--sizes", sizes, 2);
    end = sweep_args::parse_range("--last", last, d);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  std::uint64_t total = 0, failed = 0, at_circulation = 0, trails = 0;
  double worst = 0;
  std::string worst_name;
  std::vector<std::uint32_t> dims{d};
  auto visit = [&](auto&& self, std::uint64_t P) -> void {
    if (dims.size() == d) {
      const torus::network t(dims);
      if (!zigzag_condition_failure(t).empty()) return;
      std::optional<cycle_system> system;
      try {
        system = zigzag_cycles(t);
      } catch (const std::invalid_argument&) {
        return;  // a shared link cannot happen with n_1 = d (torus.lap_rule); refused tori are not this sweep's
      }
      const cycle_system_report cycles = check_cycle_system(*system, 2, 1, true);
      if (trails_only && cycles.revisits == 0) return;
      ++total;
      trails += cycles.revisits > 0;
      const std::uint64_t m = system->cycles.front().length(), bound = theorem_7_switching_bound(t);
      const auto start = std::chrono::steady_clock::now();
      std::pair<std::uint64_t, std::uint64_t> estimate;
      const std::optional<routing_table> table = least_packet_matched_routing(*system, &estimate, 0, max_delay);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (seconds > worst) worst = seconds, worst_name = t.name();
      std::string problem;
      std::uint64_t steps = 0;
      if (!cycles.holds()) {
        problem = describe(cycles);
      } else if (!table) {
        problem = "no complete plan";
      } else {
        const gossip_report run = simulate_gossip(*table);
        const supply_report supply = check_supply(*table, *system);
        steps = run.steps;
        if (!run.holds())
          problem = describe(run);
        else if (run.steps > bound)
          problem = std::to_string(run.steps) + " steps > " + std::to_string(bound);
        else if (!supply.holds())
          problem = describe(supply);
      }
      if (problem.empty()) {
        at_circulation += steps <= m / 2;
        std::cout << "holds " << t.name() << (cycles.revisits > 0 ? " (closed trails)" : "") << ": " << steps
                  << " steps, circulation " << m / 2 << ", bound " << bound << ", " << seconds << " s" << std::endl;
      } else {
        ++failed;
        std::cout << "VIOLATED " << t.name() << (cycles.revisits > 0 ? " (closed trails)" : "") << ": " << problem
                  << std::endl;
      }
      return;
    }
    const bool is_last = dims.size() + 1 == d;
    const std::uint64_t lo = (is_last ? end : middle).first, hi = (is_last ? end : middle).last;
    for (std::uint32_t n = lo; n <= hi && P * n <= max_pus; ++n) {
      dims.push_back(n);
      self(self, P * n);
      dims.pop_back();
    }
  };
  visit(visit, d);
  std::cout << total << " tori (" << trails << " with closed trails), " << failed << " not holding, " << at_circulation
            << " at the circulation m/2; the slowest " << worst << " s (" << worst_name << ")\n";
  return failed == 0 ? 0 : 1;
}
