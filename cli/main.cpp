// The dancecard executable: generate, check, prove and verify (the theorem book).
#include <CLI/CLI.hpp>
#include <ios>
#include <iostream>
#include <stdexcept>

#include "common.hpp"
#include "dancecard/formats/dance_io.hpp"

int main(int argc, char** argv) {
  using namespace dancecard::cli;
  CLI::App app{"dancecard: communication schedules for collective operations, their checkers and SMT proofs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "dancecard 0.1.0");
  // Options of every command, given before or after the command's name.
  app.fallthrough();
  app.add_option("--max-input-mib", max_input_mib(),
                 "Largest file read whole (JSON, partner matrix, DIMACS, cutting planes), in MiB; a larger one is "
                 "unknown (exit 3). DRAT proofs are streamed and not bounded")
      ->default_val(default_max_input_mib)
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
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
  } catch (const std::overflow_error& e) {  // exact arithmetic (rational) that left 64 bits: numbers too large in the input
    std::cerr << "dancecard: exact arithmetic overflow: " << e.what() << " (the input's numbers are beyond 64-bit rationals)\n";
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
