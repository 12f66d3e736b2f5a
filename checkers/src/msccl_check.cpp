// The MSCCL-IR checker (see the header). Structure and matching first; then one deterministic run of the runtime's
// rules that also finds a deadlock's cycle; then, over that run's order, vector clocks for happens-before (Lamport,
// "Time, clocks, and the ordering of events", CACM 1978; Fidge / Mattern vector clocks) to find races as a
// race detector does for each memory location (the last write and the reads since), and the values as contribution
// sets for the postcondition.
#include "dancecard/checkers/msccl_check.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "msccl_model.hpp"

namespace dancecard::collective {

std::string_view to_string(msccl_violation_kind kind) {
  switch (kind) {
    case msccl_violation_kind::malformed:
      return "malformed";
    case msccl_violation_kind::unmatched:
      return "unmatched";
    case msccl_violation_kind::count_mismatch:
      return "count mismatch";
    case msccl_violation_kind::deadlock:
      return "deadlock";
    case msccl_violation_kind::race:
      return "race";
    case msccl_violation_kind::wrong_value:
      return "wrong value";
    case msccl_violation_kind::double_counted:
      return "double counted";
  }
  return "?";
}

std::string describe(const msccl_violation& v) {
  std::string s = std::string(to_string(v.kind)) + ":";
  for (std::size_t i = 0; i < v.steps.size() && i < 8; ++i) {
    const msccl_step_ref& r = v.steps[i];
    s += (i == 0 ? " " : ", ") + std::string("gpu ") + std::to_string(r.gpu) + " tb " + std::to_string(r.tb) +
         " step " + std::to_string(r.step);
  }
  if (v.steps.size() > 8) s += ", … (" + std::to_string(v.steps.size()) + " steps)";
  if (!v.detail.empty()) s += (v.steps.empty() ? " " : ": ") + v.detail;
  return s;
}

std::string describe(const msccl_report& r) {
  std::string s = describe_report<msccl_violation_kind>(r, r.count_by_kind);
  s += "figures: " + std::to_string(r.steps) + " steps, " + std::to_string(r.transfers) + " transfers, critical path " +
       std::to_string(r.critical_path) + " steps";
  if (r.transfers > 0)
    s += ", busiest connection " + std::to_string(r.busiest_from) + " -> " + std::to_string(r.busiest_to) + " with " +
         std::to_string(r.busiest_connection_chunks) + " chunks";
  if (r.receive_bound > 0)
    s += "; a GPU receives at most " + std::to_string(r.most_received_chunks) + " chunks, each must receive " +
         std::to_string(r.receive_bound);
  return s + "\n";
}

namespace {

using detail_msccl::model;
using detail_msccl::op_index;

void add(msccl_report& r, msccl_violation_kind kind, std::vector<msccl_step_ref> steps, std::string detail,
         std::size_t limit) {
  ++r.count_by_kind[static_cast<std::size_t>(kind)];
  r.add({kind, std::move(steps), std::move(detail)}, limit);
}

}  // namespace

msccl_report check_msccl_program(const msccl_program& program, const msccl_check_options& options) {
  if (options.connection_slots < 1) throw std::invalid_argument("check_msccl_program: connection_slots must be >= 1");
  msccl_report r;
  r.steps = program.step_count();
  r.checked = "MSCCL-IR " + (program.coll.empty() ? std::string("program") : program.coll) + " '" + program.name +
              "' on " + std::to_string(program.ngpus) + " GPUs, " + std::to_string(r.steps) + " steps";
  const std::size_t limit = options.max_witnesses;
  auto report = [&](msccl_violation_kind k, std::vector<msccl_step_ref> s, std::string d) {
    add(r, k, std::move(s), std::move(d), limit);
  };

  model m(program);
  m.check_structure(report);
  if (!r.holds()) return r;
  m.match(report);
  if (!r.holds()) return r;
  for (const auto& [key, chunks] : m.connection_chunks)
    if (chunks > r.busiest_connection_chunks) {
      r.busiest_connection_chunks = chunks;
      r.busiest_from = key.first;
      r.busiest_to = key.second;
    }
  r.transfers = m.transfers;
  m.resolve_dependencies(report);
  if (!r.holds()) return r;
  std::uint64_t moves = 0;  // the run and the replay take time in the chunks moved
  for (const msccl_gpu& g : program.gpus)
    for (const msccl_threadblock& tb : g.threadblocks)
      for (const msccl_step& s : tb.steps) moves += s.cnt;
  if (m.total_slots() > (std::uint64_t{1} << 26) || moves > (std::uint64_t{1} << 27)) {
    r.outcome = verdict::unknown;
    r.checked += " (not run: more than 2^26 chunks in all buffers or 2^27 chunks moved)";
    return r;
  }
  const std::vector<op_index> order = m.run(options.connection_slots, report);
  if (!r.holds()) return r;

  const bool clocks = static_cast<std::uint64_t>(m.blocks.size()) * m.blocks.size() <= options.max_clock_entries;
  const detail_msccl::replay_result replay = m.replay(order, clocks, report);
  r.critical_path = replay.critical_path;
  r.most_received_chunks = replay.most_received;
  r.receive_bound = m.receive_bound();
  r.postcondition_checked = m.check_postcondition(replay, report);
  if (r.holds() && (!r.postcondition_checked || !clocks)) {
    r.outcome = verdict::unknown;
    r.checked += !clocks ? " (races not checked: more than " + std::to_string(options.max_clock_entries) +
                               " vector-clock entries)"
                         : " (no postcondition for coll '" + program.coll + "': deadlock and races only)";
  }
  return r;
}

}  // namespace dancecard::collective
