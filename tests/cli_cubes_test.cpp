// Cube and conquer through a batch scheduler: prove torus --emit-cubes writes the jobs, solve-cube runs one, and
// merge-cubes checks every proof, model and the cover — dividing the cubes that spent their budget with --divide.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace dancecard::cli_test;
namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
  const std::string dir = testing::TempDir() + name;
  fs::remove_all(dir);
  return dir;
}

TEST(cli_cubes, emitted_jobs_solved_one_by_one_merge_to_the_whole_querys_answer) {
  const std::string exe = DANCECARD_EXE, dir = fresh_dir("cubes-3x5");
  run_result r = run("prove torus --dims 3x5 --steps 4 --cubes 9 --emit-cubes " + dir);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("wrote 9 cubes of torus 3x5, pairing model, 4 steps"), std::string::npos) << r.output;
  for (const char* file : {"query.cnf", "split.json", "jobs.txt", "slurm.sh", "cube-0.cube", "cube-8.cube"})
    EXPECT_TRUE(fs::exists(dir + "/" + file)) << file;
  // before any job: unknown
  r = run("merge-cubes " + dir);
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("9 cubes without a result"), std::string::npos) << r.output;
  // the jobs as a batch system runs them (dancecard on the PATH)
  r = run_shell("PATH=" + fs::path(exe).parent_path().string() + ":$PATH sh " + dir + "/jobs.txt");
  ASSERT_EQ(r.code, 1) << r.output;  // the last cube's exit: unsat
  r = run("merge-cubes " + dir);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("unsat: all 9 cubes refuted"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("9 proofs checked here"), std::string::npos) << r.output;
  // a proof damaged after the job: no longer unsat
  {
    std::fstream proof(dir + "/cube-4.drat", std::ios::in | std::ios::out | std::ios::binary);
    proof.seekp(3);
    proof.put('\x7f');
  }
  r = run("merge-cubes " + dir);
  EXPECT_EQ(r.code, 3) << r.output;
  // a sat query: the witness is simulated and written
  const std::string sat = fresh_dir("cubes-3x5-sat");
  ASSERT_EQ(run("prove torus --dims 3x5 --steps 5 --cubes 9 --emit-cubes " + sat).code, 0);
  for (int id = 0; id < 9; ++id) run("solve-cube " + sat + " " + std::to_string(id));
  const std::string witness = sat + "/witness.json";
  r = run("merge-cubes " + sat + " --witness " + witness);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("its table completes in 5 steps (simulated)"), std::string::npos) << r.output;
  EXPECT_EQ(run("simulate torus " + witness).code, 0);
  // bad input: no split there, no such cube
  EXPECT_EQ(run("merge-cubes " + fresh_dir("nothing")).code, 2);
  EXPECT_EQ(run("solve-cube " + dir + " 99").code, 2);
}

TEST(cli_cubes, merge_divide_splits_the_cubes_that_spent_their_budget_until_all_are_refuted) {
  const std::string dir = fresh_dir("cubes-4x4");
  ASSERT_EQ(run("prove torus --dims 4x4 --model general --steps 4 --cubes 1 --emit-cubes " + dir).code, 0);
  // 1,500 conflicts a cube (CaDiCaL is deterministic under a conflict limit): rounds of solving and dividing
  run_result merged;
  std::size_t solved = 0;
  for (int round = 0; round < 12; ++round) {
    for (std::size_t id = 0; fs::exists(dir + "/cube-" + std::to_string(id) + ".cube"); ++id)
      if (!fs::exists(dir + "/cube-" + std::to_string(id) + ".json"))
        run("solve-cube " + dir + " " + std::to_string(id) + " --conflicts 1500"), ++solved;
    merged = run("merge-cubes " + dir + " --divide");
    if (merged.code != 3) break;
  }
  EXPECT_EQ(merged.code, 1) << merged.output;
  EXPECT_NE(merged.output.find("unsat: all 33 cubes refuted"), std::string::npos) << merged.output;
  EXPECT_EQ(solved, 49u);  // 33 leaves and 16 cubes divided, as on MPI
}

TEST(cli_cubes, a_collective_query_splits_and_merges_the_same_way) {
  const std::string dir = fresh_dir("cubes-dgx1");
  run_result r =
      run("prove collective --topology dgx1 --coll allgather --chunks 2 --steps 2 --rounds 2 --cubes 8 "
          "--emit-cubes " +
          dir);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("wrote 25 cubes of allgather of 8 ranks, 2 chunks each on dgx1, 2 steps, 2 rounds"),
            std::string::npos)
      << r.output;
  for (int id = 0; id < 25; ++id) run("solve-cube " + dir + " " + std::to_string(id));
  r = run("merge-cubes " + dir);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("unsat: all 25 cubes refuted"), std::string::npos) << r.output;
  // all-reduce, asked directly (values as contributor sets): 2 steps on ring:4 refuted cube by cube, 3 a schedule
  const std::string two = fresh_dir("cubes-allreduce-2"), three = fresh_dir("cubes-allreduce-3");
  for (const std::string& dir : {two, three}) {
    r = run("prove collective --topology ring:4 --coll allreduce --steps " + std::string(dir == two ? "2" : "3") +
            " --cubes 8 --emit-cubes " + dir);
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("wrote 16 cubes of allreduce of 4 ranks"), std::string::npos) << r.output;
    for (int id = 0; id < 16; ++id) run("solve-cube " + dir + " " + std::to_string(id));
  }
  expect_run("merge-cubes " + two, 1, "unsat: all 16 cubes refuted");
  expect_run("merge-cubes " + three + " --witness " + three + "/witness.json", 0,
             "is sat: its schedule holds in the collective checker");
  expect_run("check collective " + three + "/witness.json", 0, "holds: allreduce of 4 ranks");
}

TEST(cli_cubes, an_hrel_query_splits_and_merges_the_same_way) {
  const std::string instance = testing::TempDir() + "cubes-two-triangles.json";
  ASSERT_EQ(run("instance hrel --family triangles --k 2 --h 2 -o " + instance).code, 0);
  const std::string below = fresh_dir("cubes-hrel-5"), at = fresh_dir("cubes-hrel-6");
  run_result r = run("prove hrel " + instance + " --forwarding -k 2 --slots 5 --cubes 8 --emit-cubes " + below);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("wrote 36 cubes of h-relation of 6 messages on 6 PEs, 5 slots of 1/2, with forwarding"),
            std::string::npos)
      << r.output;
  for (int id = 0; id < 36; ++id) run("solve-cube " + below + " " + std::to_string(id));
  r = run("merge-cubes " + below);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("unsat: all 36 cubes refuted"), std::string::npos) << r.output;
  // one slot more: the first cube gives a schedule, which the merge checks and writes, and check hrel accepts
  ASSERT_EQ(run("prove hrel " + instance + " --forwarding -k 2 --slots 6 --cubes 8 --emit-cubes " + at).code, 0);
  for (int id = 0; id < 36; ++id) run("solve-cube " + at + " " + std::to_string(id));
  r = run("merge-cubes " + at + " --witness " + at + "/witness.json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("is sat: its schedule delivers every message in 6 slots of 1/2"), std::string::npos)
      << r.output;
  expect_run("check hrel " + instance + " " + at + "/witness.json", 0, "holds: half-duplex schedule of 6 slots");
  // a job's result file with an answer that is none of the three is bad input, not an unknown cube
  {
    std::ifstream in(below + "/cube-0.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string unsat = "\"answer\":\"unsat\"";
    const std::size_t at = text.find(unsat);
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, unsat.size(), "\"answer\":\"maybe\"");
    std::ofstream(below + "/cube-0.json") << text;
  }
  expect_run("merge-cubes " + below, 2, "cube-0.json: answer: expected sat, unsat or unknown, got 'maybe'");
  // a query whose formula would not fit is refused before it is built
  const std::string forty = testing::TempDir() + "cubes-random-40.json";
  ASSERT_EQ(run("instance hrel --family random --P 40 --h 8 -o " + forty).code, 0);
  expect_run("prove hrel " + forty + " --forwarding -k 100 --slots 4096 --cubes 2 --emit-cubes " +
                 fresh_dir("cubes-hrel-huge"),
             2, "variables for 4096 slots (at most 2^26): ask fewer slots");
  expect_run("prove hrel " + instance + " --slots 5", 2, "--slots, --cubes: only with --emit-cubes");
  expect_run("prove hrel " + instance + " --slots 5 --emit-cubes " + fresh_dir("cubes-hrel-none"), 2,
             "--emit-cubes: with --slots T and --cubes K");
}

}  // namespace
