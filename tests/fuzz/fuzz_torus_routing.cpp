// libFuzzer target: the torus routing-table reader (dancecard.torus-routing/1); tables of up to 256 PUs are then
// simulated (a larger table asks for its own work: P² bits per step, which the reader does not bound).
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const dancecard::torus::routing_table table =
        dancecard::torus::read_torus_routing(dancecard::fuzz::text_of(data, size));
    if (table.network.size() <= 256) (void)dancecard::torus::simulate_gossip(table);
  } catch (const dancecard::format_error&) {
  }
  return 0;
}
