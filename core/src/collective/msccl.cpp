// MSCCL-IR programs as values, and the translation of a collective schedule into one (see the header). The runtime's
// meaning of each step type and of depid/deps/hasdep is read from Azure/msccl-executor-nccl (msccl_parser.cc,
// msccl_kernel.cu).
#include "dancecard/core/collective/msccl.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace dancecard::collective {

namespace {

constexpr std::array<std::string_view, 9> instruction_names = {"s",    "r",   "rcs", "rrs", "rrc",
                                                               "rrcs", "cpy", "re",  "nop"};

}  // namespace

std::string_view to_string(msccl_instruction op) { return instruction_names[static_cast<std::size_t>(op)]; }

std::optional<msccl_instruction> parse_msccl_instruction(std::string_view text) {
  for (std::size_t k = 0; k < instruction_names.size(); ++k)
    if (text == instruction_names[k]) return static_cast<msccl_instruction>(k);
  return std::nullopt;
}

bool sends(msccl_instruction op) {
  return op == msccl_instruction::send || op == msccl_instruction::recv_copy_send ||
         op == msccl_instruction::recv_reduce_send || op == msccl_instruction::recv_reduce_copy_send;
}

bool receives(msccl_instruction op) {
  return op == msccl_instruction::recv || op == msccl_instruction::recv_copy_send ||
         op == msccl_instruction::recv_reduce_send || op == msccl_instruction::recv_reduce_copy ||
         op == msccl_instruction::recv_reduce_copy_send;
}

bool reads_source(msccl_instruction op) {
  return op == msccl_instruction::send || op == msccl_instruction::recv_reduce_send ||
         op == msccl_instruction::recv_reduce_copy || op == msccl_instruction::recv_reduce_copy_send ||
         op == msccl_instruction::copy || op == msccl_instruction::reduce;
}

bool writes_destination(msccl_instruction op) {
  return op == msccl_instruction::recv || op == msccl_instruction::recv_copy_send ||
         op == msccl_instruction::recv_reduce_copy || op == msccl_instruction::recv_reduce_copy_send ||
         op == msccl_instruction::copy || op == msccl_instruction::reduce;
}

char to_char(msccl_buffer b) { return b == msccl_buffer::input ? 'i' : b == msccl_buffer::output ? 'o' : 's'; }

std::uint64_t msccl_program::step_count() const {
  std::uint64_t total = 0;
  for (const msccl_gpu& g : gpus)
    for (const msccl_threadblock& tb : g.threadblocks) total += tb.steps.size();
  return total;
}

std::uint64_t msccl_memory_index(const msccl_program& program, const msccl_gpu& gpu, msccl_buffer buffer,
                                 std::int64_t index) {
  if (program.inplace) {
    const bool reduce_scatter = program.coll == "reducescatter" || program.coll == "reduce_scatter";
    if (program.coll == "allgather" && buffer == msccl_buffer::input) {
      buffer = msccl_buffer::output;
      index += gpu.id * gpu.i_chunks;
    } else if ((program.coll == "allreduce" || program.coll == "alltoall") && buffer == msccl_buffer::output) {
      buffer = msccl_buffer::input;
    } else if (reduce_scatter && buffer == msccl_buffer::output) {
      buffer = msccl_buffer::input;
      index += gpu.id * gpu.o_chunks;
    }
  }
  const std::int64_t base = buffer == msccl_buffer::input    ? 0
                            : buffer == msccl_buffer::output ? gpu.i_chunks
                                                             : gpu.i_chunks + gpu.o_chunks;
  return static_cast<std::uint64_t>(base + index);
}

std::optional<collective> msccl_collective(const msccl_program& p) {
  if (p.ngpus < 1 || p.gpus.empty()) return std::nullopt;
  const auto n = static_cast<std::int64_t>(p.ngpus);
  const std::int64_t in = p.gpus[0].i_chunks, out = p.gpus[0].o_chunks;
  auto make = [&](collective_kind kind, std::int64_t chunks) -> std::optional<collective> {
    if (chunks < 1 || chunks > (std::int64_t{1} << 20)) return std::nullopt;
    return collective{kind, static_cast<rank>(n), static_cast<std::uint32_t>(chunks), 0};
  };
  if (p.coll == "allgather") return make(collective_kind::allgather, in);
  if (p.coll == "alltoall" && in % n == 0) return make(collective_kind::alltoall, in / n);
  if (p.coll == "allreduce" && in % n == 0) return make(collective_kind::allreduce, in / n);
  if ((p.coll == "reducescatter" || p.coll == "reduce_scatter") && p.inplace && in % n == 0)
    return make(collective_kind::reduce_scatter, in / n);
  if (p.coll == "reducescatter" || p.coll == "reduce_scatter") return make(collective_kind::reduce_scatter, out);
  return std::nullopt;
}

namespace {

struct slot {
  msccl_buffer buffer = msccl_buffer::input;
  std::int64_t offset = -1;
  friend bool operator==(const slot&, const slot&) = default;
};

struct op_ref {
  std::size_t tb = 0;  // index into the rank's thread blocks
  std::size_t position = 0;
};

// The translation's bookkeeping for one rank: where each chunk's value is, who wrote it, who has read it since, and
// the thread blocks with their steps.
struct rank_program {
  std::vector<msccl_threadblock> threadblocks;
  // (peer, channel, sending) -> block; the local block is peer -1
  std::map<std::tuple<std::int32_t, std::uint32_t, bool>, std::size_t> block_of_peer;
  std::int64_t scratch = 0;
  struct chunk_state {
    slot current;                           // where the value is now (offset -1: this rank holds no value)
    slot primary, secondary;                // the two slots a received value alternates between
    std::optional<op_ref> writer;           // the step that wrote `current` (none: the initial value)
    std::vector<op_ref> readers;            // steps that read `current` since
    std::vector<op_ref> old_readers;        // steps that read the value `current` superseded
    std::uint64_t written_in = UINT64_MAX;  // the schedule step of the last write
    slot before;                            // where the value was when that step began
    std::optional<op_ref> before_writer;
  };
  std::unordered_map<std::uint64_t, chunk_state> chunks;

  std::size_t block(std::int32_t peer, std::uint32_t channel, bool sending) {
    if (auto it = block_of_peer.find({peer, channel, sending}); it != block_of_peer.end()) return it->second;
    msccl_threadblock tb;
    tb.id = static_cast<std::int32_t>(threadblocks.size());
    (sending ? tb.send : tb.recv) = peer;
    tb.chan = static_cast<std::int32_t>(channel);
    threadblocks.push_back(tb);
    return block_of_peer[{peer, channel, sending}] = threadblocks.size() - 1;
  }
  slot new_scratch() { return {msccl_buffer::scratch, scratch++}; }

  // Appends `s` to thread block `tb` after waiting, through nops, for every step in `after` of another block (the
  // latest one per block suffices: a block runs its steps in order).
  op_ref append(std::size_t tb, msccl_step s, const std::vector<op_ref>& after) {
    std::map<std::size_t, std::size_t> latest;
    for (const op_ref& a : after)
      if (a.tb != tb) latest[a.tb] = std::max(latest[a.tb], a.position);
    std::vector<op_ref> waits;
    for (auto [b, p] : latest) waits.push_back({b, p});
    auto& steps = threadblocks[tb].steps;
    for (std::size_t w = 0; w < waits.size(); ++w) {
      threadblocks[waits[w].tb].steps[waits[w].position].hasdep = true;
      msccl_step* target = &s;
      msccl_step nop;
      if (w + 1 < waits.size()) {  // all but the last wait go to nops before the step (the runtime's form)
        nop.type = msccl_instruction::nop;
        nop.srcoff = nop.dstoff = -1;
        nop.cnt = 0;
        target = &nop;
      }
      target->depid = threadblocks[waits[w].tb].id;
      target->deps = static_cast<std::int32_t>(waits[w].position);
      if (target == &nop) {
        nop.s = static_cast<std::uint32_t>(steps.size());
        steps.push_back(nop);
      }
    }
    s.s = static_cast<std::uint32_t>(steps.size());
    steps.push_back(s);
    return {tb, steps.size() - 1};
  }
};

}  // namespace

msccl_program to_msccl(const schedule& sched, const msccl_export_options& options) {
  const collective& c = sched.coll;
  require_valid(c);
  if (options.channels < 1 || options.channels > 64)
    throw std::invalid_argument("to_msccl: channels must be 1 … 64, not " + std::to_string(options.channels));
  const std::uint32_t channels = options.channels;
  if (c.kind != collective_kind::allgather && c.kind != collective_kind::alltoall &&
      c.kind != collective_kind::reduce_scatter && c.kind != collective_kind::allreduce)
    throw std::invalid_argument(
        "to_msccl: MSCCL-IR has no root; it carries allgather, alltoall, reduce-scatter and "
        "allreduce, not " +
        std::string(to_string(c.kind)));
  const rank n = c.ranks;
  const std::int64_t C = c.chunks;
  std::vector<rank_program> ranks(n);
  const std::uint64_t K = c.chunk_count();
  // The initial values and the slots each chunk's value lives in.
  auto state = [&](rank r, std::uint64_t k) -> rank_program::chunk_state& {
    auto [it, fresh] = ranks[r].chunks.try_emplace(k);
    auto& st = it->second;
    if (!fresh) return st;
    const auto kk = static_cast<std::int64_t>(k);
    switch (c.kind) {
      case collective_kind::allgather:
        st.primary = {msccl_buffer::output, kk};
        if (c.source(k) == r) st.current = {msccl_buffer::input, kk - r * C};
        break;
      case collective_kind::alltoall: {
        const std::int64_t s = kk / C / n, d = kk / C % n, i = kk % C;
        st.primary = d == r ? slot{msccl_buffer::output, s * C + i} : ranks[r].new_scratch();
        if (s == r) st.current = {msccl_buffer::input, d * C + i};
        break;
      }
      case collective_kind::reduce_scatter:
        st.primary = kk / C == r ? slot{msccl_buffer::output, kk - r * C} : ranks[r].new_scratch();
        st.current = {msccl_buffer::input, kk};
        break;
      default:  // allreduce
        st.primary = {msccl_buffer::output, kk};
        st.current = {msccl_buffer::input, kk};
        break;
    }
    return st;
  };
  // Each transfer becomes a send, in the sender's thread block for that peer and channel, and its receive, in the
  // receiver's; a thread block only sends or only receives, so no send waits for an unrelated receive and the
  // program's depth in transfers is the schedule's steps. A step's sends read the values held when it began
  // (`before`), and a received value goes to the slot that does not hold them — the other slot of the chunk, or for a
  // second write of the same step the first one's — so no step waits for a later one and the program is free of
  // deadlock for any number of buffered messages.
  std::vector<op_ref> after;
  auto send_part = [&](std::uint64_t t, const transfer& tr) {
    auto& from_state = state(tr.from, tr.chunk);
    rank_program& from = ranks[tr.from];
    const bool moved = from_state.written_in == t;  // already written in this step: read what it held before
    msccl_step send;
    send.type = msccl_instruction::send;
    const slot source = moved ? from_state.before : from_state.current;
    send.srcbuf = source.buffer;
    send.srcoff = source.offset;
    send.dstbuf = msccl_buffer::output;
    after.clear();
    if (const auto& w = moved ? from_state.before_writer : from_state.writer) after.push_back(*w);
    const auto channel = static_cast<std::uint32_t>(tr.chunk % channels);
    const op_ref sent = from.append(from.block(static_cast<std::int32_t>(tr.to), channel, true), send, after);
    (moved ? from_state.old_readers : from_state.readers).push_back(sent);
  };
  auto receive_part = [&](std::uint64_t t, const transfer& tr) {
    const auto channel = static_cast<std::uint32_t>(tr.chunk % channels);
    rank_program& to = ranks[tr.to];
    auto& st = state(tr.to, tr.chunk);
    const bool reduce = tr.op == transfer_op::reduce && st.current.offset >= 0;
    const bool chained = st.written_in == t;
    slot target = st.current;
    if (!chained) {
      if (st.current == st.primary) {
        if (st.secondary.offset < 0) st.secondary = to.new_scratch();
        target = st.secondary;
      } else {
        target = st.primary;
      }
    }
    msccl_step recv;
    recv.type = reduce ? msccl_instruction::recv_reduce_copy : msccl_instruction::recv;
    recv.srcbuf = reduce ? st.current.buffer : msccl_buffer::input;
    recv.srcoff = reduce ? st.current.offset : -1;
    recv.dstbuf = target.buffer;
    recv.dstoff = target.offset;
    after.clear();
    if (st.writer) after.push_back(*st.writer);
    const auto& overwritten = chained ? st.readers : st.old_readers;  // reads of the value the target held
    after.insert(after.end(), overwritten.begin(), overwritten.end());
    const op_ref received = to.append(to.block(static_cast<std::int32_t>(tr.from), channel, false), recv, after);
    if (!chained) {
      st.before = st.current;
      st.before_writer = st.writer;
      st.old_readers = std::move(st.readers);
      st.readers.clear();
      if (reduce) st.old_readers.push_back(received);
    }
    st.current = target;
    st.writer = received;
    st.written_in = t;
  };
  for (std::uint64_t t = 0; t < sched.steps.size(); ++t)
    for (const transfer& tr : sched.steps[t].transfers) {
      send_part(t, tr);
      receive_part(t, tr);
    }
  // Values that end outside their output slot are copied there by a local block.
  for (rank r = 0; r < n; ++r)
    for (std::uint64_t k = 0; k < K; ++k) {
      if (!c.wanted(k, r)) continue;
      auto& st = state(r, k);
      if (st.current.offset < 0 || st.current == st.primary) continue;
      rank_program& rp = ranks[r];
      rank_program::chunk_state& s0 = st;
      const std::size_t local = rp.block(-1, 0, false);
      msccl_step s;
      s.type = msccl_instruction::copy;
      s.srcbuf = s0.current.buffer;
      s.srcoff = s0.current.offset;
      s.dstbuf = s0.primary.buffer;
      s.dstoff = s0.primary.offset;
      std::vector<op_ref> after = s0.old_readers;
      after.insert(after.end(), s0.readers.begin(), s0.readers.end());
      if (s0.writer) after.push_back(*s0.writer);
      s0.writer = rp.append(local, s, after);
      s0.current = s0.primary;
    }
  msccl_program out;
  out.name = sched.algorithm.empty() ? "dancecard" : sched.algorithm;
  switch (c.kind) {
    case collective_kind::allgather:
      out.coll = "allgather";
      break;
    case collective_kind::alltoall:
      out.coll = "alltoall";
      break;
    case collective_kind::reduce_scatter:
      out.coll = "reducescatter";
      break;
    default:
      out.coll = "allreduce";
  }
  out.ngpus = static_cast<std::int32_t>(n);
  out.nchannels = static_cast<std::int32_t>(channels);
  const std::int64_t in_chunks = c.kind == collective_kind::allgather ? C : static_cast<std::int64_t>(n) * C;
  const std::int64_t out_chunks = c.kind == collective_kind::reduce_scatter ? C : static_cast<std::int64_t>(n) * C;
  out.nchunksperloop = std::max(in_chunks, out_chunks);
  for (rank r = 0; r < n; ++r) {
    msccl_gpu g;
    g.id = static_cast<std::int32_t>(r);
    g.i_chunks = in_chunks;
    g.o_chunks = out_chunks;
    g.s_chunks = ranks[r].scratch;
    g.threadblocks = std::move(ranks[r].threadblocks);
    out.gpus.push_back(std::move(g));
  }
  return out;
}

}  // namespace dancecard::collective
