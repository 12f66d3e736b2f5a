// libFuzzer target: the torus evidence reader (dancecard.torus-evidence/1, the catalogue's bounds and their proofs).
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/torus_evidence.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)dancecard::torus::read_torus_evidence(dancecard::fuzz::text_of(data, size));
  } catch (const dancecard::format_error&) {
  }
  return 0;
}
