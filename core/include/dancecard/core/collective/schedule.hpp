// Collectives as pre- and postconditions on (chunk, rank), and schedules of chunk transfers that implement them — the
// model of SCCL (Cai et al., PPoPP 2021, Section 3) with combining collectives: a chunk's value is the set of ranks
// whose contributions it holds, so a reduction that adds one twice, or misses one, can be named.
//
// Chunks: each rank's share is `chunks` chunks (SCCL's C). allgather and gather: n·C chunks, rank r's own are
// r·C … r·C + C − 1; alltoall: n·n·C, chunk (s·n + d)·C + i goes from s to d; alltoallv (MPI_Alltoallv, the
// h-relation): a count per ordered pair, the blocks in the order (0, 0), (0, 1), …, (n − 1, n − 1); broadcast: C
// chunks at the root; scatter: n·C at the root, block d for rank d; reduce: C chunks, every rank contributing to each;
// reduce_scatter and allreduce: n·C, every rank contributing to each, block r (chunks r·C … r·C + C − 1) wanted at
// rank r (reduce_scatter) or everywhere (allreduce).
//
//   collective::schedule s = collective::ring_allgather(8);   // on ring:8, 7 steps, checked by checkers/
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dancecard/core/collective/topology.hpp"

namespace dancecard::collective {

enum class collective_kind {
  allgather,
  alltoall,
  broadcast,
  gather,
  scatter,
  reduce,
  reduce_scatter,
  allreduce,
  alltoallv
};
inline constexpr std::size_t collective_kind_count = 9;
std::string_view to_string(collective_kind kind);  // "allgather", "alltoall", …, "allreduce", "alltoallv"
std::optional<collective_kind> parse_collective_kind(std::string_view text);
/// reduce, reduce_scatter and allreduce: chunk values are sums of contributions.
bool combining(collective_kind kind);

struct collective {
  collective_kind kind = collective_kind::allgather;
  rank ranks = 1;
  std::uint32_t chunks = 1;  // each rank's share (SCCL's C)
  rank root = 0;             // broadcast, gather, scatter, reduce
  /// alltoallv only (made by alltoallv_collective, `chunks` 1): offsets[s·n + d] is the first chunk of the block
  /// rank s sends rank d, offsets[n·n] the number of chunks.
  std::vector<std::uint64_t> offsets;

  /// {kind, ranks, chunks, root}, as SCCL names them (an alltoallv: alltoallv_collective).
  collective(collective_kind kind_ = collective_kind::allgather, rank ranks_ = 1, std::uint32_t chunks_ = 1,
             rank root_ = 0)
      : kind(kind_), ranks(ranks_), chunks(chunks_), root(root_) {}

  /// How many chunks the collective moves: n·C, n·n·C, C or offsets[n·n] (above).
  std::uint64_t chunk_count() const;
  /// Non-combining: the one rank holding chunk k at the start. Combining: every rank contributes (returns 0).
  rank source(std::uint64_t chunk) const;
  /// Whether rank r must hold chunk k at the end (combining: with every rank's contribution).
  bool wanted(std::uint64_t chunk, rank r) const;
  /// alltoall and alltoallv: s·n + d for the block of chunk k, sent by s to d.
  std::uint64_t block(std::uint64_t chunk) const;
  /// alltoallv: the chunks rank s sends rank d.
  std::uint64_t block_chunks(rank s, rank d) const {
    const std::size_t b = std::size_t{s} * ranks + d;
    return offsets[b + 1] - offsets[b];
  }
  /// "allgather of 8 ranks, 1 chunk each" / "reduce to rank 0 of 8 ranks, 2 chunks each".
  std::string describe() const;
};
/// require (std::invalid_argument): ranks >= 1, chunks >= 1, root < ranks, chunk_count() <= 2^32; alltoallv: n·n + 1
/// offsets from 0, never decreasing, chunks 1; the other kinds: no offsets.
void require_valid(const collective& c);
/// The all-to-allv whose block (s, d) holds counts[s·n + d] chunks. require: n·n counts, 1 <= n <= 4096, at most
/// 2^32 chunks in all (std::invalid_argument).
collective alltoallv_collective(rank n, const std::vector<std::uint64_t>& counts);

enum class transfer_op { copy, reduce, move };
std::string_view to_string(transfer_op op);  // "copy", "reduce", "move"
std::optional<transfer_op> parse_transfer_op(std::string_view text);

/// One chunk moved over one link: `copy` makes the receiver's value the sender's; `reduce` adds the sender's
/// contributions to the receiver's; `move` is a copy after which the sender no longer holds the chunk (the
/// h-relation model, where forwarding a piece hands it on: collective/adapters.hpp).
struct transfer {
  std::uint64_t chunk = 0;
  rank from = 0, to = 0;
  transfer_op op = transfer_op::copy;
  friend bool operator==(const transfer&, const transfer&) = default;
};

/// The transfers of one step, all reading the values held when the step begins. `rounds` (SCCL's k-synchronous
/// form): the step may use each link `rounds` times its capacity.
struct step {
  std::uint32_t rounds = 1;
  std::vector<transfer> transfers;
};

struct schedule {
  topology network;
  port_model ports = port_model::all_port;
  collective coll;
  std::vector<step> steps;
  std::string algorithm;  // the generator's name, or what the file says

  std::uint64_t rounds() const;     // the sum of the steps' rounds
  std::uint64_t transfers() const;  // all transfers of all steps
};

}  // namespace dancecard::collective
