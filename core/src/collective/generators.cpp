// The classic collective algorithms in the collective model: ring (Patarasuk and Yuan, "Bandwidth optimal
// all-reduce algorithms for clusters of workstations", JPDC 2009), recursive doubling and the binomial tree (Thakur,
// Rabenseifner and Gropp, "Optimization of collective communication operations in MPICH", IJHPCA 2005), pairwise
// exchange (MPICH's and Open MPI's all-to-all).
#include "dancecard/core/collective/generators.hpp"

#include <algorithm>
#include <stdexcept>

namespace dancecard::collective {

namespace {

schedule start(topology network, port_model ports, collective coll, std::string algorithm) {
  require_valid(coll);
  return schedule{std::move(network), ports, coll, {}, std::move(algorithm)};
}

// The chunks of rank-block b (b·C … b·C + C − 1) from `from` to `to`.
void send_block(step& s, const collective& c, std::uint64_t block, rank from, rank to, transfer_op op) {
  for (std::uint32_t i = 0; i < c.chunks; ++i) s.transfers.push_back({block * c.chunks + i, from, to, op});
}

bool power_of_two(rank n) { return n != 0 && (n & (n - 1)) == 0; }

}  // namespace

schedule ring_allgather(rank n, std::uint32_t chunks) {
  schedule out =
      start(ring_topology(n), port_model::one_port_full_duplex, {collective_kind::allgather, n, chunks, 0}, "ring");
  for (rank s = 0; s + 1 < n; ++s) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (rank r = 0; r < n; ++r) send_block(st, out.coll, (r + n - s) % n, r, (r + 1) % n, transfer_op::copy);
  }
  return out;
}

schedule recursive_doubling_allgather(rank n, std::uint32_t chunks) {
  if (!power_of_two(n))
    throw std::invalid_argument("recursive doubling: " + std::to_string(n) + " ranks is not a power of two");
  unsigned d = 0;
  while ((rank{1} << d) < n) ++d;
  schedule out = start(hypercube_topology(d), port_model::one_port_full_duplex,
                       {collective_kind::allgather, n, chunks, 0}, "recursive-doubling");
  for (unsigned s = 0; s < d; ++s) {
    const rank half = rank{1} << s;
    step& st = out.steps.emplace_back(step{half * chunks, {}});
    for (rank r = 0; r < n; ++r) {
      const rank partner = r ^ half;
      const rank first = r & ~(half - 1);  // r holds the blocks of its aligned group of 2^s ranks
      for (rank b = first; b < first + half; ++b) send_block(st, out.coll, b, r, partner, transfer_op::copy);
    }
  }
  return out;
}

schedule bruck_allgather(rank n, std::uint32_t chunks) {
  schedule out = start(complete_topology(n), port_model::one_port_full_duplex,
                       {collective_kind::allgather, n, chunks, 0}, "bruck");
  for (std::uint64_t reach = 1; reach < n; reach *= 2) {
    const std::uint64_t m = std::min<std::uint64_t>(reach, n - reach);
    step& st = out.steps.emplace_back(step{static_cast<std::uint32_t>(m * chunks), {}});
    for (rank r = 0; r < n; ++r)
      for (std::uint64_t b = 0; b < m; ++b)
        send_block(st, out.coll, (r + b) % n, r, static_cast<rank>((r + n - reach) % n), transfer_op::copy);
  }
  return out;
}

schedule pairwise_alltoall(rank n, std::uint32_t chunks) {
  schedule out = start(complete_topology(n), port_model::one_port_full_duplex,
                       {collective_kind::alltoall, n, chunks, 0}, "pairwise");
  for (rank s = 1; s < n; ++s) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (rank r = 0; r < n; ++r) {
      const rank to = (r + s) % n;
      send_block(st, out.coll, static_cast<std::uint64_t>(r) * n + to, r, to, transfer_op::copy);
    }
  }
  return out;
}

schedule binomial_broadcast(rank n, rank root, std::uint32_t chunks) {
  schedule out = start(complete_topology(n), port_model::one_port_full_duplex,
                       {collective_kind::broadcast, n, chunks, root}, "binomial");
  for (std::uint64_t reach = 1; reach < n; reach *= 2) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (std::uint64_t rel = 0; rel < reach && rel + reach < n; ++rel)
      send_block(st, out.coll, 0, static_cast<rank>((root + rel) % n), static_cast<rank>((root + rel + reach) % n),
                 transfer_op::copy);
  }
  return out;
}

schedule binomial_reduce(rank n, rank root, std::uint32_t chunks) {
  schedule out = start(complete_topology(n), port_model::one_port_full_duplex,
                       {collective_kind::reduce, n, chunks, root}, "binomial");
  for (std::uint64_t reach = 1; reach < n; reach *= 2) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (std::uint64_t rel = reach; rel < n; rel += 2 * reach)
      send_block(st, out.coll, 0, static_cast<rank>((root + rel) % n), static_cast<rank>((root + rel - reach) % n),
                 transfer_op::reduce);
  }
  return out;
}

schedule recursive_halving_reduce_scatter(rank n, std::uint32_t chunks) {
  if (!power_of_two(n))
    throw std::invalid_argument("recursive halving: " + std::to_string(n) + " ranks is not a power of two");
  unsigned d = 0;
  while ((rank{1} << d) < n) ++d;
  schedule out = start(hypercube_topology(d), port_model::one_port_full_duplex,
                       {collective_kind::reduce_scatter, n, chunks, 0}, "recursive-halving");
  for (rank half = n / 2; half >= 1; half /= 2) {
    step& st = out.steps.emplace_back(step{half * chunks, {}});
    for (rank r = 0; r < n; ++r) {
      const rank partner = r ^ half;
      const rank first = partner & ~(half - 1);  // the partner keeps its aligned group of `half` blocks
      for (rank b = first; b < first + half; ++b) send_block(st, out.coll, b, r, partner, transfer_op::reduce);
    }
  }
  return out;
}

schedule rabenseifner_allreduce(rank n, std::uint32_t chunks) {
  schedule out = recursive_halving_reduce_scatter(n, chunks);
  const schedule gather = recursive_doubling_allgather(n, chunks);
  out.coll.kind = collective_kind::allreduce;
  out.algorithm = "rabenseifner";
  out.steps.insert(out.steps.end(), gather.steps.begin(), gather.steps.end());
  return out;
}

schedule ring_reduce_scatter(rank n, std::uint32_t chunks) {
  schedule out = start(ring_topology(n), port_model::one_port_full_duplex,
                       {collective_kind::reduce_scatter, n, chunks, 0}, "ring");
  for (rank s = 0; s + 1 < n; ++s) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (rank r = 0; r < n; ++r) send_block(st, out.coll, (r + 2 * n - s - 1) % n, r, (r + 1) % n, transfer_op::reduce);
  }
  return out;
}

schedule ring_allreduce(rank n, std::uint32_t chunks) {
  schedule out = ring_reduce_scatter(n, chunks);
  out.coll.kind = collective_kind::allreduce;
  for (rank s = 0; s + 1 < n; ++s) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (rank r = 0; r < n; ++r) send_block(st, out.coll, (r + n - s) % n, r, (r + 1) % n, transfer_op::copy);
  }
  return out;
}

}  // namespace dancecard::collective
