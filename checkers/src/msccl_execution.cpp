// The MSCCL-IR checker, second part: the run (each thread block executes its steps in order; a dependency waits for
// its signalling step, a receive for its matched send, a send while its connection holds `slots` unreceived
// messages), the deadlock's cycle when the run stops early, and the replay of the run's order with vector clocks
// (Fidge 1988, Mattern 1989) for happens-before, the races of each chunk (its last write and the reads since, as a
// vector-clock race detector such as FastTrack keeps them: Flanagan and Freund, PLDI 2009), and the chunks' values
// as contribution sets for the postcondition (msccl-tools' collective definitions, msccl/language/collectives.py).
#include <algorithm>
#include <set>

#include "msccl_model.hpp"

namespace dancecard::collective::detail_msccl {

std::vector<op_index> model::run(std::uint32_t slots, const reporter& report) const {
  const std::size_t B = blocks.size();
  std::vector<std::uint32_t> pc(B, 0), outstanding(connections.size(), 0);
  std::vector<char> done(ops.size(), 0), queued(B, 1);
  std::vector<std::vector<std::uint32_t>> waiting_on_op(ops.size());  // blocks waiting for a step (by step)
  std::vector<std::vector<std::uint32_t>> waiting_on_connection(connections.size());
  std::vector<std::uint32_t> ready(B);
  for (std::uint32_t b = 0; b < B; ++b) ready[b] = static_cast<std::uint32_t>(B - 1 - b);
  std::vector<op_index> order;
  order.reserve(ops.size());
  auto wake = [&](std::vector<std::uint32_t>& who) {
    for (std::uint32_t w : who)
      if (!queued[w]) {
        queued[w] = 1;
        ready.push_back(w);
      }
    who.clear();
  };
  while (!ready.empty()) {
    const std::uint32_t b = ready.back();
    ready.pop_back();
    queued[b] = 0;
    const block& blk = blocks[b];
    while (pc[b] < blk.size) {
      const op_index o = blk.first + pc[b];
      const op& x = ops[o];
      const msccl_instruction t = x.step->type;
      if (pc[b] < blk.live) {
        if (x.signal != no_op && !done[x.signal]) {
          waiting_on_op[x.signal].push_back(b);
          break;
        }
        if (receives(t) && !done[x.matched_send]) {
          waiting_on_op[x.matched_send].push_back(b);
          break;
        }
        if (sends(t) && outstanding[x.out] >= slots) {
          waiting_on_connection[x.out].push_back(b);
          break;
        }
        if (receives(t)) {
          --outstanding[x.in];
          wake(waiting_on_connection[x.in]);
        }
        if (sends(t)) ++outstanding[x.out];
      }
      done[o] = 1;
      order.push_back(o);
      ++pc[b];
      if (!waiting_on_op[o].empty()) wake(waiting_on_op[o]);
    }
  }
  if (order.size() == ops.size()) return order;

  // Stopped with steps left: every stopped block waits for one other block; following the waits from a stopped block
  // must come back to a block already seen (each waits for a step that is not done), and that loop is the cycle.
  auto waits_for = [&](std::uint32_t b, std::string& why) -> std::uint32_t {
    const op& x = ops[blocks[b].first + pc[b]];
    if (x.signal != no_op && !done[x.signal]) {
      why = "waits for its dependency";
      return ops[x.signal].block;
    }
    if (receives(x.step->type) && !done[x.matched_send]) {
      why = "waits to receive";
      return ops[x.matched_send].block;
    }
    why = "waits for room on its connection";
    return connections[x.out].receiver;
  };
  std::uint32_t start = 0;
  while (pc[start] == blocks[start].size) ++start;
  std::map<std::uint32_t, std::size_t> seen;
  std::vector<std::uint32_t> path;
  std::vector<std::string> reasons;
  for (std::uint32_t b = start; !seen.count(b) && pc[b] < blocks[b].size;) {
    seen[b] = path.size();
    path.push_back(b);
    std::string why;
    const std::uint32_t next = waits_for(b, why);
    reasons.push_back(why);
    b = next;
    if (seen.count(b)) {
      path.erase(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(seen[b]));
      reasons.erase(reasons.begin(), reasons.begin() + static_cast<std::ptrdiff_t>(seen[b]));
      break;
    }
  }
  std::vector<msccl_step_ref> cycle;
  std::string detail = "thread blocks wait for each other in a cycle (";
  for (std::size_t i = 0; i < path.size(); ++i) {
    cycle.push_back(ref(blocks[path[i]].first + pc[path[i]]));
    detail += (i ? "; " : "") + std::string("gpu ") + std::to_string(cycle.back().gpu) + " tb " +
              std::to_string(cycle.back().tb) + " " + reasons[i];
  }
  std::uint64_t left = ops.size() - order.size();
  report(msccl_violation_kind::deadlock, std::move(cycle),
         detail + "); " + std::to_string(left) + " steps never run, with " + std::to_string(slots) +
             " message(s) buffered per connection");
  return order;
}

namespace {

// a ⊕ b: the union of two contribution sets; nullptr (never written) stays garbage. `twice` is set when they share a
// contribution.
value combine(const value& a, const value& b, bool& twice) {
  if (!a || !b) return nullptr;
  auto out = std::make_shared<std::vector<std::uint32_t>>();
  out->reserve(a->size() + b->size());
  std::set_union(a->begin(), a->end(), b->begin(), b->end(), std::back_inserter(*out));
  if (out->size() < a->size() + b->size()) twice = true;
  return out;
}

struct access_state {
  op_index write = no_op;
  std::vector<op_index> reads;  // since the write, the latest per thread block
};

}  // namespace

replay_result model::replay(const std::vector<op_index>& order, bool clocks, const reporter& report,
                            bool keep_sent) const {
  replay_result out;
  const std::size_t B = blocks.size(), G = program.gpus.size();
  std::vector<std::vector<std::uint32_t>> clock(clocks ? B : 0, std::vector<std::uint32_t>(clocks ? B : 0, 0));
  std::vector<char> is_signal(ops.size(), 0);
  for (const op& x : ops)
    if (x.signal != no_op) is_signal[x.signal] = 1;
  // By step: the clock a send carries (until its receive takes it), the clock a signalling step leaves, the values a
  // send carries.
  std::vector<std::vector<std::uint32_t>> sent_clock(clocks ? ops.size() : 0), signal_clock(clocks ? ops.size() : 0);
  std::vector<std::vector<value>> in_flight(ops.size());
  std::vector<std::vector<std::uint32_t>> spare;  // clock buffers of received sends, reused (no allocation per send)
  std::vector<std::uint32_t> depth(ops.size(), 0);
  std::vector<std::uint64_t> received(G, 0);
  out.slots.resize(G);
  std::vector<std::vector<access_state>> access(G);
  for (std::size_t g = 0; g < G; ++g) {
    out.slots[g].assign(slot_count(g), nullptr);
    if (clocks) access[g].resize(slot_count(g));
    for (std::int64_t i = 0; i < program.gpus[g].i_chunks; ++i)
      out.slots[g][canonical(g, msccl_buffer::input, i)] =
          std::make_shared<std::vector<std::uint32_t>>(1, contribution(g, i));
  }
  std::set<std::pair<op_index, op_index>> raced;
  auto slot_name = [&](std::size_t g, std::uint64_t s) {
    const msccl_gpu& gpu = program.gpus[g];
    const auto i = static_cast<std::int64_t>(s);
    if (i < gpu.i_chunks) return "input[" + std::to_string(i) + "]";
    if (i < gpu.i_chunks + gpu.o_chunks) return "output[" + std::to_string(i - gpu.i_chunks) + "]";
    return "scratch[" + std::to_string(i - gpu.i_chunks - gpu.o_chunks) + "]";
  };

  for (const op_index o : order) {
    const op& x = ops[o];
    const std::uint32_t b = x.block;
    const block& blk = blocks[b];
    if (x.pos >= blk.live) continue;  // a trailing nop: the runtime drops it
    const msccl_step& s = *x.step;
    std::uint32_t d = x.pos > 0 ? depth[o - 1] : 0;
    if (x.signal != no_op) d = std::max(d, depth[x.signal]);
    if (receives(s.type)) d = std::max(d, depth[x.matched_send]);
    depth[o] = d + 1;
    out.critical_path = std::max<std::uint64_t>(out.critical_path, depth[o]);
    if (clocks) {
      auto& c = clock[b];
      auto merge = [&c](const std::vector<std::uint32_t>& other) {
        for (std::size_t i = 0; i < c.size(); ++i) c[i] = std::max(c[i], other[i]);
      };
      if (x.signal != no_op) merge(signal_clock[x.signal]);
      if (receives(s.type)) {
        merge(sent_clock[x.matched_send]);
        spare.push_back(std::move(sent_clock[x.matched_send]));  // its buffer serves a later send
      }
      c[b] = x.pos + 1;
      if (sends(s.type)) {
        if (!spare.empty()) {
          sent_clock[o] = std::move(spare.back());
          spare.pop_back();
        }
        sent_clock[o].assign(c.begin(), c.end());
      }
      if (is_signal[o]) signal_clock[o] = c;
    }
    if (s.type == msccl_instruction::nop) continue;

    const std::size_t g = blk.gpu;
    auto ordered_before = [&](op_index a) { return ops[a].block == b || clock[b][ops[a].block] >= ops[a].pos + 1; };
    auto touch = [&](std::uint64_t slot, bool write) {
      if (!clocks) return;
      access_state& st = access[g][slot];
      auto race = [&](op_index a) {
        if (!raced.insert({a, o}).second) return;
        const bool a_writes = st.write == a;
        report(msccl_violation_kind::race, {ref(a), ref(o)},
               "gpu " + std::to_string(program.gpus[g].id) + " " + slot_name(g, slot) + ": " +
                   (a_writes ? "written" : "read") + " by the first step and " + (write ? "written" : "read") +
                   " by the second, in no guaranteed order");
      };
      if (st.write != no_op && st.write != o && !ordered_before(st.write)) race(st.write);
      if (write) {
        for (op_index r : st.reads)
          if (r != o && !ordered_before(r)) race(r);
        st.write = o;
        st.reads.clear();
      } else {
        auto same = std::find_if(st.reads.begin(), st.reads.end(), [&](op_index r) { return ops[r].block == b; });
        if (same != st.reads.end()) {
          *same = o;
        } else {
          st.reads.push_back(o);
        }
      }
    };
    std::vector<value> outgoing;
    const std::vector<value>* incoming = nullptr;
    if (receives(s.type)) {
      incoming = &in_flight[x.matched_send];
      received[g] += s.cnt;
    }
    bool twice = false;
    for (std::uint32_t i = 0; i < s.cnt; ++i) {
      value src, dst_old, result;
      std::uint64_t src_slot = 0, dst_slot = 0;
      if (reads_source(s.type)) {
        src_slot = canonical(g, s.srcbuf, s.srcoff + i);
        touch(src_slot, false);
        src = out.slots[g][src_slot];
      }
      if (writes_destination(s.type)) dst_slot = canonical(g, s.dstbuf, s.dstoff + i);
      switch (s.type) {
        case msccl_instruction::send:
          outgoing.push_back(src);
          break;
        case msccl_instruction::recv:
        case msccl_instruction::recv_copy_send:
          result = (*incoming)[i];
          break;
        case msccl_instruction::recv_reduce_send:
        case msccl_instruction::recv_reduce_copy:
        case msccl_instruction::recv_reduce_copy_send:
          result = combine((*incoming)[i], src, twice);
          break;
        case msccl_instruction::copy:
          result = src;
          break;
        case msccl_instruction::reduce:
          touch(dst_slot, false);
          result = combine(out.slots[g][dst_slot], src, twice);
          break;
        case msccl_instruction::nop:
          break;
      }
      if (writes_destination(s.type)) {
        touch(dst_slot, true);
        out.slots[g][dst_slot] = result;
      }
      if (sends(s.type) && s.type != msccl_instruction::send) outgoing.push_back(result);
    }
    if (twice)
      report(msccl_violation_kind::double_counted, {ref(o)},
             "the reduction adds a contribution that the value already holds");
    if (receives(s.type) && !keep_sent) std::vector<value>().swap(in_flight[x.matched_send]);
    if (sends(s.type)) in_flight[o] = std::move(outgoing);
  }
  for (std::uint64_t r : received) out.most_received = std::max(out.most_received, r);
  if (keep_sent) out.sent = std::move(in_flight);
  return out;
}

bool model::check_postcondition(const replay_result& replay, const reporter& report) const {
  const std::string& coll = program.coll;
  const bool reduce_scatter = coll == "reducescatter" || coll == "reduce_scatter";
  if (coll != "allgather" && coll != "alltoall" && coll != "allreduce" && !reduce_scatter) return false;
  const auto n = static_cast<std::int64_t>(program.ngpus);
  std::vector<std::size_t> index_of(static_cast<std::size_t>(n));
  for (std::size_t g = 0; g < program.gpus.size(); ++g) index_of[static_cast<std::size_t>(program.gpus[g].id)] = g;
  for (std::size_t g = 0; g < program.gpus.size(); ++g) {
    const msccl_gpu& gpu = program.gpus[g];
    const std::int64_t r = gpu.id;
    // The chunk factor C and, for output chunk k, the contributions it must hold (msccl-tools' definitions).
    std::int64_t C = 0, outputs = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> sources;  // (gpu id, input chunk)
    auto need = [&](std::int64_t k) {
      sources.clear();
      if (coll == "allgather") {
        sources.push_back({k / C, k % C});
      } else if (coll == "alltoall") {
        sources.push_back({k / C, r * C + k % C});
      } else {
        const std::int64_t chunk = coll == "allreduce" ? k : r * C + k;
        for (std::int64_t j = 0; j < n; ++j) sources.push_back({j, chunk});
      }
    };
    if (coll == "allgather") {
      C = gpu.i_chunks;
      outputs = n * C;
    } else if (coll == "alltoall") {
      C = gpu.i_chunks / n;
      outputs = n * C;
    } else if (coll == "allreduce") {
      C = outputs = gpu.i_chunks;
    } else {
      C = outputs = program.inplace ? gpu.i_chunks / n : gpu.o_chunks;
    }
    if (C < 1 || (!program.inplace || coll == "allgather" ? gpu.o_chunks : gpu.i_chunks) < outputs ||
        (coll != "allgather" && coll != "allreduce" && gpu.i_chunks < n * C)) {
      report(msccl_violation_kind::wrong_value, {},
             "gpu " + std::to_string(r) + ": buffers of " + std::to_string(gpu.i_chunks) + " input and " +
                 std::to_string(gpu.o_chunks) + " output chunks cannot hold " + coll + " on " + std::to_string(n) +
                 " GPUs");
      continue;
    }
    for (std::int64_t k = 0; k < outputs; ++k) {
      need(k);
      std::vector<std::uint32_t> expected;
      for (auto [j, c] : sources) {
        if (c >= program.gpus[index_of[static_cast<std::size_t>(j)]].i_chunks) continue;
        expected.push_back(contribution(index_of[static_cast<std::size_t>(j)], c));
      }
      std::sort(expected.begin(), expected.end());
      const value& got = replay.slots[g][canonical(g, msccl_buffer::output, k)];
      if (!got || *got != expected)
        report(msccl_violation_kind::wrong_value, {},
               "gpu " + std::to_string(r) + " output[" + std::to_string(k) + "] holds " + describe_value(got) + "; " +
                   coll + " needs " +
                   describe_value(std::make_shared<std::vector<std::uint32_t>>(std::move(expected))));
    }
  }
  return true;
}

}  // namespace dancecard::collective::detail_msccl
