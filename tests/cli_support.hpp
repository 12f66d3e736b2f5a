// What the CLI tests share: running the dancecard executable (DANCECARD_EXE) and reading its data files.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

namespace dancecard::cli_test {

struct run_result {
  int code;
  std::string output;  // stdout and stderr together
};

// Runs a shell command line as written (stdout and stderr together); code -1 when it did not exit normally.
inline run_result run_shell(const std::string& command_line) {
  const std::string command = command_line + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  std::array<char, 4096> buffer{};
  while (std::size_t k = fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), k);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Runs dancecard with these arguments.
inline run_result run(const std::string& args) {
  std::string command = DANCECARD_EXE;
  command.append(" ").append(args);
  return run_shell(command);
}

// Runs the command and expects its exit code and a piece of its output; returns the run for further checks.
inline run_result expect_run(const std::string& args, int code, const std::string& text) {
  run_result r = run(args);
  EXPECT_EQ(r.code, code) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(text), std::string::npos) << args << ": expected '" << text << "' in\n" << r.output;
  return r;
}

inline std::string data(const std::string& name) { return std::string(DANCECARD_TEST_DATA) + "/" + name; }
// A table of the torus catalogue, as a file (core/data/torus/).
inline std::string catalogue_file(const std::string& name) { return std::string(DANCECARD_CATALOGUE_DIR) + "/" + name; }

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// How many times `needle` occurs in `text`.
inline std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace dancecard::cli_test
