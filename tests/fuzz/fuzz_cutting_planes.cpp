// libFuzzer target: the cutting-planes certificate checker (dancecard.cp/1), which reads and checks in one pass.
#include "dancecard/checkers/cutting_planes_check.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)dancecard::certificates::check_cutting_planes(dancecard::fuzz::text_of(data, size));
  return 0;
}
