// The Python module's shared pieces: every check returns its report as a dict that the Python class Report wraps
// (outcome, what was checked, the count and the first witnesses, the figures, the text describe() prints).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sstream>
#include <string>

#include "dancecard/checkers/report.hpp"

namespace dancecard::python {

namespace py = pybind11;

/// The fields every report has; `witness` turns one violation into a dict; `figures` are added by the caller.
template <class Report, class Witness>
py::dict report_dict(const Report& r, const std::string& text, Witness witness) {
  py::dict out;
  out["outcome"] = std::string(to_string(r.outcome));
  out["checked"] = r.checked;
  out["violation_count"] = r.violation_count;
  py::list witnesses;
  for (const auto& v : r.witnesses) witnesses.append(witness(v));
  out["witnesses"] = witnesses;
  out["text"] = text;
  out["figures"] = py::dict();
  return out;
}

/// The text `write(stream)` writes: what every write_* function returns to Python.
template <class Write>
std::string text_of(Write&& write) {
  std::ostringstream out;
  write(out);
  return out.str();
}

void bind_collective(py::module_& m);
void bind_dance(py::module_& m);
void bind_hrel(py::module_& m);
void bind_online(py::module_& m);
void bind_torus(py::module_& m);
/// The theorem book, where the module is built with the CLI's library (DANCECARD_PYTHON_BOOK).
void bind_book(py::module_& m);

}  // namespace dancecard::python
