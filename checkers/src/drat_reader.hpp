// The DRAT checker's reading half (internal to checkers/src): DIMACS and DRAT, text or binary, parsed byte by byte as
// the proof arrives, into one arena of literals, the clauses and the history of additions and deletions that the
// checking half (drat_check.cpp) walks backward. Variables are renumbered densely as they occur.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "dancecard/checkers/drat_check.hpp"
#include "drat_clause_table.hpp"

namespace dancecard::certificates::drat_detail {

struct malformed_input {
  std::string what;
  std::size_t line;
};

constexpr long long max_proof_variable = 1LL << 24;

struct clause {
  std::uint64_t start = 0;
  std::uint32_t size = 0;
  std::uint8_t flags = 0;
};
constexpr std::uint8_t original_flag = 1, active_flag = 2, marked_flag = 4;

// |lit| of a literal as read, without the undefined negation of the least long long (a literal
// -9223372036854775808 in a damaged file: found by the damaged-file property under UBSan).
inline std::uint64_t magnitude_of(long long lit) {
  return lit < 0 ? 0ull - static_cast<std::uint64_t>(lit) : static_cast<std::uint64_t>(lit);
}

// Index of a literal: 2v for v, 2v + 1 for ¬v.
inline std::size_t index(int lit) { return 2 * static_cast<std::size_t>(std::abs(lit)) + (lit < 0 ? 1 : 0); }

class drat_reader {
 public:
  explicit drat_reader(drat_report& out) : out_(out) {}

  void read_cnf(std::string_view text) {
    std::size_t line_number = 0;
    bool header = false, ended = false;
    std::uint64_t declared = 0;
    for_each_line(text, [&](std::string_view line) {
      ++line_number;
      if (ended) return;
      const std::size_t first = line.find_first_not_of(" \t\r");
      if (first == std::string_view::npos || line[first] == 'c') return;
      // SATLIB's files end with a line "%" and then "0": the formula ends at the "%" (read on, the "0" would be an
      // empty clause, and every proof would be accepted for a formula that may be satisfiable).
      if (line[first] == '%') {
        ended = true;
        return;
      }
      if (line[first] == 'p') {
        std::istringstream in{std::string(line.substr(first))};
        std::string p, cnf;
        long long v = -1, c = -1;
        if (header || !(in >> p >> cnf >> v >> c) || p != "p" || cnf != "cnf" || v < 0 || c < 0)
          throw malformed_input{"expected one header 'p cnf <variables> <clauses>'", line_number};
        if (v > max_proof_variable) throw malformed_input{"more variables than the supported 16777216", line_number};
        header = true;
        out_.variables = static_cast<std::uint64_t>(v);
        declared = static_cast<std::uint64_t>(c);
        return;
      }
      if (!header) throw malformed_input{"clauses before the 'p cnf' header", line_number};
      for_each_integer(line, line_number, [&](long long lit) {
        if (lit == 0) {
          add_clause(true, line_number);
          ++out_.original_clauses;
        } else {
          if (magnitude_of(lit) > out_.variables)
            throw malformed_input{"literal " + std::to_string(lit) + " exceeds the declared " +
                                      std::to_string(out_.variables) + " variables",
                                  line_number};
          pending_.push_back(dense(lit));
        }
      });
    });
    if (!header) throw malformed_input{"no 'p cnf' header", line_number};
    if (!pending_.empty()) throw malformed_input{"the last clause is not terminated by 0", line_number};
    if (out_.original_clauses != declared)
      throw malformed_input{"the header declares " + std::to_string(declared) + " clauses, the file has " +
                                std::to_string(out_.original_clauses),
                            line_number};
    first_lemma_ = static_cast<std::uint32_t>(clauses_.size());
  }

  // The proof, piece by piece; returns false once the empty clause has been read (the rest is never looked at).
  bool feed(const char* data, std::size_t size) {
    if (ended_ || size == 0) return !ended_;
    if (!format_known_) detect_format(data, size);
    for (std::size_t i = 0; i < size && !ended_; ++i) {
      if (binary_)
        binary_byte(static_cast<unsigned char>(data[i]));
      else
        text_byte(static_cast<unsigned char>(data[i]));
    }
    return !ended_;
  }

  void finish_proof() {
    if (ended_) return;
    if (binary_) {
      if (in_item_)
        throw malformed_input{
            std::string("binary DRAT: the last item is not terminated by a 0 byte") +
                (tail_ == ('0' << 8 | '\n') ? " (it ends in the text \"0\\n\": a text line after binary items?)" : ""),
            items_ + 1};
      return;
    }
    end_token();
    if (in_item_ && !pending_.empty()) throw malformed_input{"the last proof line is not terminated by 0", line_ + 1};
  }

  bool binary() const { return binary_; }

 protected:
  // Clause ids are below `assumption`; the two values above mark a literal's reason as none or an assumption.
  static constexpr std::uint32_t no_reason = 0xffffffffu, assumption = 0xfffffffeu;

  // ----- reading -----

  // A binary proof starts with 'a' or 'd' and ends every item in a 0 byte, which text DRAT never has (text is
  // printable ASCII and white space, and comments may hold anything else but 0): so a leading 'a', or a 0 byte in
  // the first piece, means binary. (A binary proof whose first item does not end within the first piece — a
  // clause of some hundred thousand literals — would be misread as text and then refused as malformed, not
  // misjudged.)
  void detect_format(const char* data, std::size_t size) {
    format_known_ = true;
    binary_ = static_cast<unsigned char>(data[0]) == 'a' || std::memchr(data, 0, size) != nullptr;
  }
  static bool text_byte_allowed(unsigned char c) {
    return c == '\n' || c == '\r' || c == '\t' || (c >= 32 && c <= 126);
  }

  void text_byte(unsigned char c) {
    if (c == '\n') {
      end_token();
      ++line_;
      in_comment_ = false;
      line_has_content_ = false;
      return;
    }
    if (in_comment_ && c != 0) return;
    if (!text_byte_allowed(c))
      throw malformed_input{"byte " + std::to_string(static_cast<unsigned>(c)) +
                                " is not text DRAT (and the proof's first bytes did not look binary)",
                            line_ + 1};
    if (c == ' ' || c == '\t' || c == '\r') {
      end_token();
      return;
    }
    if (!line_has_content_ && !token_ && c == 'c') {
      in_comment_ = true;
      return;
    }
    line_has_content_ = true;
    if (c == 'd' && !token_ && !in_item_) {
      deletion_ = in_item_ = true;
      return;
    }
    if (!token_) {
      token_ = true;
      token_text_.clear();
    }
    // Leading zeros are dropped as they come ("0025" is 25, as other checkers read it), so that the token kept is
    // the number's own digits; one longer than 32 characters is no literal dancecard reads, and says so.
    if ((token_text_ == "0" || token_text_ == "-0") && c >= '0' && c <= '9') token_text_.pop_back();
    if (token_text_.size() < 32) {
      token_text_.push_back(static_cast<char>(c));
    } else {
      token_too_long_ = true;
    }
  }

  void end_token() {
    if (!token_) return;
    token_ = false;
    if (token_too_long_) {
      token_too_long_ = false;
      throw malformed_input{"a literal of more than 32 digits, beginning '" + token_text_ + "'", line_ + 1};
    }
    long long value = 0;
    const char* begin = token_text_.data();
    const char* end = begin + token_text_.size();
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end)
      throw malformed_input{"expected an integer literal, got '" + token_text_ + "'", line_ + 1};
    literal(value, line_ + 1);
  }

  void binary_byte(unsigned char c) {
    tail_ = static_cast<std::uint16_t>(tail_ << 8 | c);
    if (!in_item_) {
      if (c != 'a' && c != 'd')
        throw malformed_input{
            "binary DRAT: expected 'a' or 'd' to start an item, got byte " + std::to_string(static_cast<unsigned>(c)) +
                (c > 32 && c < 127 ? std::string(" ('") + static_cast<char>(c) + "': text after binary items?)" : ""),
            items_ + 1};
      in_item_ = true;
      deletion_ = c == 'd';
      varint_ = 0;
      shift_ = 0;
      return;
    }
    if (shift_ > 28) throw malformed_input{"binary DRAT: a literal longer than 5 bytes", items_ + 1};
    varint_ |= static_cast<std::uint64_t>(c & 0x7f) << shift_;
    if (c & 0x80) {
      shift_ += 7;
      return;
    }
    const std::uint64_t v = varint_;
    varint_ = 0;
    shift_ = 0;
    if (v == 1) throw malformed_input{"binary DRAT: the encoding of a negated variable 0", items_ + 1};
    const auto magnitude = static_cast<long long>(v >> 1);
    literal(v == 0 ? 0 : (v & 1 ? -magnitude : magnitude), items_ + 1);
  }

  void literal(long long lit, std::size_t place) {
    if (lit != 0) {
      // New variables (extended resolution) are allowed, within reason: the checker keeps a few bytes per variable.
      if (magnitude_of(lit) > static_cast<std::uint64_t>(max_proof_variable))
        throw malformed_input{"literal " + std::to_string(lit) + " beyond the supported " +
                                  std::to_string(max_proof_variable) + " variables",
                              place};
      pending_.push_back(dense(lit));
      in_item_ = true;
      return;
    }
    ++items_;
    if (deletion_) {
      remove_clause();
      ++out_.deletions;
    } else {
      const std::uint32_t id = add_clause(false, place);
      events_.push_back(id << 1);
      ++out_.lemmas;
      if (clauses_[id].size == 0) ended_ = true;  // the empty clause: the refutation is complete
    }
    in_item_ = deletion_ = false;
  }

  template <class F>
  static void for_each_line(std::string_view text, F f) {
    for (std::size_t pos = 0; pos < text.size();) {
      std::size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      f(text.substr(pos, end - pos));
      pos = end + 1;
    }
  }

  template <class F>
  static void for_each_integer(std::string_view line, std::size_t line_number, F f) {
    for (std::size_t i = 0; i < line.size();) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      if (i >= line.size()) break;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
      long long value = 0;
      auto [ptr, ec] = std::from_chars(line.data() + i, line.data() + j, value);
      if (ec != std::errc() || ptr != line.data() + j)
        throw malformed_input{"expected an integer literal, got '" +
                                  std::string(line.substr(i, std::min<std::size_t>(j - i, 40))) +
                                  (j - i > 40 ? "…'" : "'"),
                              line_number};
      f(value);
      i = j;
    }
  }

  // Variables are renumbered densely in the order they first occur, so that what the checker keeps per variable
  // (about 110 bytes: watch lists, values, reasons, stamps) grows with the variables the files use, not with the
  // numbers they name: "p cnf 16777216 0", or a proof of a few bytes naming variable 16,777,216, would otherwise cost
  // 1.8 GB. The map from a variable as written is kept in pages of 4,096 numbers, allocated as they are touched.
  static constexpr std::size_t dense_page_bits = 12;
  int dense(long long lit) {
    const std::size_t var = static_cast<std::size_t>(magnitude_of(lit));
    const std::size_t page = var >> dense_page_bits, at = var & ((std::size_t{1} << dense_page_bits) - 1);
    if (page >= dense_pages_.size()) dense_pages_.resize(page + 1);
    std::vector<int>& numbers = dense_pages_[page];
    if (numbers.empty()) numbers.assign(std::size_t{1} << dense_page_bits, 0);
    if (numbers[at] == 0) {
      numbers[at] = ++max_var_;
      written_of_.push_back(static_cast<int>(var));
      stamp_.resize(2 * (static_cast<std::size_t>(max_var_) + 1), 0);
    }
    return lit < 0 ? -numbers[at] : numbers[at];
  }
  // A literal as the files write it.
  int written(int lit) const {
    return lit < 0 ? -written_of_[static_cast<std::size_t>(-lit)] : written_of_[static_cast<std::size_t>(lit)];
  }

  // Drops duplicate literals of pending_ (order kept: a lemma's first literal is its RAT pivot), stamps the rest
  // with a fresh generation and returns their order-independent hash.
  std::uint64_t normalize_pending() {
    ++generation_;
    std::size_t keep = 0;
    for (int lit : pending_) {
      std::uint32_t& s = stamp_[index(lit)];
      if (s == generation_) continue;
      s = generation_;
      pending_[keep++] = lit;
    }
    pending_.resize(keep);
    std::uint64_t h = mix(keep);
    for (int lit : pending_) h += mix(static_cast<std::uint64_t>(index(lit)));
    return h;
  }

  std::uint32_t add_clause(bool original, std::size_t line) {
    if (clauses_.size() >= assumption) throw malformed_input{"more clauses than the supported 4294967293", line};
    const std::uint64_t h = normalize_pending();
    const auto id = static_cast<std::uint32_t>(clauses_.size());
    lits_.push_back(static_cast<int>(pending_.size()));  // the size, just before the literals (visit reads it there)
    clauses_.push_back({lits_.size(), static_cast<std::uint32_t>(pending_.size()),
                        static_cast<std::uint8_t>(active_flag | (original ? original_flag : 0))});
    lits_.insert(lits_.end(), pending_.begin(), pending_.end());
    if (!original) {
      lemma_line_.push_back(line);
      lemma_pivot_.push_back(pending_.empty() ? 0 : pending_.front());
    }
    present_.insert(h, id, [&](std::uint32_t other) { return same_as_pending(other); });
    pending_.clear();
    return id;
  }

  // Whether clause id has exactly the literals of pending_ (stamped with the current generation by normalize_pending).
  bool same_as_pending(std::uint32_t id) const {
    const clause& c = clauses_[id];
    if (c.size != pending_.size()) return false;
    for (std::uint32_t j = 0; j < c.size; ++j)
      if (stamp_[index(lits_[c.start + j])] != generation_) return false;
    return true;
  }

  void remove_clause() {
    const std::uint64_t h = normalize_pending();
    const auto found = present_.erase(h, [&](std::uint32_t id) { return same_as_pending(id); });
    pending_.clear();
    if (!found) return;  // deleting an absent clause changes nothing
    clauses_[*found].flags &= static_cast<std::uint8_t>(~active_flag);
    events_.push_back(*found << 1 | 1u);
  }

  drat_report& out_;
  // reading
  std::vector<int> pending_;          // the literals of the item being read
  std::vector<std::uint32_t> stamp_;  // per literal index: generation of the item that holds it
  std::uint32_t generation_ = 0;
  clause_table present_;
  bool format_known_ = false, binary_ = false;
  bool in_item_ = false, deletion_ = false, ended_ = false;
  bool token_ = false, token_too_long_ = false, in_comment_ = false, line_has_content_ = false;
  std::string token_text_;
  std::uint64_t varint_ = 0;
  std::uint16_t tail_ = 0;  // the last two bytes of a binary proof (for the message of one that ends in text)
  unsigned shift_ = 0;
  std::size_t line_ = 0, items_ = 0;
  // the formula and the proof
  std::vector<int> lits_;
  std::vector<clause> clauses_;
  std::vector<std::uint32_t> events_;    // clause id << 1, | 1 for a deletion
  std::vector<std::size_t> lemma_line_;  // per lemma (id − first_lemma_): where it ends in the proof
  std::vector<int> lemma_pivot_;         // per lemma: its first literal as written (0 for the empty clause)
  std::uint32_t first_lemma_ = 0;
  int max_var_ = 0;                            // variables are 1..max_var_, renumbered densely
  std::vector<std::vector<int>> dense_pages_;  // per variable as written, in pages: its dense number (0: not yet seen)
  std::vector<int> written_of_{0};             // per dense number: the variable as written
};

}  // namespace dancecard::certificates::drat_detail
