// `dancecard verify [--only MODULE] [--json]`: runs the theorem book and prints one row per claim.
#include <CLI/CLI.hpp>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "theorem_book.hpp"

namespace dancecard {

std::string_view to_string(claim_method m) {
  switch (m) {
    case claim_method::table: return "printed table";
    case claim_method::generator_and_checker: return "generator + checker";
    case claim_method::formula: return "formula";
    case claim_method::simulation: return "simulation";
    case claim_method::smt: return "SMT";
    case claim_method::certificate: return "certificate";
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
  register_torus_construction_claims(book);
  register_torus_smt_claims(book);
  return book;
}

namespace cli {

void add_verify_command(CLI::App& app, int& code) {
  CLI::App* verify = app.add_subcommand("verify", "The theorem book: check every claim of the papers");
  struct options {
    std::string only;
    bool json = false, list = false;
  };
  auto opt = std::make_shared<options>();
  verify->add_option("--only", opt->only, "a module (dance, mpi, hrel, online, torus) or a claim id prefix (dance.prop2)");
  verify->add_flag("--json", opt->json, "print the rows as JSON");
  verify->add_flag("--list", opt->list, "list the claims without checking them");
  verify->callback([opt, &code] {
    const theorem_book book = make_theorem_book();
    std::vector<const claim*> selected;
    for (const claim& c : book.claims())
      if (opt->only.empty() || c.id == opt->only || c.id.rfind(opt->only + ".", 0) == 0 ||
          (opt->only.back() == '.' && c.id.rfind(opt->only, 0) == 0))
        selected.push_back(&c);
    if (selected.empty()) throw bad_input("--only: no claim matches '" + opt->only + "'");
    if (opt->list) {
      for (const claim* c : selected)
        std::cout << std::left << std::setw(30) << c->id << " " << c->section << ": " << c->statement << "\n";
      code = exit_holds;
      return;
    }
    const bool progress = stderr_is_terminal() && !opt->json;
    const auto start = std::chrono::steady_clock::now();
    nlohmann::json rows = nlohmann::json::array();
    std::size_t holds = 0, violated = 0, unknown = 0;
    if (!opt->json)
      std::cout << std::left << std::setw(31) << "claim" << std::setw(9) << "verdict" << std::setw(21) << "method"
                << std::setw(10) << "time" << "instances / evidence\n";
    for (std::size_t k = 0; k < selected.size(); ++k) {
      const claim& c = *selected[k];
      if (progress) std::cerr << "\r[" << k + 1 << "/" << selected.size() << "] " << c.id << "..." << std::flush;
      const auto t0 = std::chrono::steady_clock::now();
      claim_result r;
      try {
        r = c.check();
      } catch (const std::exception& e) {
        r = {verdict::unknown, "", std::string("the check threw: ") + e.what(), ""};
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (progress) std::cerr << "\r\033[K" << std::flush;
      (r.outcome == verdict::holds ? holds : r.outcome == verdict::violated ? violated : unknown)++;
      if (opt->json) {
        rows.push_back({{"id", c.id}, {"paper", c.paper}, {"section", c.section}, {"statement", c.statement},
                        {"method", to_string(c.method)}, {"verdict", to_string(r.outcome)}, {"covered", r.covered},
                        {"evidence", r.evidence}, {"certificate", r.certificate}, {"seconds", seconds}});
      } else {
        std::ostringstream time;
        time << std::fixed << std::setprecision(2) << seconds << "s";
        std::cout << std::left << std::setw(31) << c.id << std::setw(9) << to_string(r.outcome) << std::setw(21)
                  << to_string(c.method) << std::setw(10) << time.str() << r.covered << ": " << r.evidence << "\n"
                  << std::string(31, ' ') << c.section << ": " << c.statement << "\n";
        if (!r.certificate.empty()) std::cout << std::string(31, ' ') << "certificate: " << r.certificate << "\n";
      }
    }
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (opt->json) {
      std::cout << nlohmann::json{{"format", "dancecard.theorem-book/1"}, {"rows", rows}, {"holds", holds},
                                  {"violated", violated}, {"unknown", unknown}, {"seconds", total}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << "\n" << selected.size() << " claims: " << holds << " hold, " << violated << " violated, " << unknown
                << " unknown (" << std::fixed << std::setprecision(1) << total << " s)\n";
    }
    code = violated > 0 ? exit_violated : unknown > 0 ? exit_unknown : exit_holds;
  });
}

}  // namespace cli
}  // namespace dancecard
