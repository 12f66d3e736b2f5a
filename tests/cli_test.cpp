// The dancecard executable end to end: exit codes 0/1/2/3 and messages that name the problem and its place.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

namespace {

struct run_result {
  int code;
  std::string output;  // stdout and stderr together
};

run_result run(const std::string& args) {
  const std::string command = std::string(DANCECARD_EXE) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  std::array<char, 4096> buffer{};
  while (std::size_t k = fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), k);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Runs the command and expects its exit code and a piece of its output; returns the run for further checks.
run_result expect_run(const std::string& args, int code, const std::string& text) {
  run_result r = run(args);
  EXPECT_EQ(r.code, code) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(text), std::string::npos) << args << ": expected '" << text << "' in\n" << r.output;
  return r;
}

std::string data(const std::string& name) { return std::string(DANCECARD_TEST_DATA) + "/" + name; }
// A table of the torus catalogue, as a file (core/data/torus/).
std::string catalogue_file(const std::string& name) { return std::string(DANCECARD_CATALOGUE_DIR) + "/" + name; }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// How many times `needle` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(cli_check, valid_schedule_exits_0) {
  const auto r = run("check dance " + data("k4.json"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("holds"), std::string::npos);
}

TEST(cli_check, valid_matrix_exits_0_and_allgather_completes) {
  const auto r = run("check dance --allgather " + data("k4_matrix.txt"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("allgather holds: 6 steps, 12 messages"), std::string::npos) << r.output;
}

TEST(cli_check, violated_schedule_exits_1_with_witnesses) {
  const auto r = run("check dance " + data("k4_broken.json"));
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("person_booked_twice: person 1 dances with both 0 and 2 in round 2"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("pair_meets_twice: pair {0, 1}"), std::string::npos) << r.output;
}

TEST(cli_check, asymmetric_matrix_exits_1_naming_the_entry) {
  const auto r = run("check dance --json " + data("asymmetric_matrix.txt"));
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("asymmetric_entry"), std::string::npos) << r.output;
}

struct malformed_case {
  const char* file;
  const char* message;
};

class cli_malformed : public testing::TestWithParam<malformed_case> {};

TEST_P(cli_malformed, exits_2_naming_the_problem_and_place) {
  const auto r = run("check dance " + data(GetParam().file));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find(GetParam().file), std::string::npos) << "message names the file: " << r.output;
  EXPECT_NE(r.output.find(GetParam().message), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    files, cli_malformed,
    testing::Values(malformed_case{"truncated.json", "line 2, column"},
                    malformed_case{"wrong_type_n.json", "n: expected the number of people (an integer), got a string"},
                    malformed_case{"wrong_type_rank.json", "rounds[1][1][1]: expected a rank (an integer), got a boolean"},
                    malformed_case{"out_of_range.json", "rounds[0][1][1]: rank 9 is out of range for n = 4"},
                    malformed_case{"n_zero.json", "n: must be a positive integer, got 0"},
                    malformed_case{"n_negative.json", "n: must be a positive integer, got -2"},
                    malformed_case{"ragged_matrix.txt", "line 2: row has 2 entries, but the first row (line 1) has 3"},
                    malformed_case{"matrix_out_of_range.txt", "line 4, entry 3: person 7 is out of range for n = 4"}),
    [](const testing::TestParamInfo<malformed_case>& info) {
      std::string name = info.param.file;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

TEST(cli_check, missing_file_exits_2) {
  const auto r = run("check dance /nonexistent/schedule.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("/nonexistent/schedule.json: cannot open file"), std::string::npos) << r.output;
}

// A directory given as a file: libstdc++'s stream buffer throws on the failed read(2), which once ended the program
// through std::terminate; every reader now names the path.
TEST(cli_check, a_directory_as_input_exits_2) {
  const std::string dir = std::string(DANCECARD_TEST_DATA);
  for (const std::string& command : {"check dance " + dir, "simulate torus " + dir, "check-proof " + dir,
                                     "check-proof " + catalogue_file("torus_3x9_general_8_steps.json") + " " + dir}) {
    const auto r = run(command);
    EXPECT_EQ(r.code, 2) << command << "\n" << r.output;
    EXPECT_NE(r.output.find(dir + ": is a directory, not a file"), std::string::npos) << command << "\n" << r.output;
  }
}

TEST(cli_generate, out_of_range_n_and_unknown_algorithm_exit_2) {
  auto r = run("generate dance --algo factorization --n 0");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("--n: 0 is out of range; expected 1..20000"), std::string::npos) << r.output;
  r = run("generate dance --algo quick --n 5");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("--algo: unknown algorithm 'quick'"), std::string::npos) << r.output;
  r = run("generate dance --algo factorization --n abc");
  EXPECT_EQ(r.code, 2);
  r = run("generate dance --algo factorization --n 5 --format yaml");
  EXPECT_EQ(r.code, 2);
}

TEST(cli_generate, output_checks_for_every_algorithm_and_format) {
  for (const char* algo : {"sequential", "searching", "divide", "factorization"})
    for (const char* format : {"json", "matrix"}) {
      const auto r = run(std::string("generate dance --algo ") + algo + " --n 9 --format " + format + " | " +
                         DANCECARD_EXE + " check dance -");
      EXPECT_EQ(r.code, 0) << algo << " " << format << ": " << r.output;
    }
}

TEST(cli_generate, json_matches_the_documented_example_for_n_4) {
  const auto r = run("generate dance --algo searching --n 4");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.output.find("\"format\": \"dancecard.dance/1\", \"n\": 4"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[[0, 1], [2, 3]]"), std::string::npos) << r.output;
}

TEST(cli_prove, proves_small_range_and_rejects_bad_ranges) {
  auto r = run("prove dance --n 2..9 --timeout 60");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("n = 9: T(n) = 9 proven"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("8 instances: all proven"), std::string::npos) << r.output;
  r = run("prove dance --n 9..2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("--n: empty range 9..2"), std::string::npos) << r.output;
  r = run("prove dance --n 1");
  EXPECT_EQ(r.code, 2);
  r = run("prove dance --n 5 --timeout -1");
  EXPECT_EQ(r.code, 2);
}

TEST(cli_prove, json_output_has_both_sides) {
  const auto r = run("prove dance --n 5 --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"status\": \"proven\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"below_optimum\""), std::string::npos) << r.output;
}

TEST(cli_prove, timeout_gives_exit_3_unknown) {
  // Two triangles at granularity 1/10 with forwarding: 20..23 slots are refuted at once, but the solver does not
  // find the 24-slot witness within minutes (docs/performance.md) — with a 1 s budget the answer must be unknown.
  const std::string two = testing::TempDir() + "two-triangles-timeout.json";
  ASSERT_EQ(run("instance hrel --family triangles --k 2 --h 2 -o " + two).code, 0);
  const auto r = run("prove hrel " + two + " --forwarding -k 10 --timeout 1");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("unknown at 24 slots"), std::string::npos) << r.output;
}

TEST(cli_prove, a_tiny_dance_timeout_is_never_a_wrong_verdict) {
  // With 1 ms per query Z3 may still return a quick witness before its timer fires (it did on a clean CI run), and
  // the lower bound is then carried by the checked cutting-planes certificate: proven (0) or unknown (3), never 1.
  const auto r = run("prove dance --n 40 --timeout 0.001");
  EXPECT_TRUE(r.code == 0 || r.code == 3) << r.output;
  if (r.code == 0) EXPECT_NE(r.output.find("checked"), std::string::npos) << r.output;
  else EXPECT_NE(r.output.find("unknown"), std::string::npos) << r.output;
}

TEST(cli_prove, emit_writes_queries_witness_certificate_and_manifest_that_check) {
  const std::string dir = testing::TempDir() + "dancecard-emit";
  auto r = run("prove dance --n 5 --emit " + dir);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("cutting planes: 812 bytes, 9 steps, checked"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("lemmas, CaDiCaL"), std::string::npos) << r.output;
  for (const char* file : {"dance-n5-witness.smt2", "dance-n5-lower.smt2", "dance-n5-witness.json", "dance-n5-lower.cp",
                           "dance-n5-lower.cnf", "dance-n5-lower.drat", "dance-n5.manifest.json"}) {
    FILE* f = std::fopen((dir + "/" + file).c_str(), "r");
    EXPECT_NE(f, nullptr) << file;
    if (f) std::fclose(f);
  }
  r = run("check-proof " + dir + "/dance-n5-lower.cp");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("accepted: dance n=5 rounds=4 is infeasible"), std::string::npos) << r.output;
  r = run("check dance " + dir + "/dance-n5-witness.json");
  EXPECT_EQ(r.code, 0) << r.output;
  r = run("check-proof " + dir + "/dance-n5-lower.cnf " + dir + "/dance-n5-lower.drat");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("accepted: unsatisfiable"), std::string::npos) << r.output;
  // The proof does not refute a different formula: the 5-round CNF is satisfiable.
  const std::string sat_cnf = dir + "/five-rounds.cnf";
  FILE* f = std::fopen(sat_cnf.c_str(), "w");
  std::fputs("p cnf 1 1\n1 0\n", f);
  std::fclose(f);
  r = run("check-proof " + sat_cnf + " " + dir + "/dance-n5-lower.drat");
  EXPECT_EQ(r.code, 1) << r.output;
}

TEST(cli_check_proof, rejected_and_malformed_certificates) {
  const std::string dir = testing::TempDir();
  auto write = [&](const std::string& name, const std::string& text) {
    FILE* f = std::fopen((dir + name).c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
    return dir + name;
  };
  const std::string weak = write("weak.cp",
                                 "dancecard.cp/1\ninstance dance n=3 rounds=3\n"
                                 "c 1 sum 1 pair:0:1 1 pair:0:2 1 pair:1:2\ncontradiction #1\n");
  auto r = run("check-proof " + weak);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("rejected at line 4"), std::string::npos) << r.output;
  r = run("check-proof " + write("junk.cp", "not a certificate\n"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("junk.cp: line 1"), std::string::npos) << r.output;
  EXPECT_EQ(run("check-proof /nonexistent.cp").code, 2);
}

TEST(cli_check_proof, reads_binary_drat_from_a_file_and_from_stdin) {
  // (a ∨ b), (a ∨ ¬b), (¬a ∨ ±c ∨ ±d): refuted by the lemmas (a), (c) and the empty clause — here in binary DRAT,
  // each item 'a', the literals as 2|l| + (l < 0), a 0 byte.
  const std::string dir = testing::TempDir();
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir + name, std::ios::binary) << bytes;
    return dir + name;
  };
  const std::string cnf = write("abcd.cnf", "p cnf 4 6\n1 2 0\n1 -2 0\n-1 3 4 0\n-1 3 -4 0\n-1 -3 4 0\n-1 -3 -4 0\n");
  const std::string proof = write("abcd.drat", std::string("a\x02\x00" "a\x06\x00" "a\x00", 8));
  expect_run("check-proof " + cnf + " " + proof, 0, "binary proof of 3 lemmas");
  expect_run("check-proof " + cnf + " - < " + proof, 0, "accepted: unsatisfiable");
  // (¬a) first: not RUP, not RAT — rejected, at item 1
  expect_run("check-proof " + cnf + " " + write("flipped.drat", std::string("a\x03\x00" "a\x06\x00" "a\x00", 8)), 1,
             "rejected at proof item 1");
  // an item that never ends: malformed, exit 2, with the file and the item
  expect_run("check-proof " + cnf + " " + write("cut.drat", std::string("a\x02\x00" "a\x06", 5)), 2, "cut.drat: item 2");
}

TEST(cli, check_proof_ignore_unit_deletions_accepts_what_drat_trim_accepts) {
  // (1), (¬1 ∨ 2), (¬2 ∨ 3), (¬2 ∨ ¬3); the proof deletes the reason of the unit 2, then relies on it (as Glucose does).
  const std::string dir = testing::TempDir();
  const std::string cnf = dir + "units.cnf", proof = dir + "units.drat";
  std::ofstream(cnf) << "p cnf 3 4\n1 0\n-1 2 0\n-2 3 0\n-2 -3 0\n";
  std::ofstream(proof) << "d -1 2 0\n3 0\n0\n";
  expect_run("check-proof " + cnf + " " + proof, 1, "--ignore-unit-deletions");
  expect_run("check-proof --ignore-unit-deletions " + cnf + " " + proof, 0, "1 deletions of top-level reasons ignored");
  expect_run("check-proof --ignore-unit-deletions " + cnf, 2, "is for DRAT proofs");
}

struct broken_case {
  const char* bug;
  const char* expected;  // in the report
};

class cli_property_test : public testing::TestWithParam<broken_case> {};

TEST_P(cli_property_test, finds_the_smallest_failing_n) {
  const std::string save = testing::TempDir() + "failures-" + GetParam().bug;
  const std::string junit = testing::TempDir() + std::string("junit-") + GetParam().bug + ".xml";
  const auto r = run(std::string("property-test dance --cmd '") + BROKEN_SCHEDULER + " " + GetParam().bug +
                     " {n}' --n-max 40 --runs 60 --seed 7 --timeout 2 --save-dir " + save + " --junit " + junit);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find(GetParam().expected), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("seed 7"), std::string::npos) << r.output;
  FILE* f = std::fopen(junit.c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string xml(1 << 16, '\0');
  xml.resize(std::fread(xml.data(), 1, xml.size(), f));
  std::fclose(f);
  EXPECT_NE(xml.find("<failure"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<property name=\"seed\" value=\"7\"/>"), std::string::npos) << xml;
}

INSTANTIATE_TEST_SUITE_P(
    schedulers, cli_property_test,
    testing::Values(broken_case{"off-by-one-round", "smallest failing n = 2 "},
                    broken_case{"wrong-partner-odd", "smallest failing n = 7 "},
                    broken_case{"repeat-at-2k+1", "smallest failing n = 3 "},
                    broken_case{"crash-at-13", "smallest failing n = 13 "},
                    broken_case{"garbage-at-4", "garbage: the output is not a schedule"},
                    broken_case{"hang-at-6", "timeout"}),
    [](const testing::TestParamInfo<broken_case>& info) {
      std::string name = info.param.bug;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

TEST(cli_property_test, a_correct_scheduler_passes_in_both_models) {
  auto r = run(std::string("property-test dance --cmd '") + BROKEN_SCHEDULER + " none {n}' --n-max 30 --runs 40 --seed 3");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("passed:"), std::string::npos) << r.output;
  r = run(std::string("property-test dance --model directed --cmd '") + DANCECARD_EXE +
          " generate directed --algo openmpi --n {n}' --n-max 30 --runs 40 --seed 3 --max-gap 0");
  EXPECT_EQ(r.code, 0) << r.output;
}

TEST(cli_property_test, dancecards_own_generators_pass) {
  for (const char* algo : {"sequential", "searching", "divide", "factorization"}) {
    const auto r = run(std::string("property-test dance --cmd '") + DANCECARD_EXE + " generate dance --algo " + algo +
                       " --n {n}' --n-max 40 --runs 50 --seed 11");
    EXPECT_EQ(r.code, 0) << algo << ": " << r.output;
  }
  const auto r = run(std::string("property-test dance --cmd '") + DANCECARD_EXE +
                     " generate dance --algo factorization --format matrix --n {n}' --n-max 30 --runs 30 --seed 2 --max-gap 0");
  EXPECT_EQ(r.code, 0) << r.output;
}

TEST(cli_property_test, torus_routers) {
  const std::string exe = DANCECARD_EXE;
  // Section 3.1's rules: every even torus, two packets per PU in P/2 steps — the counting bound itself (gap 0).
  auto r = run("property-test torus --cmd '" + exe + " generate torus --dims {dims} --algo hamiltonian' --even --runs 25 --seed 5 --max-gap 0");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("passed: 25 distinct tori"), std::string::npos) << r.output;
  // Without --even the same router refuses 2 x 3 (exit 2): the smallest failing torus, its stderr saved.
  const std::string save = testing::TempDir() + "torus-failures";
  const std::string junit = testing::TempDir() + "torus-junit.xml";
  r = run("property-test torus --cmd '" + exe + " generate torus --dims {dims} --algo hamiltonian' --runs 20 --seed 5 --save-dir " + save +
          " --junit " + junit);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("smallest failing torus 2x3 "), std::string::npos) << r.output;
  EXPECT_NE(read_file(save + "/dims2x3.err").find("--dims 2x3 --algo hamiltonian"), std::string::npos);
  EXPECT_NE(read_file(junit).find("name=\"dims=2x3\""), std::string::npos) << read_file(junit);
  // A table that never completes is named with a PU and a packet; the smallest such torus is found by shrinking.
  r = run(std::string("property-test torus --cmd '") + BROKEN_SCHEDULER + " torus-rings {dims}' --size-min 3 --runs 10 --seed 1");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("smallest failing torus 3x3 "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("never"), std::string::npos) << r.output;
  r = run(std::string("property-test torus --d 3 --cmd '") + BROKEN_SCHEDULER + " torus-wrong-size {dims}' --runs 5 --seed 1");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("wrong-size: asked for the 2x2x2 torus, got 3x2x2"), std::string::npos) << r.output;
  // The zigzag cycles (one packet per PU) are far from the counting bound: caught with --max-gap.
  r = run("property-test torus --cmd '" + exe + " generate torus --dims {dims} --algo one-packet' --even --size-min 4 --runs 6 --seed 2 --max-gap 1");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("too-many-steps"), std::string::npos) << r.output;
  EXPECT_EQ(run("property-test torus --cmd 'true'").code, 2);  // no {dims}
  EXPECT_EQ(run("property-test torus --cmd 'echo {dims}' --d 4").code, 2);
  EXPECT_EQ(run("property-test torus --cmd 'echo {dims}' --size-min 9 --size-max 3").code, 2);
}

// The rerun line quotes a command that holds quotes so that the shell reads it back as it was (it put the
// command between bare single quotes), and the line, run again, fails the same way.
TEST(cli_property_test, the_rerun_line_reproduces_a_command_with_quotes) {
  auto r = run("property-test dance --cmd \"sh -c 'exit 3' {n}\" --runs 1 --n-max 4 --seed 1 --save-dir " + testing::TempDir() + "/rerun");
  EXPECT_EQ(r.code, 1) << r.output;
  const std::string quoted = "--cmd 'sh -c '\\''exit 3'\\'' {n}'";
  const std::size_t at = r.output.find("rerun: dancecard property-test dance " + quoted);
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::size_t from = at + std::string("rerun: dancecard ").size();  // the rerun's arguments
  const std::string again = r.output.substr(from, r.output.find('\n', from) - from);
  const run_result rerun = run(again + " --save-dir " + testing::TempDir() + "/rerun");
  EXPECT_EQ(rerun.code, 1) << again << "\n" << rerun.output;
  EXPECT_NE(rerun.output.find("exit code 3"), std::string::npos) << rerun.output;
}

// A program that prints more than dancecard keeps (--max-output, 512 MiB by default) and exits 0 is a failed run of
// its own kind, not a schedule cut short and then called garbage; the rerun line repeats the options that decide the
// verdict.
TEST(cli_property_test, output_beyond_the_cap_is_too_much_output) {
  const auto r = run("property-test dance --cmd 'head -c 3000000 /dev/zero; echo {n}' --runs 1 --n-max 3 --seed 1 --max-output 2 --save-dir " +
                     testing::TempDir() + "/cap");
  EXPECT_EQ(r.code, 1) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("too-much-output: the program printed more than 2 MiB (--max-output)"), std::string::npos) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("--runs 1 --max-output 2\n"), std::string::npos) << r.output.substr(0, 2000);
  // a schedule one round over T(n) with --max-gap 0: the rerun line keeps --max-gap, so it fails again
  const auto gap = run(std::string("property-test dance --cmd '") + DANCECARD_EXE +
                       " generate dance --algo sequential --n {n}' --n-min 6 --n-max 6 --runs 1 --seed 1 --max-gap 0 --timeout 20 --save-dir " +
                       testing::TempDir() + "/gap");
  EXPECT_EQ(gap.code, 1) << gap.output;
  EXPECT_NE(gap.output.find("--runs 1 --max-gap 0 --timeout '20'\n"), std::string::npos) << gap.output;
}

// A program that prints forever is stopped once it passes --max-output, and reported as too-much-output, not as the
// timeout it would reach if its output were read to the end (the 600-s budget is never near).
TEST(cli_property_test, endless_output_is_too_much_output_not_a_timeout) {
  const auto r = run("property-test dance --cmd 'yes {n}' --runs 1 --n-max 3 --seed 1 --max-output 1 --timeout 600 --save-dir " +
                     testing::TempDir() + "/endless");
  EXPECT_EQ(r.code, 1) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("too-much-output"), std::string::npos) << r.output.substr(0, 2000);
  EXPECT_EQ(r.output.find("timeout:"), std::string::npos) << r.output.substr(0, 2000);
}

TEST(cli_property_test, usage_errors_exit_2) {
  EXPECT_EQ(run("property-test dance --cmd 'true'").code, 2);  // no {n}
  EXPECT_EQ(run("property-test dance --cmd 'echo {n}' --model triangle").code, 2);
  EXPECT_EQ(run("property-test dance --cmd 'echo {n}' --n-min 5 --n-max 2").code, 2);
}

TEST(cli_prove, directed_optimum_with_certificates) {
  const auto r = run("prove directed --n 2..7 --clausal-budget 10");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("n = 7: n-1 = 6 proven"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("DRAT: "), std::string::npos) << r.output;
}

TEST(cli_check, directed_schedules_in_both_models) {
  auto r = run("generate directed --algo openmpi --n 6 | " + std::string(DANCECARD_EXE) + " check directed --half-duplex -");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("full duplex holds"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("half duplex violated"), std::string::npos) << r.output;
  r = run("generate directed --algo mpich --n 16 | " + std::string(DANCECARD_EXE) + " check directed --half-duplex -");
  EXPECT_EQ(r.code, 0) << r.output;
  r = run("generate directed --algo factorization --n 7 | " + std::string(DANCECARD_EXE) + " check directed -");
  EXPECT_EQ(r.code, 0) << r.output;
  r = run("check directed " + data("k4.json"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("format: expected \"dancecard.directed/1\""), std::string::npos) << r.output;
}

TEST(cli_check, hrel_schedules_with_forwarding) {
  auto r = run("check hrel " + data("hrel_one.json") + " " + data("hrel_forwarding.json"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("makespan 3/2"), std::string::npos) << r.output;
  r = run("check hrel --full-duplex " + data("hrel_one.json") + " " + data("hrel_too_early.json"));
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("not_yet_held: transfer 1 of slot 0: PE 2"), std::string::npos) << r.output;
  r = run("check hrel " + data("hrel_one.json") + " " + data("hrel_bad_duration.json"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("slots[0].duration: '1.5' is not an exact number"), std::string::npos) << r.output;
  r = run("check hrel " + data("k4.json") + " " + data("hrel_forwarding.json"));
  EXPECT_EQ(r.code, 2) << r.output;
  // durations of 2^62 sum past 64-bit rationals in slot 1: bad input, not an abort (found by fuzzing)
  const std::string huge = testing::TempDir() + "/hrel_huge_durations.json";
  std::ofstream(huge) << R"({"format": "dancecard.hrel-schedule/1", "P": 3, "slots": [{"duration": 4611686018427387904, "transfers": []},)"
                      << R"({"duration": 4611686018427387904, "transfers": []}]})";
  r = run("check hrel " + data("hrel_one.json") + " " + huge);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("exact arithmetic overflow: slot 1: rational: overflow"), std::string::npos) << r.output;
  r = run("check dance " + data("n_overflow.json"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("line 1, column 38: invalid JSON: number overflow parsing '1e999'"), std::string::npos) << r.output;
}

TEST(cli_hrel, instance_generate_check_round_trip_for_every_family) {
  const std::string dir = testing::TempDir();
  for (const char* family : {"triangles", "triangle-copies", "random", "skewed", "regular"}) {
    const std::string inst = dir + "hrel-" + family + ".json";
    auto r = run(std::string("instance hrel --family ") + family + " --P 20 --k 3 --h 8 --l 2 --extra 3 --seed 5 -o " + inst);
    ASSERT_EQ(r.code, 0) << r.output;
    for (const char* algo : {"direct", "forwarding", "full-duplex", "regular"}) {
      if (std::string(algo) == "regular" && std::string(family) != "regular") continue;
      r = run(std::string("generate hrel --algo ") + algo + " " + inst + " | " + DANCECARD_EXE + " check hrel " +
              (std::string(algo) == "full-duplex" ? "--full-duplex " : "") + inst + " -");
      EXPECT_EQ(r.code, 0) << family << " " << algo << ": " << r.output;
    }
  }
  EXPECT_EQ(run("instance hrel --family circles").code, 2);
  EXPECT_EQ(run("instance hrel --family triangles --h 5").code, 2);
  EXPECT_EQ(run("generate hrel --algo relay " + data("hrel_one.json")).code, 2);
  const auto refused = run("generate hrel --algo regular " + data("hrel_one.json"));
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.output.find("exchange no packets"), std::string::npos) << refused.output;
  EXPECT_EQ(run("instance hrel --family regular --l 0").code, 2);
}

TEST(cli_hrel, prove_small_optima_exactly) {
  const std::string dir = testing::TempDir();
  auto r = run("instance hrel --family triangle-copies --h 4 -o " + dir + "copies.json");
  ASSERT_EQ(r.code, 0) << r.output;
  r = run("prove hrel " + dir + "copies.json --timeout 60");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("proven, optimum 6"), std::string::npos) << r.output;  // 3h/2 without forwarding
  r = run("prove hrel " + data("hrel_one.json") + " --forwarding --granularity 2 --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"optimum\": \"1\""), std::string::npos) << r.output;
  EXPECT_EQ(run("prove hrel " + data("hrel_one.json") + " --granularity 0").code, 2);
  // Two triangles at k = 10 with the forwarding schedule as the witness: 12/5, and the solver is asked nothing.
  const std::string two = dir + "two-triangles.json";
  r = run("instance hrel --family triangles --k 2 --h 2 -o " + two);
  ASSERT_EQ(r.code, 0) << r.output;
  // The step below is refuted by the counting certificate, which --certificate writes and check-proof re-checks.
  r = run("prove hrel " + two + " --forwarding -k 10 --hint forwarding --timeout 60 --certificate " + dir + "two.cp --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"optimum\": \"12/5\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"certified_bound\": 24"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cutting planes (counting) refuting 23 slots: accepted"), std::string::npos) << r.output;
  r = run("check-proof " + dir + "two.cp");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("hrel pes=6 k=10 slots=23 forwarding=1"), std::string::npos) << r.output;
  // Three copies of a triangle with h = 4 without forwarding: the optimum 6 is the odd-set bound (a triangle holds one
  // move a slot, 6 packets in it), certified; a damaged copy of the certificate is rejected (exit 1).
  r = run("prove hrel " + dir + "copies.json --certificate " + dir + "copies.cp --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("refuting 5 slots: accepted"), std::string::npos) << r.output;
  std::string text;
  {
    std::ifstream in(dir + "copies.cp");
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto at = text.find("slots=5");
  ASSERT_NE(at, std::string::npos) << text;
  std::ofstream(dir + "copies-6.cp") << text.replace(at, 7, "slots=6");
  EXPECT_EQ(run("check-proof " + dir + "copies-6.cp").code, 1);
  // Above the counting bound (random P = 5, h = 2, seed 6, in halves with forwarding: the certificate refutes 4 slots,
  // the optimum is 6): the step below rests on CaDiCaL's unsat with a checked DRAT proof; --engine z3 is the
  // uncertified alternative, and an unknown engine is a usage error.
  r = run("prove hrel " + data("hrel_above_counting.json") + " --forwarding -k 2 --timeout 60 --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"optimum\": \"3\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"certified_bound\": 5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("5 slots: DRAT proof (CaDiCaL), accepted"), std::string::npos) << r.output;
  EXPECT_EQ(run("prove hrel " + data("hrel_above_counting.json") + " --engine cvc5").code, 2);
  // A hint that forwards cannot witness the model without forwarding; an unreadable hint is bad input.
  EXPECT_EQ(run("prove hrel " + two + " -k 5 --hint forwarding").code, 3);
  EXPECT_EQ(run("prove hrel " + two + " -k 5 --hint " + data("truncated.json")).code, 2);
}

TEST(cli_online, simulate_reports_a_mean_with_an_interval_and_refuses_bad_input) {
  auto r = run("simulate online --discipline fifo --instance total-exchange --n 32 --seeds 3 --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"mean_rounds_over_h\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"traces_valid\": true"), std::string::npos) << r.output;
  r = run("simulate online --discipline priority --n 64 --h 16 --seeds 2");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("rounds/h = "), std::string::npos) << r.output;
  const std::string svg = testing::TempDir() + "sweep.svg";
  r = run("simulate online --discipline fifo --instance total-exchange --n 32 --seeds 2 --sweep-k 1:2:0.5 --svg " + svg);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(read_file(svg).find("<svg"), std::string::npos);
  EXPECT_EQ(run("simulate online --discipline lifo").code, 2);
  EXPECT_EQ(run("simulate online --discipline ocpc --protocol fifo-staged").code, 2);
  EXPECT_EQ(run("simulate online --discipline fifo --n 1").code, 2);
  EXPECT_EQ(run("simulate online --discipline fifo --sweep-k 3:1:0.1").code, 2);
  EXPECT_EQ(run("simulate online --discipline fifo --instance difficult --h 50").code, 2);
}

TEST(cli_torus, generate_simulate_and_bad_input) {
  const std::string table = testing::TempDir() + "t68.json";
  auto r = run("generate torus --dims 6x8 --algo hamiltonian -o " + table);
  ASSERT_EQ(r.code, 0) << r.output;
  r = run("simulate torus " + table);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("complete after 24 steps"), std::string::npos) << r.output;
  r = run("simulate torus --dims 4x6 --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"steps\": 12"), std::string::npos) << r.output;
  // Conditions and malformed tables are bad input, naming the problem.
  // 5 x 8 and 4 x 5: a size odd, so square switches give the two Hamiltonian cycles (2 packets per PU, P/2 steps).
  expect_run("simulate torus --dims 5x8", 0, "complete after 20 steps");
  expect_run("simulate torus --dims 4x5", 0, "complete after 10 steps");
  // Any sizes >= 3 by the square-switch search: 4 x 5 (no explicit construction here) and 3-D, d packets per PU.
  // 3-D cubes by the explicit construction (Park): floor(P/2) steps with 3 packets; m = 4 one dimension at a time (below)
  expect_run("simulate torus --dims 5x5x5 --algo hamiltonian", 0, "complete after 62 steps");
  expect_run("simulate torus --dims 6x6x6 --algo hamiltonian", 0, "3 cycles (hamiltonian-cube)");
  expect_run("simulate torus --dims 4x4x4 --algo hamiltonian", 0, "3 cycles (hamiltonian-layered-searched)");
  // Other tori with an odd size one dimension at a time (layered); every size even and no product (3-D, 5-D, 7-D):
  // layered on scrambled frames up to 2^21 PUs, refused by name above.
  expect_run("simulate torus --dims 3x3x5 --algo hamiltonian", 0, "3 cycles (hamiltonian-layered)");
  expect_run("simulate torus --dims 3x3x3x3x3 --algo hamiltonian", 0, "complete after 121 steps");
  expect_run("simulate torus --dims 4x6x8 --algo hamiltonian", 0, "complete after 96 steps");
  {
    const run_result five = expect_run("simulate torus --dims 4x4x4x4x4 --algo hamiltonian", 0, "5 cycles (hamiltonian-layered-searched)");
    EXPECT_NE(five.output.find("complete after 512 steps"), std::string::npos) << five.output;
  }
  expect_run("simulate torus --dims 4x4x4x4x4x4x520 --algo hamiltonian", 2, "scrambles frames only up to 2097152 PUs (P = 2129920)");
  expect_run("simulate torus --dims 4x5 --algo hamiltonian-switch", 0, "complete after 10 steps");
  expect_run("simulate torus --dims 3x4x5 --algo hamiltonian-switch", 0, "3 cycles (square-switch search)");
  expect_run("simulate torus --dims 2x5 --algo hamiltonian-switch", 2, "needs every n_j >= 3");
  expect_run("simulate torus --dims 40x40x40 --algo hamiltonian-switch", 2, "at most 32768 PUs");
  // The supply found by SAT (Theorem 7's bound 38 on 4 x 2 x 4 x 5; the greedy supply takes 38 steps there).
  expect_run("simulate torus --dims 4x2x4x5 --algo one-packet --supply-search 60", 0, "complete after 36 steps");
  expect_run("simulate torus --dims 4x2x4x5 --algo one-packet --supply time-independent --supply-search 60", 0,
             "1 packet(s) per PU): complete after 51 steps");  // no switches
  {
    const auto certified = expect_run("simulate torus --dims 4x2x4x5 --algo one-packet --supply time-independent --supply-search 60 --certify", 0,
                                      "one step less: 50 steps: unsat");
    EXPECT_NE(certified.output.find("DRAT proof checked"), std::string::npos) << certified.output;
  }
  // The matched supply, cycle_routing's scheduled policy on 4-D zigzag cycles: below Theorem 7's bound, printed beside it.
  {
    const auto matched = expect_run("simulate torus --dims 4x4x4x5 --algo one-packet", 0, "complete after 72 steps");
    EXPECT_NE(matched.output.find("Theorem 7's bound with switching ceil((1 + d/n_d) P/(2d)) + 2 = 74 steps"), std::string::npos) << matched.output;
    expect_run("simulate torus --dims 6x8 --algo one-packet --json", 0, "\"theorem_bound\": 16");
    // --supply-search: the searched class's least is 73 (72 unsat there); the matched table's 72 is given instead
    // (a budget far above the 15 to 30 s it takes, so that a slow or loaded machine still gets the answer)
    const auto searched = expect_run("simulate torus --dims 4x4x4x5 --algo one-packet --supply-search 900", 0, "complete after 72 steps");
    EXPECT_NE(searched.output.find("fewer than the class's least 73: that table is given"), std::string::npos) << searched.output;
  }
  // Closed trails (the printed lap rule on 4 x 3 x 2 x 4): Theorem 7's 26 steps, against 37 with the greedy supply.
  expect_run("simulate torus --dims 4x3x2x4 --algo one-packet --supply-search 60", 0, "complete after 24 steps");
  expect_run("simulate torus --dims 4x4 --algo hamiltonian --supply-search 10", 2, "for --algo one-packet or partial");
  expect_run("simulate torus --dims 4x2x4x5 --algo one-packet --supply-search 0.001", 3, "");
  expect_run("generate torus --dims 2x5", 2, "square switches need both sizes >= 3, got 2x5");
  EXPECT_EQ(run("generate torus --dims 6x").code, 2);
  EXPECT_EQ(run("generate torus --dims 6x8 --algo zigzag").code, 2);
  const std::string bad = testing::TempDir() + "bad-torus.json";
  {
    std::ofstream out(bad);
    out << R"({"format": "dancecard.torus-routing/1", "dims": [2, 2], "packets": 1,
               "forward": [[null, null, null, 9], [null, null, null, null], [null, null, null, null], [null, null, null, null]],
               "inject": [[0, null, null, null], [0, null, null, null], [0, null, null, null], [0, null, null, null]]})";
  }
  r = run("simulate torus " + bad);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("forward[0][3]"), std::string::npos) << r.output;
}

TEST(cli_torus, one_packet_tables_with_switches_round_trip_and_draw) {
  const std::string table = testing::TempDir() + "z68.json";
  auto r = run("generate torus --dims 6x8 --algo one-packet --supply scheduled -o " + table);
  ASSERT_EQ(r.code, 0) << r.output;
  {
    std::ifstream in(table);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"switches\""), std::string::npos);
  }
  r = run("simulate torus " + table);  // the file, switches included, gives what the construction gives
  EXPECT_EQ(r.code, 0) << r.output;
  // Theorem 5: 12 + 3 + 1 = 16; the packet-matched supply reaches the cycles' circulation ⌊30/2⌋ = 15
  EXPECT_NE(r.output.find("complete after 15 steps"), std::string::npos) << r.output;
  r = run("simulate torus --dims 6x8 --algo one-packet --supply one-switch --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"steps\": 20"), std::string::npos) << r.output;  // one switch per link is not enough here
  EXPECT_NE(r.output.find("\"supply_check\": \"holds\""), std::string::npos) << r.output;
  const std::string svg = testing::TempDir() + "z68.svg";
  r = run("draw torus --dims 6x8 --algo one-packet --out " + svg);
  EXPECT_EQ(r.code, 0) << r.output;
  {
    const std::string text = read_file(svg);
    EXPECT_NE(text.find("<svg"), std::string::npos);
    EXPECT_NE(text.find("#c0392b"), std::string::npos);  // the second cycle's colour
  }
  // 3-D: one panel per layer x3, the third cycle's colour, stubs for the links along x3.
  expect_run("draw torus --dims 3x3x4 --algo one-packet --out " + svg, 0, "3 cycles");
  {
    const std::string text = read_file(svg);
    EXPECT_NE(text.find(">x3 = 3</text>"), std::string::npos);
    EXPECT_EQ(text.find(">x3 = 4</text>"), std::string::npos);
    EXPECT_NE(text.find("#27ae60"), std::string::npos);
    EXPECT_EQ(occurrences(text, "<circle"), 36u);  // one per PU
    EXPECT_GE(occurrences(text, "<line"), 63u);    // 3 cycles of (1 + 3/4)·36/3 = 21 links, each at least one stroke
  }
  // 4-D: one panel per (x3, x4), labelled; the two cycles' colours; links along x3 and x4 as stubs of their own
  // directions (up-right and up-left at the PU a link leaves towards +: dx, dy = +-12, -12).
  expect_run("draw torus --dims 4x2x4x5 --algo one-packet --out " + svg, 0, "4 cycles");
  {
    const std::string text = read_file(svg);
    EXPECT_NE(text.find(">(x3, x4) = (3, 4)</text>"), std::string::npos);
    EXPECT_EQ(text.find(">(x3, x4) = (4, 0)</text>"), std::string::npos);
    EXPECT_EQ(text.find(">(x3, x4) = (0, 5)</text>"), std::string::npos);
    EXPECT_NE(text.find("x4 up-left"), std::string::npos);
    EXPECT_NE(text.find("#8e44ad"), std::string::npos);  // the fourth cycle's colour
    EXPECT_EQ(occurrences(text, "<circle"), 160u);       // one per PU
    EXPECT_EQ(occurrences(text, ">(x3, x4) = ("), 20u);  // 4 x 5
  }
  // 5-D: x3 and x5 across, x4 down; the x5 stubs named in the legend
  expect_run("draw torus --dims 5x3x2x5x5 --algo one-packet --out " + svg, 0, "5 cycles");
  {
    const std::string text = read_file(svg);
    EXPECT_NE(text.find(">(x3, x4, x5) = (1, 4, 4)</text>"), std::string::npos);
    EXPECT_NE(text.find("x5 shallow up-right"), std::string::npos);
    EXPECT_NE(text.find("#d35400"), std::string::npos);  // the fifth cycle's colour
  }
  // 6-D: Section 3.4's six Hamiltonian cycles (two of Park's 3 x 3 x 3 cubes by the product), 81 panels
  expect_run("draw torus --dims 3x3x3x3x3x3 --algo hamiltonian --out " + svg, 0, "6 cycles");
  {
    const std::string text = read_file(svg);
    EXPECT_NE(text.find(">(x3, x4, x5, x6) = (2, 2, 2, 2)</text>"), std::string::npos);
    EXPECT_NE(text.find("x6 shallow up-left"), std::string::npos);
    EXPECT_EQ(occurrences(text, ">(x3, x4, x5, x6) = ("), 81u);
  }
  expect_run("draw torus --dims 2x2x2x2x2x2x2 --algo hamiltonian --out " + svg, 2, "dimension 2 to 6, not 7");
  expect_run("draw torus --dims 8x8x8x16 --algo hamiltonian --out " + svg, 2, "at most 4096 PUs");
  // Conditions of Section 4 and unbuilt algorithms are bad input, named.
  r = run("generate torus --dims 6x4x3 --algo one-packet");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("condition (1)"), std::string::npos) << r.output;
  EXPECT_EQ(run("generate torus --dims 3x7 --algo partial").code, 2);  // odd rows need at least 5
  EXPECT_EQ(run("simulate torus --dims 7x7 --algo partial").code, 0);  // Section 3.3 (both odd)
  EXPECT_EQ(run("generate torus --dims 6x7 --algo partial").code, 0);
  EXPECT_EQ(run("generate torus --dims 6x8 --algo one-packet --supply sometimes").code, 2);
  // 4 x 3 x 2 x 4 satisfies conditions (1)-(3); its zigzags are closed trails. With fixed directions some PUs get one
  // direction of a cycle only: locality violated (exit 1), gossip still completes.
  r = run("simulate torus --dims 4x3x2x4 --algo one-packet --supply time-independent");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("unsupplied"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("complete after"), std::string::npos) << r.output;
  // With scheduled switching the packet-matched supply serves the trails: both directions everywhere, 24 steps, within
  // Theorem 7's bound of 26 (the greedy supply gave 37 and left some PUs one way).
  r = run("simulate torus --dims 4x3x2x4 --algo one-packet");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("complete after 24 steps"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("locality: holds"), std::string::npos) << r.output;
  const std::string bad = testing::TempDir() + "bad-switch.json";
  {
    std::ofstream out(bad);
    out << R"({"format": "dancecard.torus-routing/1", "dims": [2, 2], "packets": 1,
               "forward": [[null, null, null, null], [null, null, null, null], [null, null, null, null], [null, null, null, null]],
               "inject": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
               "switches": [[0, 1, 1, 2]]})";
  }
  r = run("simulate torus " + bad);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("switches[0][2]"), std::string::npos) << r.output;
}

// Theorems 3 and 4 on the partial cycles with two packets per PU (--packets 2): the table round-trips with its delayed
// switches; other algorithms, other counts and other supply policies are refused by name.
TEST(cli_torus, two_packets_on_the_partial_cycles) {
  const run_result json = expect_run("simulate torus --dims 6x7 --algo partial --packets 2 --json", 0, "\"steps\": 21");
  EXPECT_NE(json.output.find("\"packets\": 2"), std::string::npos) << json.output;
  EXPECT_NE(json.output.find("\"theorem_bound\": 21"), std::string::npos) << json.output;
  EXPECT_NE(json.output.find("\"counting_bound\": 21"), std::string::npos) << json.output;
  EXPECT_NE(json.output.find("\"supply_check\": \"holds\""), std::string::npos) << json.output;
  const run_result odd =
      expect_run("simulate torus --dims 7x7 --algo partial --packets 2", 0, "complete after 25 steps");
  EXPECT_NE(odd.output.find("Theorem 4's count with two packets per PU: ceil(n1 n2/2) = 25 steps"), std::string::npos)
      << odd.output;
  EXPECT_NE(odd.output.find("counting bound with 2 packets per PU: ceil(2(P - 1)/4) = 24 steps"), std::string::npos)
      << odd.output;
  const std::string table = testing::TempDir() + "twin55.json";
  expect_run("generate torus --dims 5x5 --algo partial --packets 2 -o " + table, 0, "");
  EXPECT_NE(read_file(table).find(", 2]"), std::string::npos);  // a switch with delay 2
  expect_run("simulate torus " + table, 0, "complete after 13 steps");
  expect_run("simulate torus --dims 6x8 --algo hamiltonian --packets 2", 2, "--packets 2: for --algo partial");
  expect_run("simulate torus --dims 6x7 --algo partial --packets 3", 2, "--packets: expected 1 or 2, got 3");
  expect_run("generate torus --dims 6x7 --algo partial --packets 2 --supply one-switch", 2,
             "--supply one-switch is not available");
  expect_run("simulate torus --dims 6x7 --algo partial --packets 2 --supply-search 10", 2,
             "--supply-search searches one-packet supplies only");
  expect_run("simulate torus " + table + " --packets 2", 2, "a table file gives its own packets");
}

// --max-delay: the packet-matched supply with senders that hold packets (4 x 5 x 2 x 9: 65 steps, the cycles'
// circulation, against 71 forwarding only what arrived the step before); refused with the wrong algorithm or policy.
TEST(cli_torus, held_packets_in_the_scheduled_supply) {
  expect_run("simulate torus --dims 4x5x2x9 --algo one-packet", 0, "complete after 71 steps");
  const run_result held =
      expect_run("simulate torus --dims 4x5x2x9 --algo one-packet --max-delay 8", 0, "complete after 65 steps");
  EXPECT_NE(held.output.find("needs 65 steps, fewer than 71: that table is given"), std::string::npos) << held.output;
  expect_run("simulate torus --dims 6x8 --algo hamiltonian --max-delay 2", 2,
             "--max-delay: for --algo one-packet or partial");
  expect_run("simulate torus --dims 4x5x2x9 --algo one-packet --max-delay 9", 2, "--max-delay: at most 8, got 9");
  expect_run("simulate torus --dims 4x5x2x9 --algo one-packet --max-delay 2 --supply one-switch", 2,
             "with --supply scheduled");
  expect_run("simulate torus --dims 6x7 --algo partial --packets 2 --max-delay 2", 2,
             "the two-packet hand-over sets its own delays");
  // The parity bound assumes that every packet moves one hop per step: given for one-packet tables without held
  // packets (6 x 6: 10, above the counting bound 9), null where packets are held or where there are two per PU.
  const run_result six = expect_run("simulate torus --dims 6x6 --algo one-packet --json", 0, "\"parity_bound\": 10");
  EXPECT_NE(six.output.find("\"counting_bound\": 9"), std::string::npos) << six.output;
  expect_run("simulate torus --dims 6x6 --algo one-packet", 0, "parity bound with one packet per PU, none held back: 10 steps");
  expect_run("simulate torus --dims 4x5x2x9 --algo one-packet --max-delay 8 --json", 0, "\"parity_bound\": null");
  expect_run("simulate torus --dims 6x8 --algo hamiltonian --json", 0, "\"parity_bound\": null");  // two packets per PU
}

// The catalogue (formats/torus_catalogue.hpp): the stored best table, sizes in any order; an uncatalogued torus is
// refused with the list of those that are.
TEST(cli_torus, catalogue_tables) {
  const std::string file = testing::TempDir() + "catalogue-7x5.json";
  expect_run("generate torus --dims 7x5 --algo catalogue --model pairing -o " + file, 0, "torus_5x7_pairing_11_steps.json, 11 steps");
  expect_run("simulate torus " + file, 0, "gossip on the 7x5 torus (P = 35, 1 packet(s) per PU): complete after 11 steps");
  std::remove(file.c_str());
  // the general model of 6 x 6: 11 steps (10 is open); 3 x 4: the pairing table, as fast as any general one
  expect_run("simulate torus --dims 6x6 --algo catalogue --model general", 0, "complete after 11 steps");
  expect_run("generate torus --dims 4x3 --algo catalogue --model general", 0, "torus_3x4_pairing_4_steps.json, 4 steps");
  expect_run("generate torus --dims 7x7 --algo catalogue", 2, "the 7x7 torus is not catalogued (catalogued, sizes in any order: ");
  expect_run("generate torus --dims 3x3 --algo catalogue --seconds 5", 2, "--seconds: only with --algo local-search, tabu or invariant");
}

TEST(cli_torus, local_search_tables_are_written_and_simulated) {
  // 4 x 4 with pairings needs 6 steps (proven by the SAT search); the local search's table and the tabu search's
  // reach that and run through simulate like any table file. --evaluations ends each search by a work count (the
  // minutes of --seconds are never reached), so the tables are the same on any machine under any load.
  for (const auto& [algo, name] : {std::pair<std::string, std::string>{"local-search", "local search"}, {"tabu", "tabu search"}}) {
    SCOPED_TRACE(algo);
    const std::string file = testing::TempDir() + algo + "-4x4.json";
    expect_run("generate torus --dims 4x4 --algo " + algo + " --model pairing --evaluations 2000 --seconds 600 -o " + file, 0,
               name + " (pairing model, seed 1): 6 steps");
    expect_run("simulate torus " + file + " --json", 0, "\"steps\": 6");
    expect_run("simulate torus --dims 3x5 --algo " + algo + " --model general --evaluations 2000 --seconds 600", 0, "complete after 5 steps");
    expect_run("generate torus --dims 4x4 --algo " + algo + " --evaluations 0", 2, "--evaluations");
    expect_run("generate torus --dims 4x4 --algo " + algo + " --model sometimes", 2, "--model: expected pairing or general");
    EXPECT_EQ(run("generate torus --dims 4x4 --algo " + algo + " --seconds soon").code, 2);
    expect_run("generate torus --dims 40x40 --algo " + algo, 2, "--algo " + algo + ": at most 1024 PUs");
    // --start: from a file; the search ends no worse
    expect_run("simulate torus --dims 4x4 --algo " + algo + " --model general --start " + file + " --evaluations 100 --seconds 600", 0, "complete after");
    expect_run("generate torus --dims 4x5 --algo " + algo + " --start " + file, 2, "a table of the 4x4 torus, not 4x5");
    expect_run("generate torus --dims 3x13 --algo " + algo + " --start catalogue", 2, "the 3x13 torus is not catalogued");
    expect_run("generate torus --dims 4x4 --algo " + algo + " --start " + testing::TempDir() + "no-such.json", 2, "cannot open");
    std::remove(file.c_str());
  }
  // --start catalogue (5 x 6 general: 9 steps, 8 open)
  expect_run("generate torus --dims 5x6 --algo local-search --model general --start catalogue --evaluations 100 --seconds 600", 0,
             "starts from the catalogue's torus_5x6_general_9_steps.json (9 steps)");
  expect_run("generate torus --dims 5x6 --algo tabu --model general --start catalogue --evaluations 100 --seconds 600", 0,
             "tabu search starts from the catalogue's torus_5x6_general_9_steps.json (9 steps)");
  expect_run("generate torus --dims 4x4 --algo hamiltonian --start catalogue", 2, "--start: only with --algo local-search");
  // the tabu search counts one packet per PU
  expect_run("generate torus --dims 4x4 --algo tabu --packets 2", 2, "--algo tabu searches one-packet tables");
  // --steps: stop at a table within that many steps (4 x 4 pairing: 6, well before the budget of a minute); --jobs:
  // seeds side by side, the best kept
  auto r = expect_run("generate torus --dims 4x4 --algo tabu --steps 6 --seconds 600", 0, "tabu search (pairing model, seed 1): 6 steps after ");
  EXPECT_EQ(r.output.find("one step below"), std::string::npos) << r.output;  // stopped at the goal, not by the budget
  expect_run("generate torus --dims 4x4 --algo tabu --jobs 2 --seed 5 --evaluations 2000 --seconds 600", 0,
             "tabu search, 2 seeds: 5 → 6 6 → 6; seed 5's table");
  expect_run("generate torus --dims 4x4 --algo hamiltonian --evaluations 10", 2, "--evaluations: only with --algo local-search or tabu");
  expect_run("generate torus --dims 4x4 --algo tabu --jobs 0", 2, "--jobs");
  expect_run("generate torus --dims 4x4 --algo local-search --jobs 2", 2, "--jobs: only with --algo tabu, not with --algo local-search");
  // --groups/--group-index: only tables invariant under one group (4 x 5 general: 6 steps, the minimum, invariant under
  // the 5 translations by (0, 1), group 2; and under a mixed group of 20 automorphisms, group 28)
  const auto invariant = expect_run("simulate torus --dims 4x5 --algo tabu --model general --group-index 2 --steps 6 --seconds 60", 0, "complete after 6 steps");
  EXPECT_NE(invariant.output.find("tabu search over the tables invariant under group 2 of --groups translations: 5 translations generated by (0,1)"),
            std::string::npos) << invariant.output;
  // the pairing search under the group gets no further than 7 (the pairing minimum) in its quarter of the budget; the
  // SAT query of the group at 6 then gives the table
  EXPECT_NE(invariant.output.find("its start: 1 SAT query over the group's tables, a 6-step table"), std::string::npos) << invariant.output;
  expect_run("simulate torus --dims 4x5 --algo tabu --model general --groups mixed --group-index 28 --steps 6 --seconds 60", 0, "complete after 6 steps");
  // refused: (the arguments after generate torus --dims, what the error names)
  for (const auto& [arguments, names] : std::vector<std::pair<std::string, std::string>>{
           {"4x5 --algo tabu --group-index 1,2", "--algo tabu takes one group"},
           {"4x5 --algo tabu --group-index 99", "group 99 does not exist"},
           {"4x5 --algo tabu --groups point", "--groups: with --algo tabu only beside --group-index G"},
           {"4x5 --algo local-search --group-index 2", "--group-index: only with --algo invariant or tabu"},
           {"4x4 --algo tabu --group-index 2 --start catalogue", "--start catalogue: "}})
    expect_run("generate torus --dims " + arguments, 2, names);
}

TEST(cli_torus, translation_invariant_tables_by_sat) {
  // 5 x 5 in the general model: a 7-step table invariant under 5 translations (found in well under a second); no
  // invariant 6-step table of 3 x 7 exists (every group unsat: exit 3, nothing written); bad requests exit 2.
  const std::string file = testing::TempDir() + "invariant-5x5.json";
  expect_run("generate torus --dims 5x5 --algo invariant --model general --steps 7 --seconds 60 -o " + file, 0, " of --list-groups: a table invariant under 5 translations generated by (");
  expect_run("simulate torus " + file, 0, "complete after 7 steps");
  expect_run("simulate torus --dims 4x4 --algo invariant --model pairing --steps 6 --seconds 30", 0, "complete after 6 steps");
  expect_run("generate torus --dims 3x7 --algo invariant --model general --steps 6 --seconds 60", 3, "no table found");
  // with --certify every unsat answer's proof is checked, and a search that rules out every group is a refutation
  expect_run("generate torus --dims 3x7 --algo invariant --model general --steps 6 --seconds 60 --certify", 1,
             "proven: no table invariant under any of the 3 translation groups completes within 6 steps");
  expect_run("simulate torus --dims 4x5 --algo invariant --model general --groups all --steps 5 --seconds 120 --certify", 1, "proven: no table");
  expect_run("generate torus --dims 4x5 --algo invariant --model general --steps 6 --seconds 60 --certify", 0, "a table invariant under ");
  expect_run("generate torus --dims 3x7 --algo local-search --certify", 2, "--certify: with --supply-search or --algo invariant");
  expect_run("simulate torus " + catalogue_file("torus_3x9_general_8_steps.json") + " --certify", 2, "not a table file");
  expect_run("generate torus --dims 4x4 --algo invariant --model general", 2, "needs --steps");
  expect_run("generate torus --dims 20x20 --algo invariant --steps 100", 2, "at most 256 PUs");
  expect_run("generate torus --dims 4x4 --algo invariant --model both --steps 6", 2, "--model");
  // ... but a table invariant under a point reflection does (--groups point: groups without translations), and
  // --groups all asks the translations first, then those
  const std::string point = testing::TempDir() + "invariant-3x7.json";
  expect_run("generate torus --dims 3x7 --algo invariant --groups point --model general --steps 6 --seconds 60 -o " + point, 0,
             ": a table invariant under 2 automorphisms generated by (x1, x2) -> (-x1");
  expect_run("simulate torus " + point, 0, "complete after 6 steps");
  expect_run("simulate torus --dims 3x7 --algo invariant --groups all --model general --steps 6 --seconds 60", 0, "complete after 6 steps");
  expect_run("generate torus --dims 3x7 --algo invariant --groups rotations --steps 6", 2, "--groups: expected translations, point, all or mixed");
  expect_run("generate torus --dims 3x7 --algo local-search --groups point", 2, "--groups: only with --algo invariant");
}

TEST(cli_torus, negative_counts_and_options_the_algorithm_ignores_are_rejected) {
  // An unsigned option read by CLI11 wraps "-3" to 2^64 - 3 (the invariant search then ran for ever); the checks name
  // the option instead. An option the chosen source of the table does not read is an error, not silently ignored.
  // Each: the arguments and the message expected with exit code 2.
  const std::vector<std::pair<std::string, std::string>> rejected = {
      {"generate torus --dims 4x4 --algo invariant --model general --steps -3", "--steps: '-3' is not an integer >= 1"},
      {"prove torus --dims 3x3 --model general --steps 0", "--steps: expected an integer >= 1, got 0"},
      {"generate torus --dims 4x4 --algo local-search --seed -1", "--seed: '-1' is not a non-negative integer"},
      {"generate torus --dims 4x4 --algo hamiltonian --steps 3", "--steps: only with --algo invariant or tabu, not with --algo hamiltonian"},
      {"generate torus --dims 4x4 --algo local-search --steps 3 --seconds 1", "--steps: only with --algo invariant"},
      {"generate torus --dims 4x4 --algo invariant --steps 6 --seed 3", "--seed: only with --algo local-search or tabu"},
      {"generate torus --dims 4x4 --algo one-packet --model general", "--model: only with --algo local-search, tabu, invariant or catalogue"},
      {"simulate torus " + catalogue_file("torus_4x8_general_9_steps.json") + " --seconds 5",
       "--seconds: only with --algo local-search, tabu or invariant, not with a table file"},
      {"instance hrel --family random --seed -1", "--seed: '-1' is not a non-negative integer"},
      {"simulate online --discipline ocpc --seed -2", "--seed: '-2' is not a non-negative integer"},
      {"property-test torus --cmd 'echo {dims}' --max-gap -1", "--max-gap: '-1' is not a non-negative integer"},
      {"property-test dance --cmd 'echo {n}' --seed x", "--seed: 'x' is not a non-negative integer"},
  };
  for (const auto& [args, message] : rejected) expect_run(args, 2, message);
  // the checks do not get in the way of what they guard
  expect_run("generate torus --dims 3x3 --algo invariant --model general --steps 2 --seconds 10", 0, "a table invariant under");
}

// prove torus --steps T --cubes N: the query split into cubes, solved --jobs at a time; the exit codes of a query.
TEST(cli_torus, a_query_split_into_cubes) {
  expect_run("prove torus --dims 3x4 --model pairing --steps 3 --cubes 9 --jobs 2", 1,
             "split into 9 cubes (2 groups: PU 6's pairing, PU 10's pairing), 2 at a time: unsat (unsat: all 9 cubes refuted");
  const std::string witness = (std::filesystem::temp_directory_path() / "dancecard_cli_split_witness.json").string();
  expect_run("prove torus --dims 4x4 --model general --steps 5 --cubes 16 --witness " + witness, 0, "sat (witness table completes in");
  expect_run("simulate torus " + witness, 0, "complete after");
  std::filesystem::remove(witness);
  const run_result j = expect_run("prove torus --dims 4x4 --model general --steps 4 --cubes 4 --json", 1, "\"format\": \"dancecard.torus-query/1\"");
  EXPECT_NE(j.output.find("\"refuted\": 9"), std::string::npos) << j.output;  // 3 x 3: the U-turns are forbidden at 4 steps
  EXPECT_NE(j.output.find("\"cube\": \"PU 10 out-port 0 <- in-port 3, PU 10 out-port 1 <- in-port 2\""), std::string::npos) << j.output;
  expect_run("prove torus --dims 4x4 --model general --steps 3 --cubes 4", 1, "not split: unsat (unsat by the counting bound alone");
  const std::vector<std::pair<std::string, std::string>> rejected = {
      {"prove torus --dims 4x4 --cubes 4", "--cubes: only with --steps"},
      {"prove torus --dims 4x4 --steps 5 --jobs 2", "--jobs: only with --cubes"},
      {"prove torus --dims 4x4 --steps 5 --cubes 0", "--cubes: expected an integer >= 1, got 0"},
      {"prove torus --dims 4x4 --steps 5 --cubes 70000", "--cubes 70000: at most 65536"},
      {"prove torus --dims 4x4 --steps 5 --cubes 4 --jobs 300", "--jobs 300: at most 256"},
      {"prove torus --dims 4x4 --steps 5 --cubes 4 --packets 2", "--cubes: one packet per PU only"},
      {"prove torus --dims 4x4 --steps 5 --cubes 4 --emit /tmp/x", "--emit: not with --cubes"},
      {"prove torus --dims 4x4 --steps 5 --cube-timeout 5", "--cube-timeout: only with --cubes"},
      {"prove torus --dims 4x4 --steps 5 --cubes 4 --cube-timeout -1", "--cube-timeout"},
  };
  for (const auto& [args, message] : rejected) expect_run(args, 2, message);
}

TEST(cli_torus, invariant_groups_are_listed_and_asked_by_number) {
  // --list-groups numbers the groups as the search does: translations, largest first, then point groups.
  auto r = expect_run("generate torus --dims 3x7 --algo invariant --groups all --list-groups", 0, "0  21 translations generated by (1,1)\n");
  EXPECT_NE(r.output.find("3  4 automorphisms generated by (x1, x2) -> (-x1, x2); (x1, x2) -> (x1, -x2)\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("6  2 automorphisms generated by (x1, x2) -> (-x1, -x2)\n"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 7);
  // --groups mixed: the same 7, then the mixed groups (a translation group with reflections), numbered on
  r = expect_run("generate torus --dims 3x7 --algo invariant --groups mixed --list-groups", 0, "0  21 translations generated by (1,1)\n");
  EXPECT_NE(r.output.find("6  2 automorphisms generated by (x1, x2) -> (-x1, -x2)\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("7  84 automorphisms generated by (x1, x2) -> (x1 + 1, x2 + 1); (x1, x2) -> (-x1, -x2); (x1, x2) -> (-x1, x2)\n"),
            std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 19);
  // each of them holds one of the three translation groups, none of which has a 6-step general table: once those
  // are unsat, the mixed groups are without a query of their own
  r = expect_run("generate torus --dims 3x7 --algo invariant --groups mixed --model general --steps 6 --group-index 0-2,7-18 --progress --seconds 300", 3,
                 "15 of 15 groups asked (15 unsat, 12 of them as they contain a conjugate of another");
  EXPECT_NE(r.output.find("group 18 (6 automorphisms generated by (x1, x2) -> (x1 + 1, x2); (x1, x2) -> (-x1, -x2)): unsat, as it contains a conjugate of group 2"),
            std::string::npos) << r.output;
  // 3 x 7 general in 6 steps: no translation group has a table; the point reflection (group 6) has
  // (budgets far above the few seconds these take, so that a loaded machine gives the same answers)
  r = expect_run("generate torus --dims 3x7 --algo invariant --groups all --model general --steps 6 --group-index 6 --seconds 300", 0,
                 "group 6 of --list-groups");
  EXPECT_NE(r.output.find("\"dims\": [3, 7]"), std::string::npos) << r.output;
  r = expect_run("generate torus --dims 3x7 --algo invariant --groups all --model general --steps 6 --group-index 0-2 --seconds 300", 3,
                 "3 of 3 groups asked (3 unsat");
  EXPECT_EQ(r.output.find("group 0 ("), std::string::npos) << r.output;  // no per-group lines without --progress
  // --progress: a line per group as it answers, in the order asked; with --certify the unsat answers' proofs are checked
  r = expect_run("generate torus --dims 3x7 --algo invariant --groups all --model general --steps 6 --group-index 0-2,6 --progress --seconds 300", 0,
                 "group 0 (21 translations generated by (1,1)): unsat (its queries ");
  const std::size_t second = r.output.find("group 1 ("), table = r.output.find("group 6 (2 automorphisms generated by (x1, x2) -> (-x1, -x2)): a table (its queries ");
  EXPECT_NE(second, std::string::npos) << r.output;
  EXPECT_NE(table, std::string::npos) << r.output;
  EXPECT_LT(second, table) << r.output;
  expect_run("generate torus --dims 3x7 --algo invariant --groups all --model general --steps 5 --group-index 6 --progress --certify --seconds 300", 1,
             "group 6 (2 automorphisms generated by (x1, x2) -> (-x1, -x2)): unsat, DRAT proof checked (its queries ");
  // a group holding a conjugate of a group answered unsat is not asked: 4 x 4 general in 4 steps, the translations by
  // (0, 2) asked before those by (0, 1); with --certify the proof is the smaller group's, and the whole is proven
  r = expect_run("generate torus --dims 4x4 --algo invariant --groups all --model general --steps 4 --group-index 7,3 --progress --certify --seconds 300", 1,
                 "group 3 (4 translations generated by (0,1)): unsat, as it contains a conjugate of group 7 (its queries ");
  EXPECT_NE(r.output.find("group 7 (2 translations generated by (0,2)): unsat, DRAT proof checked"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 of 2 groups asked (2 unsat, 1 of them as they contain a conjugate of another, 0 out of time; 1 query in 1 round)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("proven: no table invariant under any of the 2 groups completes within 4 steps (every unsat answer's DRAT proof checked by "
                          "checkers/drat_check, or implied by one: the group contains a conjugate of a group so refuted)"),
            std::string::npos)
      << r.output;
  expect_run("generate torus --dims 3x7 --algo local-search --progress", 2, "--progress: only with --algo invariant");
  // a search out of time names the groups still open, as --group-index reads them
  expect_run("generate torus --dims 5x6 --algo invariant --groups all --model general --steps 8 --seconds 0.001", 3,
             "still open (out of time or not asked): groups ");
  expect_run("generate torus --dims 3x7 --algo invariant --groups all --steps 6 --group-index 7", 2,
             "--group-index: group 7 does not exist: this torus has 7 groups, numbered 0 to 6");
  expect_run("generate torus --dims 3x7 --algo invariant --steps 6 --group-index 1,1", 2, "group 1 given twice");
  expect_run("generate torus --dims 3x7 --algo invariant --steps 6 --group-index 2-1", 2, "runs backwards");
  expect_run("generate torus --dims 3x7 --algo invariant --steps 6 --group-index x", 2, "expected group numbers and ranges");
  expect_run("generate torus --dims 3x7 --algo invariant --steps 6 --group-index ''", 2, "expected group numbers and ranges");
  expect_run("generate torus --dims 3x7 --algo local-search --group-index 1", 2, "--group-index: only with --algo invariant");
  expect_run("generate torus --dims 3x7 --list-groups", 2, "--list-groups: only with --algo invariant");
}

TEST(cli_torus, catalogue_files_simulate_in_the_steps_their_names_give) {
  // Every table of the catalogue read as a file, as a user's router would give it: the step count of its name is
  // what the simulator finds (the library reads the same tables embedded; tests/torus_catalogue_test.cpp).
  const std::regex name(R"(torus_([0-9x]+)_(pairing|general)_([0-9]+)_steps\.json)");
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(DANCECARD_CATALOGUE_DIR)) {
    std::smatch m;
    const std::string file = entry.path().filename().string();
    ASSERT_TRUE(std::regex_match(file, m, name)) << file << ": every catalogue file is named for its torus, model and steps";
    ++files;
    expect_run("simulate torus " + entry.path().string(), 0, "complete after " + m[3].str() + " steps");
  }
  EXPECT_GT(files, 0u);
  // a pairing table's forwarding rules are closed cycles; 3 x 3 x 3 general meets the counting bound
  expect_run("simulate torus " + catalogue_file("torus_5x5_pairing_8_steps.json"), 0, "forwarding rules:");
  const auto r = expect_run("simulate torus " + catalogue_file("torus_3x3x3_general_5_steps.json"), 0, "complete after 5 steps");
  EXPECT_NE(r.output.find("counting bound with one packet per PU: ceil((P - 1)/6) = 5 steps"), std::string::npos) << r.output;
  // tables that are not in the catalogue: a 9-step 2 x 4 x 4 pairing table (the catalogue's has 8) and an 8-step
  // 3 x 3 x 4 general table (the catalogue's has 7)
  expect_run("simulate torus " + data("torus_2x4x4_pairing_9_steps.json"), 0, "complete after 9 steps");
  expect_run("simulate torus " + data("torus_3x3x4_general_8_steps.json"), 0, "complete after 8 steps");
}

TEST(cli_torus, prove_writes_its_witness_table) {
  const std::string file = testing::TempDir() + "torus-witness-3x4.json";
  expect_run("prove torus --dims 3x4 --model general --steps 4 --witness " + file, 0, "sat");
  expect_run("simulate torus " + file, 0, "complete after 4 steps");
  std::remove(file.c_str());
  expect_run("prove torus --dims 3x4 --model general --steps 3 --witness " + file, 1, "unsat");
  EXPECT_EQ(std::fopen(file.c_str(), "r"), nullptr);  // no witness, no file
  expect_run("prove torus --dims 3x5 --witness " + file, 0, "minimum 5 steps");
  expect_run("simulate torus " + file, 0, "complete after 5 steps");
}

TEST(cli_torus, a_stored_proof_of_the_catalogue_re_checks_against_the_emitted_query) {
  // core/data/torus_proofs/ holds gzip-compressed DRAT proofs of the catalogue's lower ends; check-proof reads them
  // as they are, against the query that prove torus --steps --emit writes.
  const std::string dir = testing::TempDir() + "stored-proof/";
  expect_run("prove torus --dims 3x4 --model general --steps 3 --emit " + dir, 1, "unsat");
  const std::string proof = std::string(DANCECARD_CATALOGUE_DIR) + "/../torus_proofs/torus_3x4_general_3_steps.drat.gz";
  expect_run("check-proof " + dir + "torus-3x4-general-3-lower.cnf " + proof, 0, "accepted: unsatisfiable");
  // the same proof against another query is rejected, not accepted
  expect_run("prove torus --dims 3x5 --model general --steps 4 --emit " + dir, 1, "unsat");
  EXPECT_EQ(run("check-proof " + dir + "torus-3x5-general-4-lower.cnf " + proof).code, 1);
  expect_run("check-proof " + dir + "torus-3x4-general-3-lower.cnf " + dir + "no-such.drat.gz", 2, "no-such.drat.gz");
}

TEST(cli_torus, prove_emits_what_re_checks_it_without_the_solver) {
  // 3 x 4, general model: 4 steps proven (3 unsat). --emit writes the DIMACS query of 3 steps with CaDiCaL's DRAT
  // proof, which `check-proof` accepts, and the witness table, which simulates in 4 steps; the proof does not refute
  // the 4-step query (sat); the 2-step query's proof and an empty proof do not refute the 3-step query.
  const std::string dir = testing::TempDir() + "dancecard-torus-emit";
  std::filesystem::remove_all(dir);  // no files of an earlier run
  expect_run("prove torus --dims 3x4 --model general --emit " + dir, 0, "minimum 4 steps");
  const std::string stem = dir + "/torus-3x4-general";
  expect_run("check-proof " + stem + "-lower.cnf " + stem + "-lower.drat", 0, "accepted: unsatisfiable");
  expect_run("simulate torus " + stem + "-witness.json", 0, "complete after 4 steps");
  const std::string manifest = read_file(stem + ".manifest.json");
  for (const char* text : {"\"status\": \"proven\"", "torus-3x4-general-lower.drat", "\"sha256\"", "3 steps unsat", "\"assumes\""})
    EXPECT_NE(manifest.find(text), std::string::npos) << text << " in\n" << manifest;
  EXPECT_NE(read_file(stem + "-lower.cnf").find("c time-independent gossip on the 3x4 torus, general model, 3 steps"), std::string::npos);
  // The proof is copied from the solver's trace piece by piece, its SHA-256 summed on the way: it must be the file's.
  {
    FILE* pipe = popen(("sha256sum " + stem + "-lower.drat").c_str(), "r");
    std::array<char, 65> sum{};
    ASSERT_EQ(std::fread(sum.data(), 1, 64, pipe), 64u);
    pclose(pipe);
    EXPECT_NE(manifest.find(std::string("\"sha256\": \"") + sum.data() + "\""), std::string::npos) << sum.data() << " in\n" << manifest;
    EXPECT_NE(manifest.find("\"bytes\": " + std::to_string(std::filesystem::file_size(stem + "-lower.drat"))), std::string::npos);
  }
  // --steps: a sat question leaves a witness and no proof; an unsat one its own query and proof
  expect_run("prove torus --dims 3x4 --model general --steps 4 --emit " + dir, 0, "sat");
  expect_run("simulate torus " + stem + "-4-witness.json", 0, "complete after");
  EXPECT_TRUE(read_file(stem + "-4-lower.drat").empty());
  expect_run("prove torus --dims 3x4 --model general --steps 2 --emit " + dir, 1, "unsat");
  expect_run("check-proof " + stem + "-2-lower.cnf " + stem + "-2-lower.drat", 0, "accepted: unsatisfiable");
  expect_run("check-proof " + stem + "-lower.cnf " + stem + "-2-lower.drat", 1, "");  // the 2-step proof for the 3-step query
  {
    std::ofstream empty(dir + "/empty.drat");
  }
  expect_run("check-proof " + stem + "-lower.cnf " + dir + "/empty.drat", 1, "");
  expect_run("prove torus --dims 3x4 --engine z3 --emit " + dir, 2, "--emit: only with --engine sat");
  expect_run("prove torus --dims 3x4 --emit /proc/no-such-dir", 2, "--emit: cannot create directory");
}

TEST(cli_torus, prove_both_models_with_json_and_exit_codes) {
  auto r = run("prove torus --dims 3x4 --model general --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"minimum_steps\": 4"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("DRAT"), std::string::npos) << r.output;
  r = run("prove torus --dims 3x3 --model pairing --engine z3 --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"minimum_steps\": 3"), std::string::npos) << r.output;
  EXPECT_EQ(run("prove torus --dims 3x3 --model general --engine z3").code, 2);
  EXPECT_NE(r.output.find("\"time_dependent_optimum\": 2"), std::string::npos) << r.output;
  // ⌈(P − 1)/2d⌉ is the time-dependent optimum only on 2-D tori with sides >= 3 ([14]); in 3-D it is the counting
  // bound alone, and the output says so
  r = expect_run("prove torus --dims 2x2x2 --model general --json", 0, "\"time_dependent_optimum\": null");
  EXPECT_NE(r.output.find("\"minimum_steps\": 3"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"counting_bound\": 2"), std::string::npos) << r.output;
  expect_run("prove torus --dims 2x2x2 --model general", 0, "minimum 3 steps (counting bound 2;");
  EXPECT_EQ(run("prove torus --dims 3x3 --model sometimes").code, 2);
  EXPECT_EQ(run("prove torus --dims 9x9").code, 2);  // more than 64 PUs
  // One question at a time: 3 x 3 completes in 2 steps in the general model (sat), not with pairings (unsat, certified).
  expect_run("prove torus --dims 3x3 --model general --steps 2", 0, "within 2 steps: sat");
  r = expect_run("prove torus --dims 3x3 --model pairing --steps 2 --json", 1, "\"answer\": \"unsat\"");
  EXPECT_NE(r.output.find("DRAT proof checked"), std::string::npos) << r.output;
  EXPECT_EQ(run("prove torus --dims 3x3 --steps 2 --engine z3").code, 2);
  EXPECT_EQ(run("prove torus --dims 3x3 --steps 1000").code, 2);
  // Out of time at the counting bound (3 x 9, general: 7 steps are not settled in a second; the minimum is 8): exit 3
  // with both bounds, the upper one 8 from the catalogue's table (formats/torus_catalogue.hpp), simulated. (4 x 5
  // served here until the arrival count settled it within the second.)
  r = expect_run("prove torus --dims 3x9 --model general --timeout 1 --json", 3, "\"minimum_steps\": null");
  EXPECT_NE(r.output.find("\"proven_lower_bound\": 7"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"upper_bound\": 8\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("catalogued table torus_3x9_general_8_steps.json completes in 8 steps"), std::string::npos) << r.output;
  // an uncatalogued torus: a local-search table or a table invariant under translations (SAT, small groups of the
  // budget); what the second's searches reach depends on the machine's load
  r = expect_run("prove torus --dims 3x13 --model general --timeout 1 --json", 3, "\"minimum_steps\": null");
  EXPECT_TRUE(std::regex_search(r.output, std::regex("local-search witness|witness invariant under [0-9]+ (translations|automorphisms)"))) << r.output;
  // in the pairing model the tabu search gives that table
  r = expect_run("prove torus --dims 3x13 --model pairing --timeout 1 --json", 3, "\"minimum_steps\": null");
  EXPECT_TRUE(std::regex_search(r.output, std::regex("tabu-search witness|witness invariant under [0-9]+ (translations|automorphisms)"))) << r.output;
  EXPECT_EQ(r.output.find("local-search witness"), std::string::npos) << r.output;
  EXPECT_EQ(run("prove torus --dims 6x6 --model general --timeout 0.001").code, 3);  // unknown: the budget ran out
  // The parity bound: on 6 x 6 a packet at even distance comes in even steps only, and 17 such packets do not fit the
  // 16 slots of steps 2, 4, 6, 8 — 9 steps are refuted by that count alone, and the answer says so (no search).
  r = expect_run("prove torus --dims 6x6 --model general --steps 9", 1, "unsat by the parity count alone");
  r = expect_run("prove torus --dims 6x6 --model general --timeout 0.001 --json", 3, "\"parity_bound\": 10");
  EXPECT_NE(r.output.find("\"counting_bound\": 9"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"proven_lower_bound\": 10"), std::string::npos) << r.output;
  // 2 x 2 x 6 general: the parity bound 5 (counting bound 4) is the minimum, met by a table invariant under translations.
  r = expect_run("prove torus --dims 2x2x6 --model general --json", 0, "\"minimum_steps\": 5");
  EXPECT_NE(r.output.find("\"parity_bound\": 5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"certificate\": \"parity bound\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the parity bound"), std::string::npos) << r.output;
  // Each step count is first asked of the translation-invariant tables: 4 x 5 general is proven 6 in seconds (5 unsat,
  // DRAT checked; 6 by a table invariant under translations), where the full query at 6 takes minutes.
  r = expect_run("prove torus --dims 4x5 --model general --timeout 120", 0, "proven, minimum 6 steps");
  EXPECT_NE(r.output.find("witness invariant under"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("5 steps: unsat, DRAT proof checked"), std::string::npos) << r.output;
}

TEST(cli_torus, prove_with_k_packets_per_pu) {
  // two packets per PU, none held: 2 x 5 needs the counting bound ceil(2(P - 1)/4) = 5 (Theorem 3's count)
  auto r = expect_run("prove torus --dims 2x5 --model pairing --packets 2 --json", 0, "\"minimum_steps\": 5");
  EXPECT_NE(r.output.find("\"packets\": 2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"counting_bound\": 5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"time_dependent_optimum\": null"), std::string::npos) << r.output;
  expect_run("prove torus --dims 2x5 --model general --packets 2", 0, "2x5 torus, general model, 2 packets per PU: proven, minimum 5 steps (counting bound 5;");
  r = expect_run("prove torus --dims 2x5 --model general --packets 2 --steps 4 --json", 1, "\"answer\": \"unsat\"");
  EXPECT_NE(r.output.find("by the counting bound alone"), std::string::npos) << r.output;
  const std::string file = testing::TempDir() + "torus-2x5-2-packets.json";
  expect_run("prove torus --dims 2x5 --model pairing --packets 2 --steps 5 --witness " + file, 0, "2 packets per PU, within 5 steps: sat");
  expect_run("simulate torus " + file, 0, "2 packet(s) per PU): complete after 5 steps");
  std::remove(file.c_str());
  // 4 x 5: Theorem 3's count 10 with two packets, no packet held, by a pairing table (CaDiCaL's witness, 13 s): its
  // pairings form two Hamiltonian cycles, as in the theorem-book row torus.thm3_thm4
  r = expect_run("simulate torus " + data("torus_4x5_pairing_2_packets_10_steps.json"), 0, "2 packet(s) per PU): complete after 10 steps");
  EXPECT_NE(r.output.find("counting bound with 2 packets per PU: ceil(2(P - 1)/4) = 10 steps"), std::string::npos) << r.output;
  // --emit: three packets on 3 x 3 need 8 steps with pairings; the query of 7 steps and its proof re-check, the
  // manifest names the k-packet CNF
  const std::string dir = testing::TempDir() + "torus-3x3-3-packets";
  expect_run("prove torus --dims 3x3 --model pairing --packets 3 --emit " + dir, 0, "3 packets per PU: proven, minimum 8 steps");
  expect_run("check-proof " + dir + "/torus-3x3-pairing-3-packets-lower.cnf " + dir + "/torus-3x3-pairing-3-packets-lower.drat", 0, "accepted");
  expect_run("simulate torus " + dir + "/torus-3x3-pairing-3-packets-witness.json", 0, "3 packet(s) per PU): complete after 8 steps");
  const std::string manifest = read_file(dir + "/torus-3x3-pairing-3-packets.manifest.json");
  EXPECT_NE(manifest.find("\"packets\": 3"), std::string::npos) << manifest;
  EXPECT_NE(manifest.find("torus_packets_cnf"), std::string::npos) << manifest;
  // the local search with k packets: a table file with its packets and injections, simulated; 4 x 4 with two packets
  // reaches the counting bound 8 (Section 3.1's count); more than 2d packets, or --packets with another --algo, refused
  const std::string searched = testing::TempDir() + "torus-4x4-local-2-packets.json";
  r = expect_run("generate torus --dims 4x4 --algo local-search --packets 2 --seconds 30 -o " + searched, 0,
                 "local search (pairing model, 2 packets per PU, seed 1): 8 steps");
  expect_run("simulate torus " + searched, 0, "(P = 16, 2 packet(s) per PU): complete after 8 steps");
  std::remove(searched.c_str());
  expect_run("simulate torus --dims 3x3 --algo local-search --model general --packets 2 --seconds 5", 0, "2 packet(s) per PU): complete after 4 steps");
  expect_run("generate torus --dims 3x3 --algo local-search --packets 5", 2, "--packets 5: at most 2d = 4 on the 3x3 torus");
  expect_run("generate torus --dims 4x4 --algo hamiltonian --packets 3", 2, "--packets: expected 1 or 2, got 3");
  // tables invariant under translations with k packets: 3 x 4 general with three packets in 9 steps (the counting
  // bound); the stored table (found so, 0.8 s) simulates in 9; point groups are refused with k packets
  r = expect_run("generate torus --dims 3x4 --algo invariant --model general --packets 3 --steps 9 --seconds 120", 0, "\"packets\": 3");
  EXPECT_NE(r.output.find("invariant search (general model, 3 packets per PU, 9 steps)"), std::string::npos) << r.output;
  expect_run("simulate torus " + data("torus_3x4_general_3_packets_9_steps.json"), 0, "(P = 12, 3 packet(s) per PU): complete after 9 steps");
  expect_run("generate torus --dims 3x4 --algo invariant --packets 3 --steps 9 --groups all", 2, "translation groups only");
  expect_run("prove torus --dims 2x5 --packets 5", 2, "--packets 5: at most 2d = 4");
  expect_run("prove torus --dims 3x3 --packets 2 --engine z3", 2, "--packets: only with --engine sat");
  EXPECT_EQ(run("prove torus --dims 3x3 --packets 0").code, 2);
}

TEST(cli_torus, first_arrivals_as_csv) {
  const std::string csv = testing::TempDir() + "arrivals.csv";
  auto r = run("simulate torus --dims 4x4 --algo hamiltonian --arrivals " + csv);
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "pu,packet,first_step");
  std::size_t rows = 0, own = 0, latest = 0;
  while (std::getline(in, line)) {
    ++rows;
    const std::size_t step = std::stoul(line.substr(line.rfind(',') + 1));
    own += step == 0;
    latest = std::max(latest, step);
  }
  EXPECT_EQ(rows, 16u * 32u);  // 16 PUs x 32 packets (2 per PU)
  EXPECT_EQ(own, 32u);         // every PU holds its own two packets from the start
  EXPECT_EQ(latest, 8u);       // Theorem 2: 4·4/2 steps
  EXPECT_EQ(run("simulate torus --dims 64x64 --arrivals " + csv).code, 2);  // too many entries
}

TEST(cli_torus, prove_two_cycles_enumerates_theorem_1s_setting) {
  const auto r = run("prove two-cycles --P 8");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("least gossip time 3 steps"), std::string::npos) << r.output;
  EXPECT_EQ(run("prove two-cycles --P 4").code, 2);
  EXPECT_EQ(run("prove two-cycles --P 14").code, 2);
}

TEST(cli_verify, dance_rows_all_hold) {
  const auto r = run("verify --only dance");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("0 violated, 0 unknown"), std::string::npos) << r.output;
  // an empty --only (a shell variable left unset, say) is a usage error, not the whole book
  expect_run("verify --only ''", 2, "--only: empty: name a module or a claim id prefix");
  expect_run("verify --only nosuch", 2, "--only: no claim matches 'nosuch'");
}

TEST(cli_verify, rows_come_in_book_order_for_any_number_of_jobs) {
  // The printed-table rows of the dance paper, on one thread and on four: the same rows in the same order, with the
  // same verdicts (the times aside).
  auto rows = [](const std::string& output) {
    std::vector<std::string> out;
    const std::regex row("(^|\n)(dance\\.table\\.[A-Za-z0-9]+) +([a-z]+) ");
    for (auto it = std::sregex_iterator(output.begin(), output.end(), row); it != std::sregex_iterator(); ++it)
      out.push_back((*it)[2].str() + " " + (*it)[3].str());
    return out;
  };
  const auto one = run("verify --only dance.table --jobs 1");
  const auto four = run("verify --only dance.table --jobs 4");
  ASSERT_EQ(one.code, 0) << one.output;
  ASSERT_EQ(four.code, 0) << four.output;
  EXPECT_EQ(rows(one.output).size(), 9u) << one.output;
  EXPECT_EQ(rows(one.output), rows(four.output)) << four.output;
  EXPECT_NE(four.output.find("9 claims: 9 hold, 0 violated, 0 unknown, 0 informational ("), std::string::npos) << four.output;
  EXPECT_NE(four.output.find(" on 4 threads)"), std::string::npos) << four.output;
  EXPECT_EQ(one.output.find(" threads)"), std::string::npos) << one.output;
  expect_run("verify --only dance.table --json --jobs 3", 0, "\"jobs\": 3");
  EXPECT_EQ(run("verify --jobs 0").code, 2);
  EXPECT_EQ(run("verify --jobs 65").code, 2);
}

TEST(cli_verify, torus_catalogue_row_holds) {
  // every stored table of docs/torus-limits.md simulated in its stated steps (milliseconds: no solver)
  const auto r = run("verify --only torus.sat.catalogue");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("1 claims: 1 hold, 0 violated, 0 unknown"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("every table simulated in exactly its stated steps"), std::string::npos) << r.output;
}

TEST(cli_verify, the_evidence_row_fails_on_damaged_evidence) {
  // A copy of core/data with one stored proof swapped for another's, then with a cell's lower end raised above its
  // evidence: each must turn the row violated (exit 1), and the intact copy holds.
  namespace fs = std::filesystem;
  const fs::path data = fs::path(DANCECARD_CATALOGUE_DIR).parent_path();
  const fs::path copy = fs::path(testing::TempDir()) / "evidence-copy";
  fs::remove_all(copy);
  fs::create_directories(copy);
  fs::copy(data / "torus_evidence.json", copy / "torus_evidence.json");
  fs::copy(data / "torus_proofs", copy / "torus_proofs", fs::copy_options::recursive);
  setenv("DANCECARD_DATA_DIR", copy.c_str(), 1);  // the commands run below inherit it
  const auto verify = [] { return run("verify --only torus.catalogue.evidence"); };
  auto r = verify();
  EXPECT_EQ(r.code, 0) << r.output;
  fs::copy_file(copy / "torus_proofs/torus_3x4_general_3_steps.drat.gz", copy / "torus_proofs/torus_4x4_general_4_steps.drat.gz",
                fs::copy_options::overwrite_existing);
  r = verify();
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("4x4 general: torus_proofs/torus_4x4_general_4_steps.drat.gz is not the proof recorded"), std::string::npos) << r.output;
  fs::copy_file(data / "torus_proofs/torus_4x4_general_4_steps.drat.gz", copy / "torus_proofs/torus_4x4_general_4_steps.drat.gz",
                fs::copy_options::overwrite_existing);
  std::string text = read_file((copy / "torus_evidence.json").string());
  const std::string parity = R"("torus": "6x6", "model": "general", "lower": 10)";  // the parity bound, upper 11
  ASSERT_NE(text.find(parity), std::string::npos);
  text.replace(text.find(parity), parity.size(), R"("torus": "6x6", "model": "general", "lower": 11)");
  std::ofstream(copy / "torus_evidence.json") << text;
  r = verify();
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("6x6 general: lower 11 is not the parity bound 10"), std::string::npos) << r.output;
  unsetenv("DANCECARD_DATA_DIR");
  fs::remove_all(copy);
}

TEST(cli, check_proof_with_formula_and_proof_both_from_stdin_is_a_usage_error) {
  expect_run("check-proof - - < /dev/null", 2, "cannot both come from stdin");
}

TEST(cli, a_negative_max_witnesses_is_a_usage_error_not_unlimited) {
  EXPECT_EQ(run("check dance --max-witnesses -1 " + data("k4.json")).code, 2);
  EXPECT_EQ(run("check directed --max-witnesses -1 -").code, 2);
  EXPECT_EQ(run("check dance --max-witnesses 0 " + data("k4.json")).code, 0);
}

TEST(cli_torus, a_switch_a_billion_steps_away_is_refused_at_once) {
  const std::string file = testing::TempDir() + "late-switch.json";
  std::ofstream(file) << R"({"format": "dancecard.torus-routing/1", "dims": [2, 2], "packets": 1,
      "forward": [[null, null, null, null], [null, null, null, null], [null, null, null, null], [null, null, null, null]],
      "inject": [[0, null, null, null], [0, null, null, null], [0, null, null, null], [0, null, null, null]],
      "switches": [[0, 0, 1000000000, 1]]})";
  expect_run("simulate torus " + file, 2, "switches[0][2]: step 1000000000 is later than 80");
  expect_run("simulate torus " + file + " --max-switch-step 100", 2, "(the limit given)");
  expect_run("simulate torus --dims 2x2 --max-switch-step 100", 2, "--max-switch-step: only with a table file");
  std::remove(file.c_str());
}

TEST(cli, output_paths_are_checked_before_the_work) {
  // each of these would run for seconds to minutes before writing; a path that cannot be written is refused first
  const std::string dir = testing::TempDir();
  for (const auto& [command, option] : std::vector<std::pair<std::string, std::string>>{
           {"prove torus --dims 5x5 --witness /no/such/dir/w.json", "--witness"},
           {"simulate torus --dims 8x8x8x8 --algo one-packet --arrivals /no/such/dir/a.csv", "--arrivals"},
           {"simulate online --discipline fifo --instance total-exchange --n 256 --sweep-k 1:3:0.1 --svg " + dir, "--svg"},
           {"property-test dance --cmd 'echo {n}' --junit " + dir, "--junit"},
           {"generate dance --algo searching --n 4 -o /no/such/dir/s.json", "--output"},
           {"draw torus --dims 6x7 --algo partial --out /no/such/dir/p.svg", "--out"}}) {
    SCOPED_TRACE(command);
    const auto r = run(command);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(option), std::string::npos) << r.output;
  }
}

TEST(cli_check, an_endless_binary_input_is_refused_at_its_first_nul_byte) {
  // /dev/zero never ends: read whole, it grew until memory ran out
  expect_run("check dance /dev/zero", 2, "/dev/zero: byte 1 is a NUL byte: not a text file");
  expect_run("check hrel /dev/zero /dev/zero", 2, "a NUL byte");
  expect_run("check-proof /dev/zero", 2, "a NUL byte");
}

TEST(cli_check, an_endless_text_input_stops_at_the_input_limit_as_unknown) {
  // `yes` never ends and has no NUL byte: read whole, it grew until memory ran out
  expect_run("--max-input-mib 1 check dance - < /dev/null", 2, "");  // the option before the command is accepted
  const std::string command = "yes | " + std::string(DANCECARD_EXE) + " check dance --max-input-mib 2 - 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  run_result r{0, ""};
  std::array<char, 4096> buffer{};
  while (std::size_t k = fread(buffer.data(), 1, buffer.size(), pipe)) r.output.append(buffer.data(), k);
  const int status = pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << r.output;
  EXPECT_EQ(WEXITSTATUS(status), 3) << r.output;
  EXPECT_NE(r.output.find("unknown: stdin: larger than 2 MiB, the limit for a file read whole (--max-input-mib N raises it)"),
            std::string::npos) << r.output;
  // the same file within a raised limit is read and judged (here: refused as not JSON)
  const std::string big = testing::TempDir() + "big.json";
  std::ofstream(big) << std::string(3 << 20, ' ') << "x";
  expect_run("check dance --max-input-mib 2 " + big, 3, "big.json: larger than 2 MiB");
  expect_run("check dance --max-input-mib 4 " + big, 2, "big.json");
  expect_run("check dance --max-input-mib 0 " + big, 2, "--max-input-mib");
}

TEST(cli, running_out_of_memory_is_unknown_not_bad_input) {
  // 20,000 people need about 1.6 GB of dances; under a 300 MB address-space limit the allocation fails
  const std::string command = "ulimit -v 300000; " + std::string(DANCECARD_EXE) + " generate dance --algo factorization --n 20000 -o /dev/null 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  std::array<char, 4096> buffer{};
  while (std::size_t k = fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), k);
  const int status = pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_EQ(WEXITSTATUS(status), 3) << out;
  EXPECT_NE(out.find("unknown: ran out of memory"), std::string::npos) << out;
}

TEST(cli_verify, unknown_module_is_a_usage_error) {
  const auto r = run("verify --only tori");
  EXPECT_EQ(r.code, 2);
}

TEST(cli, usage_errors_exit_2) {
  EXPECT_EQ(run("").code, 2);
  EXPECT_EQ(run("frobnicate").code, 2);
  EXPECT_EQ(run("check dance --no-such-flag").code, 2);
  EXPECT_EQ(run("--help").code, 0);
}

}  // namespace
