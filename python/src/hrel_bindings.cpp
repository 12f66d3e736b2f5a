// h-relations for Python: instances (messages (src, dst, packets)) and their families, the paper's schedules, time
// reversal, the formats, the half- and full-duplex checker, and the exact optimum at granularity 1/k; times and
// amounts come back as fractions.Fraction.

#include "bindings.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/core/collective/adapters.hpp"
#include "dancecard/core/hrel/families.hpp"
#include "dancecard/core/hrel/reversal.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/smt/hrel_encoding.hpp"
#include "interrupt.hpp"

namespace dancecard::python {

using namespace pybind11::literals;
using namespace dancecard::hrel;

namespace {

py::object fraction(const rational& q) {
  return py::module_::import("fractions").attr("Fraction")(q.numerator(), q.denominator());
}

}  // namespace

void bind_hrel(py::module_& m) {
  py::class_<hrel_instance>(m, "HrelInstance", "P processing elements and messages (src, dst, packets)")
      .def(py::init([](rank pes, const std::vector<std::tuple<rank, rank, std::uint64_t>>& messages) {
             std::vector<hrel_message> list;
             for (const auto& [src, dst, packets] : messages) list.push_back({src, dst, packets});
             return hrel_instance(pes, std::move(list));
           }),
           "pes"_a, "messages"_a)
      .def_property_readonly("pes", &hrel_instance::pes)
      .def_property_readonly("messages",
                             [](const hrel_instance& i) {
                               py::list out;
                               for (const hrel_message& x : i.messages())
                                 out.append(py::make_tuple(x.src, x.dst, x.packets));
                               return out;
                             })
      .def_property_readonly("h_half_duplex", &hrel_instance::h_half_duplex)
      .def_property_readonly("h_full_duplex", &hrel_instance::h_full_duplex)
      .def("__repr__", [](const hrel_instance& i) {
        return "<HrelInstance " + std::to_string(i.pes()) + " PEs, " + std::to_string(i.messages().size()) +
               " messages, h = " + std::to_string(i.h_half_duplex()) + ">";
      });
  py::class_<hrel_schedule>(m, "HrelSchedule", "Time slots of exact duration, each a list of transfers")
      .def_readonly("pes", &hrel_schedule::pes)
      .def_property_readonly("makespan", [](const hrel_schedule& s) { return fraction(s.makespan()); })
      .def_property_readonly(
          "slots",
          [](const hrel_schedule& s) {
            py::list out;
            for (const hrel_slot& slot : s.slots) {
              py::list transfers;
              for (const hrel_transfer& t : slot.transfers)
                transfers.append(py::make_tuple(t.from, t.to, t.message, fraction(t.amount)));
              out.append(py::dict("duration"_a = fraction(slot.duration), "transfers"_a = transfers));
            }
            return out;
          })
      .def("__repr__", [](const hrel_schedule& s) {
        return "<HrelSchedule " + std::to_string(s.slots.size()) + " slots, makespan " + s.makespan().to_string() + ">";
      });

  m.def(
      "hrel_family",
      [](const std::string& family, rank pes, std::uint64_t h, std::uint64_t seed) {
        if (family == "random") return random_relation(pes, h, seed);
        if (family == "skewed") return skewed_relation(pes, h, seed);
        if (family == "triangles") return triangles(pes, h);
        throw py::value_error("family: expected random, skewed or triangles, got '" + family + "'");
      },
      "family"_a, "pes"_a, "h"_a, "seed"_a = 1,
      "random (P, h, seed), skewed (P, h, seed) or triangles (k triangles, h)");
  m.def(
      "hrel_schedule_of",
      [](const std::string& algorithm, const hrel_instance& instance) {
        if (algorithm == "direct") return direct_schedule(instance);
        if (algorithm == "forwarding") return forwarding_schedule(instance);
        if (algorithm == "full-duplex") return full_duplex_schedule(instance);
        if (algorithm == "regular") return regular_schedule(instance);
        throw py::value_error("algorithm: expected direct, forwarding, full-duplex or regular, got '" + algorithm +
                              "'");
      },
      "algorithm"_a, "instance"_a, "the paper's schedules: direct, forwarding, full-duplex or regular");
  m.def(
      "hrel_reversal_symmetry",
      [](const hrel_instance& instance) -> std::optional<std::vector<rank>> { return reversal_symmetry(instance); },
      "instance"_a,
      "an involution pi of the PEs (a list: PE x to pi[x]) that maps the instance, every message turned round, onto "
      "itself, or None");
  m.def(
      "reversed_hrel_schedule",
      [](const hrel_instance& instance, const hrel_schedule& schedule, const std::vector<rank>& pi) {
        try {
          return reversed_schedule(instance, schedule, pi);
        } catch (const std::invalid_argument& e) {
          throw py::value_error(e.what());
        }
      },
      "instance"_a, "schedule"_a, "pi"_a,
      "the schedule run backwards (slots in reverse order, every transfer turned round) and renamed by pi, a "
      "reversal symmetry: a schedule of the same instance (check it)");
  m.def(
      "read_hrel_instance", [](const std::string& text) { return read_hrel_instance(text); }, "text"_a);
  m.def(
      "write_hrel_instance",
      [](const hrel_instance& i) { return text_of([&](std::ostream& out) { write_hrel_instance(out, i); }); },
      "instance"_a);
  m.def(
      "read_hrel_schedule", [](const std::string& text) { return read_hrel_schedule(text); }, "text"_a);
  m.def(
      "write_hrel_schedule",
      [](const hrel_schedule& s) { return text_of([&](std::ostream& out) { write_hrel_schedule(out, s); }); },
      "schedule"_a);
  m.def(
      "hrel_schedule_as_collective",
      [](const hrel_instance& instance, const hrel_schedule& schedule, const std::string& duplex_mode) {
        if (duplex_mode != "half" && duplex_mode != "full")
          throw py::value_error("duplex: expected half or full, got '" + duplex_mode + "'");
        return collective::from_hrel(instance, schedule,
                                     duplex_mode == "half" ? collective::port_model::one_port_simplex
                                                           : collective::port_model::one_port_full_duplex);
      },
      "instance"_a, "schedule"_a, "duplex"_a = "half",
      "the schedule as the all-to-allv of moves it performs (complete:P, one-port-simplex for half duplex)");
  m.def(
      "check_hrel_schedule",
      [](const hrel_instance& instance, const hrel_schedule& schedule, const std::string& duplex_mode,
         std::size_t max_witnesses) {
        if (duplex_mode != "half" && duplex_mode != "full")
          throw py::value_error("duplex: expected half or full, got '" + duplex_mode + "'");
        hrel_report r;
        {
          py::gil_scoped_release release;
          r = check_hrel_schedule(instance, schedule, duplex_mode == "half" ? duplex::half : duplex::full,
                                  max_witnesses);
        }
        py::dict out = report_dict(r, describe(r), [](const hrel_violation& v) {
          return py::dict("kind"_a = std::string(to_string(v.kind)), "slot"_a = v.slot, "first"_a = v.first,
                          "second"_a = v.second, "message"_a = v.message, "pe"_a = v.pe, "held"_a = fraction(v.held),
                          "amount"_a = fraction(v.amount), "text"_a = describe(v));
        });
        py::dict f = out["figures"];
        f["makespan"] = fraction(r.makespan);
        f["slots"] = schedule.slots.size();
        return out;
      },
      "instance"_a, "schedule"_a, "duplex"_a = "half", "max_witnesses"_a = 10);
  m.def(
      "prove_hrel",
      [](const hrel_instance& instance, unsigned granularity, bool forwarding, unsigned timeout_ms,
         const std::string& engine, const std::optional<hrel_schedule>& hint, bool generator_witnesses) {
        if (granularity == 0 || granularity > 100)
          throw py::value_error("granularity: 1 to 100, got " + std::to_string(granularity));
        if (engine != "sat" && engine != "z3")
          throw py::value_error("engine: expected sat or z3, got '" + engine + "'");
        if (instance.messages().empty()) throw py::value_error("instance: it has no messages");
        if (const std::string why = hrel_proof_size_problem(instance, granularity); !why.empty())
          throw py::value_error("instance: " + why);
        hrel_optimum_result r;
        {
          interrupt_guard guard;
          py::gil_scoped_release release;
          r = prove_hrel_optimum(instance, {.granularity = granularity,
                                            .forwarding = forwarding,
                                            .timeout_ms = timeout_ms,
                                            .engine = engine == "z3" ? hrel_engine::z3 : hrel_engine::sat,
                                            .hint = hint ? &*hint : nullptr,
                                            .generator_witnesses = generator_witnesses,
                                            .cancel = &interrupted});
        }
        const bool proven = r.status == proof_status::proven;
        return py::dict(
            "status"_a = std::string(to_string(r.status)), "optimum"_a = proven ? fraction(r.optimum) : py::none(),
            "slots"_a = r.slots, "witness"_a = r.at_optimum.witness ? py::cast(*r.at_optimum.witness) : py::none(),
            "certified_bound"_a = r.certified_bound, "certificate"_a = r.certificate,
            "certificate_check"_a = r.certificate_check,
            "below"_a = py::dict("answer"_a = std::string(to_string(r.below_optimum.answer)),
                                 "reason"_a = r.below_optimum.reason, "proof_check"_a = r.below_optimum.proof_check),
            "reason"_a = r.reason, "seconds"_a = r.seconds);
      },
      "instance"_a, "granularity"_a = 1, "forwarding"_a = false, "timeout_ms"_a = 60'000, "engine"_a = "sat",
      "hint"_a = py::none(), "generator_witnesses"_a = true,
      "the least time in slots of 1/k: a witness the half-duplex checker accepted; below it a checked cutting-planes "
      "certificate of the counting arguments, then CaDiCaL's unsat with a checked DRAT proof (engine z3: Z3's, "
      "uncertified)");
}

}  // namespace dancecard::python
