// Checks an MSCCL-IR program exactly, without running threads, as the MSCCL runtime would execute one loop iteration
// of it (Azure/msccl-executor-nccl: msccl_parser.cc reads it, msccl_kernel.cu interprets it):
//   - structure: GPU and thread-block ids, peers, channels, steps numbered in order, buffer ranges [off, off + cnt)
//     inside i_chunks / o_chunks / s_chunks, a peer for every send and receive, one thread block per connection
//     (GPU, peer, channel, direction), dependencies naming a step of another thread block;
//   - matching: on each connection the k-th sending step is matched with the k-th receiving step, with equal cnt;
//   - deadlock freedom: steps run in thread-block order; a step with depid/deps waits until that thread block has
//     completed a step at or after deps that signals (hasdep = 1), as the runtime's flags do; a receive waits for its
//     matched send; a send waits while `connection_slots` earlier messages on its connection are unreceived. If
//     nothing can run while steps remain, the witness is a cycle of waiting thread blocks. Fewer slots can only
//     block more (each thread block is sequential and deterministic), so deadlock freedom with the default of 1
//     holds for every buffer the runtime has;
//   - race freedom: two accesses to one chunk of one GPU's buffers, at least one a write, ordered by neither thread
//     block order, a dependency nor a send → receive chain (vector clocks over all thread blocks);
//   - the postcondition, with every chunk's value tracked as the set of (GPU, input chunk) contributions it holds:
//     allgather, alltoall, allreduce and reducescatter as msccl-tools defines them (in place: the input aliases the
//     output, or the output the input), with contributions counted twice or missing, and values never written,
//     named. The rooted collectives carry no root in the format: their postcondition is not checked (unknown).
// Figures: steps, matched transfers, the critical path (the longest chain of steps ordered by the above), the chunks
// on the busiest connection, and for allgather and alltoall the chunks a GPU receives against the (n − 1)·C each
// must receive.
//
//   auto r = dancecard::collective::check_msccl_program(dancecard::collective::read_msccl_xml(text));
//   if (!r.holds()) std::cerr << describe(r);
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dancecard/checkers/report.hpp"
#include "dancecard/core/collective/msccl.hpp"

namespace dancecard::collective {

enum class msccl_violation_kind {
  malformed,       // a structural error (`detail` says which)
  unmatched,       // a sending or receiving step without a partner on its connection
  count_mismatch,  // matched steps move different cnt
  deadlock,        // steps wait for each other in a cycle, or for a step that never signals
  race,            // two unordered accesses to one chunk, at least one a write
  wrong_value,     // at the end a chunk holds other contributions than the collective requires
  double_counted,  // a reduction adds a contribution the value already holds
};
inline constexpr std::size_t msccl_violation_kind_count = 7;
std::string_view to_string(msccl_violation_kind kind);

/// A step of the program: GPU id, thread-block id, the step's index in its thread block.
struct msccl_step_ref {
  std::int32_t gpu = 0, tb = 0;
  std::uint32_t step = 0;
  friend bool operator==(const msccl_step_ref&, const msccl_step_ref&) = default;
};

struct msccl_violation {
  msccl_violation_kind kind{};
  std::vector<msccl_step_ref> steps;  // the steps involved (a deadlock: the cycle, in waiting order)
  std::string detail;                 // one sentence: what is wrong, with buffers and chunks where it matters
};
std::string describe(const msccl_violation& v);

struct msccl_report : report<msccl_violation> {
  std::array<std::uint64_t, msccl_violation_kind_count> count_by_kind{};
  std::uint64_t count(msccl_violation_kind k) const { return count_by_kind[static_cast<std::size_t>(k)]; }
  std::uint64_t steps = 0;          // all steps, nops included
  std::uint64_t transfers = 0;      // matched send/receive pairs
  std::uint64_t critical_path = 0;  // steps on the longest ordered chain
  std::uint64_t busiest_connection_chunks = 0;
  std::int32_t busiest_from = 0, busiest_to = 0;
  std::uint64_t most_received_chunks = 0;  // the most chunks one GPU receives
  std::uint64_t receive_bound = 0;         // allgather, alltoall: (n − 1)·C; otherwise 0
  bool postcondition_checked = false;      // false: a collective without a defined postcondition (unknown)
};

struct msccl_check_options {
  std::size_t max_witnesses = 10;
  /// Messages a connection holds before a send waits (>= 1; the runtime buffers NCCL_STEPS slices).
  std::uint32_t connection_slots = 1;
  /// Above this many (thread blocks)² vector-clock entries the race check is skipped (answer unknown).
  std::uint64_t max_clock_entries = std::uint64_t{1} << 26;
};

/// require (std::invalid_argument): connection_slots >= 1.
msccl_report check_msccl_program(const msccl_program& program, const msccl_check_options& options = {});
std::string describe(const msccl_report& report);

}  // namespace dancecard::collective
