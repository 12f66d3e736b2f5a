// MSCCL-IR: the algorithm format that the MSCCL runtime executes (Azure/msccl-executor-nccl, its XML parser
// msccl_parser.cc and its interpreter msccl_kernel.cu) and that msccl-tools/MSCCLang, TACCL and TE-CCL write. A
// program is, per GPU, thread blocks that run their steps in order; a thread block has at most one peer it sends to
// and one it receives from, on one channel; a step moves `cnt` consecutive chunks between the input (i), output (o)
// and scratch (s) buffers, and may wait for a step of another thread block on the same GPU (depid, deps), which
// signals only where it says hasdep = 1.
//
// This is the program as a value; checkers/msccl_check decides what it does, formats/msccl_io reads and writes the
// XML, and to_msccl turns a collective schedule into a program.
//
//   auto program = dancecard::collective::to_msccl(dancecard::collective::ring_allgather(8));
//   program.gpus[0].threadblocks.size()   // one per peer and direction
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dancecard/core/collective/schedule.hpp"

namespace dancecard::collective {

/// The step types of the runtime: s send, r receive, rcs receive-copy-send, rrs receive-reduce-send (nothing stored),
/// rrc receive-reduce-copy, rrcs receive-reduce-copy-send, cpy local copy, re local reduce (dst ⊕= src), nop (only
/// waits for its dependency).
enum class msccl_instruction {
  send,
  recv,
  recv_copy_send,
  recv_reduce_send,
  recv_reduce_copy,
  recv_reduce_copy_send,
  copy,
  reduce,
  nop
};
std::string_view to_string(msccl_instruction op);  // the XML spelling: "s", "r", "rcs", … "nop"
std::optional<msccl_instruction> parse_msccl_instruction(std::string_view text);
bool sends(msccl_instruction op);               // s, rcs, rrs, rrcs
bool receives(msccl_instruction op);            // r, rcs, rrs, rrc, rrcs
bool reads_source(msccl_instruction op);        // s, rrs, rrc, rrcs, cpy, re: the step reads srcbuf[srcoff …]
bool writes_destination(msccl_instruction op);  // r, rcs, rrc, rrcs, cpy, re: the step writes dstbuf[dstoff …]

enum class msccl_buffer { input, output, scratch };
char to_char(msccl_buffer b);  // 'i', 'o', 's'

struct msccl_step {
  std::uint32_t s = 0;  // the step's index in its thread block
  msccl_instruction type = msccl_instruction::nop;
  msccl_buffer srcbuf = msccl_buffer::input;
  std::int64_t srcoff = -1;  // -1: not used by this type
  msccl_buffer dstbuf = msccl_buffer::output;
  std::int64_t dstoff = -1;
  std::uint32_t cnt = 1;    // consecutive chunks
  std::int32_t depid = -1;  // thread block waited for (-1: none)
  std::int32_t deps = -1;   // its step
  bool hasdep = false;      // this step signals its completion to waiting steps
  friend bool operator==(const msccl_step&, const msccl_step&) = default;
};

struct msccl_threadblock {
  std::int32_t id = 0;
  std::int32_t send = -1;  // peer GPU, -1: none
  std::int32_t recv = -1;
  std::int32_t chan = 0;
  std::vector<msccl_step> steps;
  friend bool operator==(const msccl_threadblock&, const msccl_threadblock&) = default;
};

struct msccl_gpu {
  std::int32_t id = 0;
  std::int64_t i_chunks = 0, o_chunks = 0, s_chunks = 0;
  std::vector<msccl_threadblock> threadblocks;
  friend bool operator==(const msccl_gpu&, const msccl_gpu&) = default;
};

struct msccl_program {
  std::string name;
  std::string coll;  // as the runtime spells it: allgather, alltoall, allreduce, reducescatter, …
  std::string proto = "Simple";
  std::int32_t ngpus = 0;
  std::int32_t nchannels = 1;
  std::int64_t nchunksperloop = 0;
  bool inplace = false;
  std::vector<msccl_gpu> gpus;
  friend bool operator==(const msccl_program&, const msccl_program&) = default;

  std::uint64_t step_count() const;  // all steps of all thread blocks
};

/// The collective a program's `coll` names, with the chunk factor its buffers imply (allgather: i_chunks;
/// alltoall: i_chunks / ngpus; allreduce: i_chunks; reducescatter: o_chunks), as dancecard's collective of the same
/// data: allgather and alltoall as they are, allreduce and reducescatter over ngpus·C chunks. nullopt for the
/// collectives whose meaning needs a root the format does not carry (broadcast, reduce, gather, scatter) and for
/// custom ones.
std::optional<collective> msccl_collective(const msccl_program& program);

/// Where chunk `index` of `buffer` lives in GPU `gpu`'s memory, numbered input, then output, then scratch: in place
/// (msccl-tools' definitions) the all-gather's input is output[id·i_chunks …], the all-reduce's and all-to-all's
/// output is their input, and the reduce-scatter's output is input[id·o_chunks …]. The memory has i_chunks +
/// o_chunks + s_chunks chunks.
std::uint64_t msccl_memory_index(const msccl_program& program, const msccl_gpu& gpu, msccl_buffer buffer,
                                 std::int64_t index);

struct msccl_export_options {
  /// Channels (1 … 64): chunk k travels on channel k mod channels, each with its own thread blocks and connections,
  /// as MSCCL spreads an algorithm over channels to use more of each link at once.
  std::uint32_t channels = 1;
};

/// Writes a schedule as an MSCCL-IR program (out of place, protocol Simple). Each rank gets a thread block for each
/// peer, channel and direction it uses (one sends to the peer, one receives from it), steps in the schedule's order,
/// so a transfer waits only for the transfers its value depends on and the program is at most as deep as the schedule
/// has steps (checkers/msccl_import measures it). A value is read from where it was last written, a received value
/// goes to the other of two slots of its chunk so that the same step's sends still read the old value, and
/// cross-block order is made explicit with depid/deps (nops where a step waits for more than one). Every wait is for
/// an earlier transfer, so the program cannot deadlock however few messages a connection buffers. The result passes
/// check_msccl_program whenever the schedule passes
/// check_collective_schedule (held by tests on every generator). require (std::invalid_argument): allgather,
/// alltoall, reduce_scatter or allreduce (the format has no root); 1 <= channels <= 64.
msccl_program to_msccl(const schedule& schedule, const msccl_export_options& options = {});

}  // namespace dancecard::collective
