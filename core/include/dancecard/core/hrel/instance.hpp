// h-relations (Sibeyn, "h-relations with forwarding, half duplex"): P processing elements, messages m_ij of whole
// packets, and schedules of time slots in which PEs exchange (pieces of) messages, possibly forwarding them.
//
//   dancecard::hrel::hrel_instance two_triangles(6, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1},
//                                                    {3, 4, 1}, {4, 5, 1}, {5, 3, 1}});
//   two_triangles.h_half_duplex() == 2;   two_triangles.h_full_duplex() == 1
#pragma once

#include <cstdint>
#include <vector>

#include "dancecard/core/common/rational.hpp"
#include "dancecard/core/dance/schedule.hpp"

namespace dancecard::hrel {

struct hrel_message {
  rank src = 0, dst = 0;
  std::uint64_t packets = 1;
  friend bool operator==(const hrel_message&, const hrel_message&) = default;
};

/// The message matrix as a list; at most one message per ordered pair (src ≠ dst), packets ≥ 1.
class hrel_instance {
 public:
  /// require: pes >= 1; every message valid (std::invalid_argument names the message otherwise).
  hrel_instance(rank pes, std::vector<hrel_message> messages);
  rank pes() const noexcept { return pes_; }
  const std::vector<hrel_message>& messages() const noexcept { return messages_; }
  /// Half duplex: the most packets any PE sends plus receives.
  std::uint64_t h_half_duplex() const;
  /// Full duplex: the most packets any PE sends, or receives.
  std::uint64_t h_full_duplex() const;
  friend bool operator==(const hrel_instance&, const hrel_instance&) = default;

 private:
  rank pes_;
  std::vector<hrel_message> messages_;
};

/// One transfer in a slot: `amount` packets of message number `message` (an index into the instance's messages)
/// go from `from` to `to`. With forwarding, `from` need not be the message's source nor `to` its destination.
struct hrel_transfer {
  rank from = 0, to = 0;
  std::size_t message = 0;
  rational amount;
  friend bool operator==(const hrel_transfer&, const hrel_transfer&) = default;
};

/// A time slot of exact duration; its transfers happen during it (a PE transfers at one packet per time unit).
struct hrel_slot {
  rational duration;
  std::vector<hrel_transfer> transfers;
  friend bool operator==(const hrel_slot&, const hrel_slot&) = default;
};

struct hrel_schedule {
  rank pes = 1;
  std::vector<hrel_slot> slots;
  rational makespan() const;
  friend bool operator==(const hrel_schedule&, const hrel_schedule&) = default;
};

}  // namespace dancecard::hrel
