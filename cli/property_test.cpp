// `dancecard property-test dance --cmd "./my_scheduler --n {n}" [--model half-duplex|directed] ...`: runs anyone's
// scheduler as an external program for many n (the special sizes and seeded random ones), checks every output, and
// reports the smallest failing n with its witness, the program's output saved to a file, and a JUnit XML report.
#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "common.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "process.hpp"

namespace dancecard::cli {

namespace {

struct options {
  std::string cmd, model = "half-duplex", junit, save_dir = "dancecard-failures", timeout = "10";
  rank n_min = 1, n_max = 64;
  unsigned runs = 100;
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> max_gap;
};

struct outcome {
  bool passed = true;
  std::string kind;    // crash, timeout, garbage, wrong-size, violated, too-many-rounds
  std::string detail;  // one line or the checker's report
  double seconds = 0;
  process_result run;
};

std::string substitute(std::string command, rank n) {
  for (std::size_t at; (at = command.find("{n}")) != std::string::npos;) command.replace(at, 3, std::to_string(n));
  return command;
}

std::vector<rank> special_sizes(rank lo, rank hi) {
  std::set<rank> out{1, 2};
  for (rank p = 2; p <= hi && p != 0; p *= 2) {
    out.insert(p);
    out.insert(p + 1);
    out.insert(p - 1);
  }
  for (rank q = 2; q <= std::min<rank>(hi, 100); ++q) {
    bool prime = true;
    for (rank d = 2; d * d <= q && prime; ++d) prime = q % d != 0;
    if (prime) out.insert(q);
  }
  std::vector<rank> in_range;
  for (rank v : out)
    if (v >= lo && v <= hi) in_range.push_back(v);
  return in_range;
}

outcome test_one(const options& opt, unsigned timeout_ms, rank n) {
  outcome o;
  const auto start = std::chrono::steady_clock::now();
  o.run = run_command(substitute(opt.cmd, n), timeout_ms);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto fail = [&](std::string kind, std::string detail) {
    o.passed = false;
    o.kind = std::move(kind);
    o.detail = std::move(detail);
    return o;
  };
  if (o.run.timed_out) return fail("timeout", "the program did not finish within " + std::to_string(timeout_ms) + " ms");
  if (!o.run.ok()) return fail("crash", "the program failed: " + o.run.describe());
  try {
    if (opt.model == "directed") {
      const directed_schedule s = read_directed_json(o.run.out);
      if (s.people() != n) return fail("wrong-size", "asked for n = " + std::to_string(n) + ", got " + std::to_string(s.people()));
      const directed_report r = check_directed_schedule(s);
      if (!r.holds()) return fail("violated", describe(r));
      if (opt.max_gap && s.rounds() > n - 1 + *opt.max_gap)
        return fail("too-many-rounds", std::to_string(s.rounds()) + " rounds, optimum " + std::to_string(n - 1));
    } else {
      const auto input = read_dance_input(o.run.out);
      const rank people = std::holds_alternative<dance_schedule>(input) ? std::get<dance_schedule>(input).people()
                                                                       : std::get<partner_matrix>(input).people();
      if (people != n) return fail("wrong-size", "asked for n = " + std::to_string(n) + ", got " + std::to_string(people));
      const dance_report r = std::holds_alternative<dance_schedule>(input)
                                 ? check_dance_schedule(std::get<dance_schedule>(input))
                                 : check_partner_matrix(std::get<partner_matrix>(input));
      if (!r.holds()) return fail("violated", describe(r));
      const std::size_t rounds = std::holds_alternative<dance_schedule>(input) ? std::get<dance_schedule>(input).rounds()
                                                                              : std::get<partner_matrix>(input).rounds();
      if (opt.max_gap && rounds > optimal_rounds(n) + *opt.max_gap)
        return fail("too-many-rounds", std::to_string(rounds) + " rounds, T(n) = " + std::to_string(optimal_rounds(n)));
    }
  } catch (const format_error& e) {
    return fail("garbage", std::string("the output is not a schedule: ") + e.what());
  }
  return o;
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 32 && c != '\n' && c != '\t') out += '?';
        else out += c;
    }
  }
  return out;
}

}  // namespace

void add_property_test_command(CLI::App& app, int& code) {
  CLI::App* command = app.add_subcommand("property-test", "Property-test an external scheduler program");
  command->require_subcommand(1);
  CLI::App* dance = command->add_subcommand("dance", "All-gather / all-to-all schedules for n ranks");
  auto opt = std::make_shared<options>();
  dance->add_option("--cmd", opt->cmd, "the program; {n} is replaced by the number of ranks")->required();
  dance->add_option("--model", opt->model, "half-duplex (dance schedule or partner matrix) | directed (dancecard.directed/1)");
  dance->add_option("--n-min", opt->n_min, "smallest n (default 1)");
  dance->add_option("--n-max", opt->n_max, "largest n (default 64)");
  dance->add_option("--runs", opt->runs, "how many n to try (default 100)");
  dance->add_option("--seed", opt->seed, "seed of the random n (default: from the clock; printed for reproduction)");
  dance->add_option("--timeout", opt->timeout, "seconds per run (default 10)");
  dance->add_option("--max-gap", opt->max_gap, "fail when the schedule uses more than optimum + K rounds");
  dance->add_option("--junit", opt->junit, "write a JUnit XML report to FILE");
  dance->add_option("--save-dir", opt->save_dir, "where a failing run's output is saved (default dancecard-failures)");
  dance->callback([opt, &code] {
    if (opt->model != "half-duplex" && opt->model != "directed")
      throw bad_input("--model: expected half-duplex or directed, got '" + opt->model + "'");
    if (opt->cmd.find("{n}") == std::string::npos) throw bad_input("--cmd: the command must contain {n}");
    if (opt->n_min < 1 || opt->n_min > opt->n_max || opt->n_max > 20'000)
      throw bad_input("--n-min/--n-max: expected 1 <= n-min <= n-max <= 20000");
    if (opt->runs == 0) throw bad_input("--runs: must be at least 1");
    const unsigned timeout_ms = parse_timeout_ms(opt->timeout, "--timeout");
    const std::uint64_t seed = opt->seed ? *opt->seed
                                         : static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    std::cout << "property-test dance (" << opt->model << "): seed " << seed << ", n = " << opt->n_min << ".."
              << opt->n_max << ", up to " << opt->runs << " runs of: " << opt->cmd << std::endl;

    // The order of n: every special size first (smallest first), then seeded random sizes.
    std::vector<rank> order = special_sizes(opt->n_min, opt->n_max);
    if (order.size() > opt->runs) order.resize(opt->runs);
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<rank> pick(opt->n_min, opt->n_max);
    while (order.size() < opt->runs) order.push_back(pick(random));

    std::map<rank, outcome> tried;
    std::vector<std::pair<rank, const outcome*>> junit_cases;
    std::optional<rank> first_failure;
    for (rank n : order) {
      auto [it, fresh] = tried.try_emplace(n);
      if (fresh) it->second = test_one(*opt, timeout_ms, n);
      junit_cases.emplace_back(n, &it->second);
      if (!it->second.passed) {
        first_failure = n;
        break;
      }
    }
    std::optional<rank> smallest = first_failure;
    if (first_failure) {  // shrink: the smallest failing n below the first failure
      for (rank m = opt->n_min; m < *first_failure; ++m) {
        auto [it, fresh] = tried.try_emplace(m);
        if (fresh) {
          it->second = test_one(*opt, timeout_ms, m);
          junit_cases.emplace_back(m, &it->second);
        }
        if (!it->second.passed) {
          smallest = m;
          break;
        }
      }
    }
    std::size_t passed = 0;
    for (const auto& [n, o] : tried) passed += o.passed ? 1 : 0;

    if (!smallest) {
      std::cout << "passed: " << tried.size() << " distinct n, every output accepted by the checker\n";
      code = exit_holds;
    } else {
      const outcome& o = tried.at(*smallest);
      std::filesystem::create_directories(opt->save_dir);
      const std::string stem = (std::filesystem::path(opt->save_dir) / ("n" + std::to_string(*smallest))).string();
      std::ofstream(stem + ".out", std::ios::binary) << o.run.out;
      std::ofstream(stem + ".err", std::ios::binary) << o.run.err;
      std::cout << "FAILED: smallest failing n = " << *smallest << " (first failure at n = " << *first_failure << ", "
                << passed << " n passed)\n"
                << "  " << (o.kind == "violated" ? "" : o.kind + ": ") << o.detail
                << (o.detail.empty() || o.detail.back() != '\n' ? "\n" : "")
                << "  the program's output: " << stem << ".out (stderr: " << stem << ".err)\n"
                << "  reproduce: " << substitute(opt->cmd, *smallest) << "\n"
                << "  rerun: dancecard property-test dance --cmd '" << opt->cmd << "' --model " << opt->model
                << " --seed " << seed << " --n-min " << opt->n_min << " --n-max " << opt->n_max << " --runs "
                << opt->runs << "\n";
      code = exit_violated;
    }
    if (!opt->junit.empty()) {
      std::ofstream xml(opt->junit);
      if (!xml) throw bad_input("--junit: cannot write " + opt->junit);
      std::size_t failures = 0;
      for (const auto& [n, o] : junit_cases) failures += o->passed ? 0 : 1;
      xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"dancecard property-test dance\" tests=\""
          << junit_cases.size() << "\" failures=\"" << failures << "\">\n"
          << "  <properties><property name=\"seed\" value=\"" << seed << "\"/><property name=\"command\" value=\""
          << xml_escape(opt->cmd) << "\"/><property name=\"model\" value=\"" << opt->model << "\"/></properties>\n";
      for (const auto& [n, o] : junit_cases) {
        xml << "  <testcase classname=\"property-test.dance\" name=\"n=" << n << "\" time=\"" << o->seconds << "\"";
        if (o->passed) {
          xml << "/>\n";
        } else {
          xml << ">\n    <failure type=\"" << o->kind << "\" message=\"" << xml_escape(o->kind + ": " + o->detail.substr(0, o->detail.find('\n')))
              << "\">" << xml_escape(o->detail) << "</failure>\n  </testcase>\n";
        }
      }
      xml << "</testsuite>\n</testsuites>\n";
    }
  });
}

}  // namespace dancecard::cli
