// Simulates Section 6 of the dance-party paper: every rank runs the all-gather loop over its row of the schedule —
// for partner j > me: send then receive; for j < me: receive then send; idle: nothing — with blocking rendezvous
// semantics (a send completes only together with the matching receive). Each rank sends its own block.
//
// The simulation is step-synchronous: in each step every rank whose current operation has a matching partner
// operation completes it. It reports the steps to completion and checks that every rank ends with all n blocks, or
// gives a deadlock witness: the cycle of ranks each waiting for the next (or a chain that ends at a rank that has
// already finished).
//
//   auto r = dancecard::dance::simulate_allgather(dancecard::dance::to_partner_matrix(schedule));
//   r.outcome == verdict::holds && r.steps == 2 * schedule.rounds()   // for G_n
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dancecard/checkers/report.hpp"
#include "dancecard/core/dance/schedule.hpp"

namespace dancecard::dance {

struct allgather_report {
  verdict outcome = verdict::holds;
  std::uint64_t steps = 0;             // synchronous rendezvous steps until nothing can move
  std::uint64_t messages = 0;          // point-to-point messages delivered
  std::uint64_t duplicate_blocks = 0;  // messages that delivered a block the receiver already had
  bool all_finished = false;           // every rank ran its whole loop
  bool all_blocks_everywhere = false;  // every rank holds all n blocks at the end
  std::vector<rank> deadlock_cycle;    // deadlock_cycle[k] waits for deadlock_cycle[k+1], the last for the first
  std::vector<rank> waiting_chain;     // when no cycle: ranks waiting in a chain; the last waits on a finished rank
  std::optional<std::pair<rank, rank>> missing_block;  // (rank, block) not held at the end
  std::string problem;                                 // one sentence when outcome != holds
};

/// Runs the paper's loop on a schedule (self-dances count as idle; a person in two dances of one round runs both,
/// in the listed order).
allgather_report simulate_allgather(const dance_schedule& schedule);
/// Runs the paper's loop on a partner matrix, exactly as written (asymmetric entries included). Entries outside
/// 1..n make the report violated without simulating.
allgather_report simulate_allgather(const partner_matrix& matrix);

std::string describe(const allgather_report& report);

}  // namespace dancecard::dance
