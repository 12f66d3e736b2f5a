// Dance schedules for Python: a schedule is an int array rounds × pairs × 2 (NumPy int32 or int64 read in place, or
// nested lists), −1 pairs padding shorter rounds; the generators of the dance-party paper, its checker, the partner
// matrix (an n × t array of 1-based entries), the directed schedules (rounds of (from, to)), their formats and optima.
#include <pybind11/numpy.h>

#include <algorithm>
#include <vector>

#include "bindings.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/smt/directed.hpp"
#include "dancecard/smt/optimality.hpp"
#include "interrupt.hpp"
#include "proof_dicts.hpp"

namespace dancecard::python {

using namespace pybind11::literals;
using namespace dancecard::dance;

namespace {

// The rows of a C-contiguous array rounds × pairs × 2 of T, read in place (no conversion, no copy of the array).
template <class T>
dance_schedule from_rows(const T* data, py::ssize_t rounds, py::ssize_t pairs, rank people) {
  dance_schedule s(people);
  s.reserve(static_cast<std::size_t>(rounds), static_cast<std::size_t>(rounds * pairs));
  for (py::ssize_t r = 0; r < rounds; ++r) {
    s.begin_round();
    const T* row = data + r * pairs * 2;
    for (py::ssize_t p = 0; p < pairs; ++p) {
      const T a = row[2 * p], b = row[2 * p + 1];
      if (a == -1 && b == -1) continue;  // padding
      if (a < 0 || b < 0 || static_cast<std::uint64_t>(a) >= people || static_cast<std::uint64_t>(b) >= people)
        throw py::value_error("dances[" + std::to_string(r) + "][" + std::to_string(p) + "]: (" + std::to_string(a) +
                              ", " + std::to_string(b) + ") names someone outside 0 … " + std::to_string(people - 1));
      s.add_dance(static_cast<rank>(a), static_cast<rank>(b));
    }
  }
  return s;
}

// An int32 or int64 C-contiguous array is read as it is; anything else (lists, other types, strides) converted first.
dance_schedule from_array(const py::object& dances, rank people) {
  if (people < 1) throw py::value_error("people: at least 1");
  py::array array = py::array::ensure(dances);
  if (!array) throw py::value_error("dances: expected an array rounds × pairs × 2");
  const bool contiguous = (array.flags() & py::array::c_style) != 0;
  if (!contiguous ||
      (!py::isinstance<py::array_t<std::int32_t>>(array) && !py::isinstance<py::array_t<std::int64_t>>(array)))
    array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(dances);
  if (!array) throw py::value_error("dances: expected an integer array rounds × pairs × 2");
  if (array.ndim() != 3 || array.shape(2) != 2)
    throw py::value_error("dances: expected an array rounds × pairs × 2, got " + std::to_string(array.ndim()) +
                          " dimensions");
  if (py::isinstance<py::array_t<std::int32_t>>(array))
    return from_rows(static_cast<const std::int32_t*>(array.data()), array.shape(0), array.shape(1), people);
  return from_rows(static_cast<const std::int64_t*>(array.data()), array.shape(0), array.shape(1), people);
}

py::array_t<std::int32_t> to_array(const dance_schedule& s) {
  std::size_t widest = 0;
  for (std::size_t r = 0; r < s.rounds(); ++r) widest = std::max(widest, s.round(r).size());
  py::array_t<std::int32_t> out(
      {static_cast<py::ssize_t>(s.rounds()), static_cast<py::ssize_t>(widest), py::ssize_t{2}});
  auto o = out.mutable_unchecked<3>();
  for (std::size_t r = 0; r < s.rounds(); ++r) {
    const auto round = s.round(r);
    for (std::size_t p = 0; p < widest; ++p) {
      const bool real = p < round.size();
      o(static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(p), 0) =
          real ? static_cast<std::int32_t>(round[p].first) : -1;
      o(static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(p), 1) =
          real ? static_cast<std::int32_t>(round[p].second) : -1;
    }
  }
  return out;
}

// Rounds of (from, to) transfers, as lists or tuples, into a directed schedule of `people` ranks (ValueError naming
// the place when a rank is out of range).
directed_schedule directed_of(const std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>>& rounds,
                              rank people) {
  if (people < 1) throw py::value_error("people: at least 1");
  directed_schedule s(people);
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    s.begin_round();
    for (std::size_t t = 0; t < rounds[r].size(); ++t) {
      const auto [from, to] = rounds[r][t];
      if (from < 0 || to < 0 || from >= people || to >= people)
        throw py::value_error("rounds[" + std::to_string(r) + "][" + std::to_string(t) + "]: (" + std::to_string(from) +
                              ", " + std::to_string(to) + ") names a rank outside 0 … " + std::to_string(people - 1));
      s.add_transfer(static_cast<rank>(from), static_cast<rank>(to));
    }
  }
  return s;
}

py::list rounds_of(const directed_schedule& s) {
  py::list rounds;
  for (std::size_t k = 0; k < s.rounds(); ++k) {
    py::list round;
    for (const transfer& t : s.round(k)) round.append(py::make_tuple(t.from, t.to));
    rounds.append(round);
  }
  return rounds;
}

// An n × t array of 1-based partner entries (a person's own number when idle) as a partner matrix.
partner_matrix matrix_of(const py::object& entries) {
  const auto array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(entries);
  if (!array || array.ndim() != 2) throw py::value_error("matrix: expected an integer array people × rounds");
  const auto people = array.shape(0), rounds = array.shape(1);
  if (people < 1 || people > UINT32_MAX) throw py::value_error("matrix: at least one row (person)");
  partner_matrix m(static_cast<rank>(people), static_cast<std::size_t>(rounds));
  const auto a = array.unchecked<2>();
  for (py::ssize_t i = 0; i < people; ++i)
    for (py::ssize_t r = 0; r < rounds; ++r) {
      const std::int64_t v = a(i, r);
      if (v < 0 || v > UINT32_MAX)
        throw py::value_error("matrix[" + std::to_string(i) + "][" + std::to_string(r) + "]: " + std::to_string(v) +
                              " is not a person's number");
      m.set(static_cast<rank>(i + 1), static_cast<std::size_t>(r + 1), static_cast<std::uint32_t>(v));
    }
  return m;
}

py::dict dance_report_dict(const dance_report& r, std::uint64_t people, std::uint64_t rounds, std::uint64_t dances) {
  py::dict out = report_dict(r, describe(r), [](const dance_violation& v) {
    return py::dict("kind"_a = std::string(to_string(v.kind)), "a"_a = v.a, "b"_a = v.b, "c"_a = v.c,
                    "round"_a = v.round, "other_round"_a = v.other_round, "text"_a = describe(v));
  });
  py::dict f = out["figures"];
  f["people"] = people;
  f["rounds"] = rounds;
  f["dances"] = dances;
  return out;
}

optimality_options proof_options(unsigned timeout_ms, bool solve_below, unsigned clausal_budget_ms,
                                 std::uint64_t clausal_max_clauses) {
  optimality_options o;
  o.timeout_ms = timeout_ms;
  o.solve_below_when_certified = solve_below;
  o.clausal_budget_ms = clausal_budget_ms;
  o.max_clausal_clauses = clausal_max_clauses;
  o.cancel = &interrupted;
  return o;
}

// The fields both optimum proofs share; `witness` is added by the caller.
template <class Result>
py::dict optimum_dict(const Result& r) {
  py::list certificates;
  if (r.certificate) certificates.append(certificate_dict(*r.certificate));
  if (r.clausal) certificates.append(certificate_dict(*r.clausal));
  return py::dict("status"_a = std::string(to_string(r.status)), "n"_a = r.n, "rounds"_a = r.claimed,
                  "reason"_a = r.reason, "below"_a = below_dict(r.below_claimed, r.claimed - 1, r.solver_below),
                  "certificates"_a = certificates, "seconds"_a = r.seconds);
}

// prove_dance and prove_directed: the same arguments, the same result but for the witness's form.
template <class Prove, class Witness>
void def_optimum(py::module_& m, const char* name, Prove prove, Witness witness, const char* doc) {
  m.def(
      name,
      [prove, witness](rank n, unsigned timeout_ms, bool solve_below, unsigned clausal_budget_ms,
                       std::uint64_t clausal_max_clauses) {
        if (n < 2 || n > 200) throw py::value_error("n: 2 to 200 (as dancecard prove takes), got " + std::to_string(n));
        decltype(prove(n, optimality_options{})) r;
        {
          interrupt_guard guard;
          py::gil_scoped_release release;
          r = prove(n, proof_options(timeout_ms, solve_below, clausal_budget_ms, clausal_max_clauses));
        }
        py::dict out = optimum_dict(r);
        out["witness"] = r.at_claimed.witness ? witness(r.at_claimed.witness->schedule()) : py::none();
        return out;
      },
      "n"_a, "timeout_ms"_a = 60'000, "solve_below"_a = false, "clausal_budget_ms"_a = 1'000,
      "clausal_max_clauses"_a = 10'000, doc);
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
      [](const py::object& dances, rank people, std::size_t max_witnesses) {
        dance_requirements req;
        req.max_witnesses = max_witnesses;
        dance_report r;
        std::uint64_t rounds = 0, count = 0;
        // An int32 C-contiguous array with every round full is the checker's own layout (a couple is two 32-bit
        // ranks): checked in place, each round's ranks as the checker reaches it; anything else, and an array with a
        // rank out of range, is copied into a dance_schedule (whose construction names the bad rank).
        static_assert(sizeof(couple) == 2 * sizeof(std::int32_t) && alignof(couple) <= alignof(std::int32_t));
        const py::array array = py::array::ensure(dances);
        if (array && array.ndim() == 3 && array.shape(2) == 2 && (array.flags() & py::array::c_style) != 0 &&
            py::isinstance<py::array_t<std::int32_t>>(array) && people >= 1) {
          const auto* ranks = static_cast<const std::int32_t*>(array.data());
          const auto size = static_cast<std::size_t>(array.size());
          std::vector<std::size_t> offsets(static_cast<std::size_t>(array.shape(0)) + 1);
          for (std::size_t k = 0; k < offsets.size(); ++k) offsets[k] = k * static_cast<std::size_t>(array.shape(1));
          // A negative rank reads as a large one: out of range like any rank >= people.
          const dance_schedule_view view(people, {reinterpret_cast<const couple*>(ranks), size / 2}, offsets);
          std::optional<dance_report> checked;
          {
            py::gil_scoped_release release;
            checked = check_dance_schedule_unvalidated(view, req);
          }
          if (checked) {  // else a rank out of range: the copy below names it
            r = std::move(*checked);
            rounds = view.rounds();
            count = view.dance_count();
          }
        }
        if (rounds == 0 && count == 0) {
          const dance_schedule s = from_array(dances, people);
          {
            py::gil_scoped_release release;
            r = check_dance_schedule(s, req);
          }
          rounds = s.rounds();
          count = s.dance_count();
        }
        return dance_report_dict(r, people, rounds, count);
      },
      "dances"_a, "people"_a, "max_witnesses"_a = 10,
      "checks that every pair dances exactly once and nobody twice in a round (the dance-party paper's (i)–(iii))");
  m.def(
      "read_dance_json",
      [](const std::string& text) {
        const dance_schedule s = read_dance_json(text);
        return py::dict("people"_a = s.people(), "dances"_a = to_array(s));
      },
      "text"_a, "dancecard.dance/1 as {people, dances: an int32 array rounds × pairs × 2}");
  m.def(
      "write_dance_json",
      [](const py::object& dances, rank people, const std::string& algorithm) {
        const dance_schedule s = from_array(dances, people);
        return text_of([&](std::ostream& out) { write_dance_json(out, s, algorithm); });
      },
      "dances"_a, "people"_a, "algorithm"_a = "");
  m.def(
      "read_partner_matrix",
      [](const std::string& text) {
        const partner_matrix mx = read_partner_matrix(text);
        py::array_t<std::uint32_t> out({static_cast<py::ssize_t>(mx.people()), static_cast<py::ssize_t>(mx.rounds())});
        std::copy(mx.entries().begin(), mx.entries().end(), out.mutable_data());
        return out;
      },
      "text"_a, "the paper's partner matrix as a uint32 array people × rounds of 1-based entries");
  m.def(
      "write_partner_matrix",
      [](const py::object& matrix) {
        const partner_matrix mx = matrix_of(matrix);
        return text_of([&](std::ostream& out) { write_partner_matrix(out, mx); });
      },
      "matrix"_a);
  m.def(
      "check_partner_matrix",
      [](const py::object& matrix, std::size_t max_witnesses) {
        const partner_matrix mx = matrix_of(matrix);
        dance_requirements req;
        req.max_witnesses = max_witnesses;
        dance_report r;
        {
          py::gil_scoped_release release;
          r = check_partner_matrix(mx, req);
        }
        std::uint64_t busy = 0;  // entries naming another person: twice the dances of a symmetric matrix
        for (rank i = 1; i <= mx.people(); ++i)
          for (std::size_t t = 1; t <= mx.rounds(); ++t) busy += mx.at(i, t) != i;
        return dance_report_dict(r, mx.people(), mx.rounds(), busy / 2);
      },
      "matrix"_a, "max_witnesses"_a = 10, "entries in range and symmetric (iii), then (i) and (ii)");
  m.def(
      "read_directed_json",
      [](const std::string& text) {
        const directed_schedule s = read_directed_json(text);
        return py::dict("people"_a = s.people(), "rounds"_a = rounds_of(s));
      },
      "text"_a, "dancecard.directed/1 as {people, rounds: lists of (from, to)}");
  m.def(
      "write_directed_json",
      [](const std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>>& rounds, rank people,
         const std::string& algorithm) {
        const directed_schedule s = directed_of(rounds, people);
        return text_of([&](std::ostream& out) { write_directed_json(out, s, algorithm); });
      },
      "rounds"_a, "people"_a, "algorithm"_a = "");
  m.def(
      "check_directed_schedule",
      [](const std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>>& rounds, rank people,
         std::size_t max_witnesses) {
        const directed_schedule s = directed_of(rounds, people);
        directed_report r;
        {
          py::gil_scoped_release release;
          r = check_directed_schedule(s, max_witnesses);
        }
        py::dict out = report_dict(r, describe(r), [](const directed_violation& v) {
          return py::dict("kind"_a = std::string(to_string(v.kind)), "a"_a = v.a, "b"_a = v.b, "c"_a = v.c,
                          "round"_a = v.round, "other_round"_a = v.other_round, "text"_a = describe(v));
        });
        py::dict f = out["figures"];
        f["people"] = people;
        f["rounds"] = s.rounds();
        f["transfers"] = s.transfer_count();
        return out;
      },
      "rounds"_a, "people"_a, "max_witnesses"_a = 10,
      "full duplex: every ordered pair once, each rank sends and receives at most once per round");
  def_optimum(
      m, "prove_dance", [](rank n, const optimality_options& o) { return prove_dance_optimum(n, o); },
      [](const dance_schedule& s) { return py::object(to_array(s)); },
      "T(n) rounds optimal: a witness the checker accepted, and T(n) - 1 refuted by a checked cutting-planes "
      "certificate (and a checked DRAT proof where CaDiCaL finds one; Z3's answer too with solve_below)");
  def_optimum(
      m, "prove_directed", [](rank n, const optimality_options& o) { return prove_directed_optimum(n, o); },
      [](const directed_schedule& s) { return py::object(rounds_of(s)); },
      "n - 1 rounds optimal for full-duplex all-to-all (a witness as rounds of (from, to), checked; n - 2 refuted)");
}

}  // namespace dancecard::python
