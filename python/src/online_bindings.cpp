// The on-line model for Python: instances (processors and messages (src, dst)) and their families, the protocols'
// seeded simulation (traces as NumPy arrays), the trace checker, and seeded campaigns with exact mean ratios.

#include <pybind11/numpy.h>

#include "bindings.hpp"
#include "dancecard/checkers/online_experiment.hpp"
#include "dancecard/checkers/online_trace_check.hpp"
#include "dancecard/core/online/online.hpp"

namespace dancecard::python {

using namespace pybind11::literals;
using namespace dancecard::online;

namespace {

contention discipline_of(const std::string& s) {
  if (const std::optional<contention> c = parse_contention(s)) return *c;
  throw py::value_error("discipline: expected ocpc, arbitrary, fifo or priority, got '" + s + "'");
}

// The protocol by name, or the paper's for the discipline where the name is empty.
online_protocol protocol_of(const std::string& s, contention d) {
  if (s.empty()) return paper_protocol(d);
  const std::optional<online_protocol> p = parse_online_protocol(s);
  if (!p)
    throw py::value_error("protocol: expected ggt, weighted, equal, fifo-staged or random-priority, got '" + s + "'");
  if (!runs_under(d, *p))
    throw py::value_error("protocol: " + s + " does not run under the " + std::string(to_string(d)) + " discipline");
  return *p;
}

online_options options_of(const std::string& discipline, const std::string& protocol, double epsilon, double beta,
                          double K, double mu, std::uint64_t max_rounds) {
  online_options o;
  o.discipline = discipline_of(discipline);
  o.protocol = protocol_of(protocol, o.discipline);
  o.epsilon = epsilon, o.beta = beta, o.K = K, o.mu = mu, o.max_rounds = max_rounds;
  return o;
}

// A trace as {discipline, sends: uint64 rows (round, message, priority), deliveries: rows (round, message)}.
py::dict trace_dict(const online_trace& t) {
  py::array_t<std::uint64_t> sends({static_cast<py::ssize_t>(t.sends.size()), py::ssize_t{3}});
  auto s = sends.mutable_unchecked<2>();
  for (std::size_t i = 0; i < t.sends.size(); ++i) {
    const auto k = static_cast<py::ssize_t>(i);
    s(k, 0) = t.sends[i].round, s(k, 1) = t.sends[i].message, s(k, 2) = t.sends[i].priority;
  }
  py::array_t<std::uint64_t> deliveries({static_cast<py::ssize_t>(t.deliveries.size()), py::ssize_t{2}});
  auto d = deliveries.mutable_unchecked<2>();
  for (std::size_t i = 0; i < t.deliveries.size(); ++i) {
    const auto k = static_cast<py::ssize_t>(i);
    d(k, 0) = t.deliveries[i].round, d(k, 1) = t.deliveries[i].message;
  }
  return py::dict("discipline"_a = std::string(to_string(t.discipline)), "sends"_a = sends,
                  "deliveries"_a = deliveries);
}

online_trace trace_of(const py::dict& t) {
  online_trace out;
  if (!t.contains("discipline") || !t.contains("sends") || !t.contains("deliveries"))
    throw py::value_error("trace: a dict with discipline, sends and deliveries (as simulate_online returns)");
  out.discipline = discipline_of(py::cast<std::string>(t["discipline"]));
  const auto sends = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(t["sends"]);
  const auto deliveries =
      py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(t["deliveries"]);
  if (!sends || sends.ndim() != 2 || sends.shape(1) != 3)
    throw py::value_error("trace['sends']: rows (round, message, priority)");
  if (!deliveries || deliveries.ndim() != 2 || deliveries.shape(1) != 2)
    throw py::value_error("trace['deliveries']: rows (round, message)");
  auto s = sends.unchecked<2>();
  auto d = deliveries.unchecked<2>();
  for (py::ssize_t i = 0; i < s.shape(0); ++i) {
    if (s(i, 1) > UINT32_MAX) throw py::value_error("trace['sends'][" + std::to_string(i) + "]: no such message");
    out.sends.push_back({s(i, 0), static_cast<std::uint32_t>(s(i, 1)), s(i, 2)});
  }
  for (py::ssize_t i = 0; i < d.shape(0); ++i) {
    if (d(i, 1) > UINT32_MAX) throw py::value_error("trace['deliveries'][" + std::to_string(i) + "]: no such message");
    out.deliveries.push_back({d(i, 0), static_cast<std::uint32_t>(d(i, 1))});
  }
  return out;
}

}  // namespace

void bind_online(py::module_& m) {
  py::class_<online_instance>(m, "OnlineInstance", "n processors and their messages (src, dst)")
      .def(py::init([](rank processors, const std::vector<std::pair<rank, rank>>& messages) {
             std::vector<online_message> list;
             for (const auto& [src, dst] : messages) list.push_back({src, dst});
             return online_instance(processors, std::move(list));
           }),
           "processors"_a, "messages"_a)
      .def_property_readonly("processors", &online_instance::processors)
      .def_property_readonly("messages",
                             [](const online_instance& i) {
                               py::list out;
                               for (const online_message& x : i.messages()) out.append(py::make_tuple(x.src, x.dst));
                               return out;
                             })
      .def_property_readonly("h", &online_instance::h)
      .def("__repr__", [](const online_instance& i) {
        return "<OnlineInstance " + std::to_string(i.processors()) + " processors, " +
               std::to_string(i.messages().size()) + " messages, h = " + std::to_string(i.h()) + ">";
      });
  m.def(
      "random_online_relation",
      [](rank n, std::uint64_t h, std::uint64_t seed) {
        if (n < 2) throw py::value_error("n: at least 2");
        return random_online_relation(n, h, seed);
      },
      "n"_a, "h"_a, "seed"_a = 1, "h random permutations of n processors (every one sends and receives h)");
  m.def("total_exchange", &total_exchange, "n"_a, "every ordered pair one message: an (n - 1)-relation");
  m.def(
      "difficult_relation",
      [](std::uint64_t h) {
        if (h < 2 || h > 40) throw py::value_error("h: 2 to 40");
        return difficult_relation(h);
      },
      "h"_a, "Theorem 1's difficult h-relation");
  m.def(
      "simulate_online",
      [](const online_instance& instance, const std::string& discipline, const std::string& protocol,
         std::uint64_t seed, double epsilon, double beta, double K, double mu, bool keep_trace,
         std::uint64_t max_rounds) {
        online_options o = options_of(discipline, protocol, epsilon, beta, K, mu, max_rounds);
        o.keep_trace = keep_trace;
        online_run run;
        {
          py::gil_scoped_release release;
          run = simulate_online(instance, o, seed);
        }
        py::dict out("finished"_a = run.finished, "rounds"_a = run.rounds, "transmissions"_a = run.transmissions,
                     "discipline"_a = std::string(to_string(o.discipline)),
                     "protocol"_a = std::string(to_string(o.protocol)));
        out["trace"] = keep_trace ? py::object(trace_dict(run.trace)) : py::none();
        return out;
      },
      "instance"_a, "discipline"_a, "protocol"_a = "", "seed"_a = 1, "epsilon"_a = 0.25, "beta"_a = 0.1, "K"_a = 2.5,
      "mu"_a = 0.267, "keep_trace"_a = true, "max_rounds"_a = 0);
  m.def(
      "check_online_trace",
      [](const online_instance& instance, const py::dict& trace, std::size_t max_witnesses) {
        const online_trace t = trace_of(trace);
        online_trace_report r;
        {
          py::gil_scoped_release release;
          r = check_online_trace(instance, t, max_witnesses);
        }
        py::dict out = report_dict(r, describe(r), [](const online_violation& v) {
          return py::dict("kind"_a = std::string(to_string(v.kind)), "round"_a = v.round, "message"_a = v.message,
                          "processor"_a = v.processor, "text"_a = describe(v));
        });
        out["figures"] = py::dict("rounds"_a = r.rounds);
        return out;
      },
      "instance"_a, "trace"_a, "max_witnesses"_a = 10);
  m.def(
      "run_online_campaign",
      [](const online_instance& instance, const std::string& discipline, const std::string& protocol,
         std::uint64_t first_seed, std::uint64_t runs, double epsilon, double beta, double K, double mu) {
        if (runs < 1) throw py::value_error("runs: at least 1");
        const online_options o = options_of(discipline, protocol, epsilon, beta, K, mu, 0);
        online_campaign c;
        {
          py::gil_scoped_release release;
          c = run_online_campaign(instance, o, first_seed, runs);
        }
        return py::dict(
            "h"_a = c.h, "runs"_a = c.runs, "rounds"_a = c.rounds, "min_rounds"_a = c.min_rounds,
            "max_rounds"_a = c.max_rounds,
            "mean_ratio"_a =
                py::module_::import("fractions").attr("Fraction")(c.mean_ratio.numerator(), c.mean_ratio.denominator()),
            "mean"_a = c.mean, "ci95"_a = c.ci95, "all_finished"_a = c.all_finished, "all_valid"_a = c.all_valid,
            "problem"_a = c.problem);
      },
      "instance"_a, "discipline"_a, "protocol"_a = "", "first_seed"_a = 1, "runs"_a = 5, "epsilon"_a = 0.25,
      "beta"_a = 0.1, "K"_a = 2.5, "mu"_a = 0.267);
}

}  // namespace dancecard::python
