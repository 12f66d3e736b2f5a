// The MSCCL-IR checker, first part: what the runtime's parser (msccl_parser.cc) and its connection set-up require of
// a program, the matching of sending and receiving steps per connection (the k-th send on (GPU, peer, channel) is
// received by the k-th receive there, as the runtime's FIFO connections deliver), and the steps each dependency
// waits for (a thread block's flag advances only at steps with hasdep = 1; nops never signal).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "msccl_model.hpp"

namespace dancecard::collective::detail_msccl {

model::model(const msccl_program& p) : program(p) {
  for (std::size_t g = 0; g < p.gpus.size(); ++g) {
    gpu_of_id_.try_emplace(p.gpus[g].id, g);
    input_stride_ = std::max(input_stride_, p.gpus[g].i_chunks);
    for (const msccl_threadblock& tb : p.gpus[g].threadblocks) {
      block b{g, &tb, static_cast<op_index>(ops.size()), static_cast<std::uint32_t>(tb.steps.size()), 0};
      for (std::uint32_t s = 0; s < tb.steps.size(); ++s) {
        ops.push_back({static_cast<std::uint32_t>(blocks.size()), s, &tb.steps[s]});
        if (tb.steps[s].type != msccl_instruction::nop) b.live = s + 1;
      }
      blocks.push_back(b);
    }
  }
}

msccl_step_ref model::ref(op_index o) const {
  const block& b = blocks[ops[o].block];
  return {program.gpus[b.gpu].id, b.tb->id, ops[o].pos};
}

namespace {

std::int64_t buffer_size(const msccl_gpu& g, msccl_buffer b) {
  return b == msccl_buffer::input ? g.i_chunks : b == msccl_buffer::output ? g.o_chunks : g.s_chunks;
}

std::string buffer_name(msccl_buffer b) {
  return b == msccl_buffer::input ? "input" : b == msccl_buffer::output ? "output" : "scratch";
}

bool is_reduce_scatter(const std::string& coll) { return coll == "reducescatter" || coll == "reduce_scatter"; }

}  // namespace

void model::check_structure(const reporter& report) {
  const msccl_program& p = program;
  auto bad = [&](std::vector<msccl_step_ref> at, std::string what) {
    report(msccl_violation_kind::malformed, std::move(at), std::move(what));
  };
  if (p.gpus.size() != static_cast<std::size_t>(p.ngpus))
    bad({}, "ngpus is " + std::to_string(p.ngpus) + " but the algorithm has " + std::to_string(p.gpus.size()) +
                " gpu elements");
  std::set<std::int32_t> ids;
  for (const msccl_gpu& g : p.gpus) {
    if (g.id < 0 || g.id >= p.ngpus) bad({}, "gpu id " + std::to_string(g.id) + " is not below ngpus");
    if (!ids.insert(g.id).second) bad({}, "gpu id " + std::to_string(g.id) + " is given twice");
  }
  for (std::size_t gi = 0; gi < p.gpus.size(); ++gi) {
    const msccl_gpu& g = p.gpus[gi];
    const std::string on = "gpu " + std::to_string(g.id);
    if (p.inplace) {  // the aliased ranges must exist (msccl-tools' in-place buffers)
      const bool fits = p.coll == "allgather"       ? g.o_chunks >= (g.id + std::int64_t{1}) * g.i_chunks
                        : is_reduce_scatter(p.coll) ? g.i_chunks >= (g.id + std::int64_t{1}) * g.o_chunks
                        : p.coll == "allreduce" || p.coll == "alltoall" ? g.o_chunks <= g.i_chunks
                                                                        : true;
      if (!fits)
        bad({}, on + ": its in-place buffers do not fit (i_chunks " + std::to_string(g.i_chunks) + ", o_chunks " +
                    std::to_string(g.o_chunks) + ")");
    }
    std::set<std::int32_t> tb_ids;
    std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> send_on, recv_on;  // (peer, chan) -> tb id
    std::map<std::int32_t, std::size_t> size_of;
    for (const msccl_threadblock& tb : g.threadblocks) {
      if (!tb_ids.insert(tb.id).second) bad({}, on + ": thread block id " + std::to_string(tb.id) + " is given twice");
      size_of[tb.id] = tb.steps.size();
    }
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(tb_ids.size()); ++k)
      if (!tb_ids.count(k)) {
        bad({}, on + ": thread block " + std::to_string(k) + " is missing (the runtime numbers them 0, 1, …)");
        break;
      }
    for (const msccl_threadblock& tb : g.threadblocks) {
      const std::string at = on + " tb " + std::to_string(tb.id);
      for (auto [peer, what] : {std::pair{tb.send, "send"}, std::pair{tb.recv, "recv"}}) {
        if (peer == g.id) bad({}, at + ": its " + what + " peer is its own GPU");
        if (peer >= p.ngpus) bad({}, at + ": its " + what + " peer " + std::to_string(peer) + " is no GPU");
      }
      if (tb.chan >= p.nchannels)
        bad({}, at + ": channel " + std::to_string(tb.chan) + " is not below nchannels " + std::to_string(p.nchannels));
      if (tb.send >= 0)
        if (auto [it, fresh] = send_on.try_emplace({tb.send, tb.chan}, tb.id); !fresh)
          bad({}, at + ": sends to GPU " + std::to_string(tb.send) + " on channel " + std::to_string(tb.chan) +
                      " as thread block " + std::to_string(it->second) +
                      " does; the runtime gives them one connection");
      if (tb.recv >= 0)
        if (auto [it, fresh] = recv_on.try_emplace({tb.recv, tb.chan}, tb.id); !fresh)
          bad({}, at + ": receives from GPU " + std::to_string(tb.recv) + " on channel " + std::to_string(tb.chan) +
                      " as thread block " + std::to_string(it->second) +
                      " does; the runtime gives them one connection");
      for (std::uint32_t pos = 0; pos < tb.steps.size(); ++pos) {
        const msccl_step& s = tb.steps[pos];
        const std::vector<msccl_step_ref> here{{g.id, tb.id, pos}};
        if (s.s != pos) bad(here, "its s is " + std::to_string(s.s) + "; steps are numbered in order from 0");
        if (sends(s.type) && tb.send < 0)
          bad(here, std::string(to_string(s.type)) + " sends, but the thread block has no send peer");
        if (receives(s.type) && tb.recv < 0)
          bad(here, std::string(to_string(s.type)) + " receives, but the thread block has no recv peer");
        if (s.type != msccl_instruction::nop && s.cnt == 0) bad(here, "cnt is 0");
        auto range = [&](msccl_buffer b, std::int64_t off, const char* side) {
          const std::int64_t size = buffer_size(g, b);
          if (off < 0 || off + s.cnt > size)
            bad(here, std::string(side) + " " + buffer_name(b) + "[" + std::to_string(off) + " … " +
                          std::to_string(off + s.cnt - 1) + "] is outside the buffer's " + std::to_string(size) +
                          " chunks");
        };
        if (reads_source(s.type)) range(s.srcbuf, s.srcoff, "source");
        if (writes_destination(s.type)) range(s.dstbuf, s.dstoff, "destination");
        if (s.depid >= 0) {
          if (s.depid == tb.id) {
            bad(here, "depid names its own thread block");
          } else if (auto it = size_of.find(s.depid); it == size_of.end()) {
            bad(here, "depid " + std::to_string(s.depid) + " names no thread block of this GPU");
          } else if (s.deps < 0 || static_cast<std::size_t>(s.deps) >= it->second) {
            bad(here, "deps " + std::to_string(s.deps) + " names no step of thread block " + std::to_string(s.depid));
          }
        }
      }
    }
  }
}

void model::match(const reporter& report) {
  // (gpu id, peer, chan) -> block, for each direction
  std::map<std::tuple<std::int32_t, std::int32_t, std::int32_t>, std::uint32_t> receiver_of, sender_of;
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    const auto& tb = *blocks[b].tb;
    const std::int32_t id = program.gpus[blocks[b].gpu].id;
    if (tb.recv >= 0) receiver_of[{id, tb.recv, tb.chan}] = b;
    if (tb.send >= 0) sender_of[{id, tb.send, tb.chan}] = b;
  }
  auto steps_of = [&](std::uint32_t b, bool (*pred)(msccl_instruction)) {
    std::vector<op_index> out;
    for (op_index o = blocks[b].first; o < blocks[b].first + blocks[b].size; ++o)
      if (pred(ops[o].step->type)) out.push_back(o);
    return out;
  };
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    const auto& tb = *blocks[b].tb;
    const std::int32_t id = program.gpus[blocks[b].gpu].id;
    if (tb.recv >= 0 && !sender_of.count({tb.recv, id, tb.chan})) {
      const auto received = steps_of(b, receives);
      if (!received.empty())
        report(msccl_violation_kind::unmatched, {ref(received[0])},
               "receives from GPU " + std::to_string(tb.recv) + " on channel " + std::to_string(tb.chan) +
                   ", where no thread block sends to GPU " + std::to_string(id));
    }
    if (tb.send < 0) continue;
    const auto sent = steps_of(b, sends);
    const auto it = receiver_of.find({tb.send, id, tb.chan});
    if (it == receiver_of.end()) {
      if (!sent.empty())
        report(msccl_violation_kind::unmatched, {ref(sent[0])},
               "sends to GPU " + std::to_string(tb.send) + " on channel " + std::to_string(tb.chan) +
                   ", where no thread block receives from GPU " + std::to_string(id));
      continue;
    }
    const auto received = steps_of(it->second, receives);
    const auto c = static_cast<std::uint32_t>(connections.size());
    connections.push_back({b, it->second, id, tb.send, tb.chan});
    const std::size_t pairs = std::min(sent.size(), received.size());
    for (std::size_t k = 0; k < pairs; ++k) {
      op& s = ops[sent[k]];
      op& r = ops[received[k]];
      s.matched_recv = received[k];
      s.out = c;
      r.matched_send = sent[k];
      r.in = c;
      if (s.step->cnt != r.step->cnt)
        report(msccl_violation_kind::count_mismatch, {ref(sent[k]), ref(received[k])},
               "sends " + std::to_string(s.step->cnt) + " chunks, received as " + std::to_string(r.step->cnt));
      connection_chunks[{id, tb.send}] += s.step->cnt;
      ++transfers;
    }
    if (sent.size() != received.size()) {
      const bool more_sent = sent.size() > received.size();
      const op_index first = more_sent ? sent[pairs] : received[pairs];
      report(msccl_violation_kind::unmatched, {ref(first)},
             "GPU " + std::to_string(id) + " sends " + std::to_string(sent.size()) + " times to GPU " +
                 std::to_string(tb.send) + " on channel " + std::to_string(tb.chan) + ", which receives " +
                 std::to_string(received.size()) + " times; this is the first " + (more_sent ? "send" : "receive") +
                 " without a partner");
    }
  }
}

void model::resolve_dependencies(const reporter& report) {
  std::map<std::pair<std::size_t, std::int32_t>, std::uint32_t> block_of;  // (gpu index, tb id) -> block
  for (std::uint32_t b = 0; b < blocks.size(); ++b) block_of[{blocks[b].gpu, blocks[b].tb->id}] = b;
  for (op_index o = 0; o < ops.size(); ++o) {
    op& x = ops[o];
    const block& own = blocks[x.block];
    if (x.pos >= own.live || x.step->depid < 0) continue;  // trailing nops are dropped by the runtime
    const block& other = blocks[block_of.at({own.gpu, x.step->depid})];
    for (std::uint32_t pos = static_cast<std::uint32_t>(x.step->deps); pos < other.size && x.signal == no_op; ++pos) {
      const msccl_step& s = other.tb->steps[pos];
      if (s.hasdep && s.type != msccl_instruction::nop) x.signal = other.first + pos;
    }
    if (x.signal == no_op)
      report(msccl_violation_kind::deadlock, {ref(o)},
             "waits for thread block " + std::to_string(x.step->depid) + " step " + std::to_string(x.step->deps) +
                 ", but that thread block signals no step from there on (hasdep = 1 on a step that is not a nop)");
  }
}

std::uint64_t model::slot_count(std::size_t g) const {
  const msccl_gpu& gpu = program.gpus[g];
  return static_cast<std::uint64_t>(gpu.i_chunks + gpu.o_chunks + gpu.s_chunks);
}

std::uint64_t model::total_slots() const {
  std::uint64_t total = 0;
  for (std::size_t g = 0; g < program.gpus.size(); ++g) total += slot_count(g);
  return total;
}

std::uint64_t model::canonical(std::size_t g, msccl_buffer buffer, std::int64_t index) const {
  return msccl_memory_index(program, program.gpus[g], buffer, index);
}

std::uint32_t model::contribution(std::size_t g, std::int64_t input_index) const {
  return static_cast<std::uint32_t>(static_cast<std::int64_t>(g) * input_stride_ + input_index);
}

std::pair<std::size_t, std::int64_t> model::source(std::uint32_t contribution) const {
  return {static_cast<std::size_t>(contribution / input_stride_),
          static_cast<std::int64_t>(contribution % input_stride_)};
}

std::string model::describe_value(const value& v) const {
  if (!v) return "nothing (never written)";
  std::string s = "{";
  for (std::size_t i = 0; i < v->size() && i < 6; ++i) {
    const std::int64_t c = (*v)[i];
    s += (i ? ", " : "") + std::string("gpu ") + std::to_string(program.gpus[c / input_stride_].id) + " input[" +
         std::to_string(c % input_stride_) + "]";
  }
  if (v->size() > 6) s += ", … " + std::to_string(v->size()) + " contributions";
  return s + "}";
}

std::uint64_t model::receive_bound() const {
  if (program.gpus.empty()) return 0;
  const auto n = static_cast<std::uint64_t>(program.ngpus);
  const auto in = static_cast<std::uint64_t>(program.gpus[0].i_chunks);
  if (program.coll == "allgather") return (n - 1) * in;
  if (program.coll == "alltoall" && in % n == 0) return (n - 1) * (in / n);
  return 0;
}

}  // namespace dancecard::collective::detail_msccl
