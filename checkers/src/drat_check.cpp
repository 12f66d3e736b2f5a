// DRAT checking, backward with core marking. See drat_check.hpp for the method, the formats and their sources.
//
// Layout, chosen for proofs of tens of millions of lemmas: every clause's literals sit in one arena (4 bytes each);
// a clause is 16 bytes (where its literals start, how many, three flags); the history is 4 bytes per addition or
// deletion; the clauses present during reading are found for deletion through an open-addressing table of 8-byte
// slots keyed by an order-independent hash of the literals. The proof itself is parsed byte by byte as it arrives.
#include "dancecard/checkers/drat_check.hpp"

#include "drat_reader.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <optional>
#include <sstream>
#include <vector>

namespace dancecard::certificates {

namespace {

using namespace drat_detail;

// A watch: the clause (where its literals start, and its id) and a blocker, another of its literals (while the
// blocker is true the clause is satisfied and propagation does not look at it). A binary clause's blocker is its
// other literal, so propagation never looks at the clause itself (most lemmas of CaDiCaL's torus proofs are binary:
// 1,016,335 of 1,263,872 in 5 x 5 pairing at 7 steps).
struct watch {
  std::uint64_t start;  // top bit: the clause is binary
  std::uint32_t id;
  int blocker;
  static constexpr std::uint64_t binary_bit = std::uint64_t{1} << 63;
  static watch of(std::uint64_t start, std::uint32_t size, std::uint32_t id, int blocker) {
    return {start | (size == 2 ? binary_bit : 0), id, blocker};
  }
  bool binary() const { return (start & binary_bit) != 0; }
  std::uint64_t first() const { return start & ~binary_bit; }
};

class drat_checker : public drat_reader {
 public:
  using drat_reader::drat_reader;

  void check(const drat_options& options) {
    if (options.ignore_unit_deletions) out_.ignored_deletions = drop_reason_deletions();
    reset_engine();
    for (std::uint32_t id = 0; id < clauses_.size(); ++id)
      if (clauses_[id].flags & active_flag) attach(id);
    // The refutation ends either in the empty clause (the last event, checked like any lemma) or in a conflict of
    // the final formula by unit propagation.
    if (ended_) {
      clauses_[events_.back() >> 1].flags |= marked_flag;
    } else if (!conflict_under({})) {
      fail(0, "the proof neither derives the empty clause nor ends in a formula that propagates to a conflict" +
                  unit_deletion_hint(options));
      return;
    }
    std::vector<int> lemma;
    for (std::size_t k = events_.size(); k-- > 0;) {
      const std::uint32_t id = events_[k] >> 1;
      clause& c = clauses_[id];
      if (events_[k] & 1) {  // a deletion: going back in time, the clause was present before it
        c.flags |= active_flag;
        attach(id);
        continue;
      }
      c.flags &= static_cast<std::uint8_t>(~active_flag);  // a lemma may not justify itself or anything before it
      detach(id);
      if (!(c.flags & marked_flag)) continue;
      ++out_.checked_lemmas;
      lemma.assign(lits_.begin() + static_cast<std::ptrdiff_t>(c.start),
                   lits_.begin() + static_cast<std::ptrdiff_t>(c.start + c.size));
      if (conflict_under(negations(lemma))) continue;
      // The pivot is the lemma's first literal as the proof wrote it: propagation reorders the stored literals.
      const int pivot = lemma_pivot_[id - first_lemma_];
      if (pivot != 0) {
        std::iter_swap(lemma.begin(), std::find(lemma.begin(), lemma.end(), pivot));
        if (resolution_asymmetric_tautology(lemma)) {
          ++out_.rat_lemmas;
          continue;
        }
      }
      fail(lemma_line_[id - first_lemma_], "lemma" + text_of(lemma) +
                                               " is neither RUP nor RAT (on its first literal) at this point" +
                                               unit_deletion_hint(options));
      return;
    }
    for (const clause& c : clauses_) out_.core_clauses += (c.flags & original_flag) && (c.flags & marked_flag) ? 1 : 0;
    out_.outcome = verdict::holds;
  }

 private:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  // ----- checking -----
  //
  // The top level: what unit propagation of the present clauses alone assigns. It is kept from one check to the
  // next (a CaDiCaL proof has thousands of units, and propagating them again for every lemma was most of the time)
  // and recomputed from scratch, lazily, only when it may have changed in a way that is not a pure addition: a
  // clause that is the reason of a top-level literal leaves, or a clause joins that is unit, conflicting, or
  // satisfied with every other literal false under it. A clause that joins with two literals not false changes
  // nothing there (and is watched on them). Every top-level literal's reason is thus always a present clause, so a
  // conflict found on top of it is a conflict of the present clauses; and the top level is always closed under unit
  // propagation, so no conflict a fresh propagation would find is missed.

  // Only present clauses are watched (and listed as units or empty clauses): a clause joins when it becomes present
  // and leaves when it stops being present, so propagation never walks over clauses of another time.
  void attach(std::uint32_t id) {
    clause& c = clauses_[id];
    if (c.size >= 2) {
      if (top_valid_ && top_conflict_ == no_reason) {
        // Watch two literals that are not false at the top level, if the clause has them.
        int* l = &lits_[c.start];
        std::uint32_t found = 0;
        for (std::uint32_t j = 0; j < c.size && found < 2; ++j)
          if (value(l[j]) != -1) std::swap(l[found++], l[j]);
        if (found < 2) top_valid_ = false;
      }
      auto& lists = (c.flags & marked_flag) ? core_watches_ : watches_;
      lists[index(lits_[c.start])].push_back(watch::of(c.start, c.size, id, lits_[c.start + 1]));
      lists[index(lits_[c.start + 1])].push_back(watch::of(c.start, c.size, id, lits_[c.start]));
    } else {
      if (c.size == 0 || value(lits_[c.start]) != 1) top_valid_ = false;
      auto& list = c.size == 1 ? units_ : empties_;
      unit_position_[id] = list.size();
      list.push_back(id);
    }
  }
  void detach(std::uint32_t id) {
    const clause& c = clauses_[id];
    if (top_valid_) {
      if (top_conflict_ != no_reason) top_valid_ = false;
      for (std::uint32_t j = 0; j < c.size && top_valid_; ++j)
        if (reason_[static_cast<std::size_t>(std::abs(lits_[c.start + j]))] == id) top_valid_ = false;
    }
    if (c.size >= 2) {
      auto& lists = (c.flags & marked_flag) ? core_watches_ : watches_;
      for (int j = 0; j < 2; ++j) unwatch(lists[index(lits_[c.start + static_cast<std::size_t>(j)])], id);
    } else {
      auto& list = c.size == 1 ? units_ : empties_;
      const std::size_t at = unit_position_[id];
      unit_position_[list.back()] = at;
      list[at] = list.back();
      list.pop_back();
      unit_position_[id] = none;
    }
  }

  static std::vector<int> negations(const std::vector<int>& lits) {
    std::vector<int> out;
    out.reserve(lits.size());
    for (int l : lits) out.push_back(-l);
    return out;
  }
  std::string text_of(const std::vector<int>& lits) const {
    std::string s = " (";
    for (int l : lits) s += std::to_string(written(l)) + " ";
    return s + "0)";
  }

  int value(int lit) const { return values_[index(lit)]; }
  void assign(int lit, std::uint32_t why) {
    values_[index(lit)] = 1;
    values_[index(-lit)] = -1;
    reason_[static_cast<std::size_t>(std::abs(lit))] = why;
    trail_.push_back(lit);
  }
  void undo_to(std::size_t size) {
    while (trail_.size() > size) {
      const int lit = trail_.back();
      trail_.pop_back();
      values_[index(lit)] = values_[index(-lit)] = 0;
      reason_[static_cast<std::size_t>(std::abs(lit))] = no_reason;
    }
  }

  // Unit propagation over the active clauses; returns the conflicting clause or none. Core first (drat-trim's
  // mode of the same name): the clauses already marked propagate to a fixpoint before any other clause is looked at,
  // and after each literal another clause implies, the marked ones go first again. A conflict is then found through
  // the core where the core can find one, so fewer clauses join it and fewer lemmas need checking. Every clause
  // watching a literal is still visited once for each time that literal is falsified: marked ones in the first
  // pass, the others in the second (marks do not change during a propagation).
  std::uint32_t propagate(std::size_t from) {
    std::size_t core_head = from, other_head = from;
    for (;;) {
      while (core_head < trail_.size())
        if (const std::uint32_t conflict = visit(-trail_[core_head++], true); conflict != no_reason) return conflict;
      const std::size_t assigned = trail_.size();
      while (other_head < trail_.size() && trail_.size() == assigned)
        if (const std::uint32_t conflict = visit(-trail_[other_head++], false); conflict != no_reason) return conflict;
      if (trail_.size() == assigned) return no_reason;
    }
  }

  // The clauses that watch `falsified` and are marked (core) or not: each moves its watch, is satisfied, implies
  // its other watched literal, or is the conflict returned.
  std::uint32_t visit(int falsified, bool core) {
    auto& lists = core ? core_watches_ : watches_;
    std::vector<watch>& list = lists[index(falsified)];
    // Kept watches are compacted to the front (written only once one has moved away). Watches pushed meanwhile go
    // to other lists (a new watch is never the falsified literal), so `list` is not reallocated here.
    watch* const ws = list.data();
    const std::size_t n = list.size();
    std::size_t keep = 0, k = 0;
    std::uint32_t conflict = no_reason;
    for (; k < n && conflict == no_reason; ++k) {
      const int blocker = ws[k].blocker;
      if (value(blocker) == 1) {  // a true blocker satisfies the clause: not looked at
        if (keep != k) ws[keep] = ws[k];
        ++keep;
        continue;
      }
      watch w = ws[k];
      if (w.binary()) {  // the blocker, the other literal, is false or unassigned
        if (keep != k) ws[keep] = w;
        ++keep;
        if (value(blocker) == -1)
          conflict = w.id;
        else
          assign(blocker, w.id);
        continue;
      }
      int* l = &lits_[w.first()];  // the clause's literals, its size just before them: one place in memory
      const auto size = static_cast<std::uint32_t>(l[-1]);
      if (l[0] == falsified) std::swap(l[0], l[1]);
      w.blocker = l[0];
      if (value(l[0]) == 1) {
        ws[keep++] = w;  // the blocker changed: written in any case
        continue;
      }
      bool moved = false;
      for (std::uint32_t j = 2; j < size; ++j)
        if (value(l[j]) != -1) {
          std::swap(l[1], l[j]);
          lists[index(l[1])].push_back({w.start, w.id, l[0]});  // (not binary: the flag bit stays clear)
          moved = true;
          break;
        }
      if (moved) continue;
      ws[keep++] = w;
      if (value(l[0]) == -1)
        conflict = w.id;
      else
        assign(l[0], w.id);
    }
    if (k < n && keep != k) std::copy(ws + k, ws + n, ws + keep);  // after a conflict: the rest, unvisited
    keep += n - k;
    list.resize(keep);
    return conflict;
  }

  // Marks a present clause as core; a watched one moves its two watches to the core lists.
  void mark_clause(std::uint32_t id) {
    clause& c = clauses_[id];
    if (c.flags & marked_flag) return;
    c.flags |= marked_flag;
    if (!(c.flags & active_flag) || c.size < 2) return;
    for (int j = 0; j < 2; ++j) {
      const int lit = lits_[c.start + static_cast<std::size_t>(j)];
      unwatch(watches_[index(lit)], id);
      core_watches_[index(lit)].push_back(
          watch::of(c.start, c.size, id, lits_[c.start + static_cast<std::size_t>(1 - j)]));
    }
  }

  static void unwatch(std::vector<watch>& list, std::uint32_t id) {
    auto it = std::find_if(list.begin(), list.end(), [&](const watch& w) { return w.id == id; });
    if (it != list.end()) {
      *it = list.back();
      list.pop_back();
    }
  }

  // Recomputes the top level from nothing when it is not known to be current.
  void ensure_top_level() {
    if (top_valid_) return;
    undo_to(0);
    top_valid_ = true;
    top_conflict_ = no_reason;
    for (std::uint32_t id : units_) {
      const int lit = lits_[clauses_[id].start];
      if (value(lit) == -1) {
        top_conflict_ = id;
        break;
      }
      if (value(lit) == 0) assign(lit, id);
    }
    if (top_conflict_ == no_reason) top_conflict_ = propagate(0);
    top_size_ = trail_.size();
  }

  void reset_engine() {
    values_.assign(2 * (static_cast<std::size_t>(max_var_) + 1), 0);
    reason_.assign(static_cast<std::size_t>(max_var_) + 1, no_reason);
    seen_.assign(static_cast<std::size_t>(max_var_) + 1, 0);
    watches_.assign(2 * (static_cast<std::size_t>(max_var_) + 1), {});
    core_watches_.assign(2 * (static_cast<std::size_t>(max_var_) + 1), {});
    unit_position_.assign(clauses_.size(), none);
    units_.clear();
    empties_.clear();
    trail_.clear();
    top_valid_ = false;
    top_size_ = 0;
    top_conflict_ = no_reason;
  }

  // drat-trim's reading of unit deletions (Wetzler, Heule and Hunt, SAT 2014; drat-trim warns "ignoring deletion
  // instruction ... of unit clause"): the proof is replayed forward with the top level kept up to date, and a deletion
  // of a clause that is then the reason of a top-level literal is dropped from the history, the clause staying
  // present. After a top-level conflict every later deletion is dropped (the refutation is complete there). Going
  // forward, with reasons never deleted, the top level only grows: a clause that joins is propagated from where the
  // trail stands, and a clause that leaves is the reason of nothing. Returns how many deletions were dropped.
  std::uint64_t drop_reason_deletions() {
    reset_engine();
    top_valid_ = true;
    for (clause& c : clauses_) c.flags &= static_cast<std::uint8_t>(~active_flag);
    for (std::uint32_t id = 0; id < first_lemma_; ++id) join_forward(id);
    std::uint64_t dropped = 0;
    std::size_t keep = 0;
    for (const std::uint32_t event : events_) {
      const std::uint32_t id = event >> 1;
      if (!(event & 1)) {
        join_forward(id);
      } else if (top_conflict_ != no_reason || is_top_level_reason(id)) {
        ++dropped;
        continue;
      } else {
        clauses_[id].flags &= static_cast<std::uint8_t>(~active_flag);
        detach(id);
        top_valid_ = true;  // a clause that is no reason leaves: the top level stays as it is
      }
      events_[keep++] = event;
    }
    events_.resize(keep);
    return dropped;
  }
  void join_forward(std::uint32_t id) {
    clause& c = clauses_[id];
    c.flags |= active_flag;
    attach(id);  // watches two literals not false at the top level, or says (top_valid_ false) that it has none
    if (top_valid_) return;
    top_valid_ = true;
    if (top_conflict_ != no_reason) return;
    const int first = c.size == 0 ? 0 : lits_[c.start];  // attach put the literal not false first, if there is one
    if (c.size == 0 || value(first) == -1) {
      top_conflict_ = id;
    } else if (value(first) == 0) {
      assign(first, id);
      top_conflict_ = propagate(trail_.size() - 1);
    }
  }
  bool is_top_level_reason(std::uint32_t id) const {
    const clause& c = clauses_[id];
    for (std::uint32_t j = 0; j < c.size; ++j)
      if (reason_[static_cast<std::size_t>(std::abs(lits_[c.start + j]))] == id) return true;
    return false;
  }
  // When an exact reading rejects: whether the proof deletes reasons of top-level units, which drat-trim ignores
  // (counted by the forward replay; the check is over, so its state may go).
  std::string unit_deletion_hint(const drat_options& options) {
    if (options.ignore_unit_deletions) return {};
    const std::uint64_t n = drop_reason_deletions();
    if (n == 0) return {};
    return "; the proof deletes " + std::to_string(n) +
           (n == 1 ? " clause that was, when deleted, the reason of a top-level unit"
                   : " clauses that were, when deleted, reasons of top-level units") +
           ", as Glucose's proofs do: with such deletions ignored (as drat-trim reads them: check-proof "
           "--ignore-unit-deletions) it may be accepted";
  }

  // Assumes the literals, propagates; on a conflict marks every clause the conflict depends on and returns true.
  bool conflict_under(const std::vector<int>& assumptions) {
    if (!empties_.empty()) {
      mark_clause(empties_.front());
      return true;
    }
    ensure_top_level();
    if (top_conflict_ != no_reason) {
      mark(top_conflict_, 0);
      return true;
    }
    bool found = false;
    for (int a : assumptions) {
      if (value(a) == 0) {
        assign(a, assumption);
        continue;
      }
      if (value(a) == 1) continue;
      // ¬a holds: by the clause's own literals (a tautology: nothing to mark) or at the top level (its reasons).
      const auto v = static_cast<std::size_t>(std::abs(a));
      if (reason_[v] != assumption) mark(no_reason, a);
      found = true;
      break;
    }
    if (!found) {
      const std::uint32_t conflict = propagate(top_size_);
      if (conflict != no_reason) {
        mark(conflict, 0);
        found = true;
      }
    }
    undo_to(top_size_);
    return found;
  }

  // Marks the conflict clause (if any) and, transitively, the reasons of the assignments it rests on — and of the
  // variable of `literal`, when one is given.
  void mark(std::uint32_t conflict, int literal) {
    std::vector<std::uint32_t> work;
    if (conflict != no_reason) work.push_back(conflict);
    std::vector<std::size_t> touched;
    auto follow = [&](std::size_t v, std::uint32_t from) {
      if (seen_[v]) return;
      seen_[v] = 1;
      touched.push_back(v);
      if (reason_[v] < assumption && reason_[v] != from) work.push_back(reason_[v]);
    };
    if (literal != 0) follow(static_cast<std::size_t>(std::abs(literal)), no_reason);
    while (!work.empty()) {
      const std::uint32_t id = work.back();
      work.pop_back();
      mark_clause(id);
      const clause& c = clauses_[id];
      for (std::uint32_t j = 0; j < c.size; ++j) follow(static_cast<std::size_t>(std::abs(lits_[c.start + j])), id);
    }
    for (std::size_t v : touched) seen_[v] = 0;
  }

  bool resolution_asymmetric_tautology(const std::vector<int>& lemma) {
    const int pivot = lemma.front();
    std::vector<std::uint32_t> used;
    for (std::uint32_t id = 0; id < clauses_.size(); ++id) {
      const clause& d = clauses_[id];
      if (!(d.flags & active_flag)) continue;
      const int* l = &lits_[d.start];
      if (std::find(l, l + d.size, -pivot) == l + d.size) continue;
      std::vector<int> resolvent = lemma;
      for (std::uint32_t j = 0; j < d.size; ++j)
        if (l[j] != -pivot) resolvent.push_back(l[j]);
      if (!conflict_under(negations(resolvent))) return false;
      used.push_back(id);
    }
    for (std::uint32_t id : used) mark_clause(id);
    return true;
  }

  void fail(std::size_t line, std::string problem) {
    out_.outcome = verdict::violated;
    out_.line = line;
    out_.problem = std::move(problem);
  }

  // checking
  std::vector<std::uint32_t> units_, empties_;  // present unit and empty clauses
  std::vector<std::size_t> unit_position_;      // where a unit or empty clause sits in its list
  // Watches of the present clauses with two or more literals, on their first two literals, by literal index.
  // Core (marked) clauses are watched in core_watches_, the others in watches_, so that each propagation pass walks
  // only its own clauses.
  std::vector<std::vector<watch>> watches_, core_watches_;
  std::vector<std::int8_t> values_;
  std::vector<std::uint32_t> reason_;
  std::vector<std::uint8_t> seen_;
  std::vector<int> trail_;  // the top level, then the assumptions of one check and what they imply
  bool top_valid_ = false;
  std::size_t top_size_ = 0;
  std::uint32_t top_conflict_ = no_reason;  // a present clause false at the top level
};

// Reads the formula, then the proof through `pump(checker)` (which feeds it piece by piece), then checks.
template <class Pump>
drat_report run_check(std::string_view cnf, Pump pump, const drat_options& options) {
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
    pump(checker);
    checker.finish_proof();
  } catch (const malformed_input& e) {
    out.malformed = true;
    out.binary_proof = checker.binary();
    out.line = e.line;
    out.problem = "proof: " + e.what;
    return out;
  }
  out.binary_proof = checker.binary();
  checker.check(options);
  return out;
}

}  // namespace

drat_report check_drat(std::string_view cnf, const drat_source& proof, const drat_options& options) {
  return run_check(
      cnf,
      [&](drat_checker& checker) {
        std::vector<char> buffer(1 << 20);
        for (;;) {
          const std::size_t got = proof(buffer.data(), buffer.size());
          if (got == 0 || !checker.feed(buffer.data(), got)) break;
        }
      },
      options);
}

drat_report check_drat(std::string_view cnf, std::string_view proof, const drat_options& options) {
  return run_check(
      cnf, [&](drat_checker& checker) { checker.feed(proof.data(), proof.size()); }, options);
}

drat_report check_drat(std::string_view cnf, std::istream& proof, const drat_options& options) {
  bool failed = false;
  drat_report r = check_drat(cnf, drat_source([&](char* buffer, std::size_t capacity) -> std::size_t {
                               proof.read(buffer, static_cast<std::streamsize>(capacity));
                               if (proof.bad()) {
                                 failed = true;
                                 return 0;
                               }
                               return static_cast<std::size_t>(proof.gcount());
                             }),
                             options);
  if (failed) {
    r = {};
    r.malformed = true;
    r.problem = "proof: read error";
  }
  return r;
}

std::string describe(const drat_report& r) {
  std::ostringstream s;
  if (r.outcome == verdict::holds) {
    s << "accepted: unsatisfiable (" << r.variables << " variables, " << r.original_clauses << " clauses; "
      << (r.binary_proof ? "binary " : "") << "proof of " << r.lemmas << " lemmas and " << r.deletions << " deletions, "
      << r.checked_lemmas << " lemmas checked";
    if (r.rat_lemmas > 0) s << " (" << r.rat_lemmas << " by RAT)";
    s << ", core of " << r.core_clauses << " original clauses";
    if (r.ignored_deletions > 0) s << "; " << r.ignored_deletions << " deletions of top-level reasons ignored";
    s << ")";
  } else {
    s << (r.malformed ? "malformed" : "rejected");
    if (r.line > 0) s << (r.line_is_item() ? " at proof item " : " at line ") << r.line;
    s << ": " << r.problem;
  }
  return s.str();
}

}  // namespace dancecard::certificates
