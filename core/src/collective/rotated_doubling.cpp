// All-gather on the all-port hypercube by recursive doubling along D rotated orders of the dimensions: the D rotated
// spanning binomial trees of Johnsson and Ho ("Optimum broadcasting and personalized communication in hypercubes",
// IEEE Transactions on Computers 38(9), 1989) in the collective model. Every rank's chunks are split into D pieces;
// piece j doubles along dimensions j, j + 1, …, j + D − 1 (mod D). In step k the pieces use the D dimensions one each,
// so every link carries one piece of the 2^k ranks its sender has gathered: D steps of 2^k·C/D rounds,
// R = (2^D − 1)·C/D, and R/C is every rank's ingress bound ((2^D − 1)·C chunks over D in-links) in the least steps D,
// the diameter.
#include <stdexcept>
#include <string>

#include "dancecard/core/collective/generators.hpp"
#include "generator_parts.hpp"

namespace dancecard::collective {

schedule rotated_doubling_allgather(rank n, std::uint32_t chunks) {
  if (n < 2 || !generator_parts::power_of_two(n) || n > 4096)
    throw std::invalid_argument("rotated doubling: the ranks of a hypercube, a power of two 2 … 4096, not " +
                                std::to_string(n));
  unsigned dims = 0;
  while ((rank{1} << dims) < n) ++dims;
  if (chunks == 0 || chunks % dims != 0)
    throw std::invalid_argument("rotated doubling: the chunks per rank (" + std::to_string(chunks) +
                                ") must be a positive multiple of the " + std::to_string(dims) +
                                " dimensions of hypercube:" + std::to_string(dims));
  generator_parts::require_allgather_transfers("rotated doubling", "hypercube:" + std::to_string(dims), n, chunks);
  const std::uint32_t share = chunks / dims;
  schedule out = generator_parts::start(hypercube_topology(dims), port_model::all_port,
                                        {collective_kind::allgather, n, chunks, 0}, "rotated-doubling");
  for (unsigned k = 0; k < dims; ++k) {
    step& st = out.steps.emplace_back(step{(std::uint32_t{1} << k) * share, {}});
    st.transfers.reserve((std::size_t{1} << k) * n * chunks);
    for (unsigned piece = 0; piece < dims; ++piece) {
      // The dimensions piece `piece` used before step k, and the one it uses now.
      rank used = 0;
      for (unsigned i = 0; i < k; ++i) used |= rank{1} << ((piece + i) % dims);
      const rank across = rank{1} << ((piece + k) % dims);
      for (rank r = 0; r < n; ++r)
        // r holds piece `piece` of the ranks that differ from it in the used dimensions only (sub: every subset)
        for (rank sub = used;; sub = (sub - 1) & used) {
          const rank origin = r ^ sub;
          for (std::uint32_t q = 0; q < share; ++q)
            st.transfers.push_back(
                {std::uint64_t{origin} * chunks + piece * share + q, r, r ^ across, transfer_op::copy});
          if (sub == 0) break;
        }
    }
  }
  return out;
}

}  // namespace dancecard::collective
