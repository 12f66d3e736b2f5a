// dancecard._dancecard: the C++ library for Python (pybind11). The package dancecard (python/dancecard/__init__.py)
// re-exports it with the Report class and the property helpers; see docs/python.md.
#include "bindings.hpp"
#include "dancecard/formats/format_error.hpp"

PYBIND11_MODULE(_dancecard, m) {
  namespace py = pybind11;
  m.doc() = "dancecard: check, generate and prove communication schedules of collective operations";
  // A malformed file or value: ValueError whose message names the place ("steps[3].transfers[7].chunk: ...").
  py::register_exception<dancecard::format_error>(m, "FormatError", PyExc_ValueError);
  dancecard::python::bind_collective(m);
  dancecard::python::bind_dance(m);
  dancecard::python::bind_hrel(m);
  dancecard::python::bind_online(m);
  dancecard::python::bind_torus(m);
#ifdef DANCECARD_PYTHON_BOOK
  dancecard::python::bind_book(m);
#endif
}
