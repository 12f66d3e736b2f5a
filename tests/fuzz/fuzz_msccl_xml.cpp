// libFuzzer target: the MSCCL-IR XML reader, then its checker (structure, matching, the run, races, values).
#include "dancecard/checkers/msccl_check.hpp"
#include "dancecard/formats/msccl_io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const dancecard::collective::msccl_program program =
        dancecard::collective::read_msccl_xml(dancecard::fuzz::text_of(data, size));
    (void)dancecard::collective::check_msccl_program(program);
  } catch (const dancecard::format_error&) {
  }
  return 0;
}
