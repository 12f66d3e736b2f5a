// An MSCCL-IR interpreter on MPI: each MPI rank is the GPU of its id and runs that GPU's thread blocks as the MSCCL
// runtime does (Azure/msccl-executor-nccl, msccl_kernel.cu): every thread block executes its steps in order, a step
// with depid/deps waits until that thread block has completed a step at or after deps that signals (hasdep = 1), a
// receive waits for its message, a send does not wait (MPI buffers it); trailing nops are dropped, as the runtime
// drops them. The thread blocks of a rank take turns in one process: a block runs until a step must wait, then the
// next block runs, so the order among blocks is one the runtime could take. A connection (peer,
// channel, direction) is one MPI tag stream — the channel is the tag — so its k-th send meets its k-th receive.
// Chunks are `words` 64-bit words; the input holds the collective's contributions (collective_word), a reduction adds
// word by word modulo 2^64, and at the end every output chunk is compared with what the collective asks for.
#include <deque>
#include <stdexcept>

#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/mpi/execute.hpp"
#include "run_support.hpp"

namespace dancecard {

namespace {

using collective::msccl_buffer;
using collective::msccl_instruction;
using detail_mpi::chunk_value;

struct block_state {
  std::size_t pc = 0;
  bool posted = false;  // the current step's receive is posted
  MPI_Request receive = MPI_REQUEST_NULL;
  chunk_value incoming;
};

}  // namespace

mpi_run_result mpi_run_msccl(const collective::msccl_program& program, MPI_Comm comm, std::uint64_t chunk_bytes,
                             int corrupt_rank) {
  const std::optional<collective::collective> coll = collective::msccl_collective(program);
  const int n = detail_mpi::size_of(comm), me = detail_mpi::rank_of(comm);
  if (!coll) throw std::invalid_argument("mpi_run_msccl: coll '" + program.coll + "' has no postcondition to verify");
  if (program.ngpus != n) throw std::invalid_argument("mpi_run_msccl: the program's GPUs differ from the ranks");
  if (chunk_bytes == 0 || chunk_bytes % 8 != 0)
    throw std::invalid_argument("mpi_run_msccl: chunk bytes must be a positive multiple of 8");
  const collective::msccl_gpu* gpu = nullptr;
  for (const auto& g : program.gpus)
    if (g.id == me) gpu = &g;
  if (gpu == nullptr) throw std::invalid_argument("mpi_run_msccl: no gpu element for rank " + std::to_string(me));
  const std::uint64_t words = chunk_bytes / 8;
  const bool combines = collective::combining(coll->kind);
  chunk_value memory(static_cast<std::size_t>((gpu->i_chunks + gpu->o_chunks + gpu->s_chunks) * words), 0);
  auto at = [&](msccl_buffer b, std::int64_t index) {
    return memory.data() + collective::msccl_memory_index(program, *gpu, b, index) * words;
  };
  for (std::int64_t i = 0; i < gpu->i_chunks; ++i) {  // the collective's chunk: SCCL's numbering, as the importer's
    const auto chunk = static_cast<std::uint64_t>(combines ? i : me * gpu->i_chunks + i);
    const chunk_value v = detail_mpi::contribution(static_cast<std::uint64_t>(me), chunk, words);
    std::copy(v.begin(), v.end(), at(msccl_buffer::input, i));
  }
  std::vector<block_state> state(gpu->threadblocks.size());
  std::vector<std::size_t> live(state.size(), 0);  // steps up to the last that is not a nop: the runtime drops the rest
  for (std::size_t b = 0; b < state.size(); ++b)
    for (std::size_t k = 0; k < gpu->threadblocks[b].steps.size(); ++k)
      if (gpu->threadblocks[b].steps[k].type != msccl_instruction::nop) live[b] = k + 1;
  std::deque<std::pair<MPI_Request, chunk_value>> sent;  // a send's words stay alive until it completes
  bool corrupted = false;
  auto post_send = [&](const collective::msccl_threadblock& tb, chunk_value words_out) {
    if (me == corrupt_rank && !corrupted) {
      words_out[0] ^= 0x5a;
      corrupted = true;
    }
    sent.emplace_back(MPI_REQUEST_NULL, std::move(words_out));
    MPI_Isend(sent.back().second.data(), static_cast<int>(sent.back().second.size()), MPI_UINT64_T, tb.send, tb.chan,
              comm, &sent.back().first);
  };
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  for (std::size_t left = state.size(); left > 0;) {
    left = 0;
    for (std::size_t b = 0; b < state.size(); ++b) {
      const collective::msccl_threadblock& tb = gpu->threadblocks[b];
      block_state& st = state[b];
      while (st.pc < live[b]) {
        const collective::msccl_step& s = tb.steps[st.pc];
        if (s.depid >= 0) {  // done when that block has completed a step at or after deps that signals (hasdep)
          const auto& waited = gpu->threadblocks[static_cast<std::size_t>(s.depid)].steps;
          std::size_t signal = static_cast<std::size_t>(s.deps);
          while (signal < waited.size() && !waited[signal].hasdep) ++signal;
          if (state[static_cast<std::size_t>(s.depid)].pc <= signal) break;
        }
        const std::size_t count = s.cnt * words;
        if (collective::receives(s.type)) {
          if (!st.posted) {
            st.incoming.assign(count, 0);
            MPI_Irecv(st.incoming.data(), static_cast<int>(count), MPI_UINT64_T, tb.recv, tb.chan, comm, &st.receive);
            st.posted = true;
          }
          int done = 0;
          MPI_Test(&st.receive, &done, MPI_STATUS_IGNORE);
          if (!done) break;
          st.posted = false;
        }
        chunk_value value;  // what the step computes: the received words, or them added to the source's
        if (collective::reads_source(s.type)) {
          value.resize(count);
          for (std::uint32_t c = 0; c < s.cnt; ++c)
            std::copy(at(s.srcbuf, s.srcoff + c), at(s.srcbuf, s.srcoff + c) + words, value.begin() + c * words);
        }
        switch (s.type) {
          case msccl_instruction::recv:
          case msccl_instruction::recv_copy_send:
            value = std::move(st.incoming);
            break;
          case msccl_instruction::recv_reduce_send:
          case msccl_instruction::recv_reduce_copy:
          case msccl_instruction::recv_reduce_copy_send:
            for (std::size_t w = 0; w < count; ++w) value[w] += st.incoming[w];
            break;
          case msccl_instruction::reduce:  // dst ⊕= src
            for (std::uint32_t c = 0; c < s.cnt; ++c)
              for (std::uint64_t w = 0; w < words; ++w) value[c * words + w] += at(s.dstbuf, s.dstoff + c)[w];
            break;
          default:  // send, copy: the source's words; nop: nothing
            break;
        }
        if (collective::writes_destination(s.type))
          for (std::uint32_t c = 0; c < s.cnt; ++c)
            std::copy(value.begin() + c * words, value.begin() + (c + 1) * words, at(s.dstbuf, s.dstoff + c));
        if (collective::sends(s.type)) post_send(tb, std::move(value));
        ++st.pc;
      }
      if (st.pc < live[b]) ++left;
    }
  }
  for (auto& [request, words_out] : sent) MPI_Wait(&request, MPI_STATUS_IGNORE);
  const double total = MPI_Wtime() - start;

  // The output against the collective (msccl-tools' definitions): all-gather and all-reduce output k is chunk k;
  // all-to-all output k = s·C + i is source s's chunk for this rank; reduce-scatter output k is chunk me·C + k.
  mpi_run_result out;
  const std::uint64_t C = coll->chunks, outputs = coll->kind == collective::collective_kind::reduce_scatter
                                                      ? C
                                                      : static_cast<std::uint64_t>(n) * C;
  for (std::uint64_t k = 0; k < outputs && out.problem.empty(); ++k) {
    std::uint64_t chunk = k;
    if (coll->kind == collective::collective_kind::alltoall) chunk = ((k / C) * n + me) * C + k % C;
    if (coll->kind == collective::collective_kind::reduce_scatter) chunk = me * C + k;
    const chunk_value want = detail_mpi::expected(*coll, chunk, words);
    const std::uint64_t* got = at(msccl_buffer::output, static_cast<std::int64_t>(k));
    for (std::uint64_t w = 0; w < words; ++w)
      if (got[w] != want[w]) {
        out.problem = "rank " + std::to_string(me) + " output[" + std::to_string(k) + "]: word " + std::to_string(w) +
                      " differs from " + std::string(collective::to_string(coll->kind)) + "'s chunk " +
                      std::to_string(chunk);
        break;
      }
  }
  out.verified = out.problem.empty();
  std::vector<double> none;
  detail_mpi::finish(out, comm, none, total);
  return out;
}

}  // namespace dancecard
