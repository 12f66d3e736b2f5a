// RapidCheck generators shared by dancecard's properties: numbers of people that hit the interesting cases (1, 2,
// powers of two, 2^k ± 1, primes) as well as random sizes, and valid schedules to mutate.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <ostream>
#include <vector>

#include "dancecard/core/dance/generators.hpp"

namespace dancecard::dance {
/// How RapidCheck prints an algorithm in a counterexample.
inline void showValue(dance_algorithm a, std::ostream& os) { os << name(a); }
}  // namespace dancecard::dance

namespace dancecard::properties {

/// The special sizes up to `max`: 1, 2, 2^k, 2^k ± 1, and primes.
inline std::vector<rank> special_people(rank max) {
  std::vector<rank> out{1, 2};
  for (rank p = 2; p <= max; p *= 2) {
    out.push_back(p);
    if (p + 1 <= max) out.push_back(p + 1);
    if (p > 2) out.push_back(p - 1);
  }
  for (rank q = 2; q <= max; ++q) {
    bool prime = true;
    for (rank d = 2; d * d <= q && prime; ++d) prime = q % d != 0;
    if (prime && (q < 100 || q % 97 == 0 || q > max - 50)) out.push_back(q);
  }
  out.erase(std::remove_if(out.begin(), out.end(), [max](rank v) { return v > max; }), out.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// n in [1, max], half of the time a special size. Shrinks towards small n (the special sizes are drawn by index,
/// which shrinks towards 0, because gen::elementOf does not shrink).
inline rc::Gen<rank> people(rank max) {
  const std::vector<rank> special = special_people(max);
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::inRange<std::size_t>(0, special.size()), [special](std::size_t i) { return special[i]; }),
      rc::gen::inRange<rank>(1, max + 1));
}

inline rc::Gen<dance::dance_algorithm> algorithm() {
  return rc::gen::element(dance::dance_algorithm::sequential, dance::dance_algorithm::searching,
                          dance::dance_algorithm::divide, dance::dance_algorithm::factorization);
}

/// The largest n a property tries for each algorithm (S_n has n(n-1)/2 rounds; Q_n's search is O(n^3 / 64)).
inline rank max_people(dance::dance_algorithm a) {
  switch (a) {
    case dance::dance_algorithm::sequential:
      return 300;
    case dance::dance_algorithm::searching:
      return 1200;
    case dance::dance_algorithm::divide:
      return 3000;
    case dance::dance_algorithm::factorization:
      return 3000;
  }
  return 100;
}

}  // namespace dancecard::properties
