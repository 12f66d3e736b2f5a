// `dancecard check-proof FILE.cp | FILE.cnf FILE.drat[.gz]` — checks a certificate without any solver: exit 0 accepted,
// 1 rejected, 2 malformed (or unreadable). A proof whose name ends in .gz is decompressed as it is read (the stored
// proofs of the torus catalogue, core/data/torus_proofs/).
#include <zlib.h>
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/drat_check.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;
using namespace dancecard::certificates;

void add_check_proof_command(CLI::App& app, int& code) {
  CLI::App* command = app.add_subcommand(
      "check-proof", "Check a certificate without any solver: FILE.cp (cutting planes) or FILE.cnf FILE.drat");
  auto files = std::make_shared<std::vector<std::string>>();
  command->add_option("files", *files, "FILE.cp, or FILE.cnf FILE.drat (FILE.drat.gz: gzip)")
      ->required()
      ->expected(1, 2);
  auto options = std::make_shared<drat_options>();
  auto json = std::make_shared<bool>(false);
  command->add_flag("--json", *json, "print the report as JSON (dancecard.certificate-check/1)");
  command->add_flag("--ignore-unit-deletions", options->ignore_unit_deletions,
                    "DRAT: ignore deletions of clauses that are reasons of top-level units when deleted, as drat-trim "
                    "does (Glucose's proofs need it; sound: every step is checked against more clauses)");
  command->callback([files, options, json, &code] {
    if (files->size() == 1 && options->ignore_unit_deletions)
      throw bad_input("check-proof: --ignore-unit-deletions is for DRAT proofs (FILE.cnf FILE.drat), not for " +
                      files->front());
    if (files->size() == 2) {
      if ((*files)[0] == "-" && (*files)[1] == "-")
        throw bad_input("check-proof - -: the formula and the proof cannot both come from stdin (give one as a file)");
      // The proof is streamed (it may be gigabytes, text or binary DRAT); the formula is read whole.
      const std::string cnf = read_input((*files)[0]);
      const std::string& proof_path = (*files)[1];
      drat_report r;
      if (proof_path.size() > 3 && proof_path.ends_with(".gz")) {
        std::ifstream probe = open_input(proof_path);  // names a missing file or a directory as every reader does
        std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(proof_path.c_str(), "rb"), gzclose);
        if (!in) throw bad_input(proof_path + ": cannot open");
        r = check_drat(cnf, drat_source([&](char* buffer, std::size_t capacity) -> std::size_t {
                         const int got =
                             gzread(in.get(), buffer, static_cast<unsigned>(std::min<std::size_t>(capacity, 1u << 30)));
                         if (got < 0) {
                           int error = 0;
                           throw bad_input(proof_path + ": damaged gzip data (" + gzerror(in.get(), &error) + ")");
                         }
                         return static_cast<std::size_t>(got);
                       }),
                       *options);
      } else {
        std::ifstream proof_file;
        if (proof_path != "-") proof_file = open_input(proof_path);
        r = check_drat(cnf, proof_path == "-" ? std::cin : proof_file, *options);
      }
      if (r.malformed)
        throw bad_input((r.problem.rfind("CNF", 0) == 0 ? (*files)[0] : (*files)[1]) + ": " +
                        (r.line > 0 ? (r.line_is_item() ? "item " : "line ") + std::to_string(r.line) + ": " : "") +
                        r.problem);
      if (*json)
        std::cout << nlohmann::json{{"format", "dancecard.certificate-check/1"},
                                    {"kind", r.binary_proof ? "drat-binary" : "drat"},
                                    {"formula", (*files)[0]},
                                    {"proof", (*files)[1]},
                                    {"verdict", r.outcome == verdict::holds ? "accepted" : "rejected"},
                                    {"variables", r.variables},
                                    {"original_clauses", r.original_clauses},
                                    {"lemmas", r.lemmas},
                                    {"deletions", r.deletions},
                                    {"checked_lemmas", r.checked_lemmas},
                                    {"rat_lemmas", r.rat_lemmas},
                                    {"core_clauses", r.core_clauses},
                                    {"ignored_deletions", r.ignored_deletions},
                                    {r.line_is_item() ? "item" : "line", r.line},
                                    {"problem", r.problem}}
                         .dump(2)
                  << "\n";
      else
        std::cout << (*files)[1] << ": " << describe(r) << "\n";
      code = r.outcome == verdict::holds ? exit_holds : exit_violated;
      return;
    }
    const std::string& path = files->front();
    const cutting_planes_report r = check_cutting_planes(read_input(path));
    if (r.malformed) throw bad_input(path + ": line " + std::to_string(r.line) + ": " + r.problem);
    if (*json)
      std::cout << nlohmann::json{{"format", "dancecard.certificate-check/1"},
                                  {"kind", "cutting-planes"},
                                  {"certificate", path},
                                  {"verdict", r.outcome == verdict::holds ? "accepted" : "rejected"},
                                  {"instance", r.instance},
                                  {"steps", r.steps},
                                  {"largest_constraint", r.largest_constraint},
                                  {"line", r.line},
                                  {"problem", r.problem}}
                       .dump(2)
                << "\n";
    else
      std::cout << path << ": " << describe(r) << "\n";
    code = r.outcome == verdict::holds ? exit_holds : exit_violated;
  });
}

}  // namespace dancecard::cli
