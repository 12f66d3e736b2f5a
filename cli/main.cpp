// The dancecard executable: generate, check, prove and verify (the theorem book).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstdint>
#include <ios>
#include <iostream>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "dancecard/formats/dance_io.hpp"

namespace {

// Help names an option's value as a user reads it (N, N in 1..64, N>=1, FILE, X) rather than by CLI11's type names
// (UINT:UINT in [1 - 64], TEXT:FILE, FLOAT). Subcommands take their parent's formatter when they are added.
class help_formatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string text = CLI::Formatter::make_option_opts(opt);
    static const std::array<std::pair<std::regex, const char*>, 5> words{{
        {std::regex(R"(\bUINT(:UINT)? in \[(\d+) - (\d+)\])"), "N in $2..$3"},
        {std::regex(R"(\bUINT(:UINT)?>=(\d+))"), "N>=$2"},
        {std::regex(R"(\bU?INT(:U?INT)?\b)"), "N"},
        {std::regex(R"(\bTEXT:FILE\b)"), "FILE"},
        {std::regex(R"(\bFLOAT\b)"), "X"},
    }};
    for (const auto& [pattern, word] : words) text = std::regex_replace(text, pattern, word);
    return text;
  }
};

// Levenshtein distance, for naming the command closest to a mistyped one.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// Walks the words of the command line down the tree of commands; a word where a command must come (the command has
// subcommands and no positional arguments) that names none is reported with the closest command, instead of CLI11's
// "A subcommand is required". Options are skipped with their values, looked up in the command or its parents.
std::optional<std::string> unknown_command(CLI::App& app, int argc, char** argv) {
  CLI::App* at = &app;
  std::vector<CLI::App*> path{&app};
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.size() > 1 && word[0] == '-') {
      if (word.find('=') != std::string::npos) continue;
      for (auto it = path.rbegin(); it != path.rend(); ++it)
        if (const CLI::Option* opt = (*it)->get_option_no_throw(word)) {
          if (opt->get_expected_max() > 0 && opt->get_type_size_max() > 0) ++i;  // its value (a flag expects none)
          break;
        }
      continue;
    }
    const std::vector<CLI::App*> commands = at->get_subcommands([](CLI::App*) { return true; });
    const bool takes_positionals = !at->get_options([](const CLI::Option* o) { return !o->nonpositional(); }).empty();
    if (commands.empty() || takes_positionals) return std::nullopt;
    const auto named = std::find_if(commands.begin(), commands.end(), [&](CLI::App* c) { return c->check_name(word); });
    if (named != commands.end()) {
      at = *named;
      path.push_back(at);
      continue;
    }
    std::string closest, names;
    std::size_t best = SIZE_MAX;
    for (CLI::App* c : commands) {
      names += (names.empty() ? "" : ", ") + c->get_name();
      if (const std::size_t d = edit_distance(word, c->get_name()); d < best) best = d, closest = c->get_name();
    }
    std::string where;
    for (std::size_t k = 1; k < path.size(); ++k) where += path[k]->get_name() + " ";
    return where + "'" + word.substr(0, 40) + "': no such command" +
           (best <= std::max<std::size_t>(2, closest.size() / 3) ? "; did you mean '" + where + closest + "'?" : "") +
           " (commands: " + names + ")";
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dancecard::cli;
  CLI::App app{"dancecard: communication schedules for collective operations, their checkers and SMT proofs"};
  app.formatter(std::make_shared<help_formatter>());
  app.require_subcommand(1);
  app.set_version_flag("--version", "dancecard 0.1.0");
  // Options of every command, given before or after the command's name.
  app.fallthrough();
  app.add_option("--max-input-mib", max_input_mib(),
                 "Largest file read whole (JSON, partner matrix, DIMACS, cutting planes), in MiB; a larger one is "
                 "unknown (exit 3). DRAT proofs are streamed and not bounded")
      ->default_val(default_max_input_mib)
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  app.add_flag("--quiet,-q", quiet(), "no progress lines on stderr (they are shown only on a terminal anyway)");
  int code = exit_holds;
  add_generate_command(app, code);
  add_check_command(app, code);
  add_prove_command(app, code);
  add_verify_command(app, code);
  add_check_proof_command(app, code);
  add_property_test_command(app, code);
  add_hrel_commands(app, code);
  add_prove_hrel_command(app, code);
  add_online_commands(app, code);
  add_torus_commands(app, code);
  add_collective_commands(app, code);
  add_cube_commands(app, code);
  if (const std::optional<std::string> unknown = unknown_command(app, argc, argv)) {
    std::cerr << "dancecard: " << *unknown << "\n";
    return exit_bad_input;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the message and usage
    return exit_bad_input;
  } catch (const bad_input& e) {
    std::cerr << "dancecard: " << e.what() << "\n";
    return exit_bad_input;
  } catch (const resource_limit& e) {
    std::cerr << "dancecard: unknown: " << e.what() << "\n";
    return exit_unknown;
  } catch (const violated_claim& e) {
    std::cerr << "dancecard: violated: " << e.what() << "\n";
    return exit_violated;
  } catch (const dancecard::format_error& e) {
    std::cerr << "dancecard: " << e.what() << "\n";
    return exit_bad_input;
  } catch (const std::invalid_argument& e) {  // a library precondition the command did not check itself: bad input
    std::cerr << "dancecard: " << e.what() << "\n";
    return exit_bad_input;
  } catch (
      const std::overflow_error& e) {  // exact arithmetic (rational) that left 64 bits: numbers too large in the input
    std::cerr << "dancecard: exact arithmetic overflow: " << e.what()
              << " (the input's numbers are beyond 64-bit rationals)\n";
    return exit_bad_input;
  } catch (const std::ios_base::failure& e) {  // a read that failed below a stream (a file vanished, an I/O error)
    std::cerr << "dancecard: input/output error: " << e.what() << "\n";
    return exit_bad_input;
  } catch (const std::bad_alloc&) {  // a resource limit, not bad input: the same input may succeed with more memory
    const std::string inputs = inputs_read();
    std::cerr << "dancecard: unknown: ran out of memory" << (inputs.empty() ? "" : " on " + inputs)
              << " (a resource limit: the input may be valid; give the process more memory, or a smaller input)\n";
    return exit_unknown;
  }
  return code;
}
