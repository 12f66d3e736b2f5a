// `dancecard prove dance|directed --n N | --n A..B [--timeout SEC] [--jobs J] [--json] [--solve-below]`
#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "common.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/directed.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;
using namespace dancecard::certificates;

namespace {

template <class Existence>
nlohmann::json side_json(const Existence& r, std::uint64_t rounds, bool asked = true) {
  if (!asked) return {{"rounds", rounds}, {"asked", false}, {"reason", r.reason}};
  nlohmann::json j = {{"rounds", rounds},
                      {"answer", to_string(r.answer)},
                      {"seconds", r.seconds},
                      {"encoding", r.encoding},
                      {"variables", r.variables}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.witness) j["witness_check"] = r.witness->report().checked;
  return j;
}

std::string ms(double seconds) { return std::to_string(static_cast<long long>(seconds * 1000 + 0.5)) + " ms"; }

nlohmann::json certificate_json(const certificate_check& c) {
  return {{"kind", c.kind},
          {"status", c.status},
          {"bytes", c.bytes},
          {"steps", c.steps},
          {"accepted", c.accepted},
          {"check_seconds", c.seconds},
          {"solve_seconds", c.solve_seconds},
          {"detail", c.detail}};
}

template <class Result>
std::string certificate_text(const Result& r) {
  std::string out;
  if (r.certificate) {
    const auto& c = *r.certificate;
    out += "; cutting planes: " + std::to_string(c.bytes) + " bytes, " + std::to_string(c.steps) + " steps, " +
           c.status + " in " + ms(c.seconds);
  }
  if (r.clausal) {
    const auto& c = *r.clausal;
    out += "; DRAT: ";
    if (c.status == "checked" || c.status == "rejected")
      out += std::to_string(c.bytes) + " bytes, " + std::to_string(c.steps) + " lemmas, CaDiCaL " +
             ms(c.solve_seconds) + ", " + c.status + " in " + ms(c.seconds);
    else if (c.status == "timeout")
      out += "CaDiCaL timeout after " + ms(c.solve_seconds);
    else
      out += c.status;
  }
  return out;
}

// The files every --emit writes for one n: the witness, the certificates and a manifest; `extra` adds more.
template <class Result, class WriteWitness>
void emit_common(const std::filesystem::path& dir, const std::string& stem, const Result& r, const std::string& query,
                 nlohmann::json files, WriteWitness write_witness) {
  if (r.at_claimed.witness) {
    std::ostringstream schedule;
    write_witness(schedule, r.at_claimed.witness->schedule());
    files.push_back(emit_file(dir, stem + "-witness.json", schedule.str()));
  }
  if (r.certificate) files.push_back(emit_file(dir, stem + "-lower.cp", r.certificate->text));
  if (r.clausal && !r.clausal->formula.empty())
    files.push_back(emit_file(dir, stem + "-lower.cnf", r.clausal->formula));
  if (r.clausal && !r.clausal->text.empty()) files.push_back(emit_file(dir, stem + "-lower.drat", r.clausal->text));
  nlohmann::json manifest = {{"format", "dancecard.manifest/1"},
                             {"query", query},
                             {"status", to_string(r.status)},
                             {"reason", r.reason},
                             {"witness", side_json(r.at_claimed, r.claimed)},
                             {"lower_bound", side_json(r.below_claimed, r.claimed - 1, r.solver_below)},
                             {"files", files}};
  manifest["solvers"] = {solver_version(), clausal_solver_version()};
  manifest["certificates"] = nlohmann::json::array();
  if (r.certificate) manifest["certificates"].push_back(certificate_json(*r.certificate));
  if (r.clausal) manifest["certificates"].push_back(certificate_json(*r.clausal));
  manifest["checker"] = "dancecard check-proof FILE.cp | dancecard check-proof FILE.cnf FILE.drat";
  std::ofstream out(dir / (stem + ".manifest.json"));
  out << manifest.dump(2) << "\n";
  if (!out) throw bad_input((dir / (stem + ".manifest.json")).string() + ": cannot write");
}

// --emit DIR for the dance optimum: also both Z3 queries in SMT-LIB 2.
void emit(const std::filesystem::path& dir, const dance_optimality_result& r, const optimality_options& po) {
  const std::string stem = "dance-n" + std::to_string(r.n);
  nlohmann::json files = nlohmann::json::array();
  const dance_query at{.n = r.n, .rounds = r.claimed, .requirements = {}};
  const dance_query below{.n = r.n, .rounds = r.claimed - 1, .requirements = {}};
  files.push_back(emit_file(dir, stem + "-witness.smt2",
                            dance_query_smtlib(at, {.encoding = po.witness_encoding,
                                                    .symmetry_breaking = po.symmetry_breaking,
                                                    .rotational_search = po.rotational_search})));
  files.push_back(
      emit_file(dir, stem + "-lower.smt2",
                dance_query_smtlib(below, {.encoding = po.lower_bound_encoding, .symmetry_breaking = false})));
  emit_common(dir, stem, r,
              "dance-party optimum: a schedule for " + std::to_string(r.n) + " people in T(n) = " +
                  std::to_string(r.claimed) + " rounds exists, and none in " + std::to_string(r.claimed - 1),
              files, [](std::ostream& out, const dance_schedule& s) { write_dance_json(out, s, "z3"); });
}

void emit(const std::filesystem::path& dir, const directed_optimality_result& r, const optimality_options& po) {
  const std::string stem = "directed-n" + std::to_string(r.n);
  nlohmann::json files = nlohmann::json::array();
  files.push_back(
      emit_file(dir, stem + "-witness.smt2",
                directed_query_smtlib(r.n, r.claimed,
                                      {.encoding = po.witness_encoding, .symmetry_breaking = po.symmetry_breaking})));
  files.push_back(emit_file(
      dir, stem + "-lower.smt2",
      directed_query_smtlib(r.n, r.claimed - 1, {.encoding = po.lower_bound_encoding, .symmetry_breaking = false})));
  emit_common(dir, stem, r,
              "full-duplex all-to-all optimum: a schedule for " + std::to_string(r.n) + " ranks in n-1 = " +
                  std::to_string(r.claimed) + " rounds exists, and none in " + std::to_string(r.claimed - 1),
              files, [](std::ostream& out, const directed_schedule& s) { write_directed_json(out, s, "z3"); });
}

struct prove_options {
  std::string n, timeout = "60", lower_encoding = "counting", emit, clausal_budget = "1";
  unsigned jobs = 1;
  // CaDiCaL does not refute the pigeonhole-like counting of the dance (n = 9, n >= 11) or directed (P >= 11) CNFs
  // within a second (docs/performance.md): from 10,000 clauses on the re-solve is not attempted.
  std::uint64_t clausal_max_clauses = 10'000;
  bool json = false, no_rotational = false, solve_below = false;
};

// Proves every n of --n (in parallel with --jobs), prints results in the order given, sets the exit code.
template <class Prove>
void run_campaign(const prove_options& opt, const char* optimum, Prove prove, int& code) {
  const std::vector<std::uint64_t> sizes = parse_values(opt.n, "--n", 2, 200);
  const unsigned timeout_ms = parse_timeout_ms(opt.timeout, "--timeout");
  optimality_options po;
  po.timeout_ms = timeout_ms;
  po.rotational_search = !opt.no_rotational;
  po.clausal_budget_ms = opt.clausal_budget == "0" ? 0 : parse_timeout_ms(opt.clausal_budget, "--clausal-budget");
  po.max_clausal_clauses = opt.clausal_max_clauses;
  po.solve_below_when_certified = opt.solve_below;
  const auto lower = parse_dance_encoding(opt.lower_encoding);
  if (!lower) throw bad_input("--lower-bound-encoding: expected plain or counting, got '" + opt.lower_encoding + "'");
  po.lower_bound_encoding = *lower;
  if (!opt.emit.empty()) create_emit_directory(opt.emit);
  using result = decltype(prove(rank{2}, po));
  const std::size_t count = sizes.size();
  std::vector<std::optional<result>> results(count);
  std::atomic<std::size_t> next{0};
  std::mutex print;
  std::size_t printed = 0;
  progress_line progress(std::string("prove: ") + optimum + " for n = " + opt.n);
  // Results are printed in the order of --n as soon as every earlier one is done.
  auto flush_ready = [&] {
    if (printed < count && results[printed]) progress.clear();
    while (printed < count && results[printed]) {
      const auto& r = *results[printed];
      if (!opt.json)
        std::cout << "n = " << r.n << ": " << optimum << " = " << r.claimed << " " << to_string(r.status) << " in "
                  << ms(r.seconds) << " (witness: " << to_string(r.at_claimed.answer) << ", " << r.at_claimed.encoding
                  << ", " << ms(r.at_claimed.seconds) << "; " << r.claimed - 1 << " rounds: "
                  << (r.solver_below ? std::string(to_string(r.below_claimed.answer)) + ", " +
                                           r.below_claimed.encoding + ", " + ms(r.below_claimed.seconds)
                                     : "solver not asked")
                  << certificate_text(r) << ")" << (r.status == proof_status::proven ? "" : " -- " + r.reason)
                  << std::endl;
      ++printed;
    }
  };
  auto worker = [&] {
    for (std::size_t i; (i = next++) < count;) {
      progress.update("n = " + std::to_string(sizes[i]) + " (" + std::to_string(i + 1) + " of " +
                      std::to_string(count) + ")");
      auto r = prove(static_cast<rank>(sizes[i]), po);
      if (!opt.emit.empty()) emit(opt.emit, r, po);
      std::lock_guard lock(print);
      results[i] = std::move(r);
      flush_ready();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < std::min<std::size_t>(opt.jobs, count); ++j) pool.emplace_back(worker);
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
                   {"below_optimum", side_json(r->below_claimed, r->claimed - 1, r->solver_below)}});
    all.back()["certificates"] = nlohmann::json::array();
    if (r->certificate) all.back()["certificates"].push_back(certificate_json(*r->certificate));
    if (r->clausal) all.back()["certificates"].push_back(certificate_json(*r->clausal));
  }
  if (opt.json)
    std::cout << nlohmann::json{{"format", "dancecard.proofs/1"}, {"results", all}}.dump(2) << "\n";
  else if (count > 1)
    std::cout << count << " instances: "
              << (any_refuted   ? "some refuted"
                  : any_unknown ? "some unknown"
                                : "all proven")
              << ", " << ms(total) << " solver time in all\n";
  code = any_refuted ? exit_violated : any_unknown ? exit_unknown : exit_holds;
}

}  // namespace

void add_prove_command(CLI::App& app, int& code) {
  CLI::App* prove = app.add_subcommand("prove", "Prove optimality with Z3 (witness through the checker, unsat below)");
  prove->require_subcommand(1);
  auto add_common = [](CLI::App* sub, prove_options& opt) {
    sub->add_option("--n", opt.n, "N, A..B, A..B:S or a list of them (3,5,8..12), 2 <= n <= 200")->required();
    add_timeout_option(sub, opt.timeout, "solver query (default 60)");
    add_jobs_option(sub, opt.jobs, "instances (values of n)", "default 1");
    sub->add_flag("--json", opt.json, "print the results as JSON");
    sub->add_option("--clausal-budget", opt.clausal_budget,
                    "seconds for CaDiCaL to re-solve the lower bound with a DRAT proof (default 1; 0 skips it)");
    sub->add_option("--emit", opt.emit, "write the witness, certificates and a manifest per n into DIR");
    sub->add_option("--clausal-max-clauses", opt.clausal_max_clauses,
                    "CNFs above this many clauses are not re-solved with CaDiCaL (default 10000)")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1'000'000'000}));
    sub->add_flag("--solve-below", opt.solve_below,
                  "also ask Z3 the one-round-below query when the checked cutting-planes certificate refutes it");
    sub->add_option("--lower-bound-encoding", opt.lower_encoding,
                    "encoding of the one-round-below query: counting (default) or plain (no implied counts); "
                    "implies --solve-below")
        ->each([&opt](const std::string&) { opt.solve_below = true; });
  };
  CLI::App* dance = prove->add_subcommand("dance", "Prove T(n) = n-1 (even n) / n (odd n)");
  auto opt = std::make_shared<prove_options>();
  add_common(dance, *opt);
  dance->add_flag("--free-search", opt->no_rotational, "search witnesses without the rotational restriction");
  dance->callback([opt, &code] {
    run_campaign(
        *opt, "T(n)", [](rank n, const optimality_options& po) { return prove_dance_optimum(n, po); }, code);
  });
  CLI::App* directed = prove->add_subcommand("directed", "Prove that full-duplex all-to-all needs n-1 rounds");
  auto dopt = std::make_shared<prove_options>();
  add_common(directed, *dopt);
  directed->callback([dopt, &code] {
    run_campaign(
        *dopt, "n-1", [](rank n, const optimality_options& po) { return prove_directed_optimum(n, po); }, code);
  });
}

}  // namespace dancecard::cli
