// libFuzzer target: the full-duplex all-to-all reader (dancecard.directed/1), then its checker.
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const dancecard::dance::directed_schedule schedule =
        dancecard::dance::read_directed_json(dancecard::fuzz::text_of(data, size));
    (void)dancecard::dance::check_directed_schedule(schedule);
  } catch (const dancecard::format_error&) {
  }
  return 0;
}
