// libFuzzer target: a DIMACS formula and a DRAT proof (text or binary, told apart by its first bytes), split at a
// line "%%"; checked with every deletion honoured and with unit deletions ignored. The checker never throws: bad
// input is a malformed report. Built twice, with text and with binary seeds (fuzz_drat_text, fuzz_drat_binary).
#include "dancecard/checkers/drat_check.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [cnf, proof] = dancecard::fuzz::split_documents(dancecard::fuzz::text_of(data, size));
  (void)dancecard::certificates::check_drat(cnf, proof);
  (void)dancecard::certificates::check_drat(cnf, proof,
                                            dancecard::certificates::drat_options{.ignore_unit_deletions = true});
  return 0;
}
