// libFuzzer target: an h-relation instance (dancecard.hrel/1) and a slot schedule (dancecard.hrel-schedule/1), split
// at a line "%%"; both readers, then the schedule checker in both duplex modes on what they accept for the same P
// (as `dancecard check hrel` does). Sums beyond 64-bit rationals are refused with std::overflow_error, by design.
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "fuzz_input.hpp"

#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [instance_text, schedule_text] = dancecard::fuzz::split_documents(dancecard::fuzz::text_of(data, size));
  try {
    const dancecard::hrel::hrel_instance instance = dancecard::hrel::read_hrel_instance(instance_text);
    const dancecard::hrel::hrel_schedule schedule = dancecard::hrel::read_hrel_schedule(schedule_text);
    if (schedule.pes != instance.pes()) return 0;
    (void)dancecard::hrel::check_hrel_schedule(instance, schedule, dancecard::hrel::duplex::half);
    (void)dancecard::hrel::check_hrel_schedule(instance, schedule, dancecard::hrel::duplex::full);
  } catch (const dancecard::format_error&) {
  } catch (const std::overflow_error&) {
  }
  return 0;
}
