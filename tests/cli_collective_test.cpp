// The collective commands end to end: generate collective, check collective, property-test collective, export msccl,
// check msccl, import msccl, import hrel and import dance.
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

TEST(cli_collective, every_generator_is_checked_and_damage_is_named) {
  const std::string exe = DANCECARD_EXE;
  for (const char* algo :
       {"ring allgather", "bruck allgather", "recursive-doubling allgather", "pairwise alltoall", "binomial broadcast",
        "binomial reduce", "ring reduce-scatter", "recursive-halving reduce-scatter", "ring allreduce",
        "rabenseifner allreduce", "double-binary-tree allreduce"}) {
    const std::string words = algo;
    const std::string generate = exe + " generate collective --algo " + words.substr(0, words.find(' ')) + " --coll " +
                                 words.substr(words.find(' ') + 1) + " -n 8 --chunks 2";
    const run_result r = run_shell(generate + " | " + exe + " check collective -");
    EXPECT_EQ(r.code, 0) << algo << "\n" << r.output;
    EXPECT_EQ(r.output.find("holds: "), 0u) << algo << "\n" << r.output;
  }
  // --json: the figures, the bound and the gap; ring all-gather on 8 ranks takes 7 steps where the ring's diameter is 4
  run_result r =
      run_shell(exe + " generate collective --algo ring --coll allgather -n 8 | " + exe + " check collective --json -");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"steps\": 7"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"round_bound\": 7"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"gap\": \"3\""), std::string::npos) << r.output;
  r = run_shell(exe + " generate collective --algo ring --coll allgather -n 8 | " + exe +
                " check collective --max-gap 2 -");
  EXPECT_EQ(r.code, 1) << r.output;
  // a reduction left out of the ring all-reduce: the contribution it carried is named as missing
  r = run_shell(exe +
                " generate collective --algo ring --coll allreduce -n 4 | sed 's/, \\[0, 1, 2, \"reduce\"\\]//' | " +
                exe + " check collective -");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("lacks the contribution of rank 1"), std::string::npos) << r.output;
  // bad input: the place, exit 2
  expect_run("generate collective --algo ring --coll alltoall -n 4", 2, "no such algorithm (there are: ");
  expect_run("generate collective --algo recursive-halving --coll reduce-scatter -n 6", 2, "is not a power of two");
  const std::string bad = testing::TempDir() + "bad-collective.json";
  std::ofstream(bad)
      << R"({"format": "dancecard.collective/1", "topology": "ring:3", "collective": {"kind": "allgather"},)"
      << R"( "steps": [{"transfers": [[0, 0, 9]]}]})";
  expect_run("check collective " + bad, 2, "steps[0].transfers[0][2]: rank 9 is out of range");
  // the multi-ring all-gather on a torus: four rings of 4 x 8 at the in-link bound, 31 rounds
  r = run_shell(exe + " generate collective --algo multi-ring --coll allgather --torus 4x8 --chunks 4 | " + exe +
                " check collective --json -");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"round_bound\": 31"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"rounds\": 31"), std::string::npos) << r.output;
  expect_run("generate collective --algo multi-ring --coll allgather --torus 4x8 --chunks 6", 2,
             "must be a positive multiple of the 4 directed rings of 4x8");
  expect_run("generate collective --algo multi-ring --coll allgather", 2, "name the torus with --torus");
  expect_run("generate collective --algo multi-ring --coll alltoall --torus 4x4 --chunks 4", 2, "an allgather");
  expect_run("generate collective --algo ring --coll allgather --torus 4x4", 2, "--torus: only with --algo multi-ring");
  expect_run("generate collective --algo ring --coll allgather", 2, "--ranks: required");
  // every chunk both ways round its cycle: the same 31 rounds in 16 steps instead of 31
  r = run_shell(exe +
                " generate collective --algo bidirectional-multi-ring --coll allgather --torus 4x8 --chunks 4 | " +
                exe + " check collective -");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("16 steps, 31 rounds"), std::string::npos) << r.output;
  expect_run("generate collective --algo bidirectional-multi-ring --coll allgather --torus 4x8 --chunks 2", 2,
             "must be a positive multiple of 4 on 4x8 (2 cycles, P even)");
  expect_run("generate collective --algo bidirectional-multi-ring --coll allgather", 2, "name the torus with --torus");
  // rotated recursive doubling on the 5-cube: the diameter's 5 steps and the in-link bound's 31 rounds at once
  r = run_shell(exe + " generate collective --algo rotated-doubling --coll allgather --ranks 32 --chunks 5 | " + exe +
                " check collective --json -");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"bound\": \"5\""), std::string::npos) << r.output;  // the distance bound on steps
  EXPECT_NE(r.output.find("\"steps\": 5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"rounds\": 31"), std::string::npos) << r.output;
  expect_run("generate collective --algo rotated-doubling --coll allgather --ranks 32 --chunks 4", 2,
             "must be a positive multiple of the 5 dimensions of hypercube:5");
  expect_run("generate collective --algo rotated-doubling --coll allgather --ranks 24 --chunks 4", 2, "a power of two");
}

TEST(cli_collective, property_test_finds_the_smallest_failing_number_of_ranks) {
  const std::string exe = DANCECARD_EXE;
  const std::string good = exe + " generate collective --algo ring --coll allgather -n {ranks}";
  const std::string save = " --save-dir " + testing::TempDir() + "collective-failures";
  run_result r = run("property-test collective --cmd '" + good + "' --n-max 12 --runs 15 --seed 1" + save);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("every output accepted by the checker"), std::string::npos) << r.output;
  // from 5 ranks on, rank 0's first send is left out: found at n = 9 or wherever first, shrunk to 5
  const std::string broken =
      "sh -c \"if [ {ranks} -ge 5 ]; then " + good + " | sed \\\"s/\\[0, 0, 1\\], //\\\"; else " + good + "; fi\"";
  r = run("property-test collective --cmd '" + broken + "' --n-max 12 --runs 15 --seed 1" + save);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("FAILED: smallest failing n = 5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rank 1 lacks chunk 0"), std::string::npos) << r.output;
  // --max-gap on the step bound: the ring's n - 1 steps are far above its diameter
  r = run("property-test collective --cmd '" + good + "' --n-max 12 --runs 15 --seed 1 --max-gap 2" + save);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("too-many-steps"), std::string::npos) << r.output;
  expect_run("property-test collective --cmd 'true'", 2, "--cmd: the command must contain {ranks}");
}

TEST(cli_collective, export_msccl_and_check_msccl_with_exit_codes) {
  const std::string exe = DANCECARD_EXE;
  const std::string dir = testing::TempDir();
  for (const char* algo : {"ring allgather", "bruck allgather", "pairwise alltoall", "ring reduce-scatter",
                           "ring allreduce", "rabenseifner allreduce"}) {
    const std::string words = algo;
    const run_result r =
        run_shell(exe + " generate collective --algo " + words.substr(0, words.find(' ')) + " --coll " +
                  words.substr(words.find(' ') + 1) + " -n 8 | " + exe + " export msccl | " + exe + " check msccl -");
    EXPECT_EQ(r.code, 0) << algo << "\n" << r.output;
    EXPECT_EQ(r.output.find("holds: MSCCL-IR "), 0u) << algo << "\n" << r.output;
  }
  const std::string xml = dir + "ring8.xml";
  run_result r =
      run_shell(exe + " generate collective --algo ring --coll allgather -n 8 | " + exe + " export msccl -o " + xml);
  ASSERT_EQ(r.code, 0) << r.output;
  r = run_shell(exe + " check msccl --json " + xml);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"transfers\": 56"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"gap\": \"0\""), std::string::npos) << r.output;  // 7 chunks in, (n - 1)·C = 7
  // every GPU's last receive dropped: the sends to it are unmatched (exit 1, the step named)
  r = run_shell("grep -v 's=\"6\" type=\"r\"' " + xml + " | " + exe + " check msccl --json -");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("\"unmatched\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"tb\""), std::string::npos) << r.output;
  // a collective without a postcondition in the format: unknown (exit 3)
  r = run_shell("sed 's/coll=\"allgather\"/coll=\"broadcast\"/' " + xml + " | " + exe + " check msccl -");
  EXPECT_EQ(r.code, 3) << r.output;
  // bad XML: the element, the attribute and the line; exit 2
  r = run_shell("sed 's/cnt=\"1\"/cnt=\"one\"/' " + xml + " | " + exe + " check msccl -");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("stdin: algo/gpu[id=0]/tb[id=0]/step[0] (line 4): attribute 'cnt' is 'one'"),
            std::string::npos)
      << r.output;
  expect_run("check msccl " + xml + " --connection-slots 0", 2, "--connection-slots");
  r = run_shell(exe + " generate collective --algo binomial --coll broadcast -n 4 | " + exe + " export msccl");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("MSCCL-IR has no root"), std::string::npos) << r.output;
}

TEST(cli_collective, import_msccl_gives_a_schedule_that_check_collective_judges) {
  const std::string exe = DANCECARD_EXE;
  const std::string xml = testing::TempDir() + "ring-allreduce-6.xml";
  run_result r = run_shell(exe + " generate collective --algo ring --coll allreduce -n 6 | " + exe +
                           " export msccl --channels 2 -o " + xml);
  ASSERT_EQ(r.code, 0) << r.output;
  r = run_shell("(" + exe + " import msccl " + xml + " --topology ring:6 | " + exe + " check collective -) 2>&1");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("imported MSCCL-IR 'ring': 10 steps, 10 rounds, 60 transfers on ring:6"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("holds: allreduce of 6 ranks, 1 chunk each on ring:6 (all-port): 10 steps"),
            std::string::npos)
      << r.output;
  // a network of another size: exit 2
  r = run_shell(exe + " import msccl " + xml + " --topology hypercube:1 2>&1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--topology: hypercube:1 has 2 ranks; " + xml + " has 6 GPUs"), std::string::npos)
      << r.output;
  // on a network without the links it uses: imported, and check collective names the missing links (exit 1)
  r = run_shell(exe + " generate collective --algo pairwise --coll alltoall -n 4 | " + exe + " export msccl | " + exe +
                " import msccl --topology ring:4 | " + exe + " check collective -");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("0 -> 2 is no link of the network"), std::string::npos) << r.output;
  // a deadlocked program: exit 1 with the program's report; a broken file: exit 2 naming the place
  r = run_shell("sed 's/type=\"s\"/type=\"r\"/' " + xml + " | " + exe + " import msccl -");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("the program fails its own check"), std::string::npos) << r.output;
  r = run_shell("sed 's/cnt=\"1\"/cnt=\"-4\"/' " + xml + " | " + exe + " import msccl -");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("stdin: algo/gpu[id=0]/tb[id=0]/step[0]"), std::string::npos) << r.output;
  // a collective the format gives no root for: exit 2 with the reason
  r = run_shell("sed 's/coll=\"allreduce\"/coll=\"broadcast\"/' " + xml + " | " + exe + " import msccl -");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("not a chunk schedule: coll 'broadcast'"), std::string::npos) << r.output;
}

TEST(cli_collective, import_hrel_and_dance_give_the_collectives_they_perform) {
  const std::string exe = DANCECARD_EXE, dir = testing::TempDir();
  const std::string instance = dir + "hrel-i6.json", slots = dir + "hrel-s6.json";
  run_result r = run_shell(exe + " instance hrel --family triangles --k 2 --h 2 -o " + instance + " && " + exe +
                           " generate hrel --algo forwarding " + instance + " -o " + slots);
  ASSERT_EQ(r.code, 0) << r.output;
  r = run_shell(exe + " import hrel " + instance + " " + slots + " | " + exe + " check collective - 2>&1");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("holds: alltoallv of 6 ranks, 30 chunks in all on complete:6 (one-port-simplex): 12 "
                          "steps, 12 rounds"),
            std::string::npos)
      << r.output;
  // a slot dropped: the collective checker names the missing pieces (exit 1)
  r = run_shell(exe + " import hrel " + instance + " " + slots + " | sed '$d' | sed '$s/,$/]}/' | " + exe +
                " check collective - 2>&1");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("lacks chunk"), std::string::npos) << r.output;
  // arguments swapped: exit 2 naming the file
  r = run_shell(exe + " import hrel " + slots + " " + instance + " 2>&1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find(slots), std::string::npos) << r.output;
  r = run_shell(exe + " generate dance --algo factorization --n 6 | " + exe + " import dance | " + exe +
                " check collective - 2>&1");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("holds: alltoall of 6 ranks, 1 chunk each on complete:6 (one-port-half-duplex)"),
            std::string::npos)
      << r.output;
}

TEST(cli_collective, draw_collective_draws_a_square_per_transfer) {
  const std::string exe = DANCECARD_EXE;
  const std::string svg = testing::TempDir() + "ring-allreduce-4.svg";
  run_result r = run_shell(exe + " generate collective --algo ring --coll allreduce -n 4 | " + exe +
                           " draw collective --out " + svg);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("holds: allreduce of 4 ranks"), std::string::npos) << r.output;
  std::ifstream in(svg);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto count = [&text](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("class=\"chunk\""), 24u);   // 4 ranks, 6 steps, one chunk per rank a step
  EXPECT_EQ(count(", reduce</title>"), 12u);  // the reduce-scatter half
  EXPECT_EQ(count("&#8594; "), 24u + 4u);     // the chunks' titles and the labels of the 4 links used (r -> r + 1)
  // too many links to draw: bad input, exit 2
  r = run_shell(exe + " generate collective --algo pairwise --coll alltoall -n 64 | " + exe +
                " draw collective --out " + svg);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("4032 links used"), std::string::npos) << r.output;
}

TEST(cli_collective, prove_collective_least_steps_with_both_certificates) {
  const std::string exe = DANCECARD_EXE;
  const std::string witness = testing::TempDir() + "dgx1-allgather.json";
  run_result r =
      run_shell(exe + " prove collective --topology dgx1 --coll allgather --json --timeout 600 --witness " + witness);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"status\": \"proven\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"steps\": 2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("unsat by a cut: 7 chunks must leave"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cutting-planes certificate checked"), std::string::npos) << r.output;
  r = run_shell(exe + " prove collective --topology dgx1 --coll allgather --json --timeout 600 --drat-only");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("unsat, DRAT proof checked"), std::string::npos) << r.output;
  const std::string xml = testing::TempDir() + "dgx1-allgather.xml";
  r = run_shell(exe + " prove collective --topology dgx1 --coll allgather --timeout 600 --export-msccl " + xml +
                " && " + exe + " check msccl " + xml);  // the synthesized algorithm as MSCCL-IR, checked
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("holds: MSCCL-IR allgather"), std::string::npos) << r.output;
  expect_run("prove collective --topology ring:4 --coll broadcast --export-msccl " + xml, 2, "MSCCL-IR has no root");
  r = run_shell(exe + " check collective " + witness);  // the witness stands on its own
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("holds: allgather of 8 ranks, 1 chunk each on dgx1 (all-port): 2 steps"), std::string::npos)
      << r.output;
  expect_run("prove collective --topology dgx1 --coll allscatter", 2, "--coll: expected allgather");
  // all-reduce, asked directly: 4 steps on DGX-1 (as many as the composition's 2 + 2), 3 refuted by a DRAT proof
  const std::string allreduce = testing::TempDir() + "dgx1-allreduce.xml";
  r = run_shell(exe + " prove collective --topology dgx1 --coll allreduce --timeout 600 --export-msccl " + allreduce +
                "; echo exit=$?; " + exe + " check msccl " + allreduce);
  EXPECT_NE(r.output.find("proven: allreduce of 8 ranks, 1 chunk each on dgx1 (all-port, 1 round a step): 4 steps"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("exit=0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("holds: MSCCL-IR allreduce"), std::string::npos) << r.output;
  r = run_shell(exe + " prove collective --topology ring:4 --coll allreduce --steps 3");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("3 rounds in 3 steps"), std::string::npos) << r.output;
  r = run_shell(exe + " prove collective --topology dgx1 --coll reduce-scatter --timeout 600");  // by inversion
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("proven: reduce-scatter of 8 ranks"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the inverted schedule holds as a reduce-scatter"), std::string::npos) << r.output;
  expect_run("prove collective --topology mesh:4 --coll allgather", 2, "is no built-in network");
  expect_run("prove collective --topology no-such-file.json --coll allgather", 2, "and no file");
  expect_run("prove collective --topology ring:4 --coll allgather --ports one-port-half-duplex", 2, "--ports");
  expect_run("prove collective --topology ring:6 --coll allgather --drat-only --max-clauses 100", 3,
             "the formula passed 100 clauses");
  expect_run("prove collective --topology ring:6 --coll allgather --max-clauses 0", 2, "--max-clauses");
}

TEST(cli_collective, prove_collective_on_a_network_from_a_file) {
  // The 8-rank cube as a file (not a built-in: no translations, no cut certificates): its automorphisms give the
  // witness, DRAT proofs the steps below; a damaged file is bad input naming the place.
  const std::string exe = DANCECARD_EXE;
  const std::string cube = testing::TempDir() + "cube-network.json";
  {
    std::ofstream out(cube);
    out << R"({"format": "dancecard.topology/1", "name": "my cube", "ranks": 8, "links": [)";
    bool first = true;
    for (int r = 0; r < 8; ++r)
      for (int bit = 1; bit < 8; bit <<= 1)
        out << (first ? "" : ", ") << "[" << r << ", " << (r ^ bit) << ", 1]", first = false;
    out << "]}\n";
  }
  run_result r = run_shell(exe + " prove collective --topology " + cube + " --coll allgather --timeout 600");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("proven: allgather of 8 ranks, 1 chunk each on my cube"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("3 steps"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("invariant under the network's automorphisms"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("DRAT proof checked"), std::string::npos) << r.output;
  const std::string bad = testing::TempDir() + "bad-network.json";
  std::ofstream(bad) << R"({"format": "dancecard.topology/1", "ranks": 2, "links": [[0, 2, 1]]})";
  expect_run("prove collective --topology " + bad + " --coll allgather", 2, "topology.links[0]");
}

TEST(cli_collective, prove_collective_frontier_with_witnesses) {
  const std::string exe = DANCECARD_EXE;
  const std::string dir = testing::TempDir() + "frontier-ring4";
  run_result r = run_shell(exe + " prove collective --topology ring:4 --coll allgather --frontier --max-chunks 3 " +
                           "--timeout 600 --emit " + dir);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("proven: the (C, S, R) frontier of allgather of 4 ranks on ring:4 (all-port): 2 points"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("2   2   3  3/2      3  proven"), std::string::npos) << r.output;
  r = run_shell(exe + " check collective " + dir + "/C2-S2-R3.json");  // a frontier witness stands on its own
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("2 steps, 3 rounds"), std::string::npos) << r.output;
  r = run_shell(exe +
                " prove collective --topology ring:4 --coll allgather --frontier --max-chunks 2 --json --timeout 600");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"rounds_per_chunk\": \"3/2\""), std::string::npos) << r.output;
  // a range too small to settle a point: unknown, exit 3
  expect_run(
      "prove collective --topology dgx1 --coll allgather --frontier --max-chunks 3 --max-extra-steps 0 "
      "--max-extra-rounds 0 --timeout 600",
      3, "not every (C, S)");
  expect_run("prove collective --topology ring:4 --coll allgather --frontier --steps 3", 2, "--frontier: asks every");
  // the least steps of all-to-all on ring:4 with --emit: the witness and the cut's certificate below it, re-checked
  r = run_shell(exe + " prove collective --topology ring:4 --coll alltoall --timeout 600 --emit " + dir + "-least && " +
                exe + " check-proof " + dir + "-least/least-below.cp && " + exe + " check collective " + dir +
                "-least/least.json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("unsat by a cut"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("accepted: collective network=ring:4 coll=alltoall"), std::string::npos) << r.output;
  expect_run("prove collective --topology ring:4 --coll allgather --frontier --max-chunks 65", 2, "--max-chunks");
}

}  // namespace
