// Cutting-planes certificate checker: exact int64 arithmetic with overflow detection, constraints kept sparse,
// sums accumulated in a dense scratch array indexed by variable.
#include "dancecard/checkers/cutting_planes_check.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "cutting_planes_program.hpp"

namespace dancecard::certificates {

namespace {

using detail_cp::linear;
using detail_cp::malformed_input;
using detail_cp::parse_unsigned;
using detail_cp::program;
using detail_cp::rejected;

std::int64_t checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t out;
  if (__builtin_add_overflow(a, b, &out)) throw rejected{"integer overflow in a coefficient"};
  return out;
}
std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) throw rejected{"integer overflow in a coefficient"};
  return out;
}
// A zero-initialised array of int64 coefficients, one per variable of the instance, allocated in pages of 256 as
// they are first written: a certificate that names a huge instance but touches few of its variables costs memory
// for those only (a 70-byte certificate naming 100,000,000 variables would otherwise allocate 800 MB at once).
class paged_coefficients {
 public:
  void reset(std::uint64_t size) {
    pages_.clear();
    pages_.resize(static_cast<std::size_t>((size + page - 1) / page));
  }
  std::int64_t get(std::uint64_t v) const {
    const auto& p = pages_[static_cast<std::size_t>(v / page)];
    return p ? p[v % page] : 0;
  }
  std::int64_t& at(std::uint64_t v) {
    auto& p = pages_[static_cast<std::size_t>(v / page)];
    if (!p) p = std::make_unique<std::int64_t[]>(page);  // value-initialised: zeros
    return p[v % page];
  }

 private:
  static constexpr std::uint64_t page = 256;
  std::vector<std::unique_ptr<std::int64_t[]>> pages_;
};

std::int64_t ceil_div(std::int64_t a, std::int64_t k) {  // k >= 1
  // C++ division truncates toward zero, which rounds a negative quotient up; no negation, so a = INT64_MIN (a sum
  // can reach it) is no undefined behaviour
  return a >= 0 ? a / k + (a % k != 0 ? 1 : 0) : a / k;
}

// The dance instance: variables x(a, b, r) numbered (pair index) · R + r.
class dance_instance : public program {
 public:
  dance_instance(std::uint64_t n, std::uint64_t rounds) : n_(n), rounds_(rounds) {}

  std::uint64_t variables() const override { return n_ * (n_ - 1) / 2 * rounds_; }

  linear axiom(std::string_view name) const override {
    const axiom_name parsed(name);
    const auto& parts = parsed.parts;
    auto number = [&](std::size_t k, std::uint64_t limit, const char* what) { return parsed.number(k, limit, what); };
    linear out;
    const std::string_view kind = parts[0];
    if ((kind == "pair" || kind == "pair-atmost") && parts.size() == 3) {
      const std::uint64_t a = number(1, n_, "person"), b = number(2, n_, "person");
      if (a >= b) throw malformed_input{"pair axioms name a < b: '" + std::string(name) + "'"};
      const std::int64_t sign = kind == "pair" ? 1 : -1;
      for (std::uint64_t r = 0; r < rounds_; ++r) out.terms.push_back({var(a, b, r), sign});
      out.rhs = sign;
    } else if (kind == "person" && parts.size() == 3) {
      const std::uint64_t p = number(1, n_, "person"), r = number(2, rounds_, "round");
      for (std::uint64_t q = 0; q < n_; ++q)
        if (q != p) out.terms.push_back({var(std::min(p, q), std::max(p, q), r), -1});
      out.rhs = -1;
    } else if ((kind == "lower" || kind == "upper") && parts.size() == 4) {
      const std::uint64_t a = number(1, n_, "person"), b = number(2, n_, "person"), r = number(3, rounds_, "round");
      if (a >= b) throw malformed_input{"bound axioms name a < b: '" + std::string(name) + "'"};
      out.terms.push_back({var(a, b, r), kind == "lower" ? 1 : -1});
      out.rhs = kind == "lower" ? 0 : -1;
    } else {
      throw malformed_input{"unknown axiom '" + std::string(name) +
                            "' (pair:a:b, pair-atmost:a:b, person:p:r, lower:a:b:r, upper:a:b:r)"};
    }
    return out;
  }

 private:
  std::uint64_t var(std::uint64_t a, std::uint64_t b, std::uint64_t r) const {
    const std::uint64_t pair = a * (2 * n_ - a - 1) / 2 + (b - a - 1);
    return pair * rounds_ + r;
  }
  std::uint64_t n_, rounds_;
};

// The directed (full-duplex all-to-all) instance: x(i, j, r) = "i sends to j in round r", numbered (i·n + j)·R + r.
class directed_instance : public program {
 public:
  directed_instance(std::uint64_t n, std::uint64_t rounds) : n_(n), rounds_(rounds) {}

  std::uint64_t variables() const override { return n_ * n_ * rounds_; }

  linear axiom(std::string_view name) const override {
    const axiom_name parsed(name);
    const auto& parts = parsed.parts;
    linear out;
    const std::string_view kind = parts[0];
    if (kind == "send" && parts.size() == 3) {
      const std::uint64_t i = parsed.number(1, n_, "rank"), j = parsed.number(2, n_, "rank");
      if (i == j) throw malformed_input{"send axioms name two different ranks: '" + std::string(name) + "'"};
      for (std::uint64_t r = 0; r < rounds_; ++r) out.terms.push_back({var(i, j, r), 1});
      out.rhs = 1;
    } else if ((kind == "sender" || kind == "receiver") && parts.size() == 3) {
      const std::uint64_t p = parsed.number(1, n_, "rank"), r = parsed.number(2, rounds_, "round");
      for (std::uint64_t q = 0; q < n_; ++q)
        if (q != p) out.terms.push_back({kind == "sender" ? var(p, q, r) : var(q, p, r), -1});
      out.rhs = -1;
    } else {
      throw malformed_input{"unknown axiom '" + std::string(name) + "' (send:i:j, sender:i:r, receiver:j:r)"};
    }
    return out;
  }

 private:
  std::uint64_t var(std::uint64_t i, std::uint64_t j, std::uint64_t r) const { return (i * n_ + j) * rounds_ + r; }
  std::uint64_t n_, rounds_;
};

// The h-relation instance: "every message m (src_m → dst_m, k·packets_m pieces of 1/k packet) reaches its
// destination within `slots` slots of length 1/k, half duplex". x(t, a, b, m) = "in slot t PE a sends one piece of m to
// PE b", numbered ((t·M + m)·P + a)·P + b with forwarding=1 (every a ≠ b exists), t·M + m with forwarding=0 (only
// a = src_m, b = dst_m). The model is the plain one — moves back to the source or out of the destination are allowed —
// so a refutation of it refutes every schedule with pieces of 1/k, however the solver restricted its own encoding.
class hrel_program : public program {
 public:
  struct message {
    std::uint64_t src, dst;
    std::int64_t pieces;  // k · packets
  };
  hrel_program(std::uint64_t pes, std::uint64_t slots, bool forwarding, std::vector<message> messages)
      : pes_(pes), slots_(slots), forwarding_(forwarding), messages_(std::move(messages)) {}

  std::uint64_t variables() const override { return slots_ * messages_.size() * (forwarding_ ? pes_ * pes_ : 1); }

  linear axiom(std::string_view name) const override {
    const axiom_name parsed(name);
    const auto& parts = parsed.parts;
    const std::uint64_t M = messages_.size();
    linear out;
    const std::string_view kind = parts[0];
    if (kind == "busy" && parts.size() == 3) {  // PE p takes part in at most one move in slot t (half duplex)
      const std::uint64_t p = parsed.number(1, pes_, "PE"), t = parsed.number(2, slots_, "slot");
      for (std::uint64_t m = 0; m < M; ++m) {
        if (!forwarding_) {  // the one move of m, if it touches p
          if (messages_[m].src == p || messages_[m].dst == p)
            out.terms.push_back({var(t, m, messages_[m].src, messages_[m].dst), -1});
          continue;
        }
        for (std::uint64_t q = 0; q < pes_; ++q)
          if (q != p) {
            out.terms.push_back({var(t, m, p, q), -1});
            out.terms.push_back({var(t, m, q, p), -1});
          }
      }
      out.rhs = -1;
    } else if ((kind == "hold" && parts.size() == 4) || (kind == "final" && parts.size() == 3) ||
               (kind == "deliver" && parts.size() == 2)) {
      // hold:p:m:t — p sends in slots 0..t no more pieces of m than it had at first or received in slots 0..t−1;
      // final:p:m — p ends with no fewer than 0 pieces; deliver:m — the destination ends with all of them:
      //   Σ received − Σ sent ≥ −initial (hold, final), ≥ k·packets (deliver)
      const std::uint64_t m = parsed.number(kind == "deliver" ? 1 : 2, M, "message");
      const std::uint64_t p = kind == "deliver" ? messages_[m].dst : parsed.number(1, pes_, "PE");
      const std::uint64_t last = kind == "hold" ? parsed.number(3, slots_, "slot") : slots_ - 1;
      for (std::uint64_t t = 0; t < slots_ && t <= last; ++t)
        for (std::uint64_t q = 0; q < pes_; ++q) {
          if (q == p) continue;
          if (exists(m, p, q)) out.terms.push_back({var(t, m, p, q), -1});
          if (exists(m, q, p) && (kind != "hold" || t < last)) out.terms.push_back({var(t, m, q, p), 1});
        }
      const std::int64_t initial = p == messages_[m].src ? messages_[m].pieces : 0;
      out.rhs = kind == "deliver" ? messages_[m].pieces : -initial;
    } else if ((kind == "lower" || kind == "upper") && parts.size() == 5) {
      const std::uint64_t t = parsed.number(1, slots_, "slot"), a = parsed.number(2, pes_, "PE"),
                          b = parsed.number(3, pes_, "PE"), m = parsed.number(4, M, "message");
      if (a == b || !exists(m, a, b))
        throw malformed_input{"no such move (" +
                              std::string(forwarding_ ? "a = b" : "without forwarding only src → dst") + "): '" +
                              std::string(name) + "'"};
      out.terms.push_back({var(t, m, a, b), kind == "lower" ? 1 : -1});
      out.rhs = kind == "lower" ? 0 : -1;
    } else {
      throw malformed_input{"unknown axiom '" + std::string(name) +
                            "' (busy:p:t, hold:p:m:t, final:p:m, deliver:m, lower:t:a:b:m, upper:t:a:b:m)"};
    }
    return out;
  }

 private:
  bool exists(std::uint64_t m, std::uint64_t a, std::uint64_t b) const {
    return forwarding_ || (a == messages_[m].src && b == messages_[m].dst);
  }
  std::uint64_t var(std::uint64_t t, std::uint64_t m, std::uint64_t a, std::uint64_t b) const {
    const std::uint64_t slot_message = t * messages_.size() + m;
    return forwarding_ ? (slot_message * pes_ + a) * pes_ + b : slot_message;
  }
  std::uint64_t pes_, slots_;
  bool forwarding_;
  std::vector<message> messages_;
};

class checker {
 public:
  explicit checker(cutting_planes_report& out) : out_(out) {}

  void line(std::string_view text) {
    std::vector<std::string_view> tokens;
    for (std::size_t i = 0; i < text.size();) {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
      std::size_t j = i;
      while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\r') ++j;
      if (j > i) tokens.push_back(text.substr(i, j - i));
      i = j;
    }
    // A '#' not followed by a digit starts a comment (#12 is a reference to derived constraint 12).
    for (std::size_t k = 0; k < tokens.size(); ++k)
      if (tokens[k].front() == '#' && (tokens[k].size() == 1 || tokens[k][1] < '0' || tokens[k][1] > '9')) {
        tokens.resize(k);
        break;
      }
    if (tokens.empty()) return;
    if (!header_seen_) {
      if (tokens.size() != 1 || tokens[0] != cutting_planes_format_name)
        throw malformed_input{"the first line must be '" + std::string(cutting_planes_format_name) + "'"};
      header_seen_ = true;
      return;
    }
    if (done_) throw malformed_input{"text after the contradiction"};
    if (tokens[0] == "instance") return instance(tokens);
    if (!instance_) throw malformed_input{"an 'instance' line must come before the derivation"};
    if (tokens[0] == "c") return derive(tokens);
    if (tokens[0] == "del" && tokens.size() == 2) {
      if (derived_.erase(reference_id(tokens[1])) == 0)
        throw rejected{"del " + std::string(tokens[1]) + ": no such derived constraint"};
      return;
    }
    if (tokens[0] == "contradiction" && tokens.size() == 2) return contradiction(tokens[1]);
    throw malformed_input{"unknown step '" + std::string(tokens[0]) + "' (c, del, contradiction)"};
  }

  void finish() {
    if (!header_seen_) throw malformed_input{"empty certificate"};
    if (!done_) throw rejected{"the certificate ends without deriving a contradiction"};
  }

 private:
  void instance(const std::vector<std::string_view>& tokens) {
    if (instance_) throw malformed_input{"a second 'instance' line"};
    if (tokens.size() >= 2 && tokens[1] == "hrel") return hrel_instance_line(tokens);
    if (tokens.size() >= 2 && tokens[1] == "collective") {
      std::string name;
      instance_ = detail_cp::collective_program(tokens, name);
      return allocate(std::move(name));
    }
    if (tokens.size() != 4 || (tokens[1] != "dance" && tokens[1] != "directed") || tokens[2].substr(0, 2) != "n=" ||
        tokens[3].substr(0, 7) != "rounds=")
      throw malformed_input{
          "expected 'instance dance|directed n=<N> rounds=<R>' or 'instance hrel pes=<P> k=<K> "
          "slots=<T> forwarding=0|1 messages=<s>><d>*<packets>,...'"};
    const std::uint64_t n = parse_unsigned(tokens[2].substr(2), "n");
    const std::uint64_t rounds = parse_unsigned(tokens[3].substr(7), "rounds");
    if (n < 2 || n > 100'000 || rounds > 1'000'000) throw malformed_input{"instance size out of the supported range"};
    if (tokens[1] == "dance")
      instance_ = std::make_unique<dance_instance>(n, rounds);
    else
      instance_ = std::make_unique<directed_instance>(n, rounds);
    allocate(std::string(tokens[1]) + " n=" + std::to_string(n) + " rounds=" + std::to_string(rounds));
  }

  void hrel_instance_line(const std::vector<std::string_view>& tokens) {
    const char* keys[] = {"pes=", "k=", "slots=", "forwarding=", "messages="};
    if (tokens.size() != 7)
      throw malformed_input{"expected 'instance hrel pes=<P> k=<K> slots=<T> forwarding=0|1 messages=...'"};
    std::string_view values[5];
    for (std::size_t i = 0; i < 5; ++i) {
      const std::string_view key = keys[i];
      if (tokens[i + 2].substr(0, key.size()) != key)
        throw malformed_input{std::string("instance hrel: expected '")
                                  .append(key)
                                  .append("...', got '")
                                  .append(tokens[i + 2])
                                  .append("'")};
      values[i] = tokens[i + 2].substr(key.size());
    }
    const std::uint64_t pes = parse_unsigned(values[0], "pes"), k = parse_unsigned(values[1], "k"),
                        slots = parse_unsigned(values[2], "slots"),
                        forwarding = parse_unsigned(values[3], "forwarding");
    if (pes < 2 || pes > 100'000 || k < 1 || k > 1'000'000 || slots > 1'000'000 || forwarding > 1)
      throw malformed_input{
          "instance hrel: pes (2..100000), k (1..1000000), slots (<= 1000000) or forwarding (0|1) out of range"};
    std::vector<hrel_program::message> messages;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
    for (std::size_t start = 0; start <= values[4].size();) {
      std::size_t comma = values[4].find(',', start);
      if (comma == std::string_view::npos) comma = values[4].size();
      const std::string_view item = values[4].substr(start, comma - start);
      const std::size_t arrow = item.find('>'), star = item.find('*');
      if (arrow == std::string_view::npos || star == std::string_view::npos || star < arrow)
        throw malformed_input{"instance hrel: message '" + std::string(item) + "' is not <src>><dst>*<packets>"};
      const std::uint64_t src = parse_unsigned(item.substr(0, arrow), "a source PE");
      const std::uint64_t dst = parse_unsigned(item.substr(arrow + 1, star - arrow - 1), "a destination PE");
      const std::uint64_t packets = parse_unsigned(item.substr(star + 1), "a packet count");
      if (src >= pes || dst >= pes || src == dst || packets == 0)
        throw malformed_input{"instance hrel: message '" + std::string(item) +
                              "' needs src ≠ dst below pes and packets >= 1"};
      if (packets > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / k)
        throw malformed_input{"instance hrel: message '" + std::string(item) + "': k · packets beyond 64 bits"};
      messages.push_back({src, dst, static_cast<std::int64_t>(packets * k)});
      pairs.emplace_back(src, dst);
      start = comma + 1;
    }
    std::sort(pairs.begin(), pairs.end());
    if (std::adjacent_find(pairs.begin(), pairs.end()) != pairs.end())
      throw malformed_input{"instance hrel: two messages with the same source and destination"};
    std::uint64_t variables =
        0;  // slots · messages (· pes² with forwarding), exactly: it must not wrap before the check
    if (__builtin_mul_overflow(slots, static_cast<std::uint64_t>(messages.size()), &variables) ||
        __builtin_mul_overflow(variables, forwarding == 1 ? pes * pes : 1, &variables) || variables > 100'000'000ull)
      throw malformed_input{"instance too large: slots · messages (· pes² with forwarding) above 100000000 variables"};
    instance_ = std::make_unique<hrel_program>(pes, slots, forwarding == 1, std::move(messages));
    std::string name = "hrel";
    for (std::size_t i = 2; i < tokens.size(); ++i) name.append(" ").append(tokens[i]);
    allocate(name);
  }

  void allocate(std::string name) {
    if (instance_->variables() > 100'000'000ull)  // the checker keeps 8 bytes per variable
      throw malformed_input{"instance too large: " + std::to_string(instance_->variables()) +
                            " variables (limit 100000000)"};
    scratch_.reset(instance_->variables());
    out_.instance = std::move(name);
  }

  std::uint64_t reference_id(std::string_view token) const {
    if (token.empty() || token[0] != '#')
      throw malformed_input{"expected a derived constraint #k, got '" + std::string(token) + "'"};
    return parse_unsigned(token.substr(1), "a constraint number");
  }

  const linear& lookup(std::string_view token, linear& axiom_storage) const {
    if (!token.empty() && token[0] == '#') {
      auto it = derived_.find(reference_id(token));
      if (it == derived_.end())
        throw rejected{"constraint " + std::string(token) + " is not derived (yet), or deleted"};
      return it->second;
    }
    axiom_storage = instance_->axiom(token);
    return axiom_storage;
  }

  void derive(const std::vector<std::string_view>& tokens) {
    if (tokens.size() < 3) throw malformed_input{"expected 'c <id> sum ...' or 'c <id> div <k> <ref>'"};
    const std::uint64_t id = parse_unsigned(tokens[1], "a constraint number");
    if (id != next_id_)
      throw rejected{"constraint number " + std::to_string(id) + " out of order (expected " + std::to_string(next_id_) +
                     ")"};
    linear result;
    if (tokens[2] == "sum") {
      if (tokens.size() < 5 || tokens.size() % 2 != 1)
        throw malformed_input{"'sum' takes pairs of <multiplier> <reference>"};
      std::vector<std::uint64_t> touched;
      std::int64_t rhs = 0;
      linear storage;
      // Σ m_i·R_i with equal references merged first (m·R + m'·R = (m + m')·R, the same sum): a line that names one
      // axiom 2,000 times expands it once, not 2,000 times. The references keep the order of their first mention.
      std::vector<std::pair<std::string_view, std::int64_t>> terms;
      std::unordered_map<std::string_view, std::size_t> position;
      for (std::size_t k = 3; k + 1 < tokens.size(); k += 2) {
        const std::uint64_t m = parse_unsigned(tokens[k], "a non-negative multiplier");
        if (m > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          throw rejected{"multiplier too large"};
        const auto mult = static_cast<std::int64_t>(m);
        const auto [at, fresh] = position.try_emplace(tokens[k + 1], terms.size());
        std::int64_t merged = 0;
        if (!fresh && !__builtin_add_overflow(terms[at->second].second, mult, &merged)) {
          terms[at->second].second = merged;
        } else {  // the first mention, or a sum of multipliers past int64 (its terms may still fit): a term of its own
          at->second = terms.size();
          terms.emplace_back(tokens[k + 1], mult);
        }
      }
      for (const auto& [reference, mult] : terms) {
        const linear& c = lookup(reference, storage);
        for (auto [v, a] : c.terms) {
          if (scratch_.get(v) == 0) touched.push_back(v);  // a variable cancelled and touched again is listed twice
          std::int64_t& slot = scratch_.at(v);
          slot = checked_add(slot, checked_mul(mult, a));
        }
        rhs = checked_add(rhs, checked_mul(mult, c.rhs));
      }
      for (std::uint64_t v : touched) {  // a repeated entry finds its slot already cleared and adds nothing
        if (scratch_.get(v) != 0) result.terms.push_back({v, scratch_.get(v)});
        scratch_.at(v) = 0;
      }
      result.rhs = rhs;
    } else if (tokens[2] == "div" && tokens.size() == 5) {
      const std::uint64_t k = parse_unsigned(tokens[3], "a divisor");
      // a divisor of 0 breaks the format's syntax (div d, d >= 1), as a negative multiplier does: malformed, not
      // rejected
      if (k == 0) throw malformed_input{"a divisor must be at least 1, got 0"};
      if (k > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) throw rejected{"divisor too large"};
      linear storage;
      const linear& c = lookup(tokens[4], storage);
      for (auto [v, a] : c.terms) {
        const std::int64_t q = ceil_div(a, static_cast<std::int64_t>(k));
        if (q != 0) result.terms.push_back({v, q});
      }
      result.rhs = ceil_div(c.rhs, static_cast<std::int64_t>(k));
    } else {
      throw malformed_input{"unknown rule '" + std::string(tokens[2]) + "' (sum, div)"};
    }
    out_.largest_constraint = std::max<std::uint64_t>(out_.largest_constraint, result.terms.size());
    derived_.emplace(next_id_++, std::move(result));
    ++out_.steps;
  }

  void contradiction(std::string_view token) {
    linear storage;
    const linear& c = lookup(token, storage);
    std::int64_t best = 0;  // the largest value the left side can take over 0/1 assignments
    for (auto [v, a] : c.terms)
      if (a > 0) best = checked_add(best, a);
    if (best >= c.rhs)
      throw rejected{std::string(token) +
                     " is not a contradiction: some 0/1 values satisfy it (the left side can reach " +
                     std::to_string(best) + ", the right side is " + std::to_string(c.rhs) + ")"};
    done_ = true;
  }

  cutting_planes_report& out_;
  bool header_seen_ = false, done_ = false;
  std::unique_ptr<program> instance_;
  std::unordered_map<std::uint64_t, linear> derived_;
  std::uint64_t next_id_ = 1;
  paged_coefficients scratch_;
};

}  // namespace

cutting_planes_report check_cutting_planes(std::string_view text) {
  cutting_planes_report out;
  checker c(out);
  std::size_t line_number = 0;
  try {
    for (std::size_t pos = 0; pos < text.size();) {
      std::size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      ++line_number;
      c.line(text.substr(pos, end - pos));
      pos = end + 1;
    }
    c.finish();
    out.outcome = verdict::holds;
  } catch (const malformed_input& e) {
    out.malformed = true;
    out.line = line_number;
    out.problem = e.what;
  } catch (const rejected& e) {
    out.line = line_number;
    out.problem = e.what;
  } catch (const std::bad_alloc&) {
    out.malformed = true;
    out.line = line_number;
    out.problem = "out of memory";
  }
  return out;
}

std::string describe(const cutting_planes_report& r) {
  std::ostringstream s;
  if (r.outcome == verdict::holds) {
    s << "accepted: " << r.instance << " is infeasible (" << r.steps << " cutting-planes steps, largest constraint "
      << r.largest_constraint << " terms)";
  } else {
    s << (r.malformed ? "malformed" : "rejected") << " at line " << r.line << ": " << r.problem;
  }
  return s.str();
}

}  // namespace dancecard::certificates
