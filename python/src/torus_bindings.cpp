// Torus gossip for Python: time-independent routing tables (read, written, or Section 3.1's Hamiltonian pair of
// cycles for 2-D tori), the simulator that says after how many steps every PU holds every packet, and the table as
// the all-gather it performs in the collective model.

#include "bindings.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/collective/adapters.hpp"
#include "dancecard/core/torus/torus.hpp"
#include "dancecard/formats/torus_io.hpp"

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
        for (std::uint32_t d : t.network.dims()) dims += (dims.empty() ? "" : "x") + std::to_string(d);
        return "<RoutingTable torus " + dims + ", " + std::to_string(t.packets) + " packet(s) per PU>";
      });
  m.def(
      "hamiltonian_torus_table", [](const std::vector<std::uint32_t>& dims) { return hamiltonian_2d(network(dims)); },
      "dims"_a, "Section 3.1: two edge-disjoint Hamiltonian cycles of a 2-D torus as a time-independent table");
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
}

}  // namespace dancecard::python
