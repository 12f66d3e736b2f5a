// Reading and writing dance schedules: round trips and positioned error messages.
#include <gtest/gtest.h>

#include <sstream>

#include "dancecard/core/dance/generators.hpp"
#include "dancecard/formats/dance_io.hpp"

namespace dancecard {

using namespace dancecard::dance;
namespace {

std::string error_of(std::string_view text) {
  try {
    read_dance_input(text);
  } catch (const format_error& e) {
    return e.what();
  }
  return "";
}

TEST(dance_json, reads_the_documented_example) {
  const dance_schedule s = read_dance_json(
      R"({"format": "dancecard.dance/1", "n": 4, "rounds": [[[0,1],[2,3]], [[0,2],[1,3]], [[0,3],[1,2]]]})");
  EXPECT_EQ(s.people(), 4u);
  EXPECT_EQ(s.rounds(), 3u);
  EXPECT_EQ(s.round(2)[1], (couple{1, 2}));
}

TEST(dance_json, round_trips_every_generator) {
  for (dance_algorithm a : all_dance_algorithms) {
    const dance_schedule s = generate(a, 11);
    std::ostringstream out;
    write_dance_json(out, s, name(a));
    EXPECT_EQ(read_dance_json(out.str()), s) << name(a);
  }
}

TEST(dance_json, empty_rounds_survive_a_round_trip) {
  dance_schedule s(3);
  s.begin_round();
  s.begin_round();
  s.add_dance(0, 2);
  std::ostringstream out;
  write_dance_json(out, s);
  EXPECT_EQ(read_dance_json(out.str()), s);
}

TEST(dance_json, errors_name_problem_and_place) {
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/1", "n": 4, "rounds": [[[0,1],[2,7]]]})"),
            "rounds[0][1][1]: rank 7 is out of range for n = 4 (ranks are 0-based: 0..3)");
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/1", "n": 0, "rounds": []})"),
            "n: must be a positive integer, got 0");
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/1", "n": -3, "rounds": []})"),
            "n: must be a positive integer, got -3");
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/1", "n": "4", "rounds": []})"),
            "n: expected the number of people (an integer), got a string");
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/1", "n": 4, "rounds": [[[0,"x"]]]})"),
            "rounds[0][0][1]: expected a rank (an integer), got a string");
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/1", "n": 4, "rounds": [[[0,1,2]]]})"),
            "rounds[0][0]: expected a pair [a, b], got an array of 3");
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/1", "n": 4, "rounds": {}})"),
            "rounds: expected an array of rounds, got an object");
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/2", "n": 4, "rounds": []})"),
            "format: expected \"dancecard.dance/1\", got \"dancecard.dance/2\"");
  EXPECT_EQ(error_of(R"({"n": 4, "rounds": []})"), "format: missing; expected \"dancecard.dance/1\"");
  EXPECT_EQ(error_of(R"({"format": "dancecard.torus-routing/1", "dims": [3, 3]})"),
            "format: expected \"dancecard.dance/1\", got \"dancecard.torus-routing/1\": this is a torus routing table, "
            "not a dance "
            "schedule (the wrong file, or arguments swapped?)");
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/1", "n": 4, "round": []})"),
            "round: unknown key (expected format, n, rounds, algorithm, comment)");
  EXPECT_EQ(error_of(R"({"format": "dancecard.dance/1", "n": 2000000, "rounds": []})"),
            "n: is 2000000, above the supported maximum 100000");
}

TEST(dance_json, truncated_json_reports_line_and_column) {
  const std::string e = error_of("{\"format\": \"dancecard.dance/1\",\n \"n\": 4, \"rounds\": [[[0,1]");
  EXPECT_EQ(e.rfind("line 2, column ", 0), 0u) << e;
  EXPECT_NE(e.find("invalid JSON"), std::string::npos) << e;
}

// A number beyond a double's range is not a parse error to nlohmann::json but an out_of_range exception without an
// offset (found by fuzzing the CLI: it escaped and aborted `check dance` and `simulate torus`).
TEST(dance_json, number_overflow_is_a_format_error_naming_line_and_column) {
  EXPECT_EQ(error_of("{\"format\": \"dancecard.dance/1\",\n \"n\": 1e999, \"rounds\": []}"),
            "line 2, column 7: invalid JSON: number overflow parsing '1e999'");
  EXPECT_EQ(error_of("{\"format\": \"dancecard.dance/1\", \"n\": -4E+400, \"rounds\": []}"),
            "line 1, column 38: invalid JSON: number overflow parsing '-4E+400'");
}

TEST(partner_matrix_text, reads_the_paper_form_with_comments) {
  const partner_matrix m = read_partner_matrix("# G_5\n2 3 4 5 1\n1 4 2 3 5\n\n3 1 5 2 4\n5 2 1 4 3\n4 5 3 1 2\n");
  EXPECT_EQ(m.people(), 5u);
  EXPECT_EQ(m.rounds(), 5u);
  EXPECT_EQ(m.at(3, 3), 5u);
}

TEST(partner_matrix_text, round_trips) {
  const partner_matrix m = to_partner_matrix(factorization_schedule(7));
  std::ostringstream out;
  write_partner_matrix(out, m);
  EXPECT_EQ(read_partner_matrix(out.str()), m);
}

TEST(partner_matrix_text, errors_name_line_and_column) {
  EXPECT_EQ(error_of("2 1\n1 x\n"), "line 2, column 3: expected a positive integer (a 1-based person), got 'x'");
  EXPECT_EQ(error_of("2 3 1\n1 2\n"), "line 2: row has 2 entries, but the first row (line 1) has 3");
  EXPECT_EQ(error_of("2 3\n1 2\n"),
            "line 1, entry 2: person 3 is out of range for n = 2 rows (persons are 1-based: 1..2)");
  EXPECT_EQ(error_of("2 0\n1 2\n"), "line 1, column 3: entry 0: persons are numbered from 1");
  EXPECT_EQ(error_of("  \n\n"), "line 1: empty input: expected a JSON schedule or a matrix");
}

}  // namespace
}  // namespace dancecard
