// All-gather along every direction of d edge-disjoint Hamiltonian cycles of a d-dimensional torus: the torus paper's
// Section 3 (gossip along d edge-disjoint Hamiltonian cycles, each run both ways) in the collective model, and what
// NCCL does with several rings. Each of the 2d directed rings carries its own share of every rank's chunks, one hop a
// step for P − 1 steps; the rings use disjoint links, so every link carries its ring's share in every step and each
// rank receives over all 2d in-links at once: the rounds meet the ingress bound (P − 1)·C/(2d) of every rank.
// The bidirectional variant sends every chunk both ways round its cycle, about half the ring each way (NCCL's and
// MPI's bidirectional rings): the same links as busy, in half the steps.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "generator_parts.hpp"

namespace dancecard::collective {

namespace {

// The torus's edge-disjoint Hamiltonian cycles and where each rank stands on each, for the generator `name`.
struct ring_system {
  torus::cycle_system system;
  std::vector<std::vector<rank>> position;  // [cycle][rank]: its index on the cycle
};
ring_system hamiltonian_rings(const char* name, const torus::network& network) {
  const rank n = network.size();
  if (n > 4096)  // (P − 1)·P·C transfers: 4096 ranks and 4 chunks are already 67 million
    throw std::invalid_argument(std::string(name) + ": " + network.name() + " has " + std::to_string(n) +
                                " ranks, more than the 4096 a schedule of every transfer is written for");
  ring_system out{torus::hamiltonian_product_cycles(network), {}};  // names the torus it cannot split
  out.position.assign(out.system.cycles.size(), std::vector<rank>(n, n));
  for (std::size_t c = 0; c < out.system.cycles.size(); ++c) {
    const auto& pus = out.system.cycles[c].pus;
    if (pus.size() == n)
      for (std::size_t i = 0; i < n; ++i)
        if (pus[i] < n) out.position[c][pus[i]] = static_cast<rank>(i);
    for (rank r = 0; r < n; ++r)
      if (out.position[c][r] == n)
        throw std::logic_error(std::string(name) + ": cycle " + std::to_string(c) + " of " + network.name() +
                               " is not Hamiltonian");
  }
  return out;
}

}  // namespace

schedule multi_ring_allgather(const torus::network& network, std::uint32_t chunks) {
  const rank n = network.size();
  const ring_system rs = hamiltonian_rings("multi-ring", network);
  const torus::cycle_system& system = rs.system;
  const auto& position = rs.position;
  const auto rings = static_cast<std::uint32_t>(2 * system.cycles.size());
  if (chunks == 0 || chunks % rings != 0)
    throw std::invalid_argument("multi-ring: the chunks per rank (" + std::to_string(chunks) +
                                ") must be a positive multiple of the " + std::to_string(rings) +
                                " directed rings of " + network.name());
  generator_parts::require_allgather_transfers("multi-ring", network.name(), n, chunks);
  const std::uint32_t share = chunks / rings;
  schedule out = generator_parts::start(torus_topology(network), port_model::all_port,
                                        {collective_kind::allgather, n, chunks, 0}, "multi-ring");
  // In step s rank r forwards, on each ring, the share of the rank s places behind it (its own in step 0).
  for (rank s = 0; s + 1 < n; ++s) {
    step& st = out.steps.emplace_back(step{share, {}});
    st.transfers.reserve(static_cast<std::size_t>(n) * chunks);
    for (std::uint32_t ring = 0; ring < rings; ++ring) {
      const auto& pus = system.cycles[ring / 2].pus;
      const bool forward = ring % 2 == 0;
      for (rank r = 0; r < n; ++r) {
        const rank i = position[ring / 2][r];
        const rank next = pus[forward ? (i + 1) % n : (i + n - 1) % n];
        const rank origin = pus[forward ? (i + n - s) % n : (i + s) % n];
        for (std::uint32_t q = 0; q < share; ++q)
          st.transfers.push_back(
              {static_cast<std::uint64_t>(origin) * chunks + ring * share + q, r, next, transfer_op::copy});
      }
    }
  }
  return out;
}

schedule bidirectional_multi_ring_allgather(const torus::network& network, std::uint32_t chunks) {
  const rank n = network.size();
  const ring_system rs = hamiltonian_rings("bidirectional-multi-ring", network);
  const auto cycles = static_cast<std::uint32_t>(rs.system.cycles.size());
  // An even P leaves an odd P − 1 hops: half a cycle's chunks go the longer half forwards, half backwards.
  const std::uint32_t unit = n % 2 == 0 ? 2 * cycles : cycles;
  if (chunks == 0 || chunks % unit != 0)
    throw std::invalid_argument("bidirectional-multi-ring: the chunks per rank (" + std::to_string(chunks) +
                                ") must be a positive multiple of " + std::to_string(unit) + " on " + network.name() +
                                " (" + std::to_string(cycles) + " cycles" + (n % 2 == 0 ? ", P even)" : ")"));
  generator_parts::require_allgather_transfers("bidirectional-multi-ring", network.name(), n, chunks);
  const std::uint32_t share = chunks / cycles;  // a cycle's chunks of every rank
  // chunk j of a cycle's share: forward hops[j], backward n − 1 − hops[j]
  std::vector<rank> hops(share);
  for (std::uint32_t j = 0; j < share; ++j) hops[j] = j % 2 == 0 ? n / 2 : (n - 1) / 2;
  schedule out = generator_parts::start(torus_topology(network), port_model::all_port,
                                        {collective_kind::allgather, n, chunks, 0}, "bidirectional-multi-ring");
  // In step s rank r forwards, each way round each cycle, the chunks of the rank s places behind it that go further.
  for (rank s = 0; s < n / 2; ++s) {
    std::uint32_t forward_count = 0, backward_count = 0;
    for (rank h : hops) {
      forward_count += h > s;
      backward_count += n - 1 - h > s;
    }
    step& st = out.steps.emplace_back(step{std::max(forward_count, backward_count), {}});
    st.transfers.reserve(static_cast<std::size_t>(n) * cycles * (forward_count + backward_count));
    for (std::uint32_t c = 0; c < cycles; ++c) {
      const auto& pus = rs.system.cycles[c].pus;
      for (rank r = 0; r < n; ++r) {
        const rank i = rs.position[c][r];
        const rank ahead = pus[(i + 1) % n], behind = pus[(i + n - 1) % n];
        const rank from_behind = pus[(i + n - s) % n], from_ahead = pus[(i + s) % n];
        for (std::uint32_t j = 0; j < share; ++j) {
          if (hops[j] > s)
            st.transfers.push_back(
                {static_cast<std::uint64_t>(from_behind) * chunks + c * share + j, r, ahead, transfer_op::copy});
          if (n - 1 - hops[j] > s)
            st.transfers.push_back(
                {static_cast<std::uint64_t>(from_ahead) * chunks + c * share + j, r, behind, transfer_op::copy});
        }
      }
    }
  }
  return out;
}

}  // namespace dancecard::collective
