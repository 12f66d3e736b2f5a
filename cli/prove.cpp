// `dancecard prove dance --n N | --n A..B [--timeout SEC] [--jobs J] [--json]`
#include <CLI/CLI.hpp>
#include <atomic>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "common.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::cli {

namespace {

nlohmann::json side_json(const existence_result& r, std::uint64_t rounds) {
  nlohmann::json j = {{"rounds", rounds},     {"answer", to_string(r.answer)}, {"seconds", r.seconds},
                      {"encoding", r.encoding}, {"variables", r.variables}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.witness) j["witness_check"] = r.witness->report().checked;
  return j;
}

std::string ms(double seconds) { return std::to_string(static_cast<long long>(seconds * 1000 + 0.5)) + " ms"; }

}  // namespace

void add_prove_command(CLI::App& app, int& code) {
  CLI::App* prove = app.add_subcommand("prove", "Prove optimality with Z3 (witness through the checker, unsat below)");
  prove->require_subcommand(1);
  CLI::App* dance = prove->add_subcommand("dance", "Prove T(n) = n-1 (even n) / n (odd n)");
  struct options {
    std::string n, timeout = "60", lower_encoding = "counting";
    unsigned jobs = 1;
    bool json = false, no_rotational = false;
  };
  auto opt = std::make_shared<options>();
  dance->add_option("--n", opt->n, "N or A..B, 2 <= n <= 200")->required();
  dance->add_option("--timeout", opt->timeout, "seconds per solver query (default 60)");
  dance->add_option("--jobs,-j", opt->jobs, "instances proved in parallel (default 1)");
  dance->add_flag("--json", opt->json, "print the results as JSON");
  dance->add_flag("--free-search", opt->no_rotational, "search witnesses without the rotational restriction");
  dance->add_option("--lower-bound-encoding", opt->lower_encoding,
                    "encoding of the T(n)-1 query: counting (default) or plain (no implied counts)");
  dance->callback([opt, &code] {
    const integer_range range = parse_range(opt->n, "--n", 2, 200);
    const unsigned timeout_ms = parse_timeout_ms(opt->timeout, "--timeout");
    if (opt->jobs == 0 || opt->jobs > 64) throw bad_input("--jobs: expected 1..64, got " + std::to_string(opt->jobs));
    const std::size_t count = range.last - range.first + 1;
    std::vector<std::optional<dance_optimality_result>> results(count);
    std::atomic<std::size_t> next{0};
    std::mutex print;
    std::size_t printed = 0;
    optimality_options po;
    po.timeout_ms = timeout_ms;
    po.rotational_search = !opt->no_rotational;
    const auto lower = parse_dance_encoding(opt->lower_encoding);
    if (!lower) throw bad_input("--lower-bound-encoding: expected plain or counting, got '" + opt->lower_encoding + "'");
    po.lower_bound_encoding = *lower;
    // Results are printed in order of n as soon as every smaller n is done.
    auto flush_ready = [&] {
      while (printed < count && results[printed]) {
        const auto& r = *results[printed];
        if (!opt->json)
          std::cout << "n = " << r.n << ": T(n) = " << r.claimed << " " << to_string(r.status) << " in " << ms(r.seconds)
                    << " (witness: " << to_string(r.at_claimed.answer) << ", " << r.at_claimed.encoding << ", "
                    << ms(r.at_claimed.seconds) << "; " << r.claimed - 1 << " rounds: " << to_string(r.below_claimed.answer)
                    << ", " << r.below_claimed.encoding << ", " << ms(r.below_claimed.seconds) << ")"
                    << (r.status == proof_status::proven ? "" : " -- " + r.reason) << std::endl;
        ++printed;
      }
    };
    auto worker = [&] {
      for (std::size_t i; (i = next++) < count;) {
        auto r = prove_dance_optimum(static_cast<rank>(range.first + i), po);
        std::lock_guard lock(print);
        results[i] = std::move(r);
        flush_ready();
      }
    };
    std::vector<std::thread> pool;
    for (unsigned j = 1; j < std::min<std::size_t>(opt->jobs, count); ++j) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();

    bool any_refuted = false, any_unknown = false;
    double total = 0;
    nlohmann::json all = nlohmann::json::array();
    for (const auto& r : results) {
      any_refuted |= r->status == proof_status::refuted;
      any_unknown |= r->status == proof_status::unknown;
      total += r->seconds;
      all.push_back({{"n", r->n},
                     {"claimed_optimum", r->claimed},
                     {"status", to_string(r->status)},
                     {"reason", r->reason},
                     {"seconds", r->seconds},
                     {"at_optimum", side_json(r->at_claimed, r->claimed)},
                     {"below_optimum", side_json(r->below_claimed, r->claimed - 1)}});
    }
    if (opt->json) std::cout << nlohmann::json{{"format", "dancecard.proofs/1"}, {"results", all}}.dump(2) << "\n";
    else if (count > 1)
      std::cout << count << " instances: " << (any_refuted ? "some refuted" : any_unknown ? "some unknown" : "all proven")
                << ", " << ms(total) << " solver time in all\n";
    code = any_refuted ? exit_violated : any_unknown ? exit_unknown : exit_holds;
  });
}

}  // namespace dancecard::cli
