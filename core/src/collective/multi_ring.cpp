// All-gather along every direction of d edge-disjoint Hamiltonian cycles of a d-dimensional torus: the torus paper's
// Section 3 (gossip along d edge-disjoint Hamiltonian cycles, each run both ways) in the collective model, and what
// NCCL does with several rings. Each of the 2d directed rings carries its own share of every rank's chunks, one hop a
// step for P − 1 steps; the rings use disjoint links, so every link carries its ring's share in every step and each
// rank receives over all 2d in-links at once: the rounds meet the ingress bound (P − 1)·C/(2d) of every rank.
#include <stdexcept>
#include <string>
#include <vector>

#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "generator_parts.hpp"

namespace dancecard::collective {

schedule multi_ring_allgather(const torus::network& network, std::uint32_t chunks) {
  const rank n = network.size();
  if (n > 4096)  // (P − 1)·P·C transfers: 4096 ranks and 4 chunks are already 67 million
    throw std::invalid_argument("multi-ring: " + network.name() + " has " + std::to_string(n) +
                                " ranks, more than the 4096 a schedule of every transfer is written for");
  const torus::cycle_system system = torus::hamiltonian_product_cycles(network);  // names the torus it cannot split
  const auto rings = static_cast<std::uint32_t>(2 * system.cycles.size());
  if (chunks == 0 || chunks % rings != 0)
    throw std::invalid_argument("multi-ring: the chunks per rank (" + std::to_string(chunks) +
                                ") must be a positive multiple of the " + std::to_string(rings) +
                                " directed rings of " + network.name());
  generator_parts::require_allgather_transfers("multi-ring", network.name(), n, chunks);
  const std::uint32_t share = chunks / rings;
  schedule out = generator_parts::start(torus_topology(network), port_model::all_port,
                                        {collective_kind::allgather, n, chunks, 0}, "multi-ring");
  // where each rank stands on each cycle
  std::vector<std::vector<rank>> position(system.cycles.size(), std::vector<rank>(n, n));
  for (std::size_t c = 0; c < system.cycles.size(); ++c) {
    const auto& pus = system.cycles[c].pus;
    if (pus.size() == n)
      for (std::size_t i = 0; i < n; ++i)
        if (pus[i] < n) position[c][pus[i]] = static_cast<rank>(i);
    for (rank r = 0; r < n; ++r)
      if (position[c][r] == n)
        throw std::logic_error("multi-ring: cycle " + std::to_string(c) + " of " + network.name() +
                               " is not Hamiltonian");
  }
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

}  // namespace dancecard::collective
