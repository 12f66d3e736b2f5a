// Step-synchronous simulation of the dance-party paper's Section 6 all-gather loop with rendezvous semantics.
//
// Each rank's program is its row of the schedule turned into operations: partner j > me gives (send j, receive j),
// j < me gives (receive j, send j). A send to j and j's receive from me complete together, in one step. Only ranks
// that moved in the previous step can form a new match, so each step examines just those: the whole run is linear in
// the number of operations. When nothing can move and some rank is unfinished, every unfinished rank waits for
// exactly one other (the partner of its current operation), so following those waits from any unfinished rank ends
// in a cycle or at a finished rank: that is the deadlock witness.
#include "dancecard/checkers/allgather_simulation.hpp"

#include <sstream>

namespace dancecard::dance {

namespace {

struct operation {
  rank partner;
  bool send;
};

// Operations of all ranks in one flat array: rank i's are ops[begin[i] .. begin[i+1]).
struct programs {
  std::vector<operation> ops;
  std::vector<std::size_t> begin;
};

void append_exchange(std::vector<operation>& ops, rank me, rank partner) {
  const bool lower = me < partner;  // the lower rank sends first
  ops.push_back({partner, lower});
  ops.push_back({partner, !lower});
}

allgather_report run(rank n, const programs& prog) {
  allgather_report out;
  std::vector<std::size_t> pc(n);
  for (rank i = 0; i < n; ++i) pc[i] = prog.begin[i];
  auto finished = [&](rank i) { return pc[i] == prog.begin[i + 1]; };
  auto current = [&](rank i) { return prog.ops[pc[i]]; };
  // blocks[i * n + b]: rank i holds block b.
  std::vector<bool> blocks(static_cast<std::size_t>(n) * n, false);
  for (rank i = 0; i < n; ++i) blocks[static_cast<std::size_t>(i) * n + i] = true;

  std::vector<rank> candidates(n), moved;
  for (rank i = 0; i < n; ++i) candidates[i] = i;
  std::vector<std::uint64_t> moved_in_step(n, 0);
  std::uint64_t step = 0;
  while (!candidates.empty()) {
    ++step;
    moved.clear();
    for (rank i : candidates) {
      if (finished(i) || moved_in_step[i] == step) continue;
      const operation op = current(i);
      const rank j = op.partner;
      if (j == i || finished(j) || moved_in_step[j] == step) continue;
      const operation other = current(j);
      if (other.partner != i || other.send == op.send) continue;
      const rank sender = op.send ? i : j;
      const rank receiver = op.send ? j : i;
      const std::size_t slot = static_cast<std::size_t>(receiver) * n + sender;
      if (blocks[slot]) ++out.duplicate_blocks;
      blocks[slot] = true;
      ++out.messages;
      ++pc[i];
      ++pc[j];
      moved_in_step[i] = moved_in_step[j] = step;
      moved.push_back(i);
      moved.push_back(j);
    }
    if (moved.empty()) {
      --step;  // nothing moved: this step did not happen
      break;
    }
    candidates.swap(moved);
  }
  out.steps = step;

  out.all_finished = true;
  for (rank i = 0; i < n && out.all_finished; ++i) out.all_finished = finished(i);
  if (!out.all_finished) {
    out.outcome = verdict::violated;
    rank start = 0;
    while (finished(start)) ++start;
    // Follow the waits-for edges; the first repeated rank closes the cycle.
    std::vector<std::uint32_t> seen_at(n, 0);
    std::vector<rank> path;
    rank at = start;
    while (!finished(at) && seen_at[at] == 0) {
      path.push_back(at);
      seen_at[at] = static_cast<std::uint32_t>(path.size());
      at = current(at).partner;
    }
    std::ostringstream s;
    if (finished(at)) {
      path.push_back(at);
      out.waiting_chain = path;
      s << "deadlock: rank " << path[path.size() - 2] << " waits for rank " << at << ", which has already finished";
    } else {
      out.deadlock_cycle.assign(path.begin() + (seen_at[at] - 1), path.end());
      s << "deadlock: ranks wait in a cycle";
      for (rank r : out.deadlock_cycle) s << " " << r << " ->";
      s << " " << out.deadlock_cycle.front();
    }
    out.problem = s.str();
    return out;
  }
  out.all_blocks_everywhere = true;
  for (rank i = 0; i < n && out.all_blocks_everywhere; ++i)
    for (rank b = 0; b < n; ++b)
      if (!blocks[static_cast<std::size_t>(i) * n + b]) {
        out.all_blocks_everywhere = false;
        out.missing_block = std::pair{i, b};
        out.outcome = verdict::violated;
        out.problem = "rank " + std::to_string(i) + " never receives the block of rank " + std::to_string(b);
        break;
      }
  return out;
}

}  // namespace

allgather_report simulate_allgather(const dance_schedule& schedule) {
  const rank n = schedule.people();
  // Count first, so the operations live in one exact-size array.
  std::vector<std::size_t> count(n + 1, 0);
  for (couple d : schedule.all_dances())
    if (d.first != d.second) count[d.first] += 2, count[d.second] += 2;
  programs prog;
  prog.begin.assign(n + 1, 0);
  for (rank i = 0; i < n; ++i) prog.begin[i + 1] = prog.begin[i] + count[i];
  prog.ops.resize(prog.begin[n]);
  std::vector<std::size_t> fill(prog.begin.begin(), prog.begin.end() - 1);
  for (couple d : schedule.all_dances()) {
    if (d.first == d.second) continue;
    for (auto [me, other] : {std::pair{d.first, d.second}, std::pair{d.second, d.first}}) {
      const bool lower = me < other;
      prog.ops[fill[me]++] = {other, lower};
      prog.ops[fill[me]++] = {other, !lower};
    }
  }
  return run(n, prog);
}

allgather_report simulate_allgather(const partner_matrix& matrix) {
  const rank n = matrix.people();
  programs prog;
  prog.begin.push_back(0);
  for (rank i = 1; i <= n; ++i) {
    for (std::size_t r = 1; r <= matrix.rounds(); ++r) {
      const std::uint32_t j = matrix.at(i, r);
      if (j == 0 || j > n) {
        allgather_report bad;
        bad.outcome = verdict::violated;
        bad.problem = "P(" + std::to_string(i) + ", " + std::to_string(r) + ") = " + std::to_string(j) +
                      " is outside 1.." + std::to_string(n) + "; the loop cannot run";
        return bad;
      }
      if (j != i) append_exchange(prog.ops, i - 1, j - 1);
    }
    prog.begin.push_back(prog.ops.size());
  }
  return run(n, prog);
}

std::string describe(const allgather_report& r) {
  std::ostringstream s;
  s << to_string(r.outcome) << ": " << r.steps << " steps, " << r.messages << " messages";
  if (r.duplicate_blocks > 0) s << " (" << r.duplicate_blocks << " redundant)";
  if (r.outcome == verdict::holds)
    s << "; every rank holds all blocks";
  else
    s << "; " << r.problem;
  return s.str();
}

}  // namespace dancecard::dance
