// `dancecard simulate online ...`: seeded campaigns of the on-line protocols, every trace replayed by the checker;
// rounds/h as a mean with a 95% confidence interval; `--sweep-k A..B:S --svg FILE` draws Figure 2 (staged FIFO,
// simulation against the analysis) as an SVG.
#include <CLI/CLI.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common.hpp"
#include "dancecard/checkers/online_experiment.hpp"
#include "online_analysis.hpp"
#include "range_grammar.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;
using namespace dancecard::online;

namespace {

contention parse_discipline(const std::string& s) {
  if (const std::optional<contention> c = parse_contention(s)) return *c;
  throw bad_input("--discipline: expected ocpc, arbitrary, fifo or priority, got '" + s + "'");
}

online_protocol parse_protocol(const std::string& s, contention d) {
  if (s.empty()) return paper_protocol(d);
  if (const std::optional<online_protocol> p = parse_online_protocol(s)) return *p;
  throw bad_input("--protocol: expected ggt, weighted, equal, fifo-staged or random-priority, got '" + s + "'");
}

std::string fixed(double v, int digits = 3) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

// --sweep-k A..B:S (the range grammar, cli/range_grammar.hpp, with decimals of up to three places): every K = A + i·S
// up to B, stepped exactly in thousandths; 0 < A <= B, S > 0, at most 200 steps.
std::vector<double> parse_k_sweep(const std::string& text) {
  std::vector<ranges::item_text> items;
  try {
    items = ranges::split_list(text);
  } catch (const std::invalid_argument& e) {
    throw bad_input("--sweep-k: " + std::string(e.what()));
  }
  if (items.size() != 1 || items[0].last.empty() || items[0].step.empty())
    throw bad_input("--sweep-k: expected one range A..B:S (such as 1..3:0.1), got '" + text + "'");
  auto thousandths = [&](const std::string& t) {
    const std::size_t dot = t.find('.');
    const std::string whole = t.substr(0, dot), fraction = dot == std::string::npos ? "" : t.substr(dot + 1);
    const auto digits = [](const std::string& d) {
      return std::all_of(d.begin(), d.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
    };
    if (whole.empty() || whole.size() > 9 || !digits(whole) || !digits(fraction) || fraction.size() > 3 ||
        (dot != std::string::npos && fraction.empty()))
      throw bad_input("--sweep-k: '" + t + "' is not a decimal with at most three places (in '" + text + "')");
    std::uint64_t v = std::stoull(whole) * 1000, scale = 100;
    for (const char c : fraction) v += static_cast<std::uint64_t>(c - '0') * scale, scale /= 10;
    return v;
  };
  const std::uint64_t a = thousandths(items[0].first), b = thousandths(items[0].last),
                      step = thousandths(items[0].step);
  if (a == 0 || b < a || step == 0 || (b - a) / step > 200)
    throw bad_input("--sweep-k: expected A..B:S with 0 < A <= B, S > 0 and at most 200 steps, got '" + text + "'");
  std::vector<double> ks;
  for (std::uint64_t k = a; k <= b; k += step) ks.push_back(static_cast<double>(k) / 1000);
  return ks;
}

}  // namespace

void add_online_commands(CLI::App& app, int& code) {
  CLI::App* simulate = app.add_subcommand("simulate", "Run simulations (on-line h-relations under contention)");
  simulate->require_subcommand(1);
  CLI::App* online = simulate->add_subcommand("online", "On-line h-relation protocols under a contention discipline");
  struct options {
    std::string discipline, protocol, instance = "random", sweep, svg;
    rank n = 256;
    std::uint64_t h = 64, seeds = 10, seed = 1;
    double K = 2.5, mu = 0.267, beta = 0.1, epsilon = 0.25;
    bool json = false;
  };
  auto opt = std::make_shared<options>();
  online->add_option("--discipline", opt->discipline, "ocpc | arbitrary | fifo | priority")->required();
  online->add_option(
      "--protocol", opt->protocol,
      "ggt | weighted | equal | fifo-staged | random-priority (default: the paper's for the discipline)");
  online->add_option("--instance", opt->instance,
                     "random (h random permutations) | total-exchange | difficult (Theorem 1)");
  online->add_option("--n", opt->n, "processors (random, total-exchange; default 256)");
  online->add_option("--h", opt->h, "h (random, difficult; default 64)");
  online->add_option("--seeds", opt->seeds, "runs, seeds --seed .. --seed + runs - 1 (default 10)");
  add_seed_option(online, opt->seed, "the runs: run k has seed --seed + k (default 1)");
  online->add_option("--K", opt->K, "fifo-staged: stage length K h_{i-1} (default 2.5)");
  online->add_option("--mu", opt->mu, "fifo-staged: h_i = mu h_{i-1} (default 0.267)");
  online->add_option("--beta", opt->beta, "weighted: beta (default 0.1)");
  online->add_option("--epsilon", opt->epsilon, "ggt: epsilon (default 0.25)");
  online->add_option("--sweep-k", opt->sweep,
                     "fifo-staged: K from A to B in steps of S, as A..B:S (decimals, up to three places)");
  online->add_option("--svg", opt->svg, "with --sweep-k: draw simulation and analysis into FILE.svg")
      ->check(writable_file());
  online->add_flag("--json", opt->json, "print the result as JSON");
  online->callback([opt, &code] {
    const contention d = parse_discipline(opt->discipline);
    const online_protocol p = parse_protocol(opt->protocol, d);
    if (opt->n < 2 || opt->n > 4096) throw bad_input("--n: expected 2..4096");
    if (opt->h < 1 || opt->h > 4096) throw bad_input("--h: expected 1..4096");
    if (opt->seeds < 1 || opt->seeds > 1000) throw bad_input("--seeds: expected 1..1000");
    if (!(opt->K > 0 && opt->K <= 100)) throw bad_input("--K: expected 0 < K <= 100");
    if (!(opt->mu > 0 && opt->mu < 1)) throw bad_input("--mu: expected 0 < mu < 1");
    if (!(opt->beta > 0 && opt->beta < 1)) throw bad_input("--beta: expected 0 < beta < 1");
    if (!(opt->epsilon > 0 && opt->epsilon < 1)) throw bad_input("--epsilon: expected 0 < epsilon < 1");
    if (opt->instance == "random" && static_cast<std::uint64_t>(opt->n) * opt->h > (1u << 22))
      throw bad_input("--n, --h: n·h above 4,194,304 messages");
    if (opt->instance == "difficult" && (opt->h < 2 || opt->h > 40))
      throw bad_input("--h: the difficult instance takes 2..40");
    const online_instance instance =
        opt->instance == "random"           ? random_online_relation(opt->n, opt->h, opt->seed)
        : opt->instance == "total-exchange" ? total_exchange(opt->n)
        : opt->instance == "difficult"
            ? difficult_relation(opt->h)
            : throw bad_input("--instance: expected random, total-exchange or difficult, got '" + opt->instance + "'");
    online_options o{
        .discipline = d, .protocol = p, .epsilon = opt->epsilon, .beta = opt->beta, .K = opt->K, .mu = opt->mu};
    if (!runs_under(d, p))
      throw bad_input("--protocol: " + std::string(to_string(p)) + " does not run under the " +
                      std::string(to_string(d)) + " discipline");
    std::vector<double> ks;
    if (!opt->sweep.empty()) {
      if (p != online_protocol::fifo_staged) throw bad_input("--sweep-k: only for --protocol fifo-staged");
      ks = parse_k_sweep(opt->sweep);
    } else if (!opt->svg.empty()) {
      throw bad_input("--svg: needs --sweep-k");
    }
    if (ks.empty()) ks.push_back(opt->K);
    nlohmann::json rows = nlohmann::json::array();
    std::vector<fifo_sweep_point> points;
    bool ok = true;
    for (double k : ks) {
      o.K = k;
      const online_campaign c = run_online_campaign(instance, o, opt->seed, opt->seeds);
      ok = ok && c.all_finished && c.all_valid;
      points.push_back({k, c.mean, c.ci95, fifo_staged_analysis(k)});
      rows.push_back({{"K", k},
                      {"mean_rounds_over_h", c.mean},
                      {"ci95", c.ci95},
                      {"mean_exact", c.mean_ratio.to_string()},
                      {"min_rounds", c.min_rounds},
                      {"max_rounds", c.max_rounds},
                      {"all_finished", c.all_finished},
                      {"traces_valid", c.all_valid},
                      {"problem", c.problem}});
      if (!opt->json) {
        std::cout << to_string(d) << " / " << to_string(p) << " on " << opt->instance
                  << " (n = " << instance.processors() << ", h = " << c.h << ", " << c.runs << " seeds from "
                  << opt->seed << ")";
        if (p == online_protocol::fifo_staged) std::cout << ", K = " << fixed(k, 2) << ", mu = " << opt->mu;
        std::cout << ": rounds/h = " << fixed(c.mean) << " ± " << fixed(c.ci95) << " (95%), min " << c.min_rounds
                  << ", max " << c.max_rounds << " rounds; traces " << (c.all_valid ? "valid" : "REJECTED") << "\n";
        if (!c.problem.empty()) std::cout << "  " << c.problem << "\n";
      }
    }
    if (opt->json)
      std::cout << nlohmann::json{{"format", "dancecard.online-simulation/1"},
                                  {"discipline", to_string(d)},
                                  {"protocol", to_string(p)},
                                  {"instance", opt->instance},
                                  {"n", instance.processors()},
                                  {"h", instance.h()},
                                  {"seeds", opt->seeds},
                                  {"first_seed", opt->seed},
                                  {"mu", opt->mu},
                                  {"results", rows}}
                       .dump(2)
                << "\n";
    if (!opt->svg.empty()) {
      std::ofstream out(opt->svg);
      if (!out) throw bad_input("--svg: cannot write '" + opt->svg + "'");
      out << fifo_sweep_svg(points, opt->instance + " n = " + std::to_string(instance.processors()) +
                                        ", h = " + std::to_string(instance.h()) + ", " + std::to_string(opt->seeds) +
                                        " seeds per K, mu = " + fixed(opt->mu, 3));
    }
    code = ok ? exit_holds : exit_violated;
  });
}

}  // namespace dancecard::cli
