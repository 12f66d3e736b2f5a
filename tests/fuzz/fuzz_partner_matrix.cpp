// libFuzzer target: the partner-matrix text reader (the dance paper's notation), then the checker.
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const dancecard::dance::partner_matrix matrix =
        dancecard::dance::read_partner_matrix(dancecard::fuzz::text_of(data, size));
    (void)dancecard::dance::check_partner_matrix(matrix);
  } catch (const dancecard::format_error&) {
  }
  return 0;
}
