// What the torus commands share (generate, simulate, draw and prove torus): reading --dims, --supply, --model and
// --groups; building the cycle systems and tables every --algo names; the options of the table searches.
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
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/formats/torus_catalogue.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/search/torus_cycles.hpp"
#include "dancecard/search/torus_tables.hpp"
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

// ⌈(P − 1)/4⌉ is the time-dependent optimum with one packet per PU on 2-D tori with both sides >= 3 (Šoch and
// Tvrdík, the paper's [14]); elsewhere ⌈(P − 1)/2d⌉ is only the counting bound (a PU learns at most 2d packets a step).
bool optimum_known(const torus::network& network) {
  return network.dimension() == 2 && network.dims()[0] >= 3 && network.dims()[1] >= 3;
}

torus::network parse_dims(const std::string& dims) {
  try {
    return torus::network::parse(dims);
  } catch (const std::invalid_argument& e) {
    throw bad_input(std::string("--dims ") + dims + ": " + e.what());
  }
}

supply_policy parse_supply(const std::string& supply) {
  for (supply_policy p : {supply_policy::time_independent, supply_policy::one_switch, supply_policy::scheduled})
    if (supply == to_string(p)) return p;
  throw bad_input("--supply: expected time-independent, one-switch or scheduled, got '" + supply + "'");
}

// The paper's step bound for gossip with one packet per PU along its zigzag cycles, with switching: Theorem 5
// (2-D: ⌈P/4⌉ + n1/2 + 1), Theorem 6 (3-D: ⌈P/6⌉ + n1 n2/2 + 1), Theorem 7 (d >= 4: ⌈(1 + d/n_d) P/(2d)⌉ + 2).
std::pair<std::string, std::uint64_t> zigzag_theorem_bound(const torus::network& t) {
  const std::uint64_t d = t.dimension(), P = t.size(), n1 = t.dims()[0];
  if (d == 2) return {"Theorem 5's bound ceil(P/4) + n1/2 + 1", (P + 3) / 4 + n1 / 2 + 1};
  if (d == 3) return {"Theorem 6's bound ceil(P/6) + n1 n2/2 + 1", (P + 5) / 6 + n1 * t.dims()[1] / 2 + 1};
  return {"Theorem 7's bound with switching ceil((1 + d/n_d) P/(2d)) + 2", theorem_7_switching_bound(t)};
}

// The cycle system of an algorithm: hamiltonian (Section 3.1 in 2-D with both sizes even, else Section 3.4's product
// construction for d = 1, 2, 3, 4, 6, 8 with square switches for 2-D factors not both even and Park's explicit
// construction for 3-D cubes, and the layered construction for any other torus with an odd size, or every size even and
// no product: 3-D, 5-D, 7-D) or one-packet (Section 4's zigzag cycles).
cycle_system build_cycles(const std::string& dims, const std::string& algo) {
  const torus::network t = parse_dims(dims);
  try {
    if (algo == "hamiltonian") return section_3_1_applies(t) ? hamiltonian_2d_cycles(t) : hamiltonian_product_cycles(t);
    if (algo == "one-packet") return zigzag_cycles(t);
    if (algo == "partial") return partial_2d_cycles(t);
    if (algo == "hamiltonian-switch") {
      if (t.size() > 32768)
        throw bad_input("--dims " + dims + " --algo hamiltonian-switch: at most 32768 PUs (32x32x32 takes about 15 s)");
      std::optional<cycle_system> system = switch_search_decomposition(t);
      if (!system)
        throw bad_input(
            "--dims " + dims +
            " --algo hamiltonian-switch: the square-switch search found no decomposition (try hamiltonian-search)");
      return std::move(*system);
    }
    if (algo == "hamiltonian-search") {
      const hamilton_search_result r = search_hamilton_decomposition(t, 60'000);
      if (!r.system) throw bad_input("--dims " + dims + " --algo hamiltonian-search: " + r.reason);
      return *r.system;
    }
  } catch (const std::invalid_argument& e) {
    const std::string hint =
        algo == "hamiltonian"
            ? " (--algo hamiltonian-switch or hamiltonian-search find Hamiltonian cycles for any sizes >= 3)"
            : "";
    throw bad_input(std::string("--dims ") + dims + " --algo " + algo + ": " + e.what() + hint);
  }
  throw bad_input("--algo: expected hamiltonian, hamiltonian-switch, hamiltonian-search, partial or one-packet, got '" +
                  algo + "'");
}

// The routing table of an algorithm over its cycle system (built once, also for the checks that need the cycles).
// supply_search (seconds, "" for none): one-packet and partial systems get their supply from smt/torus_supply.hpp —
// which free link brings which cycle (directly or by one relay) and the fewest-step direction schedule of the policy,
// in one SAT query per step count — instead of cycle_routing's greedy supply.
// certify: its unsat answers (the step below the result) only with a checked DRAT proof. No table within the budget:
// std::nullopt (the caller exits 3).
std::optional<routing_table> table_for(const cycle_system& system, const std::string& algo, supply_policy policy,
                                       const std::string& supply_search, bool certify) {
  if (!supply_search.empty() && algo != "one-packet" && algo != "partial")
    throw bad_input("--supply-search: for --algo one-packet or partial (one packet per PU), not " + algo);
  if (algo == "hamiltonian" && section_3_1_applies(system.network))
    return hamiltonian_2d(system.network);  // Section 3.1
  try {
    if (!supply_search.empty()) {
      const supply_search_result r =
          best_cycle_supply(system, policy, parse_timeout_ms(supply_search, "--supply-search"), 0,
                            {.locality = true, .certify = certify});
      std::cerr << "supply search (" << to_string(policy) << "): " << r.reason;
      if (r.table)
        std::cerr << "; used: " << r.assignment.direct_links << " direct and " << r.assignment.relay_links
                  << " relayed supplying links";
      if (!r.below.empty()) std::cerr << "; one step less: " << r.below;
      std::cerr << "; " << r.queries << " queries, " << static_cast<long long>(r.seconds * 1000) << " ms\n";
      if (!r.table) return std::nullopt;
      if (policy == supply_policy::scheduled) {
        // The matched supply (cycle_routing) lies outside the searched class — its relays switch between their PU's
        // two sources — and can need fewer steps than the class's least (4 x 4 x 4 x 5: 72 against 73): then it is
        // the table given, and said so.
        try {
          routing_table matched = cycle_routing(system, policy, packets_per_pu::one);
          const gossip_report run = simulate_gossip(matched);
          if (run.holds() && run.steps < r.steps && check_supply(matched, system).holds()) {
            std::cerr << "cycle_routing's supply (matched: relays switching between their two sources, outside the "
                         "searched class) needs "
                      << run.steps << " steps, fewer than the class's least " << r.steps << ": that table is given\n";
            return matched;
          }
        } catch (const std::invalid_argument&) {  // the greedy's dead end: the searched table stands
        }
      }
      return r.table;
    }
    return cycle_routing(system, policy,
                         (algo == "one-packet" || algo == "partial") ? packets_per_pu::one : packets_per_pu::per_cycle);
  } catch (const std::invalid_argument& e) {  // e.g. an off-cycle PU that the greedy leaves without a stream
    const std::string hint =
        supply_search.empty() && std::string_view(e.what()).find("greedy supply") != std::string_view::npos
            ? " (--supply-search SECONDS asks the SAT supply instead)"
            : "";
    throw bad_input("--dims " + system.network.name() + " --algo " + algo + ": " + e.what() + hint);
  }
}

// Rejects the search options the chosen source of the table does not read (algo empty: a table file), so that
// `--steps 5` beside `--algo local-search` or a file is not silently ignored.
void reject_unread_options(const local_search_options& o, const std::string& algo) {
  const bool local = algo == "local-search" || algo == "tabu", invariant = algo == "invariant";
  const std::string source = algo.empty() ? "a table file" : "--algo " + algo;
  const auto reject = [&](const CLI::Option* option, bool read, const std::string& needs) {
    if (option != nullptr && option->count() > 0 && !read)
      throw bad_input(option->get_name() + ": only with " + needs + ", not with " + source);
  };
  reject(o.model_option, local || invariant || algo == "catalogue",
         "--algo local-search, tabu, invariant or catalogue");
  reject(o.seconds_option, local || invariant, "--algo local-search, tabu or invariant");
  reject(o.evaluations_option, local, "--algo local-search or tabu");
  reject(o.steps_option, invariant || algo == "tabu", "--algo invariant or tabu");
  reject(o.jobs_option, algo == "tabu", "--algo tabu");
  reject(o.groups_option, invariant || algo == "tabu", "--algo invariant or tabu");
  reject(o.group_index_option, invariant || algo == "tabu", "--algo invariant or tabu");
  reject(o.progress_option, invariant, "--algo invariant");
  reject(o.seed_option, local, "--algo local-search or tabu");
  reject(o.start_option, local, "--algo local-search or tabu");
}

torus_model parse_model(const std::string& model) {
  if (model != "pairing" && model != "general")
    throw bad_input("--model: expected pairing or general, got '" + model + "'");
  return model == "pairing" ? torus_model::pairing : torus_model::general;
}

// --packets K with --algo local-search or invariant: each of the K packets leaves on an out-port in step 1.
void require_packets_fit(const torus::network& t, std::uint32_t packets) {
  if (packets > t.ports())
    throw bad_input("--packets " + std::to_string(packets) + ": at most 2d = " + std::to_string(t.ports()) +
                    " on the " + t.name() + " torus (each is sent on an out-port in step 1)");
}

invariant_groups parse_groups(const std::string& groups) {
  if (groups == "translations") return invariant_groups::translations;
  if (groups == "point") return invariant_groups::point;
  if (groups == "all") return invariant_groups::all;
  if (groups == "mixed") return invariant_groups::with_mixed;
  throw bad_input("--groups: expected translations, point, all or mixed, got '" + groups + "'");
}

// --group-index "3,7,10..12": group numbers of invariant_group_list, each below `count`, in the order given, no
// repeats.
std::vector<std::size_t> parse_group_index(const std::string& text, std::size_t count) {
  std::vector<std::size_t> out;
  for (const std::uint64_t g : parse_values(text, "--group-index", 0, 999'999'999)) {
    if (g >= count)
      throw bad_input("--group-index: group " + std::to_string(g) + " does not exist: this torus has " +
                      std::to_string(count) + " groups" +
                      (count == 0 ? "" : ", numbered 0 to " + std::to_string(count - 1)) + " (see --list-groups)");
    if (std::find(out.begin(), out.end(), g) != out.end())
      throw bad_input("--group-index: group " + std::to_string(g) + " given twice");
    out.push_back(static_cast<std::size_t>(g));
  }
  return out;
}

// --algo tabu: the same options, one packet per PU, tabu_search_torus_table instead of search_torus_table.
routing_table local_search_table(const std::string& dims, const local_search_options& o, std::uint32_t packets,
                                 bool tabu) {
  const torus_model model = parse_model(o.model);
  const torus::network t = parse_dims(dims);
  const std::string algo = tabu ? "tabu" : "local-search";
  if (t.size() > 1024)
    throw bad_input("--dims " + dims + " --algo " + algo +
                    ": at most 1024 PUs (every step of the search evaluates the whole gossip)");
  if (tabu && packets != 1)
    throw bad_input("--packets " + std::to_string(packets) +
                    ": --algo tabu searches one-packet tables (--algo local-search takes --packets K)");
  require_packets_fit(t, packets);
  const unsigned budget = parse_timeout_ms(o.seconds, "--seconds");
  // --start: the catalogue's table, or a table file, to improve on
  std::optional<routing_table> start;
  if (o.start == "catalogue") {
    auto found = catalogued_torus_table(t, o.model);
    if (!found)
      throw bad_input("--start catalogue: the " + t.name() +
                      " torus is not catalogued (generate torus --algo catalogue lists those that are)");
    std::cerr << (tabu ? "tabu search" : "local search") << " starts from the catalogue's " << found->first.file << " ("
              << found->first.steps << " steps)\n";
    start = std::move(found->second);
  } else if (!o.start.empty()) {
    start = parse_input(o.start, [](const std::string& text) { return read_torus_routing(text); });
  }
  // --group-index G with --algo tabu: only tables invariant under group G of --groups (numbered as generate torus
  // --algo invariant --list-groups prints them)
  std::optional<torus_symmetry_group> group;
  if (tabu && o.group_index_option != nullptr && o.group_index_option->count() > 0) {
    const std::vector<torus_symmetry_group> list = invariant_group_list(t, parse_groups(o.groups));
    const std::vector<std::size_t> only = parse_group_index(o.group_index, list.size());
    if (only.size() != 1) throw bad_input("--group-index " + o.group_index + ": --algo tabu takes one group");
    group = list[only.front()];
    std::cerr << "tabu search over the tables invariant under group " << only.front() << " of --groups " << o.groups
              << ": " << describe(t, *group) << "\n";
  } else if (tabu && o.groups_option != nullptr && o.groups_option->count() > 0) {
    throw bad_input(
        "--groups: with --algo tabu only beside --group-index G (the group whose invariant tables it searches)");
  }
  torus_heuristic_result r;
  std::uint64_t seed_used = o.seed;
  std::optional<progress_line> progress(std::in_place, "generate torus: a " + o.model + "-model table of the " +
                                                           t.name() + " torus by " + (tabu ? "tabu" : "local") +
                                                           " search, at most " + o.seconds + " s");
  try {
    if (!tabu) {
      r = search_torus_table(
          t, model, budget,
          {.seed = o.seed, .goal = 0, .packets = packets, .max_evaluations = o.evaluations, .start = start});
    } else {
      // --jobs J: J tabu searches side by side, seeds seed … seed + J − 1, the same budget; the fewest steps wins (on a
      // tie the lowest seed). --steps: each stops once it has a table within that many steps.
      std::vector<torus_heuristic_result> found(o.jobs);
      std::vector<std::exception_ptr> failed(o.jobs);
      std::vector<std::thread> pool;
      for (unsigned j = 0; j < o.jobs; ++j)
        pool.emplace_back([&, j] {
          try {
            found[j] = tabu_search_torus_table(t, model, budget,
                                               {.seed = o.seed + j,
                                                .goal = o.steps,
                                                .max_iterations = o.evaluations,
                                                .start = start,
                                                .group = group,
                                                .solver = invariant_table_solver(t, model)});
          } catch (...) {
            failed[j] = std::current_exception();
          }
        });
      for (std::thread& th : pool) th.join();
      progress.reset();
      for (const std::exception_ptr& e : failed)
        if (e) std::rethrow_exception(e);
      std::size_t best = 0;
      for (std::size_t j = 1; j < found.size(); ++j)
        if (found[j].table && (!found[best].table || found[j].steps < found[best].steps)) best = j;
      if (o.jobs > 1) {
        std::cerr << "tabu search, " << o.jobs << " seeds:";
        for (std::size_t j = 0; j < found.size(); ++j)
          std::cerr << " " << o.seed + j << " → " << (found[j].table ? std::to_string(found[j].steps) : "none");
        std::cerr << "; seed " << o.seed + best << "'s table\n";
      }
      r = std::move(found[best]);
      seed_used = o.seed + best;
    }
  } catch (const std::invalid_argument&
               e) {  // the start table or the group does not fit (the other arguments are checked above)
    if (!start && !group) throw;
    throw bad_input((start ? "--start " + input_name(o.start) : "--group-index " + o.group_index) + ": " + e.what());
  }
  progress.reset();
  if (!r.table)
    throw bad_input("--dims " + dims + " --algo " + algo + ": no table completed gossip within the budget (" +
                    o.seconds + " s)");
  std::cerr << (tabu ? "tabu search (" : "local search (") << o.model << " model, "
            << (packets == 1 ? std::string() : std::to_string(packets) + " packets per PU, ") << "seed " << seed_used
            << "): " << r.steps << " steps after " << r.evaluations << " tables in "
            << static_cast<long long>(r.seconds * 1000) << " ms";
  if (tabu && r.closest > 0) std::cerr << "; one step below, at best " << r.closest << " (PU, packet) pairs missing";
  if (r.solver_queries > 0)
    std::cerr << "; its start: " << r.solver_queries << " SAT quer" << (r.solver_queries == 1 ? "y" : "ies")
              << " over the group's tables, "
              << (r.solver_steps > 0 ? "a " + std::to_string(r.solver_steps) + "-step table" : std::string("no table"));
  std::cerr << "\n";
  return std::move(*r.table);
}

// --algo catalogue: the catalogued table with the fewest steps for the torus and --model (formats/torus_catalogue.hpp).
routing_table catalogue_table(const std::string& dims, const local_search_options& o) {
  parse_model(o.model);
  const torus::network t = parse_dims(dims);
  auto found = catalogued_torus_table(t, o.model);
  if (!found) {
    std::string tori;
    for (const torus_catalogue_entry& e : torus_catalogue())
      if (const std::string name = torus::network(e.dims).name(); tori.find(" " + name + ",") == std::string::npos)
        tori += " " + name + ",";
    tori.pop_back();
    throw bad_input("--dims " + dims + " --algo catalogue: the " + t.name() +
                    " torus is not catalogued (catalogued, sizes in any order:" + tori + ")");
  }
  // The step count is the file name's: the table is simulated before it is handed out, and must complete in exactly
  // that many steps.
  const gossip_report run = simulate_gossip(found->second, found->first.steps + 1);
  if (!run.holds() || run.steps != found->first.steps)
    throw violated_claim("the catalogued table " + found->first.file + " states " + std::to_string(found->first.steps) +
                         " steps; simulated: " + describe(run));
  std::cerr
      << "catalogue (" << o.model << " model): " << found->first.file << ", " << found->first.steps
      << " steps, simulated — the best table known to dancecard; docs/torus-limits.md says whether it is the minimum\n";
  return std::move(found->second);
}

// "3, 7, 10..12" (sorted numbers, runs as ranges; with `sep` ",": "3,7,10..12", as --group-index reads it)
std::string group_ranges(std::vector<std::size_t> numbers, const std::string& sep) {
  std::sort(numbers.begin(), numbers.end());
  std::string out;
  for (std::size_t k = 0; k < numbers.size();) {
    std::size_t end = k;
    while (end + 1 < numbers.size() && numbers[end + 1] == numbers[end] + 1) ++end;
    if (!out.empty()) out += sep;
    out += std::to_string(numbers[k]);
    if (end > k) out += ".." + std::to_string(numbers[end]);
    k = end + 1;
  }
  return out;
}

// --algo invariant: a table of the pairing or general model completing within --steps, invariant under a group of
// translations (--groups point: of automorphisms without translations — reflections, rotations, glide reflections;
// all: translations first, then those), found by SAT (smt/torus_encoding.hpp: search_invariant_table, largest groups
// first, in rounds of doubling budgets); none when no group answers sat within --seconds: exit 3, or with certify
// (--certify) and every group's unsat proof checked, exit 1 (no_table_code) — proven that no table invariant under any
// of these groups completes within --steps. An upper bound only: unsat for every group says nothing about the tables
// without such symmetry.
std::optional<routing_table> invariant_table(const std::string& dims, const local_search_options& o, bool certify,
                                             std::uint32_t packets, int& no_table_code) {
  const torus_model model = parse_model(o.model);
  const invariant_groups groups = parse_groups(o.groups);
  const torus::network t = parse_dims(dims);
  if (o.steps == 0)
    throw bad_input("--algo invariant: needs --steps T (the step count the table must complete within)");
  if (t.size() > 256)
    throw bad_input("--dims " + dims +
                    " --algo invariant: at most 256 PUs (the search asks one SAT query per subgroup)");
  require_packets_fit(t, packets);
  if (packets > 1 && groups != invariant_groups::translations)
    throw bad_input("--packets " + std::to_string(packets) +
                    " --algo invariant: translation groups only (--groups translations, the default), not " + o.groups);
  const unsigned budget = parse_timeout_ms(o.seconds, "--seconds");
  // in rounds of doubling budgets, uncapped: the groups that answer at once go first, the last hard one may take the
  // rest
  const bool some = o.group_index_option != nullptr && o.group_index_option->count() > 0;
  const std::vector<std::size_t> only =
      some ? parse_group_index(o.group_index, invariant_group_list(t, groups).size()) : std::vector<std::size_t>{};
  // A progress line while the groups are asked (a terminal only, not --quiet): how many have answered; and with
  // --progress a line per group as it answers, so that a campaign stopped before its end keeps what it learned.
  std::optional<progress_line> line(std::in_place, "generate torus: a table of the " + t.name() +
                                                       " torus invariant under a group, within " +
                                                       std::to_string(o.steps) + " steps");
  std::uint64_t answered = 0;
  std::function<void(const invariant_group_answer&)> progress = [&](const invariant_group_answer& a) {
    ++answered;
    if (o.progress) {
      line->clear();
      std::cerr << "group " << a.group << " (" << describe(t, a.symmetry) << "): "
                << (a.answer == solver_answer::sat ? "a table"
                    : a.certified                  ? "unsat, DRAT proof checked"
                                                   : "unsat");
      if (a.implied_by) std::cerr << ", as it contains a conjugate of group " << *a.implied_by;
      std::cerr << " (its queries " << static_cast<long long>(a.group_seconds * 1000) << " ms; "
                << static_cast<long long>(a.search_seconds * 1000) << " ms into the search)\n"
                << std::flush;
    }
    line->update(std::to_string(answered) + (answered == 1 ? " group answered" : " groups answered") +
                 ", the last group " + std::to_string(a.group));
  };
  torus_invariant_search_result r = search_invariant_table(
      t, model, o.steps, budget,
      {.groups = groups, .packets = packets, .certify = certify, .only = only, .on_answer = progress});
  line.reset();
  const char* kind = groups == invariant_groups::translations ? "translation groups"
                     : groups == invariant_groups::point      ? "point groups"
                                                              : "groups";
  std::cerr << "invariant search (" << o.model << " model, "
            << (packets == 1 ? std::string() : std::to_string(packets) + " packets per PU, ") << o.steps
            << " steps): " << r.asked << " of " << r.groups << " " << kind << " asked (" << r.unsat << " unsat"
            << (r.implied > 0 ? ", " + std::to_string(r.implied) + " of them as they contain a conjugate of another"
                              : std::string())
            << ", " << r.unknown << " out of time; " << r.queries << (r.queries == 1 ? " query in " : " queries in ")
            << r.rounds << (r.rounds == 1 ? " round" : " rounds") << ") in " << static_cast<long long>(r.seconds * 1000)
            << " ms";
  if (!r.table) {
    if (certify && r.unsat == r.groups) {
      std::cerr << "; proven: no table invariant under any of the " << r.groups << " " << kind << " completes within "
                << o.steps << " steps (every unsat answer's DRAT proof checked by checkers/drat_check"
                << (r.implied > 0 ? ", or implied by one: the group contains a conjugate of a group so refuted" : "")
                << ")\n";
      no_table_code = exit_violated;
    } else {
      std::cerr << "; no table found" << (certify ? " (the unsat answers' DRAT proofs checked)" : "");
      if (!r.open_groups.empty())
        std::cerr << "; still open (out of time or not asked): group" << (r.open_groups.size() == 1 ? " " : "s ")
                  << group_ranges(r.open_groups, ", ") << " — ask them again with --groups " << o.groups
                  << " --group-index " << group_ranges(r.open_groups, ",");
      std::cerr << "\n";
    }
    return std::nullopt;
  }
  std::cerr << "; group " << *r.group_index << " of --list-groups: a table invariant under " << describe(t, *r.group)
            << "\n";
  return std::move(r.table);
}

// --packets 2 with --algo partial: Theorems 3 and 4 on the partial cycles (core: twin_cycle_routing); --packets K with
// --algo local-search or invariant: K own packets per PU (at most 2d, checked with the dimensions). Every other
// combination is refused by name.
void check_packets(std::uint32_t packets, const std::string& algo, const std::string& supply,
                   const std::string& supply_search) {
  if (packets == 1 || algo == "local-search" || algo == "invariant" || algo == "tabu")
    return;  // tabu: refused with its own reason
  if (packets != 2) throw bad_input("--packets: expected 1 or 2, got " + std::to_string(packets));
  if (algo != "partial")
    throw bad_input(
        "--packets 2: for --algo partial (the other constructions fix their packets per PU: hamiltonian d, one-packet "
        "1), not " +
        algo);
  if (!supply_search.empty()) throw bad_input("--packets 2: --supply-search searches one-packet supplies only");
  if (parse_supply(supply) != supply_policy::scheduled)
    throw bad_input("--packets 2: the off-cycle PUs' supply switches step by step (scheduled); --supply " + supply +
                    " is not available");
}

routing_table two_packet_table(const cycle_system& system) {
  try {
    return twin_cycle_routing(system).table;
  } catch (const std::invalid_argument& e) {
    throw bad_input("--dims " + system.network.name() + " --algo partial --packets 2: " + e.what());
  }
}

// --max-delay D > 1 (one packet per PU, scheduled supply): the packet-matched supply may also let senders hold packets
// up to D steps (switches with a delay); its least table is compared in the simulator with cycle_routing's, and the
// one with fewer steps is given (cycle_routing's on a tie).
void check_max_delay(std::uint32_t max_delay, const std::string& algo, const std::string& supply,
                     const std::string& supply_search, std::uint32_t packets) {
  if (max_delay == 1) return;
  if (max_delay > max_switch_delay)
    throw bad_input("--max-delay: at most " + std::to_string(max_switch_delay) + ", got " + std::to_string(max_delay));
  if (algo != "one-packet" && algo != "partial")
    throw bad_input("--max-delay: for --algo one-packet or partial, not " + algo);
  if (packets != 1)
    throw bad_input("--max-delay: with one packet per PU (the two-packet hand-over sets its own delays)");
  if (!supply_search.empty())
    throw bad_input("--max-delay: the SAT supply (--supply-search) forwards what arrived the step before");
  if (parse_supply(supply) != supply_policy::scheduled)
    throw bad_input("--max-delay: with --supply scheduled (the default), not " + supply);
}

// --certify checks the unsat answers of the two SAT searches that give them; anywhere else it would be ignored.
void check_certify(bool certify, const std::string& supply_search, const std::string& algo, bool table_file) {
  if (certify && (table_file || (supply_search.empty() && algo != "invariant")))
    throw bad_input(
        "--certify: with --supply-search or --algo invariant (the searches whose unsat answers it checks), not " +
        (table_file ? std::string("a table file") : "--algo " + algo));
}

// The table to give for --max-delay (see check_max_delay); when both were simulated (with `options`), the given one's
// report goes to *run, so that `simulate` need not run it a third time.
routing_table held_packet_table(const cycle_system& system, routing_table table, std::uint32_t max_delay,
                                const gossip_options& options, std::optional<gossip_report>* run) {
  if (max_delay == 1) return table;
  std::optional<routing_table> held = least_packet_matched_routing(system, nullptr, 0, max_delay);
  if (!held) return table;
  gossip_report a = simulate_gossip(table, options), b = simulate_gossip(*held, options);
  const bool fewer = b.holds() && (!a.holds() || b.steps < a.steps);
  if (fewer)
    std::cerr << "the packet-matched supply with senders holding packets up to " << max_delay << " steps needs "
              << b.steps << " steps, fewer than " << a.steps << ": that table is given\n";
  if (run != nullptr) *run = std::move(fewer ? b : a);
  return fewer ? std::move(*held) : std::move(table);
}

std::optional<routing_table> build(const std::string& dims, const std::string& algo, const std::string& supply,
                                   const local_search_options& local, const std::string& supply_search, bool certify,
                                   std::uint32_t packets, std::uint32_t max_delay, int& no_table_code) {
  if (algo == "catalogue") return catalogue_table(dims, local);
  if (algo == "local-search") return local_search_table(dims, local, packets);
  if (algo == "tabu") return local_search_table(dims, local, packets, true);
  if (algo == "invariant") return invariant_table(dims, local, certify, packets, no_table_code);
  const supply_policy policy = parse_supply(supply);
  const cycle_system system = build_cycles(dims, algo);
  if (packets == 2) return two_packet_table(system);
  std::optional<routing_table> table = table_for(system, algo, policy, supply_search, certify);
  if (table) table = held_packet_table(system, std::move(*table), max_delay);
  return table;
}

void add_local_search_options(CLI::App* command, local_search_options& o) {
  o.model_option = command->add_option(
      "--model", o.model, "with --algo local-search, tabu, invariant or catalogue: pairing (default) or general");
  o.seconds_option = command->add_option("--seconds", o.seconds,
                                         "with --algo local-search, tabu or invariant: the search budget (default 10)");
  o.evaluations_option =
      command
          ->add_option(
              "--evaluations", o.evaluations,
              "with --algo local-search or tabu: stop after this many tables (local-search) or iterations (tabu) as "
              "well "
              "— a work limit, so that a seed gives the same table on any machine under any load (default: none)")
          ->check(integer_at_least(1));
  // CLI11 reads "-3" into an unsigned option as 2^64 - 3: the checks keep negative (and zero) counts out
  o.steps_option =
      command
          ->add_option(
              "--steps", o.steps,
              "with --algo invariant: the step count the table must complete within; with --algo tabu: stop once a "
              "table completes within it (default: the parity bound)")
          ->check(integer_at_least(1));
  o.jobs_option =
      add_jobs_option(command, o.jobs, "tabu searches (with --algo tabu)", "seeds --seed … --seed + J - 1 (default 1)");
  o.seed_option = add_seed_option(command, o.seed, "the search (with --algo local-search or tabu; default 1)");
  o.start_option = command->add_option(
      "--start", o.start,
      "with --algo local-search or tabu: catalogue (the catalogue's table for --dims and --model) or a "
      "dancecard.torus-routing/1 file — the search begins from its forwarding instead of a random table, "
      "to improve on it");
  o.groups_option = command->add_option(
      "--groups", o.groups,
      "with --algo invariant (and tabu with --group-index): translations (default), point (groups of reflections, "
      "rotations and glide reflections "
      "without translations, one per class up to translation), all (translations first) or mixed (all, then the groups "
      "of some translations with reflections, rotations or glide reflections, numbered after all's)");
  o.progress_option = command->add_flag(
      "--progress", o.progress,
      "with --algo invariant: print a line to stderr as each group answers (unsat, or a table), with its time");
  o.group_index_option = command->add_option(
      "--group-index", o.group_index,
      "LIST: with --algo invariant, ask only these groups of --groups, by number (e.g. 3,7,10..12: the numbers "
      "generate torus --list-groups prints, and a search that ran out of time names those left open); with --algo "
      "tabu, one "
      "group G: search only the tables invariant under it (general model: starting from the best of the pairing "
      "search and the group's SAT query, asked from --steps up)");
}

}  // namespace dancecard::cli
