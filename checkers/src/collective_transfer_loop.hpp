// The collective checker's pass over the transfers (see collective_check.cpp): SCCL's step semantics (Cai et al.,
// PPoPP 2021, Section 3.2) — every transfer of a step reads the values held when the step begins, the writes land
// together at its end — compiled once per kind of state (contributor sets or bits) and per port model, so that no
// transfer tests what the schedule's kind already answers.
//
// Where nothing combines, a transfer that breaks no rule and whose link the sender used last is taken by a short
// path that tests everything at once and takes one branch; any other transfer (a new link, a violation, a move) goes
// to the precise path, which names what is wrong. Both leave the same state behind, so the verdict and the witnesses
// do not depend on which path took a transfer.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "dancecard/checkers/collective_check.hpp"

namespace dancecard::collective::detail {

// The value of every (rank, chunk) of a combining collective: `words` words per pair, the set of contributing ranks.
// (The other collectives need one bit per pair, held or not: `held_bits` below.)
class chunk_values {
 public:
  explicit chunk_values(const collective& c);
  std::uint64_t* at(rank r, std::uint64_t k) {
    return bits_.data() + (static_cast<std::size_t>(r) * chunks_ + k) * words_;
  }
  const std::uint64_t* at(rank r, std::uint64_t k) const {
    return bits_.data() + (static_cast<std::size_t>(r) * chunks_ + k) * words_;
  }
  std::size_t words() const { return words_; }
  static bool empty(const std::uint64_t* v, std::size_t words) {
    return std::all_of(v, v + words, [](std::uint64_t w) { return w == 0; });
  }

 private:
  rank ranks_;
  std::uint64_t chunks_;
  std::size_t words_;
  std::vector<std::uint64_t> bits_;
};

// Where nothing combines, 16 bits per (chunk, rank): 0 where the rank does not hold the chunk, else the code of the
// step that wrote it (1 + step mod 32,766), with the top bit set where the rank held it already when that step began,
// or `before` (held since a step of an earlier span of 32,766). So a step's reads see the state as the step began, and
// its writes need no second visit at its end; once every 32,766 steps, every held pair becomes `before`.
class held_codes {
 public:
  static constexpr std::uint16_t before = 0x7fff, held_flag = 0x8000;
  static constexpr std::uint64_t span = 0x7ffe;
  static std::uint16_t code_of(std::size_t step) { return static_cast<std::uint16_t>(1 + step % span); }
  explicit held_codes(std::uint16_t* codes) : codes_(codes) {}
  /// Held when the step of `code` began.
  static bool held(std::uint16_t v, std::uint16_t code) { return v != 0 && v != code; }
  /// Written in the step of `code`.
  static bool written(std::uint16_t v, std::uint16_t code) { return (v & before) == code; }
  static std::uint16_t write(std::uint16_t v, std::uint16_t code) {
    return static_cast<std::uint16_t>(code | (held(v, code) ? held_flag : 0));
  }
  std::uint16_t& operator[](std::size_t i) const { return codes_[i]; }

 private:
  std::uint16_t* codes_;
};

inline constexpr rank no_rank = std::numeric_limits<rank>::max();

// Per link: its capacity, the chunks of this step (valid where `step` is this step + 1) and of the steps before.
struct link_load {
  std::uint32_t step = 0, capacity = 0;
  std::uint64_t count = 0, total = 0;
};

// Per sender, the last link it sent over, with that link's counters while it is there (the counters in the loads
// are then stale): collective algorithms send to one peer many times in a row (a ring always, a tree or recursive
// doubling within a step), so a transfer finds its link and its counters in one record.
struct sender_link {
  rank to = no_rank;
  std::uint32_t link = 0;
  link_load load;
};

// Under one port, a rank's peers of this step (valid where the stamp is this step + 1: no clearing between steps).
struct port_state {
  std::uint32_t send_stamp = 0, receive_stamp = 0;
  rank send_peer = no_rank, receive_peer = no_rank;
};

// The rank a transfer from → to clashes with under the port model in this step (no_rank: none). Full duplex: one
// peer to send to and one to receive from; half duplex: one partner both ways; simplex: `from` receives nothing and
// `to` sends nothing.
template <port_model Ports>
rank port_clash(const port_state& sender, const port_state& receiver, rank from, rank to, std::uint32_t stamp) {
  if constexpr (Ports == port_model::all_port) {
    return no_rank;
  } else {
    constexpr bool simplex = Ports == port_model::one_port_simplex;
    const rank sends = sender.send_stamp == stamp ? sender.send_peer : no_rank;
    const rank receives = receiver.receive_stamp == stamp ? receiver.receive_peer : no_rank;
    rank clash = no_rank;
    if (sends != no_rank && sends != to) clash = sends;
    if (receives != no_rank && receives != from) clash = receives;
    if constexpr (Ports != port_model::one_port_full_duplex) {
      const rank from_receives = sender.receive_stamp == stamp ? sender.receive_peer : no_rank;
      const rank to_sends = receiver.send_stamp == stamp ? receiver.send_peer : no_rank;
      if (from_receives != no_rank && (simplex || from_receives != to)) clash = from_receives;
      if (to_sends != no_rank && (simplex || to_sends != from)) clash = to_sends;
    }
    return clash;
  }
}

template <port_model Ports>
void take_ports(port_state& sender, port_state& receiver, rank from, rank to, std::uint32_t stamp) {
  if constexpr (Ports != port_model::all_port) {
    sender.send_peer = to, sender.send_stamp = stamp;
    receiver.receive_peer = from, receiver.receive_stamp = stamp;
  }
}

// The first rank in both sets, or -1.
inline std::int64_t first_common(const std::uint64_t* a, const std::uint64_t* b, std::size_t words) {
  for (std::size_t w = 0; w < words; ++w)
    if (const std::uint64_t both = a[w] & b[w]; both != 0)
      return static_cast<std::int64_t>(w * 64 + std::countr_zero(both));
  return -1;
}

// Everything the pass reads and changes, owned by the checker. Non-combining state is `held`, indexed chunk · n +
// rank (chunk major, so that both ends of a transfer lie in one row of n codes: one cache line for up to 32 ranks, and
// for neighbours in general); combining state is `values`, with the step's writes in `pending`.
struct loop_state {
  const schedule& sched;
  const collective_check_options& options;
  collective_report& out;
  chunk_values& values;
  std::vector<std::uint16_t>& held;
  std::vector<link_load>& load;
  std::vector<sender_link>& senders;
  std::vector<port_state>& ports;
  // Combining: for (rank, chunk) written in the step (write_step == step + 1), its place in `pending`.
  std::vector<std::uint32_t>& write_step;
  std::vector<std::uint32_t>& write_at;

  void violation(collective_violation v) const {
    ++out.count_by_kind[static_cast<std::size_t>(v.kind)];
    out.add(v, options.max_witnesses);
  }
};

// One pass over all steps; the state is left as after the last step, with every link's total counted.
template <bool Combines, port_model Ports>
class transfer_loop {
 public:
  explicit transfer_loop(loop_state& s)
      : s_(s), n_(s.sched.coll.ranks), K_(s.sched.coll.chunk_count()), words_(s.values.words()) {}

  void run() {
    const schedule& sched = s_.sched;
    for (std::size_t si = 0; si < sched.steps.size(); ++si) {
      const step& st = sched.steps[si];
      has_move_ = false;
      pending_.clear();
      pending_values_.clear();
      if constexpr (Combines) {
        for (std::size_t ti = 0; ti < st.transfers.size(); ++ti) precise(si, ti);
      } else {
        if (si > 0 && si % held_codes::span == 0)
          for (std::uint16_t& v : s_.held) v = v != 0 ? held_codes::before : 0;
        s_.options.exact ? quick<true>(si) : quick<false>(si);
      }
      if (has_move_) give_up_moved(si);
      for (std::size_t i = 0; i < pending_.size(); ++i)
        std::copy(pending_values_.begin() + static_cast<std::ptrdiff_t>(i * words_),
                  pending_values_.begin() + static_cast<std::ptrdiff_t>((i + 1) * words_),
                  s_.values.at(pending_[i].to, pending_[i].chunk));
      s_.out.rounds += st.rounds;
      s_.out.transfers += st.transfers.size();
    }
    for (const sender_link& c : s_.senders)
      if (c.to != no_rank) s_.load[c.link] = c.load;
    for (link_load& on : s_.load) on.total += on.count;
  }

 private:
  struct pending_write {
    rank to;
    std::uint64_t chunk;
    bool reduce;
  };

  static constexpr std::size_t prefetch_distance = 48;

  // The short path of a step where nothing combines: a copy over the link its sender used last, tested all at once.
  // Every value it reads is a local copy: a store through a pointer could alias a member, and the compiler would read
  // it again after each store.
  template <bool Exact>
  void quick(std::size_t si) {
    const step& st = s_.sched.steps[si];
    const auto stamp = static_cast<std::uint32_t>(si + 1);
    const std::uint16_t code = held_codes::code_of(si);
    const std::uint32_t rounds = st.rounds;
    const rank n = n_;
    const std::uint64_t K = K_;
    sender_link* const senders = s_.senders.data();
    port_state* const ports = s_.ports.data();
    const held_codes held(s_.held.data());
    const transfer* const first = st.transfers.data();
    const transfer* const end = first + st.transfers.size();
    for (const transfer* p = first; p != end; ++p) {
      const transfer& t = *p;
      const rank from = t.from, to = t.to;
      const std::uint64_t chunk = t.chunk;
      // A sender's `to` names a link that exists, so from ≠ to and both are ranks.
      if (from < n && chunk < K && t.op == transfer_op::copy && senders[from].to == to) [[likely]] {
        link_load& on = senders[from].load;
        const std::uint64_t used = on.step == stamp ? on.count : 0;
        const std::size_t row = static_cast<std::size_t>(chunk) * n;
        const std::uint16_t source = held[row + from], target = held[row + to];
        // One branch for the four tests: bitwise and over their 0/1 values.
        bool fine = (unsigned{used < std::uint64_t{on.capacity} * rounds} & unsigned{held_codes::held(source, code)} &
                     unsigned{!held_codes::written(target, code)} & unsigned{!(Exact && target != 0)}) != 0;
        if constexpr (Ports != port_model::all_port)
          fine = fine && port_clash<Ports>(ports[from], ports[to], from, to, stamp) == no_rank;
        if (fine) [[likely]] {
          if (on.step != stamp) on.total += on.count, on.step = stamp, on.count = 0;
          ++on.count;
          if constexpr (Ports != port_model::all_port) take_ports<Ports>(ports[from], ports[to], from, to, stamp);
          held[row + to] = held_codes::write(target, code);
          continue;
        }
      }
      precise(si, static_cast<std::size_t>(p - first));
    }
  }

  // One transfer, every rule, each violation named.
  [[gnu::noinline]] void precise(std::size_t si, std::size_t ti) {
    const step& st = s_.sched.steps[si];
    const transfer& t = st.transfers[ti];
    const auto stamp = static_cast<std::uint32_t>(si + 1);
    const bool exact = s_.options.exact;
    auto violation = [&](collective_violation_kind kind, rank other = 0) {
      s_.violation({kind, si, ti, t.chunk, t.from, t.to, other});
    };
    link_load* const on = counters(t.from, t.to);
    if (on == nullptr || t.chunk >= K_) {
      if (t.from >= n_ || t.to >= n_ || t.chunk >= K_ || t.from == t.to) {
        violation(collective_violation_kind::out_of_range);
        return;
      }
      violation(collective_violation_kind::not_a_link);
    } else {
      if (on->step != stamp) on->total += on->count, on->step = stamp, on->count = 0;
      if (++on->count > std::uint64_t{on->capacity} * st.rounds) violation(collective_violation_kind::over_capacity);
    }
    if constexpr (Ports != port_model::all_port) {
      port_state& sender = s_.ports[t.from];
      port_state& receiver = s_.ports[t.to];
      if (const rank clash = port_clash<Ports>(sender, receiver, t.from, t.to, stamp); clash != no_rank)
        violation(collective_violation_kind::port_conflict, clash);
      else
        take_ports<Ports>(sender, receiver, t.from, t.to, stamp);
    }
    if constexpr (!Combines) {
      // Causality and the value written: one code each where nothing combines.
      const std::uint16_t code = held_codes::code_of(si);
      const std::size_t row = static_cast<std::size_t>(t.chunk) * n_;
      std::uint16_t& target = s_.held[row + t.to];
      if (!held_codes::held(s_.held[row + t.from], code)) {
        violation(collective_violation_kind::not_held);
        return;
      }
      if (t.op != transfer_op::copy) {
        if (t.op == transfer_op::reduce) {
          violation(collective_violation_kind::reduce_forbidden);
          return;
        }
        has_move_ = true;
      }
      if (exact && held_codes::held(target, code)) violation(collective_violation_kind::redundant);
      if (held_codes::written(target, code)) {  // the same chunk twice in one step: the same value, only redundant
        if (exact) violation(collective_violation_kind::redundant);
        return;
      }
      target = held_codes::write(target, code);
    } else {
      const std::uint64_t* sent = s_.values.at(t.from, t.chunk);
      if (chunk_values::empty(sent, words_)) {
        violation(collective_violation_kind::not_held);
        return;
      }
      has_move_ = has_move_ || t.op == transfer_op::move;
      const std::uint64_t* held_value = s_.values.at(t.to, t.chunk);
      if (exact && t.op != transfer_op::reduce && std::equal(held_value, held_value + words_, sent))
        violation(collective_violation_kind::redundant);
      const std::size_t target = static_cast<std::size_t>(t.to) * K_ + t.chunk;
      if (s_.write_step[target] != stamp) {
        s_.write_step[target] = stamp;
        s_.write_at[target] = static_cast<std::uint32_t>(pending_.size());
        pending_.push_back({t.to, t.chunk, t.op == transfer_op::reduce});
        if (t.op != transfer_op::reduce) {
          pending_values_.insert(pending_values_.end(), sent, sent + words_);
        } else {
          if (const std::int64_t twice = first_common(held_value, sent, words_); twice >= 0)
            violation(collective_violation_kind::double_counted, static_cast<rank>(twice));
          for (std::size_t w = 0; w < words_; ++w) pending_values_.push_back(held_value[w] | sent[w]);
        }
        return;
      }
      const std::size_t at = s_.write_at[target];
      std::uint64_t* value = pending_values_.data() + at * words_;
      if (!pending_[at].reduce && t.op != transfer_op::reduce && std::equal(value, value + words_, sent)) {
        if (exact) violation(collective_violation_kind::redundant);  // a second copy of the same value
        return;
      }
      if (!pending_[at].reduce || t.op != transfer_op::reduce) {
        violation(collective_violation_kind::write_conflict);
        return;
      }
      if (const std::int64_t twice = first_common(value, sent, words_); twice >= 0)
        violation(collective_violation_kind::double_counted, static_cast<rank>(twice));
      for (std::size_t w = 0; w < words_; ++w) value[w] |= sent[w];
    }
  }

  // The counters of the link from → to (nullptr where there is none): the sender's record when the link is its last,
  // else the loads' entry, found by the topology's binary search, which then becomes the sender's last link (the one it
  // replaces goes back to the loads).
  link_load* counters(rank from, rank to) {
    if (from < n_ && s_.senders[from].to == to) return &s_.senders[from].load;
    const std::size_t l = s_.sched.network.link_index(from, to);
    if (l >= s_.load.size()) return nullptr;
    if (l > std::numeric_limits<std::uint32_t>::max()) return &s_.load[l];
    sender_link& c = s_.senders[from];
    if (c.to != no_rank) s_.load[c.link] = c.load;
    c.to = to, c.link = static_cast<std::uint32_t>(l), c.load = s_.load[l];
    return &c.load;
  }

  // Moves give their chunks up before the writes land (a rank that moves a chunk and receives it back holds it). The
  // moves that count: from a rank that holds the chunk as the step begins, and not a reduction where nothing combines.
  // Gathered after the step's transfers, and only in a step with a move.
  void give_up_moved(std::size_t si) {
    const step& st = s_.sched.steps[si];
    const std::uint16_t code = held_codes::code_of(si);
    moved_.clear();
    for (std::size_t ti = 0; ti < st.transfers.size(); ++ti) {
      const transfer& t = st.transfers[ti];
      if (t.op != transfer_op::move || t.from >= n_ || t.to >= n_ || t.chunk >= K_ || t.from == t.to) continue;
      const std::size_t source = static_cast<std::size_t>(t.chunk) * n_ + t.from;
      if (Combines ? !chunk_values::empty(s_.values.at(t.from, t.chunk), words_)
                   : held_codes::held(s_.held[source], code))
        moved_.emplace_back(source, ti);
    }
    std::sort(moved_.begin(), moved_.end());
    for (std::size_t i = 0; i < moved_.size(); ++i) {
      const auto [pair, ti] = moved_[i];
      if (i > 0 && moved_[i - 1].first == pair) {
        const transfer& t = st.transfers[ti];
        s_.violation({collective_violation_kind::moved_twice, si, ti, t.chunk, t.from, t.to,
                      static_cast<rank>(moved_[i - 1].second)});
        continue;
      }
      if constexpr (Combines) {
        std::uint64_t* value = s_.values.at(static_cast<rank>(pair % n_), pair / n_);
        std::fill(value, value + words_, 0);
      } else {
        std::uint16_t& v = s_.held[pair];
        v = held_codes::written(v, code) ? code : 0;
      }
    }
  }

  loop_state& s_;
  const rank n_;
  const std::uint64_t K_;
  const std::size_t words_;
  bool has_move_ = false;
  std::vector<pending_write> pending_;
  std::vector<std::uint64_t> pending_values_;
  // The moves of the step: (chunk·n + rank given up, the transfer's place), checked for repeats at the step's end.
  std::vector<std::pair<std::size_t, std::size_t>> moved_;
};

}  // namespace dancecard::collective::detail
