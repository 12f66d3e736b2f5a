// sweep_torus: Section 3.4's Hamilton decompositions over a range of tori, each checked by checkers/ — the sweeps of
// docs/torus.md that back "found by search, not proven" (the layered construction on scrambled frames), kept so that
// anyone can run them again. Every torus of the given dimension with sizes lo, lo + step, …, hi (non-decreasing: the
// construction orders the sizes itself) and min_pus < P <= max_pus goes through hamiltonian_product_cycles and
// check_cycle_system; it holds when the check holds and there are d cycles of P PUs each.
// Exit 0: every torus holds; 1: some did not (named, with the reason), or a construction refused it; 2: bad arguments.
//   build/bin/sweep_torus --d 3 --sizes 4..64:6 --min-pus 32768 --max-pus 131072 --all-even --skip-cubes
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/cycles.hpp"

#include "sweep_args.hpp"

int main(int argc, char** argv) {
  using namespace dancecard;
  using namespace dancecard::torus;
  CLI::App app{"Section 3.4's Hamilton decompositions over a range of tori, each checked"};
  std::uint32_t d = 3, lo = 4, hi = 12, step = 2;
  std::string sizes = "4..12:2";
  std::uint64_t min_pus = 0, max_pus = 1u << 15;
  bool all_even = false, skip_cubes = false;
  app.add_option("--d", d, "dimension, 2 to 8")->check(CLI::Range(2, 8));
  app.add_option("--sizes", sizes, "A..B:S, every size from A to B in steps of S (A >= 3)");
  app.add_option("--min-pus", min_pus, "only tori with more PUs than this");
  app.add_option("--max-pus", max_pus, "only tori with at most this many PUs")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 24));
  app.add_flag("--all-even", all_even, "only tori with every size even");
  app.add_flag("--skip-cubes", skip_cubes, "skip m x m x m cubes with m != 4 (Park's explicit construction)");
  try {
    app.parse(argc, argv);
    const dancecard::ranges::value_range r = sweep_args::parse_range("--sizes", sizes, 3, 1u << 24, true);
    lo = static_cast<std::uint32_t>(r.first), hi = static_cast<std::uint32_t>(r.last),
    step = static_cast<std::uint32_t>(r.step);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  std::map<std::string, std::uint64_t> by_construction;
  std::uint64_t total = 0, failed = 0;
  double worst = 0;
  std::string worst_name;
  std::vector<std::uint32_t> dims;
  auto visit = [&](auto&& self, std::uint32_t from, std::uint64_t P) -> void {
    if (dims.size() == d) {
      if (P <= min_pus) return;
      if (skip_cubes && d == 3 && dims[0] == dims[1] && dims[1] == dims[2] && dims[0] != 4) return;
      const torus::network t(dims);
      ++total;
      const auto start = std::chrono::steady_clock::now();
      try {
        const cycle_system system = hamiltonian_product_cycles(t);
        const cycle_system_report report = check_cycle_system(system, 0);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const bool hamiltonian = report.lengths == std::vector<std::uint64_t>(d, t.size());
        if (seconds > worst) worst = seconds, worst_name = t.name();
        ++by_construction[system.construction];
        if (report.holds() && hamiltonian) {
          std::cout << "holds " << t.name() << " " << system.construction << " " << seconds << " s" << std::endl;
        } else {
          ++failed;
          std::cout << "VIOLATED " << t.name() << " " << system.construction << ": "
                    << (report.holds() ? "the cycles are not " + std::to_string(d) + " Hamiltonian ones"
                                       : describe(report))
                    << std::endl;
        }
      } catch (const std::exception& e) {
        ++failed;
        std::cout << "REFUSED " << t.name() << ": " << e.what() << std::endl;
      }
      return;
    }
    for (std::uint32_t n = from; n <= hi && P * n <= max_pus; n += step) {
      if (all_even && n % 2 == 1) continue;
      dims.push_back(n);
      self(self, n, P * n);
      dims.pop_back();
    }
  };
  visit(visit, lo, 1);
  std::cout << total << " tori, " << failed << " not holding; the slowest " << worst << " s (" << worst_name << ")\n";
  for (const auto& [name, count] : by_construction) std::cout << "  " << name << ": " << count << "\n";
  return failed == 0 ? 0 : 1;
}
