// The paper's time bounds, exactly.
#include "dancecard/core/hrel/bounds.hpp"

#include <algorithm>
#include <stdexcept>

namespace dancecard::hrel {

namespace {
rational integer(std::uint64_t v) { return rational(static_cast<std::int64_t>(v)); }
}  // namespace

rational counting_lower_bound(const hrel_instance& instance) {
  std::uint64_t volume = 0;
  for (const hrel_message& m : instance.messages()) volume += m.packets;
  rational bound = integer(instance.h_half_duplex());
  if (instance.pes() >= 2) bound = std::max(bound, integer(volume) / integer(instance.pes() / 2));
  return bound;
}

rational triangles_lower_bound(rank k, std::uint64_t h) {
  if (k == 0 || h < 2 || h % 2 != 0) throw std::invalid_argument("triangles_lower_bound: need k >= 1 and even h >= 2");
  const std::uint64_t P = 3 * static_cast<std::uint64_t>(k);
  rational rate(0);
  for (std::uint64_t D = 0; D <= k; ++D) rate = std::max(rate, integer(D) + integer((P - 2 * D) / 2) / rational(2));
  return integer(h * P) / rational(2) / rate;
}

rational paper_triangles_bound(rank k, std::uint64_t h) {
  const std::int64_t P = 3 * static_cast<std::int64_t>(k);
  if (P % 2 == 0) return rational(6, 5) * integer(h);
  return integer(h) / (rational(5, 6) - rational(1, 2 * P));
}

rational theorem1_upper_bound(rank P, std::uint64_t h) {
  const rational base = rational(6, 5);
  return (P % 2 == 0 ? base : base + rational(2, static_cast<std::int64_t>(P))) * integer(h + 1);
}

}  // namespace dancecard::hrel
