// Checker for dance schedules: constraints (i)–(iii) of the dance-party paper plus scheduler requirements.
//
// One branch-free pass over the dances: a per-person round stamp flags rounds with a double booking or a self-dance
// (ii), and every dance sets its bit in a square of bits over ordered pairs, folded into its upper triangle (unordered
// pairs) afterwards. A flagged round is then accounted for precisely by a slow path (which persons, which partners).
// How many dances repeat a pair (i) follows from the triangle's population count — dances − self-dances − distinct
// pairs — and the pairs never met (i) are its zero bits.
// Only when there are repeats does a second pass name the first few and their rounds, so the common (valid) case
// pays for one pass. With a required pair set every dance takes the precise path.
#include "dancecard/checkers/dance_check.hpp"

#include <algorithm>
#include <bit>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace dancecard::dance {

std::string_view to_string(dance_violation_kind kind) {
  switch (kind) {
    case dance_violation_kind::pair_never_meets:
      return "pair_never_meets";
    case dance_violation_kind::pair_meets_twice:
      return "pair_meets_twice";
    case dance_violation_kind::person_booked_twice:
      return "person_booked_twice";
    case dance_violation_kind::self_dance:
      return "self_dance";
    case dance_violation_kind::asymmetric_entry:
      return "asymmetric_entry";
    case dance_violation_kind::entry_out_of_range:
      return "entry_out_of_range";
    case dance_violation_kind::pair_not_allowed:
      return "pair_not_allowed";
    case dance_violation_kind::fixed_dance_missing:
      return "fixed_dance_missing";
    case dance_violation_kind::forbidden_dance_present:
      return "forbidden_dance_present";
    case dance_violation_kind::unavailable_person_dances:
      return "unavailable_person_dances";
    case dance_violation_kind::too_many_rounds:
      return "too_many_rounds";
  }
  return "?";
}

std::string describe(const dance_violation& v) {
  std::ostringstream out;
  auto pair = [&](rank a, rank b) { out << "{" << a << ", " << b << "}"; };
  auto round = [&](std::size_t r) { out << "round " << r << " (column " << r + 1 << ")"; };
  out << to_string(v.kind) << ": ";
  switch (v.kind) {
    case dance_violation_kind::pair_never_meets:
      out << "pair ";
      pair(v.a, v.b);
      out << " never meets";
      break;
    case dance_violation_kind::pair_meets_twice:
      out << "pair ";
      pair(v.a, v.b);
      out << " meets in ";
      round(v.other_round);
      out << " and again in ";
      round(v.round);
      break;
    case dance_violation_kind::person_booked_twice:
      out << "person " << v.a << " dances with both " << v.b << " and " << v.c << " in ";
      round(v.round);
      break;
    case dance_violation_kind::self_dance:
      out << "person " << v.a << " is paired with themself in ";
      round(v.round);
      break;
    case dance_violation_kind::asymmetric_entry:
      out << "P(" << v.a + 1 << ", " << v.round + 1 << ") = " << v.b + 1 << " but P(" << v.b + 1 << ", " << v.round + 1
          << ") = " << v.c + 1 << " (1-based)";
      break;
    case dance_violation_kind::entry_out_of_range:
      out << "P(" << v.a + 1 << ", " << v.round + 1 << ") = " << v.b << " is outside 1..n (1-based)";
      break;
    case dance_violation_kind::pair_not_allowed:
      out << "pair ";
      pair(v.a, v.b);
      out << " dances in ";
      round(v.round);
      out << " but is not a required pair";
      break;
    case dance_violation_kind::fixed_dance_missing:
      out << "pair ";
      pair(v.a, v.b);
      out << " must dance in ";
      round(v.round);
      out << " but does not";
      break;
    case dance_violation_kind::forbidden_dance_present:
      out << "pair ";
      pair(v.a, v.b);
      out << " dances in ";
      round(v.round);
      out << ", which is forbidden";
      break;
    case dance_violation_kind::unavailable_person_dances:
      out << "person " << v.a << " is unavailable in ";
      round(v.round);
      out << " but dances with " << v.b;
      break;
    case dance_violation_kind::too_many_rounds:
      out << "the schedule has " << v.round << " rounds, more than the allowed " << v.b;
      break;
  }
  return out.str();
}

namespace {

// The word of the square (pair_index, below) that holds bit (a, b), as bit a mod 64, when a strip has `columns` words.
inline std::uint64_t column_word(std::uint64_t a, std::uint64_t b, std::uint64_t columns) {
  return (a >> 6) * columns + b;
}

// Ordered pairs (a, b) of n + 1 people (the last where validate_ranks clamps a bad rank) as a square of bits kept in
// column words of 64-row strips: word (a / 64) · columns + b holds column b of rows 64 ⌊a / 64⌋ … + 63, as bit
// a mod 64, so 64 consecutive words of a strip are a 64 × 64 block and a cache line holds 8 columns of 64 rows.
// Schedules whose neighbouring people dance with neighbouring partners (the factorization's, the divide-and-conquer's,
// the searching one's) set bits of a few cache lines per round where rows of their own would touch a line per dance;
// at n = 10,000 the square is 12.6 MB, beyond the L2 cache. The fast loop sets a dance's bit as the dance names it,
// with no ordering and no test for a self-dance (the diagonal holds no pair); fold_pairs then ORs the lower triangle,
// transposed, into the upper, so that (a, b) with a < b < n stands for the unordered pair. The slow paths name the
// upper bit directly. (docs/performance.md compares this layout with rows of their own and with octets of rows.)
struct pair_index {
  std::uint64_t n;
  std::uint64_t strips = n / 64 + 1;    // n + 1 rows, rounded up to 64
  std::uint64_t columns = strips * 64;  // n + 1 columns, rounded up to 64: `strips` blocks across a strip
  std::uint64_t word(std::uint64_t a, std::uint64_t b) const { return column_word(a, b, columns); }
  std::uint64_t bit(std::uint64_t a, std::uint64_t b) const { return word(a, b) * 64 + (a & 63); }
  std::uint64_t operator()(rank a, rank b) const {
    if (a > b) std::swap(a, b);
    return bit(a, b);
  }
  std::uint64_t size() const { return strips * columns * 64; }
};

// Transposes a 64 × 64 bit block, word j bit k to word k bit j: the off-diagonal 32 × 32, 16 × 16, … 1 × 1 blocks
// swapped in turn (Warren, Hacker's Delight, 2nd ed., Section 7-3, transpose32 on 64-bit words, bits numbered from
// the least significant).
void transpose64(std::uint64_t* m) {
  std::uint64_t mask = 0x00000000FFFFFFFF;
  for (unsigned j = 32; j != 0; j >>= 1, mask ^= mask << j)
    for (unsigned k = 0; k < 64; k = (k + j + 1) & ~j) {
      const std::uint64_t t = ((m[k] >> j) ^ m[k + j]) & mask;
      m[k] ^= t << j;
      m[k + j] ^= t;
    }
}

// The lower triangle of the square ORed, transposed, into the upper: a dance named (b, a) with a < b becomes (a, b).
// Block by block; a lower block with no bit set is passed over, so a schedule that names each dance with its smaller
// rank first pays one read of the lower triangle. The diagonal blocks become symmetric.
void fold_pairs(std::uint64_t* words, const pair_index& index) {
  std::uint64_t block[64];
  for (std::uint64_t g = 0; g < index.strips; ++g)
    for (std::uint64_t h = 0; h <= g; ++h) {
      const std::uint64_t* lower = words + index.word(64 * g, 64 * h);  // rows of strip g, columns 64h …
      std::uint64_t any = 0;
      for (unsigned j = 0; j < 64; ++j) any |= block[j] = lower[j];
      if (any == 0) continue;
      transpose64(block);
      std::uint64_t* upper = words + index.word(64 * h, 64 * g);  // rows of strip h, columns 64g …
      for (unsigned k = 0; k < 64; ++k) upper[k] |= block[k];
    }
}

// The fast loop over one round's dances: no branches on the data. Each person's stamp becomes the round's, and the
// latest stamp met is returned: the round's own where someone is seen twice, or a self-dance's second person meets the
// stamp its first just wrote. Each dance sets its bit as it names its persons (pair_index::bit) in its column word,
// 1 << (a mod 64): the shift's count needs no mask, as x86-64 takes a 64-bit shift's count mod 64, so the word's
// read-modify-write costs fewer instructions than a byte's (docs/performance.md measures both). With Validate, ranks
// are clamped to n (the spare stamp and the spare row and column of bits) and `outside` says whether one was out of
// range. A function of its own, not inlined into the checker, so that its few values stay in registers: inlined into
// the checker's run, the stamps' base was spilled and reloaded for every dance.
struct round_marks {
  std::uint32_t latest = 0;
  bool outside = false;
};
template <bool Validate>
[[gnu::noinline]] round_marks mark_round(const couple* first, const couple* last, std::uint32_t* stamps,
                                         std::uint64_t* words, std::uint64_t columns, std::uint32_t round_stamp,
                                         rank n) {
  std::uint32_t latest = 0, outside = 0;
  for (const couple* d = first; d != last; ++d) {
    rank a = d->first, b = d->second;
    if constexpr (Validate) {
      outside |= static_cast<std::uint32_t>(a >= n) | static_cast<std::uint32_t>(b >= n);
      a = std::min(a, n), b = std::min(b, n);
    }
    latest = std::max(latest, stamps[a]);  // stamps never exceed this round's
    stamps[a] = round_stamp;
    latest = std::max(latest, stamps[b]);
    stamps[b] = round_stamp;
    words[column_word(a, b, columns)] |= std::uint64_t{1} << (a & 63);
  }
  return {latest, outside != 0};
}

class bitset {
 public:
  explicit bitset(std::uint64_t bits) : words_((bits + 63) / 64, 0) {}
  bool test_and_set(std::uint64_t i) {
    std::uint64_t& w = words_[i / 64];
    const std::uint64_t mask = std::uint64_t{1} << (i % 64);
    const bool was = (w & mask) != 0;
    w |= mask;
    return was;
  }
  bool test(std::uint64_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void set(std::uint64_t i) { words_[i / 64] |= std::uint64_t{1} << (i % 64); }
  const std::vector<std::uint64_t>& words() const { return words_; }
  std::uint64_t* data() { return words_.data(); }

 private:
  std::vector<std::uint64_t> words_;
};

void check_rank(rank p, rank n, const char* what) {
  if (p >= n)
    throw std::invalid_argument(std::string("dance_requirements: ") + what + " names rank " + std::to_string(p) +
                                ", outside [0, " + std::to_string(n) + ")");
}

// Thrown by checker::run where a round names a rank out of range (validate_ranks only).
struct rank_out_of_range {};

struct checker {
  dance_schedule_view schedule;
  const dance_requirements& req;
  dance_report& out;
  pair_index index{schedule.people()};
  bool validate_ranks = false;  // the view's invariant unchecked: each round's ranks compared before it is read

  void validate(std::size_t r) const {
    if (!validate_ranks) return;
    rank largest = 0;
    for (const couple d : schedule.round(r)) largest = std::max({largest, d.first, d.second});
    if (largest >= schedule.people()) throw rank_out_of_range{};
  }

  void add(dance_violation v) {
    ++out.count_by_kind[static_cast<std::size_t>(v.kind)];
    out.add(v, req.max_witnesses);
  }

  void run() {
    const rank n = schedule.people();
    std::optional<bitset> allowed;
    if (req.required_pairs) {
      allowed.emplace(index.size());
      for (auto [a, b] : *req.required_pairs) {
        check_rank(a, n, "a required pair");
        check_rank(b, n, "a required pair");
        if (a == b)
          throw std::invalid_argument("dance_requirements: required pair (" + std::to_string(a) + ", " +
                                      std::to_string(a) + ") is not a pair");
        allowed->set(index(a, b));
      }
    }
    bitset met(index.size());
    std::vector<std::uint32_t> stamp(n + std::size_t{1}, 0);  // fast loop: the stamp of the round in which the person
                                                              // was last seen, rounds counted from 1 (one spare: where
                                                              // validate_ranks clamps a bad rank)
    std::vector<std::uint64_t> slow_stamp(n, 0);  // slow path: same, kept apart so the fast loop cannot disturb it
    std::vector<rank> partner(n, 0);              // slow path: the partner at slow_stamp
    std::vector<std::pair<rank, rank>> twice;     // pairs kept as meets-twice witnesses (a < b)
    std::vector<std::size_t> twice_round;
    std::uint64_t* words = met.data();
    const auto offsets = schedule.round_offsets();
    const auto dances = schedule.all_dances();
    std::uint64_t self_dances = 0;

    auto count_repeat = [&](couple d, std::size_t r) {
      if (twice.size() < req.max_witnesses) {
        twice.push_back({std::min(d.first, d.second), std::max(d.first, d.second)});
        twice_round.push_back(r);
      }
    };
    // The precise account of one round's bookings (ii): self-dances and people in two dances, with partners.
    // With a required pair set it also judges every pair (then it runs for every round, `pairs` set).
    auto slow_round = [&](std::size_t r, bool pairs) {
      const std::uint64_t round_stamp = r + 1;
      for (std::size_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        const couple d = dances[k];
        if (d.first == d.second) {
          add({dance_violation_kind::self_dance, d.first, d.first, 0, r, 0});
          ++self_dances;
          continue;
        }
        for (auto [p, q] : {std::pair{d.first, d.second}, std::pair{d.second, d.first}}) {
          if (slow_stamp[p] == round_stamp) add({dance_violation_kind::person_booked_twice, p, partner[p], q, r, 0});
          slow_stamp[p] = round_stamp;
          partner[p] = q;
        }
        if (!pairs) continue;
        const std::uint64_t i = index(d.first, d.second);
        if (!allowed->test(i))
          add({dance_violation_kind::pair_not_allowed, std::min(d.first, d.second), std::max(d.first, d.second), 0, r,
               0});
        else if (met.test_and_set(i)) {
          count_repeat(d, r);
          ++out.count_by_kind[static_cast<std::size_t>(dance_violation_kind::pair_meets_twice)];
          ++out.violation_count;
          out.outcome = verdict::violated;
        }
      }
    };

    std::uint64_t missing = 0;  // the pairs never met (those allowed, with a required pair set)
    if (allowed) {
      for (std::size_t r = 0; r < schedule.rounds(); ++r) validate(r), slow_round(r, true);
      missing = never_met(met, &*allowed);
    } else {
      // The fast loop (mark_round), a round at a time: a person seen twice in a round, or a self-dance, flags the
      // round for the slow account of its bookings. How many dances repeat a pair is the number of (non-self) dances
      // minus the number of distinct pairs met, and the repeats themselves are looked up afterwards, only when there
      // are any. validate_ranks: a round that named a rank out of range is abandoned after its loop.
      auto fast = [&]<bool Validate>() {
        std::uint32_t round_stamp = 0;
        for (std::size_t r = 0; r < schedule.rounds(); ++r) {
          if (round_stamp == UINT32_MAX) {  // the 32-bit stamps would wrap: they start afresh
            std::fill(stamp.begin(), stamp.end(), 0);
            round_stamp = 0;
          }
          ++round_stamp;
          const round_marks marks = mark_round<Validate>(dances.data() + offsets[r], dances.data() + offsets[r + 1],
                                                         stamp.data(), words, index.columns, round_stamp, n);
          if (marks.outside) throw rank_out_of_range{};
          if (marks.latest == round_stamp) slow_round(r, false);
        }
      };
      if (validate_ranks)
        fast.template operator()<true>();
      else
        fast.template operator()<false>();
      fold_pairs(words, index);
      const std::uint64_t pairs = std::uint64_t{n} * (n - 1) / 2;
      missing = never_met(met, nullptr);
      const std::uint64_t repeats = schedule.dance_count() - self_dances - (pairs - missing);
      if (repeats > 0) {
        out.outcome = verdict::violated;
        out.violation_count += repeats;
        out.count_by_kind[static_cast<std::size_t>(dance_violation_kind::pair_meets_twice)] += repeats;
        // The first repeats in schedule order, found with a fresh bitset; stops once enough witnesses are kept.
        bitset again(index.size());
        for (std::size_t r = 0; r < schedule.rounds() && twice.size() < req.max_witnesses; ++r)
          for (couple d : schedule.round(r))
            if (d.first != d.second && again.test_and_set(index(d.first, d.second))) count_repeat(d, r);
      }
    }
    if (!twice.empty()) report_meets_twice(twice, twice_round);
    report_never_met(met, allowed ? &*allowed : nullptr, missing);
    check_side_conditions();
  }

  // Second pass for the kept meets-twice witnesses only: the first round of each such pair.
  void report_meets_twice(const std::vector<std::pair<rank, rank>>& twice,
                          const std::vector<std::size_t>& twice_round) {
    std::unordered_map<std::uint64_t, std::size_t> first_round;
    for (const auto& [a, b] : twice) first_round.emplace(index(a, b), SIZE_MAX);
    for (std::size_t r = 0; r < schedule.rounds(); ++r)
      for (couple d : schedule.round(r)) {
        if (d.first == d.second) continue;
        auto it = first_round.find(index(d.first, d.second));
        if (it != first_round.end() && it->second == SIZE_MAX) it->second = r;
      }
    for (std::size_t k = 0; k < twice.size(); ++k) {
      const auto [a, b] = twice[k];
      dance_violation v{dance_violation_kind::pair_meets_twice, a, b, 0, twice_round[k], first_round[index(a, b)]};
      if (out.witnesses.size() < req.max_witnesses) out.witnesses.push_back(v);
    }
  }

  // The rows a of strip g with a < b that never met column b (among those allowed, with a required pair set), as bit
  // a mod 64; the caller keeps 64g <= b < n.
  std::uint64_t never_word(const bitset& met, const bitset* allowed, std::uint64_t g, std::uint64_t b) const {
    const std::uint64_t at = index.word(64 * g, b);
    std::uint64_t want = allowed ? allowed->words()[at] : ~std::uint64_t{0};
    if (b < 64 * g + 64) want &= (std::uint64_t{1} << (b - 64 * g)) - 1;  // the diagonal block: row < column
    return want & ~met.words()[at];
  }

  std::uint64_t never_met(const bitset& met, const bitset* allowed) const {
    const std::uint64_t n = schedule.people();
    std::uint64_t missing = 0;
    for (std::uint64_t g = 0; 64 * g < n; ++g)
      for (std::uint64_t b = 64 * g; b < n; ++b)
        if (const std::uint64_t never = never_word(met, allowed, g, b); never != 0)  // rare in a valid schedule
          missing += static_cast<std::uint64_t>(std::popcount(never));
    return missing;
  }

  // `missing` as never_met counted it. Witnesses in the order (0, 1), (0, 2), …, (1, 2), …: a strip's columns with a
  // pair never met, then its rows in turn.
  void report_never_met(const bitset& met, const bitset* allowed, std::uint64_t missing) {
    if (missing == 0) return;
    out.outcome = verdict::violated;
    out.violation_count += missing;
    out.count_by_kind[static_cast<std::size_t>(dance_violation_kind::pair_never_meets)] += missing;
    const std::uint64_t n = schedule.people();
    auto full = [&] { return out.witnesses.size() >= req.max_witnesses; };
    std::vector<std::pair<rank, std::uint64_t>> columns;  // (column b, its never_word) where some pair is missing
    for (std::uint64_t g = 0; 64 * g < n && !full(); ++g) {
      columns.clear();
      std::uint64_t rows = 0;  // the strip's rows with a pair never met
      for (std::uint64_t b = 64 * g; b < n; ++b)
        if (const std::uint64_t never = never_word(met, allowed, g, b); never != 0)
          columns.emplace_back(static_cast<rank>(b), never), rows |= never;
      for (; rows != 0 && !full(); rows &= rows - 1) {
        const auto k = static_cast<unsigned>(std::countr_zero(rows));
        for (const auto& [b, never] : columns) {
          if (full()) break;
          if ((never >> k) & 1)
            out.witnesses.push_back(
                {dance_violation_kind::pair_never_meets, static_cast<rank>(64 * g + k), b, 0, 0, 0});
        }
      }
    }
  }

  bool dances_in(rank a, rank b, std::size_t r) const {
    if (r >= schedule.rounds()) return false;
    for (couple d : schedule.round(r))
      if ((d.first == a && d.second == b) || (d.first == b && d.second == a)) return true;
    return false;
  }

  void check_side_conditions() {
    const rank n = schedule.people();
    for (const fixed_dance& f : req.fixed) {
      check_rank(f.a, n, "a fixed dance");
      check_rank(f.b, n, "a fixed dance");
      if (!dances_in(f.a, f.b, f.round)) add({dance_violation_kind::fixed_dance_missing, f.a, f.b, 0, f.round, 0});
    }
    for (const fixed_dance& f : req.forbidden) {
      check_rank(f.a, n, "a forbidden dance");
      check_rank(f.b, n, "a forbidden dance");
      if (dances_in(f.a, f.b, f.round)) add({dance_violation_kind::forbidden_dance_present, f.a, f.b, 0, f.round, 0});
    }
    for (const unavailability& u : req.unavailable) {
      check_rank(u.person, n, "an unavailability");
      if (u.round >= schedule.rounds()) continue;
      for (couple d : schedule.round(u.round))
        if (d.first == u.person || d.second == u.person)
          add({dance_violation_kind::unavailable_person_dances, u.person, d.first == u.person ? d.second : d.first, 0,
               u.round, 0});
    }
    if (req.max_rounds && schedule.rounds() > *req.max_rounds)
      add({dance_violation_kind::too_many_rounds, 0, static_cast<rank>(*req.max_rounds), 0, schedule.rounds(), 0});
  }
};

std::string what_was_checked(rank n, std::size_t rounds, std::size_t dances, const dance_requirements& req) {
  std::ostringstream s;
  s << "constraints (i)-(iii) for n = " << n << " over " << rounds << " rounds (" << dances << " dances)";
  if (req.required_pairs) s << ", restricted to " << req.required_pairs->size() << " required pairs";
  const std::size_t side = req.fixed.size() + req.forbidden.size() + req.unavailable.size() + (req.max_rounds ? 1 : 0);
  if (side > 0) s << ", plus " << side << " scheduling requirements";
  return s.str();
}

}  // namespace

dance_report check_dance_schedule(const dance_schedule& schedule, const dance_requirements& requirements) {
  return check_dance_schedule(dance_schedule_view(schedule), requirements);
}

dance_report check_dance_schedule(dance_schedule_view schedule, const dance_requirements& requirements) {
  dance_report out;
  out.checked = what_was_checked(schedule.people(), schedule.rounds(), schedule.dance_count(), requirements);
  checker{schedule, requirements, out}.run();
  return out;
}

std::optional<dance_report> check_dance_schedule_unvalidated(dance_schedule_view schedule,
                                                             const dance_requirements& requirements) {
  dance_report out;
  out.checked = what_was_checked(schedule.people(), schedule.rounds(), schedule.dance_count(), requirements);
  checker c{schedule, requirements, out};
  c.validate_ranks = true;
  try {
    c.run();
  } catch (const rank_out_of_range&) {
    return std::nullopt;
  }
  return out;
}

dance_report check_partner_matrix(const partner_matrix& matrix, const dance_requirements& requirements) {
  dance_report out;
  const rank n = matrix.people();
  auto add = [&](dance_violation v) {
    ++out.count_by_kind[static_cast<std::size_t>(v.kind)];
    out.add(v, requirements.max_witnesses);
  };
  // One pass: asymmetric and out-of-range entries are reported, the symmetric part becomes a schedule whose own
  // check adds what (i) and the requirements say about it.
  dance_schedule symmetric(n);
  symmetric.reserve(matrix.rounds(), matrix.entries().size() / 2);
  for_each_round(matrix, [&](std::size_t r, std::span<const std::uint32_t> column) {
    symmetric.begin_round();
    for (rank i = 1; i <= n; ++i) {
      const std::uint32_t j = column[i - 1];
      if (j == 0 || j > n) {
        add({dance_violation_kind::entry_out_of_range, i - 1, j, 0, r - 1, 0});
      } else if (j != i && column[j - 1] != i) {
        add({dance_violation_kind::asymmetric_entry, i - 1, j - 1, column[j - 1] - 1, r - 1, 0});
      } else if (j > i) {
        symmetric.add_dance(i - 1, j - 1);
      }
    }
  });
  dance_report rest = check_dance_schedule(symmetric, requirements);
  out.checked = "matrix symmetry (iii) and " + rest.checked;
  for (std::size_t k = 0; k < dance_violation_kind_count; ++k) out.count_by_kind[k] += rest.count_by_kind[k];
  out.violation_count += rest.violation_count;
  for (const auto& v : rest.witnesses)
    if (out.witnesses.size() < requirements.max_witnesses) out.witnesses.push_back(v);
  if (out.violation_count > 0) out.outcome = verdict::violated;
  return out;
}

std::optional<checked_dance_schedule> checked_dance_schedule::accept(dance_schedule schedule,
                                                                     const dance_requirements& requirements,
                                                                     dance_report* rejection) {
  dance_report r = check_dance_schedule(schedule, requirements);
  if (!r.holds()) {
    if (rejection) *rejection = std::move(r);
    return std::nullopt;
  }
  return checked_dance_schedule(std::move(schedule), std::move(r));
}

std::string describe(const dance_report& report) {
  return describe_report<dance_violation_kind>(report, report.count_by_kind);
}

}  // namespace dancecard::dance
