// The h-relation instance families (seeded with std::mt19937_64, so a seed gives the same instance everywhere).
#include "dancecard/core/hrel/families.hpp"

#include <map>
#include <random>
#include <stdexcept>

namespace dancecard::hrel {

namespace {
void require_even(std::uint64_t h) {
  if (h < 2 || h % 2 != 0) throw std::invalid_argument("h must be even and at least 2 for this family");
}

// Adds packets to random pairs while both ends stay within h, until `attempts` random tries failed in a row.
hrel_instance fill(rank P, std::uint64_t h, std::uint64_t seed, const std::vector<rank>& preferred_destinations,
                   std::uint64_t preferred_share_percent) {
  if (P < 2 || h < 1) throw std::invalid_argument("need P >= 2 and h >= 1");
  std::mt19937_64 random(seed);
  std::vector<std::uint64_t> load(P, 0);
  std::map<std::pair<rank, rank>, std::uint64_t> packets;
  for (int misses = 0; misses < 64 * static_cast<int>(P);) {
    const rank a = static_cast<rank>(random() % P);
    rank b = static_cast<rank>(random() % P);
    if (!preferred_destinations.empty() && random() % 100 < preferred_share_percent)
      b = preferred_destinations[random() % preferred_destinations.size()];
    if (a == b || load[a] >= h || load[b] >= h) {
      ++misses;
      continue;
    }
    misses = 0;
    ++load[a], ++load[b];
    ++packets[{a, b}];
  }
  std::vector<hrel_message> messages;
  for (const auto& [pair, count] : packets) messages.push_back({pair.first, pair.second, count});
  return hrel_instance(P, std::move(messages));
}
}  // namespace

hrel_instance triangles(rank k, std::uint64_t h) {
  require_even(h);
  if (k == 0) throw std::invalid_argument("triangles: k must be at least 1");
  std::vector<hrel_message> messages;
  for (rank t = 0; t < k; ++t)
    for (rank i = 0; i < 3; ++i) messages.push_back({3 * t + i, 3 * t + (i + 1) % 3, h / 2});
  return hrel_instance(3 * k, std::move(messages));
}

hrel_instance triangle_copies(std::uint64_t h) { return triangles(1, h); }

hrel_instance random_relation(rank P, std::uint64_t h, std::uint64_t seed) { return fill(P, h, seed, {}, 0); }

hrel_instance skewed_relation(rank P, std::uint64_t h, std::uint64_t seed) {
  std::vector<rank> splitters;
  for (rank s = 0; s < (P + 7) / 8; ++s) splitters.push_back(static_cast<rank>((s * 8 + 3) % P));
  return fill(P, h, seed, splitters, 50);
}

hrel_instance regular_relation(rank P, std::uint64_t l, std::uint64_t extra, std::uint64_t seed) {
  if (P < 2 || l < 1) throw std::invalid_argument("regular_relation: need P >= 2 and l >= 1");
  std::mt19937_64 random(seed);
  std::map<std::pair<rank, rank>, std::uint64_t> packets;
  for (rank i = 0; i < P; ++i)
    for (rank j = i + 1; j < P; ++j) {
      const std::uint64_t up = random() % (l + 1);
      if (up > 0) packets[{i, j}] += up;
      if (l - up > 0) packets[{j, i}] += l - up;
    }
  if (extra > 0) {
    const hrel_instance rest = fill(P, extra, seed + 1, {}, 0);
    for (const hrel_message& m : rest.messages()) packets[{m.src, m.dst}] += m.packets;
  }
  std::vector<hrel_message> messages;
  for (const auto& [pair, count] : packets) messages.push_back({pair.first, pair.second, count});
  return hrel_instance(P, std::move(messages));
}

}  // namespace dancecard::hrel
