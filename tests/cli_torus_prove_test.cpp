// `dancecard prove torus` and `prove two-cycles` end to end: witnesses, emitted certificates that re-check without
// the solver, both models, k packets, JSON and exit codes.
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

#include "cli_support.hpp"

namespace {

using namespace dancecard::cli_test;

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
  for (const char* text :
       {"\"status\": \"proven\"", "torus-3x4-general-lower.drat", "\"sha256\"", "3 steps unsat", "\"assumes\""})
    EXPECT_NE(manifest.find(text), std::string::npos) << text << " in\n" << manifest;
  EXPECT_NE(read_file(stem + "-lower.cnf").find("c time-independent gossip on the 3x4 torus, general model, 3 steps"),
            std::string::npos);
  // The proof is copied from the solver's trace piece by piece, its SHA-256 summed on the way: it must be the file's.
  {
    FILE* pipe = popen(("sha256sum " + stem + "-lower.drat").c_str(), "r");
    std::array<char, 65> sum{};
    ASSERT_EQ(std::fread(sum.data(), 1, 64, pipe), 64u);
    pclose(pipe);
    EXPECT_NE(manifest.find(std::string("\"sha256\": \"") + sum.data() + "\""), std::string::npos)
        << sum.data() << " in\n"
        << manifest;
    EXPECT_NE(manifest.find("\"bytes\": " + std::to_string(std::filesystem::file_size(stem + "-lower.drat"))),
              std::string::npos);
  }
  // --steps: a sat question leaves a witness and no proof; an unsat one its own query and proof
  expect_run("prove torus --dims 3x4 --model general --steps 4 --emit " + dir, 0, "sat");
  expect_run("simulate torus " + stem + "-4-witness.json", 0, "complete after");
  EXPECT_TRUE(read_file(stem + "-4-lower.drat").empty());
  expect_run("prove torus --dims 3x4 --model general --steps 2 --emit " + dir, 1, "unsat");
  expect_run("check-proof " + stem + "-2-lower.cnf " + stem + "-2-lower.drat", 0, "accepted: unsatisfiable");
  expect_run("check-proof " + stem + "-lower.cnf " + stem + "-2-lower.drat", 1,
             "");  // the 2-step proof for the 3-step query
  { std::ofstream empty(dir + "/empty.drat"); }
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
  // One question at a time: 3 x 3 completes in 2 steps in the general model (sat), not with pairings (unsat,
  // certified).
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
  EXPECT_NE(r.output.find("catalogued table torus_3x9_general_8_steps.json completes in 8 steps"), std::string::npos)
      << r.output;
  // an uncatalogued torus: a local-search table or a table invariant under translations (SAT, small groups of the
  // budget); what the second's searches reach depends on the machine's load
  r = expect_run("prove torus --dims 3x13 --model general --timeout 1 --json", 3, "\"minimum_steps\": null");
  EXPECT_TRUE(std::regex_search(
      r.output, std::regex("local-search witness|witness invariant under [0-9]+ (translations|automorphisms)")))
      << r.output;
  // in the pairing model the tabu search gives that table
  r = expect_run("prove torus --dims 3x13 --model pairing --timeout 1 --json", 3, "\"minimum_steps\": null");
  EXPECT_TRUE(std::regex_search(
      r.output, std::regex("tabu-search witness|witness invariant under [0-9]+ (translations|automorphisms)")))
      << r.output;
  EXPECT_EQ(r.output.find("local-search witness"), std::string::npos) << r.output;
  EXPECT_EQ(run("prove torus --dims 6x6 --model general --timeout 0.001").code, 3);  // unknown: the budget ran out
  // The parity bound: on 6 x 6 a packet at even distance comes in even steps only, and 17 such packets do not fit the
  // 16 slots of steps 2, 4, 6, 8 — 9 steps are refuted by that count alone, and the answer says so (no search).
  r = expect_run("prove torus --dims 6x6 --model general --steps 9", 1, "unsat by the parity count alone");
  r = expect_run("prove torus --dims 6x6 --model general --timeout 0.001 --json", 3, "\"parity_bound\": 10");
  EXPECT_NE(r.output.find("\"counting_bound\": 9"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"proven_lower_bound\": 10"), std::string::npos) << r.output;
  // 2 x 2 x 6 general: the parity bound 5 (counting bound 4) is the minimum, met by a table invariant under
  // translations.
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
  expect_run("prove torus --dims 2x5 --model general --packets 2", 0,
             "2x5 torus, general model, 2 packets per PU: proven, minimum 5 steps (counting bound 5;");
  r = expect_run("prove torus --dims 2x5 --model general --packets 2 --steps 4 --json", 1, "\"answer\": \"unsat\"");
  EXPECT_NE(r.output.find("by the counting bound alone"), std::string::npos) << r.output;
  const std::string file = testing::TempDir() + "torus-2x5-2-packets.json";
  expect_run("prove torus --dims 2x5 --model pairing --packets 2 --steps 5 --witness " + file, 0,
             "2 packets per PU, within 5 steps: sat");
  expect_run("simulate torus " + file, 0, "2 packet(s) per PU): complete after 5 steps");
  std::remove(file.c_str());
  // 4 x 5: Theorem 3's count 10 with two packets, no packet held, by a pairing table (CaDiCaL's witness, 13 s): its
  // pairings form two Hamiltonian cycles, as in the theorem-book row torus.thm3_thm4
  r = expect_run("simulate torus " + data("torus_4x5_pairing_2_packets_10_steps.json"), 0,
                 "2 packet(s) per PU): complete after 10 steps");
  EXPECT_NE(r.output.find("counting bound with 2 packets per PU: ceil(2(P - 1)/4) = 10 steps"), std::string::npos)
      << r.output;
  // --emit: three packets on 3 x 3 need 8 steps with pairings; the query of 7 steps and its proof re-check, the
  // manifest names the k-packet CNF
  const std::string dir = testing::TempDir() + "torus-3x3-3-packets";
  expect_run("prove torus --dims 3x3 --model pairing --packets 3 --emit " + dir, 0,
             "3 packets per PU: proven, minimum 8 steps");
  expect_run("check-proof " + dir + "/torus-3x3-pairing-3-packets-lower.cnf " + dir +
                 "/torus-3x3-pairing-3-packets-lower.drat",
             0, "accepted");
  expect_run("simulate torus " + dir + "/torus-3x3-pairing-3-packets-witness.json", 0,
             "3 packet(s) per PU): complete after 8 steps");
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
  expect_run("simulate torus --dims 3x3 --algo local-search --model general --packets 2 --seconds 5", 0,
             "2 packet(s) per PU): complete after 4 steps");
  expect_run("generate torus --dims 3x3 --algo local-search --packets 5", 2,
             "--packets 5: at most 2d = 4 on the 3x3 torus");
  expect_run("generate torus --dims 4x4 --algo hamiltonian --packets 3", 2, "--packets: expected 1 or 2, got 3");
  // tables invariant under translations with k packets: 3 x 4 general with three packets in 9 steps (the counting
  // bound); the stored table (found so, 0.8 s) simulates in 9; point groups are refused with k packets
  r = expect_run("generate torus --dims 3x4 --algo invariant --model general --packets 3 --steps 9 --seconds 120", 0,
                 "\"packets\": 3");
  EXPECT_NE(r.output.find("invariant search (general model, 3 packets per PU, 9 steps)"), std::string::npos)
      << r.output;
  expect_run("simulate torus " + data("torus_3x4_general_3_packets_9_steps.json"), 0,
             "(P = 12, 3 packet(s) per PU): complete after 9 steps");
  expect_run("generate torus --dims 3x4 --algo invariant --packets 3 --steps 9 --groups all", 2,
             "translation groups only");
  expect_run("prove torus --dims 2x5 --packets 5", 2, "--packets 5: at most 2d = 4");
  expect_run("prove torus --dims 3x3 --packets 2 --engine z3", 2, "--packets: only with --engine sat");
  EXPECT_EQ(run("prove torus --dims 3x3 --packets 0").code, 2);
}

TEST(cli_torus, prove_two_cycles_enumerates_theorem_1s_setting) {
  const auto r = run("prove two-cycles --P 8");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("least gossip time 3 steps"), std::string::npos) << r.output;
  EXPECT_EQ(run("prove two-cycles --P 4").code, 2);
  EXPECT_EQ(run("prove two-cycles --P 14").code, 2);
}

}  // namespace
