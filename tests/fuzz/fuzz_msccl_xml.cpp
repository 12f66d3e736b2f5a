// libFuzzer target: the MSCCL-IR XML reader, then its checker (structure, matching, the run, races, values) through
// the import, and the imported schedule through the collective checker.
#include <stdexcept>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/msccl_import.hpp"
#include "dancecard/formats/msccl_io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const dancecard::collective::msccl_program program =
        dancecard::collective::read_msccl_xml(dancecard::fuzz::text_of(data, size));
    const dancecard::collective::msccl_import_result r = dancecard::collective::import_msccl(program);
    if (r.imported) (void)dancecard::collective::check_collective_schedule(*r.imported);
  } catch (const dancecard::format_error&) {
  } catch (const std::invalid_argument&) {  // check_collective_schedule: a state above 2^31 bytes
  }
  return 0;
}
