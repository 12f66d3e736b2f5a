// The torus commands end to end (generate, simulate, draw, prove torus, the catalogue and its stored proofs).
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
  // 3-D cubes by the explicit construction (Park): floor(P/2) steps with 3 packets; m = 4 one dimension at a time
  // (below)
  expect_run("simulate torus --dims 5x5x5 --algo hamiltonian", 0, "complete after 62 steps");
  expect_run("simulate torus --dims 6x6x6 --algo hamiltonian", 0, "3 cycles (hamiltonian-cube)");
  expect_run("simulate torus --dims 4x4x4 --algo hamiltonian", 0, "3 cycles (hamiltonian-layered-searched)");
  // Other tori with an odd size one dimension at a time (layered); every size even and no product (3-D, 5-D, 7-D):
  // layered on scrambled frames up to 2^21 PUs, refused by name above.
  expect_run("simulate torus --dims 3x3x5 --algo hamiltonian", 0, "3 cycles (hamiltonian-layered)");
  expect_run("simulate torus --dims 3x3x3x3x3 --algo hamiltonian", 0, "complete after 121 steps");
  expect_run("simulate torus --dims 4x6x8 --algo hamiltonian", 0, "complete after 96 steps");
  {
    const run_result five =
        expect_run("simulate torus --dims 4x4x4x4x4 --algo hamiltonian", 0, "5 cycles (hamiltonian-layered-searched)");
    EXPECT_NE(five.output.find("complete after 512 steps"), std::string::npos) << five.output;
  }
  expect_run("simulate torus --dims 4x4x4x4x4x4x520 --algo hamiltonian", 2,
             "scrambles frames only up to 2097152 PUs (P = 2129920)");
  expect_run("simulate torus --dims 4x5 --algo hamiltonian-switch", 0, "complete after 10 steps");
  expect_run("simulate torus --dims 3x4x5 --algo hamiltonian-switch", 0, "3 cycles (square-switch search)");
  expect_run("simulate torus --dims 2x5 --algo hamiltonian-switch", 2, "needs every n_j >= 3");
  expect_run("simulate torus --dims 40x40x40 --algo hamiltonian-switch", 2, "at most 32768 PUs");
  // The supply found by SAT (Theorem 7's bound 38 on 4 x 2 x 4 x 5; the greedy supply takes 38 steps there).
  expect_run("simulate torus --dims 4x2x4x5 --algo one-packet --supply-search 60", 0, "complete after 36 steps");
  expect_run("simulate torus --dims 4x2x4x5 --algo one-packet --supply time-independent --supply-search 60", 0,
             "1 packet(s) per PU): complete after 51 steps");  // no switches
  {
    const auto certified = expect_run(
        "simulate torus --dims 4x2x4x5 --algo one-packet --supply time-independent --supply-search 60 --certify", 0,
        "one step less: 50 steps: unsat");
    EXPECT_NE(certified.output.find("DRAT proof checked"), std::string::npos) << certified.output;
  }
  // The matched supply, cycle_routing's scheduled policy on 4-D zigzag cycles: below Theorem 7's bound, printed beside
  // it.
  {
    const auto matched = expect_run("simulate torus --dims 4x4x4x5 --algo one-packet", 0, "complete after 72 steps");
    EXPECT_NE(matched.output.find("Theorem 7's bound with switching ceil((1 + d/n_d) P/(2d)) + 2 = 74 steps"),
              std::string::npos)
        << matched.output;
    expect_run("simulate torus --dims 6x8 --algo one-packet --json", 0, "\"theorem_bound\": 16");
    // --supply-search: on 4 x 2 x 4 x 7 the searched class's least is 45 (44 unsat there); the matched table's 44 is
    // given instead (a budget far above the 10 s it takes, so that a slow or loaded machine still gets the answer; on
    // 4 x 4 x 4 x 5, 72 against 73, the search takes 50 s)
    const auto searched =
        expect_run("simulate torus --dims 4x2x4x7 --algo one-packet --supply-search 900", 0, "complete after 44 steps");
    EXPECT_NE(searched.output.find("fewer than the class's least 45: that table is given"), std::string::npos)
        << searched.output;
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
               "forward": [[null, null, null, 9], [null, null, null, null],
                           [null, null, null, null], [null, null, null, null]],
               "inject": [[0, null, null, null], [0, null, null, null],
                          [0, null, null, null], [0, null, null, null]]})";
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
               "forward": [[null, null, null, null], [null, null, null, null],
                           [null, null, null, null], [null, null, null, null]],
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
  expect_run("simulate torus --dims 6x6 --algo one-packet", 0,
             "parity bound with one packet per PU, none held back: 10 steps");
  expect_run("simulate torus --dims 4x5x2x9 --algo one-packet --max-delay 8 --json", 0, "\"parity_bound\": null");
  expect_run("simulate torus --dims 6x8 --algo hamiltonian --json", 0, "\"parity_bound\": null");  // two packets per PU
}

// The catalogue (formats/torus_catalogue.hpp): the stored best table, sizes in any order; an uncatalogued torus is
// refused with the list of those that are.
TEST(cli_torus, catalogue_tables) {
  const std::string file = testing::TempDir() + "catalogue-7x5.json";
  expect_run("generate torus --dims 7x5 --algo catalogue --model pairing -o " + file, 0,
             "torus_5x7_pairing_11_steps.json, 11 steps");
  expect_run("simulate torus " + file, 0,
             "gossip on the 7x5 torus (P = 35, 1 packet(s) per PU): complete after 11 steps");
  std::remove(file.c_str());
  // the general model of 6 x 6: 11 steps (10 is open); 3 x 4: the pairing table, as fast as any general one
  expect_run("simulate torus --dims 6x6 --algo catalogue --model general", 0, "complete after 11 steps");
  expect_run("generate torus --dims 4x3 --algo catalogue --model general", 0,
             "torus_3x4_pairing_4_steps.json, 4 steps");
  expect_run("generate torus --dims 7x7 --algo catalogue", 2,
             "the 7x7 torus is not catalogued (catalogued, sizes in any order: ");
  expect_run("generate torus --dims 3x3 --algo catalogue --seconds 5", 2,
             "--seconds: only with --algo local-search, tabu or invariant");
}

TEST(cli_torus, local_search_tables_are_written_and_simulated) {
  // 4 x 4 with pairings needs 6 steps (proven by the SAT search); the local search's table and the tabu search's
  // reach that and run through simulate like any table file. --evaluations ends each search by a work count (the
  // minutes of --seconds are never reached), so the tables are the same on any machine under any load.
  for (const auto& [algo, name] :
       {std::pair<std::string, std::string>{"local-search", "local search"}, {"tabu", "tabu search"}}) {
    SCOPED_TRACE(algo);
    const std::string file = testing::TempDir() + algo + "-4x4.json";
    expect_run(
        "generate torus --dims 4x4 --algo " + algo + " --model pairing --evaluations 2000 --seconds 600 -o " + file, 0,
        name + " (pairing model, seed 1): 6 steps");
    expect_run("simulate torus " + file + " --json", 0, "\"steps\": 6");
    expect_run("simulate torus --dims 3x5 --algo " + algo + " --model general --evaluations 2000 --seconds 600", 0,
               "complete after 5 steps");
    expect_run("generate torus --dims 4x4 --algo " + algo + " --evaluations 0", 2, "--evaluations");
    expect_run("generate torus --dims 4x4 --algo " + algo + " --model sometimes", 2,
               "--model: expected pairing or general");
    EXPECT_EQ(run("generate torus --dims 4x4 --algo " + algo + " --seconds soon").code, 2);
    expect_run("generate torus --dims 40x40 --algo " + algo, 2, "--algo " + algo + ": at most 1024 PUs");
    // --start: from a file; the search ends no worse
    expect_run("simulate torus --dims 4x4 --algo " + algo + " --model general --start " + file +
                   " --evaluations 100 --seconds 600",
               0, "complete after");
    expect_run("generate torus --dims 4x5 --algo " + algo + " --start " + file, 2, "a table of the 4x4 torus, not 4x5");
    expect_run("generate torus --dims 3x13 --algo " + algo + " --start catalogue", 2,
               "the 3x13 torus is not catalogued");
    expect_run("generate torus --dims 4x4 --algo " + algo + " --start " + testing::TempDir() + "no-such.json", 2,
               "cannot open");
    std::remove(file.c_str());
  }
  // --start catalogue (5 x 6 general: 9 steps, 8 open)
  expect_run(
      "generate torus --dims 5x6 --algo local-search --model general --start catalogue --evaluations 100 --seconds 600",
      0, "starts from the catalogue's torus_5x6_general_9_steps.json (9 steps)");
  expect_run("generate torus --dims 5x6 --algo tabu --model general --start catalogue --evaluations 100 --seconds 600",
             0, "tabu search starts from the catalogue's torus_5x6_general_9_steps.json (9 steps)");
  expect_run("generate torus --dims 4x4 --algo hamiltonian --start catalogue", 2,
             "--start: only with --algo local-search");
  // the tabu search counts one packet per PU
  expect_run("generate torus --dims 4x4 --algo tabu --packets 2", 2, "--algo tabu searches one-packet tables");
  // --steps: stop at a table within that many steps (4 x 4 pairing: 6, well before the budget of a minute); --jobs:
  // seeds side by side, the best kept
  auto r = expect_run("generate torus --dims 4x4 --algo tabu --steps 6 --seconds 600", 0,
                      "tabu search (pairing model, seed 1): 6 steps after ");
  EXPECT_EQ(r.output.find("one step below"), std::string::npos) << r.output;  // stopped at the goal, not by the budget
  expect_run("generate torus --dims 4x4 --algo tabu --jobs 2 --seed 5 --evaluations 2000 --seconds 600", 0,
             "tabu search, 2 seeds: 5 → 6 6 → 6; seed 5's table");
  expect_run("generate torus --dims 4x4 --algo hamiltonian --evaluations 10", 2,
             "--evaluations: only with --algo local-search or tabu");
  expect_run("generate torus --dims 4x4 --algo tabu --jobs 0", 2, "--jobs");
  expect_run("generate torus --dims 4x4 --algo local-search --jobs 2", 2,
             "--jobs: only with --algo tabu, not with --algo local-search");
  // --groups/--group-index: only tables invariant under one group (4 x 5 general: 6 steps, the minimum, invariant under
  // the 5 translations by (0, 1), group 2; and under a mixed group of 20 automorphisms, group 28)
  const auto invariant = expect_run(
      "simulate torus --dims 4x5 --algo tabu --model general --group-index 2 --steps 6 --evaluations 2000 --seconds "
      "600",
      0, "complete after 6 steps");
  EXPECT_NE(invariant.output.find("tabu search over the tables invariant under group 2 of --groups translations: 5 "
                                  "translations generated by (0,1)"),
            std::string::npos)
      << invariant.output;
  // the pairing search under the group gets no further than 7 (the pairing minimum) in its 1,000 iterations; the SAT
  // query of the group at 6 then gives the table
  EXPECT_NE(invariant.output.find("its start: 1 SAT query over the group's tables, a 6-step table"), std::string::npos)
      << invariant.output;
  expect_run(
      "simulate torus --dims 4x5 --algo tabu --model general --groups mixed --group-index 28 --steps 6 --evaluations "
      "2000 --seconds 600",
      0, "complete after 6 steps");
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
  expect_run("generate torus --dims 5x5 --algo invariant --model general --steps 7 --seconds 60 -o " + file, 0,
             " of --list-groups: a table invariant under 5 translations generated by (");
  expect_run("simulate torus " + file, 0, "complete after 7 steps");
  expect_run("simulate torus --dims 4x4 --algo invariant --model pairing --steps 6 --seconds 30", 0,
             "complete after 6 steps");
  expect_run("generate torus --dims 3x7 --algo invariant --model general --steps 6 --seconds 60", 3, "no table found");
  // with --certify every unsat answer's proof is checked, and a search that rules out every group is a refutation
  expect_run("generate torus --dims 3x7 --algo invariant --model general --steps 6 --seconds 60 --certify", 1,
             "proven: no table invariant under any of the 3 translation groups completes within 6 steps");
  expect_run(
      "simulate torus --dims 4x5 --algo invariant --model general --groups all --steps 5 --seconds 120 --certify", 1,
      "proven: no table");
  expect_run("generate torus --dims 4x5 --algo invariant --model general --steps 6 --seconds 60 --certify", 0,
             "a table invariant under ");
  expect_run("generate torus --dims 3x7 --algo local-search --certify", 2,
             "--certify: with --supply-search or --algo invariant");
  expect_run("simulate torus " + catalogue_file("torus_3x9_general_8_steps.json") + " --certify", 2,
             "not a table file");
  expect_run("generate torus --dims 4x4 --algo invariant --model general", 2, "needs --steps");
  expect_run("generate torus --dims 20x20 --algo invariant --steps 100", 2, "at most 256 PUs");
  expect_run("generate torus --dims 4x4 --algo invariant --model both --steps 6", 2, "--model");
  // ... but a table invariant under a point reflection does (--groups point: groups without translations), and
  // --groups all asks the translations first, then those
  const std::string point = testing::TempDir() + "invariant-3x7.json";
  expect_run(
      "generate torus --dims 3x7 --algo invariant --groups point --model general --steps 6 --seconds 60 -o " + point, 0,
      ": a table invariant under 2 automorphisms generated by (x1, x2) -> (-x1");
  expect_run("simulate torus " + point, 0, "complete after 6 steps");
  expect_run("simulate torus --dims 3x7 --algo invariant --groups all --model general --steps 6 --seconds 60", 0,
             "complete after 6 steps");
  expect_run("generate torus --dims 3x7 --algo invariant --groups rotations --steps 6", 2,
             "--groups: expected translations, point, all or mixed");
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
      {"generate torus --dims 4x4 --algo hamiltonian --steps 3",
       "--steps: only with --algo invariant or tabu, not with --algo hamiltonian"},
      {"generate torus --dims 4x4 --algo local-search --steps 3 --seconds 1", "--steps: only with --algo invariant"},
      {"generate torus --dims 4x4 --algo invariant --steps 6 --seed 3",
       "--seed: only with --algo local-search or tabu"},
      {"generate torus --dims 4x4 --algo one-packet --model general",
       "--model: only with --algo local-search, tabu, invariant or catalogue"},
      {"simulate torus " + catalogue_file("torus_4x8_general_9_steps.json") + " --seconds 5",
       "--seconds: only with --algo local-search, tabu or invariant, not with a table file"},
      {"instance hrel --family random --seed -1", "--seed: '-1' is not a non-negative integer"},
      {"simulate online --discipline ocpc --seed -2", "--seed: '-2' is not a non-negative integer"},
      {"property-test torus --cmd 'echo {dims}' --max-gap -1", "--max-gap: '-1' is not a non-negative integer"},
      {"property-test dance --cmd 'echo {n}' --seed x", "--seed: 'x' is not a non-negative integer"},
  };
  for (const auto& [args, message] : rejected) expect_run(args, 2, message);
  // the checks do not get in the way of what they guard
  expect_run("generate torus --dims 3x3 --algo invariant --model general --steps 2 --seconds 10", 0,
             "a table invariant under");
}

// prove torus --steps T --cubes N: the query split into cubes, solved --jobs at a time; the exit codes of a query.
TEST(cli_torus, a_query_split_into_cubes) {
  expect_run(
      "prove torus --dims 3x4 --model pairing --steps 3 --cubes 9 --jobs 2", 1,
      "split into 9 cubes (2 groups: PU 6's pairing, PU 10's pairing), 2 at a time: unsat (unsat: all 9 cubes refuted");
  const std::string witness = (std::filesystem::temp_directory_path() / "dancecard_cli_split_witness.json").string();
  expect_run("prove torus --dims 4x4 --model general --steps 5 --cubes 16 --witness " + witness, 0,
             "sat (witness table completes in");
  expect_run("simulate torus " + witness, 0, "complete after");
  std::filesystem::remove(witness);
  const run_result j = expect_run("prove torus --dims 4x4 --model general --steps 4 --cubes 4 --json", 1,
                                  "\"format\": \"dancecard.torus-query/1\"");
  EXPECT_NE(j.output.find("\"refuted\": 9"), std::string::npos)
      << j.output;  // 3 x 3: the U-turns are forbidden at 4 steps
  EXPECT_NE(j.output.find("\"cube\": \"PU 10 out-port 0 <- in-port 3, PU 10 out-port 1 <- in-port 2\""),
            std::string::npos)
      << j.output;
  expect_run("prove torus --dims 4x4 --model general --steps 3 --cubes 4", 1,
             "not split: unsat (unsat by the counting bound alone");
  const std::vector<std::pair<std::string, std::string>> rejected = {
      {"prove torus --dims 4x4 --cubes 4", "--cubes: only with --steps"},
      {"prove torus --dims 4x4 --steps 5 --jobs 2", "--jobs: only with --cubes"},
      {"prove torus --dims 4x4 --steps 5 --cubes 0", "--cubes: expected an integer >= 1, got 0"},
      {"prove torus --dims 4x4 --steps 5 --cubes 70000", "--cubes 70000: at most 65536"},
      {"prove torus --dims 4x4 --steps 5 --cubes 4 --jobs 300", "--jobs: Value 300 not in range 1 to 256"},
      {"prove torus --dims 4x4 --steps 5 --cubes 4 --packets 2", "--cubes: one packet per PU only"},
      {"prove torus --dims 4x4 --steps 5 --cubes 4 --emit /tmp/x", "--emit: not with --cubes"},
      {"prove torus --dims 4x4 --steps 5 --cube-timeout 5", "--cube-timeout: only with --cubes"},
      {"prove torus --dims 4x4 --steps 5 --cubes 4 --cube-timeout -1", "--cube-timeout"},
  };
  for (const auto& [args, message] : rejected) expect_run(args, 2, message);
}

TEST(cli_torus, invariant_groups_are_listed_and_asked_by_number) {
  // --list-groups numbers the groups as the search does: translations, largest first, then point groups.
  auto r = expect_run("generate torus --dims 3x7 --algo invariant --groups all --list-groups", 0,
                      "0  21 translations generated by (1,1)\n");
  EXPECT_NE(r.output.find("3  4 automorphisms generated by (x1, x2) -> (-x1, x2); (x1, x2) -> (x1, -x2)\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("6  2 automorphisms generated by (x1, x2) -> (-x1, -x2)\n"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 7);
  // --groups mixed: the same 7, then the mixed groups (a translation group with reflections), numbered on
  r = expect_run("generate torus --dims 3x7 --algo invariant --groups mixed --list-groups", 0,
                 "0  21 translations generated by (1,1)\n");
  EXPECT_NE(r.output.find("6  2 automorphisms generated by (x1, x2) -> (-x1, -x2)\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("7  84 automorphisms generated by (x1, x2) -> (x1 + 1, x2 + 1); (x1, x2) -> (-x1, -x2); (x1, "
                          "x2) -> (-x1, x2)\n"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 19);
  // each of them holds one of the three translation groups, none of which has a 6-step general table: once those
  // are unsat, the mixed groups are without a query of their own
  r = expect_run(
      "generate torus --dims 3x7 --algo invariant --groups mixed --model general --steps 6 --group-index 0..2,7..18 "
      "--progress --seconds 300",
      3, "15 of 15 groups asked (15 unsat, 12 of them as they contain a conjugate of another");
  EXPECT_NE(r.output.find("group 18 (6 automorphisms generated by (x1, x2) -> (x1 + 1, x2); (x1, x2) -> (-x1, -x2)): "
                          "unsat, as it contains a conjugate of group 2"),
            std::string::npos)
      << r.output;
  // 3 x 7 general in 6 steps: no translation group has a table; the point reflection (group 6) has
  // (budgets far above the few seconds these take, so that a loaded machine gives the same answers)
  r = expect_run(
      "generate torus --dims 3x7 --algo invariant --groups all --model general --steps 6 --group-index 6 --seconds 300",
      0, "group 6 of --list-groups");
  EXPECT_NE(r.output.find("\"dims\": [3, 7]"), std::string::npos) << r.output;
  r = expect_run(
      "generate torus --dims 3x7 --algo invariant --groups all --model general --steps 6 --group-index 0..2 --seconds "
      "300",
      3, "3 of 3 groups asked (3 unsat");
  EXPECT_EQ(r.output.find("group 0 ("), std::string::npos) << r.output;  // no per-group lines without --progress
  // --progress: a line per group as it answers, in the order asked; with --certify the unsat answers' proofs are
  // checked
  r = expect_run(
      "generate torus --dims 3x7 --algo invariant --groups all --model general --steps 6 --group-index 0..2,6 "
      "--progress --seconds 300",
      0, "group 0 (21 translations generated by (1,1)): unsat (its queries ");
  const std::size_t second = r.output.find("group 1 ("),
                    table = r.output.find(
                        "group 6 (2 automorphisms generated by (x1, x2) -> (-x1, -x2)): a table (its queries ");
  EXPECT_NE(second, std::string::npos) << r.output;
  EXPECT_NE(table, std::string::npos) << r.output;
  EXPECT_LT(second, table) << r.output;
  expect_run(
      "generate torus --dims 3x7 --algo invariant --groups all --model general --steps 5 --group-index 6 --progress "
      "--certify --seconds 300",
      1, "group 6 (2 automorphisms generated by (x1, x2) -> (-x1, -x2)): unsat, DRAT proof checked (its queries ");
  // a group holding a conjugate of a group answered unsat is not asked: 4 x 4 general in 4 steps, the translations by
  // (0, 2) asked before those by (0, 1); with --certify the proof is the smaller group's, and the whole is proven
  r = expect_run(
      "generate torus --dims 4x4 --algo invariant --groups all --model general --steps 4 --group-index 7,3 --progress "
      "--certify --seconds 300",
      1, "group 3 (4 translations generated by (0,1)): unsat, as it contains a conjugate of group 7 (its queries ");
  EXPECT_NE(r.output.find("group 7 (2 translations generated by (0,2)): unsat, DRAT proof checked"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("2 of 2 groups asked (2 unsat, 1 of them as they contain a conjugate of another, 0 out of "
                          "time; 1 query in 1 round)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(
      r.output.find("proven: no table invariant under any of the 2 groups completes within 4 steps (every unsat "
                    "answer's DRAT proof checked by "
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
  expect_run("generate torus --dims 3x7 --algo invariant --steps 6 --group-index 2..1", 2, "runs backwards");
  // the one range grammar: another tool's spelling is named with the one to use
  expect_run("generate torus --dims 3x7 --algo invariant --steps 6 --group-index 0,2-4", 2,
             "a range is written A..B: '2-4' is 2..4");
  expect_run("generate torus --dims 3x7 --algo invariant --steps 6 --group-index x", 2,
             "'x' is not a non-negative integer (at 'x' in 'x')");
  expect_run("generate torus --dims 3x7 --algo invariant --steps 6 --group-index ''", 2, "got an empty item");
  expect_run("generate torus --dims 3x7 --algo local-search --group-index 1", 2,
             "--group-index: only with --algo invariant");
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
    ASSERT_TRUE(std::regex_match(file, m, name))
        << file << ": every catalogue file is named for its torus, model and steps";
    ++files;
    expect_run("simulate torus " + entry.path().string(), 0, "complete after " + m[3].str() + " steps");
  }
  EXPECT_GT(files, 0u);
  // a pairing table's forwarding rules are closed cycles; 3 x 3 x 3 general meets the counting bound
  expect_run("simulate torus " + catalogue_file("torus_5x5_pairing_8_steps.json"), 0, "forwarding rules:");
  const auto r =
      expect_run("simulate torus " + catalogue_file("torus_3x3x3_general_5_steps.json"), 0, "complete after 5 steps");
  EXPECT_NE(r.output.find("counting bound with one packet per PU: ceil((P - 1)/6) = 5 steps"), std::string::npos)
      << r.output;
  // tables that are not in the catalogue: a 9-step 2 x 4 x 4 pairing table (the catalogue's has 8) and an 8-step
  // 3 x 3 x 4 general table (the catalogue's has 7)
  expect_run("simulate torus " + data("torus_2x4x4_pairing_9_steps.json"), 0, "complete after 9 steps");
  expect_run("simulate torus " + data("torus_3x3x4_general_8_steps.json"), 0, "complete after 8 steps");
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

TEST(cli_torus, a_switch_a_billion_steps_away_is_refused_at_once) {
  const std::string file = testing::TempDir() + "late-switch.json";
  std::ofstream(file) << R"({"format": "dancecard.torus-routing/1", "dims": [2, 2], "packets": 1,
      "forward": [[null, null, null, null], [null, null, null, null],
                  [null, null, null, null], [null, null, null, null]],
      "inject": [[0, null, null, null], [0, null, null, null], [0, null, null, null], [0, null, null, null]],
      "switches": [[0, 0, 1000000000, 1]]})";
  expect_run("simulate torus " + file, 2, "switches[0][2]: step 1000000000 is later than 80");
  expect_run("simulate torus " + file + " --max-switch-step 100", 2, "(the limit given)");
  expect_run("simulate torus --dims 2x2 --max-switch-step 100", 2, "--max-switch-step: only with a table file");
  std::remove(file.c_str());
}

}  // namespace

// Progress lines go to stderr on a terminal only (here a pseudo-terminal from script(1)); DANCECARD_PROGRESS_AFTER_MS=0
// shows them at once instead of after a second, so that what is seen does not hang on the machine's speed. --quiet
// and a pipe silence them; the result on stdout is the same either way.
TEST(cli_torus, progress_lines_on_a_terminal_only) {
  const std::string prove = std::string(DANCECARD_EXE) + " prove torus --dims 3x4 --model pairing --timeout 60";
  auto on_terminal = [](const std::string& command) {
    return run_shell("DANCECARD_PROGRESS_AFTER_MS=0 script -qec '" + command + "' /dev/null");
  };
  const std::string line = "prove torus: the least steps of the 3x4 torus, pairing model, one packet per PU: asking ";
  run_result r = on_terminal(prove);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find(line), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\r\033[K"), std::string::npos) << r.output;  // the line is cleared before the result
  const run_result quiet = on_terminal(prove + " --quiet");
  EXPECT_EQ(quiet.code, 0) << quiet.output;
  EXPECT_EQ(quiet.output.find("prove torus: the least steps"), std::string::npos) << quiet.output;
  const run_result piped = run_shell("DANCECARD_PROGRESS_AFTER_MS=0 " + prove);
  EXPECT_EQ(piped.code, 0) << piped.output;
  EXPECT_EQ(piped.output.find("prove torus: the least steps"), std::string::npos) << piped.output;
  const std::string answer = "3x4 torus, pairing model, one packet per PU: proven, minimum 4 steps";
  EXPECT_NE(piped.output.find(answer), std::string::npos) << piped.output;
  EXPECT_NE(r.output.find("\r\033[K" + answer), std::string::npos) << r.output;
  // the theorem book's line names the claims being checked
  r = on_terminal(std::string(DANCECARD_EXE) + " verify --only dance.table.S4");
  EXPECT_NE(r.output.find("verify: 1 claim"), std::string::npos) << r.output;
}
