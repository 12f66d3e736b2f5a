// The theorem book for Python: the rows of `dancecard verify`, listed or run (the GIL released while a row runs).
#include <chrono>

#include "bindings.hpp"
#include "dancecard/core/dance/schedule.hpp"  // theorem_book.hpp uses the dance namespace
#include "theorem_book.hpp"

namespace dancecard::python {

using namespace pybind11::literals;

namespace {

std::vector<const claim*> selected(const theorem_book& book, const std::string& only) {
  std::vector<const claim*> out;
  for (const claim& c : book.claims())
    if (only.empty() || c.id.rfind(only, 0) == 0) out.push_back(&c);  // a module is the prefix of its rows' ids
  if (out.empty()) throw py::value_error("only: no claim matches '" + only + "'");
  return out;
}

py::dict row(const claim& c) {
  return py::dict("id"_a = c.id, "paper"_a = c.paper, "section"_a = c.section, "statement"_a = c.statement,
                  "method"_a = std::string(to_string(c.method)));
}

}  // namespace

void bind_book(py::module_& m) {
  m.def(
      "verify_list",
      [](const std::string& only) {
        const theorem_book book = make_theorem_book();
        py::list out;
        for (const claim* c : selected(book, only)) out.append(row(*c));
        return out;
      },
      "only"_a = "", "the theorem book's rows (a module such as 'dance' or a row id prefix selects some)");
  m.def(
      "verify",
      [](const std::string& only) {
        const theorem_book book = make_theorem_book();
        py::list out;
        for (const claim* c : selected(book, only)) {
          claim_result r;
          const auto start = std::chrono::steady_clock::now();
          {
            py::gil_scoped_release release;
            r = c->check();
          }
          py::dict d = row(*c);
          d["verdict"] = std::string(to_string(r.outcome));
          d["covered"] = r.covered;
          d["evidence"] = r.evidence;
          d["certificate"] = r.certificate;
          d["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          out.append(d);
        }
        return out;
      },
      "only"_a = "", "runs the theorem book's rows (all, or a module or row id prefix); a list of dicts");
}

}  // namespace dancecard::python
