// MSCCL-IR programs as collective schedules (see the header): the program's run from msccl_model, each matched
// transfer placed at its depth in happens-before, its chunk and op read from the values it carries.
#include "dancecard/checkers/msccl_import.hpp"

#include <algorithm>
#include <map>
#include <span>
#include <stdexcept>

#include "msccl_model.hpp"

namespace dancecard::collective {

namespace {

using detail_msccl::model;
using detail_msccl::no_op;
using detail_msccl::op_index;
using detail_msccl::value;

std::string where(const model& m, op_index o) {
  const msccl_step_ref r = m.ref(o);
  return "gpu " + std::to_string(r.gpu) + " tb " + std::to_string(r.tb) + " step " + std::to_string(r.step);
}

bool subset(const value& small, const value& big) {
  return std::includes(big->begin(), big->end(), small->begin(), small->end());
}

bool disjoint(const value& a, const value& b) {
  auto i = a->begin();
  auto j = b->begin();
  while (i != a->end() && j != b->end()) {
    if (*i == *j) return false;
    if (*i < *j) {
      ++i;
    } else {
      ++j;
    }
  }
  return true;
}

// One matched transfer of one chunk, before its op is known.
struct moved {
  op_index send = 0;
  std::uint32_t step = 0;  // 1 …
  transfer t;
  value carried;
};

// The translation; throws std::runtime_error with the reason where the program is not a chunk schedule.
class importer {
 public:
  importer(const msccl_program& p, const collective& coll, const msccl_import_options& options)
      : program_(p), coll_(coll), m_(p), n_(coll.ranks) {
    const auto ignore = [](msccl_violation_kind, std::vector<msccl_step_ref>, std::string) {};
    m_.check_structure(ignore);
    m_.match(ignore);
    m_.resolve_dependencies(ignore);
    order_ = m_.run(options.connection_slots, ignore);
    replay_ = m_.replay(order_, false, ignore, true);
    per_input_ = p.gpus.front().i_chunks;
    for (const msccl_gpu& g : p.gpus)
      if (g.i_chunks != per_input_)
        fail("gpu " + std::to_string(g.id) + " has " + std::to_string(g.i_chunks) + " input chunks and gpu " +
             std::to_string(p.gpus.front().id) + " " + std::to_string(per_input_) +
             "; a collective's ranks contribute alike");
    if (static_cast<std::size_t>(p.ngpus) != p.gpus.size())
      fail(std::to_string(p.gpus.size()) + " gpu elements for ngpus " + std::to_string(p.ngpus));
    rank_of_.resize(p.gpus.size());
    for (std::size_t g = 0; g < p.gpus.size(); ++g) rank_of_[g] = static_cast<rank>(p.gpus[g].id);
  }

  // The transfers placed as early as the program's order lets them run, as late, and in between by a list schedule;
  // the placement with the fewest rounds (the earlier one on a tie; any that is a chunk schedule where not all are).
  schedule translate(const msccl_import_options& options) {
    std::vector<moved> transfers = collect();
    const topology network = options.network ? *options.network : complete_topology(n_);
    std::string why, other;
    std::optional<schedule> best = place(transfers, options, why);
    auto consider = [&](std::vector<moved>& placed) {
      std::optional<schedule> s = place(placed, options, other);
      if (s && (!best || s->rounds() < best->rounds())) best = std::move(s);
    };
    std::vector<moved> listed = transfers;
    balance(listed, network);
    consider(listed);
    latest(transfers);
    consider(transfers);
    if (!best) fail(why);
    return std::move(*best);
  }

  std::optional<schedule> place(std::vector<moved> transfers, const msccl_import_options& options, std::string& why) {
    std::stable_sort(transfers.begin(), transfers.end(),
                     [](const moved& a, const moved& b) { return a.step < b.step; });
    schedule s{options.network ? *options.network : complete_topology(n_), options.ports, coll_, {}, ""};
    s.algorithm = "MSCCL-IR '" + program_.name + "'";
    try {
      initial_values();
      for (std::size_t i = 0; i < transfers.size();) {
        std::size_t end = i;
        while (end < transfers.size() && transfers[end].step == transfers[i].step) ++end;
        s.steps.push_back(make_step(std::span(transfers).subspan(i, end - i), s.network));
        i = end;
      }
    } catch (const std::runtime_error& e) {
      why = e.what();
      return std::nullopt;
    }
    return s;
  }

  // For each sending step, the step of its transfer: as early as the program's order lets it run, no earlier than
  // `floor`; steps in `fixed` (non-zero) are placed already (a run's order lists every step after all it waits for).
  std::vector<std::uint32_t> earliest_steps(const std::vector<std::uint32_t>& fixed, std::uint32_t floor) const {
    std::vector<std::uint32_t> known(m_.ops.size(), 0), step_of(m_.ops.size(), 0);
    for (const op_index o : order_) {
      const detail_msccl::op& x = m_.ops[o];
      if (x.pos >= m_.blocks[x.block].live) continue;
      std::uint32_t k = x.pos > 0 ? known[o - 1] : 0;
      if (x.signal != no_op) k = std::max(k, known[x.signal]);
      if (receives(x.step->type)) k = std::max(k, step_of[x.matched_send]);
      known[o] = k;
      if (sends(x.step->type)) step_of[o] = fixed[o] != 0 ? fixed[o] : std::max(k + 1, floor);
    }
    return step_of;
  }

  // For each sending step, the latest step of its transfer within `depth` steps: below[o] is the longest chain of
  // transfers that starts at or after step o (its thread block's later steps, the steps waiting for its signal, the
  // receive of what it sends).
  std::vector<std::uint32_t> latest_steps(std::uint32_t depth) const {
    std::vector<std::vector<op_index>> waiters(m_.ops.size());
    for (op_index o = 0; o < m_.ops.size(); ++o)
      if (m_.ops[o].signal != no_op) waiters[m_.ops[o].signal].push_back(o);
    std::vector<std::uint32_t> below(m_.ops.size(), 0), out(m_.ops.size(), 0);
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const op_index o = *it;
      const detail_msccl::op& x = m_.ops[o];
      if (x.pos >= m_.blocks[x.block].live) continue;
      std::uint32_t h = x.pos + 1 < m_.blocks[x.block].live ? below[o + 1] : 0;
      for (op_index w : waiters[o]) h = std::max(h, below[w]);
      if (sends(x.step->type)) {
        h = std::max(h, below[x.matched_recv] + 1);
        out[o] = depth - below[x.matched_recv];
      }
      below[o] = h;
    }
    return out;
  }

  static std::uint32_t depth_of(const std::vector<moved>& transfers) {
    std::uint32_t depth = 0;
    for (const moved& mv : transfers) depth = std::max(depth, mv.step);
    return depth;
  }

  // Moves each transfer as late as the deepest one allows.
  void latest(std::vector<moved>& transfers) const {
    const std::vector<std::uint32_t> late = latest_steps(depth_of(transfers));
    for (moved& mv : transfers) mv.step = late[mv.send];
  }

  // A list schedule (Graham 1966) between the two: step by step, the transfers that cannot wait (their latest step)
  // go first and set the step's rounds — the most chunks on a link over its capacity — and transfers that could go
  // later fill what those rounds leave, the most urgent first. No claim of the fewest rounds; often fewer.
  void balance(std::vector<moved>& transfers, const topology& network) const {
    const std::uint32_t depth = depth_of(transfers);
    const std::vector<std::uint32_t> late = latest_steps(depth);
    std::vector<op_index> senders;
    for (const op_index o : order_)
      if (m_.ops[o].pos < m_.blocks[m_.ops[o].block].live && sends(m_.ops[o].step->type)) senders.push_back(o);
    auto link_of = [&](op_index o) {
      return std::pair{rank_of_[m_.blocks[m_.ops[o].block].gpu],
                       rank_of_[m_.blocks[m_.ops[m_.ops[o].matched_recv].block].gpu]};
    };
    std::vector<std::uint32_t> fixed(m_.ops.size(), 0);
    for (std::uint32_t s = 1; s <= depth; ++s) {
      const std::vector<std::uint32_t> early = earliest_steps(fixed, s);
      std::vector<op_index> can;
      std::map<std::pair<rank, rank>, std::uint64_t> load;
      for (const op_index o : senders) {
        if (fixed[o] != 0 || early[o] > s) continue;
        if (late[o] <= s) {
          fixed[o] = s;
          load[link_of(o)] += m_.ops[o].step->cnt;
        } else {
          can.push_back(o);
        }
      }
      std::uint64_t rounds = 1;
      auto capacity = [&](const std::pair<rank, rank>& l) {
        return std::max<std::uint64_t>(network.capacity(l.first, l.second), 1);
      };
      for (const auto& [l, chunks] : load) rounds = std::max(rounds, (chunks + capacity(l) - 1) / capacity(l));
      std::stable_sort(can.begin(), can.end(), [&](op_index a, op_index b) { return late[a] < late[b]; });
      for (const op_index o : can) {
        std::uint64_t& used = load[link_of(o)];
        if (used + m_.ops[o].step->cnt <= rounds * capacity(link_of(o))) {
          used += m_.ops[o].step->cnt;
          fixed[o] = s;
        }
      }
    }
    for (moved& mv : transfers) mv.step = fixed[mv.send];
  }

  [[noreturn]] static void fail(const std::string& reason) { throw std::runtime_error(reason); }

  // The collective chunk a value is, or a failure naming the sending step.
  std::uint64_t chunk_of(const value& v, op_index send) const {
    if (!v) fail(where(m_, send) + " sends a chunk that was never written");
    const auto [g, index] = m_.source(v->front());
    if (!combining(coll_.kind)) {
      if (v->size() != 1)
        fail(where(m_, send) + " sends a sum of " + std::to_string(v->size()) + " contributions in " +
             std::string(to_string(coll_.kind)) + ", which moves single chunks");
      return static_cast<std::uint64_t>(rank_of_[g]) * static_cast<std::uint64_t>(per_input_) +
             static_cast<std::uint64_t>(index);
    }
    for (std::uint32_t c : *v)
      if (m_.source(c).second != index)
        fail(where(m_, send) + " sends " + m_.describe_value(v) +
             ", a sum over different input chunks, which no chunk of the collective is");
    return static_cast<std::uint64_t>(index);
  }

  // Each matched transfer of each chunk at its depth: one more than the deepest transfer that reaches its sender
  // before it sends (a run's order lists every step after all that it waits for).
  std::vector<moved> collect() const {
    const std::vector<std::uint32_t> step_of = earliest_steps(std::vector<std::uint32_t>(m_.ops.size(), 0), 1);
    std::vector<moved> out;
    for (const op_index o : order_) {
      const detail_msccl::op& x = m_.ops[o];
      if (x.pos >= m_.blocks[x.block].live || !sends(x.step->type)) continue;  // trailing nops: the runtime drops them
      const detail_msccl::op& y = m_.ops[x.matched_recv];
      const rank from = rank_of_[m_.blocks[x.block].gpu], to = rank_of_[m_.blocks[y.block].gpu];
      for (std::uint32_t i = 0; i < x.step->cnt; ++i) {
        const value& v = replay_.sent[o][i];
        out.push_back({o, step_of[o], {chunk_of(v, o), from, to, transfer_op::copy}, v});
      }
    }
    return out;
  }

  void initial_values() {
    held_.assign(static_cast<std::size_t>(coll_.chunk_count()) * n_, nullptr);
    for (std::size_t g = 0; g < program_.gpus.size(); ++g)
      for (std::int64_t i = 0; i < per_input_; ++i) {
        const value v = std::make_shared<std::vector<std::uint32_t>>(1, m_.contribution(g, i));
        held(chunk_of(v, no_op), rank_of_[g]) = v;
      }
  }

  value& held(std::uint64_t chunk, rank r) { return held_[static_cast<std::size_t>(chunk) * n_ + r]; }

  // One step: every sender must hold what it sends when the step begins; the op is read from the receiver's value.
  step make_step(std::span<moved> batch, const topology& network) {
    step st;
    std::map<std::pair<std::uint64_t, rank>, value> next;
    std::map<std::pair<rank, rank>, std::uint64_t> load;
    for (moved& mv : batch) {
      transfer& t = mv.t;
      const value& mine = held(t.chunk, t.from);
      if (!mine || *mine != *mv.carried)
        fail(where(m_, mv.send) + " sends " + m_.describe_value(mv.carried) + " as chunk " + std::to_string(t.chunk) +
             " while gpu " + std::to_string(t.from) + "'s latest value of that chunk is " + m_.describe_value(mine) +
             "; a chunk schedule keeps one value per chunk and rank");
      const value& theirs = held(t.chunk, t.to);
      const auto it = next.try_emplace({t.chunk, t.to}, theirs).first;
      if (!theirs || subset(theirs, mv.carried)) {
        it->second = mv.carried;
      } else if (disjoint(theirs, mv.carried) && combining(coll_.kind)) {
        t.op = transfer_op::reduce;
        auto sum = std::make_shared<std::vector<std::uint32_t>>();
        std::set_union(it->second->begin(), it->second->end(), mv.carried->begin(), mv.carried->end(),
                       std::back_inserter(*sum));
        it->second = std::move(sum);
      } else {
        fail(where(m_, mv.send) + " sends " + m_.describe_value(mv.carried) + " to gpu " + std::to_string(t.to) +
             ", which holds " + m_.describe_value(theirs) + " of chunk " + std::to_string(t.chunk) +
             ": neither a copy (it would lose contributions) nor a reduction (it would count some twice)");
      }
      ++load[{t.from, t.to}];
      st.transfers.push_back(t);
    }
    for (auto& [key, v] : next) held(key.first, key.second) = std::move(v);
    std::uint64_t rounds = 1;
    for (const auto& [link, chunks] : load) {
      const std::uint64_t cap = std::max<std::uint32_t>(network.capacity(link.first, link.second), 1);
      rounds = std::max(rounds, (chunks + cap - 1) / cap);
    }
    st.rounds = static_cast<std::uint32_t>(std::min<std::uint64_t>(rounds, UINT32_MAX));
    return st;
  }

  const msccl_program& program_;
  collective coll_;
  model m_;
  rank n_;
  std::vector<op_index> order_;
  detail_msccl::replay_result replay_;
  std::int64_t per_input_ = 0;
  std::vector<rank> rank_of_;  // by GPU index, its id
  std::vector<value> held_;    // chunk · n + rank: the value a chunk schedule gives that rank
};

}  // namespace

msccl_import_result import_msccl(const msccl_program& program, const msccl_import_options& options) {
  if (options.connection_slots < 1) throw std::invalid_argument("import_msccl: connection_slots must be >= 1");
  if (options.network && options.network->size() != static_cast<rank>(program.ngpus))
    throw std::invalid_argument("import_msccl: the network " + options.network->name() + " has " +
                                std::to_string(options.network->size()) + " ranks, the program " +
                                std::to_string(program.ngpus) + " GPUs");
  msccl_import_result out;
  out.program_check = check_msccl_program(program, {.max_witnesses = 10, .connection_slots = options.connection_slots});
  const msccl_report& r = out.program_check;
  const std::optional<collective> coll = msccl_collective(program);
  if (!coll) {
    out.reason = "coll '" + program.coll +
                 "' with these buffers is no collective a chunk schedule can state (allgather, alltoall, allreduce "
                 "and reducescatter are; the format carries no root for the rooted ones)";
    return out;
  }
  for (msccl_violation_kind k :
       {msccl_violation_kind::malformed, msccl_violation_kind::unmatched, msccl_violation_kind::count_mismatch,
        msccl_violation_kind::deadlock, msccl_violation_kind::race})
    if (r.count(k) > 0) {
      out.program_invalid = true;
      out.reason = "the program fails its own check (" + std::string(to_string(k)) + "), so it has no single meaning";
      for (const msccl_violation& v : r.witnesses)
        if (v.kind == k) {
          out.reason += ": " + describe(v);
          break;
        }
      return out;
    }
  if (r.outcome == verdict::unknown) {
    out.reason = "the program's own check is unknown: " + r.checked;
    return out;
  }
  if (!options.network && coll->ranks > 4096) {
    out.reason = std::to_string(coll->ranks) + " GPUs: give the network (the complete one is built up to 4096)";
    return out;
  }
  if (coll->chunk_count() * coll->ranks > (std::uint64_t{1} << 26)) {
    out.reason = coll->describe() + ": more than 2^26 (chunk, rank) values to track";
    return out;
  }
  try {
    importer imp(program, *coll, options);
    out.imported = imp.translate(options);
  } catch (const std::runtime_error& e) {
    out.reason = e.what();
  }
  return out;
}

}  // namespace dancecard::collective
