// Section 2 of the dance-party paper: the sequential schedule S_n, one dance per round in lexicographic order.
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/dance/round_counts.hpp"

namespace dancecard::dance {

dance_schedule sequential_schedule(rank n) {
  dance_schedule schedule(n);
  schedule.reserve(sequential_rounds(n), sequential_rounds(n));
  for (rank i = 0; i < n; ++i) {
    for (rank j = i + 1; j < n; ++j) {
      schedule.begin_round();
      schedule.add_dance(i, j);
    }
  }
  return schedule;
}

}  // namespace dancecard::dance
