// `dancecard verify [--only MODULE] [--json] [--jobs N]`: runs the theorem book (N claims at a time) and prints one row
// per claim, in book order.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "common.hpp"
#include "theorem_book.hpp"

namespace dancecard {

std::string_view to_string(claim_method m) {
  switch (m) {
    case claim_method::table:
      return "printed table";
    case claim_method::generator_and_checker:
      return "generator + checker";
    case claim_method::formula:
      return "formula";
    case claim_method::simulation:
      return "simulation";
    case claim_method::smt:
      return "SMT";
    case claim_method::certificate:
      return "certificate";
  }
  return "?";
}

theorem_book make_theorem_book() {
  theorem_book book;
  register_dance_claims(book);
  register_mpi_claims(book);
  register_hrel_claims(book);
  register_online_claims(book);
  register_torus_claims(book);
  register_torus_zigzag_claims(book);
  register_torus_smt_claims(book);
  register_collective_claims(book);
  return book;
}

namespace cli {

namespace {

// The machine's cores, at most 8 (1 when unknown).
unsigned default_jobs() { return std::clamp(std::thread::hardware_concurrency(), 1u, 8u); }

}  // namespace

void add_verify_command(CLI::App& app, int& code) {
  CLI::App* verify = app.add_subcommand("verify", "The theorem book: check every claim of the papers");
  struct options {
    std::string only;
    bool json = false, list = false, quick = false;
    unsigned jobs = default_jobs();
  };
  auto opt = std::make_shared<options>();
  verify
      ->add_option("--only", opt->only,
                   "a module (dance, mpi, hrel, online, torus, collective) or a claim id prefix (dance.prop2)")
      ->check([](const std::string& v) {
        return v.empty() ? std::string("empty: name a module or a claim id prefix") : std::string();
      });
  verify->add_flag("--json", opt->json, "print the rows as JSON");
  verify->add_flag("--list", opt->list, "list the claims without checking them");
  verify->add_flag("--quick", opt->quick,
                   "leave out the slow claims (over about 5 s alone); every kind of check still runs");
  add_jobs_option(
      verify, opt->jobs, "claims",
      "default: the machine's cores, at most 8; rows are printed in book order either way, and a row's time is its "
      "wall time beside the others");
  verify->callback([opt, &code] {
    const theorem_book book = make_theorem_book();
    std::vector<const claim*> selected;
    std::vector<std::string> left_out;  // --quick
    for (const claim& c : book.claims())
      if (opt->only.empty() || c.id.rfind(opt->only, 0) == 0) {  // a module is the prefix of its claims' ids
        if (opt->quick && c.cost != claim_cost::quick)
          left_out.push_back(c.id);
        else
          selected.push_back(&c);
      }
    if (selected.empty())
      throw bad_input(left_out.empty() ? "--only: no claim matches '" + opt->only + "'"
                                       : "--only " + opt->only + " --quick: every claim it matches is slow");
    if (opt->list) {
      for (const claim* c : selected)
        std::cout << std::left << std::setw(30) << c->id << " " << std::setw(20) << to_string(c->method) << " "
                  << c->section << ": " << c->statement << "\n";
      code = exit_holds;
      return;
    }
    // The progress line (stderr, a terminal only, not --quiet or --json): rows done and the claims being checked.
    std::optional<progress_line> progress;
    if (!opt->json)
      progress.emplace("verify: " + std::to_string(selected.size()) + (selected.size() == 1 ? " claim" : " claims"));
    const auto start = std::chrono::steady_clock::now();
    nlohmann::json rows = nlohmann::json::array();
    std::size_t holds = 0, violated = 0, unknown = 0, informational = 0;
    if (!opt->json)
      std::cout << std::left << std::setw(31) << "claim" << std::setw(14) << "verdict" << std::setw(21) << "method"
                << std::setw(10) << "time"
                << "instances / evidence\n";
    // Claims are checked on `jobs` threads, the long-running ones first and then in book order (so that the longest
    // is not the last to start); a row is printed as soon as every row before it is (so the table reads the same for
    // any number of jobs, but for the times).
    std::vector<std::size_t> order;
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t k = 0; k < selected.size(); ++k)
        if ((selected[k]->cost == claim_cost::longest) == (pass == 0)) order.push_back(k);
    struct done_row {
      claim_result result;
      double seconds = 0;
    };
    std::vector<std::optional<done_row>> done(selected.size());
    std::vector<bool> running(selected.size(), false);
    std::atomic<std::size_t> next{0};
    std::mutex lock;  // guards done, running, printed, the counts, rows and the output
    std::size_t printed = 0, finished = 0;
    auto show_progress = [&] {
      if (!progress) return;
      std::string names;
      for (std::size_t k = 0; k < selected.size(); ++k)
        if (running[k]) names += (names.empty() ? "" : ", ") + selected[k]->id;
      progress->update(std::to_string(finished) + " done; checking " + names);
    };
    auto print_ready = [&] {
      if (progress && printed < selected.size() && done[printed]) progress->clear();
      for (; printed < selected.size() && done[printed]; ++printed) {
        const claim& c = *selected[printed];
        const claim_result& r = done[printed]->result;
        const double seconds = done[printed]->seconds;
        (r.outcome == claim_verdict::holds           ? holds
         : r.outcome == claim_verdict::violated      ? violated
         : r.outcome == claim_verdict::informational ? informational
                                                     : unknown)++;
        if (opt->json) {
          rows.push_back({{"id", c.id},
                          {"paper", c.paper},
                          {"section", c.section},
                          {"statement", c.statement},
                          {"method", to_string(c.method)},
                          {"verdict", to_string(r.outcome)},
                          {"covered", r.covered},
                          {"evidence", r.evidence},
                          {"certificate", r.certificate},
                          {"seconds", seconds}});
        } else {
          std::ostringstream time;
          time << std::fixed << std::setprecision(2) << seconds << "s";
          std::cout << std::left << std::setw(31) << c.id << std::setw(14) << to_string(r.outcome) << std::setw(21)
                    << to_string(c.method) << std::setw(10) << time.str() << r.covered << ": " << r.evidence << "\n"
                    << std::string(31, ' ') << c.section << ": " << c.statement << "\n";
          if (!r.certificate.empty()) std::cout << std::string(31, ' ') << "certificate: " << r.certificate << "\n";
          std::cout << std::flush;
        }
      }
    };
    auto worker = [&] {
      for (std::size_t i; (i = next++) < selected.size();) {
        const std::size_t k = order[i];
        {
          std::lock_guard<std::mutex> g(lock);
          running[k] = true;
          show_progress();
        }
        const auto t0 = std::chrono::steady_clock::now();
        claim_result r;
        try {
          r = selected[k]->check();
        } catch (const std::exception& e) {
          r = {claim_verdict::unknown, "", std::string("the check threw: ") + e.what(), ""};
        } catch (...) {
          r = {claim_verdict::unknown, "", "the check threw something that is not a std::exception", ""};
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::lock_guard<std::mutex> g(lock);
        running[k] = false;
        ++finished;
        done[k] = done_row{std::move(r), seconds};
        print_ready();
        if (printed < selected.size()) show_progress();
      }
    };
    const auto jobs = static_cast<unsigned>(std::min<std::size_t>(opt->jobs, selected.size()));
    {
      std::vector<std::thread> pool;
      for (unsigned j = 1; j < jobs; ++j) pool.emplace_back(worker);
      worker();
      for (auto& t : pool) t.join();
    }
    progress.reset();
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (opt->json) {
      std::cout << nlohmann::json{{"format", "dancecard.theorem-book/1"},
                                  {"rows", rows},
                                  {"holds", holds},
                                  {"violated", violated},
                                  {"unknown", unknown},
                                  {"informational", informational},
                                  {"seconds", total},
                                  {"jobs", jobs},
                                  {"left_out", left_out}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << "\n"
                << selected.size() << " claims: " << holds << " hold, " << violated << " violated, " << unknown
                << " unknown, " << informational << " informational (" << std::fixed << std::setprecision(1) << total
                << " s" << (jobs > 1 ? " on " + std::to_string(jobs) + " threads" : std::string()) << ")\n";
      if (!left_out.empty()) {
        std::cout << left_out.size() << " slow claims left out (--quick):";
        for (const std::string& id : left_out) std::cout << " " << id;
        std::cout << "\n";
      }
    }
    code = violated > 0 ? exit_violated : unknown > 0 ? exit_unknown : exit_holds;
  });
}

}  // namespace cli
}  // namespace dancecard
