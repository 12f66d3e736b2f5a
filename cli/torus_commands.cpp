// `dancecard generate torus --dims 6x8 --algo hamiltonian` and `dancecard simulate torus (--dims D --algo A | TABLE)`.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "common.hpp"
#include "cube_commands.hpp"
#include "cube_queries.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/formats/torus_catalogue.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "dancecard/smt/torus_supply.hpp"

#include "torus_support.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;
using namespace dancecard::torus;
using namespace dancecard::certificates;

namespace {

// prove torus --steps T --cubes N: the query split into cubes (smt/torus_cubes.hpp), solved --jobs at a time.
void prove_split(const torus::network& t, torus_model model, const std::string& model_name, std::uint64_t steps,
                 unsigned budget, const torus_split_options& split, std::uint32_t packets, const std::string& emit,
                 bool json, const std::function<void(const std::optional<routing_table>&, const std::string&)>& save,
                 int& code) {
  if (packets != 1)
    throw bad_input("--cubes: one packet per PU only (not with --packets " + std::to_string(packets) + ")");
  if (!emit.empty())
    throw bad_input(
        "--emit: not with --cubes (each cube has its own proof; the split's certificate is not written yet)");
  if (split.cubes > 65'536) throw bad_input("--cubes " + std::to_string(split.cubes) + ": at most 65536");
  const unsigned jobs = split.jobs;
  const torus_split_result r = solve_torus_cubes(t, model, steps, budget, split);
  save(r.query.witness, "sat-" + model_name);
  const std::string answer(to_string(r.query.answer));
  const auto slowest =
      std::max_element(r.cubes.begin(), r.cubes.end(),
                       [](const torus_cube_answer& a, const torus_cube_answer& b) { return a.seconds < b.seconds; });
  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (const torus_cube_answer& c : r.cubes)
      list.push_back({{"cube", c.description},
                      {"answer", c.asked ? std::string(to_string(c.answer)) : "not asked"},
                      {"seconds", c.seconds},
                      {"reason", c.reason}});
    std::cout << nlohmann::json{{"format", "dancecard.torus-query/1"},
                                {"dims", t.dims()},
                                {"model", model_name},
                                {"packets", packets},
                                {"steps", steps},
                                {"answer", answer},
                                {"reason", r.query.reason},
                                {"seconds", r.query.seconds},
                                {"split",
                                 {{"groups", r.split},
                                  {"jobs", jobs},
                                  {"refuted", r.refuted},
                                  {"cube_seconds", r.cube_seconds},
                                  {"cubes", list}}}}
                     .dump(2)
              << "\n";
  } else if (r.cubes.empty()) {  // below the counting or parity bound: the count's empty clause, nothing to split
    std::cout << t.name() << " torus, " << model_name << " model, one packet per PU, within " << steps
              << " steps, not split: " << answer << " (" << r.query.reason << "; "
              << static_cast<long long>(r.query.seconds * 1000) << " ms)\n";
  } else {
    std::cout << t.name() << " torus, " << model_name << " model, one packet per PU, within " << steps
              << " steps, split into " << r.cubes.size() << " cubes (" << r.split.size() << " groups: ";
    for (std::size_t g = 0; g < r.split.size(); ++g) std::cout << (g ? ", " : "") << r.split[g];
    std::cout << "), " << jobs << " at a time: " << answer << " (" << r.query.reason << "; "
              << static_cast<long long>(r.query.seconds * 1000) << " ms wall, "
              << static_cast<long long>(r.cube_seconds * 1000) << " ms over the cubes";
    if (slowest != r.cubes.end() && slowest->asked)
      std::cout << ", the longest " << static_cast<long long>(slowest->seconds * 1000) << " ms";
    std::cout << ")\n";
    for (const torus_cube_answer& c : r.cubes)
      if (c.asked && c.answer != solver_answer::unsat)
        std::cout << "  cube " << c.description << ": " << to_string(c.answer) << " (" << c.reason << ")\n";
  }
  code = exit_for(r.query.answer);
}

// --emit for prove torus: the witness table, the DIMACS query and its DRAT proof (of an unsat answer kept with its
// certificate), and a manifest naming them with their SHA-256 sums and the commands that re-check them.
// packets: the own packets per PU the query was about (the CNF and what it assumes differ from one packet on).
void emit_torus_certificates(const std::string& dir, const torus::network& t, const std::string& model,
                             const std::string& stem, const std::string& query, const std::string& status,
                             const std::string& reason, const std::optional<routing_table>& witness,
                             const torus_query_result* unsat, std::uint32_t packets) {
  nlohmann::json files = nlohmann::json::array();
  if (witness) {
    std::ostringstream table;
    write_torus_routing(table, *witness, "witness-" + model);
    files.push_back(emit_file(dir, stem + "-witness.json", table.str()));
  }
  if (unsat != nullptr && !unsat->formula.empty()) {
    files.push_back(emit_file(dir, stem + "-lower.cnf", unsat->formula));
    files.push_back(emit_file(dir, stem + "-lower.drat", unsat->proof));
  }
  const nlohmann::json manifest = {
      {"format", "dancecard.manifest/1"},
      {"query", query},
      {"dims", t.dims()},
      {"model", model},
      {"status", status},
      {"reason", reason},
      {"files", files},
      {"solvers", {clausal_solver_version()}},
      {"checker",
       "dancecard check-proof FILE-lower.cnf FILE-lower.drat (or any DRAT checker); dancecard simulate torus "
       "FILE-witness.json"},
      {"packets", packets},
      {"assumes",
       packets != 1
           ? "the CNF (torus_packets_cnf) states the question exactly (its comments name the variables; "
             "smt/src/torus_packets_cnf.cpp, property torus_packets.cnf_exact_against_the_simulator), and its implied "
             "constraints (the arrival count, every packet sent, every out-port busy) and symmetry breaks (packet 0 "
             "on out-port 0, the lex-leader of add_symmetry_break) keep a completing table whenever there is one "
             "(arguments in torus_packets_cnf; property torus_packets.implied_constraints_keep_the_minimum), and a "
             "lower bound without a solver is the counting bound ceil(K(P - 1)/2d)"
           : "the CNF states the question exactly (its comments name the variables; smt/src/torus_cnf.cpp, "
             "property torus_cnf.exact_against_the_simulator), its symmetry break keeps an image of every table "
             "(argument in add_symmetry_break; property torus_cnf.symmetry_break_keeps_an_image_of_every_table), its "
             "implied arrival count, by step parity where tighter, keeps every completing table (argument in "
             "add_arrival_count; properties torus_cnf.arrival_count_keeps_every_table and "
             "torus_cnf.arrival_count_keeps_the_minimum), and a lower bound without a solver is the counting bound "
             "or the parity bound (a packet moves one hop per step: core's parity_bound; property "
             "torus_bounds.arrivals_keep_the_parity_of_the_distance)"}};
  emit_file(dir, stem + ".manifest.json", manifest.dump(2) + "\n");
}

}  // namespace

void add_torus_commands(CLI::App& app, int& code) {
  struct options {
    std::string dims, algo = "hamiltonian", table, output, supply = "scheduled", arrivals, supply_search;
    bool json = false, certify = false, list_groups = false;
    std::uint32_t packets = 1, max_delay = 1;
    std::uint64_t max_switch_step = 0;  // simulate torus FILE: 0 is the reader's default
    local_search_options local;
  };
  auto g = std::make_shared<options>();
  CLI::App* generate =
      app.get_subcommand("generate")->add_subcommand("torus", "A time-independent torus routing table");
  generate->add_option("--dims", g->dims, "sizes, e.g. 6x8")->required();
  generate->add_option(
      "--algo", g->algo,
      "hamiltonian (Section 3.1 in 2-D with n1, n2 even; otherwise square switches in 2-D and Section 3.4 for d = 3 "
      "cubes m x m x m, m != 4 (Park's explicit construction) and products for d = 1, 4, 6, 8 — every 2-D factor both "
      "even or both sizes >= 3, every 3-D factor such a cube — and for every other torus with all sizes >= 3 and one "
      "odd, one dimension at a time (layered), also tori with every size even and no product (3-D, 5-D, 7-D) and P <= "
      "2097152 (layered, with frames scrambled by seeded square switches); d packets per PU), "
      "hamiltonian-switch (d edge-disjoint Hamiltonian cycles by randomized square switches, any sizes >= 3, up to "
      "32768 PUs) or "
      "hamiltonian-search (d edge-disjoint Hamiltonian cycles found by SAT, any sizes >= 3, up to 4096 PUs) or "
      "partial (Sections 3.2 and 3.3: partial cycles, n2 odd >= 5, n1 even or odd >= 5; one packet per PU, or two with "
      "--packets 2) or "
      "one-packet (Section 4: zigzag cycles, one packet per PU; for d >= 4 the greedy supply misses Theorem 7, "
      "--supply-search meets it) or "
      "local-search (a pairing or general table with few steps, one packet per PU or --packets K, found against the "
      "simulator) or "
      "tabu (the same, one packet per PU, by tabu search over every single change, counting the missing pairs without "
      "simulating; "
      "every table it gives is simulated; with --group-index G only tables invariant under group G of --groups) or "
      "catalogue (the best pairing or general table dancecard knows for a small torus of docs/torus-limits.md, stored; "
      "one packet per PU) or "
      "invariant (a pairing or general table completing within --steps, invariant under a group of translations, found "
      "by SAT; one packet per PU or --packets K; exit 3 if none)");
  generate->add_option("--supply", g->supply,
                       "how out-of-cycle PUs are supplied: time-independent, one-switch or scheduled (default)");
  const char* supply_search_help =
      "SECONDS: with --algo one-packet or partial, choose the supply by SAT (free links direct or by one relay, and "
      "the --supply policy's "
      "direction schedule with the fewest steps, simulated) within this budget; exit 3 if none is found";
  generate->add_option("--supply-search", g->supply_search, supply_search_help);
  const char* certify_help =
      "with --supply-search: the unsat answer one step below only with a checked DRAT proof; with --algo invariant: "
      "every group's unsat "
      "answer only with a checked DRAT proof (exit 1 when every group is so ruled out)";
  generate->add_flag("--certify", g->certify, certify_help);
  const char* packets_help =
      "with --algo partial: 2 for Theorems 3 and 4 — two packets per PU, cycle c carrying packet c; a PU off a cycle "
      "hands that packet to a "
      "neighbour on it, which sends it on right after its own; with --algo local-search: K own packets per PU (at most "
      "2d), each out-port "
      "sending one of them in step 1, then only forwarding (as prove torus --packets); with --algo invariant: the "
      "same, tables invariant "
      "under a translation group (default 1)";
  generate->add_option("--packets", g->packets, packets_help)->check(integer_at_least(1));
  const char* max_delay_help =
      "D, with --algo one-packet or partial and the scheduled supply: off-cycle PUs' suppliers may hold a packet up to "
      "D steps "
      "(2.."
      "8; switches with a delay) where that gossips faster (default 1: forward what arrived the step before)";
  generate->add_option("--max-delay", g->max_delay, max_delay_help)->check(integer_at_least(1));
  add_local_search_options(generate, g->local);
  generate->add_option("--output,-o", g->output, "write to FILE instead of stdout")->check(writable_file());
  generate->add_flag("--list-groups", g->list_groups,
                     "with --algo invariant: print the groups --groups names, numbered as --group-index reads them "
                     "(order and generators), "
                     "and ask nothing");
  generate->callback([g, &code] {
    reject_unread_options(g->local, g->algo);
    if (g->list_groups) {
      if (g->algo != "invariant") throw bad_input("--list-groups: only with --algo invariant");
      const torus::network t = parse_dims(g->dims);
      if (t.size() > 256)
        throw bad_input("--dims " + g->dims + " --list-groups: at most 256 PUs, as for --algo invariant");
      const std::vector<torus_symmetry_group> list = invariant_group_list(t, parse_groups(g->local.groups));
      write_output(g->output, [&](std::ostream& out) {
        for (std::size_t k = 0; k < list.size(); ++k) out << k << "  " << describe(t, list[k]) << "\n";
      });
      code = exit_holds;
      return;
    }
    check_packets(g->packets, g->algo, g->supply, g->supply_search);
    check_max_delay(g->max_delay, g->algo, g->supply, g->supply_search, g->packets);
    check_certify(g->certify, g->supply_search, g->algo, false);
    int no_table_code = exit_unknown;
    const std::optional<routing_table> table = build(g->dims, g->algo, g->supply, g->local, g->supply_search,
                                                     g->certify, g->packets, g->max_delay, no_table_code);
    if (!table) {
      code = no_table_code;
      return;
    }
    write_output(g->output, [&](std::ostream& out) { write_torus_routing(out, *table, g->algo); });
    code = exit_holds;
  });

  auto s = std::make_shared<options>();
  CLI::App* simulate = app.get_subcommand("simulate")->add_subcommand("torus", "Gossip on a torus by a routing table");
  simulate->add_option("table", s->table,
                       "a dancecard.torus-routing/1 file (or - for stdin); or use --dims and --algo");
  simulate->add_option("--dims", s->dims, "sizes, e.g. 6x8 (with --algo)");
  simulate->add_option("--algo", s->algo,
                       "hamiltonian, hamiltonian-switch, hamiltonian-search, partial, one-packet, local-search, tabu, "
                       "invariant or catalogue");
  simulate->add_option("--supply", s->supply, "time-independent, one-switch or scheduled (default)");
  simulate->add_option("--supply-search", s->supply_search, supply_search_help);
  simulate->add_flag("--certify", s->certify, certify_help);
  simulate->add_option("--packets", s->packets, packets_help)->check(integer_at_least(1));
  simulate->add_option("--max-delay", s->max_delay, max_delay_help)->check(integer_at_least(1));
  simulate
      ->add_option("--max-switch-step", s->max_switch_step,
                   "with a table file: the latest switch step read (default 4·P·packets + 64, later than any sensible "
                   "gossip takes); the simulator may run that many steps")
      ->check(integer_at_least(1));
  add_local_search_options(simulate, s->local);
  simulate->add_flag("--json", s->json, "print the result as JSON");
  simulate
      ->add_option("--arrivals", s->arrivals,
                   "write FILE.csv: for every PU and packet the step in which the PU first held it (0: its own); at "
                   "most 2^22 entries")
      ->check(writable_file());
  simulate->callback([s, &code] {
    if (s->table.empty() == s->dims.empty()) throw bad_input("simulate torus: give a table file or --dims (not both)");
    reject_unread_options(s->local, s->table.empty() ? s->algo : std::string());
    if (!s->table.empty() && s->packets != 1)
      throw bad_input("--packets: with --dims and --algo partial (a table file gives its own packets)");
    check_packets(s->packets, s->algo, s->supply, s->supply_search);
    if (!s->table.empty() && s->max_delay != 1)
      throw bad_input("--max-delay: with --dims (a table file gives its own switches)");
    if (s->table.empty() && s->max_switch_step != 0) throw bad_input("--max-switch-step: only with a table file");
    check_max_delay(s->max_delay, s->algo, s->supply, s->supply_search, s->packets);
    check_certify(s->certify, s->supply_search, s->algo, !s->table.empty());
    supply_policy system_policy = supply_policy::scheduled;
    std::optional<cycle_system> system;  // built once: the table and the cycle checks both use it
    const bool local = s->table.empty() && (s->algo == "local-search" || s->algo == "tabu" || s->algo == "invariant" ||
                                            s->algo == "catalogue");
    if (s->table.empty() && !local) {
      const supply_policy policy = parse_supply(s->supply);  // checked before the (possibly slow) construction
      system = build_cycles(s->dims, s->algo);
      system_policy = policy;
    }
    if (!s->supply_search.empty() && !system)
      throw bad_input("--supply-search: needs --dims with --algo one-packet or partial");
    int no_table_code = exit_unknown;
    std::optional<routing_table> found =
        local ? build(s->dims, s->algo, s->supply, s->local, s->supply_search, s->certify, s->packets, 1, no_table_code)
        : s->packets == 2 ? two_packet_table(*system)
        : s->table.empty()
            ? table_for(*system, s->algo, system_policy, s->supply_search, s->certify)
            : parse_input(s->table, [&](const std::string& t) { return read_torus_routing(t, s->max_switch_step); });
    if (!found) {
      code = no_table_code;
      return;
    }
    const std::uint64_t entries =
        static_cast<std::uint64_t>(found->network.size()) * found->network.size() * found->packets;
    if (!s->arrivals.empty() && entries > (std::uint64_t{1} << 22))
      throw bad_input("--arrivals: " + std::to_string(entries) + " entries (PUs x packets) is more than 2^22");
    const gossip_options options{0, 10, !s->arrivals.empty()};
    std::optional<gossip_report> held_run;  // --max-delay: the given table was simulated when it was chosen
    if (system && s->packets == 1)
      found = held_packet_table(*system, std::move(*found), s->max_delay, options, &held_run);
    const routing_table& table = *found;
    const torus_cycle_report cycles = forwarding_cycles(table, {.require_hamiltonian = false});
    const gossip_report run = held_run ? std::move(*held_run) : simulate_gossip(table, options);
    if (run.outcome == verdict::unknown)
      throw bad_input("simulate torus on " + table.network.name() + ": " + run.checked);
    if (!s->arrivals.empty())
      write_output(s->arrivals, [&](std::ostream& out) {
        const std::uint64_t packets = static_cast<std::uint64_t>(table.network.size()) * table.packets;
        out << "pu,packet,first_step\n";  // packet q of PU u is u·packets_per_pu + q; empty step: never
        for (std::uint64_t pu = 0; pu < table.network.size(); ++pu)
          for (std::uint64_t q = 0; q < packets; ++q) {
            const std::uint32_t at = run.first_arrival[pu * packets + q];
            out << pu << ',' << q << ',';
            if (at != UINT32_MAX) out << at;
            out << '\n';
          }
      });
    const std::uint64_t P = table.network.size();
    const std::uint64_t optimum = counting_bound(table.network);                  // ⌈(P − 1)/2d⌉
    const std::uint64_t counting = counting_bound(table.network, table.packets);  // k packets per PU: ⌈k(P − 1)/2d⌉
    // one packet per PU, none held back (a switch with delay > 1 holds packets): core's parity bound, where it is above
    // the counting bound
    const bool held =
        std::any_of(table.switches.begin(), table.switches.end(), [](const port_switch& w) { return w.delay > 1; });
    const std::uint64_t parity = table.packets == 1 && !held && P <= 4096 ? parity_bound(table.network) : 0;
    std::optional<cycle_system_report> system_check;
    std::optional<supply_report> supply_check;
    // Section 4.3.4: two zigzags of one cycle may pass the same PU, so the zigzag cycles are closed trails
    if (system)
      system_check = check_cycle_system(*system, 2, 10, s->algo == "one-packet"),
      supply_check = check_supply(table, *system);
    const bool holds =
        run.holds() && (!system_check || system_check->holds()) && (!supply_check || supply_check->holds());
    if (s->json) {
      nlohmann::json j{
          {"format", "dancecard.torus-simulation/1"},
          {"dims", table.network.dims()},
          {"packets", table.packets},
          {"switches", table.switches.size()},
          {"complete", run.holds()},
          {"steps", run.steps},
          {"link_steps", run.link_steps},
          {"duplicate_receives", run.duplicate_receives},
          {"time_dependent_optimum", optimum_known(table.network) ? nlohmann::json(optimum) : nlohmann::json(nullptr)},
          {"counting_bound", counting},
          {"parity_bound", parity != 0 ? nlohmann::json(parity) : nlohmann::json(nullptr)},
          {"report", run.holds() ? "" : describe(run)}};
      if (system && s->algo == "one-packet") j["theorem_bound"] = zigzag_theorem_bound(table.network).second;
      if (system && s->packets == 2) j["theorem_bound"] = (P + 1) / 2;  // Theorems 3 and 4: ⌈n1·n2/2⌉
      if (P <= 4096) j["completion_steps"] = run.completion;  // per PU: the step after which it held every packet
      if (cycles.holds()) j["cycles"] = cycles.undirected_cycles, j["hamiltonian"] = cycles.all_hamiltonian;
      if (system_check) {
        j["cycle_lengths"] = system_check->lengths;
        j["cycle_check"] = system_check->holds() ? "holds" : describe(*system_check);
        j["supply_check"] = supply_check->holds() ? "holds" : describe(*supply_check);
        j["supply_max_delay"] = supply_check->max_delay;
      }
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << "gossip on the " << table.network.name() << " torus (P = " << P << ", " << table.packets
                << " packet(s) per PU";
      if (!table.switches.empty()) std::cout << ", " << table.switches.size() << " switches";
      std::cout << "): ";
      if (run.holds())
        std::cout << "complete after " << run.steps << " steps";
      else
        std::cout << "INCOMPLETE after " << run.steps << " steps";
      std::cout << "; " << run.link_steps << " link-steps, " << run.duplicate_receives << " duplicate receives\n";
      if (system_check) {
        std::cout << "  cycles: " << describe(*system_check) << "  lengths:";
        for (std::uint64_t l : system_check->lengths) std::cout << " " << l;
        std::cout << "\n  locality: " << describe(*supply_check);
        if (supply_check->supplied_pairs > 0)
          std::cout << "  off-cycle PUs supplied within " << supply_check->max_delay << " link(s)\n";
      } else if (cycles.holds()) {
        std::cout << "  forwarding rules: " << cycles.undirected_cycles << " cycles"
                  << (cycles.all_hamiltonian ? ", all Hamiltonian" : ", not all Hamiltonian") << "\n";
      } else {
        std::cout << "  forwarding rules are not a pure cycle structure (supply links share in-ports)\n";
      }
      if (system && s->algo == "one-packet") {
        const auto [theorem, bound] = zigzag_theorem_bound(table.network);
        std::cout << "  " << theorem << " = " << bound << " steps\n";
      }
      if (system && s->packets == 2)
        std::cout << "  Theorem " << (P % 2 == 0 ? "3" : "4")
                  << "'s count with two packets per PU: ceil(n1 n2/2) = " << (P + 1) / 2 << " steps\n";
      if (table.packets == 1 && optimum_known(table.network))
        std::cout << "  time-dependent optimum with one packet per PU: ceil((P - 1)/" << table.network.ports()
                  << ") = " << optimum << " steps\n";
      else if (table.packets == 1)
        std::cout << "  counting bound with one packet per PU: ceil((P - 1)/" << table.network.ports()
                  << ") = " << optimum << " steps\n";
      else
        std::cout << "  counting bound with " << table.packets << " packets per PU: ceil(" << table.packets
                  << "(P - 1)/" << table.network.ports() << ") = " << counting << " steps\n";
      if (parity > optimum)
        std::cout << "  parity bound with one packet per PU, none held back: " << parity
                  << " steps (a packet moves one hop per step, so one at even distance comes in even steps only)\n";
      if (!run.holds()) std::cout << describe(run);
    }
    code = holds ? exit_holds : exit_violated;
  });

  add_draw_torus_command(app, code);

  auto pt = std::make_shared<std::uint32_t>(11);
  CLI::App* two = app.get_subcommand("prove")->add_subcommand(
      "two-cycles",
      "Theorem 1: least gossip time over every pair of edge-disjoint Hamiltonian cycles on P nodes (enumeration)");
  two->add_option("--P", *pt, "nodes, 5 to 13 ((P - 1)!/2 second cycles: P = 12 takes seconds, 13 minutes)")
      ->required();
  two->callback([pt, &code] {
    if (*pt < 5 || *pt > 13) throw bad_input("--P: expected 5 to 13, got " + std::to_string(*pt));
    const auto start = std::chrono::steady_clock::now();
    const two_cycle_minimum r = least_two_cycle_gossip_steps(*pt);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::uint64_t bound = (11 * std::uint64_t{*pt} + 39) / 40 - 1;
    std::cout << "P = " << *pt << ": " << r.cycles << " edge-disjoint second cycles; least gossip time " << r.steps
              << " steps; Theorem 1's bound ceil(11P/40 - 1) = " << bound
              << "; time-dependent optimum ceil((P - 1)/4) = " << (*pt + 2) / 4 << " ("
              << static_cast<long long>(seconds * 1000) << " ms)\n  a least second cycle:";
    for (std::uint32_t v : r.second) std::cout << " " << v;
    std::cout << "\n";
    code = r.cycles == 0 || r.steps >= bound ? exit_holds : exit_violated;
  });

  struct prove_options {
    std::string dims, model = "pairing", timeout = "60", engine = "sat", witness, emit, emit_cubes;
    std::uint64_t steps = 0, cubes = 0;
    std::uint32_t packets = 1;
    unsigned jobs = 1;
    std::string cube_timeout;
    bool json = false;
    CLI::Option* jobs_option = nullptr;
  };
  auto pr = std::make_shared<prove_options>();
  CLI::App* prove = app.get_subcommand("prove")->add_subcommand(
      "torus", "The least number of steps of time-independent gossip, one packet per PU (or --packets K)");
  prove->add_option("--dims", pr->dims, "sizes, e.g. 4x4")->required();
  prove->add_option("--model", pr->model,
                    "pairing (each PU pairs its ports) or general (each out-port forwards one in-port or nothing)");
  prove->add_option(
      "--engine", pr->engine,
      "sat (CaDiCaL, unsat certified by a checked DRAT proof; default) or z3 (pairing only, no certificate)");
  add_timeout_option(prove, pr->timeout, "solver query (default 60)");
  prove->add_flag("--json", pr->json, "print the result as JSON");
  prove
      ->add_option("--packets", pr->packets,
                   "own packets per PU (default 1; at most 2d): in step 1 each out-port sends one of them, chosen by "
                   "the solver, and from "
                   "step 2 on every PU only forwards what arrived the step before, by the model's rule — no packet is "
                   "held (Theorems 3 "
                   "and 4 have 2, and the paper's partial cycles need held packets for them: docs/torus.md). The "
                   "search starts at "
                   "the counting bound ceil(K(P - 1)/2d); sat engine only")
      ->check(integer_at_least(1));
  prove
      ->add_option("--steps", pr->steps,
                   "ask one question instead of searching: can some table complete within this many steps? "
                   "(exit 0 with a simulated witness, 1 unsat with a checked DRAT proof, 3 unknown; sat engine only)")
      ->check(integer_at_least(1));
  prove
      ->add_option(
          "--cubes", pr->cubes,
          "with --steps: split the query into at least N cubes (every combination of the pairings, or of the in-ports "
          "of "
          "out-ports, of the PUs farthest from PU 0) and solve them side by side; unsat only when every cube's DRAT "
          "proof is accepted and the cubes are checked to cover the query (one packet per PU, 1 to 65536; for machines "
          "with many cores: the longest cube, not the sum, is then the wall time)")
      ->check(integer_at_least(1));
  prove->add_option(
      "--cube-timeout", pr->cube_timeout,
      "with --cubes: at most this many seconds of solving per cube (default: what is left of --timeout); the cubes "
      "out of time are listed, to see how many cubes of a hard query answer quickly");
  prove->add_option(
      "--emit-cubes", pr->emit_cubes,
      "with --steps and --cubes: solve nothing, write the split into DIR as jobs for a batch scheduler "
      "(query.cnf, split.json, a cube-N.cube and a `dancecard solve-cube DIR N` line of jobs.txt per cube, "
      "slurm.sh), for `dancecard merge-cubes DIR` (docs/scale-out.md); --cube-timeout becomes each job's "
      "budget");
  pr->jobs_option =
      add_jobs_option(prove, pr->jobs, "cubes (with --cubes)", "each holds its own solver and proof trace (default 1)");
  prove
      ->add_option(
          "--witness", pr->witness,
          "write the witness table (dancecard.torus-routing/1) to FILE: with --steps when sat, else the table of the "
          "minimum (or of the upper bound when the minimum is not proven)")
      ->check(writable_file());
  prove->add_option(
      "--emit", pr->emit,
      "write into DIR what a reader needs to re-check the answer without dancecard's solver: the unsat query below "
      "the minimum as DIMACS (FILE-lower.cnf) with CaDiCaL's DRAT proof (FILE-lower.drat) for `dancecard check-proof` "
      "or any DRAT checker, the witness table (FILE-witness.json) for `dancecard simulate torus`, and a manifest "
      "with SHA-256 sums (sat engine only)");
  prove->callback([pr, &code] {
    const torus_model model = parse_model(pr->model);
    if (!pr->emit.empty() && pr->engine != "sat")
      throw bad_input("--emit: only with --engine sat (Z3's unsat has no certificate)");
    auto save = [&](const std::optional<routing_table>& table, const std::string& algorithm) {
      if (!pr->witness.empty() && table)
        write_output(pr->witness, [&](std::ostream& out) { write_torus_routing(out, *table, algorithm); });
    };
    if (pr->engine != "sat" && pr->engine != "z3")
      throw bad_input("--engine: expected sat or z3, got '" + pr->engine + "'");
    if (pr->engine == "z3" && pr->model != "pairing")
      throw bad_input("--engine z3: only the pairing model is encoded for Z3");
    const torus::network t = parse_dims(pr->dims);
    if (t.size() > 64) throw bad_input("--dims " + pr->dims + ": at most 64 PUs for an exact minimum");
    const unsigned budget = parse_timeout_ms(pr->timeout, "--timeout");
    const std::uint32_t k = pr->packets;
    if (k > t.ports())
      throw bad_input("--packets " + std::to_string(k) + ": at most 2d = " + std::to_string(t.ports()) +
                      " (each needs an out-port in step 1)");
    if (k != 1 && pr->engine != "sat") throw bad_input("--packets: only with --engine sat");
    const std::string per_pu = k == 1 ? "one packet per PU" : std::to_string(k) + " packets per PU";
    const std::string tag = k == 1 ? pr->model : pr->model + "-" + std::to_string(k) + "-packets";
    if (pr->cubes != 0 && pr->steps == 0) throw bad_input("--cubes: only with --steps (one query split into cubes)");
    if (*pr->jobs_option && pr->cubes == 0) throw bad_input("--jobs: only with --cubes");
    if (!pr->cube_timeout.empty() && pr->cubes == 0) throw bad_input("--cube-timeout: only with --cubes");
    const unsigned cube_budget = pr->cube_timeout.empty() ? 0 : parse_timeout_ms(pr->cube_timeout, "--cube-timeout");
    if (pr->steps != 0) {
      if (pr->engine != "sat") throw bad_input("--steps: only with --engine sat");
      if (pr->steps > t.dimension() * t.size() * 4)
        throw bad_input("--steps " + std::to_string(pr->steps) + ": more than 4·d·P steps");
      if (!pr->emit_cubes.empty()) {
        if (pr->cubes == 0) throw bad_input("--emit-cubes: with --cubes");
        if (k != 1) throw bad_input("--emit-cubes: one packet per PU only");
        if (pr->cubes > 65'536) throw bad_input("--cubes " + std::to_string(pr->cubes) + ": at most 65536");
        emit_cubes(pr->emit_cubes, torus_spec(pr->dims, pr->model, pr->steps), pr->cubes, 0, cube_budget / 1000);
        code = exit_holds;
        return;
      }
      if (pr->cubes != 0) {
        prove_split(t, model, pr->model, pr->steps, budget,
                    {.cubes = pr->cubes, .jobs = pr->jobs, .cube_budget_ms = cube_budget}, k, pr->emit, pr->json, save,
                    code);
        return;
      }
      if (!pr->emit.empty()) create_emit_directory(pr->emit);
      std::optional<progress_line> progress(std::in_place, "prove torus: " + t.name() + ", " + pr->model + " model, " +
                                                               per_pu + ", within " + std::to_string(pr->steps) +
                                                               " steps?");
      const torus_query_result q =
          k == 1 ? solve_torus_clausal(t, model, pr->steps, budget, torus_symmetry::automorphisms, !pr->emit.empty())
                 : solve_torus_packets(t, model, k, pr->steps, budget, !pr->emit.empty());
      progress.reset();
      save(q.witness, "sat-" + pr->model);
      const std::string answer(to_string(q.answer));
      if (!pr->emit.empty())
        emit_torus_certificates(
            pr->emit, t, pr->model, "torus-" + t.name() + "-" + tag + "-" + std::to_string(pr->steps),
            "time-independent gossip on the " + t.name() + " torus, " + pr->model + " model, " + per_pu +
                ": can some table complete within " + std::to_string(pr->steps) + " steps?",
            answer, q.reason, q.witness, q.answer == solver_answer::unsat ? &q : nullptr, k);
      if (pr->json) {
        std::cout << nlohmann::json{{"format", "dancecard.torus-query/1"},
                                    {"dims", t.dims()},
                                    {"model", pr->model},
                                    {"packets", k},
                                    {"steps", pr->steps},
                                    {"answer", answer},
                                    {"reason", q.reason},
                                    {"seconds", q.seconds}}
                         .dump(2)
                  << "\n";
      } else {
        std::cout << t.name() << " torus, " << pr->model << " model, " << per_pu << ", within " << pr->steps
                  << " steps: " << answer << " (" << q.reason << "; " << static_cast<long long>(q.seconds * 1000)
                  << " ms)\n";
      }
      code = exit_for(q.answer);
      return;
    }
    if (!pr->emit.empty()) create_emit_directory(pr->emit);
    // the step count asked and what is proven so far, on stderr while the search runs (a terminal only, not --quiet)
    std::optional<progress_line> progress(std::in_place, "prove torus: the least steps of the " + t.name() +
                                                             " torus, " + pr->model + " model, " + per_pu);
    const torus_minimum_result r = prove_torus_minimum(
        t, model, budget,
        {.engine = pr->engine == "z3" ? torus_engine::z3 : torus_engine::clausal,
         .packets = k,
         .keep_certificate = !pr->emit.empty(),
         .on_query = [&](std::uint64_t steps, std::uint64_t lower, std::uint64_t upper) {
           progress->update("asking " + std::to_string(steps) + " steps (at least " + std::to_string(lower) +
                            (upper != 0 ? ", at most " + std::to_string(upper) : std::string()) + ")");
         }});
    progress.reset();
    const std::optional<routing_table> best = r.status == proof_status::proven ? r.at_minimum.witness
                                              : r.upper                        ? r.upper->witness
                                                                               : std::nullopt;
    save(best, "minimum-" + tag);
    if (!pr->emit.empty()) {
      const bool certified = r.proven_lower > r.parity_bound && r.below_minimum.answer == solver_answer::unsat;
      emit_torus_certificates(
          pr->emit, t, pr->model, "torus-" + t.name() + "-" + tag,
          "time-independent gossip on the " + t.name() + " torus, " + pr->model + " model, " + per_pu +
              ": the least number of steps" +
              (r.status == proof_status::proven ? " is " + std::to_string(r.minimum_steps) : std::string()) +
              " (at least " + std::to_string(r.proven_lower) +
              (certified ? ": " + std::to_string(r.proven_lower - 1) + " steps unsat, the -lower files"
               : r.parity_bound > r.lower_bound ? ": the parity bound, no solver"
                                                : ": the counting bound, no solver") +
              (r.upper_bound != 0 ? "; at most " + std::to_string(r.upper_bound) + ": the -witness table"
                                  : std::string()) +
              ")",
          std::string(to_string(r.status)), r.reason, best, certified ? &r.below_minimum : nullptr, k);
    }
    const std::uint64_t optimum = counting_bound(t, k);
    const bool optimum_is_known = k == 1 && optimum_known(t);  // Šoch and Tvrdík's optimum is for one packet per PU
    const std::string certificate =
        r.minimum_steps > r.parity_bound
            ? (pr->engine == "z3" ? "none (Z3's unsat only)"
                                  : "DRAT proof of the step below, checked by checkers/drat_check")
        : r.minimum_steps > r.lower_bound ? "parity bound"
                                          : "counting bound";
    if (pr->json) {
      std::cout << nlohmann::json{{"format", "dancecard.torus-proof/1"},
                                  {"dims", t.dims()},
                                  {"model", pr->model},
                                  {"packets", k},
                                  {"engine", pr->engine},
                                  {"status", to_string(r.status)},
                                  {"minimum_steps", r.status == proof_status::proven ? nlohmann::json(r.minimum_steps)
                                                                                     : nlohmann::json(nullptr)},
                                  {"counting_bound", r.lower_bound},
                                  {"parity_bound", r.parity_bound},
                                  {"proven_lower_bound", r.proven_lower},
                                  {"upper_bound",
                                   r.upper_bound != 0 ? nlohmann::json(r.upper_bound) : nlohmann::json(nullptr)},
                                  {"time_dependent_optimum",
                                   optimum_is_known ? nlohmann::json(optimum) : nlohmann::json(nullptr)},
                                  {"certificate", r.status == proof_status::proven ? certificate : "none"},
                                  {"reason", r.reason},
                                  {"seconds", r.seconds}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << t.name() << " torus, " << pr->model << " model, " << per_pu << ": " << to_string(r.status);
      if (r.status == proof_status::proven)
        std::cout << ", minimum " << r.minimum_steps << " steps";
      else if (r.status == proof_status::unknown && r.proven_lower > 0)
        std::cout << ", minimum >= " << r.proven_lower
                  << (r.upper_bound != 0 ? " and <= " + std::to_string(r.upper_bound) : std::string()) << " steps";
      std::cout << (optimum_is_known ? " (time-dependent optimum " : " (counting bound ") << optimum << "; " << r.reason
                << "; " << static_cast<long long>(r.seconds * 1000) << " ms)\n";
    }
    code = r.status == proof_status::proven    ? exit_holds
           : r.status == proof_status::refuted ? exit_violated
                                               : exit_unknown;
  });
}

}  // namespace dancecard::cli
