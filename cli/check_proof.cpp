// `dancecard check-proof FILE.cp | FILE.cnf FILE.drat` — checks a certificate without any solver: exit 0 accepted, 1 rejected,
// 2 malformed (or unreadable).
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#include "common.hpp"
#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/drat_check.hpp"

namespace dancecard::cli {

void add_check_proof_command(CLI::App& app, int& code) {
  CLI::App* command = app.add_subcommand(
      "check-proof", "Check a certificate without any solver: FILE.cp (cutting planes) or FILE.cnf FILE.drat");
  auto files = std::make_shared<std::vector<std::string>>();
  command->add_option("files", *files, "FILE.cp, or FILE.cnf FILE.drat")->required()->expected(1, 2);
  command->callback([files, &code] {
    if (files->size() == 2) {
      // The proof is streamed (it may be gigabytes, text or binary DRAT); the formula is read whole.
      const std::string cnf = read_input((*files)[0]);
      const std::string& proof_path = (*files)[1];
      std::ifstream proof_file;
      if (proof_path != "-") proof_file = open_input(proof_path);
      const drat_report r = check_drat(cnf, proof_path == "-" ? std::cin : proof_file);
      if (r.malformed)
        throw bad_input((r.problem.rfind("CNF", 0) == 0 ? (*files)[0] : (*files)[1]) + ": " +
                        (r.line > 0 ? (r.line_is_item() ? "item " : "line ") + std::to_string(r.line) + ": " : "") +
                        r.problem);
      std::cout << (*files)[1] << ": " << describe(r) << "\n";
      code = r.outcome == verdict::holds ? exit_holds : exit_violated;
      return;
    }
    const std::string& path = files->front();
    const cutting_planes_report r = check_cutting_planes(read_input(path));
    if (r.malformed) throw bad_input(path + ": line " + std::to_string(r.line) + ": " + r.problem);
    std::cout << path << ": " << describe(r) << "\n";
    code = r.outcome == verdict::holds ? exit_holds : exit_violated;
  });
}

}  // namespace dancecard::cli
