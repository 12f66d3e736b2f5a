// `dancecard check-proof FILE.cp` — checks a certificate without any solver: exit 0 accepted, 1 rejected,
// 2 malformed (or unreadable).
#include <CLI/CLI.hpp>
#include <iostream>

#include "common.hpp"
#include "dancecard/checkers/cutting_planes_check.hpp"

namespace dancecard::cli {

void add_check_proof_command(CLI::App& app, int& code) {
  CLI::App* command = app.add_subcommand("check-proof", "Check a proof certificate (cutting planes: FILE.cp)");
  auto files = std::make_shared<std::vector<std::string>>();
  command->add_option("files", *files, "FILE.cp")->required()->expected(1, 1);
  command->callback([files, &code] {
    const std::string& path = files->front();
    const cutting_planes_report r = check_cutting_planes(read_input(path));
    if (r.malformed) throw bad_input(path + ": line " + std::to_string(r.line) + ": " + r.problem);
    std::cout << path << ": " << describe(r) << "\n";
    code = r.outcome == verdict::holds ? exit_holds : exit_violated;
  });
}

}  // namespace dancecard::cli
