// `dancecard property-test dance --cmd "./my_scheduler --n {n}" [--model half-duplex|directed] ...` and
// `dancecard property-test torus --cmd "./my_router --dims {dims}" [--d 2|3] ...`: run anyone's scheduler or torus
// router as an external program for many sizes (the special ones and seeded random ones), check every output (dance
// checkers; the torus gossip simulator), and report the smallest failing size with its witness, the program's output
// saved to a file, and a JUnit XML report.
#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include <algorithm>
#include <functional>
#include <numeric>
#include "common.hpp"
#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/formats/collective_io.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "process.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;
using namespace dancecard::torus;

namespace {

// What every campaign takes: how many cases, the seed of the random ones, the time per run, where reports go.
struct campaign_options {
  unsigned runs = 0;
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> max_gap;
  std::string timeout = "10", junit, save_dir = "dancecard-failures";
  std::uint64_t max_output_mib = 512;  // a program's stdout kept per run; beyond it the run fails (too-much-output)
  bool json = false;
};

struct options : campaign_options {
  std::string cmd, model = "half-duplex";
  rank n_min = 1, n_max = 64;
  options() { runs = 100; }
};

struct outcome {
  bool passed = true;
  std::string kind;    // crash, timeout, garbage, wrong-size, violated, too-many-rounds
  std::string detail;  // one line or the checker's report
  double seconds = 0;
  process_result run;
};

// {n} (and {ranks}, the collective campaign's name for it) replaced by n.
std::string substitute(std::string command, rank n) {
  for (std::size_t at; (at = command.find("{n}")) != std::string::npos;) command.replace(at, 3, std::to_string(n));
  for (std::size_t at; (at = command.find("{ranks}")) != std::string::npos;) command.replace(at, 7, std::to_string(n));
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

outcome failed(outcome o, std::string kind, std::string detail) {
  o.passed = false;
  o.kind = std::move(kind);
  o.detail = std::move(detail);
  return o;
}

// Runs one case's command; a hang or a failed exit is already a failed outcome.
outcome run_case(const std::string& command, unsigned timeout_ms, std::uint64_t max_output_mib) {
  outcome o;
  const auto start = std::chrono::steady_clock::now();
  o.run = run_command(command, timeout_ms, static_cast<std::size_t>(max_output_mib) << 20);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.run.out_truncated)  // checked first: the run was stopped for it, so it also ended by a signal
    return failed(std::move(o), "too-much-output",
                  "the program printed more than " + std::to_string(max_output_mib) +
                      " MiB (--max-output); dancecard keeps no more, so it cannot check the schedule");
  if (o.run.timed_out)
    return failed(std::move(o), "timeout", "the program did not finish within " + std::to_string(timeout_ms) + " ms");
  if (!o.run.ok()) return failed(std::move(o), "crash", "the program failed: " + o.run.describe());
  return o;
}

outcome test_one(const options& opt, unsigned timeout_ms, rank n) {
  outcome o = run_case(substitute(opt.cmd, n), timeout_ms, opt.max_output_mib);
  if (!o.passed) return o;
  auto fail = [&](std::string kind, std::string detail) { return failed(o, std::move(kind), std::move(detail)); };
  try {
    if (opt.model == "collective") {
      const collective::schedule s = collective::read_collective_schedule(o.run.out);
      if (s.coll.ranks != n)
        return fail("wrong-size", "asked for n = " + std::to_string(n) + ", got " + std::to_string(s.coll.ranks));
      const collective::collective_report r = collective::check_collective_schedule(s);
      if (!r.holds()) return fail("violated", describe(r));
      if (opt.max_gap && r.step_bound != 0 && r.steps > r.step_bound + *opt.max_gap)
        return fail("too-many-steps", std::to_string(r.steps) + " steps, lower bound " + std::to_string(r.step_bound));
    } else if (opt.model == "directed") {
      const directed_schedule s = read_directed_json(o.run.out);
      if (s.people() != n)
        return fail("wrong-size", "asked for n = " + std::to_string(n) + ", got " + std::to_string(s.people()));
      const directed_report r = check_directed_schedule(s);
      if (!r.holds()) return fail("violated", describe(r));
      if (opt.max_gap && s.rounds() > n - 1 + *opt.max_gap)
        return fail("too-many-rounds", std::to_string(s.rounds()) + " rounds, optimum " + std::to_string(n - 1));
    } else {
      const auto input = read_dance_input(o.run.out);
      const rank people = std::holds_alternative<dance_schedule>(input) ? std::get<dance_schedule>(input).people()
                                                                        : std::get<partner_matrix>(input).people();
      if (people != n)
        return fail("wrong-size", "asked for n = " + std::to_string(n) + ", got " + std::to_string(people));
      const dance_report r = std::holds_alternative<dance_schedule>(input)
                                 ? check_dance_schedule(std::get<dance_schedule>(input))
                                 : check_partner_matrix(std::get<partner_matrix>(input));
      if (!r.holds()) return fail("violated", describe(r));
      const std::size_t rounds = std::holds_alternative<dance_schedule>(input)
                                     ? std::get<dance_schedule>(input).rounds()
                                     : std::get<partner_matrix>(input).rounds();
      if (opt.max_gap && rounds > optimal_rounds(n) + *opt.max_gap)
        return fail("too-many-rounds", std::to_string(rounds) + " rounds, T(n) = " + std::to_string(optimal_rounds(n)));
    }
  } catch (const format_error& e) {
    return fail("garbage", std::string("the output is not a schedule: ") + e.what());
  }
  return o;
}

// `text` as one word for /bin/sh: in single quotes, each ' written as '\'' — so the printed rerun line reproduces a
// command that itself holds quotes.
std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 32 && c != '\n' && c != '\t')
          out += '?';
        else
          out += c;
    }
  }
  return out;
}

// One size of a campaign: key (n, or dims like 4x6: the saved file's name and the order of smaller sizes), and the
// command that runs the program on it.
struct campaign_case {
  std::string key, command;
};

struct campaign_report {
  std::string module, singular, plural, junit_name;  // "dance", "n = " (before a key), "n", "n" (JUnit "n=7")
  std::string save_dir, junit, rerun;
  std::vector<std::pair<std::string, std::string>> properties;  // JUnit <property> entries (and JSON's)
  bool json = false;                                            // the report as JSON instead of text
};

// Runs the cases in order until the first failure, then the smaller cases (in order) until one fails; prints the
// smallest failure with its witness, saves the program's output, writes JUnit; returns the exit code.
int run_campaign(const campaign_report& report, const std::vector<campaign_case>& order,
                 const std::function<std::vector<campaign_case>(const campaign_case&)>& smaller,
                 const std::function<outcome(const campaign_case&)>& test) {
  progress_line progress("property-test " + report.module);
  std::map<std::string, outcome> tried;
  std::vector<std::pair<std::string, const outcome*>> junit_cases;
  std::optional<campaign_case> first_failure, smallest;
  for (const campaign_case& c : order) {
    auto [it, fresh] = tried.try_emplace(c.key);
    if (fresh) {  // a case drawn again is run and reported once
      progress.update(report.singular + c.key + " (case " + std::to_string(tried.size()) + ")");
      it->second = test(c);
      junit_cases.emplace_back(c.key, &it->second);
    }
    if (!it->second.passed) {
      first_failure = smallest = c;
      break;
    }
  }
  if (first_failure)  // shrink: the smallest failing case below the first failure
    for (const campaign_case& c : smaller(*first_failure)) {
      auto [it, fresh] = tried.try_emplace(c.key);
      if (fresh) {
        progress.update("shrinking: " + report.singular + c.key);
        it->second = test(c);
        junit_cases.emplace_back(c.key, &it->second);
      }
      if (!it->second.passed) {
        smallest = c;
        break;
      }
    }
  progress.clear();
  std::size_t passed = 0;
  for (const auto& [key, o] : tried) passed += o.passed ? 1 : 0;
  const std::string& noun = report.singular;
  int code = smallest ? exit_violated : exit_holds;
  if (report.json) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& [key, o] : junit_cases)
      cases.push_back({{report.junit_name, key},
                       {"passed", o->passed},
                       {"kind", o->passed ? "" : o->kind},
                       {"detail", o->passed ? "" : o->detail},
                       {"seconds", o->seconds}});
    nlohmann::json out = {{"format", "dancecard.property-test/1"},
                          {"module", report.module},
                          {"verdict", smallest ? "violated" : "holds"},
                          {"distinct_cases", tried.size()},
                          {"passed", passed},
                          {"cases", cases},
                          {"rerun", report.rerun}};
    for (const auto& [name, value] : report.properties) out["properties"][name] = value;
    if (smallest) {
      out["first_failure"] = first_failure->key;
      out["smallest_failure"] = {{report.junit_name, smallest->key}, {"reproduce", smallest->command}};
    }
    std::cout << out.dump(2) << "\n";
  } else if (!smallest) {
    std::cout << "passed: " << tried.size() << " distinct " << report.plural
              << ", every output accepted by the checker\n";
  } else {
    const outcome& o = tried.at(smallest->key);
    std::filesystem::create_directories(report.save_dir);
    const std::string stem = (std::filesystem::path(report.save_dir) / (report.junit_name + smallest->key)).string();
    std::ofstream(stem + ".out", std::ios::binary) << o.run.out;
    std::ofstream(stem + ".err", std::ios::binary) << o.run.err;
    std::cout << "FAILED: smallest failing " << noun << smallest->key << " (first failure at " << noun
              << first_failure->key << ", " << passed << " " << report.plural << " passed)\n"
              << "  " << (o.kind == "violated" ? "" : o.kind + ": ") << o.detail
              << (o.detail.empty() || o.detail.back() != '\n' ? "\n" : "") << "  the program's output: " << stem
              << ".out (stderr: " << stem << ".err)\n"
              << "  reproduce: " << smallest->command << "\n"
              << "  rerun: " << report.rerun << "\n";
  }
  if (!report.junit.empty()) {
    std::ofstream xml(report.junit);
    if (!xml) throw bad_input("--junit: cannot write " + report.junit);
    std::size_t failures = 0;
    for (const auto& [key, o] : junit_cases) failures += o->passed ? 0 : 1;
    xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"dancecard property-test "
        << report.module << "\" tests=\"" << junit_cases.size() << "\" failures=\"" << failures
        << "\">\n  <properties>";
    for (const auto& [name, value] : report.properties)
      xml << "<property name=\"" << name << "\" value=\"" << xml_escape(value) << "\"/>";
    xml << "</properties>\n";
    for (const auto& [key, o] : junit_cases) {
      xml << "  <testcase classname=\"property-test." << report.module << "\" name=\"" << report.junit_name << "="
          << key << "\" time=\"" << o->seconds << "\"";
      if (o->passed) {
        xml << "/>\n";
      } else {
        // The message is the detail's first line, prefixed by the kind unless it begins with it already.
        const std::string first_line = o->detail.substr(0, o->detail.find('\n'));
        const std::string message = first_line.rfind(o->kind, 0) == 0 ? first_line : o->kind + ": " + first_line;
        xml << ">\n    <failure type=\"" << o->kind << "\" message=\"" << xml_escape(message) << "\">"
            << xml_escape(o->detail) << "</failure>\n  </testcase>\n";
      }
    }
    xml << "</testsuite>\n</testsuites>\n";
  }
  return code;
}

// The options every campaign has; `what` names the cases ("n", "tori").
void add_campaign_options(CLI::App* command, campaign_options& o, const std::string& what) {
  command->add_flag("--json", o.json, "print the report as JSON (dancecard.property-test/1) instead of text");
  command->add_option("--runs", o.runs, "how many " + what + " to try (default " + std::to_string(o.runs) + ")");
  add_seed_option(command, o.seed, "the random " + what + " (default: from the clock; printed for reproduction)");
  add_timeout_option(command, o.timeout, "run of the program (default 10)");
  command->add_option("--junit", o.junit, "write a JUnit XML report to FILE")->check(writable_file());
  command->add_option("--save-dir", o.save_dir, "where a failing run's output is saved (default dancecard-failures)");
  command
      ->add_option(
          "--max-output", o.max_output_mib,
          "MiB of a program's output kept per run; a run that prints more fails as too-much-output (default 512)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20));
}

// The campaign options that decide a run's verdict, for the rerun line: --max-gap when given, --timeout and
// --max-output when not the defaults (without them a too-many-rounds failure would not reproduce).
std::string rerun_options(const campaign_options& o) {
  const campaign_options defaults;
  std::string out;
  if (o.max_gap) out += " --max-gap " + std::to_string(*o.max_gap);
  if (o.timeout != defaults.timeout) out += " --timeout " + shell_quote(o.timeout);
  if (o.max_output_mib != defaults.max_output_mib) out += " --max-output " + std::to_string(o.max_output_mib);
  return out;
}

std::uint64_t campaign_seed(const campaign_options& o) {
  return o.seed ? *o.seed : static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

campaign_case dance_case(const options& opt, rank n) { return {std::to_string(n), substitute(opt.cmd, n)}; }

// ---- torus routers ------------------------------------------------------------------------------------------------

struct torus_options : campaign_options {
  std::string cmd;
  std::uint32_t d = 2, size_min = 2, size_max = 0;  // size_max 0: 12 in 2-D, 6 in 3-D
  bool even = false;
  torus_options() { runs = 50; }
};

std::string dims_key(const std::vector<std::uint32_t>& dims) {
  std::string key;
  for (std::uint32_t n : dims) key.append(key.empty() ? "" : "x").append(std::to_string(n));
  return key;
}

campaign_case torus_case(const torus_options& opt, const std::vector<std::uint32_t>& dims) {
  std::string command = opt.cmd;
  const std::string key = dims_key(dims);
  for (std::size_t at; (at = command.find("{dims}")) != std::string::npos;) command.replace(at, 6, key);
  return {key, command};
}

// Every shape with sizes in [lo, hi] (even ones only if asked), by number of PUs, then by the sizes.
std::vector<std::vector<std::uint32_t>> torus_shapes(const torus_options& opt, std::uint32_t lo, std::uint32_t hi) {
  std::vector<std::vector<std::uint32_t>> out;
  std::vector<std::uint32_t> dims(opt.d, lo);
  const std::uint32_t step = opt.even ? 2 : 1;
  while (true) {
    out.push_back(dims);
    std::size_t j = 0;
    while (j < dims.size() && dims[j] + step > hi) dims[j++] = lo;
    if (j == dims.size()) break;
    dims[j] += step;
  }
  auto volume = [](const std::vector<std::uint32_t>& x) {
    return std::accumulate(x.begin(), x.end(), std::uint64_t{1}, std::multiplies<>());
  };
  std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    return std::make_pair(volume(a), a) < std::make_pair(volume(b), b);
  });
  return out;
}

outcome test_torus(const torus_options& opt, unsigned timeout_ms, const campaign_case& c,
                   const std::vector<std::uint32_t>& dims) {
  outcome o = run_case(c.command, timeout_ms, opt.max_output_mib);
  if (!o.passed) return o;
  auto fail = [&](std::string kind, std::string detail) { return failed(o, std::move(kind), std::move(detail)); };
  try {
    const routing_table table = read_torus_routing(o.run.out);
    if (table.network.dims() != dims)
      return fail("wrong-size", "asked for the " + c.key + " torus, got " + table.network.name());
    const gossip_report run = simulate_gossip(table);
    if (!run.holds()) return fail("violated", describe(run));
    // each PU must receive packets·(P − 1) packets over 2d in-links: at least ⌈packets·(P − 1)/2d⌉ steps
    const std::uint64_t ports = table.network.ports(), counting = counting_bound(table.network, table.packets);
    if (opt.max_gap && run.steps > counting + *opt.max_gap)
      return fail("too-many-steps", std::to_string(run.steps) + " steps, counting bound ceil(" +
                                        std::to_string(table.packets) + "(P - 1)/" + std::to_string(ports) +
                                        ") = " + std::to_string(counting));
  } catch (const format_error& e) {
    return fail("garbage", std::string("the output is not a torus routing table: ") + e.what());
  } catch (const std::invalid_argument& e) {
    return fail("garbage", std::string("the output is not a torus routing table: ") + e.what());
  }
  return o;
}

// The campaign of `property-test dance` and `property-test collective`: n from --n-min to --n-max, the special sizes
// first, then seeded random ones; the smallest failing n by trying every smaller one.
void run_dance_campaign(const std::shared_ptr<options>& opt, const char* subcommand, const char* placeholder,
                        int& code) {
  if (opt->model != "half-duplex" && opt->model != "directed" && opt->model != "collective")
    throw bad_input("--model: expected half-duplex, directed or collective, got '" + opt->model + "'");
  if (opt->cmd.find("{n}") == std::string::npos && opt->cmd.find("{ranks}") == std::string::npos)
    throw bad_input(std::string("--cmd: the command must contain ") + placeholder);
  if (opt->n_min < 1 || opt->n_min > opt->n_max || opt->n_max > 20'000)
    throw bad_input("--n-min/--n-max: expected 1 <= n-min <= n-max <= 20000");
  if (opt->runs == 0) throw bad_input("--runs: must be at least 1");
  const unsigned timeout_ms = parse_timeout_ms(opt->timeout, "--timeout");
  const std::uint64_t seed = campaign_seed(*opt);
  if (!opt->json)
    std::cout << "property-test " << subcommand << " (" << opt->model << "): seed " << seed << ", n = " << opt->n_min
              << ".." << opt->n_max << ", up to " << opt->runs << " runs of: " << opt->cmd << std::endl;

  // The order of n: every special size first (smallest first), then seeded random sizes.
  std::vector<rank> order = special_sizes(opt->n_min, opt->n_max);
  if (order.size() > opt->runs) order.resize(opt->runs);
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<rank> pick(opt->n_min, opt->n_max);
  while (order.size() < opt->runs) order.push_back(pick(random));

  std::vector<campaign_case> cases;
  for (rank n : order) cases.push_back(dance_case(*opt, n));
  const std::string rerun = "dancecard property-test " + std::string(subcommand) + " --cmd " + shell_quote(opt->cmd) +
                            (subcommand == std::string_view("dance") ? " --model " + opt->model : std::string()) +
                            " --seed " + std::to_string(seed) + " --n-min " + std::to_string(opt->n_min) + " --n-max " +
                            std::to_string(opt->n_max) + " --runs " + std::to_string(opt->runs) + rerun_options(*opt);
  code = run_campaign(
      {std::string(subcommand),
       "n = ",
       "n",
       "n",
       opt->save_dir,
       opt->junit,
       rerun,
       {{"seed", std::to_string(seed)}, {"command", opt->cmd}, {"model", opt->model}},
       opt->json},
      cases,
      [&](const campaign_case& failing) {
        std::vector<campaign_case> below;  // every n from n-min up to the failing one
        for (rank m = opt->n_min; m < static_cast<rank>(std::stoul(failing.key)); ++m)
          below.push_back(dance_case(*opt, m));
        return below;
      },
      [&](const campaign_case& c) { return test_one(*opt, timeout_ms, static_cast<rank>(std::stoul(c.key))); });
}

}  // namespace

void add_property_test_command(CLI::App& app, int& code) {
  CLI::App* command = app.add_subcommand("property-test", "Property-test an external scheduler program");
  command->require_subcommand(1);
  CLI::App* dance = command->add_subcommand("dance", "All-gather / all-to-all schedules for n ranks");
  auto opt = std::make_shared<options>();
  dance->add_option("--cmd", opt->cmd, "the program; {n} is replaced by the number of ranks")->required();
  dance->add_option("--model", opt->model,
                    "half-duplex (dance schedule or partner matrix) | directed (dancecard.directed/1) | collective "
                    "(dancecard.collective/1)");
  dance->add_option("--n-min", opt->n_min, "smallest n (default 1)");
  dance->add_option("--n-max", opt->n_max, "largest n (default 64)");
  dance->add_option("--max-gap", opt->max_gap, "fail when the schedule uses more than optimum + K rounds")
      ->check(integer_at_least(0));
  add_campaign_options(dance, *opt, "n");
  dance->callback([opt, &code] { run_dance_campaign(opt, "dance", "{n}", code); });

  CLI::App* coll = command->add_subcommand("collective", "Collective schedules (dancecard.collective/1) for n ranks");
  auto copt = std::make_shared<options>();
  copt->model = "collective";
  coll->add_option("--cmd", copt->cmd, "the program; {ranks} (or {n}) is replaced by the number of ranks")->required();
  coll->add_option("--n-min", copt->n_min, "smallest number of ranks (default 1)");
  coll->add_option("--n-max", copt->n_max, "largest number of ranks (default 64)");
  coll->add_option("--max-gap", copt->max_gap, "fail when the schedule takes more than the distance bound + K steps")
      ->check(integer_at_least(0));
  add_campaign_options(coll, *copt, "n");
  coll->callback([copt, &code] { run_dance_campaign(copt, "collective", "{ranks}", code); });

  CLI::App* tor =
      command->add_subcommand("torus", "Gossip routing tables (dancecard.torus-routing/1) for tori of many sizes");
  auto topt = std::make_shared<torus_options>();
  tor->add_option("--cmd", topt->cmd, "the program; {dims} is replaced by the sizes, e.g. 4x6")->required();
  tor->add_option("--d", topt->d, "dimensions (2 or 3; default 2)");
  tor->add_option("--size-min", topt->size_min, "smallest size n_j (default 2)");
  tor->add_option("--size-max", topt->size_max, "largest size n_j (default 12 in 2-D, 6 in 3-D)");
  tor->add_flag("--even", topt->even, "even sizes only (e.g. Section 3.1's rules)");
  tor->add_option("--max-gap", topt->max_gap, "fail when gossip takes more than ceil(packets (P - 1)/2d) + K steps")
      ->check(integer_at_least(0));
  add_campaign_options(tor, *topt, "tori");
  tor->callback([topt, &code] {
    torus_options& o = *topt;
    if (o.cmd.find("{dims}") == std::string::npos) throw bad_input("--cmd: the command must contain {dims}");
    if (o.d < 2 || o.d > 3) throw bad_input("--d: expected 2 or 3, got " + std::to_string(o.d));
    if (o.size_max == 0) o.size_max = o.d == 2 ? 12 : 6;
    if (o.even && o.size_min % 2 == 1) ++o.size_min;
    if (o.size_min < 1 || o.size_min > o.size_max || o.size_max > (o.d == 2 ? 256u : 32u))
      throw bad_input("--size-min/--size-max: expected 1 <= size-min <= size-max <= " +
                      std::to_string(o.d == 2 ? 256 : 32) + (o.even ? " with an even size in between" : ""));
    if (o.runs == 0) throw bad_input("--runs: must be at least 1");
    const unsigned timeout_ms = parse_timeout_ms(o.timeout, "--timeout");
    const std::uint64_t seed = campaign_seed(o);
    if (!o.json)
      std::cout << "property-test torus (d = " << o.d << "): seed " << seed << ", sizes " << o.size_min << ".."
                << o.size_max << (o.even ? " (even)" : "") << ", up to " << o.runs << " runs of: " << o.cmd
                << std::endl;
    // The order: every shape of the smallest sizes (up to size-min + 4 in 2-D, + 2 in 3-D; at most half the runs),
    // then seeded random shapes.
    std::vector<std::vector<std::uint32_t>> shapes =
        torus_shapes(o, o.size_min, std::min(o.size_max, o.size_min + (o.d == 2 ? 4u : 2u)));
    if (shapes.size() > (o.runs + 1) / 2) shapes.resize((o.runs + 1) / 2);
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::uint32_t> pick(o.size_min, o.size_max);
    for (std::size_t attempts = 0; shapes.size() < o.runs && attempts < 100u * o.runs; ++attempts) {
      std::vector<std::uint32_t> dims(o.d);
      for (std::uint32_t& n : dims) n = o.even ? pick(random) / 2 * 2 : pick(random);
      if (o.even && std::any_of(dims.begin(), dims.end(), [&](std::uint32_t n) { return n < o.size_min; })) continue;
      if (std::find(shapes.begin(), shapes.end(), dims) == shapes.end()) shapes.push_back(dims);
    }
    std::map<std::string, std::vector<std::uint32_t>> dims_of;
    std::vector<campaign_case> cases;
    for (const auto& dims : shapes) {
      cases.push_back(torus_case(o, dims));
      dims_of[cases.back().key] = dims;
    }
    std::string rerun = "dancecard property-test torus --cmd " + shell_quote(o.cmd) + " --d " + std::to_string(o.d) +
                        " --seed " + std::to_string(seed) + " --size-min " + std::to_string(o.size_min) +
                        " --size-max " + std::to_string(o.size_max) + " --runs " + std::to_string(o.runs);
    if (o.even) rerun += " --even";
    rerun += rerun_options(o);
    code = run_campaign(
        {"torus",
         "torus ",
         "tori",
         "dims",
         o.save_dir,
         o.junit,
         rerun,
         {{"seed", std::to_string(seed)}, {"command", o.cmd}, {"d", std::to_string(o.d)}},
         o.json},
        cases,
        [&](const campaign_case& failing) {
          // every shape in the range with fewer PUs than the failing one (at most 300, smallest first)
          const std::vector<std::uint32_t>& worst = dims_of.at(failing.key);
          const std::uint64_t limit =
              std::accumulate(worst.begin(), worst.end(), std::uint64_t{1}, std::multiplies<>());
          std::vector<campaign_case> below;
          for (const auto& dims : torus_shapes(o, o.size_min, o.size_max)) {
            if (std::accumulate(dims.begin(), dims.end(), std::uint64_t{1}, std::multiplies<>()) >= limit ||
                below.size() >= 300)
              break;
            below.push_back(torus_case(o, dims));
            dims_of[below.back().key] = dims;
          }
          return below;
        },
        [&](const campaign_case& c) { return test_torus(o, timeout_ms, c, dims_of.at(c.key)); });
  });
}

}  // namespace dancecard::cli
