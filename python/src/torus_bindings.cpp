// Torus gossip for Python: routing tables (read, written, Section 3.1's Hamiltonian pair of cycles for 2-D tori, or
// the paper's constructions for any torus: Hamiltonian products, zigzag and partial cycles with their supply), the
// simulator that says after how many steps every PU holds every packet, the table as the all-gather it performs in the
// collective model, and the least steps of any table, proven.

#include "bindings.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/collective/adapters.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/core/torus/torus.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "interrupt.hpp"

namespace dancecard::python {

using namespace pybind11::literals;
using namespace dancecard::torus;

void bind_torus(py::module_& m) {
  py::class_<routing_table>(m, "RoutingTable", "A torus's forwarding and injection rules (dancecard.torus-routing/1)")
      .def_property_readonly("dims", [](const routing_table& t) { return t.network.dims(); })
      .def_property_readonly("pus", [](const routing_table& t) { return t.network.size(); })
      .def_readonly("packets", &routing_table::packets)
      .def_property_readonly("time_independent", [](const routing_table& t) { return t.switches.empty(); })
      .def("__repr__", [](const routing_table& t) {
        std::string dims;
        for (std::uint32_t d : t.network.dims()) {
          if (!dims.empty()) dims += 'x';
          dims += std::to_string(d);
        }
        return "<RoutingTable torus " + dims + ", " + std::to_string(t.packets) + " packet(s) per PU>";
      });
  m.def(
      "hamiltonian_torus_table", [](const std::vector<std::uint32_t>& dims) { return hamiltonian_2d(network(dims)); },
      "dims"_a, "Section 3.1: two edge-disjoint Hamiltonian cycles of a 2-D torus as a time-independent table");
  m.def(
      "torus_table",
      [](const std::vector<std::uint32_t>& dims, const std::string& algorithm, const std::string& supply) {
        std::optional<supply_policy> policy;
        for (supply_policy p : {supply_policy::time_independent, supply_policy::one_switch, supply_policy::scheduled})
          if (supply == to_string(p)) policy = p;
        if (!policy)
          throw py::value_error("supply: expected time-independent, one-switch or scheduled, got '" + supply + "'");
        const network t(dims);
        py::gil_scoped_release release;
        if (algorithm == "hamiltonian")
          return section_3_1_applies(t)
                     ? hamiltonian_2d(t)
                     : cycle_routing(hamiltonian_product_cycles(t), *policy, packets_per_pu::per_cycle);
        if (algorithm == "one-packet") return cycle_routing(zigzag_cycles(t), *policy, packets_per_pu::one);
        if (algorithm == "partial") return cycle_routing(partial_2d_cycles(t), *policy, packets_per_pu::one);
        throw std::invalid_argument("algorithm: expected hamiltonian, one-packet or partial, got '" + algorithm + "'");
      },
      "dims"_a, "algorithm"_a = "hamiltonian", "supply"_a = "scheduled",
      "the paper's tables: hamiltonian (Section 3.1 in 2-D with both sides even, else Section 3.4's products, one "
      "packet per cycle), one-packet (Section 4's zigzag cycles) or partial (2-D, an odd side of 5 or more), the PUs "
      "off the cycles supplied under the policy");
  m.def(
      "read_torus_routing", [](const std::string& text) { return read_torus_routing(text); }, "text"_a);
  m.def(
      "write_torus_routing",
      [](const routing_table& t) { return text_of([&](std::ostream& out) { write_torus_routing(out, t); }); },
      "table"_a);
  m.def(
      "simulate_torus_gossip",
      [](const routing_table& table, std::uint64_t max_steps, std::size_t max_witnesses) {
        gossip_report r;
        {
          py::gil_scoped_release release;
          r = simulate_gossip(table, max_steps, max_witnesses);
        }
        py::dict out = report_dict(r, describe(r), [](const torus_violation& v) {
          return py::dict("kind"_a = std::string(to_string(v.kind)), "pu"_a = v.pu, "port"_a = v.port,
                          "packet"_a = v.packet, "text"_a = describe(v));
        });
        py::dict f = out["figures"];
        f["steps"] = r.steps;
        f["link_steps"] = r.link_steps;
        f["duplicate_receives"] = r.duplicate_receives;
        return out;
      },
      "table"_a, "max_steps"_a = 0, "max_witnesses"_a = 10,
      "steps until every PU holds every packet (max_steps 0: P·packets + P + the latest switch step)");
  m.def(
      "torus_table_as_collective",
      [](const routing_table& table, std::uint64_t steps) { return collective::from_torus_table(table, steps); },
      "table"_a, "steps"_a, "the table run for `steps` steps as the all-gather it performs (torus:dims, all-port)");
  m.def(
      "prove_torus",
      [](const std::vector<std::uint32_t>& dims, const std::string& model, std::uint32_t packets, unsigned timeout_ms,
         const std::string& engine) {
        if (model != "pairing" && model != "general")
          throw py::value_error("model: expected pairing or general, got '" + model + "'");
        if (engine != "clausal" && engine != "z3")
          throw py::value_error("engine: expected clausal or z3, got '" + engine + "'");
        if (dims.empty() || dims.size() > 8) throw py::value_error("dims: 1 to 8 sides");
        std::uint64_t size = 1;
        for (std::uint32_t d : dims) {
          if (d < 2 || d > 4096) throw py::value_error("dims: every side from 2 to 4096, got " + std::to_string(d));
          size *= d;
          if (size > 4096) throw py::value_error("dims: at most 4096 PUs for a proof");
        }
        const network t(dims);
        if (packets < 1 || packets > t.ports())
          throw py::value_error("packets: 1 to 2d = " + std::to_string(t.ports()) + ", got " + std::to_string(packets));
        if (engine == "z3" && (model != "pairing" || packets != 1))
          throw py::value_error("engine z3: the pairing model with one packet per PU only");
        torus_minimum_result r;
        {
          interrupt_guard guard;
          py::gil_scoped_release release;
          r = prove_torus_minimum(t, model == "pairing" ? torus_model::pairing : torus_model::general, timeout_ms,
                                  {.engine = engine == "z3" ? torus_engine::z3 : torus_engine::clausal,
                                   .packets = packets,
                                   .cancel = &interrupted});
        }
        const bool proven = r.status == proof_status::proven;
        const std::optional<routing_table>& best = proven    ? r.at_minimum.witness
                                                   : r.upper ? r.upper->witness
                                                             : r.at_minimum.witness;
        return py::dict("status"_a = std::string(to_string(r.status)),
                        "minimum_steps"_a = proven ? py::object(py::int_(r.minimum_steps)) : py::none(),
                        "counting_bound"_a = r.lower_bound, "parity_bound"_a = r.parity_bound,
                        "proven_lower_bound"_a = r.proven_lower,
                        "upper_bound"_a = r.upper_bound != 0 ? py::object(py::int_(r.upper_bound)) : py::none(),
                        "witness"_a = best ? py::cast(*best) : py::none(),
                        "below"_a = py::dict("answer"_a = std::string(to_string(r.below_minimum.answer)),
                                             "reason"_a = r.below_minimum.reason),
                        "reason"_a = r.reason, "seconds"_a = r.seconds);
      },
      "dims"_a, "model"_a = "pairing", "packets"_a = 1, "timeout_ms"_a = 60'000, "engine"_a = "clausal",
      "the least steps of any time-independent table of the model: a witness the simulator accepts, and the step "
      "below unsat with a checked DRAT proof (or under the counting or parity bound; engine z3: Z3's unsat, "
      "uncertified)");
}

}  // namespace dancecard::python
