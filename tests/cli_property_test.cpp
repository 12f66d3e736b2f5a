// `dancecard property-test dance|torus` end to end: external schedulers, broken on purpose, found at their smallest
// failing size; the rerun line, output caps and usage errors.
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
#include <string>

#include "cli_support.hpp"

namespace {

using namespace dancecard::cli_test;

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
  // a clean report: no kind said twice, and every test case named once however often the campaign drew it
  EXPECT_EQ(xml.find("violated: violated:"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("timeout: timeout:"), std::string::npos) << xml;
  std::set<std::string> names;
  for (std::size_t at = xml.find("name=\"n="); at != std::string::npos; at = xml.find("name=\"n=", at + 1)) {
    const std::string name = xml.substr(at, xml.find('"', at + 6) - at);
    EXPECT_TRUE(names.insert(name).second) << name << " reported twice in\n" << xml;
  }
  EXPECT_FALSE(names.empty()) << xml;
  // the same campaign as JSON: the verdict, the smallest failing n and every case once
  const auto j = run(std::string("property-test dance --json --cmd '") + BROKEN_SCHEDULER + " " + GetParam().bug +
                     " {n}' --n-max 40 --runs 60 --seed 7 --timeout 2 --save-dir " + save);
  EXPECT_EQ(j.code, 1) << j.output;
  EXPECT_NE(j.output.find("\"format\": \"dancecard.property-test/1\""), std::string::npos) << j.output;
  EXPECT_NE(j.output.find("\"verdict\": \"violated\""), std::string::npos) << j.output;
  EXPECT_NE(j.output.find("\"smallest_failure\""), std::string::npos) << j.output;
}

INSTANTIATE_TEST_SUITE_P(schedulers, cli_property_test,
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
  auto r =
      run(std::string("property-test dance --cmd '") + BROKEN_SCHEDULER + " none {n}' --n-max 30 --runs 40 --seed 3");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("passed:"), std::string::npos) << r.output;
  r = run(std::string("property-test dance --model directed --cmd '") + DANCECARD_EXE +
          " generate directed --algo openmpi --n {n}' --n-max 30 --runs 40 --seed 3 --max-gap 0");
  EXPECT_EQ(r.code, 0) << r.output;
}

TEST(cli_property_test, dancecards_own_generators_pass) {
  for (const char* algo : {"sequential", "searching", "divide", "factorization"}) {
    std::string generator = DANCECARD_EXE;
    generator.append(" generate dance --algo ").append(algo).append(" --n {n}");
    const auto r = run("property-test dance --cmd '" + generator + "' --n-max 40 --runs 50 --seed 11");
    EXPECT_EQ(r.code, 0) << algo << ": " << r.output;
  }
  const auto r =
      run(std::string("property-test dance --cmd '") + DANCECARD_EXE +
          " generate dance --algo factorization --format matrix --n {n}' --n-max 30 --runs 30 --seed 2 --max-gap 0");
  EXPECT_EQ(r.code, 0) << r.output;
}

TEST(cli_property_test, torus_routers) {
  const std::string exe = DANCECARD_EXE;
  // Section 3.1's rules: every even torus, two packets per PU in P/2 steps — the counting bound itself (gap 0).
  auto r = run("property-test torus --cmd '" + exe +
               " generate torus --dims {dims} --algo hamiltonian' --even --runs 25 --seed 5 --max-gap 0");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("passed: 25 distinct tori"), std::string::npos) << r.output;
  // Without --even the same router refuses 2 x 3 (exit 2): the smallest failing torus, its stderr saved.
  const std::string save = testing::TempDir() + "torus-failures";
  const std::string junit = testing::TempDir() + "torus-junit.xml";
  r = run("property-test torus --cmd '" + exe +
          " generate torus --dims {dims} --algo hamiltonian' --runs 20 --seed 5 --save-dir " + save + " --junit " +
          junit);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("smallest failing torus 2x3 "), std::string::npos) << r.output;
  EXPECT_NE(read_file(save + "/dims2x3.err").find("--dims 2x3 --algo hamiltonian"), std::string::npos);
  EXPECT_NE(read_file(junit).find("name=\"dims=2x3\""), std::string::npos) << read_file(junit);
  // A table that never completes is named with a PU and a packet; the smallest such torus is found by shrinking.
  r = run(std::string("property-test torus --cmd '") + BROKEN_SCHEDULER +
          " torus-rings {dims}' --size-min 3 --runs 10 --seed 1");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("smallest failing torus 3x3 "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("never"), std::string::npos) << r.output;
  r = run(std::string("property-test torus --d 3 --cmd '") + BROKEN_SCHEDULER +
          " torus-wrong-size {dims}' --runs 5 --seed 1");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("wrong-size: asked for the 2x2x2 torus, got 3x2x2"), std::string::npos) << r.output;
  // The zigzag cycles (one packet per PU) are far from the counting bound: caught with --max-gap.
  r = run("property-test torus --cmd '" + exe +
          " generate torus --dims {dims} --algo one-packet' --even --size-min 4 --runs 6 --seed 2 --max-gap 1");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("too-many-steps"), std::string::npos) << r.output;
  EXPECT_EQ(run("property-test torus --cmd 'true'").code, 2);  // no {dims}
  EXPECT_EQ(run("property-test torus --cmd 'echo {dims}' --d 4").code, 2);
  EXPECT_EQ(run("property-test torus --cmd 'echo {dims}' --size-min 9 --size-max 3").code, 2);
}

// The rerun line quotes a command that holds quotes so that the shell reads it back as it was (it put the
// command between bare single quotes), and the line, run again, fails the same way.
TEST(cli_property_test, the_rerun_line_reproduces_a_command_with_quotes) {
  auto r = run("property-test dance --cmd \"sh -c 'exit 3' {n}\" --runs 1 --n-max 4 --seed 1 --save-dir " +
               testing::TempDir() + "/rerun");
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
  const auto r =
      run("property-test dance --cmd 'head -c 3000000 /dev/zero; echo {n}' --runs 1 --n-max 3 --seed 1 --max-output 2 "
          "--save-dir " +
          testing::TempDir() + "/cap");
  EXPECT_EQ(r.code, 1) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("too-much-output: the program printed more than 2 MiB (--max-output)"), std::string::npos)
      << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("--runs 1 --max-output 2\n"), std::string::npos) << r.output.substr(0, 2000);
  // a schedule one round over T(n) with --max-gap 0: the rerun line keeps --max-gap, so it fails again
  const auto gap = run(std::string("property-test dance --cmd '") + DANCECARD_EXE +
                       " generate dance --algo sequential --n {n}' --n-min 6 --n-max 6 --runs 1 --seed 1 --max-gap 0 "
                       "--timeout 20 --save-dir " +
                       testing::TempDir() + "/gap");
  EXPECT_EQ(gap.code, 1) << gap.output;
  EXPECT_NE(gap.output.find("--runs 1 --max-gap 0 --timeout '20'\n"), std::string::npos) << gap.output;
}

// A program that prints forever is stopped once it passes --max-output, and reported as too-much-output, not as the
// timeout it would reach if its output were read to the end (the 600-s budget is never near).
TEST(cli_property_test, endless_output_is_too_much_output_not_a_timeout) {
  const auto r =
      run("property-test dance --cmd 'yes {n}' --runs 1 --n-max 3 --seed 1 --max-output 1 --timeout 600 --save-dir " +
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

}  // namespace
