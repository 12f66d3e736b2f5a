// The MSCCL-IR checker's model of a program: its steps as one array, thread blocks as ranges of it, connections with
// their matched steps, and the analyses over it (msccl_structure.cpp: structure, matching, dependencies;
// msccl_execution.cpp: the run, happens-before, races, values and the postcondition).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dancecard/checkers/msccl_check.hpp"

namespace dancecard::collective::detail_msccl {

using op_index = std::uint32_t;
inline constexpr op_index no_op = UINT32_MAX;
using reporter = std::function<void(msccl_violation_kind, std::vector<msccl_step_ref>, std::string)>;

/// A chunk's value: the sorted (GPU, input chunk) contributions it holds; nullptr: never written (uninitialized).
using value = std::shared_ptr<const std::vector<std::uint32_t>>;

struct block {
  std::size_t gpu = 0;  // index into program.gpus
  const msccl_threadblock* tb = nullptr;
  op_index first = 0;
  std::uint32_t size = 0;
  std::uint32_t live = 0;  // steps up to the last one that is not a nop: the runtime drops trailing nops
};

struct op {
  std::uint32_t block = 0, pos = 0;
  const msccl_step* step = nullptr;
  op_index matched_send = no_op;   // a receiving step: the step that sent what it receives
  op_index matched_recv = no_op;   // a sending step: the step that receives what it sends
  op_index signal = no_op;         // the step whose completion this one waits for (depid/deps)
  std::uint32_t out = UINT32_MAX;  // the connection a sending step sends on
  std::uint32_t in = UINT32_MAX;   // the connection a receiving step receives from
};

struct connection {
  std::uint32_t sender = 0, receiver = 0;  // blocks
  std::int32_t from = 0, to = 0, chan = 0;
};

struct replay_result {
  std::uint64_t critical_path = 0, most_received = 0;
  std::vector<std::vector<value>> slots;  // per GPU, its canonical chunks (input, output, scratch; aliased in place)
  std::vector<std::vector<value>> sent;   // by step, the values a sending step sent (only when asked to keep them)
};

class model {
 public:
  explicit model(const msccl_program& p);

  const msccl_program& program;
  std::vector<block> blocks;
  std::vector<op> ops;
  std::vector<connection> connections;
  std::map<std::pair<std::int32_t, std::int32_t>, std::uint64_t> connection_chunks;  // (from, to) -> chunks
  std::uint64_t transfers = 0;

  void check_structure(const reporter& report);
  void match(const reporter& report);
  void resolve_dependencies(const reporter& report);
  /// Runs the steps by the runtime's rules; returns the completion order, or reports a deadlock.
  std::vector<op_index> run(std::uint32_t slots, const reporter& report) const;
  /// Happens-before over `order` (vector clocks when `clocks`): the critical path, races, and the values.
  /// `keep_sent`: the values each sending step sent stay in the result (the import reads them).
  replay_result replay(const std::vector<op_index>& order, bool clocks, const reporter& report,
                       bool keep_sent = false) const;
  std::uint64_t receive_bound() const;
  /// false when the collective has no postcondition to check.
  bool check_postcondition(const replay_result& replay, const reporter& report) const;

  msccl_step_ref ref(op_index o) const;
  /// The canonical index of chunk `index` of `buffer` on GPU `gpu` (in place: the aliased chunk).
  std::uint64_t canonical(std::size_t gpu, msccl_buffer buffer, std::int64_t index) const;
  std::uint64_t slot_count(std::size_t gpu) const;
  std::uint32_t contribution(std::size_t gpu, std::int64_t input_index) const;
  /// The inverse of contribution: (GPU index, input chunk).
  std::pair<std::size_t, std::int64_t> source(std::uint32_t contribution) const;
  std::string describe_value(const value& v) const;
  std::uint64_t total_slots() const;

 private:
  std::unordered_map<std::int32_t, std::size_t> gpu_of_id_;
  std::int64_t input_stride_ = 1;  // the most input chunks of any GPU: contributions are gpu·stride + index
};

}  // namespace dancecard::collective::detail_msccl
