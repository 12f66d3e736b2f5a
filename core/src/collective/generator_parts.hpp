// What the collective generators (generators.cpp, multi_ring.cpp, rotated_doubling.cpp) share: the empty schedule of a
// valid collective, and the limit on the transfers a generator writes out one by one.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "dancecard/core/collective/schedule.hpp"

namespace dancecard::collective::generator_parts {

inline schedule start(topology network, port_model ports, collective coll, std::string algorithm) {
  require_valid(coll);
  return schedule{std::move(network), ports, coll, {}, std::move(algorithm)};
}

inline bool power_of_two(rank n) { return n != 0 && (n & (n - 1)) == 0; }

/// An all-gather of every chunk to every other rank is (n − 1)·n·C transfers, each kept in the schedule: more than
/// 2^27 is refused (std::invalid_argument naming the generator, the network and the count) before any is built.
inline void require_allgather_transfers(const char* generator, const std::string& network, rank n,
                                        std::uint32_t chunks) {
  const std::uint64_t transfers = std::uint64_t{n - 1} * n * chunks;
  if (transfers > (std::uint64_t{1} << 27))
    throw std::invalid_argument(std::string(generator) + ": " + std::to_string(transfers) + " transfers on " + network +
                                " with " + std::to_string(chunks) + " chunks per rank, more than 2^27");
}

}  // namespace dancecard::collective::generator_parts
