// libFuzzer target: the dance schedule reader (dancecard.dance/1), then the checker on what it accepts. A reader
// refuses with format_error and nothing else; the checker reports, it never throws.
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const dancecard::dance::dance_schedule schedule =
        dancecard::dance::read_dance_json(dancecard::fuzz::text_of(data, size));
    (void)dancecard::dance::check_dance_schedule(schedule);
  } catch (const dancecard::format_error&) {
  }
  return 0;
}
