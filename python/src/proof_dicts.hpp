// What the optimality proofs of the papers' models give Python: a certificate checked by checkers/ as a dict.
#pragma once

#include "bindings.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::python {

/// {kind, status, accepted, bytes, steps, detail, text}: `text` is the certificate itself (a dancecard.cp/1
/// cutting-planes derivation, or CaDiCaL's DRAT proof in text), for anyone to check again.
inline py::dict certificate_dict(const certificate_check& c) {
  using namespace pybind11::literals;
  return py::dict("kind"_a = c.kind, "status"_a = c.status, "accepted"_a = c.accepted, "bytes"_a = c.bytes,
                  "steps"_a = c.steps, "detail"_a = c.detail, "text"_a = c.text);
}

/// The one-round-below side of a dance or directed proof: {rounds, asked, answer, reason}.
template <class Existence>
py::dict below_dict(const Existence& below, std::uint64_t rounds, bool asked) {
  using namespace pybind11::literals;
  return py::dict("rounds"_a = rounds, "asked"_a = asked,
                  "answer"_a = asked ? py::object(py::str(std::string(to_string(below.answer)))) : py::none(),
                  "reason"_a = below.reason);
}

}  // namespace dancecard::python
