// libFuzzer target: the collective schedule reader (dancecard.collective/1), then its checker.
#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/formats/collective_io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const dancecard::collective::schedule schedule =
        dancecard::collective::read_collective_schedule(dancecard::fuzz::text_of(data, size));
    (void)dancecard::collective::check_collective_schedule(schedule);
  } catch (const dancecard::format_error&) {
  } catch (const std::invalid_argument&) {  // a state beyond the checker's 2 GiB: refused by name, as the CLI says
  }
  return 0;
}
