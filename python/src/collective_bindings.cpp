// Collectives for Python: topologies, collectives and schedules as classes (a schedule also from and to a NumPy
// transfer table), the classic generators, dancecard.collective/1 and MSCCL-IR text, the two checkers, the import,
// and the proofs (least steps, least rounds, the frontier) with the GIL released while the solver runs and Ctrl-C
// stopping it (the answer is then unknown).
#include <pybind11/numpy.h>

#include <tuple>

#include "bindings.hpp"
#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/msccl_check.hpp"
#include "dancecard/checkers/msccl_import.hpp"
#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/core/collective/symmetry.hpp"
#include "dancecard/formats/collective_io.hpp"
#include "dancecard/formats/msccl_io.hpp"
#include "dancecard/smt/collective_frontier.hpp"
#include "dancecard/smt/collective_synthesis.hpp"
#include "interrupt.hpp"

namespace dancecard::python {

using namespace pybind11::literals;
using namespace dancecard::collective;
using collective_t = dancecard::collective::collective;  // the type, not its namespace

namespace {

collective_kind kind_of(const std::string& text) {
  const auto k = parse_collective_kind(text);
  if (!k)
    throw py::value_error(
        "kind: expected allgather, alltoall, broadcast, gather, scatter, reduce, reduce-scatter, allreduce or "
        "alltoallv, got '" +
        text + "'");
  return *k;
}

port_model ports_of(const std::string& text) {
  const auto p = parse_port_model(text);
  if (!p)
    throw py::value_error(
        "ports: expected all-port, one-port-full-duplex, one-port-half-duplex or one-port-simplex, got '" + text + "'");
  return *p;
}

// A topology given as a Topology or as a built-in name ("dgx1", "ring:8", "torus:4x4", …).
topology topology_of(const py::object& spec) {
  if (py::isinstance<topology>(spec)) return spec.cast<topology>();
  const auto name = spec.cast<std::string>();
  const std::optional<topology> t = builtin_topology(name);  // std::invalid_argument for a bad size: ValueError
  if (!t)
    throw py::value_error("topology: '" + name +
                          "' is no built-in network (complete:N, ring:N, torus:AxB…, "
                          "hypercube:D, dgx1)");
  return *t;
}

py::tuple transfer_tuple(const transfer& t) {
  return py::make_tuple(t.chunk, t.from, t.to, std::string(to_string(t.op)));
}

py::dict collective_report_dict(const collective_report& r) {
  py::dict out = report_dict(r, describe(r), [](const collective_violation& v) {
    return py::dict("kind"_a = std::string(to_string(v.kind)), "step"_a = v.step, "index"_a = v.index,
                    "chunk"_a = v.chunk, "from"_a = v.from, "to"_a = v.to, "other"_a = v.other, "text"_a = describe(v));
  });
  py::dict f = out["figures"];
  f["steps"] = r.steps;
  f["rounds"] = r.rounds;
  f["transfers"] = r.transfers;
  f["step_bound"] = r.step_bound;
  f["round_bound"] = r.round_bound;
  f["busiest_link"] = py::make_tuple(r.busiest_from, r.busiest_to, r.busiest_link_chunks);
  return out;
}

py::dict msccl_report_dict(const msccl_report& r) {
  py::dict out = report_dict(r, describe(r), [](const msccl_violation& v) {
    py::list steps;
    for (const msccl_step_ref& s : v.steps) steps.append(py::dict("gpu"_a = s.gpu, "tb"_a = s.tb, "step"_a = s.step));
    return py::dict("kind"_a = std::string(to_string(v.kind)), "steps"_a = steps, "detail"_a = v.detail,
                    "text"_a = describe(v));
  });
  py::dict f = out["figures"];
  f["steps"] = r.steps;
  f["transfers"] = r.transfers;
  f["critical_path"] = r.critical_path;
  f["busiest_connection"] = py::make_tuple(r.busiest_from, r.busiest_to, r.busiest_connection_chunks);
  f["most_received_chunks"] = r.most_received_chunks;
  f["receive_bound"] = r.receive_bound;
  f["postcondition_checked"] = r.postcondition_checked;
  return out;
}

py::dict proof_dict(const least_steps_result& r) {
  py::list queries;
  for (const synthesis_query& q : r.queries)
    queries.append(py::dict("steps"_a = q.steps, "answer"_a = std::string(to_string(q.answer)), "detail"_a = q.detail,
                            "seconds"_a = q.seconds, "variables"_a = q.variables, "clauses"_a = q.clauses,
                            "certificate"_a = q.certificate));
  py::object witness = r.witness ? py::cast(*r.witness) : py::none();
  return py::dict("status"_a = std::string(to_string(r.status)), "steps"_a = r.steps,
                  "rounds"_a = r.witness ? r.witness->rounds() : 0, "witness"_a = witness, "reason"_a = r.reason,
                  "queries"_a = queries);
}

synthesis_options synthesis(const std::string& ports, std::uint32_t rounds_per_step, std::uint32_t max_steps,
                            unsigned timeout_ms, bool cut_certificates, bool symmetric_witnesses,
                            std::uint64_t max_clauses) {
  synthesis_options o;
  if (max_clauses == 0) throw py::value_error("max_clauses: at least 1");
  o.max_clauses = max_clauses;
  o.ports = ports_of(ports);
  o.rounds_per_step = rounds_per_step;
  o.max_steps = max_steps;
  o.budget_ms = timeout_ms;
  o.cut_certificates = cut_certificates;
  o.symmetric_witnesses = symmetric_witnesses;
  o.cancel = &interrupted;
  return o;
}

// A transfer table: one row per transfer, (step, chunk, from, to, op) with op 0 copy, 1 reduce, 2 move; rows in step
// order.
schedule from_table(const py::object& net, const collective_t& coll, const py::array_t<std::int64_t>& table,
                    const std::optional<std::vector<std::uint32_t>>& rounds, const std::string& ports,
                    const std::string& algorithm) {
  const auto t = table.unchecked<2>();
  if (t.shape(1) != 5)
    throw py::value_error("table: expected rows of (step, chunk, from, to, op), got " + std::to_string(t.shape(1)) +
                          " columns");
  schedule s{topology_of(net), ports_of(ports), coll, {}, algorithm};
  for (py::ssize_t i = 0; i < t.shape(0); ++i) {
    const std::int64_t at_step = t(i, 0), chunk = t(i, 1), from = t(i, 2), to = t(i, 3), op = t(i, 4);
    auto at = [&](const char* what) { return "table row " + std::to_string(i) + ": " + what; };
    if (at_step < 0 || at_step > (std::int64_t{1} << 24)) throw py::value_error(at("step out of range"));
    if (static_cast<std::size_t>(at_step) + 1 < s.steps.size()) throw py::value_error(at("rows must be in step order"));
    if (chunk < 0 || from < 0 || to < 0 || from > 0xffffffffll || to > 0xffffffffll)
      throw py::value_error(at("negative or too large chunk or rank"));
    if (op < 0 || op > 2) throw py::value_error(at("op must be 0 (copy), 1 (reduce) or 2 (move)"));
    while (s.steps.size() <= static_cast<std::size_t>(at_step)) s.steps.push_back(step{1, {}});
    s.steps[static_cast<std::size_t>(at_step)].transfers.push_back({static_cast<std::uint64_t>(chunk),
                                                                    static_cast<rank>(from), static_cast<rank>(to),
                                                                    static_cast<transfer_op>(op)});
  }
  if (rounds) {
    if (rounds->size() < s.steps.size())
      throw py::value_error("rounds: " + std::to_string(rounds->size()) + " values for " +
                            std::to_string(s.steps.size()) + " steps");
    while (s.steps.size() < rounds->size()) s.steps.push_back(step{1, {}});
    for (std::size_t i = 0; i < rounds->size(); ++i) {
      if ((*rounds)[i] < 1) throw py::value_error("rounds[" + std::to_string(i) + "]: at least 1");
      s.steps[i].rounds = (*rounds)[i];
    }
  }
  return s;
}

py::array_t<std::int64_t> to_table(const schedule& s) {
  py::array_t<std::int64_t> out({static_cast<py::ssize_t>(s.transfers()), py::ssize_t{5}});
  auto t = out.mutable_unchecked<2>();
  py::ssize_t row = 0;
  for (std::size_t i = 0; i < s.steps.size(); ++i)
    for (const transfer& x : s.steps[i].transfers) {
      t(row, 0) = static_cast<std::int64_t>(i);
      t(row, 1) = static_cast<std::int64_t>(x.chunk);
      t(row, 2) = x.from;
      t(row, 3) = x.to;
      t(row, 4) = static_cast<std::int64_t>(x.op);
      ++row;
    }
  return out;
}

}  // namespace

void bind_collective(py::module_& m) {
  py::class_<topology>(m, "Topology", "Ranks and directed links with capacities (chunks per round)")
      .def(py::init([](std::string name, rank ranks, const std::vector<std::tuple<rank, rank, std::uint32_t>>& links) {
             std::vector<link> l;
             for (const auto& [from, to, capacity] : links) l.push_back({from, to, capacity});
             return topology(std::move(name), ranks, std::move(l));
           }),
           "name"_a, "ranks"_a, "links"_a)
      .def_static(
          "builtin", [](const std::string& spec) { return topology_of(py::str(spec)); }, "spec"_a,
          "complete:N, ring:N, torus:AxB…, hypercube:D or dgx1")
      .def_property_readonly("name", &topology::name)
      .def_property_readonly("size", &topology::size)
      .def_property_readonly("links",
                             [](const topology& t) {
                               py::list out;
                               for (const link& l : t.links()) out.append(py::make_tuple(l.from, l.to, l.capacity));
                               return out;
                             })
      .def("capacity", &topology::capacity, "from_"_a, "to"_a)
      .def(
          "automorphisms",
          [](const topology& t, std::uint64_t max_nodes) {
            py::gil_scoped_release free;
            return automorphism_generators(t, max_nodes);
          },
          "max_nodes"_a = 1'000'000,
          "generators of the network's whole automorphism group, each a list: rank r goes to perm[r] (a subgroup "
          "where the search spends max_nodes first)")
      .def("translations", &translations,
           "the translations of a built-in ring, complete graph, hypercube or torus that are automorphisms of it")
      .def("__repr__", [](const topology& t) {
        return "<Topology " + t.name() + ": " + std::to_string(t.size()) + " ranks, " +
               std::to_string(t.links().size()) + " links>";
      });

  py::class_<collective_t>(m, "Collective",
                           "A collective: kind, ranks, chunks per rank (SCCL's C), root; an alltoallv: counts[s][d], "
                           "the chunks rank s sends rank d")
      .def(py::init([](const std::string& kind, rank ranks, std::uint32_t chunks, rank root,
                       const std::optional<std::vector<std::vector<std::uint64_t>>>& counts) {
             const collective_kind k = kind_of(kind);
             if ((k == collective_kind::alltoallv) != counts.has_value())
               throw py::value_error("counts: given for an alltoallv, and only for one");
             if (!counts) {
               collective_t c{k, ranks, chunks, root};
               require_valid(c);
               return c;
             }
             if (counts->size() != ranks)
               throw py::value_error("counts: " + std::to_string(ranks) + " rows, not " +
                                     std::to_string(counts->size()));
             std::vector<std::uint64_t> flat;
             for (std::size_t s = 0; s < counts->size(); ++s) {
               if ((*counts)[s].size() != ranks)
                 throw py::value_error("counts[" + std::to_string(s) + "]: " + std::to_string(ranks) + " counts, not " +
                                       std::to_string((*counts)[s].size()));
               flat.insert(flat.end(), (*counts)[s].begin(), (*counts)[s].end());
             }
             return alltoallv_collective(ranks, flat);
           }),
           "kind"_a, "ranks"_a, "chunks"_a = 1, "root"_a = 0, "counts"_a = py::none())
      .def_property_readonly("kind", [](const collective_t& c) { return std::string(to_string(c.kind)); })
      .def_readonly("ranks", &collective_t::ranks)
      .def_readonly("chunks", &collective_t::chunks)
      .def_readonly("root", &collective_t::root)
      .def_property_readonly("chunk_count", &collective_t::chunk_count)
      .def_property_readonly("counts",
                             [](const collective_t& c) -> py::object {
                               if (c.kind != collective_kind::alltoallv) return py::none();
                               py::list rows;
                               for (rank s = 0; s < c.ranks; ++s) {
                                 py::list row;
                                 for (rank d = 0; d < c.ranks; ++d) row.append(c.block_chunks(s, d));
                                 rows.append(row);
                               }
                               return rows;
                             })
      .def("source", &collective_t::source, "chunk"_a)
      .def("wanted", &collective_t::wanted, "chunk"_a, "rank"_a)
      .def("__repr__", [](const collective_t& c) { return "<Collective " + c.describe() + ">"; });

  py::class_<schedule>(m, "Schedule", "Steps of chunk transfers on a topology (dancecard.collective/1)")
      .def(py::init([](const py::object& net, const collective_t& coll, const py::list& steps, const std::string& ports,
                       const std::string& algorithm) {
             schedule s{topology_of(net), ports_of(ports), coll, {}, algorithm};
             for (const py::handle& st : steps) {
               step& out = s.steps.emplace_back();
               py::object transfers = py::reinterpret_borrow<py::object>(st);
               if (py::isinstance<py::dict>(st)) {
                 out.rounds = st["rounds"].cast<std::uint32_t>();
                 transfers = st["transfers"];
               }
               for (const py::handle& t : transfers) {
                 const py::tuple x = t.cast<py::tuple>();
                 if (x.size() != 3 && x.size() != 4)
                   throw py::value_error("a transfer is (chunk, from, to) or (chunk, from, to, op)");
                 const std::optional<transfer_op> op =
                     x.size() == 4 ? parse_transfer_op(x[3].cast<std::string>()) : transfer_op::copy;
                 if (!op) throw py::value_error("a transfer's op is 'copy', 'reduce' or 'move'");
                 out.transfers.push_back({x[0].cast<std::uint64_t>(), x[1].cast<rank>(), x[2].cast<rank>(), *op});
               }
             }
             return s;
           }),
           "topology"_a, "collective"_a, "steps"_a, "ports"_a = "all-port", "algorithm"_a = "")
      .def_static("from_table", &from_table, "topology"_a, "collective"_a, "table"_a, "rounds"_a = py::none(),
                  "ports"_a = "all-port", "algorithm"_a = "")
      .def("to_table", &to_table, "the transfers as an int64 array of rows (step, chunk, from, to, op)")
      .def_property_readonly("topology", [](const schedule& s) { return s.network; })
      .def_property_readonly("collective", [](const schedule& s) { return s.coll; })
      .def_property_readonly("ports", [](const schedule& s) { return std::string(to_string(s.ports)); })
      .def_readonly("algorithm", &schedule::algorithm)
      .def_property_readonly("steps",
                             [](const schedule& s) {
                               py::list out;
                               for (const step& st : s.steps) {
                                 py::list transfers;
                                 for (const transfer& t : st.transfers) transfers.append(transfer_tuple(t));
                                 out.append(py::dict("rounds"_a = st.rounds, "transfers"_a = transfers));
                               }
                               return out;
                             })
      .def_property_readonly("rounds", &schedule::rounds)
      .def_property_readonly("transfers", &schedule::transfers)
      .def("__repr__", [](const schedule& s) {
        return "<Schedule " + s.coll.describe() + " on " + s.network.name() + ": " + std::to_string(s.steps.size()) +
               " steps, " + std::to_string(s.transfers()) + " transfers>";
      });

  m.def(
      "classic_schedule",
      [](const std::string& algorithm, const std::string& kind, rank ranks, std::uint32_t chunks, rank root) {
        return classic_schedule(algorithm, kind_of(kind), ranks, chunks, root);
      },
      "algorithm"_a, "kind"_a, "ranks"_a, "chunks"_a = 1, "root"_a = 0,
      "ring, bruck, recursive-doubling, rotated-doubling, recursive-halving, rabenseifner, pairwise, binomial or "
      "double-binary-tree");
  m.def(
      "multi_ring_allgather",
      [](const std::string& torus, std::uint32_t chunks) {
        return multi_ring_allgather(torus::network::parse(torus), chunks);
      },
      "torus"_a, "chunks"_a,
      "all-gather on the torus AxB... along the 2d directed rings of d edge-disjoint Hamiltonian cycles; chunks a "
      "multiple of 2d");
  m.def(
      "bidirectional_multi_ring_allgather",
      [](const std::string& torus, std::uint32_t chunks) {
        return bidirectional_multi_ring_allgather(torus::network::parse(torus), chunks);
      },
      "torus"_a, "chunks"_a,
      "all-gather on the same cycles with every chunk run both ways, half the ring each way: floor(P/2) steps; chunks "
      "a multiple of d, and of 2d when P is even");
  m.def(
      "read_collective_schedule", [](const std::string& text) { return read_collective_schedule(text); }, "text"_a);
  m.def(
      "read_topology", [](const std::string& text) { return read_topology(text); }, "text"_a,
      "a network in dancecard.topology/1 (what prove collective --topology FILE reads)");
  m.def(
      "write_topology", [](const topology& t) { return text_of([&](std::ostream& out) { write_topology(out, t); }); },
      "topology"_a);
  m.def(
      "write_collective_schedule",
      [](const schedule& s) { return text_of([&](std::ostream& out) { write_collective_schedule(out, s); }); },
      "schedule"_a);
  m.def(
      "check_collective_schedule",
      [](const schedule& s, bool exact, std::size_t max_witnesses) {
        collective_report r;
        {
          py::gil_scoped_release release;
          r = check_collective_schedule(s, {.max_witnesses = max_witnesses, .exact = exact});
        }
        return collective_report_dict(r);
      },
      "schedule"_a, "exact"_a = false, "max_witnesses"_a = 10);

  py::class_<msccl_program>(m, "MscclProgram", "An MSCCL-IR algorithm (read_msccl_xml, to_msccl)")
      .def_readonly("name", &msccl_program::name)
      .def_readonly("coll", &msccl_program::coll)
      .def_readonly("ngpus", &msccl_program::ngpus)
      .def_readonly("nchannels", &msccl_program::nchannels)
      .def_readonly("inplace", &msccl_program::inplace)
      .def_property_readonly("step_count", &msccl_program::step_count)
      .def_property_readonly("threadblocks",
                             [](const msccl_program& p) {
                               std::size_t n = 0;
                               for (const msccl_gpu& g : p.gpus) n += g.threadblocks.size();
                               return n;
                             })
      .def("__repr__", [](const msccl_program& p) {
        return "<MscclProgram " + p.coll + " '" + p.name + "' on " + std::to_string(p.ngpus) + " GPUs, " +
               std::to_string(p.step_count()) + " steps>";
      });
  m.def(
      "read_msccl_xml", [](const std::string& text) { return read_msccl_xml(text); }, "text"_a);
  m.def(
      "write_msccl_xml",
      [](const msccl_program& p) { return text_of([&](std::ostream& out) { write_msccl_xml(out, p); }); }, "program"_a);
  m.def(
      "to_msccl", [](const schedule& s, std::uint32_t channels) { return to_msccl(s, {.channels = channels}); },
      "schedule"_a, "channels"_a = 1);
  m.def(
      "check_msccl_program",
      [](const msccl_program& p, std::uint32_t connection_slots, std::size_t max_witnesses) {
        msccl_report r;
        {
          py::gil_scoped_release release;
          r = check_msccl_program(p, {.max_witnesses = max_witnesses, .connection_slots = connection_slots});
        }
        return msccl_report_dict(r);
      },
      "program"_a, "connection_slots"_a = 1, "max_witnesses"_a = 10);
  m.def(
      "import_msccl",
      [](const msccl_program& p, const py::object& net, const std::string& ports) {
        msccl_import_options o;
        if (!net.is_none()) o.network = topology_of(net);
        o.ports = ports_of(ports);
        msccl_import_result r;
        {
          py::gil_scoped_release release;
          r = import_msccl(p, o);
        }
        py::object imported = r.imported ? py::cast(*r.imported) : py::none();
        return py::dict("schedule"_a = imported, "reason"_a = r.reason, "program_invalid"_a = r.program_invalid,
                        "program_check"_a = msccl_report_dict(r.program_check));
      },
      "program"_a, "topology"_a = py::none(), "ports"_a = "all-port");

  m.def(
      "prove_least_steps",
      [](const py::object& net, const collective_t& coll, const std::string& ports, std::uint32_t rounds_per_step,
         std::uint32_t max_steps, unsigned timeout_ms, bool cut_certificates, bool symmetric_witnesses,
         std::uint64_t max_clauses) {
        const topology t = topology_of(net);
        const synthesis_options o = synthesis(ports, rounds_per_step, max_steps, timeout_ms, cut_certificates,
                                              symmetric_witnesses, max_clauses);
        least_steps_result r;
        {
          interrupt_guard guard;
          py::gil_scoped_release release;
          r = prove_least_steps(t, coll, o);
        }
        return proof_dict(r);
      },
      "topology"_a, "collective"_a, "ports"_a = "all-port", "rounds_per_step"_a = 1, "max_steps"_a = 32,
      "timeout_ms"_a = 60'000, "cut_certificates"_a = true, "symmetric_witnesses"_a = true,
      "max_clauses"_a = synthesis_options{}.max_clauses);
  m.def(
      "prove_least_rounds",
      [](const py::object& net, const collective_t& coll, std::uint64_t steps, std::uint32_t max_extra_rounds,
         const std::string& ports, unsigned timeout_ms, bool cut_certificates, bool symmetric_witnesses,
         std::uint64_t max_clauses) {
        const topology t = topology_of(net);
        const synthesis_options o =
            synthesis(ports, 1, 32, timeout_ms, cut_certificates, symmetric_witnesses, max_clauses);
        least_steps_result r;
        {
          interrupt_guard guard;
          py::gil_scoped_release release;
          r = prove_least_rounds(t, coll, steps, max_extra_rounds, o);
        }
        return proof_dict(r);
      },
      "topology"_a, "collective"_a, "steps"_a, "max_extra_rounds"_a = 16, "ports"_a = "all-port",
      "timeout_ms"_a = 60'000, "cut_certificates"_a = true, "symmetric_witnesses"_a = true,
      "max_clauses"_a = synthesis_options{}.max_clauses);
  m.def(
      "prove_frontier",
      [](const py::object& net, const collective_t& coll, std::uint32_t max_chunks, std::uint32_t max_extra_steps,
         std::uint32_t max_extra_rounds, const std::string& ports, unsigned timeout_ms, bool symmetric_witnesses,
         std::uint64_t max_clauses) {
        const topology t = topology_of(net);
        frontier_options o;
        o.max_chunks = max_chunks;
        o.max_extra_steps = max_extra_steps;
        o.max_extra_rounds = max_extra_rounds;
        o.synthesis = synthesis(ports, 1, 32, timeout_ms, true, symmetric_witnesses, max_clauses);
        frontier_result f;
        {
          interrupt_guard guard;
          py::gil_scoped_release release;
          f = prove_frontier(t, coll, o);
        }
        py::list points;
        for (const frontier_point& p : f.points)
          points.append(py::dict("chunks"_a = p.chunks, "steps"_a = p.steps, "rounds"_a = p.rounds,
                                 "status"_a = std::string(to_string(p.status)), "on_frontier"_a = p.on_frontier,
                                 "corner"_a = p.corner, "cut_bound"_a = p.cut_bound,
                                 "witness"_a = p.witness ? py::cast(*p.witness) : py::none(), "below"_a = p.below,
                                 "seconds"_a = p.seconds));
        return py::dict("status"_a = std::string(to_string(f.status)), "least_steps"_a = f.least_steps,
                        "points"_a = points, "frontier"_a = f.frontier, "reason"_a = f.reason);
      },
      "topology"_a, "collective"_a, "max_chunks"_a = 4, "max_extra_steps"_a = 1, "max_extra_rounds"_a = 8,
      "ports"_a = "all-port", "timeout_ms"_a = 60'000, "symmetric_witnesses"_a = true,
      "max_clauses"_a = synthesis_options{}.max_clauses);
}

}  // namespace dancecard::python
