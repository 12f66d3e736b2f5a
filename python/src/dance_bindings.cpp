// Dance schedules for Python: a schedule is an int array rounds × pairs × 2 (NumPy, or nested lists), −1 pairs padding
// shorter rounds; the generators of the dance-party paper and its checker.
#include <pybind11/numpy.h>

#include "bindings.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/core/dance/generators.hpp"

namespace dancecard::python {

using namespace pybind11::literals;
using namespace dancecard::dance;

namespace {

dance_schedule from_array(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& dances,
                          rank people) {
  if (dances.ndim() != 3 || dances.shape(2) != 2)
    throw py::value_error("dances: expected an array rounds × pairs × 2, got " + std::to_string(dances.ndim()) +
                          " dimensions");
  if (people < 1) throw py::value_error("people: at least 1");
  const auto d = dances.unchecked<3>();
  dance_schedule s(people);
  for (py::ssize_t r = 0; r < d.shape(0); ++r) {
    s.begin_round();
    for (py::ssize_t p = 0; p < d.shape(1); ++p) {
      const std::int64_t a = d(r, p, 0), b = d(r, p, 1);
      if (a == -1 && b == -1) continue;  // padding
      if (a < 0 || b < 0 || a >= people || b >= people)
        throw py::value_error("dances[" + std::to_string(r) + "][" + std::to_string(p) + "]: (" + std::to_string(a) +
                              ", " + std::to_string(b) + ") names someone outside 0 … " + std::to_string(people - 1));
      s.add_dance(static_cast<rank>(a), static_cast<rank>(b));
    }
  }
  return s;
}

py::array_t<std::int64_t> to_array(const dance_schedule& s) {
  std::size_t widest = 0;
  for (std::size_t r = 0; r < s.rounds(); ++r) widest = std::max(widest, s.round(r).size());
  py::array_t<std::int64_t> out(
      {static_cast<py::ssize_t>(s.rounds()), static_cast<py::ssize_t>(widest), py::ssize_t{2}});
  auto o = out.mutable_unchecked<3>();
  for (std::size_t r = 0; r < s.rounds(); ++r) {
    const auto round = s.round(r);
    for (std::size_t p = 0; p < widest; ++p) {
      const bool real = p < round.size();
      o(static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(p), 0) =
          real ? static_cast<std::int64_t>(round[p].first) : -1;
      o(static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(p), 1) =
          real ? static_cast<std::int64_t>(round[p].second) : -1;
    }
  }
  return out;
}

}  // namespace

void bind_dance(py::module_& m) {
  m.def(
      "generate_dance",
      [](const std::string& algorithm, rank people) {
        const auto a = parse_dance_algorithm(algorithm);
        if (!a) throw py::value_error("algorithm: expected sequential, searching, divide or factorization");
        return to_array(generate(*a, people));
      },
      "algorithm"_a, "people"_a, "a dance schedule of the dance-party paper as an array rounds × pairs × 2");
  m.def(
      "check_dance_schedule",
      [](const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& dances, rank people,
         std::size_t max_witnesses) {
        const dance_schedule s = from_array(dances, people);
        dance_report r;
        {
          py::gil_scoped_release release;
          dance_requirements req;
          req.max_witnesses = max_witnesses;
          r = check_dance_schedule(s, req);
        }
        py::dict out = report_dict(r, describe(r), [](const dance_violation& v) {
          return py::dict("kind"_a = std::string(to_string(v.kind)), "a"_a = v.a, "b"_a = v.b, "c"_a = v.c,
                          "round"_a = v.round, "other_round"_a = v.other_round, "text"_a = describe(v));
        });
        py::dict f = out["figures"];
        f["people"] = s.people();
        f["rounds"] = s.rounds();
        f["dances"] = s.dance_count();
        return out;
      },
      "dances"_a, "people"_a, "max_witnesses"_a = 10,
      "checks that every pair dances exactly once and nobody twice in a round (the dance-party paper's (i)–(iii))");
}

}  // namespace dancecard::python
