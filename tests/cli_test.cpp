// The dancecard executable end to end: exit codes 0/1/2/3 and messages that name the problem and its place.
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
#include <set>
#include <sstream>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace dancecard::cli_test;

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
                    malformed_case{"wrong_type_rank.json",
                                   "rounds[1][1][1]: expected a rank (an integer), got a boolean"},
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
  EXPECT_NE(r.output.find("--n: the range runs backwards (9 > 2)"), std::string::npos) << r.output;
  r = run("prove dance --n 2:9");  // the one range grammar names the spelling to use
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("--n: a range is written A..B: '2:9' is 2..9"), std::string::npos) << r.output;
  // a list of items, a step: the sizes in the order written
  r = run("prove dance --n 7,2..6:2 --timeout 60");
  EXPECT_EQ(r.code, 0) << r.output;
  const std::size_t seven = r.output.find("n = 7: T(n) = 7 proven"), two = r.output.find("n = 2:"),
                    four = r.output.find("n = 4:"), six = r.output.find("n = 6: T(n) = 5 proven");
  EXPECT_TRUE(seven < two && two < four && four < six && six != std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("n = 3:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("4 instances: all proven"), std::string::npos) << r.output;
  r = run("prove dance --n 1");
  EXPECT_EQ(r.code, 2);
  r = run("prove dance --n 5 --timeout -1");
  EXPECT_EQ(r.code, 2);
}

TEST(cli_prove, the_checked_certificate_carries_the_bound_unless_the_solver_is_asked_too) {
  auto r = run("prove dance --n 9");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("8 rounds: solver not asked; cutting planes: 1925 bytes, 17 steps, checked"),
            std::string::npos)
      << r.output;
  r = run("prove dance --n 9 --solve-below");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("8 rounds: unsat, counting"), std::string::npos) << r.output;
  r = run("prove directed --n 5 --lower-bound-encoding plain");  // an encoding for the query asks it
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("3 rounds: unsat, plain"), std::string::npos) << r.output;
  // the DRAT re-solve stops at --clausal-max-clauses (n = 5 below: 190 clauses)
  expect_run("prove dance --n 5 --clausal-max-clauses 189", 0, "DRAT: not attempted: the CNF has 190 clauses");
  expect_run("prove dance --n 5 --clausal-max-clauses 190", 0, "lemmas, CaDiCaL");
}

TEST(cli_prove, json_output_has_both_sides) {
  const auto r = run("prove dance --n 5 --json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"status\": \"proven\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"below_optimum\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"asked\": false"), std::string::npos) << r.output;
}

TEST(cli_prove, timeout_gives_exit_3_unknown) {
  // Two triangles at granularity 1/10 with forwarding: 20..23 slots are refuted at once, but the solver alone does
  // not find the 24-slot witness within minutes (docs/performance.md) — with a 1 s budget the answer must be
  // unknown. The forwarding generator's schedule is such a witness, checked: with it (the default) 12/5 is proven.
  const std::string two = testing::TempDir() + "two-triangles-timeout.json";
  ASSERT_EQ(run("instance hrel --family triangles --k 2 --h 2 -o " + two).code, 0);
  auto r = run("prove hrel " + two + " --forwarding -k 10 --timeout 1 --no-generator-witnesses");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("unknown at 24 slots"), std::string::npos) << r.output;
  const std::string witness = testing::TempDir() + "two-triangles-witness.json";
  r = run("prove hrel " + two + " --forwarding -k 10 --timeout 1 --witness " + witness);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("proven, optimum 12/5 (witness: the forwarding schedule"), std::string::npos) << r.output;
  r = run("check hrel " + two + " " + witness);  // the witness written, as the checker reads it
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("24 slots"), std::string::npos) << r.output;
  // Three triangles at 1/5: 12 slots refuted by the certificate, nothing found at 13 within 1 s; the direct
  // schedule's 15 slots (checked) bound the optimum above.
  const std::string three = testing::TempDir() + "three-triangles-timeout.json";
  ASSERT_EQ(run("instance hrel --family triangles --k 3 --h 2 -o " + three).code, 0);
  r = run("prove hrel " + three + " --forwarding -k 5 --timeout 1");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("unknown at 13 slots"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the direct schedule (Section 2.1) gives 15 slots (checked), so the optimum is at most 3"),
            std::string::npos)
      << r.output;
}

TEST(cli_prove, a_tiny_dance_timeout_is_never_a_wrong_verdict) {
  // With 1 ms per query Z3 may still return a quick witness before its timer fires (it did on a clean CI run), and
  // the lower bound is then carried by the checked cutting-planes certificate: proven (0) or unknown (3), never 1.
  const auto r = run("prove dance --n 40 --timeout 0.001");
  EXPECT_TRUE(r.code == 0 || r.code == 3) << r.output;
  if (r.code == 0)
    EXPECT_NE(r.output.find("checked"), std::string::npos) << r.output;
  else
    EXPECT_NE(r.output.find("unknown"), std::string::npos) << r.output;
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
  expect_run("check-proof --json " + dir + "/dance-n5-lower.cp", 0, "\"instance\": \"dance n=5 rounds=4\"");
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
  const std::string proof = write("abcd.drat", std::string("a\x02\x00"
                                                           "a\x06\x00"
                                                           "a\x00",
                                                           8));
  expect_run("check-proof " + cnf + " " + proof, 0, "binary proof of 3 lemmas");
  expect_run("check-proof " + cnf + " - < " + proof, 0, "accepted: unsatisfiable");
  // (¬a) first: not RUP, not RAT — rejected, at item 1
  expect_run("check-proof " + cnf + " " +
                 write("flipped.drat", std::string("a\x03\x00"
                                                   "a\x06\x00"
                                                   "a\x00",
                                                   8)),
             1, "rejected at proof item 1");
  // an item that never ends: malformed, exit 2, with the file and the item
  expect_run("check-proof " + cnf + " " +
                 write("cut.drat", std::string("a\x02\x00"
                                               "a\x06",
                                               5)),
             2, "cut.drat: item 2");
}

TEST(cli, check_proof_ignore_unit_deletions_accepts_what_drat_trim_accepts) {
  // (1), (¬1 ∨ 2), (¬2 ∨ 3), (¬2 ∨ ¬3); the proof deletes the reason of the unit 2, then relies on it (as Glucose
  // does).
  const std::string dir = testing::TempDir();
  const std::string cnf = dir + "units.cnf", proof = dir + "units.drat";
  std::ofstream(cnf) << "p cnf 3 4\n1 0\n-1 2 0\n-2 3 0\n-2 -3 0\n";
  std::ofstream(proof) << "d -1 2 0\n3 0\n0\n";
  expect_run("check-proof " + cnf + " " + proof, 1, "--ignore-unit-deletions");
  expect_run("check-proof --ignore-unit-deletions " + cnf + " " + proof, 0, "1 deletions of top-level reasons ignored");
  expect_run("check-proof --ignore-unit-deletions " + cnf, 2, "is for DRAT proofs");
  // the same reports as JSON
  auto r =
      expect_run("check-proof --json --ignore-unit-deletions " + cnf + " " + proof, 0, "\"verdict\": \"accepted\"");
  EXPECT_NE(r.output.find("\"ignored_deletions\": 1"), std::string::npos) << r.output;
  r = expect_run("check-proof --json " + cnf + " " + proof, 1, "\"verdict\": \"rejected\"");
  EXPECT_NE(r.output.find("\"line\": 3"), std::string::npos) << r.output;
}

TEST(cli_prove, directed_optimum_with_certificates) {
  const auto r = run("prove directed --n 2..7 --clausal-budget 10");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("n = 7: n-1 = 6 proven"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("DRAT: "), std::string::npos) << r.output;
}

TEST(cli_check, directed_schedules_in_both_models) {
  auto r =
      run("generate directed --algo openmpi --n 6 | " + std::string(DANCECARD_EXE) + " check directed --half-duplex -");
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

TEST(cli_check, every_check_reports_its_bound_and_the_gap) {
  // the sequential algorithm needs n rounds for n = 6 (one above T(6) = 5); the factorization meets T(6)
  const std::string exe = DANCECARD_EXE;
  auto r = run("generate dance --algo sequential --n 6 | " + exe + " check dance -");
  EXPECT_EQ(r.code, 0) << r.output;
  const std::size_t rounds = std::stoul(r.output.substr(r.output.find("\nrounds ") + 8));
  EXPECT_GT(rounds, 5u) << r.output;
  EXPECT_NE(r.output.find("; optimum T(6) = 5 (Propositions 1 and 5: n - 1 for even n, n for odd n); " +
                          std::to_string(rounds - 5) + " above"),
            std::string::npos)
      << r.output;
  r = run("generate dance --algo sequential --n 6 | " + exe + " check dance --max-gap 0 -");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("violated: " + std::to_string(rounds - 5) + " above the optimum T(6), more than --max-gap 0"),
            std::string::npos)
      << r.output;
  expect_run("generate dance --algo factorization --n 6 | " + exe + " check dance --max-gap 0 -", 0,
             "rounds 5; optimum T(6) = 5 (");
  r = run("generate dance --algo sequential --n 6 | " + exe + " check dance --json --max-gap 0 -");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("\"exceeds_max_gap\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"verdict\": \"violated\""), std::string::npos) << r.output;
  expect_run("check dance --max-gap x " + data("k4.json"), 2, "--max-gap: 'x' is not a number");
  // directed: n - 1 rounds; h-relations: the counting lower bound, exact fractions
  expect_run("generate directed --algo openmpi --n 6 | " + exe + " check directed --json -", 0,
             "\"bound_name\": \"optimum n - 1\"");
  r = expect_run("check hrel --json " + data("hrel_one.json") + " " + data("hrel_forwarding.json"), 0,
                 "\"makespan\": \"3/2\"");
  EXPECT_NE(r.output.find("\"bound_name\": \"counting lower bound\""), std::string::npos) << r.output;
  expect_run("check hrel --max-gap 1/2 " + data("hrel_one.json") + " " + data("hrel_forwarding.json"), 0,
             "makespan 3/2; counting lower bound = 1 (");
  expect_run("check hrel --max-gap 1/3 " + data("hrel_one.json") + " " + data("hrel_forwarding.json"), 1,
             "more than --max-gap 1/3");
  // an invalid schedule is violated by its witnesses; no gap is reported for it
  r = run("check dance " + data("k4_broken.json"));
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_EQ(r.output.find("above"), std::string::npos) << r.output;
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
  std::ofstream(huge) << R"({"format": "dancecard.hrel-schedule/1", "P": 3, )"
                      << R"("slots": [{"duration": 4611686018427387904, "transfers": []},)"
                      << R"({"duration": 4611686018427387904, "transfers": []}]})";
  r = run("check hrel " + data("hrel_one.json") + " " + huge);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("exact arithmetic overflow: slot 1: rational: overflow"), std::string::npos) << r.output;
  r = run("check dance " + data("n_overflow.json"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("line 1, column 38: invalid JSON: number overflow parsing '1e999'"), std::string::npos)
      << r.output;
}

TEST(cli_hrel, instance_generate_check_round_trip_for_every_family) {
  const std::string dir = testing::TempDir();
  for (const char* family : {"triangles", "triangle-copies", "random", "skewed", "regular"}) {
    const std::string inst = dir + "hrel-" + family + ".json";
    auto r = run(std::string("instance hrel --family ") + family + " --P 20 --k 3 --h 8 --l 2 --extra 3 --seed 5 -o " +
                 inst);
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
  r = run("prove hrel " + two + " --forwarding -k 10 --hint forwarding --timeout 60 --certificate " + dir +
          "two.cp --json");
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
  // Three triangles at 1/5 with forwarding: 13/5, with a stored 13-slot witness (one the time reversal does not keep)
  // as the hint, checked, and 12 slots refuted by the counting certificate.
  const std::string nine = dir + "nine-triangles.json";
  ASSERT_EQ(run("instance hrel --family triangles --k 3 --h 2 -o " + nine).code, 0);
  r = run("prove hrel " + nine + " --forwarding -k 5 --hint " + data("hrel_nine_13_fifths.json"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("proven, optimum 13/5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("12 slots refuted by a checked cutting-planes certificate"), std::string::npos) << r.output;
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
  r = run("simulate online --discipline fifo --instance total-exchange --n 32 --seeds 2 --sweep-k 1..2:0.5 --svg " +
          svg);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(read_file(svg).find("<svg"), std::string::npos);
  EXPECT_EQ(run("simulate online --discipline lifo").code, 2);
  EXPECT_EQ(run("simulate online --discipline ocpc --protocol fifo-staged").code, 2);
  EXPECT_EQ(run("simulate online --discipline fifo --n 1").code, 2);
  EXPECT_EQ(run("simulate online --discipline fifo --sweep-k 3..1:0.1").code, 2);
  EXPECT_NE(run("simulate online --discipline fifo --sweep-k 1:3:0.1")
                .output.find("a range is written A..B:S: '1:3:0.1' is 1..3:0.1"),
            std::string::npos);
  EXPECT_EQ(run("simulate online --discipline fifo --instance difficult --h 50").code, 2);
}

TEST(cli_verify, quick_dance_rows_hold) {
  // The slow rows too run in the theorem_book test, the whole book.
  const auto r = run("verify --only dance --quick");
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
  EXPECT_NE(four.output.find("9 claims: 9 hold, 0 violated, 0 unknown, 0 informational ("), std::string::npos)
      << four.output;
  EXPECT_NE(four.output.find(" on 4 threads)"), std::string::npos) << four.output;
  EXPECT_EQ(one.output.find(" threads)"), std::string::npos) << one.output;
  expect_run("verify --only dance.table --json --jobs 3", 0, "\"jobs\": 3");
  EXPECT_EQ(run("verify --jobs 0").code, 2);
  EXPECT_EQ(run("verify --jobs 257").code, 2);  // --jobs is 1..256 in every command
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
  fs::copy_file(copy / "torus_proofs/torus_3x4_general_3_steps.drat.gz",
                copy / "torus_proofs/torus_4x4_general_4_steps.drat.gz", fs::copy_options::overwrite_existing);
  r = verify();
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("4x4 general: torus_proofs/torus_4x4_general_4_steps.drat.gz is not the proof recorded"),
            std::string::npos)
      << r.output;
  fs::copy_file(data / "torus_proofs/torus_4x4_general_4_steps.drat.gz",
                copy / "torus_proofs/torus_4x4_general_4_steps.drat.gz", fs::copy_options::overwrite_existing);
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

TEST(cli, output_paths_are_checked_before_the_work) {
  // each of these would run for seconds to minutes before writing; a path that cannot be written is refused first
  const std::string dir = testing::TempDir();
  for (const auto& [command, option] : std::vector<std::pair<std::string, std::string>>{
           {"prove torus --dims 5x5 --witness /no/such/dir/w.json", "--witness"},
           {"simulate torus --dims 8x8x8x8 --algo one-packet --arrivals /no/such/dir/a.csv", "--arrivals"},
           {"simulate online --discipline fifo --instance total-exchange --n 256 --sweep-k 1..3:0.1 --svg " + dir,
            "--svg"},
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
  const run_result r = run_shell("yes | " + std::string(DANCECARD_EXE) + " check dance --max-input-mib 2 -");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(
      r.output.find("unknown: stdin: larger than 2 MiB, the limit for a file read whole (--max-input-mib N raises it)"),
      std::string::npos)
      << r.output;
  // the same file within a raised limit is read and judged (here: refused as not JSON)
  const std::string big = testing::TempDir() + "big.json";
  std::ofstream(big) << std::string(3 << 20, ' ') << "x";
  expect_run("check dance --max-input-mib 2 " + big, 3, "big.json: larger than 2 MiB");
  expect_run("check dance --max-input-mib 4 " + big, 2, "big.json");
  expect_run("check dance --max-input-mib 0 " + big, 2, "--max-input-mib");
}

TEST(cli_check_proof, a_file_naming_variable_16777216_needs_megabytes_not_gigabytes) {
  // Per-variable memory grew with the largest number named (about 1.8 GB for this 60-byte formula); variables are now
  // renumbered as they occur. Under a 400 MB address-space limit the refutation must still be checked.
  const std::string dir = testing::TempDir();
  std::ofstream(dir + "huge-var.cnf") << "p cnf 16777216 2\n16777216 0\n-16777216 0\n";
  std::ofstream(dir + "huge-var.drat") << "0\n";
  const run_result r = run_shell("ulimit -v 400000; " + std::string(DANCECARD_EXE) + " check-proof " + dir +
                                 "huge-var.cnf " + dir + "huge-var.drat");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("accepted: unsatisfiable (16777216 variables"), std::string::npos) << r.output;
}

TEST(cli, running_out_of_memory_is_unknown_not_bad_input) {
  // 20,000 people need about 1.6 GB of dances; under a 300 MB address-space limit the allocation fails
  const run_result r = run_shell("ulimit -v 300000; " + std::string(DANCECARD_EXE) +
                                 " generate dance --algo factorization --n 20000 -o /dev/null");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("unknown: ran out of memory"), std::string::npos) << r.output;
}

TEST(cli_verify, unknown_module_is_a_usage_error) {
  const auto r = run("verify --only tori");
  EXPECT_EQ(r.code, 2);
}

TEST(cli, an_unknown_command_is_named_with_the_closest_one) {
  expect_run("check dnce " + data("k4.json"), 2, "check 'dnce': no such command; did you mean 'check dance'?");
  expect_run("--max-input-mib 5 chek dance", 2, "'chek': no such command; did you mean 'check'?");
  const auto r = expect_run("prove zzzzzzzz", 2, "prove 'zzzzzzzz': no such command (commands: ");
  EXPECT_EQ(r.output.find("did you mean"), std::string::npos) << r.output;     // nothing close: no guess
  expect_run("check dance --max-witnesses 3 " + data("k4.json"), 0, "holds");  // an option's value is not a command
}

TEST(cli, help_names_values_as_users_read_them) {
  const auto r = expect_run("verify --help", 0, "--jobs N in 1..256");
  for (const char* cli11_type : {"UINT", "TEXT:FILE", "FLOAT"})
    EXPECT_EQ(r.output.find(cli11_type), std::string::npos) << r.output;
  const auto g = expect_run("generate torus --help", 0, "-o,--output FILE");
  EXPECT_NE(g.output.find("--packets N>=1"), std::string::npos) << g.output;
  // --timeout, --jobs and --seed are declared once: the same words and checks in every command
  for (const char* command : {"prove dance", "prove torus", "prove hrel"})
    expect_run(std::string(command) + " --help", 0, "--timeout SECONDS");
  for (const char* command : {"prove dance", "prove torus", "verify", "generate torus"})
    expect_run(std::string(command) + " --help", 0, "-j,--jobs N in 1..256");
  expect_run("prove dance --n 5 --timeout 0", 2, "--timeout: the timeout must be positive");
  expect_run("prove torus --dims 3x3 --timeout x", 2, "--timeout: 'x' is not a number of seconds");
  expect_run("verify --jobs 0", 2, "--jobs");
  // --quiet, before or after the command's name
  expect_run("--quiet verify --only dance.def1 --list", 0, "dance.def1");
  expect_run("verify --only dance.def1 --list -q", 0, "dance.def1");
}

TEST(cli_verify, only_takes_any_prefix_of_a_claim_id) {
  // the help says "a claim id prefix": dance.prop selects dance.prop1.lower … dance.prop5.optimal, not nothing
  const auto r = expect_run("verify --only dance.prop --list", 0, "dance.prop1.lower");
  EXPECT_NE(r.output.find("dance.prop5.optimal"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("dance.def1"), std::string::npos) << r.output;
}

TEST(cli_verify, the_quick_book_leaves_out_the_slow_claims_and_keeps_every_kind_of_check) {
  const auto all = expect_run("verify --list", 0, "torus.thm7");
  const auto quick = expect_run("verify --list --quick", 0, "dance.def1");
  for (const char* slow : {"torus.thm7 ", "collective.sccl_24_8_8", "dance.prop5.optimal", "torus.sat.k_packets"})
    EXPECT_EQ(quick.output.find(slow), std::string::npos) << slow;
  // The method column (after the 30 characters of the id and a space, 20 wide) of every listed row.
  auto methods = [](const std::string& listing) {
    std::set<std::string> out;
    std::istringstream lines(listing);
    for (std::string line; std::getline(lines, line);) {
      if (line.size() < 51) continue;
      std::string m = line.substr(31, 20);
      m.erase(m.find_last_not_of(' ') + 1);
      out.insert(m);
    }
    return out;
  };
  const std::set<std::string> kinds{"printed table", "generator + checker", "formula", "simulation",
                                    "SMT",           "certificate"};
  EXPECT_EQ(methods(all.output), kinds);
  EXPECT_EQ(methods(quick.output), kinds);
  expect_run("verify --only torus.thm7.trails --quick", 2, "every claim it matches is slow");
}

TEST(cli, usage_errors_exit_2) {
  EXPECT_EQ(run("").code, 2);
  EXPECT_EQ(run("frobnicate").code, 2);
  EXPECT_EQ(run("check dance --no-such-flag").code, 2);
  EXPECT_EQ(run("--help").code, 0);
}

}  // namespace
