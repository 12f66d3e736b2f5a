// `dancecard generate torus --dims 6x8 --algo hamiltonian` and `dancecard simulate torus (--dims D --algo A | TABLE)`.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/smt/torus_encoding.hpp"

namespace dancecard::cli {

namespace {
routing_table build(const std::string& dims, const std::string& algo) {
  try {
    const torus t = torus::parse(dims);
    if (algo == "hamiltonian") return hamiltonian_2d(t);
  } catch (const std::invalid_argument& e) {
    throw bad_input(std::string("--dims ") + dims + ": " + e.what());
  }
  throw bad_input("--algo: expected hamiltonian (Section 3.1; partial and one-packet are not built yet), got '" + algo + "'");
}
}  // namespace

void add_torus_commands(CLI::App& app, int& code) {
  struct options {
    std::string dims, algo = "hamiltonian", table, output;
    bool json = false;
  };
  auto g = std::make_shared<options>();
  CLI::App* generate = app.get_subcommand("generate")->add_subcommand("torus", "A time-independent torus routing table");
  generate->add_option("--dims", g->dims, "sizes, e.g. 6x8")->required();
  generate->add_option("--algo", g->algo, "hamiltonian (Section 3.1: n1, n2 even; two edge-disjoint Hamiltonian cycles)");
  generate->add_option("--output,-o", g->output, "write to FILE instead of stdout");
  generate->callback([g, &code] {
    const routing_table table = build(g->dims, g->algo);
    write_output(g->output, [&](std::ostream& out) { write_torus_routing(out, table, g->algo); });
    code = exit_holds;
  });

  auto s = std::make_shared<options>();
  CLI::App* simulate = app.get_subcommand("simulate")->add_subcommand("torus", "Gossip on a torus by a routing table");
  simulate->add_option("table", s->table, "a dancecard.torus-routing/1 file (or - for stdin); or use --dims and --algo");
  simulate->add_option("--dims", s->dims, "sizes, e.g. 6x8 (with --algo)");
  simulate->add_option("--algo", s->algo, "hamiltonian");
  simulate->add_flag("--json", s->json, "print the result as JSON");
  simulate->callback([s, &code] {
    if (s->table.empty() == s->dims.empty()) throw bad_input("simulate torus: give a table file or --dims (not both)");
    const routing_table table = s->table.empty() ? build(s->dims, s->algo)
                                                 : parse_input(s->table, [](const std::string& t) { return read_torus_routing(t); });
    const torus_cycle_report cycles = forwarding_cycles(table, false);
    const gossip_report run = simulate_gossip(table);
    const std::uint64_t P = table.network.size();
    const std::uint64_t optimum = (P - 1 + 3) / 4;  // ⌈(P − 1)/4⌉, the time-dependent optimum in 2-D (one packet)
    if (s->json) {
      std::cout << nlohmann::json{{"format", "dancecard.torus-simulation/1"},
                                  {"dims", table.network.dims()},
                                  {"packets", table.packets},
                                  {"complete", run.holds()},
                                  {"steps", run.steps},
                                  {"link_steps", run.link_steps},
                                  {"cycles", cycles.holds() ? nlohmann::json(cycles.undirected_cycles) : nlohmann::json(nullptr)},
                                  {"hamiltonian", cycles.holds() && cycles.all_hamiltonian},
                                  {"report", run.holds() ? "" : describe(run)}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << "gossip on the " << table.network.name() << " torus (P = " << P << ", " << table.packets
                << " packet(s) per PU): ";
      if (run.holds()) std::cout << "complete after " << run.steps << " steps";
      else std::cout << "INCOMPLETE after " << run.steps << " steps";
      std::cout << "; " << run.link_steps << " link-steps\n";
      if (cycles.holds())
        std::cout << "  forwarding rules: " << cycles.undirected_cycles << " cycles"
                  << (cycles.all_hamiltonian ? ", all Hamiltonian" : ", not all Hamiltonian") << "\n";
      else
        std::cout << "  forwarding rules do not form closed cycles: " << describe(cycles);
      if (table.network.dimension() == 2)
        std::cout << "  time-dependent optimum with one packet per PU: ceil((P - 1)/4) = " << optimum << " steps\n";
      if (!run.holds()) std::cout << describe(run);
    }
    code = run.holds() ? exit_holds : exit_violated;
  });

  struct prove_options {
    std::string dims, model = "pairing", timeout = "60";
    bool json = false;
  };
  auto pr = std::make_shared<prove_options>();
  CLI::App* prove = app.get_subcommand("prove")->add_subcommand(
      "torus", "The least number of steps of time-independent gossip, one packet per PU (Z3)");
  prove->add_option("--dims", pr->dims, "sizes, e.g. 4x4")->required();
  prove->add_option("--model", pr->model, "pairing (the general model is not built yet)");
  prove->add_option("--timeout", pr->timeout, "seconds per solver query (default 60)");
  prove->add_flag("--json", pr->json, "print the result as JSON");
  prove->callback([pr, &code] {
    if (pr->model != "pairing") throw bad_input("--model: expected pairing (the general model is not built yet), got '" + pr->model + "'");
    torus t({2, 2});
    try {
      t = torus::parse(pr->dims);
    } catch (const std::invalid_argument& e) {
      throw bad_input(std::string("--dims ") + pr->dims + ": " + e.what());
    }
    if (t.size() > 64) throw bad_input("--dims " + pr->dims + ": at most 64 PUs for an exact minimum");
    const torus_minimum_result r = prove_torus_pairing_minimum(t, parse_timeout_ms(pr->timeout, "--timeout"));
    const std::uint64_t P = t.size();
    const std::uint64_t optimum = (P - 1 + t.ports() - 1) / t.ports();
    if (pr->json) {
      std::cout << nlohmann::json{{"format", "dancecard.torus-proof/1"},
                                  {"dims", t.dims()},
                                  {"model", pr->model},
                                  {"status", to_string(r.status)},
                                  {"minimum_steps", r.status == proof_status::proven ? nlohmann::json(r.minimum_steps) : nlohmann::json(nullptr)},
                                  {"counting_bound", r.lower_bound},
                                  {"time_dependent_optimum", optimum},
                                  {"certificate", "none (Z3's unsat only)"},
                                  {"reason", r.reason},
                                  {"seconds", r.seconds}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << t.name() << " torus, pairing model, one packet per PU: " << to_string(r.status);
      if (r.status == proof_status::proven) std::cout << ", minimum " << r.minimum_steps << " steps";
      std::cout << " (counting bound " << r.lower_bound << "; " << r.reason << "; " << static_cast<long long>(r.seconds * 1000)
                << " ms)\n";
    }
    code = r.status == proof_status::proven ? exit_holds : r.status == proof_status::refuted ? exit_violated : exit_unknown;
  });
}

}  // namespace dancecard::cli
