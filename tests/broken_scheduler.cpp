// A deliberately broken scheduler, run by the property-test CLI tests: `broken_scheduler BUG N` prints G_N as JSON,
// damaged according to BUG — the kinds of mistakes real schedulers make. `broken_scheduler torus-rings DIMS` prints a
// torus routing table whose PUs forward straight on (a ring per line: gossip never completes in 2-D and up), and
// `broken_scheduler torus-wrong-size DIMS` one for n_1 + 1.
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "dancecard/core/dance/generators.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/torus_io.hpp"

using namespace dancecard;
using namespace dancecard::dance;
using namespace dancecard::torus;

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const std::string bug = argv[1];
  if (bug == "torus-rings" || bug == "torus-wrong-size") {
    torus::network t = torus::network::parse(argv[2]);
    if (bug == "torus-wrong-size") {
      std::vector<std::uint32_t> dims = t.dims();
      ++dims[0];
      t = torus::network(dims);
    }
    std::vector<std::uint32_t> partner(static_cast<std::size_t>(t.size()) * t.ports());
    for (std::size_t i = 0; i < partner.size(); ++i)
      partner[i] = torus::network::opposite(static_cast<std::uint32_t>(i % t.ports()));
    write_torus_routing(std::cout, pairing_table(t, partner, packets_per_pu::one), bug);
    return 0;
  }
  const rank n = static_cast<rank>(std::stoul(argv[2]));
  const dance_schedule good = factorization_schedule(n);
  dance_schedule out(n);
  const bool power_plus_one = n >= 3 && ((n - 1) & (n - 2)) == 0;
  if (bug == "crash-at-13" && n == 13) std::abort();
  if (bug == "hang-at-6" && n == 6) std::this_thread::sleep_for(std::chrono::hours(1));
  if (bug == "garbage-at-4" && n == 4) {
    std::cout << "schedule: 0-1, 2-3\n";
    return 0;
  }
  const std::size_t rounds = bug == "off-by-one-round" && good.rounds() > 0 ? good.rounds() - 1 : good.rounds();
  for (std::size_t r = 0; r < rounds; ++r) {
    out.begin_round();
    auto round = good.round(r);
    for (std::size_t k = 0; k < round.size(); ++k) {
      couple d = round[k];
      // A wrong partner for odd n >= 7: in round 0 the first two dances swap partners.
      if (bug == "wrong-partner-odd" && n >= 7 && n % 2 == 1 && r == 0 && k < 2) d.second = round[1 - k].second;
      out.add_dance(d.first, d.second);
    }
  }
  if (bug == "repeat-at-2k+1" && power_plus_one) {
    out.begin_round();
    out.add_dance(good.round(0)[0].first, good.round(0)[0].second);
  }
  write_dance_json(std::cout, out, "broken");
}
