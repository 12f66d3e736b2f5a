// MSCCL-IR programs back into collective schedules, so that an algorithm another tool wrote (msccl-tools/MSCCLang,
// TACCL, TE-CCL) can be checked on a network and port model, drawn, compared with the lower bounds and run by
// dancecard-mpi. The program is run as checkers/msccl_check runs it (one deterministic order of the runtime's rules;
// a program that passes that check computes the same values in every order), and each matched send/receive becomes
// one transfer per chunk it moves:
//   - the chunk is read from the value sent: a non-combining collective's value is one input chunk (GPU g's input
//     chunk i is collective chunk g·i_chunks + i, which is SCCL's numbering of all-gather and all-to-all chunks); a
//     combining one's is a set of GPUs' contributions to one input chunk i, collective chunk i;
//   - the step is the transfer's depth in the program's happens-before order: one more than the deepest transfer
//     that reaches its sender before it sends (thread-block order, dependencies, receives), so the schedule's steps
//     are the program's critical path in transfers. A transfer with slack goes as early as that order lets it, as
//     late, or where a list schedule puts it (each step's rounds set by the transfers that cannot wait, the others
//     filling what those leave), whichever placement needs the fewest rounds: the rounds are an upper bound, the
//     steps exact;
//   - the op is what the value says: copy where the receiver's value of the chunk is contained in what arrives,
//     reduce where the two are disjoint (the receiver adds what it gets, whichever buffer and local `re` step the
//     program uses to do so);
//   - a step's rounds are the most chunks it puts on one link over that link's capacity.
// A chunk schedule keeps one value per (chunk, rank); a program that sends a value other than the one its GPU holds
// by then (an older copy kept in another buffer, a partial sum of a different set), or a value that mixes input
// chunks, is not a chunk schedule, and the import says where. A program that fails its own check for structure,
// matching, deadlock or races has no single meaning and is not imported; one with wrong values is, and the collective
// checker then names what is missing.
//
//   auto imported = dancecard::collective::import_msccl(dancecard::collective::read_msccl_xml(text));
//   if (imported.imported) check_collective_schedule(*imported.imported);
#pragma once

#include <optional>
#include <string>

#include "dancecard/checkers/msccl_check.hpp"
#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/core/collective/schedule.hpp"

namespace dancecard::collective {

struct msccl_import_options {
  /// The network the schedule is put on (its ranks must be the program's GPUs); none: the complete network of
  /// ngpus ranks with capacity 1, since the format does not say which links exist.
  std::optional<topology> network;
  port_model ports = port_model::all_port;
  /// Passed to the program's check (msccl_check_options::connection_slots).
  std::uint32_t connection_slots = 1;
};

struct msccl_import_result {
  std::optional<schedule> imported;  // none: not imported, `reason` says why
  std::string reason;                // one sentence naming the step (GPU, thread block, step) where it matters
  msccl_report program_check;        // the program's own check, run first
  bool program_invalid = false;      // it fails that check for structure, matching, deadlock or races
};

/// require (std::invalid_argument): connection_slots >= 1, a network whose ranks are ngpus.
msccl_import_result import_msccl(const msccl_program& program, const msccl_import_options& options = {});

}  // namespace dancecard::collective
