// Runs an external command (through /bin/sh) with a time limit and captures what it prints.
#pragma once

#include <string>

namespace dancecard::cli {

struct process_result {
  bool started = false;
  bool timed_out = false;
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // when a signal ended it
  std::string out, err;
  bool out_truncated = false;    // it printed more than max_bytes to stdout: `out` holds only the first of it
  std::string describe() const;  // "exit code 3", "killed by signal 11 (Segmentation fault)", "timed out after 2000 ms"
  bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
};

/// Runs `/bin/sh -c command`; after timeout_ms the whole process group is killed. Output beyond max_bytes per
/// stream is dropped (stdout's: out_truncated, and the caller reports the run as failed).
process_result run_command(const std::string& command, unsigned timeout_ms, std::size_t max_bytes = 512u << 20);

}  // namespace dancecard::cli
