// The networks collective schedules run on: ranks joined by directed links, each carrying a number of chunks per
// round (its capacity), and a port model that says how many links a rank may use at once. The model of SCCL (Cai et
// al., "Synthesizing optimal collective algorithms", PPoPP 2021, Section 3): a link given in both directions is full
// duplex; DGX-1's hybrid cube-mesh counts its doubled NVLinks as capacity 2.
//
//   const auto net = dancecard::collective::ring_topology(8);      // 0 ↔ 1 ↔ … ↔ 7 ↔ 0
//   net.capacity(0, 1) == 1 && net.capacity(0, 2) == 0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dancecard/core/dance/schedule.hpp"
#include "dancecard/core/torus/torus.hpp"

namespace dancecard::collective {

/// How many links a rank uses in one step. all_port: every link at once (the torus paper, SCCL); one_port_full_duplex:
/// one peer to send to and one to receive from (MPI's pairwise exchanges); one_port_half_duplex: one partner, both
/// ways (the dance-party paper's exchanges); one_port_simplex: one link, one way — a rank sends or receives in a step,
/// not both (the h-relation paper's half duplex).
enum class port_model { all_port, one_port_full_duplex, one_port_half_duplex, one_port_simplex };
/// "all-port", "one-port-full-duplex", "one-port-half-duplex", "one-port-simplex"
std::string_view to_string(port_model model);
std::optional<port_model> parse_port_model(std::string_view text);

struct link {
  rank from = 0, to = 0;
  std::uint32_t capacity = 1;  // chunks per round
  friend bool operator==(const link&, const link&) = default;
};

/// Ranks 0 … size − 1 and their links, kept sorted by (from, to) for look-ups in O(log degree).
class topology {
 public:
  topology() = default;
  /// require (std::invalid_argument naming the link): 1 <= ranks <= 2^20, every link between two different ranks
  /// below `ranks`, capacity 1 … 2^20, no ordered pair given twice.
  topology(std::string name, rank ranks, std::vector<link> links);

  const std::string& name() const noexcept { return name_; }
  rank size() const noexcept { return ranks_; }
  const std::vector<link>& links() const noexcept { return links_; }
  /// The capacity of the link from → to, 0 where there is none.
  std::uint32_t capacity(rank from, rank to) const;
  /// The link from → to's place in links(), or links().size() where there is none. (Inline: the checker asks it once
  /// per transfer.)
  std::size_t link_index(rank from, rank to) const {
    if (from >= ranks_ || to >= ranks_) return links_.size();
    const link* begin = links_.data() + first_[from];
    const link* end = links_.data() + first_[from + 1];
    while (begin < end) {  // binary search of `to` among the sorted out-links
      const link* mid = begin + (end - begin) / 2;
      if (mid->to < to) {
        begin = mid + 1;
      } else {
        end = mid;
      }
    }
    return begin != links_.data() + first_[from + 1] && begin->to == to
               ? static_cast<std::size_t>(begin - links_.data())
               : links_.size();
  }
  /// The links leaving `from` (a contiguous range of links()).
  const link* out_begin(rank from) const { return links_.data() + first_[from]; }
  const link* out_end(rank from) const { return links_.data() + first_[from + 1]; }
  /// Chunks per round that can reach r (the sum of its in-links' capacities) and leave it.
  std::uint64_t in_capacity(rank r) const { return in_capacity_[r]; }
  std::uint64_t out_capacity(rank r) const { return out_capacity_[r]; }
  /// The largest capacity of one in-link of r (what one port can take in a round).
  std::uint32_t largest_in_link(rank r) const { return largest_in_[r]; }

 private:
  std::string name_;
  rank ranks_ = 0;
  std::vector<link> links_;
  std::vector<std::size_t> first_;
  std::vector<std::uint64_t> in_capacity_, out_capacity_;
  std::vector<std::uint32_t> largest_in_;
};

/// Every ordered pair linked, capacity 1 ("complete:N"). require: 1 <= n <= 4096.
topology complete_topology(rank n);
/// i ↔ i + 1 mod n, capacity 1 each way ("ring:N"; n = 2: one link each way). require: 1 <= n <= 2^20.
topology ring_topology(rank n);
/// The torus's PUs and links, each direction its own link; a side of 2, where +x_j and −x_j reach the same PU, gives
/// capacity 2 ("torus:AxB…").
topology torus_topology(const torus::network& network);
/// 2^d ranks, r ↔ r xor 2^j ("hypercube:D"). require: d <= 20.
topology hypercube_topology(unsigned dimension);
/// NVIDIA DGX-1 (8 V100 GPUs, hybrid cube-mesh) as msccl-tools' topologies/nvidia.py and SCCL's paper give it: two
/// quads 0–3 and 4–7, each GPU with 6 NVLinks; the pairs joined by two NVLinks — (0,1), (0,4), (1,3), (2,3), (2,6),
/// (4,5), (5,7), (6,7) — have capacity 2 each way, the pairs (0,2), (0,3), (1,2), (1,5), (3,7), (4,6), (4,7), (5,6)
/// capacity 1. Diameter 2.
topology dgx1_topology();

/// A built-in topology by name: "complete:N", "ring:N", "torus:AxB…", "hypercube:D", "dgx1". nullopt for another
/// name; std::invalid_argument for a known name with a bad size (the message says which).
std::optional<topology> builtin_topology(std::string_view spec);

/// At most how many links builtin_topology(spec) has, found without building it (complete:N: N·(N − 1); ring:N: 2N;
/// torus: 2·dimensions·PUs; hypercube:D: D·2^D); nullopt and std::invalid_argument as builtin_topology.
std::optional<std::uint64_t> builtin_topology_links(std::string_view spec);

/// Hop counts from `source` along the links (breadth first); unreachable ranks get UINT32_MAX.
std::vector<std::uint32_t> distances_from(const topology& network, rank source);

}  // namespace dancecard::collective
