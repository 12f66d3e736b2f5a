// DRAT checking, backward with core marking. See drat_check.hpp for the method and its sources.
#include "dancecard/checkers/drat_check.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace dancecard {

namespace {

struct malformed_input {
  std::string what;
  std::size_t line;
};

struct clause {
  std::size_t start = 0;
  std::uint32_t size = 0;
  bool original = false;
  bool active = false;
  bool marked = false;
};

enum class event_kind { add, remove };
struct event {
  event_kind kind;
  std::uint32_t clause;
  std::size_t line;
};

class drat_checker {
 public:
  explicit drat_checker(drat_report& out) : out_(out) {}

  void read_cnf(std::string_view text) {
    std::size_t line_number = 0;
    bool header = false;
    std::uint64_t declared = 0;
    std::vector<int> pending;
    for_each_line(text, [&](std::string_view line) {
      ++line_number;
      const std::size_t first = line.find_first_not_of(" \t\r");
      if (first == std::string_view::npos || line[first] == 'c' || line[first] == '%') return;
      if (line[first] == 'p') {
        std::istringstream in{std::string(line.substr(first))};
        std::string p, cnf;
        long long v = -1, c = -1;
        if (header || !(in >> p >> cnf >> v >> c) || cnf != "cnf" || v < 0 || c < 0)
          throw malformed_input{"expected one header 'p cnf <variables> <clauses>'", line_number};
        if (v > max_proof_variable) throw malformed_input{"more variables than the supported 16777216", line_number};
        header = true;
        out_.variables = static_cast<std::uint64_t>(v);
        declared = static_cast<std::uint64_t>(c);
        grow(static_cast<int>(v));
        return;
      }
      if (!header) throw malformed_input{"clauses before the 'p cnf' header", line_number};
      for_each_integer(line, line_number, [&](long long lit) {
        if (lit == 0) {
          add_clause(pending, true);
          ++out_.original_clauses;
          pending.clear();
        } else {
          if (static_cast<std::uint64_t>(std::llabs(lit)) > out_.variables)
            throw malformed_input{"literal " + std::to_string(lit) + " exceeds the declared " +
                                      std::to_string(out_.variables) + " variables", line_number};
          pending.push_back(static_cast<int>(lit));
        }
      });
    });
    if (!header) throw malformed_input{"no 'p cnf' header", line_number};
    if (!pending.empty()) throw malformed_input{"the last clause is not terminated by 0", line_number};
    if (out_.original_clauses != declared)
      throw malformed_input{"the header declares " + std::to_string(declared) + " clauses, the file has " +
                                std::to_string(out_.original_clauses), line_number};
  }

  void read_proof(std::string_view text) {
    for (unsigned char c : text)
      if (c != '\n' && c != '\r' && c != '\t' && (c < 32 || c > 126))
        throw malformed_input{"this is not text DRAT (binary DRAT is not supported: ask the solver for text)", 0};
    std::size_t line_number = 0;
    std::vector<int> pending;
    bool deletion = false, in_item = false;
    for_each_line(text, [&](std::string_view line) {
      ++line_number;
      if (ended_) return;
      std::size_t first = line.find_first_not_of(" \t\r");
      if (first == std::string_view::npos || line[first] == 'c') return;
      if (!in_item) {
        deletion = line[first] == 'd';
        if (deletion) line = line.substr(first + 1);
      }
      in_item = true;
      for_each_integer(line, line_number, [&](long long lit) {
        if (ended_) return;
        if (lit != 0) {
          // New variables (extended resolution) are allowed, within reason: the checker keeps a few bytes per variable.
          if (std::llabs(lit) > max_proof_variable)
            throw malformed_input{"literal " + std::to_string(lit) + " beyond the supported " +
                                      std::to_string(max_proof_variable) + " variables", line_number};
          grow(static_cast<int>(std::llabs(lit)));
          pending.push_back(static_cast<int>(lit));
          return;
        }
        if (deletion) {
          remove_clause(pending, line_number);
          ++out_.deletions;
        } else {
          const std::uint32_t id = add_clause(pending, false);
          events_.push_back({event_kind::add, id, line_number});
          ++out_.lemmas;
          if (clauses_[id].size == 0) ended_ = true;  // the empty clause: the refutation is complete
        }
        pending.clear();
        in_item = false;
        deletion = false;
      });
    });
    if (in_item && !pending.empty() && !ended_) throw malformed_input{"the last proof line is not terminated by 0", line_number};
  }

  void check() {
    values_.assign(2 * (max_var_ + 1), 0);
    reason_.assign(max_var_ + 1, no_reason);
    seen_.assign(max_var_ + 1, 0);
    watches_.assign(2 * (max_var_ + 1), {});
    unit_position_.assign(clauses_.size(), none);
    for (std::uint32_t id = 0; id < clauses_.size(); ++id)
      if (clauses_[id].active) attach(id);
    // The refutation ends either in the empty clause (the last event, checked like any lemma) or in a conflict of
    // the final formula by unit propagation.
    if (ended_) {
      clauses_[events_.back().clause].marked = true;
    } else if (!conflict_under({})) {
      fail(0, "the proof neither derives the empty clause nor ends in a formula that propagates to a conflict");
      return;
    }
    for (std::size_t k = events_.size(); k-- > 0;) {
      const event& e = events_[k];
      clause& c = clauses_[e.clause];
      if (e.kind == event_kind::remove) {
        c.active = true;  // going back in time: the clause was present before its deletion
        attach(e.clause);
        continue;
      }
      c.active = false;  // a lemma may not be used to justify itself or anything before it
      detach(e.clause);
      if (!c.marked) continue;
      ++out_.checked_lemmas;
      const std::vector<int> lemma(lits_.begin() + static_cast<std::ptrdiff_t>(c.start),
                                   lits_.begin() + static_cast<std::ptrdiff_t>(c.start + c.size));
      if (conflict_under(negations(lemma))) continue;
      if (!lemma.empty() && resolution_asymmetric_tautology(lemma)) {
        ++out_.rat_lemmas;
        continue;
      }
      fail(e.line, "lemma" + text_of(lemma) + " is neither RUP nor RAT (on its first literal) at this point");
      return;
    }
    for (const clause& c : clauses_) out_.core_clauses += c.original && c.marked ? 1 : 0;
    out_.outcome = verdict::holds;
  }

 private:
  static constexpr std::int64_t no_reason = -1, assumption = -2;
  static constexpr long long max_proof_variable = 1LL << 24;
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  // Only present clauses are watched (and listed as units or empty clauses): a clause joins when it becomes present
  // and leaves when it stops being present, so propagation never walks over clauses of another time.
  void attach(std::uint32_t id) {
    const clause& c = clauses_[id];
    if (c.size >= 2) {
      watches_[index(lits_[c.start])].push_back(id);
      watches_[index(lits_[c.start + 1])].push_back(id);
    } else {
      auto& list = c.size == 1 ? units_ : empties_;
      unit_position_[id] = list.size();
      list.push_back(id);
    }
  }
  void detach(std::uint32_t id) {
    const clause& c = clauses_[id];
    if (c.size >= 2) {
      for (int j = 0; j < 2; ++j) {
        auto& list = watches_[index(lits_[c.start + static_cast<std::size_t>(j)])];
        auto it = std::find(list.begin(), list.end(), id);
        if (it != list.end()) {
          *it = list.back();
          list.pop_back();
        }
      }
    } else {
      auto& list = c.size == 1 ? units_ : empties_;
      const std::size_t at = unit_position_[id];
      unit_position_[list.back()] = at;
      list[at] = list.back();
      list.pop_back();
      unit_position_[id] = none;
    }
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
        throw malformed_input{"expected an integer literal, got '" + std::string(line.substr(i, j - i)) + "'", line_number};
      f(value);
      i = j;
    }
  }

  static std::size_t index(int lit) { return 2 * static_cast<std::size_t>(std::abs(lit)) + (lit < 0 ? 1 : 0); }
  static std::vector<int> negations(const std::vector<int>& lits) {
    std::vector<int> out;
    out.reserve(lits.size());
    for (int l : lits) out.push_back(-l);
    return out;
  }
  static std::string text_of(const std::vector<int>& lits) {
    std::string s = " (";
    for (int l : lits) s += std::to_string(l) + " ";
    return s + "0)";
  }

  void grow(int var) { max_var_ = std::max(max_var_, var); }

  // The lookup key of a clause: its sorted literals.
  static std::vector<int> key(std::vector<int> lits) {
    std::sort(lits.begin(), lits.end());
    return lits;
  }
  static std::uint64_t hash(const std::vector<int>& sorted) {
    std::uint64_t h = 1469598103934665603ull;
    for (int l : sorted) h = (h ^ static_cast<std::uint32_t>(l)) * 1099511628211ull;
    return h;
  }

  // Duplicate literals dropped, order kept otherwise (a lemma's first literal is its RAT pivot).
  static std::vector<int> without_duplicates(const std::vector<int>& lits) {
    std::vector<int> unique;
    for (int l : lits)
      if (std::find(unique.begin(), unique.end(), l) == unique.end()) unique.push_back(l);
    return unique;
  }

  std::uint32_t add_clause(const std::vector<int>& lits, bool original) {
    const std::vector<int> unique = without_duplicates(lits);
    const auto id = static_cast<std::uint32_t>(clauses_.size());
    clauses_.push_back({lits_.size(), static_cast<std::uint32_t>(unique.size()), original, true, false});
    lits_.insert(lits_.end(), unique.begin(), unique.end());
    present_[hash(key(unique))].push_back(id);
    return id;
  }

  void remove_clause(const std::vector<int>& lits, std::size_t line) {
    const std::vector<int> sorted = key(without_duplicates(lits));
    auto it = present_.find(hash(sorted));
    if (it == present_.end()) return;  // deleting an absent clause changes nothing
    auto& ids = it->second;
    for (std::size_t k = ids.size(); k-- > 0;) {
      const clause& c = clauses_[ids[k]];
      std::vector<int> other(lits_.begin() + static_cast<std::ptrdiff_t>(c.start),
                             lits_.begin() + static_cast<std::ptrdiff_t>(c.start + c.size));
      if (key(other) != sorted) continue;
      clauses_[ids[k]].active = false;
      events_.push_back({event_kind::remove, ids[k], line});
      ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(k));
      return;
    }
  }

  int value(int lit) const { return values_[index(lit)]; }
  void assign(int lit, std::int64_t why) {
    values_[index(lit)] = 1;
    values_[index(-lit)] = -1;
    reason_[static_cast<std::size_t>(std::abs(lit))] = why;
    trail_.push_back(lit);
  }
  void reset() {
    for (int lit : trail_) {
      values_[index(lit)] = values_[index(-lit)] = 0;
      reason_[static_cast<std::size_t>(std::abs(lit))] = no_reason;
    }
    trail_.clear();
  }

  // Unit propagation over the active clauses; returns the conflicting clause or -1.
  std::int64_t propagate(std::size_t from) {
    for (std::size_t head = from; head < trail_.size(); ++head) {
      const int falsified = -trail_[head];
      auto& list = watches_[index(falsified)];
      std::size_t keep = 0;
      std::int64_t conflict = -1;
      for (std::size_t k = 0; k < list.size(); ++k) {
        const std::uint32_t id = list[k];
        const clause& c = clauses_[id];
        if (conflict >= 0) {
          list[keep++] = id;
          continue;
        }
        int* l = &lits_[c.start];
        if (l[0] == falsified) std::swap(l[0], l[1]);
        if (value(l[0]) == 1) {
          list[keep++] = id;
          continue;
        }
        bool moved = false;
        for (std::uint32_t j = 2; j < c.size; ++j)
          if (value(l[j]) != -1) {
            std::swap(l[1], l[j]);
            watches_[index(l[1])].push_back(id);
            moved = true;
            break;
          }
        if (moved) continue;
        list[keep++] = id;
        if (value(l[0]) == -1) conflict = id;
        else assign(l[0], id);
      }
      list.resize(keep);
      if (conflict >= 0) return conflict;
    }
    return -1;
  }

  // Assumes the literals, propagates; on a conflict marks every clause the conflict depends on and returns true.
  bool conflict_under(const std::vector<int>& assumptions) {
    reset();
    if (!empties_.empty()) {
      clauses_[empties_.front()].marked = true;
      return true;
    }
    for (int a : assumptions) {
      if (value(a) == -1) return true;  // the clause contains a literal and its negation: a tautology
      if (value(a) == 0) assign(a, assumption);
    }
    std::int64_t conflict = -1;
    for (std::uint32_t id : units_) {
      const int lit = lits_[clauses_[id].start];
      if (value(lit) == -1) {
        conflict = id;
        break;
      }
      if (value(lit) == 0) assign(lit, id);
    }
    if (conflict < 0) conflict = propagate(0);
    if (conflict < 0) return false;
    mark(static_cast<std::uint32_t>(conflict));
    return true;
  }

  // Marks the conflict clause and, transitively, the reasons of the assignments it rests on.
  void mark(std::uint32_t conflict) {
    std::vector<std::uint32_t> work{conflict};
    std::vector<std::size_t> touched;
    while (!work.empty()) {
      const std::uint32_t id = work.back();
      work.pop_back();
      clause& c = clauses_[id];
      c.marked = true;
      for (std::uint32_t j = 0; j < c.size; ++j) {
        const auto v = static_cast<std::size_t>(std::abs(lits_[c.start + j]));
        if (seen_[v]) continue;
        seen_[v] = 1;
        touched.push_back(v);
        if (reason_[v] >= 0 && static_cast<std::uint32_t>(reason_[v]) != id) work.push_back(static_cast<std::uint32_t>(reason_[v]));
      }
    }
    for (std::size_t v : touched) seen_[v] = 0;
  }

  bool resolution_asymmetric_tautology(const std::vector<int>& lemma) {
    const int pivot = lemma.front();
    std::vector<std::uint32_t> used;
    for (std::uint32_t id = 0; id < clauses_.size(); ++id) {
      const clause& d = clauses_[id];
      if (!d.active) continue;
      const int* l = &lits_[d.start];
      if (std::find(l, l + d.size, -pivot) == l + d.size) continue;
      std::vector<int> resolvent = lemma;
      for (std::uint32_t j = 0; j < d.size; ++j)
        if (l[j] != -pivot) resolvent.push_back(l[j]);
      if (!conflict_under(negations(resolvent))) return false;
      used.push_back(id);
    }
    for (std::uint32_t id : used) clauses_[id].marked = true;
    return true;
  }

  void fail(std::size_t line, std::string problem) {
    out_.outcome = verdict::violated;
    out_.line = line;
    out_.problem = std::move(problem);
  }

  drat_report& out_;
  std::vector<int> lits_;
  std::vector<clause> clauses_;
  std::vector<event> events_;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> present_;
  std::vector<std::uint32_t> units_, empties_;  // present unit and empty clauses
  std::vector<std::size_t> unit_position_;       // where a unit or empty clause sits in its list
  std::vector<std::vector<std::uint32_t>> watches_;
  std::vector<std::int8_t> values_;
  std::vector<std::int64_t> reason_;
  std::vector<std::uint8_t> seen_;
  std::vector<int> trail_;
  int max_var_ = 0;
  bool ended_ = false;
};

}  // namespace

drat_report check_drat(std::string_view cnf, std::string_view proof) {
  drat_report out;
  drat_checker checker(out);
  try {
    checker.read_cnf(cnf);
  } catch (const malformed_input& e) {
    out.malformed = true;
    out.line = e.line;
    out.problem = "CNF: " + e.what;
    return out;
  }
  try {
    checker.read_proof(proof);
  } catch (const malformed_input& e) {
    out.malformed = true;
    out.line = e.line;
    out.problem = "proof: " + e.what;
    return out;
  }
  checker.check();
  return out;
}

std::string describe(const drat_report& r) {
  std::ostringstream s;
  if (r.outcome == verdict::holds) {
    s << "accepted: unsatisfiable (" << r.variables << " variables, " << r.original_clauses << " clauses; proof of "
      << r.lemmas << " lemmas and " << r.deletions << " deletions, " << r.checked_lemmas << " lemmas checked";
    if (r.rat_lemmas > 0) s << " (" << r.rat_lemmas << " by RAT)";
    s << ", core of " << r.core_clauses << " original clauses)";
  } else {
    s << (r.malformed ? "malformed" : "rejected");
    if (r.line > 0) s << " at line " << r.line;
    s << ": " << r.problem;
  }
  return s.str();
}

}  // namespace dancecard
