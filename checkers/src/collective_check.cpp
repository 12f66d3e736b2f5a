// The collective checker (see the header): SCCL's step semantics (Cai et al., PPoPP 2021, Section 3.2) — every
// transfer of a step reads the values held when the step begins, the writes land together at its end — with chunk
// values as contributor sets for the combining collectives.
#include "dancecard/checkers/collective_check.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace dancecard::collective {

namespace {

constexpr std::array<std::string_view, collective_violation_kind_count> kind_names = {
    "out of range",   "not a link",       "over capacity", "port conflict",        "not held",  "write conflict",
    "double counted", "reduce forbidden", "missing",       "missing contribution", "redundant", "moved twice"};

// The value of every (rank, chunk) of a combining collective: `words` words per pair, the set of contributing ranks.
// (The other collectives need one bit per pair, held or not: `bits` below.)
class chunk_values {
 public:
  explicit chunk_values(const collective& c)
      : ranks_(combining(c.kind) ? c.ranks : 0), chunks_(c.chunk_count()), words_((c.ranks + 63) / 64) {
    const std::uint64_t bytes = static_cast<std::uint64_t>(ranks_) * chunks_ * words_ * 8;
    if (bytes > (std::uint64_t{1} << 31))
      throw std::invalid_argument("collective check: " + c.describe() + " needs " + std::to_string(bytes >> 20) +
                                  " MiB of chunk values (at most 2048)");
    bits_.assign(static_cast<std::size_t>(ranks_) * chunks_ * words_, 0);
    for (rank r = 0; r < ranks_; ++r)
      for (std::uint64_t k = 0; k < chunks_; ++k) at(r, k)[r / 64] |= std::uint64_t{1} << (r % 64);
  }
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

// Two bits per (rank, chunk), side by side so that a step's end touches one word per write: held, and written in
// this step. A view of words the caller owns, cheap to copy into the checking loop's registers.
class held_bits {
 public:
  explicit held_bits(std::uint64_t* words) : words_(words) {}
  static std::size_t words_for(std::uint64_t count) { return static_cast<std::size_t>((count + 31) / 32); }
  bool held(std::size_t i) const { return (words_[i / 32] >> (2 * (i % 32)) & 1) != 0; }
  void hold(std::size_t i) { words_[i / 32] |= std::uint64_t{1} << (2 * (i % 32)); }
  /// Marks i written in this step; false where it was already.
  bool write(std::size_t i) {
    std::uint64_t& w = words_[i / 32];
    const std::uint64_t bit = std::uint64_t{2} << (2 * (i % 32));
    const bool first = (w & bit) == 0;
    w |= bit;
    return first;
  }
  void release(std::size_t i) { words_[i / 32] &= ~(std::uint64_t{1} << (2 * (i % 32))); }
  /// The step's end: a written chunk is held.
  void commit(std::size_t i) {
    std::uint64_t& w = words_[i / 32];
    w = (w | std::uint64_t{1} << (2 * (i % 32))) & ~(std::uint64_t{2} << (2 * (i % 32)));
  }

 private:
  std::uint64_t* words_;
};

// Whether the network is one of the vertex-transitive built-ins with links both ways, by its links: the complete graph
// (every ordered pair: n·(n − 1) links, as no pair repeats), or the ring, torus or hypercube its name gives.
bool vertex_transitive_builtin(const topology& network) {
  const std::uint64_t n = network.size();
  const std::string& name = network.name();
  if (name.rfind("complete:", 0) == 0) return network.links().size() == n * (n - 1);
  if (name.rfind("ring:", 0) != 0 && name.rfind("torus:", 0) != 0 && name.rfind("hypercube:", 0) != 0) return false;
  try {
    const std::optional<topology> same = builtin_topology(name);
    return same && same->size() == network.size() && same->links() == network.links();
  } catch (const std::invalid_argument&) {
    return false;
  }
}

constexpr rank no_rank = std::numeric_limits<rank>::max();

// What the checking loop keeps per rank, in one place as a transfer reads it: the last link the rank sent over, and
// under one port its peers of this step (valid where the stamp is this step + 1: no clearing between steps).
struct rank_state {
  rank last_to = no_rank;
  std::uint32_t last_link = 0;
  std::uint32_t send_stamp = 0, receive_stamp = 0;
  rank send_peer = no_rank, receive_peer = no_rank;
};

// The link from → to's place in network.links() (links().size() where there is none), by a one-entry cache per
// sender in front of the topology's binary search: collective algorithms send to one peer many times in a row (a ring
// always, a tree or recursive doubling within a step).
std::size_t look_up_link(const topology& network, rank_state* ranks, rank from, rank to) {
  const std::size_t l = network.link_index(from, to);
  if (l < network.links().size() && l <= std::numeric_limits<std::uint32_t>::max())
    ranks[from].last_to = to, ranks[from].last_link = static_cast<std::uint32_t>(l);
  return l;
}
inline std::size_t find_link(const topology& network, rank_state* ranks, rank from, rank to) {
  if (from < network.size() && ranks[from].last_to == to) [[likely]]
    return ranks[from].last_link;
  return look_up_link(network, ranks, from, to);
}

// The first rank in both sets, or -1.
std::int64_t first_common(const std::uint64_t* a, const std::uint64_t* b, std::size_t words) {
  for (std::size_t w = 0; w < words; ++w)
    if (const std::uint64_t both = a[w] & b[w]; both != 0)
      return static_cast<std::int64_t>(w * 64 + std::countr_zero(both));
  return -1;
}

}  // namespace

std::string_view to_string(collective_violation_kind kind) { return kind_names[static_cast<std::size_t>(kind)]; }

std::string describe(const collective_violation& v) {
  std::ostringstream s;
  const std::string where = "step " + std::to_string(v.step) + ", transfer " + std::to_string(v.index) + " (chunk " +
                            std::to_string(v.chunk) + ", " + std::to_string(v.from) + " -> " + std::to_string(v.to) +
                            ")";
  switch (v.kind) {
    case collective_violation_kind::out_of_range:
      s << where << ": names a rank or chunk that does not exist, or sends to itself";
      break;
    case collective_violation_kind::not_a_link:
      s << where << ": " << v.from << " -> " << v.to << " is no link of the network";
      break;
    case collective_violation_kind::over_capacity:
      s << where << ": more chunks over " << v.from << " -> " << v.to
        << " in this step than its capacity times the rounds";
      break;
    case collective_violation_kind::port_conflict:
      s << where << ": breaks the port model, as a rank of it already exchanges with " << v.other << " in this step";
      break;
    case collective_violation_kind::not_held:
      s << where << ": rank " << v.from << " does not hold chunk " << v.chunk << " when the step begins";
      break;
    case collective_violation_kind::write_conflict:
      s << where << ": a second write of chunk " << v.chunk << " at rank " << v.to
        << " in this step that disagrees with the first (another value, or a copy beside a reduction)";
      break;
    case collective_violation_kind::double_counted:
      s << where << ": the reduction counts the contribution of rank " << v.other << " twice";
      break;
    case collective_violation_kind::reduce_forbidden:
      s << where << ": a reduction, but this collective does not combine";
      break;
    case collective_violation_kind::missing:
      s << "after " << v.step << " steps: rank " << v.to << " lacks chunk " << v.chunk;
      break;
    case collective_violation_kind::redundant:
      s << where << ": rank " << v.to << " already holds this chunk as sent, or receives it twice in this step";
      break;
    case collective_violation_kind::missing_contribution:
      s << "after " << v.step << " steps: rank " << v.to << "'s chunk " << v.chunk << " lacks the contribution of rank "
        << v.other;
      break;
    case collective_violation_kind::moved_twice:
      s << where << ": rank " << v.from << " moved chunk " << v.chunk << " away already in this step (transfer "
        << v.other << ")";
      break;
  }
  return s.str();
}

collective_report check_collective_schedule(const schedule& sched, const collective_check_options& options) {
  const collective& c = sched.coll;
  require_valid(c);
  if (c.ranks != sched.network.size())
    throw std::invalid_argument("collective check: the collective has " + std::to_string(c.ranks) +
                                " ranks, the network " + sched.network.name() + " " +
                                std::to_string(sched.network.size()));
  collective_report out;
  const rank n = c.ranks;
  const std::uint64_t K = c.chunk_count();
  const bool combines = combining(c.kind);
  out.checked = c.describe() + " on " + sched.network.name() + " (" + std::string(to_string(sched.ports)) + ")";
  auto add = [&](collective_violation v) {
    ++out.count_by_kind[static_cast<std::size_t>(v.kind)];
    out.add(v, options.max_witnesses);
  };

  chunk_values values(c);
  const std::size_t words = values.words();
  const std::uint64_t pairs = static_cast<std::uint64_t>(n) * K;
  if (!combines && pairs > (std::uint64_t{1} << 34))
    throw std::invalid_argument("collective check: " + c.describe() + " needs " + std::to_string(pairs >> 23) +
                                " MiB of chunk bits (at most 2048)");
  // Non-combining: for r·K + k, r holds chunk k / r receives chunk k in this step (the targets in `plain`).
  std::vector<std::uint64_t> held_words(held_bits::words_for(combines ? 0 : pairs), 0);
  held_bits held(held_words.data());
  std::vector<std::size_t> plain;
  if (!combines)
    for (std::uint64_t k = 0; k < K; ++k) held.hold(static_cast<std::size_t>(c.source(k)) * K + k);
  const std::size_t links = sched.network.links().size();
  // Per link: its capacity, the chunks of this step (valid where `step` is this step + 1) and of the steps before.
  struct link_load {
    std::uint32_t step = 0, capacity = 0;
    std::uint64_t count = 0, total = 0;
  };
  std::vector<link_load> load(links);
  for (std::size_t l = 0; l < links; ++l) load[l].capacity = sched.network.links()[l].capacity;
  std::vector<rank_state> rank_states(n);
  // The writes of the step: for (rank, chunk) written in it (write_step == step + 1), its place in `pending`; the new
  // values in `pending_values`, `words` words each.
  std::vector<std::uint32_t> write_step(combines ? static_cast<std::size_t>(pairs) : 0, 0);
  std::vector<std::uint32_t> write_at(combines ? static_cast<std::size_t>(pairs) : 0, 0);
  struct pending_write {
    rank to;
    std::uint64_t chunk;
    bool reduce;
  };
  std::vector<pending_write> pending;
  std::vector<std::uint64_t> pending_values;
  // The moves of the step: (rank·K + chunk given up, the transfer's place), checked for repeats at the step's end.
  // Gathered after the step's loop, and only in a step with a move: a vector's growth inside the loop would cost every
  // transfer its registers.
  std::vector<std::pair<std::size_t, std::size_t>> moved;
  if (sched.steps.size() >= std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("collective check: at most 2^32 - 2 steps");
  if (!combines) {
    std::size_t most = 0;
    for (const step& st : sched.steps) most = std::max(most, st.transfers.size());
    plain.resize(most);
  }

  // One pass over the steps, compiled once per kind of state (contributor sets or bits) and port model, so that the
  // loop over a step's transfers carries no test that the schedule's kind already answers.
  auto run = [&]<bool Combines, bool OnePort>() {
    // Local copies of what every transfer reads: a store through a pointer cannot alias them, so they stay in
    // registers (the captured originals would be read again after each store).
    const std::uint64_t chunk_count = K;
    const bool exact = options.exact;
    rank_state* const at = rank_states.data();
    link_load* const loads = load.data();
    held_bits bits = held;
    std::size_t* const targets = plain.data();
    for (std::size_t si = 0; si < sched.steps.size(); ++si) {
      const step& st = sched.steps[si];
      const auto stamp = static_cast<std::uint32_t>(si + 1);
      const std::uint32_t rounds = st.rounds;
      std::size_t written = 0;  // the step's targets in plain[0, written)
      bool has_move = false;
      pending.clear();
      pending_values.clear();
      for (std::size_t ti = 0; ti < st.transfers.size(); ++ti) {
        const transfer& t = st.transfers[ti];
        // (Captures by value: the loop's counters stay in registers.)
        auto violation = [&add, &t, si, ti](collective_violation_kind kind, rank other = 0) {
          add({kind, si, ti, t.chunk, t.from, t.to, other});
        };
        const std::size_t l = find_link(sched.network, at, t.from, t.to);
        if (l == links || t.chunk >= chunk_count) [[unlikely]] {
          if (t.from >= n || t.to >= n || t.chunk >= chunk_count || t.from == t.to) {
            violation(collective_violation_kind::out_of_range);
            continue;
          }
          violation(collective_violation_kind::not_a_link);
        } else {
          link_load& on = loads[l];
          if (on.step != stamp) on.total += on.count, on.step = stamp, on.count = 0;
          if (++on.count > std::uint64_t{on.capacity} * rounds) [[unlikely]]
            violation(collective_violation_kind::over_capacity);
        }
        // The port model: the peers of this step.
        if constexpr (OnePort) {
          const bool half = sched.ports == port_model::one_port_half_duplex;
          const bool simplex = sched.ports == port_model::one_port_simplex;
          rank_state& sender = at[t.from];
          rank_state& receiver = at[t.to];
          const rank sends = sender.send_stamp == stamp ? sender.send_peer : no_rank;
          const rank receives = receiver.receive_stamp == stamp ? receiver.receive_peer : no_rank;
          rank clash = no_rank;
          if (sends != no_rank && sends != t.to) clash = sends;
          if (receives != no_rank && receives != t.from) clash = receives;
          if (half || simplex) {  // half: one partner both ways; simplex: `from` receives nothing, `to` sends nothing
            const rank from_receives = sender.receive_stamp == stamp ? sender.receive_peer : no_rank;
            const rank to_sends = receiver.send_stamp == stamp ? receiver.send_peer : no_rank;
            if (from_receives != no_rank && (simplex || from_receives != t.to)) clash = from_receives;
            if (to_sends != no_rank && (simplex || to_sends != t.from)) clash = to_sends;
          }
          if (clash != no_rank) [[unlikely]] {
            violation(collective_violation_kind::port_conflict, clash);
          } else {
            sender.send_peer = t.to, sender.send_stamp = stamp;
            receiver.receive_peer = t.from, receiver.receive_stamp = stamp;
          }
        }
        // Causality and the value written: one bit each where nothing combines.
        if constexpr (!Combines) {
          const std::size_t source = static_cast<std::size_t>(t.from) * chunk_count + t.chunk;
          const std::size_t target = static_cast<std::size_t>(t.to) * chunk_count + t.chunk;
          if (!bits.held(source)) [[unlikely]] {
            violation(collective_violation_kind::not_held);
            continue;
          }
          if (t.op != transfer_op::copy) [[unlikely]] {
            if (t.op == transfer_op::reduce) {
              violation(collective_violation_kind::reduce_forbidden);
              continue;
            }
            has_move = true;
          }
          if (exact && bits.held(target)) violation(collective_violation_kind::redundant);
          if (!bits.write(target)) {  // the same chunk twice in one step: the same value, only redundant
            if (exact) violation(collective_violation_kind::redundant);
            continue;
          }
          targets[written++] = target;
        } else {
          const std::uint64_t* sent = values.at(t.from, t.chunk);
          if (chunk_values::empty(sent, words)) {
            violation(collective_violation_kind::not_held);
            continue;
          }
          has_move = has_move || t.op == transfer_op::move;
          const std::uint64_t* held_value = values.at(t.to, t.chunk);
          if (exact && t.op != transfer_op::reduce && std::equal(held_value, held_value + words, sent)) {
            violation(collective_violation_kind::redundant);
          }
          const std::size_t target = static_cast<std::size_t>(t.to) * K + t.chunk;
          if (write_step[target] != stamp) {
            write_step[target] = stamp;
            write_at[target] = static_cast<std::uint32_t>(pending.size());
            pending.push_back({t.to, t.chunk, t.op == transfer_op::reduce});
            if (t.op != transfer_op::reduce) {
              pending_values.insert(pending_values.end(), sent, sent + words);
            } else {
              if (const std::int64_t twice = first_common(held_value, sent, words); twice >= 0) {
                violation(collective_violation_kind::double_counted, static_cast<rank>(twice));
              }
              for (std::size_t w = 0; w < words; ++w) pending_values.push_back(held_value[w] | sent[w]);
            }
            continue;
          }
          const std::size_t at = write_at[target];
          std::uint64_t* value = pending_values.data() + at * words;
          if (!pending[at].reduce && t.op != transfer_op::reduce && std::equal(value, value + words, sent)) {
            if (exact) {  // a second copy of the same value: redundant, not a conflict
              violation(collective_violation_kind::redundant);
            }
            continue;
          }
          if (!pending[at].reduce || t.op != transfer_op::reduce) {
            violation(collective_violation_kind::write_conflict);
            continue;
          }
          if (const std::int64_t twice = first_common(value, sent, words); twice >= 0) {
            violation(collective_violation_kind::double_counted, static_cast<rank>(twice));
          }
          for (std::size_t w = 0; w < words; ++w) value[w] |= sent[w];
        }
      }
      // Moves give their chunks up before the writes land (a rank that moves a chunk and receives it back holds it).
      if (has_move) {
        // The moves that count: from a rank that holds the chunk as the step begins (the state is as it began), and
        // not a reduction where nothing combines.
        moved.clear();
        for (std::size_t ti = 0; ti < st.transfers.size(); ++ti) {
          const transfer& t = st.transfers[ti];
          if (t.op != transfer_op::move || t.from >= n || t.to >= n || t.chunk >= K || t.from == t.to) continue;
          const std::size_t source = static_cast<std::size_t>(t.from) * K + t.chunk;
          if (Combines ? !chunk_values::empty(values.at(t.from, t.chunk), words) : bits.held(source))
            moved.emplace_back(source, ti);
        }
        std::sort(moved.begin(), moved.end());
        for (std::size_t i = 0; i < moved.size(); ++i) {
          const auto [pair, ti] = moved[i];
          if (i > 0 && moved[i - 1].first == pair) {
            const transfer& t = st.transfers[ti];
            add({collective_violation_kind::moved_twice, si, ti, t.chunk, t.from, t.to,
                 static_cast<rank>(moved[i - 1].second)});
            continue;
          }
          if constexpr (Combines) {
            std::uint64_t* value = values.at(static_cast<rank>(pair / K), pair % K);
            std::fill(value, value + words, 0);
          } else {
            bits.release(pair);
          }
        }
      }
      for (std::size_t i = 0; i < written; ++i) bits.commit(targets[i]);
      for (std::size_t i = 0; i < pending.size(); ++i)
        std::copy(pending_values.begin() + static_cast<std::ptrdiff_t>(i * words),
                  pending_values.begin() + static_cast<std::ptrdiff_t>((i + 1) * words),
                  values.at(pending[i].to, pending[i].chunk));
      out.rounds += st.rounds;
      out.transfers += st.transfers.size();
    }
  };
  const bool one_port = sched.ports != port_model::all_port;
  if (combines)
    one_port ? run.template operator()<true, true>() : run.template operator()<true, false>();
  else
    one_port ? run.template operator()<false, true>() : run.template operator()<false, false>();
  for (link_load& on : load) on.total += on.count;
  out.steps = sched.steps.size();

  // The postcondition: each chunk at every rank (allgather, broadcast, allreduce) or at the one rank that wants it.
  auto check_at = [&](std::uint64_t k, rank r) {
    if (!combines) {
      if (!held.held(static_cast<std::size_t>(r) * K + k))
        add({collective_violation_kind::missing, out.steps, 0, k, r, r, 0});
      return;
    }
    const std::uint64_t* v = values.at(r, k);
    for (rank u = 0; u < n; ++u)
      if ((v[u / 64] >> (u % 64) & 1) == 0) {
        add({collective_violation_kind::missing_contribution, out.steps, 0, k, u, r, u});
        return;
      }
  };
  // Where nothing combines and every rank wants every chunk, a word of held bits at a time: the pairs one by one only
  // when one is missing (for the witnesses, in their order).
  const bool everywhere = c.kind == collective_kind::allgather || c.kind == collective_kind::broadcast;
  const bool all_held =
      !combines && everywhere && std::all_of(held_words.begin(), held_words.end(), [&](std::uint64_t w) {
        const std::size_t first = static_cast<std::size_t>(&w - held_words.data()) * 32;
        const std::uint64_t pairs_here = std::min<std::uint64_t>(32, pairs - first);
        const std::uint64_t held_mask = 0x5555555555555555 >> (64 - 2 * pairs_here);
        return (w & held_mask) == held_mask;
      });
  for (std::uint64_t k = 0; k < K && !all_held; ++k) {
    switch (c.kind) {
      case collective_kind::allgather:
      case collective_kind::broadcast:
      case collective_kind::allreduce:
        for (rank r = 0; r < n; ++r) check_at(k, r);
        break;
      case collective_kind::gather:
      case collective_kind::reduce:
        check_at(k, c.root);
        break;
      case collective_kind::alltoall:
      case collective_kind::alltoallv:
        check_at(k, static_cast<rank>(c.block(k) % n));
        break;
      case collective_kind::scatter:
      case collective_kind::reduce_scatter:
        check_at(k, static_cast<rank>(k / c.chunks));
        break;
    }
  }

  for (std::size_t l = 0; l < links; ++l)
    if (load[l].total > out.busiest_link_chunks) {
      out.busiest_link_chunks = load[l].total;
      out.busiest_from = sched.network.links()[l].from;
      out.busiest_to = sched.network.links()[l].to;
    }

  // The lower bounds. Steps: a chunk (a contribution) moves one hop a step, so the farthest pair of a rank holding it
  // at the start and a rank wanting it bounds every schedule: the eccentricity of each source (every rank wants what
  // it sends: allgather, alltoall, broadcast, scatter; every rank contributes to blocks wanted everywhere:
  // reduce-scatter, allreduce) or its distance to the root (gather, reduce). One breadth-first search per source,
  // left out (0) where that is more than 2^27 link visits.
  const bool to_root = c.kind == collective_kind::gather || c.kind == collective_kind::reduce;
  const bool from_root = c.kind == collective_kind::broadcast || c.kind == collective_kind::scatter;
  // On a vertex-transitive network with links both ways (the built-in complete graph, ring, torus and hypercube,
  // recognised by their links, not their name) every rank has the same eccentricity, the distance both ways: one
  // search from the root (or rank 0) gives the bound.
  // An alltoallv's pairs with nothing to send do not count: one search per source, the farthest wanted destination.
  const bool pairs_only = c.kind == collective_kind::alltoallv;
  const bool one_search = !pairs_only && (from_root || vertex_transitive_builtin(sched.network));
  const std::uint64_t searches = one_search ? 1 : n;
  if (n > 1 && searches * (n + sched.network.links().size()) <= (std::uint64_t{1} << 27)) {
    std::uint64_t farthest = 0;
    const rank first = from_root || to_root ? c.root : 0;
    for (rank u = one_search ? first : 0; u < (one_search ? first + 1 : n); ++u) {
      const std::vector<std::uint32_t> d = distances_from(sched.network, u);
      for (rank r = 0; r < n; ++r) {
        if (to_root && !one_search && r != c.root) continue;
        if (pairs_only && (r == u || c.block_chunks(u, r) == 0)) continue;
        if (d[r] == std::numeric_limits<std::uint32_t>::max())
          out.unreachable = true;
        else
          farthest = std::max<std::uint64_t>(farthest, d[r]);
      }
    }
    out.step_bound = farthest;
  }
  // Under one port, a rank takes in one peer's values a step, so the ranks whose values (or contributions) a rank can
  // hold after t steps are at most 2^t, as are the ranks a value can have reached: every collective here but alltoallv
  // joins all n ranks (a rank wants every rank's values, or one rank's values reach all) — steps >= ⌈log2 n⌉; an
  // alltoallv joins a rank with the ranks it sends to, and with those it receives from.
  if (sched.ports != port_model::all_port && n > 1) {
    std::uint64_t joined = n;
    if (pairs_only) {
      joined = 1;
      for (rank r = 0; r < n; ++r) {
        std::uint64_t to = 0, from = 0;
        for (rank u = 0; u < n; ++u)
          if (u != r) to += c.block_chunks(r, u) != 0, from += c.block_chunks(u, r) != 0;
        joined = std::max(joined, 1 + std::max(to, from));
      }
    }
    std::uint64_t doubling = 0;
    while ((std::uint64_t{1} << doubling) < joined) ++doubling;
    out.step_bound = std::max(out.step_bound, doubling);
  }
  // Rounds (non-combining): rank r must receive every chunk it wants and does not start with — (n − 1)·C for allgather
  // and alltoall, at the root for gather; C for every other rank in broadcast and scatter; the blocks others send it in
  // an alltoallv — at most in_capacity(r) a round (one port: its widest in-link).
  auto receives = [&](rank r) {
    std::uint64_t need = 0;
    if (c.kind == collective_kind::allgather || c.kind == collective_kind::alltoall ||
        (c.kind == collective_kind::gather && r == c.root))
      need = std::uint64_t{n - 1} * c.chunks;
    else if (pairs_only)
      for (rank u = 0; u < n; ++u) need += u == r ? 0 : c.block_chunks(u, r);
    else if ((c.kind == collective_kind::broadcast || c.kind == collective_kind::scatter) && r != c.root)
      need = c.chunks;
    return need;
  };
  if (!combines) {
    for (rank r = 0; r < n; ++r) {
      const std::uint64_t need = receives(r);
      if (need == 0) continue;
      const std::uint64_t per_round =
          sched.ports == port_model::all_port ? sched.network.in_capacity(r) : sched.network.largest_in_link(r);
      if (per_round == 0) {
        out.unreachable = true;
        continue;
      }
      if (const std::uint64_t bound = (need + per_round - 1) / per_round; bound > out.round_bound) {
        out.round_bound = bound;
        // the cut: every rank but r inside (n <= 32)
        out.round_bound_cut =
            n > 32 ? 0 : static_cast<std::uint32_t>(((std::uint64_t{1} << n) - 1) ^ (std::uint64_t{1} << r));
      }
    }
  }
  // Simplex (one link, one way, a step): rank r must also send at least once every chunk it starts with that another
  // rank wants — its own C for allgather and gather off the root, (n − 1)·C for alltoall, the root's C or (n − 1)·C
  // for broadcast and scatter, its blocks for alltoallv — and its one port carries at most its widest link a round,
  // either way: rounds >= (received + sent) / widest (the h-relation paper's half-duplex h). Not a cut (none named).
  if (!combines && sched.ports == port_model::one_port_simplex && n > 1) {
    std::vector<std::uint64_t> widest(n, 0);
    for (const link& l : sched.network.links()) {
      widest[l.from] = std::max<std::uint64_t>(widest[l.from], l.capacity);
      widest[l.to] = std::max<std::uint64_t>(widest[l.to], l.capacity);
    }
    for (rank r = 0; r < n; ++r) {
      std::uint64_t sends = 0;
      if (c.kind == collective_kind::allgather || (c.kind == collective_kind::gather && r != c.root))
        sends = c.chunks;
      else if (c.kind == collective_kind::alltoall || (c.kind == collective_kind::scatter && r == c.root))
        sends = std::uint64_t{n - 1} * c.chunks;
      else if (c.kind == collective_kind::broadcast && r == c.root)
        sends = c.chunks;
      else if (pairs_only)
        for (rank u = 0; u < n; ++u) sends += u == r ? 0 : c.block_chunks(r, u);
      const std::uint64_t need = receives(r) + sends;
      if (need == 0 || widest[r] == 0) continue;  // unreachable where it matters: found above
      if (const std::uint64_t bound = (need + widest[r] - 1) / widest[r]; bound > out.round_bound) {
        out.round_bound = bound;
        out.round_bound_cut = 0;
      }
    }
  }
  // Rounds by cuts (non-combining, n <= 16: every subset S of the ranks): the chunks that start in S and are wanted
  // outside it must cross from S to the rest, each at least once — |S|·C for allgather (and gather with the root
  // outside), |S|·|rest|·C for alltoall, the blocks from S to the rest for alltoallv, C for broadcast and |rest|·C for
  // scatter (the root in S) — and at most the
  // capacity of the links from S to the rest crosses a round (one port: each rank of S uses one of its links out of S,
  // each rank of the rest one of its links from S, so the smaller sum of the widest ones). The singletons give the
  // per-rank bound above; larger cuts bind where the network is thin between groups (DGX-1's two quads).
  if (!combines && n >= 2 && n <= 16) {
    const std::uint64_t C = c.chunks;
    const bool one_port = sched.ports != port_model::all_port;
    std::vector<std::uint64_t> widest_out(one_port ? n : 0), widest_in(one_port ? n : 0);  // per cut, one port only
    for (std::uint32_t set = 1; set + 1 < (std::uint32_t{1} << n); ++set) {
      const auto inside = static_cast<std::uint64_t>(std::popcount(set)), outside = n - inside;
      const bool root_in = (set >> c.root & 1) != 0;
      std::uint64_t need = 0;
      switch (c.kind) {
        case collective_kind::allgather:
          need = inside * C;
          break;
        case collective_kind::alltoall:
          need = inside * outside * C;
          break;
        case collective_kind::alltoallv:
          for (rank u = 0; u < n; ++u)
            if ((set >> u & 1) != 0)
              for (rank w = 0; w < n; ++w) need += (set >> w & 1) == 0 ? c.block_chunks(u, w) : 0;
          break;
        case collective_kind::gather:
          need = root_in ? 0 : inside * C;
          break;
        case collective_kind::broadcast:
          need = root_in ? C : 0;
          break;
        case collective_kind::scatter:
          need = root_in ? outside * C : 0;
          break;
        default:
          break;
      }
      if (need == 0) continue;
      std::uint64_t across = 0;
      if (one_port)
        std::fill(widest_out.begin(), widest_out.end(), 0), std::fill(widest_in.begin(), widest_in.end(), 0);
      for (const link& l : sched.network.links())
        if ((set >> l.from & 1) != 0 && (set >> l.to & 1) == 0) {
          across += l.capacity;
          if (one_port) {
            widest_out[l.from] = std::max<std::uint64_t>(widest_out[l.from], l.capacity);
            widest_in[l.to] = std::max<std::uint64_t>(widest_in[l.to], l.capacity);
          }
        }
      if (one_port) {
        std::uint64_t senders = 0, receivers = 0;
        for (rank r = 0; r < n; ++r) senders += widest_out[r], receivers += widest_in[r];
        across = std::min(senders, receivers);
      }
      if (across == 0) {
        out.unreachable = true;
        continue;
      }
      const std::uint64_t bound = (need + across - 1) / across;
      if (bound > out.round_bound) {
        out.round_bound = bound;
        out.round_bound_cut = set;
      }
    }
  }
  out.checked += ": " + std::to_string(out.steps) + " steps, " + std::to_string(out.rounds) + " rounds, " +
                 std::to_string(out.transfers) + " transfers";
  return out;
}

std::string describe(const collective_report& report) {
  std::string text = describe_report<collective_violation_kind>(report, report.count_by_kind);
  std::ostringstream s;
  s << "  lower bounds on this network: ";
  if (report.unreachable)
    s << "some chunk cannot reach a rank that wants it";
  else
    s << report.step_bound << " steps"
      << (report.round_bound != 0 ? ", " + std::to_string(report.round_bound) + " rounds" : "");
  if (report.round_bound_cut != 0 && !report.unreachable) {
    s << " (the chunks leaving {";
    bool first = true;
    for (rank r = 0; r < 32; ++r)
      if ((report.round_bound_cut >> r & 1) != 0) s << (first ? "" : ", ") << r, first = false;
    s << "} over its links out)";
  }
  if (report.busiest_link_chunks != 0)
    s << "; the busiest link " << report.busiest_from << " -> " << report.busiest_to << " carries "
      << report.busiest_link_chunks << " chunks";
  return text + s.str() + "\n";
}

}  // namespace dancecard::collective
