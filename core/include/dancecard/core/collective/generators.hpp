// The classic collective algorithms as schedules of the collective model, each on the network it is written for and
// with the port model it needs. Nothing here is checked; checkers/collective_check does that (and the tests do it for
// every generator on many sizes).
//
//   auto s = dancecard::collective::ring_allreduce(8, 2);   // ring:8, 14 steps of 2 rounds
#pragma once

#include <cstdint>
#include <string_view>

#include "dancecard/core/collective/schedule.hpp"
#include "dancecard/core/torus/torus.hpp"

namespace dancecard::collective {

/// Ring all-gather on ring:n, one-port full duplex: in step s (0 … n − 2) rank r sends block (r − s) mod n, its
/// `chunks` chunks in as many rounds, to r + 1. require: 1 <= n, chunks >= 1.
schedule ring_allgather(rank n, std::uint32_t chunks = 1);
/// Recursive doubling all-gather, one-port full duplex: in step s rank r exchanges everything it holds (2^s blocks)
/// with r xor 2^s, on hypercube:log2 n. For n not a power of two (complete:n; p the largest power of two below n),
/// MPICH's way: rank p + j first sends its block to rank j, the doubling runs on 0 … p − 1 with those blocks carried
/// along, and rank j finally sends rank p + j everything: log2 p + 2 steps. require: 1 <= n (<= 4096 when not a
/// power of two).
schedule recursive_doubling_allgather(rank n, std::uint32_t chunks = 1);
/// Bruck's all-gather on complete:n, one-port full duplex, any n: in step k rank r sends the blocks r … r + m − 1
/// (mod n) it holds, m = min(2^k, n − 2^k), to r − 2^k. ⌈log2 n⌉ steps (Bruck et al., "Efficient algorithms for
/// all-to-all communications in multiport message-passing systems", IEEE TPDS 1997).
schedule bruck_allgather(rank n, std::uint32_t chunks = 1);
/// Pairwise-exchange all-to-all on complete:n, one-port full duplex: in step s (1 … n − 1) rank r sends its block for
/// (r + s) mod n (and receives from (r − s) mod n). require: 1 <= n <= 4096.
schedule pairwise_alltoall(rank n, std::uint32_t chunks = 1);
/// Binomial-tree broadcast from `root` on complete:n, one-port full duplex: in step s every rank whose distance from
/// the root (r − root mod n) is below 2^s sends the chunks to the rank 2^s further on. ⌈log2 n⌉ steps.
schedule binomial_broadcast(rank n, rank root = 0, std::uint32_t chunks = 1);
/// Binomial-tree reduce to `root` on complete:n, one-port full duplex: in step j every rank whose distance from the
/// root is an odd multiple of 2^j adds its subtree's sum into the rank 2^j nearer the root. ⌈log2 n⌉ steps.
schedule binomial_reduce(rank n, rank root = 0, std::uint32_t chunks = 1);
/// Recursive-halving reduce-scatter on hypercube:log2 n, one-port full duplex: in step k rank r sends the half of its
/// current blocks that belongs to the side of r xor n/2^(k+1), as reductions, and keeps the other half; at the end
/// rank r holds block r summed. require: n a power of two.
schedule recursive_halving_reduce_scatter(rank n, std::uint32_t chunks = 1);
/// Rabenseifner's all-reduce: recursive_halving_reduce_scatter, then recursive_doubling_allgather's steps copying the
/// summed blocks (Rabenseifner, "Optimization of collective reduction operations", ICCS 2004). require: n a power of
/// two.
schedule rabenseifner_allreduce(rank n, std::uint32_t chunks = 1);
/// Ring reduce-scatter on ring:n, one-port full duplex: in step s (0 … n − 2) rank r adds its block (r − s − 1) mod n
/// into r + 1's; after n − 1 steps rank r holds block r summed over all ranks.
schedule ring_reduce_scatter(rank n, std::uint32_t chunks = 1);
/// Double binary tree all-reduce (NCCL's tree) on complete:n, all-port: two balanced binary trees, the second the
/// mirror of the first (rank r as n − 1 − r), each carrying half the chunks; in each, a rank adds its subtree's sum
/// into its parent once its children's sums arrived, then the root's total comes down by copies. 2·height steps.
schedule double_binary_tree_allreduce(rank n, std::uint32_t chunks = 1);
/// Ring all-reduce (NCCL's ring): ring_reduce_scatter's n − 1 steps, then ring_allgather's n − 1 steps copying the
/// summed blocks round.
schedule ring_allreduce(rank n, std::uint32_t chunks = 1);
/// All-gather on torus:A×B… along the 2d directed rings of hamiltonian_product_cycles (d edge-disjoint Hamiltonian
/// cycles, each run both ways; core/torus/cycles.hpp), all-port: ring j carries chunks j·C/(2d) … (j + 1)·C/(2d) − 1
/// of every rank one hop a step: P − 1 steps of C/(2d) rounds each, so R = (P − 1)·C/(2d), every rank's ingress bound
/// ((P − 1)·C chunks over 2d in-links). require (std::invalid_argument): a torus hamiltonian_product_cycles splits, of
/// at most 4096 PUs, C a positive multiple of 2d, and at most 2^27 transfers ((P − 1)·P·C).
schedule multi_ring_allgather(const torus::network& network, std::uint32_t chunks);
/// The same cycles with every chunk run both ways (bidirectional rings): a cycle's chunk j of every rank goes
/// ⌈(P − 1)/2⌉ hops forwards and the rest backwards for j even, the reverse for j odd, one hop a step. ⌊P/2⌋ steps,
/// each of as many rounds as chunks still travel one way, R = (P − 1)·C/(2d): the ingress bound in half
/// multi_ring_allgather's steps. require (std::invalid_argument): as multi_ring_allgather, but C a positive multiple
/// of d, and of 2d when P is even.
schedule bidirectional_multi_ring_allgather(const torus::network& network, std::uint32_t chunks);
/// All-gather on hypercube:D (n = 2^D ranks), all-port, by recursive doubling along D rotated orders of the
/// dimensions (Johnsson and Ho's rotated spanning binomial trees): piece j of every rank's chunks (chunks j·C/D …
/// (j + 1)·C/D − 1) doubles along dimensions j, j + 1, … (mod D), so in step k every link carries one piece of 2^k
/// ranks. D steps of 2^k·C/D rounds, R = (n − 1)·C/D: every rank's ingress bound ((n − 1)·C chunks over D in-links) in
/// as few steps as the diameter allows. require (std::invalid_argument): n a power of two, 2 … 4096, C a positive
/// multiple of D, at most 2^27 transfers ((n − 1)·n·C).
schedule rotated_doubling_allgather(rank n, std::uint32_t chunks);

/// The generators above by name, as the command lines spell them: ("ring", allgather), ("bruck", allgather),
/// ("recursive-doubling", allgather), ("rotated-doubling", allgather), ("pairwise", alltoall), ("binomial",
/// broadcast), ("binomial", reduce), ("ring", reduce_scatter), ("recursive-halving", reduce_scatter), ("ring",
/// allreduce), ("rabenseifner", allreduce), ("double-binary-tree", allreduce). std::invalid_argument names the pairs
/// there are, or the generator's own precondition.
schedule classic_schedule(std::string_view algorithm, collective_kind kind, rank n, std::uint32_t chunks = 1,
                          rank root = 0);

}  // namespace dancecard::collective
