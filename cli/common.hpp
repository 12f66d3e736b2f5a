// Shared CLI conventions: exit codes, bad-input errors, reading FILE or stdin, ranges such as 2..64 or 3,7,10..12.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <optional>

#include "dancecard/checkers/report.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/smt/clausal.hpp"

namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI

namespace dancecard::cli {

using namespace dancecard::dance;
using namespace dancecard::certificates;

/// Exit codes of every command: 0 holds/proven, 1 violated/refuted, 2 bad input or usage, 3 unknown (timeout).
enum exit_code : int { exit_holds = 0, exit_violated = 1, exit_bad_input = 2, exit_unknown = 3 };

inline int exit_for(verdict v) {
  return v == verdict::holds ? exit_holds : v == verdict::violated ? exit_violated : exit_unknown;
}
/// A query's answer as the exit code: sat (a checked witness) 0, unsat (a checked refutation) 1, unknown 3.
inline int exit_for(solver_answer a) {
  return a == solver_answer::sat ? exit_holds : a == solver_answer::unsat ? exit_violated : exit_unknown;
}

/// Bad input or usage; main() prints "dancecard: <what>" and exits 2.
class bad_input : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A stored claim that its own check contradicts (a catalogued table that does not complete in its stated steps, say);
/// main() prints "dancecard: violated: <what>" and exits 1.
class violated_claim : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A resource limit reached before an answer (an input larger than --max-input-mib, say); main() prints
/// "dancecard: unknown: <what>" and exits 3. The same input may be answered with the limit raised.
class resource_limit : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The largest file read whole before it is parsed (JSON, partner matrices, DIMACS, cutting planes), in MiB; the
/// option --max-input-mib of every command sets it. Proofs in DRAT are streamed and not bounded by it.
inline constexpr std::uint64_t default_max_input_mib = 256;
std::uint64_t& max_input_mib();
/// The files read so far and their sizes ("a.cnf (12 MB)"), for the message of a process that runs out of memory.
std::string inputs_read();

/// The whole content of a file, or of stdin for "-". Throws bad_input naming the file when it cannot be read, and
/// resource_limit when it is larger than max_input_mib().
std::string read_input(const std::string& path);
/// The file opened for reading (binary). Throws bad_input naming the file when it is a directory or cannot be opened.
std::ifstream open_input(const std::string& path);

/// How a path is named in messages: "stdin" for "-".
std::string input_name(const std::string& path);

/// Reads FILE (or stdin for "-") and parses it with `parse(text)`; a format_error becomes bad_input naming the
/// file, its place and the problem ("schedule.json: rounds[0][1][0]: rank 7 is out of range for n = 4").
template <class Parse>
auto parse_input(const std::string& path, Parse parse) {
  const std::string text = read_input(path);
  try {
    return parse(text);
  } catch (const format_error& e) {
    throw bad_input(input_name(path) + ": " + e.what());
  }
}

/// Calls write(out) on FILE, or on stdout when path is empty; bad_input when FILE cannot be opened or written.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& write);

/// The values of a LIST of the range grammar (cli/range_grammar.hpp: "N", "A..B", "A..B:S", comma-separated), in the
/// order written, each within [lo, hi]. Throws bad_input naming `option` and the item.
std::vector<std::uint64_t> parse_values(const std::string& text, const std::string& option, std::uint64_t lo,
                                        std::uint64_t hi);

/// SHA-256 of a file's content, hex, for the manifests of --emit.
std::string sha256(std::string_view data);
/// SHA-256 of a file's content, read piece by piece; bad_input naming the file when it cannot be read.
std::string sha256_of_file(const std::string& path);
/// SHA-256 of a proof trace, read piece by piece; each piece is also handed to `also` when given (to write it).
std::string sha256(const drat_trace& proof, const std::function<void(std::string_view)>& also = {});
/// Writes one file of an --emit set into dir and returns its manifest entry (file, bytes, sha256); bad_input when it
/// cannot be written.
nlohmann::json emit_file(const std::filesystem::path& dir, const std::string& name, const std::string& content);
nlohmann::json emit_file(const std::filesystem::path& dir, const std::string& name, const drat_trace& proof);
/// The directory of dancecard's data files (core/data: the torus evidence and its stored proofs): $DANCECARD_DATA_DIR
/// when set, else the source tree's core/data when it exists (a build tree), else the installed share/dancecard.
std::filesystem::path data_directory();
/// The decompressed content of a gzip file (or of a plain file: zlib reads both); bad_input naming the file when it
/// cannot be read, is damaged, or decompresses to more than max_bytes.
std::string read_gzip_file(const std::filesystem::path& file, std::size_t max_bytes);

/// Creates the --emit directory (and its parents); bad_input naming it when that fails.
void create_emit_directory(const std::string& dir);

/// A CLI11 check for an unsigned option: the text must be a decimal integer of at least `lo` (CLI11 itself reads
/// "-3" into a std::uint64_t as 2^64 - 3). The message names the option when CLI11 prints it.
CLI::Validator integer_at_least(std::uint64_t lo);
/// A file the command will write: checked when the options are read, before any work — not a directory, and its
/// directory exists and is writable ("-" is stdout).
CLI::Validator writable_file();

/// Seconds (an integer or decimal like 2.5) to milliseconds; throws bad_input naming `option`.
unsigned parse_timeout_ms(const std::string& text, const std::string& option);

/// The options that mean the same in every command that has them, declared here once (the help says the rest):
///   --timeout SECONDS  wall-clock seconds (exact decimal, positive, at most a day) for each `what`
///   --jobs,-j N        how many `what` run at once, each on a thread of its own (1 to 256); `more` follows
///   --seed N           the first random seed of `what`: the same seed gives the same run
/// `what` also names the default ("solver query (default 60)").
CLI::Option* add_timeout_option(CLI::App* command, std::string& seconds, const std::string& what);
CLI::Option* add_jobs_option(CLI::App* command, unsigned& jobs, const std::string& what, const std::string& more = "");
CLI::Option* add_seed_option(CLI::App* command, std::uint64_t& seed, const std::string& what);
/// The same where no seed means one from the clock.
CLI::Option* add_seed_option(CLI::App* command, std::optional<std::uint64_t>& seed, const std::string& what);

bool stderr_is_terminal();

/// --quiet, an option of every command: no progress lines.
bool& quiet();
/// Whether progress lines are shown: stderr is a terminal and --quiet was not given.
bool progress_enabled();

/// A progress line on stderr for a run that may be long: what is being asked, how far, the seconds so far. Drawn once
/// a second from the first second on (a run shorter than a second shows nothing), only when progress_enabled();
/// update() says how far, clear() takes the line away before output is written (it stays away until the next
/// update(), so that it never lands in the middle of that output), and the destructor takes it away for good.
class progress_line {
 public:
  explicit progress_line(std::string what);
  ~progress_line();
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;
  void update(std::string where);
  void clear();

 private:
  void draw();
  std::string what_, where_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex lock_;
  std::condition_variable wake_;
  bool stop_ = false, drawn_ = false, hidden_ = false;
  std::thread ticker_;
};

// The subcommands; each registers itself on `app` and writes its exit code to `code` when run.
void add_generate_command(CLI::App& app, int& code);
void add_check_command(CLI::App& app, int& code);
void add_prove_command(CLI::App& app, int& code);
void add_verify_command(CLI::App& app, int& code);
void add_check_proof_command(CLI::App& app, int& code);
void add_property_test_command(CLI::App& app, int& code);
/// `instance hrel` and `generate hrel` (needs the generate command registered first).
void add_hrel_commands(CLI::App& app, int& code);
void add_prove_hrel_command(CLI::App& app, int& code);
void add_online_commands(CLI::App& app, int& code);
void add_torus_commands(CLI::App& app, int& code);
/// `generate collective` (needs the generate command registered first).
void add_collective_commands(CLI::App& app, int& code);
void add_cube_commands(CLI::App& app, int& code);  // cube_commands.cpp

}  // namespace dancecard::cli
