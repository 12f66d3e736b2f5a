// The DRAT checker: CaDiCaL's proofs of dance lower bounds are accepted; damaged proofs are rejected.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/smt/clausal.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::certificates;
namespace {

// a ∨ b, a ∨ ¬b force a; under a, the four clauses (¬a ∨ ±c ∨ ±d) leave a 2-variable contradiction that unit
// propagation does not see. The refutation needs (a), then (c), then the empty clause — each step in its place.
//   a = 1, b = 2, c = 3, d = 4
constexpr const char* formula = "p cnf 4 6\n1 2 0\n1 -2 0\n-1 3 4 0\n-1 3 -4 0\n-1 -3 4 0\n-1 -3 -4 0\n";
constexpr const char* proof = "1 0\n3 0\n0\n";

TEST(drat_check, accepts_a_minimal_refutation) {
  const drat_report r = check_drat(formula, proof);
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.lemmas, 3u);
  EXPECT_EQ(r.checked_lemmas, 3u);
}

TEST(drat_check, rejects_a_flipped_literal) {
  // (¬a) is not RUP (a alone propagates nothing) and not RAT: its resolvent with (a ∨ b) is (¬a ∨ b), not RUP.
  const drat_report r = check_drat(formula, "-1 0\n3 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.line, 1u);
  EXPECT_NE(r.problem.find("neither RUP nor RAT"), std::string::npos) << r.problem;
}

TEST(drat_check, rejects_a_dropped_lemma) {
  const drat_report r = check_drat(formula, "3 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.line, 2u);
}

TEST(drat_check, rejects_a_lemma_out_of_order) {
  // The empty clause moved before (c): it no longer follows, and nothing after it is read.
  const drat_report r = check_drat(formula, "1 0\n0\n3 0\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.line, 2u);
}

TEST(drat_check, honours_deletions_even_of_units) {
  // Deleting (a) before the empty clause leaves nothing that propagates to a conflict.
  const drat_report r = check_drat(formula, "1 0\n3 0\nd 1 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.deletions, 1u);
}

TEST(drat_check, accepts_a_rat_lemma) {
  // With (c) first, it is not RUP but RAT on c: its resolvents with (¬a ∨ ¬c ∨ ±d) are blocked by the originals.
  const drat_report r = check_drat(formula, "3 0\n1 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.rat_lemmas, 1u);
}

TEST(drat_check, a_proof_without_conflict_is_rejected) {
  EXPECT_EQ(check_drat(formula, "1 0\n").outcome, verdict::violated);
  EXPECT_EQ(check_drat(formula, "").outcome, verdict::violated);
  // A satisfiable formula has no refutation at all.
  EXPECT_EQ(check_drat("p cnf 2 2\n1 2 0\n-1 0\n", "0\n").outcome, verdict::violated);
}

TEST(drat_check, malformed_inputs_are_reported_with_place) {
  auto r = check_drat("1 2 0\n", "0\n");
  EXPECT_TRUE(r.malformed);
  r = check_drat("p cnf 2 1\n1 3 0\n", "0\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_EQ(r.line, 2u);
  EXPECT_NE(r.problem.find("exceeds the declared 2 variables"), std::string::npos) << r.problem;
  r = check_drat("p cnf 2 2\n1 2 0\n", "0\n");
  EXPECT_TRUE(r.malformed);
  r = check_drat(formula, "1 x 0\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_EQ(r.line, 1u);
  r = check_drat(formula, std::string("a\x01\x02", 3));
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("binary"), std::string::npos);
  // the least long long as a literal: its magnitude is taken without negating it (undefined; UBSan)
  r = check_drat("p cnf 2 1\n-9223372036854775808 0\n", "0\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("literal -9223372036854775808 exceeds the declared 2 variables"), std::string::npos)
      << r.problem;
  r = check_drat(formula, "-9223372036854775808 0\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("literal -9223372036854775808 beyond the supported"), std::string::npos) << r.problem;
}

// Binary DRAT of a text proof, written here from the format's definition (not by any solver): 'a' or 'd', each
// literal l as 2|l| + (l < 0) in 7-bit groups, lowest first, high bit on all but the last, then a 0 byte.
std::string binary_of(std::string_view text) {
  std::string out;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string word;
    bool started = false;
    while (in >> word) {
      if (!started) {
        started = true;
        if (word == "d") {
          out += 'd';
          continue;
        }
        out += 'a';
      }
      const long long lit = std::stoll(word);
      unsigned long long v = lit == 0 ? 0 : 2ull * static_cast<unsigned long long>(std::llabs(lit)) + (lit < 0 ? 1 : 0);
      while (v >= 128) {
        out += static_cast<char>((v & 127) | 128);
        v >>= 7;
      }
      out += static_cast<char>(v);
    }
  }
  return out;
}

// The formula and proof above with every variable v renamed to v + shift (literals of up to three bytes).
std::string shifted(std::string_view text, int shift) {
  std::string out;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string word;
    bool first = true;
    while (in >> word) {
      if (!first) out += ' ';
      first = false;
      if (word == "p" || word == "cnf" || word == "d" || word == "0")
        out += word;
      else if (line.rfind("p", 0) == 0)
        out += word == "4" ? std::to_string(4 + shift) : word;
      else
        out += std::to_string(std::stoll(word) > 0 ? std::stoll(word) + shift : std::stoll(word) - shift);
    }
    out += "\n";
  }
  return out;
}

TEST(drat_check, a_literal_with_leading_zeros_reads_as_its_value) {
  // 39 zeros and a 1 is the literal 1 (as other checkers read it); cut to 32 characters it would have read as 0, an
  // empty lemma before its time.
  const std::string one = std::string(39, '0') + "1", three = "-0" + std::string(35, '0') + "3";
  drat_report r = check_drat(formula, one + " 0\n3 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.lemmas, 3u);
  r = check_drat(formula, "1 0\n" + three.substr(1) + " 0\n0\n");  // 3 with 35 leading zeros
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  r = check_drat(formula, "1 0\n" + three + " 0\n0\n");  // -3 (as valid a lemma here as 3, by symmetry)
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.lemmas, 3u);
}

TEST(drat_check, a_literal_of_more_than_32_digits_is_malformed_not_truncated) {
  const drat_report r = check_drat(formula, "1" + std::string(40, '2') + " 0\n0\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("a literal of more than 32 digits"), std::string::npos) << r.problem;
}

TEST(drat_check, a_cnf_header_must_begin_with_p_alone) {
  const drat_report r = check_drat("pxyz cnf 2 2\n1 0\n-1 0\n", "0\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("header"), std::string::npos) << r.problem;
}

TEST(drat_check, a_satlib_file_ends_at_its_percent_line) {
  // SATLIB's uf files end with "%" and "0": read on, the "0" would be an empty clause and any proof would do. This
  // formula is satisfiable, so the empty proof must not be accepted.
  const drat_report r = check_drat("p cnf 2 2\n1 2 0\n-1 2 0\n%\n0\n\n", "0\n");
  EXPECT_FALSE(r.malformed) << r.problem;
  EXPECT_NE(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.original_clauses, 2u);
}

TEST(drat_check, copies_of_one_clause_are_counted_and_deleted_one_at_a_time) {
  // 200,000 copies of the lemma (a) share one slot of the checker's index (one probe each, not one per earlier copy),
  // and each deletion removes one copy: after 199,999 deletions (a) is still there and the refutation goes through;
  // after all 200,000 it is gone and the last step is not RUP.
  constexpr int copies = 200'000;
  std::string added, deleted;
  for (int k = 0; k < copies; ++k) added += "1 0\n";
  for (int k = 0; k + 1 < copies; ++k) deleted += "d 1 0\n";
  drat_report r = check_drat(formula, added + deleted + "3 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.lemmas, static_cast<std::uint64_t>(copies) + 2);
  r = check_drat(formula, added + deleted + "d 1 0\n3 0\n0\n");
  EXPECT_NE(r.outcome, verdict::holds) << describe(r);
  EXPECT_FALSE(r.malformed);
}

TEST(drat_check, reads_binary_drat_like_text) {
  drat_report r = check_drat(formula, binary_of(proof));
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_TRUE(r.binary_proof);
  EXPECT_EQ(r.lemmas, 3u);
  EXPECT_EQ(r.checked_lemmas, 3u);
  EXPECT_NE(describe(r).find("binary proof"), std::string::npos) << describe(r);
  // A flipped literal: rejected at the first item (binary proofs have no lines).
  r = check_drat(formula, binary_of("-1 0\n3 0\n0\n"));
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_FALSE(r.malformed);
  EXPECT_EQ(r.line, 1u);
  EXPECT_NE(describe(r).find("at proof item 1"), std::string::npos) << describe(r);
  // Deletions count as items: the empty clause after a deletion of (a) is item 4 and is not RUP.
  r = check_drat(formula, binary_of("1 0\n3 0\nd 1 0\n0\n"));
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.deletions, 1u);
  // Variables beyond 63 take two bytes and beyond 8191 three.
  for (int shift : {100, 20'000}) {
    const std::string big = shifted(formula, shift);
    r = check_drat(big, binary_of(shifted(proof, shift)));
    EXPECT_EQ(r.outcome, verdict::holds) << shift << ": " << describe(r);
    EXPECT_EQ(r.variables, static_cast<std::uint64_t>(4 + shift));
    EXPECT_EQ(check_drat(big, shifted(proof, shift)).outcome, verdict::holds);
    EXPECT_EQ(check_drat(big, binary_of(shifted("-1 0\n3 0\n0\n", shift))).outcome, verdict::violated);
  }
}

TEST(drat_check, the_rat_pivot_is_the_first_literal_as_written) {
  // Found by a random search against the earlier checker: (4 -3) is RAT on -3 but not on 4 (nor RUP) at its line, and
  // that checker, reading the pivot off literals that propagation had reordered, accepted it. DRAT takes the first
  // literal as written: (4 -3) is rejected, the same lemma written (-3 4) is accepted. Variable 4 is defined by the
  // first three lemmas (extended resolution: 4 <-> (-3 and -2)), each RAT on its first literal.
  const std::string cnf =
      "p cnf 3 15\n-3 1 2 0\n-2 -3 1 0\n1 -2 3 0\n-3 -1 2 0\n2 3 -1 0\n2 -3 1 0\n2 -3 1 0\n3 2 1 0\n-2 3 1 0\n1 3 2 "
      "0\n-3 2 -1 0\n-2 -3 1 0\n1 -3 -2 0\n3 -1 -2 0\n-1 -3 -2 0\n";
  const std::string proof = "4 3 2 0\n-4 -3 0\n-4 -2 0\n4 -3 0\n-4 0\n4 0\n4 0\n-4 0\n4 0\n4 0\n4 -3 0\n0\n";
  drat_report r = check_drat(cnf, proof);
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.line, 4u);
  EXPECT_NE(r.problem.find("lemma (4 -3 0)"), std::string::npos) << r.problem;
  std::string swapped = proof;
  swapped.replace(swapped.find("\n4 -3 0\n"), 9, "\n-3 4 0\n");
  r = check_drat(cnf, swapped);
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.rat_lemmas, 2u);
}

TEST(drat_check, text_comments_may_hold_any_byte_but_zero) {
  // UTF-8 in a comment is still text; a control byte outside comments is not, and says where it is.
  drat_report r = check_drat(formula,
                             "c preuve de r\xc3\xa9"
                             "futation\n1 0\n3 0\n0\n");
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_FALSE(r.binary_proof);
  r = check_drat(formula, "1 0\n3 \x01 0\n0\n");
  EXPECT_TRUE(r.malformed);
  EXPECT_FALSE(r.binary_proof);
  EXPECT_EQ(r.line, 2u);
}

TEST(drat_check, malformed_binary_drat_is_reported_with_its_item) {
  drat_report r = check_drat(formula, std::string("a\x02\x00"
                                                  "a\x06",
                                                  5));  // the second item never ends
  EXPECT_TRUE(r.malformed);
  EXPECT_TRUE(r.binary_proof);
  EXPECT_EQ(r.line, 2u);
  EXPECT_NE(r.problem.find("not terminated"), std::string::npos) << r.problem;
  r = check_drat(formula, std::string("a\x02\x00x\x06\x00", 6));  // 'x' starts no item
  EXPECT_TRUE(r.malformed);
  EXPECT_EQ(r.line, 2u);
  r = check_drat(formula, std::string("a\xff\xff\xff\xff\xff\x01\x00", 8));  // a literal of six bytes
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("longer than 5 bytes"), std::string::npos) << r.problem;
  r = check_drat(formula, std::string("a\x80\x80\x80\x20\x00", 6));  // variable 2^25: beyond the supported
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("beyond the supported"), std::string::npos) << r.problem;
}

TEST(drat_check, a_binary_proof_that_ends_in_text_says_so) {
  // "a 1" then the text "0\n" where the 0 byte belongs: read as literals 24 and 5 of an item that never ends.
  drat_report r = check_drat(formula, std::string("a\x02"
                                                  "0\n",
                                                  4));
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("ends in the text"), std::string::npos) << r.problem;
  r = check_drat(formula, std::string("a\x02\x00"
                                      "0\n",
                                      5));  // a whole item, then text
  EXPECT_TRUE(r.malformed);
  EXPECT_NE(r.problem.find("('0': text after binary items?)"), std::string::npos) << r.problem;
}

// (1), (¬1 ∨ 2), (¬2 ∨ 3), (¬2 ∨ ¬3): unsatisfiable. The proof deletes (¬1 ∨ 2), the reason of the top-level unit 2,
// and then adds (3), which is RUP only while that clause is present: Glucose writes such proofs.
constexpr const char* unit_formula = "p cnf 3 4\n1 0\n-1 2 0\n-2 3 0\n-2 -3 0\n";
constexpr const char* unit_deleting_proof = "d -1 2 0\n3 0\n0\n";

TEST(drat_check, a_deleted_unit_reason_is_honoured_by_default_and_the_message_names_the_cause) {
  const drat_report r = check_drat(unit_formula, unit_deleting_proof);
  EXPECT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.line, 3u);  // the empty clause: with (¬1 ∨ 2) gone, 2 is not propagated and nothing conflicts
  EXPECT_NE(r.problem.find("deletes 1 clause that was, when deleted, the reason of a top-level unit"),
            std::string::npos)
      << r.problem;
  EXPECT_NE(r.problem.find("--ignore-unit-deletions"), std::string::npos) << r.problem;
  EXPECT_EQ(r.ignored_deletions, 0u);
}

TEST(drat_check, ignore_unit_deletions_keeps_reasons_as_drat_trim_does) {
  const drat_report r = check_drat(unit_formula, unit_deleting_proof, drat_options{.ignore_unit_deletions = true});
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.ignored_deletions, 1u);
  EXPECT_NE(describe(r).find("1 deletions of top-level reasons ignored"), std::string::npos) << describe(r);
  // A deletion of a clause that is no reason is still honoured: without (a ∨ b) the lemma (a) does not follow.
  const drat_report s = check_drat(formula, "d 1 2 0\n1 0\n3 0\n0\n", drat_options{.ignore_unit_deletions = true});
  EXPECT_EQ(s.outcome, verdict::violated);
  EXPECT_EQ(s.ignored_deletions, 0u);
  // Ignoring deletions never makes a satisfiable formula refutable: (1), (¬1 ∨ 2) with the same moves.
  const drat_report t =
      check_drat("p cnf 3 2\n1 0\n-1 2 0\n", unit_deleting_proof, drat_options{.ignore_unit_deletions = true});
  EXPECT_EQ(t.outcome, verdict::violated);
  EXPECT_EQ(t.ignored_deletions, 1u);
}

TEST(drat_check, after_a_top_level_conflict_ignore_unit_deletions_keeps_every_clause) {
  // (1) and (¬1) conflict at the top level as soon as both are present; deleting either afterwards is ignored.
  const drat_report r =
      check_drat("p cnf 1 2\n1 0\n-1 0\n", "d 1 0\nd -1 0\n", drat_options{.ignore_unit_deletions = true});
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  EXPECT_EQ(r.ignored_deletions, 2u);
  EXPECT_EQ(check_drat("p cnf 1 2\n1 0\n-1 0\n", "d 1 0\nd -1 0\n").outcome, verdict::violated);
}

TEST(drat_check, deletions_match_clauses_by_content_in_any_order) {
  // ¬b forces a by (a ∨ b), and (¬a ∨ b) then conflicts: the empty clause is RUP until (¬a ∨ b) is deleted.
  constexpr const char* three = "p cnf 2 3\n1 2 0\n-1 2 0\n-2 0\n";
  EXPECT_EQ(check_drat(three, "0\n").outcome, verdict::holds);
  EXPECT_EQ(check_drat(three, "d 2 -1 0\n0\n").outcome, verdict::violated);     // the same clause, written b ∨ ¬a
  EXPECT_EQ(check_drat(three, "d 2 -1 -1 0\n0\n").outcome, verdict::violated);  // with a duplicate literal
  drat_report r = check_drat(three, "d -1 -2 0\n0\n");                          // no such clause: nothing is deleted
  EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
  // A lemma that repeats an original clause: one deletion leaves the other copy.
  EXPECT_EQ(check_drat(three, "-1 2 0\nd -1 2 0\n0\n").outcome, verdict::holds);
  EXPECT_EQ(check_drat(three, "-1 2 0\nd -1 2 0\nd 2 -1 0\n0\n").outcome, verdict::violated);
}

TEST(drat_check, a_streamed_proof_gives_the_same_report_in_any_pieces) {
  for (const std::string& p : {std::string(proof), binary_of(proof), std::string("-1 0\n3 0\n0\n"),
                               std::string("1 0\nc a comment\n3 0\n0\n"), binary_of("3 0\n1 0\n0\n")}) {
    const drat_report whole = check_drat(formula, p);
    std::size_t at = 0;
    const drat_report bytewise = check_drat(formula, drat_source([&](char* buffer, std::size_t) -> std::size_t {
                                              if (at == p.size()) return 0;
                                              buffer[0] = p[at++];
                                              return 1;
                                            }));
    std::istringstream stream(p);
    const drat_report streamed = check_drat(formula, stream);
    for (const drat_report* r : {&bytewise, &streamed}) {
      EXPECT_EQ(r->outcome, whole.outcome) << describe(*r);
      EXPECT_EQ(r->binary_proof, whole.binary_proof);
      EXPECT_EQ(r->lemmas, whole.lemmas);
      EXPECT_EQ(r->checked_lemmas, whole.checked_lemmas);
      EXPECT_EQ(r->line, whole.line);
    }
  }
}

TEST(clausal, cadical_proofs_of_dance_lower_bounds_are_accepted) {
  for (rank n : {3u, 4u, 5u, 6u, 8u}) {
    const cnf_formula cnf = dance_query_cnf({.n = n, .rounds = optimal_rounds(n) - 1, .requirements = {}});
    const clausal_result solved = solve_with_proof(cnf, 20'000);
    ASSERT_EQ(solved.answer, solver_answer::unsat) << "n = " << n;
    const drat_report r = solved.proof.check(cnf.dimacs());
    EXPECT_EQ(r.outcome, verdict::holds) << "n = " << n << ": " << describe(r);
    EXPECT_TRUE(r.binary_proof);
  }
}

TEST(clausal, text_and_binary_traces_of_one_query_are_the_same_proof) {
  // CaDiCaL is deterministic: the two encodings trace the same lemmas, and the checker must agree with itself.
  const cnf_formula cnf = dance_query_cnf({.n = 7, .rounds = optimal_rounds(7) - 1, .requirements = {}});
  const clausal_result binary = solve_with_proof(cnf, 20'000, drat_encoding::binary);
  const clausal_result text = solve_with_proof(cnf, 20'000, drat_encoding::text);
  ASSERT_EQ(binary.answer, solver_answer::unsat);
  ASSERT_EQ(text.answer, solver_answer::unsat);
  EXPECT_LT(binary.proof.bytes(), text.proof.bytes());
  const drat_report b = binary.proof.check(cnf.dimacs()), t = text.proof.check(cnf.dimacs());
  const drat_report b_string = check_drat(cnf.dimacs(), binary.proof.read());
  EXPECT_EQ(b.outcome, verdict::holds) << describe(b);
  EXPECT_EQ(t.outcome, verdict::holds) << describe(t);
  EXPECT_TRUE(b.binary_proof);
  EXPECT_FALSE(t.binary_proof);
  for (const drat_report* r : {&t, &b_string}) {
    EXPECT_EQ(r->lemmas, b.lemmas);
    EXPECT_EQ(r->deletions, b.deletions);
    EXPECT_EQ(r->checked_lemmas, b.checked_lemmas);
    EXPECT_EQ(r->core_clauses, b.core_clauses);
  }
  EXPECT_GT(b.lemmas, 10u);
}

TEST(clausal, a_truncated_cadical_proof_is_not_accepted_blindly) {
  const cnf_formula cnf = dance_query_cnf({.n = 6, .rounds = 4, .requirements = {}});
  const clausal_result solved = solve_with_proof(cnf, 20'000, drat_encoding::text);
  ASSERT_EQ(solved.answer, solver_answer::unsat);
  // Keep only the first line of the proof: far from a refutation.
  const std::string proof = solved.proof.read();
  const std::string first_line = proof.substr(0, proof.find('\n') + 1);
  EXPECT_EQ(check_drat(cnf.dimacs(), first_line).outcome, verdict::violated);
}

TEST(clausal, a_resumed_solve_goes_on_where_it_stopped) {
  // 10 people in 8 rounds: unsat, about 0.4 s for CaDiCaL here. Asked in slices of 1 ms, the query is answered all the
  // same, because each call goes on from what the solver learned before; started afresh, every slice would stop where
  // the first did, and the loop would run out.
  const cnf_formula cnf = dance_query_cnf({.n = 10, .rounds = optimal_rounds(10) - 1, .requirements = {}});
  ASSERT_EQ(solve_for_model(cnf, 60'000).answer, solver_answer::unsat);
  resumable_solve resumed(cnf);
  std::size_t slices = 0;
  clausal_result r;
  do {
    r = resumed.solve(1);
    ++slices;
  } while (r.answer == solver_answer::unknown && slices < 20'000);
  EXPECT_EQ(r.answer, solver_answer::unsat);
  EXPECT_GT(slices, 1u) << "answered within the first millisecond: the query is too easy to show anything";
  EXPECT_GT(resumed.seconds(), 0.0);
  EXPECT_EQ(resumed.solve(1).answer, solver_answer::unsat);  // asked again after the answer
  // Traced, the lemmas of every slice make one proof, which the checker accepts for the formula.
  for (drat_encoding encoding : {drat_encoding::binary, drat_encoding::text}) {
    resumable_solve traced(cnf, encoding);
    std::size_t traced_slices = 0;
    do {
      r = traced.solve(1);
      ++traced_slices;
    } while (r.answer == solver_answer::unknown && traced_slices < 20'000);
    ASSERT_EQ(r.answer, solver_answer::unsat);
    EXPECT_GT(traced_slices, 1u);
    const drat_report check = r.proof.check(cnf.dimacs());
    EXPECT_EQ(check.outcome, verdict::holds) << describe(check);
    EXPECT_EQ(check.binary_proof, encoding == drat_encoding::binary);
    const clausal_result again = traced.solve(1);
    EXPECT_EQ(again.answer, solver_answer::unsat);
    EXPECT_EQ(again.proof.bytes(), r.proof.bytes());
  }
  // moved, it goes on: a satisfiable query answered after a move
  resumable_solve first(dance_query_cnf({.n = 6, .rounds = optimal_rounds(6), .requirements = {}}));
  resumable_solve moved = std::move(first);
  EXPECT_EQ(moved.solve(0).answer, solver_answer::sat);
}

TEST(clausal, the_cnf_at_the_optimum_is_satisfiable_and_its_model_is_a_schedule) {
  // The CNF says exactly (i)-(iii): a model at R = T(n) must decode to a schedule the checker accepts.
  for (rank n : {5u, 6u, 7u}) {
    const std::size_t rounds = optimal_rounds(n);
    const cnf_formula cnf = dance_query_cnf({.n = n, .rounds = rounds, .requirements = {}});
    const clausal_result solved = solve_with_proof(cnf, 20'000);
    ASSERT_EQ(solved.answer, solver_answer::sat);
    std::vector<std::pair<rank, rank>> pairs;
    for (rank a = 0; a < n; ++a)
      for (rank b = a + 1; b < n; ++b) pairs.emplace_back(a, b);
    dance_schedule s(n);
    for (std::size_t r = 0; r < rounds; ++r) {
      s.begin_round();
      for (int v : solved.model)
        if (static_cast<std::size_t>(v - 1) % rounds == r) {
          const auto& p = pairs[static_cast<std::size_t>(v - 1) / rounds];
          s.add_dance(p.first, p.second);
        }
    }
    EXPECT_TRUE(check_dance_schedule(s).holds()) << "n = " << n;
  }
}

}  // namespace
}  // namespace dancecard
