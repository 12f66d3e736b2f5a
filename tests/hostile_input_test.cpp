// Hostile input for every JSON reader: each must refuse it with a format_error whose message names the place and
// quotes at most a short excerpt — never overflow the stack, never echo the whole value.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/formats/torus_evidence.hpp"
#include "dancecard/formats/torus_io.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::hrel;
using namespace dancecard::torus;
namespace {

struct reader {
  std::string name;
  std::function<void(std::string_view)> read;
  std::string prefix;  // a document of the format up to the value under attack
};

std::vector<reader> readers() {
  return {
      {"dance format", [](std::string_view t) { read_dance_json(t); }, R"({"format": )"},
      {"dance n", [](std::string_view t) { read_dance_json(t); }, R"({"format": "dancecard.dance/1", "n": )"},
      {"directed n", [](std::string_view t) { read_directed_json(t); }, R"({"format": "dancecard.directed/1", "n": )"},
      {"hrel P", [](std::string_view t) { read_hrel_instance(t); }, R"({"format": "dancecard.hrel/1", "P": )"},
      {"hrel packets", [](std::string_view t) { read_hrel_instance(t); },
       R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 0, "dst": 1, "packets": )"},
      {"hrel-schedule amount", [](std::string_view t) { read_hrel_schedule(t); },
       R"({"format": "dancecard.hrel-schedule/1", "P": 3, "slots": [{"duration": "1", )"
       R"("transfers": [{"from": 0, "to": 1, "message": 0, "amount": )"},
      {"torus dims", [](std::string_view t) { read_torus_routing(t); },
       R"({"format": "dancecard.torus-routing/1", "dims": [)"},
      {"torus evidence lower", [](std::string_view t) { read_torus_evidence(t); },
       R"({"format": "dancecard.torus-evidence/1", "cells": [{"torus": "3x3", "model": "general", "lower": )"},
  };
}

// Closes every bracket the prefix opened, after the value.
std::string close(const std::string& prefix) {
  std::string closing;
  for (char c : prefix) {
    if (c == '{') closing.insert(closing.begin(), '}');
    if (c == '[') closing.insert(closing.begin(), ']');
  }
  return closing;
}

TEST(hostile_json, a_value_nested_100000_deep_is_refused_with_a_short_message) {
  constexpr std::size_t depth = 100'000;
  const std::string deep = std::string(depth, '[') + std::string(depth, ']');
  for (const reader& r : readers()) {
    SCOPED_TRACE(r.name);
    try {
      r.read(r.prefix + deep + close(r.prefix));
      ADD_FAILURE() << "accepted";
    } catch (const format_error& e) {
      EXPECT_LT(std::string(e.what()).size(), 200u) << e.what();
    }
  }
}

TEST(hostile_json, a_huge_value_is_quoted_as_an_excerpt) {
  std::string huge(25'002, 'x');  // a string of 25,000 characters
  huge.front() = huge.back() = '"';
  std::string wide = "[0";  // an array of 5,000 numbers
  for (int k = 1; k < 5'000; ++k) (wide += ',') += std::to_string(k);
  wide += "]";
  for (const reader& r : readers())
    for (const std::string& value : {huge, wide}) {
      SCOPED_TRACE(r.name);
      try {
        r.read(r.prefix + value + close(r.prefix));
        ADD_FAILURE() << "accepted";
      } catch (const format_error& e) {
        EXPECT_LT(std::string(e.what()).size(), 200u) << std::string(e.what()).substr(0, 300);
      }
    }
}

std::string refusal(const std::function<void(std::string_view)>& read, std::string_view text) {
  try {
    read(text);
  } catch (const format_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(hostile_json, anything_after_a_nul_byte_is_refused_not_ignored) {
  const std::string valid = R"({"format": "dancecard.dance/1", "n": 2, "rounds": [[[0,1]]]})";
  EXPECT_EQ(read_dance_json(valid).rounds(), 1u);
  std::string text = valid + std::string(1, '\0') + "garbage";
  EXPECT_EQ(refusal([](std::string_view t) { read_dance_json(t); }, text),
            "line 1, column 61: a NUL byte: not JSON text");
  text = valid;
  text[30] = '\0';
  EXPECT_NE(refusal([](std::string_view t) { read_dance_json(t); }, text).find("a NUL byte"), std::string::npos);
}

TEST(hostile_json, a_key_given_twice_is_refused_at_every_level) {
  const auto dance = [](std::string_view t) { read_dance_json(t); };
  EXPECT_EQ(refusal(dance, R"({"format": "dancecard.dance/1", "n": 2, "rounds": "oops", "rounds": [[[0,1]]]})"),
            "'rounds': a key given twice in one object (JSON keeps one of them silently)");
  EXPECT_NE(refusal(dance, R"({"format": "dancecard.dance/1", "format": "dancecard.hrel/1", "n": 2, "rounds": []})")
                .find("'format'"),
            std::string::npos);
  const auto hrel = [](std::string_view t) { read_hrel_instance(t); };
  EXPECT_NE(
      refusal(
          hrel,
          R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 0, "dst": 1, "packets": 2, "packets": 5}]})")
          .find("'packets': a key given twice"),
      std::string::npos);
  // the same key in two different objects is fine
  EXPECT_EQ(
      read_hrel_instance(R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 0, "dst": 1, "packets": 2},
      {"src": 1, "dst": 2, "packets": 1}]})")
          .messages()
          .size(),
      2u);
}

TEST(hostile_json, an_unknown_key_inside_a_message_slot_or_transfer_is_refused) {
  EXPECT_EQ(
      refusal(
          [](std::string_view t) { read_hrel_instance(t); },
          R"({"format": "dancecard.hrel/1", "P": 3, "messages": [{"src": 0, "dst": 1, "packets": 2, "pakets": 5}]})"),
      "messages[0].pakets: unknown key (expected src, dst, packets)");
  const auto schedule = [](std::string_view t) { read_hrel_schedule(t); };
  EXPECT_EQ(refusal(schedule, R"({"format": "dancecard.hrel-schedule/1", "P": 3, )"
                              R"("slots": [{"duration": "1", "transfers": [], "durtion": 2}]})"),
            "slots[0].durtion: unknown key (expected duration, transfers)");
  EXPECT_EQ(
      refusal(schedule, R"({"format": "dancecard.hrel-schedule/1", "P": 3, "slots": [{"duration": "1", "transfers":
      [{"from": 0, "to": 1, "message": 0, "amount": 1, "via": 2}]}]})"),
      "slots[0].transfers[0].via: unknown key (expected from, to, message, amount)");
}

TEST(hostile_torus_table, a_switch_far_beyond_any_gossip_is_refused_unless_asked_for) {
  // A 2 x 2 table that never completes, with one switch at step 10^9: the simulator would run a billion steps.
  const auto table = [](std::uint64_t step) {
    return R"({"format": "dancecard.torus-routing/1", "dims": [2, 2], "packets": 1,
      "forward": [[null, null, null, null], [null, null, null, null],
                  [null, null, null, null], [null, null, null, null]],
      "inject": [[0, null, null, null], [0, null, null, null], [0, null, null, null], [0, null, null, null]],
      "switches": [[0, 0, )" +
           std::to_string(step) + R"(, 1]]})";
  };
  EXPECT_EQ(default_max_switch_step(4, 1), 80u);
  EXPECT_EQ(read_torus_routing(table(80)).switches.size(), 1u);
  EXPECT_NE(refusal([](std::string_view t) { read_torus_routing(t); }, table(81))
                .find("switches[0][2]: step 81 is later than 80"),
            std::string::npos);
  EXPECT_NE(refusal([](std::string_view t) { read_torus_routing(t); }, table(1'000'000'000)).find("switches[0][2]"),
            std::string::npos);
  EXPECT_EQ(read_torus_routing(table(1'000'000'000), 1'000'000'000).switches.front().step, 1'000'000'000u);
}

TEST(hostile_partner_matrix, a_huge_token_is_quoted_as_an_excerpt) {
  const std::string text = "1 " + std::string(100'000, 'x') + "\n2 1\n";
  const std::string message = refusal([](std::string_view t) { read_partner_matrix(t); }, text);
  EXPECT_NE(message, "accepted");
  EXPECT_LT(message.size(), 200u) << message.substr(0, 300);
}

}  // namespace
}  // namespace dancecard
