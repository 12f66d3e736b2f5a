// `dancecard generate torus --dims 6x8 --algo hamiltonian` and `dancecard simulate torus (--dims D --algo A | TABLE)`.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/formats/torus_catalogue.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/hamilton_search.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "dancecard/smt/torus_supply.hpp"

namespace dancecard::cli {

namespace {

// ⌈(P − 1)/4⌉ is the time-dependent optimum with one packet per PU on 2-D tori with both sides >= 3 (Šoch and
// Tvrdík, the paper's [14]); elsewhere ⌈(P − 1)/2d⌉ is only the counting bound (a PU learns at most 2d packets a step).
bool optimum_known(const torus& network) {
  return network.dimension() == 2 && network.dims()[0] >= 3 && network.dims()[1] >= 3;
}

torus parse_dims(const std::string& dims) {
  try {
    return torus::parse(dims);
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
std::pair<std::string, std::uint64_t> zigzag_theorem_bound(const torus& t) {
  const std::uint64_t d = t.dimension(), P = t.size(), n1 = t.dims()[0];
  if (d == 2) return {"Theorem 5's bound ceil(P/4) + n1/2 + 1", (P + 3) / 4 + n1 / 2 + 1};
  if (d == 3) return {"Theorem 6's bound ceil(P/6) + n1 n2/2 + 1", (P + 5) / 6 + n1 * t.dims()[1] / 2 + 1};
  return {"Theorem 7's bound with switching ceil((1 + d/n_d) P/(2d)) + 2", theorem_7_switching_bound(t)};
}

// The cycle system of an algorithm: hamiltonian (Section 3.1 in 2-D with both sizes even, else Section 3.4's product
// construction for d = 1, 2, 3, 4, 6, 8 with square switches for 2-D factors not both even and Park's explicit construction for 3-D
// cubes, and the layered construction for any other torus with an odd size, or every size even and no product: 3-D, 5-D, 7-D) or one-packet (Section 4's zigzag cycles).
cycle_system build_cycles(const std::string& dims, const std::string& algo) {
  const torus t = parse_dims(dims);
  try {
    if (algo == "hamiltonian") return section_3_1_applies(t) ? hamiltonian_2d_cycles(t) : hamiltonian_product_cycles(t);
    if (algo == "one-packet") return zigzag_cycles(t);
    if (algo == "partial") return partial_2d_cycles(t);
    if (algo == "hamiltonian-switch") {
      if (t.size() > 32768) throw bad_input("--dims " + dims + " --algo hamiltonian-switch: at most 32768 PUs (32x32x32 takes about 15 s)");
      std::optional<cycle_system> system = switch_search_decomposition(t);
      if (!system) throw bad_input("--dims " + dims + " --algo hamiltonian-switch: the square-switch search found no decomposition (try hamiltonian-search)");
      return std::move(*system);
    }
    if (algo == "hamiltonian-search") {
      const hamilton_search_result r = search_hamilton_decomposition(t, 60'000);
      if (!r.system) throw bad_input("--dims " + dims + " --algo hamiltonian-search: " + r.reason);
      return *r.system;
    }
  } catch (const std::invalid_argument& e) {
    const std::string hint = algo == "hamiltonian" ? " (--algo hamiltonian-switch or hamiltonian-search find Hamiltonian cycles for any sizes >= 3)" : "";
    throw bad_input(std::string("--dims ") + dims + " --algo " + algo + ": " + e.what() + hint);
  }
  throw bad_input("--algo: expected hamiltonian, hamiltonian-switch, hamiltonian-search, partial or one-packet, got '" + algo + "'");
}

// The routing table of an algorithm over its cycle system (built once, also for the checks that need the cycles).
// supply_search (seconds, "" for none): one-packet and partial systems get their supply from smt/torus_supply.hpp —
// which free link brings which cycle (directly or by one relay) and the fewest-step direction schedule of the policy,
// in one SAT query per step count — instead of cycle_routing's greedy supply.
// certify: its unsat answers (the step below the result) only with a checked DRAT proof. No table within the budget:
// std::nullopt (the caller exits 3).
std::optional<routing_table> table_for(const cycle_system& system, const std::string& algo, supply_policy policy, const std::string& supply_search = "",
                                       bool certify = false) {
  if (!supply_search.empty() && algo != "one-packet" && algo != "partial")
    throw bad_input("--supply-search: for --algo one-packet or partial (one packet per PU), not " + algo);
  if (algo == "hamiltonian" && section_3_1_applies(system.network)) return hamiltonian_2d(system.network);  // Section 3.1
  try {
    if (!supply_search.empty()) {
      const supply_search_result r =
          best_cycle_supply(system, policy, parse_timeout_ms(supply_search, "--supply-search"), 0, {.locality = true, .certify = certify});
      std::cerr << "supply search (" << to_string(policy) << "): " << r.reason;
      if (r.table) std::cerr << "; used: " << r.assignment.direct_links << " direct and " << r.assignment.relay_links << " relayed supplying links";
      if (!r.below.empty()) std::cerr << "; one step less: " << r.below;
      std::cerr << "; " << r.queries << " queries, " << static_cast<long long>(r.seconds * 1000) << " ms\n";
      if (!r.table) return std::nullopt;
      if (policy == supply_policy::scheduled) {
        // The matched supply (cycle_routing) lies outside the searched class — its relays switch between their PU's
        // two sources — and can need fewer steps than the class's least (4 x 4 x 4 x 5: 72 against 73): then it is
        // the table given, and said so.
        try {
          routing_table matched = cycle_routing(system, policy, true);
          const gossip_report run = simulate_gossip(matched);
          if (run.holds() && run.steps < r.steps && check_supply(matched, system).holds()) {
            std::cerr << "cycle_routing's supply (matched: relays switching between their two sources, outside the searched class) needs "
                      << run.steps << " steps, fewer than the class's least " << r.steps << ": that table is given\n";
            return matched;
          }
        } catch (const std::invalid_argument&) {  // the greedy's dead end: the searched table stands
        }
      }
      return r.table;
    }
    return cycle_routing(system, policy, algo == "one-packet" || algo == "partial");
  } catch (const std::invalid_argument& e) {  // e.g. an off-cycle PU that the greedy leaves without a stream
    const std::string hint = supply_search.empty() && std::string_view(e.what()).find("greedy supply") != std::string_view::npos
                                 ? " (--supply-search SECONDS asks the SAT supply instead)"
                                 : "";
    throw bad_input("--dims " + system.network.name() + " --algo " + algo + ": " + e.what() + hint);
  }
}

// --algo local-search: a table of the pairing or general model (one packet per PU) found by local search against the
// simulator (smt/torus_encoding.hpp: search_torus_table) — no cycle system, no proof of minimality.
struct local_search_options {
  std::string model = "pairing", seconds = "10", groups = "translations", group_index, start;
  std::uint64_t seed = 1, steps = 0, evaluations = 0;
  unsigned jobs = 1;
  bool progress = false;
  // the registered options, to tell "given" from "default" (an option the chosen --algo ignores is an error)
  CLI::Option *model_option = nullptr, *seconds_option = nullptr, *evaluations_option = nullptr, *steps_option = nullptr, *seed_option = nullptr, *groups_option = nullptr,
              *group_index_option = nullptr, *progress_option = nullptr, *start_option = nullptr, *jobs_option = nullptr;
};

// Rejects the search options the chosen source of the table does not read (algo empty: a table file), so that
// `--steps 5` beside `--algo local-search` or a file is not silently ignored.
void reject_unread_options(const local_search_options& o, const std::string& algo) {
  const bool local = algo == "local-search" || algo == "tabu", invariant = algo == "invariant";
  const std::string source = algo.empty() ? "a table file" : "--algo " + algo;
  const auto reject = [&](const CLI::Option* option, bool read, const std::string& needs) {
    if (option != nullptr && option->count() > 0 && !read)
      throw bad_input(option->get_name() + ": only with " + needs + ", not with " + source);
  };
  reject(o.model_option, local || invariant || algo == "catalogue", "--algo local-search, tabu, invariant or catalogue");
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
  if (model != "pairing" && model != "general") throw bad_input("--model: expected pairing or general, got '" + model + "'");
  return model == "pairing" ? torus_model::pairing : torus_model::general;
}

// --packets K with --algo local-search or invariant: each of the K packets leaves on an out-port in step 1.
void require_packets_fit(const torus& t, std::uint32_t packets) {
  if (packets > t.ports())
    throw bad_input("--packets " + std::to_string(packets) + ": at most 2d = " + std::to_string(t.ports()) + " on the " + t.name() +
                    " torus (each is sent on an out-port in step 1)");
}

invariant_groups parse_groups(const std::string& groups) {
  if (groups == "translations") return invariant_groups::translations;
  if (groups == "point") return invariant_groups::point;
  if (groups == "all") return invariant_groups::all;
  if (groups == "mixed") return invariant_groups::with_mixed;
  throw bad_input("--groups: expected translations, point, all or mixed, got '" + groups + "'");
}

// --group-index "3,7,10-12": group numbers of invariant_group_list, each below `count`, in the order given, no repeats.
std::vector<std::size_t> parse_group_index(const std::string& text, std::size_t count) {
  std::vector<std::size_t> out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, comma - begin);
    const std::size_t dash = item.find('-');
    const std::string first = item.substr(0, dash), last = dash == std::string::npos ? first : item.substr(dash + 1);
    const auto digits = [](const std::string& t) {
      return !t.empty() && t.size() <= 9 && std::all_of(t.begin(), t.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
    };
    if (!digits(first) || !digits(last))
      throw bad_input("--group-index: expected group numbers and ranges such as 3,7,10-12, got '" + text + "' (at '" + item + "')");
    const std::size_t a = std::stoul(first), b = std::stoul(last);
    if (a > b) throw bad_input("--group-index: the range " + item + " runs backwards");
    if (b >= count)
      throw bad_input("--group-index: group " + std::to_string(b) + " does not exist: this torus has " + std::to_string(count) +
                      " groups, numbered 0 to " + std::to_string(count - 1) + " (see --list-groups)");
    for (std::size_t g = a; g <= b; ++g) {
      if (std::find(out.begin(), out.end(), g) != out.end()) throw bad_input("--group-index: group " + std::to_string(g) + " given twice");
      out.push_back(g);
    }
    begin = comma + 1;
  }
  return out;
}

// --algo tabu: the same options, one packet per PU, tabu_search_torus_table instead of search_torus_table.
routing_table local_search_table(const std::string& dims, const local_search_options& o, std::uint32_t packets, bool tabu = false) {
  const torus_model model = parse_model(o.model);
  const torus t = parse_dims(dims);
  const std::string algo = tabu ? "tabu" : "local-search";
  if (t.size() > 1024) throw bad_input("--dims " + dims + " --algo " + algo + ": at most 1024 PUs (every step of the search evaluates the whole gossip)");
  if (tabu && packets != 1) throw bad_input("--packets " + std::to_string(packets) + ": --algo tabu searches one-packet tables (--algo local-search takes --packets K)");
  require_packets_fit(t, packets);
  const unsigned budget = parse_timeout_ms(o.seconds, "--seconds");
  // --start: the catalogue's table, or a table file, to improve on
  std::optional<routing_table> start;
  if (o.start == "catalogue") {
    auto found = catalogued_torus_table(t, o.model);
    if (!found) throw bad_input("--start catalogue: the " + t.name() + " torus is not catalogued (generate torus --algo catalogue lists those that are)");
    std::cerr << (tabu ? "tabu search" : "local search") << " starts from the catalogue's " << found->first.file << " (" << found->first.steps << " steps)\n";
    start = std::move(found->second);
  } else if (!o.start.empty()) {
    start = parse_input(o.start, [](const std::string& text) { return read_torus_routing(text); });
  }
  // --group-index G with --algo tabu: only tables invariant under group G of --groups (numbered as generate torus --algo
  // invariant --list-groups prints them)
  std::optional<torus_symmetry_group> group;
  if (tabu && o.group_index_option != nullptr && o.group_index_option->count() > 0) {
    const std::vector<torus_symmetry_group> list = invariant_group_list(t, parse_groups(o.groups));
    const std::vector<std::size_t> only = parse_group_index(o.group_index, list.size());
    if (only.size() != 1) throw bad_input("--group-index " + o.group_index + ": --algo tabu takes one group");
    group = list[only.front()];
    std::cerr << "tabu search over the tables invariant under group " << only.front() << " of --groups " << o.groups << ": " << describe(t, *group) << "\n";
  } else if (tabu && o.groups_option != nullptr && o.groups_option->count() > 0) {
    throw bad_input("--groups: with --algo tabu only beside --group-index G (the group whose invariant tables it searches)");
  }
  torus_heuristic_result r;
  std::uint64_t seed_used = o.seed;
  try {
    if (!tabu) {
      r = search_torus_table(t, model, budget, o.seed, 0, packets, o.evaluations, start);
    } else {
      // --jobs J: J tabu searches side by side, seeds seed … seed + J − 1, the same budget; the fewest steps wins (on a tie
      // the lowest seed). --steps: each stops once it has a table within that many steps.
      std::vector<torus_heuristic_result> found(o.jobs);
      std::vector<std::exception_ptr> failed(o.jobs);
      std::vector<std::thread> pool;
      for (unsigned j = 0; j < o.jobs; ++j)
        pool.emplace_back([&, j] {
          try {
            found[j] = tabu_search_torus_table(t, model, budget, o.seed + j, o.steps, o.evaluations, start, group);
          } catch (...) {
            failed[j] = std::current_exception();
          }
        });
      for (std::thread& th : pool) th.join();
      for (const std::exception_ptr& e : failed)
        if (e) std::rethrow_exception(e);
      std::size_t best = 0;
      for (std::size_t j = 1; j < found.size(); ++j)
        if (found[j].table && (!found[best].table || found[j].steps < found[best].steps)) best = j;
      if (o.jobs > 1) {
        std::cerr << "tabu search, " << o.jobs << " seeds:";
        for (std::size_t j = 0; j < found.size(); ++j) std::cerr << " " << o.seed + j << " → " << (found[j].table ? std::to_string(found[j].steps) : "none");
        std::cerr << "; seed " << o.seed + best << "'s table\n";
      }
      r = std::move(found[best]);
      seed_used = o.seed + best;
    }
  } catch (const std::invalid_argument& e) {  // the start table or the group does not fit (the other arguments are checked above)
    if (!start && !group) throw;
    throw bad_input((start ? "--start " + input_name(o.start) : "--group-index " + o.group_index) + ": " + e.what());
  }
  if (!r.table) throw bad_input("--dims " + dims + " --algo " + algo + ": no table completed gossip within the budget (" + o.seconds + " s)");
  std::cerr << (tabu ? "tabu search (" : "local search (") << o.model << " model, " << (packets == 1 ? std::string() : std::to_string(packets) + " packets per PU, ")
            << "seed " << seed_used << "): " << r.steps << " steps after " << r.evaluations << " tables in " << static_cast<long long>(r.seconds * 1000)
            << " ms";
  if (tabu && r.closest > 0) std::cerr << "; one step below, at best " << r.closest << " (PU, packet) pairs missing";
  if (r.solver_queries > 0)
    std::cerr << "; its start: " << r.solver_queries << " SAT quer" << (r.solver_queries == 1 ? "y" : "ies") << " over the group's tables, "
              << (r.solver_steps > 0 ? "a " + std::to_string(r.solver_steps) + "-step table" : std::string("no table"));
  std::cerr << "\n";
  return std::move(*r.table);
}

// --algo catalogue: the catalogued table with the fewest steps for the torus and --model (formats/torus_catalogue.hpp).
routing_table catalogue_table(const std::string& dims, const local_search_options& o) {
  parse_model(o.model);
  const torus t = parse_dims(dims);
  auto found = catalogued_torus_table(t, o.model);
  if (!found) {
    std::string tori;
    for (const torus_catalogue_entry& e : torus_catalogue())
      if (const std::string name = torus(e.dims).name(); tori.find(" " + name + ",") == std::string::npos) tori += " " + name + ",";
    tori.pop_back();
    throw bad_input("--dims " + dims + " --algo catalogue: the " + t.name() + " torus is not catalogued (catalogued, sizes in any order:" + tori + ")");
  }
  // The step count is the file name's: the table is simulated before it is handed out, and must complete in exactly
  // that many steps.
  const gossip_report run = simulate_gossip(found->second, found->first.steps + 1);
  if (!run.holds() || run.steps != found->first.steps)
    throw violated_claim("the catalogued table " + found->first.file + " states " + std::to_string(found->first.steps) +
                         " steps; simulated: " + describe(run));
  std::cerr << "catalogue (" << o.model << " model): " << found->first.file << ", " << found->first.steps
            << " steps, simulated — the best table known to dancecard; docs/torus-limits.md says whether it is the minimum\n";
  return std::move(found->second);
}

// "3, 7, 10-12" (sorted numbers, runs as ranges; with `sep` ",": "3,7,10-12", as --group-index reads it)
std::string group_ranges(std::vector<std::size_t> numbers, const std::string& sep) {
  std::sort(numbers.begin(), numbers.end());
  std::string out;
  for (std::size_t k = 0; k < numbers.size();) {
    std::size_t end = k;
    while (end + 1 < numbers.size() && numbers[end + 1] == numbers[end] + 1) ++end;
    if (!out.empty()) out += sep;
    out += std::to_string(numbers[k]);
    if (end > k) out += "-" + std::to_string(numbers[end]);
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
std::optional<routing_table> invariant_table(const std::string& dims, const local_search_options& o, bool certify, std::uint32_t packets,
                                             int& no_table_code) {
  const torus_model model = parse_model(o.model);
  const invariant_groups groups = parse_groups(o.groups);
  const torus t = parse_dims(dims);
  if (o.steps == 0) throw bad_input("--algo invariant: needs --steps T (the step count the table must complete within)");
  if (t.size() > 256) throw bad_input("--dims " + dims + " --algo invariant: at most 256 PUs (the search asks one SAT query per subgroup)");
  require_packets_fit(t, packets);
  if (packets > 1 && groups != invariant_groups::translations)
    throw bad_input("--packets " + std::to_string(packets) + " --algo invariant: translation groups only (--groups translations, the default), not " + o.groups);
  const unsigned budget = parse_timeout_ms(o.seconds, "--seconds");
  // in rounds of doubling budgets, uncapped: the groups that answer at once go first, the last hard one may take the rest
  const bool some = o.group_index_option != nullptr && o.group_index_option->count() > 0;
  const std::vector<std::size_t> only = some ? parse_group_index(o.group_index, invariant_group_list(t, groups).size()) : std::vector<std::size_t>{};
  // --progress: a line per group as it answers, so that a campaign stopped before its end keeps what it learned
  std::function<void(const invariant_group_answer&)> progress;
  if (o.progress)
    progress = [&](const invariant_group_answer& a) {
      std::cerr << "group " << a.group << " (" << describe(t, a.symmetry) << "): "
                << (a.answer == solver_answer::sat ? "a table" : a.certified ? "unsat, DRAT proof checked" : "unsat");
      if (a.implied_by) std::cerr << ", as it contains a conjugate of group " << *a.implied_by;
      std::cerr << " (its queries " << static_cast<long long>(a.group_seconds * 1000) << " ms; " << static_cast<long long>(a.search_seconds * 1000)
                << " ms into the search)\n"
                << std::flush;
    };
  torus_invariant_search_result r = packets == 1 ? search_invariant_table(t, model, o.steps, budget, 0, groups, certify, only, progress)
                                                 : search_invariant_packets_table(t, model, packets, o.steps, budget, 0, certify, only, progress);
  const char* kind = groups == invariant_groups::translations ? "translation groups" : groups == invariant_groups::point ? "point groups" : "groups";
  std::cerr << "invariant search (" << o.model << " model, " << (packets == 1 ? std::string() : std::to_string(packets) + " packets per PU, ") << o.steps
            << " steps): " << r.asked << " of " << r.groups << " " << kind << " asked ("
            << r.unsat << " unsat" << (r.implied > 0 ? ", " + std::to_string(r.implied) + " of them as they contain a conjugate of another" : std::string()) << ", " << r.unknown << " out of time; " << r.queries << (r.queries == 1 ? " query in " : " queries in ") << r.rounds << (r.rounds == 1 ? " round" : " rounds") << ") in "
            << static_cast<long long>(r.seconds * 1000) << " ms";
  if (!r.table) {
    if (certify && r.unsat == r.groups) {
      std::cerr << "; proven: no table invariant under any of the " << r.groups << " " << kind << " completes within " << o.steps
                << " steps (every unsat answer's DRAT proof checked by checkers/drat_check"
                << (r.implied > 0 ? ", or implied by one: the group contains a conjugate of a group so refuted" : "") << ")\n";
      no_table_code = exit_violated;
    } else {
      std::cerr << "; no table found" << (certify ? " (the unsat answers' DRAT proofs checked)" : "");
      if (!r.open_groups.empty())
        std::cerr << "; still open (out of time or not asked): group" << (r.open_groups.size() == 1 ? " " : "s ") << group_ranges(r.open_groups, ", ")
                  << " — ask them again with --groups " << o.groups << " --group-index " << group_ranges(r.open_groups, ",");
      std::cerr << "\n";
    }
    return std::nullopt;
  }
  std::cerr << "; group " << *r.group_index << " of --list-groups: a table invariant under " << describe(t, *r.group) << "\n";
  return std::move(r.table);
}

// --packets 2 with --algo partial: Theorems 3 and 4 on the partial cycles (core: twin_cycle_routing); --packets K with
// --algo local-search or invariant: K own packets per PU (at most 2d, checked with the dimensions). Every other combination is
// refused by name.
void check_packets(std::uint32_t packets, const std::string& algo, const std::string& supply, const std::string& supply_search) {
  if (packets == 1 || algo == "local-search" || algo == "invariant" || algo == "tabu") return;  // tabu: refused with its own reason
  if (packets != 2) throw bad_input("--packets: expected 1 or 2, got " + std::to_string(packets));
  if (algo != "partial")
    throw bad_input("--packets 2: for --algo partial (the other constructions fix their packets per PU: hamiltonian d, one-packet 1), not " + algo);
  if (!supply_search.empty()) throw bad_input("--packets 2: --supply-search searches one-packet supplies only");
  if (parse_supply(supply) != supply_policy::scheduled)
    throw bad_input("--packets 2: the off-cycle PUs' supply switches step by step (scheduled); --supply " + supply + " is not available");
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
void check_max_delay(std::uint32_t max_delay, const std::string& algo, const std::string& supply, const std::string& supply_search, std::uint32_t packets) {
  if (max_delay == 1) return;
  if (max_delay > max_switch_delay) throw bad_input("--max-delay: at most " + std::to_string(max_switch_delay) + ", got " + std::to_string(max_delay));
  if (algo != "one-packet" && algo != "partial") throw bad_input("--max-delay: for --algo one-packet or partial, not " + algo);
  if (packets != 1) throw bad_input("--max-delay: with one packet per PU (the two-packet hand-over sets its own delays)");
  if (!supply_search.empty()) throw bad_input("--max-delay: the SAT supply (--supply-search) forwards what arrived the step before");
  if (parse_supply(supply) != supply_policy::scheduled) throw bad_input("--max-delay: with --supply scheduled (the default), not " + supply);
}

// --certify checks the unsat answers of the two SAT searches that give them; anywhere else it would be ignored.
void check_certify(bool certify, const std::string& supply_search, const std::string& algo, bool table_file) {
  if (certify && (table_file || (supply_search.empty() && algo != "invariant")))
    throw bad_input("--certify: with --supply-search or --algo invariant (the searches whose unsat answers it checks), not " +
                    (table_file ? std::string("a table file") : "--algo " + algo));
}

// The table to give for --max-delay (see check_max_delay); when both were simulated (with `options`), the given one's
// report goes to *run, so that `simulate` need not run it a third time.
routing_table held_packet_table(const cycle_system& system, routing_table table, std::uint32_t max_delay, const gossip_options& options = {},
                                std::optional<gossip_report>* run = nullptr) {
  if (max_delay == 1) return table;
  std::optional<routing_table> held = least_packet_matched_routing(system, nullptr, 0, max_delay);
  if (!held) return table;
  gossip_report a = simulate_gossip(table, options), b = simulate_gossip(*held, options);
  const bool fewer = b.holds() && (!a.holds() || b.steps < a.steps);
  if (fewer)
    std::cerr << "the packet-matched supply with senders holding packets up to " << max_delay << " steps needs " << b.steps
              << " steps, fewer than " << a.steps << ": that table is given\n";
  if (run != nullptr) *run = std::move(fewer ? b : a);
  return fewer ? std::move(*held) : std::move(table);
}

std::optional<routing_table> build(const std::string& dims, const std::string& algo, const std::string& supply, const local_search_options& local,
                                   const std::string& supply_search, bool certify, std::uint32_t packets, std::uint32_t max_delay,
                                   int& no_table_code) {
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
  o.model_option = command->add_option("--model", o.model, "with --algo local-search, tabu, invariant or catalogue: pairing (default) or general");
  o.seconds_option = command->add_option("--seconds", o.seconds, "with --algo local-search, tabu or invariant: the search budget (default 10)");
  o.evaluations_option =
      command
          ->add_option("--evaluations", o.evaluations,
                       "with --algo local-search or tabu: stop after this many tables (local-search) or iterations (tabu) as well "
                       "— a work limit, so that a seed gives the same table on any machine under any load (default: none)")
          ->check(integer_at_least(1));
  // CLI11 reads "-3" into an unsigned option as 2^64 - 3: the checks keep negative (and zero) counts out
  o.steps_option = command->add_option("--steps", o.steps,
                                       "with --algo invariant: the step count the table must complete within; with --algo tabu: stop once a "
                                       "table completes within it (default: the parity bound)")
                       ->check(integer_at_least(1));
  o.jobs_option = command->add_option("--jobs,-j", o.jobs, "with --algo tabu: J searches side by side, seeds --seed … --seed + J - 1 (default 1)")
                      ->check(CLI::Range(1u, 64u));
  o.seed_option = command->add_option("--seed", o.seed, "with --algo local-search or tabu: the random seed (default 1)")->check(integer_at_least(0));
  o.start_option = command->add_option("--start", o.start,
                                       "with --algo local-search or tabu: catalogue (the catalogue's table for --dims and --model) or a "
                                       "dancecard.torus-routing/1 file — the search begins from its forwarding instead of a random table, "
                                       "to improve on it");
  o.groups_option = command->add_option("--groups", o.groups,
                                        "with --algo invariant (and tabu with --group-index): translations (default), point (groups of reflections, rotations and glide reflections "
                                        "without translations, one per class up to translation), all (translations first) or mixed (all, then the groups "
                                        "of some translations with reflections, rotations or glide reflections, numbered after all's)");
  o.progress_option = command->add_flag("--progress", o.progress,
                                        "with --algo invariant: print a line to stderr as each group answers (unsat, or a table), with its time");
  o.group_index_option = command->add_option("--group-index", o.group_index,
                                             "LIST: with --algo invariant, ask only these groups of --groups, by number (e.g. 3,7,10-12: the numbers "
                                             "generate torus --list-groups prints, and a search that ran out of time names those left open); with --algo tabu, one "
                                             "group G: search only the tables invariant under it (general model: starting from the best of the pairing "
                                             "search and the group's SAT query, asked from --steps up)");
}

// Figures 1, 2 and 5: the cycles on the grid, one colour per cycle; PUs off some cycle drawn hollow. A 3-D torus is
// drawn as its layers x3 = 0, 1, … side by side (six to a row), links along x3 as short diagonal stubs at both ends
// (up-right at the PU it leaves towards the next layer, down-left at the PU it enters). Beyond 3-D (up to 6-D) one
// panel per (x3, …, xd): x3 and x5 across (x3 fastest), x4 and x6 down, each panel labelled with its coordinates; links along
// x_j for j >= 3 are stubs too, one direction per axis (x3 up-right, x4 up-left, x5 shallow up-right, x6 shallow
// up-left, named in the caption), pointing along the axis at the PU a link leaves towards +, the opposite way at the
// PU it enters.
constexpr std::uint32_t max_drawn_dimension = 6;

void draw_svg(std::ostream& out, const cycle_system& system) {
  const torus& t = system.network;
  const std::uint32_t d = t.dimension();
  if (d < 2 || d > max_drawn_dimension) throw std::invalid_argument("draw_svg: dimension outside 2.." + std::to_string(max_drawn_dimension));
  const std::uint32_t rows = t.dims()[0], cols = t.dims()[1];
  std::uint32_t layers = 1;  // panels: one per (x3, …, xd)
  for (std::uint32_t j = 2; j < d; ++j) layers *= t.dims()[j];
  constexpr int cell = 40, margin = 30, stub = 12;
  // per axis j >= 2 (x_{j+1}): the stub's direction towards + (SVG y grows downwards)
  constexpr std::array<std::array<int, 2>, max_drawn_dimension - 2> stub_direction{{{stub, -stub}, {-stub, -stub}, {stub + 2, -stub / 2}, {-stub - 2, -stub / 2}}};
  constexpr std::array<const char*, max_drawn_dimension - 2> stub_name{"up-right", "up-left", "shallow up-right", "shallow up-left"};
  const char* colours[] = {"#1f4e9c", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#2c3e50"};
  const bool labelled = layers > 1 || d > 2;
  // the panel of a PU: 3-D six layers to a row; beyond, column x3 + n3·x5 and row x4 + n4·x6 (near square)
  const std::uint32_t per_row = d == 3 ? std::min<std::uint32_t>(layers, 6) : d > 3 ? t.dims()[2] * (d > 4 ? t.dims()[4] : 1) : 1;
  const std::uint32_t panel_rows = d == 3 ? (layers + per_row - 1) / per_row : d > 3 ? t.dims()[3] * (d > 5 ? t.dims()[5] : 1) : 1;
  auto panel_of = [&](const std::vector<std::uint32_t>& a) -> std::pair<int, int> {
    if (d == 2) return {0, 0};
    if (d == 3) return {static_cast<int>(a[2] % per_row), static_cast<int>(a[2] / per_row)};
    return {static_cast<int>(a[2] + (d > 4 ? t.dims()[2] * a[4] : 0)), static_cast<int>(a[3] + (d > 5 ? t.dims()[3] * a[5] : 0))};
  };
  const int label_h = labelled ? 16 : 0;
  const int panel_w = std::max(cell * static_cast<int>(cols - 1) + 2 * margin, d > 3 ? 70 + 34 * static_cast<int>(d - 2) : 0);
  const int panel_h = cell * static_cast<int>(rows - 1) + 2 * margin + label_h;
  const int width = std::max(panel_w * static_cast<int>(per_row), labelled ? 720 : 520), height = panel_h * static_cast<int>(panel_rows);
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height + (d > 3 ? 34 : 20) << "\">\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  auto x_of = [&](const std::vector<std::uint32_t>& a) { return margin + panel_w * panel_of(a).first + cell * static_cast<int>(a[1]); };
  auto y_of = [&](const std::vector<std::uint32_t>& a) { return margin + label_h + panel_h * panel_of(a).second + cell * static_cast<int>(a[0]); };
  auto line = [&](int x1, int y1, int x2, int y2, std::size_t c, bool dashed) {
    out << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2 << "\" y2=\"" << y2 << "\" stroke=\"" << colours[c % 8]
        << "\" stroke-width=\"2\"" << (dashed ? " stroke-dasharray=\"3,2\"" : "") << "/>\n";
  };
  for (std::uint32_t k = 0; k < layers && labelled; ++k) {
    std::vector<std::uint32_t> a(d, 0);  // the panel's (x3, …, xd), x3 fastest
    for (std::uint32_t j = 2, rest = k; j < d; rest /= t.dims()[j], ++j) a[j] = rest % t.dims()[j];
    const auto [column, row] = panel_of(a);
    out << "<text x=\"" << margin + panel_w * column << "\" y=\"" << 16 + panel_h * row << "\" font-family=\"sans-serif\" font-size=\"11\">";
    if (d == 3) {
      out << "x3 = " << k;
    } else {  // (x3, …, xd) = (…)
      std::string names, values;
      for (std::uint32_t j = 2; j < d; ++j) {
        names += (j > 2 ? ", x" : "x") + std::to_string(j + 1);
        values += (j > 2 ? ", " : "") + std::to_string(a[j]);
      }
      out << "(" << names << ") = (" << values << ")";
    }
    out << "</text>\n";
  }
  std::vector<std::uint32_t> on(t.size(), 0);
  for (std::size_t c = 0; c < system.cycles.size(); ++c) {
    const torus_cycle& cy = system.cycles[c];
    const int offset = static_cast<int>(c) * 4 - 2;  // parallel strokes when two cycles share a PU
    for (std::size_t i = 0; i < cy.length(); ++i) {
      ++on[cy.pus[i]];
      const auto a = t.coordinates(cy.pus[i]);
      const auto b = t.coordinates(t.neighbor(cy.pus[i], cy.ports[i]));
      const std::uint32_t port = cy.ports[i], axis = port / 2;
      const bool plus = port % 2 == 0;
      const int x1 = x_of(a) + offset, y1 = y_of(a) + offset, x2 = x_of(b) + offset, y2 = y_of(b) + offset;
      if (axis >= 2) {  // along x3, …: a stub at each end
        const int sx = plus ? stub_direction[axis - 2][0] : -stub_direction[axis - 2][0];
        const int sy = plus ? stub_direction[axis - 2][1] : -stub_direction[axis - 2][1];
        line(x1, y1, x1 + sx, y1 + sy, c, false);
        line(x2, y2, x2 - sx, y2 - sy, c, false);
        continue;
      }
      // wrap-around links are drawn as dashed stubs leaving the grid on both sides
      const bool wraps = plus ? a[axis] + 1 == t.dims()[axis] : a[axis] == 0;
      const int dx = axis == 1 ? (plus ? cell : -cell) : 0, dy = axis == 0 ? (plus ? cell : -cell) : 0;
      if (!wraps) {
        line(x1, y1, x1 + dx, y1 + dy, c, false);
      } else {
        line(x1, y1, x1 + dx / 2, y1 + dy / 2, c, true);
        line(x2, y2, x2 - dx / 2, y2 - dy / 2, c, true);
      }
    }
  }
  for (pu_index pu = 0; pu < t.size(); ++pu) {
    const auto a = t.coordinates(pu);
    const bool everywhere = on[pu] == system.cycles.size();
    out << "<circle cx=\"" << x_of(a) << "\" cy=\"" << y_of(a) << "\" r=\"5\" fill=\"" << (everywhere ? "black" : "white")
        << "\" stroke=\"black\" stroke-width=\"1.5\"/>\n";
  }
  std::string layout, legend;
  if (d == 3) {
    layout = "; layers x3 side by side, links along x3 as diagonal stubs";
  } else if (d > 3) {
    layout = "; one panel per (x3";
    for (std::uint32_t j = 3; j < d; ++j) layout += ", x" + std::to_string(j + 1);
    layout += d > 4 ? "), x3 and x5 across, x4" + std::string(d > 5 ? " and x6" : "") + " down" : "), x3 across, x4 down";
    legend = "links along";
    for (std::uint32_t j = 2; j < d; ++j) legend += std::string(j > 2 ? "," : "") + " x" + std::to_string(j + 1) + " " + stub_name[j - 2];
    legend += ": stubs at the PU a link leaves towards +, the opposite way at the PU it enters";
  }
  auto caption = [&](int y, const std::string& text) {
    out << "<text x=\"" << margin << "\" y=\"" << y << "\" font-family=\"sans-serif\" font-size=\"10\">" << text << "</text>\n";
  };
  caption(height + 10, system.construction + " cycles on the " + t.name() + " torus (rows = coordinate 1" + layout + "); hollow: off some cycle");
  if (!legend.empty()) caption(height + 24, legend);
  out << "</svg>\n";
}

// prove torus --steps T --cubes N: the query split into cubes (smt/torus_cubes.hpp), solved --jobs at a time.
void prove_split(const torus& t, torus_model model, const std::string& model_name, std::uint64_t steps, unsigned budget, const torus_split_options& split,
                 std::uint32_t packets, const std::string& emit, bool json,
                 const std::function<void(const std::optional<routing_table>&, const std::string&)>& save, int& code) {
  if (packets != 1) throw bad_input("--cubes: one packet per PU only (not with --packets " + std::to_string(packets) + ")");
  if (!emit.empty()) throw bad_input("--emit: not with --cubes (each cube has its own proof; the split's certificate is not written yet)");
  if (split.cubes > 65'536) throw bad_input("--cubes " + std::to_string(split.cubes) + ": at most 65536");
  if (split.jobs > 256) throw bad_input("--jobs " + std::to_string(split.jobs) + ": at most 256");
  const unsigned jobs = split.jobs;
  const torus_split_result r = solve_torus_cubes(t, model, steps, budget, split);
  save(r.query.witness, "sat-" + model_name);
  const char* answer = r.query.answer == solver_answer::sat ? "sat" : r.query.answer == solver_answer::unsat ? "unsat" : "unknown";
  auto name = [](solver_answer a) { return a == solver_answer::sat ? "sat" : a == solver_answer::unsat ? "unsat" : "unknown"; };
  const auto slowest = std::max_element(r.cubes.begin(), r.cubes.end(), [](const torus_cube_answer& a, const torus_cube_answer& b) { return a.seconds < b.seconds; });
  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (const torus_cube_answer& c : r.cubes)
      list.push_back({{"cube", c.description}, {"answer", c.asked ? name(c.answer) : "not asked"}, {"seconds", c.seconds}, {"reason", c.reason}});
    std::cout << nlohmann::json{{"format", "dancecard.torus-query/1"}, {"dims", t.dims()}, {"model", model_name}, {"packets", packets}, {"steps", steps},
                                {"answer", answer}, {"reason", r.query.reason}, {"seconds", r.query.seconds},
                                {"split", {{"groups", r.split}, {"jobs", jobs}, {"refuted", r.refuted}, {"cube_seconds", r.cube_seconds}, {"cubes", list}}}}
                     .dump(2)
              << "\n";
  } else if (r.cubes.empty()) {  // below the counting or parity bound: the count's empty clause, nothing to split
    std::cout << t.name() << " torus, " << model_name << " model, one packet per PU, within " << steps << " steps, not split: " << answer << " ("
              << r.query.reason << "; " << static_cast<long long>(r.query.seconds * 1000) << " ms)\n";
  } else {
    std::cout << t.name() << " torus, " << model_name << " model, one packet per PU, within " << steps << " steps, split into " << r.cubes.size()
              << " cubes (" << r.split.size() << " groups: ";
    for (std::size_t g = 0; g < r.split.size(); ++g) std::cout << (g ? ", " : "") << r.split[g];
    std::cout << "), " << jobs << " at a time: " << answer << " (" << r.query.reason << "; " << static_cast<long long>(r.query.seconds * 1000)
              << " ms wall, " << static_cast<long long>(r.cube_seconds * 1000) << " ms over the cubes";
    if (slowest != r.cubes.end() && slowest->asked)
      std::cout << ", the longest " << static_cast<long long>(slowest->seconds * 1000) << " ms";
    std::cout << ")\n";
    for (const torus_cube_answer& c : r.cubes)
      if (c.asked && c.answer != solver_answer::unsat) std::cout << "  cube " << c.description << ": " << name(c.answer) << " (" << c.reason << ")\n";
  }
  code = r.query.answer == solver_answer::sat ? exit_holds : r.query.answer == solver_answer::unsat ? exit_violated : exit_unknown;
}

// --emit for prove torus: the witness table, the DIMACS query and its DRAT proof (of an unsat answer kept with its
// certificate), and a manifest naming them with their SHA-256 sums and the commands that re-check them.
// packets: the own packets per PU the query was about (the CNF and what it assumes differ from one packet on).
void emit_torus_certificates(const std::string& dir, const torus& t, const std::string& model, const std::string& stem, const std::string& query,
                             const std::string& status, const std::string& reason, const std::optional<routing_table>& witness,
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
  const nlohmann::json manifest = {{"format", "dancecard.manifest/1"},
                                   {"query", query},
                                   {"dims", t.dims()},
                                   {"model", model},
                                   {"status", status},
                                   {"reason", reason},
                                   {"files", files},
                                   {"solvers", {clausal_solver_version()}},
                                   {"checker", "dancecard check-proof FILE-lower.cnf FILE-lower.drat (or any DRAT checker); dancecard simulate torus FILE-witness.json"},
                                   {"packets", packets},
                                   {"assumes",
                                    packets != 1
                                        ? "the CNF (torus_packets_cnf) states the question exactly (its comments name the variables; "
                                          "smt/src/torus_clausal.cpp, property torus_packets.cnf_exact_against_the_simulator), and its implied "
                                          "constraints (the arrival count, every packet sent, every out-port busy) and symmetry breaks (packet 0 "
                                          "on out-port 0, the lex-leader of add_symmetry_break) keep a completing table whenever there is one "
                                          "(arguments in torus_packets_cnf; property torus_packets.implied_constraints_keep_the_minimum), and a "
                                          "lower bound without a solver is the counting bound ceil(K(P - 1)/2d)"
                                        : "the CNF states the question exactly (its comments name the variables; smt/src/torus_clausal.cpp, "
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
  CLI::App* generate = app.get_subcommand("generate")->add_subcommand("torus", "A time-independent torus routing table");
  generate->add_option("--dims", g->dims, "sizes, e.g. 6x8")->required();
  generate->add_option("--algo", g->algo,
                       "hamiltonian (Section 3.1 in 2-D with n1, n2 even; otherwise square switches in 2-D and Section 3.4 for d = 3 cubes m x m x m, m != 4 (Park's explicit construction) and products for d = 1, 4, 6, 8 — every 2-D factor both even or both sizes >= 3, every 3-D factor such a cube — and for every other torus with all sizes >= 3 and one odd, one dimension at a time (layered), also tori with every size even and no product (3-D, 5-D, 7-D) and P <= 2097152 (layered, with frames scrambled by seeded square switches); d packets per PU), "
                       "hamiltonian-switch (d edge-disjoint Hamiltonian cycles by randomized square switches, any sizes >= 3, up to 32768 PUs) or "
                       "hamiltonian-search (d edge-disjoint Hamiltonian cycles found by SAT, any sizes >= 3, up to 4096 PUs) or "
                       "partial (Sections 3.2 and 3.3: partial cycles, n2 odd >= 5, n1 even or odd >= 5; one packet per PU, or two with --packets 2) or "
                       "one-packet (Section 4: zigzag cycles, one packet per PU; for d >= 4 the greedy supply misses Theorem 7, --supply-search meets it) or "
                       "local-search (a pairing or general table with few steps, one packet per PU or --packets K, found against the simulator) or "
                       "tabu (the same, one packet per PU, by tabu search over every single change, counting the missing pairs without simulating; "
                       "every table it gives is simulated; with --group-index G only tables invariant under group G of --groups) or "
                       "catalogue (the best pairing or general table dancecard knows for a small torus of docs/torus-limits.md, stored; one packet per PU) or "
                       "invariant (a pairing or general table completing within --steps, invariant under a group of translations, found by SAT; one packet per PU or --packets K; exit 3 if none)");
  generate->add_option("--supply", g->supply, "how out-of-cycle PUs are supplied: time-independent, one-switch or scheduled (default)");
  const char* supply_search_help =
      "SECONDS: with --algo one-packet or partial, choose the supply by SAT (free links direct or by one relay, and the --supply policy's "
      "direction schedule with the fewest steps, simulated) within this budget; exit 3 if none is found";
  generate->add_option("--supply-search", g->supply_search, supply_search_help);
  const char* certify_help =
      "with --supply-search: the unsat answer one step below only with a checked DRAT proof; with --algo invariant: every group's unsat "
      "answer only with a checked DRAT proof (exit 1 when every group is so ruled out)";
  generate->add_flag("--certify", g->certify, certify_help);
  const char* packets_help =
      "with --algo partial: 2 for Theorems 3 and 4 — two packets per PU, cycle c carrying packet c; a PU off a cycle hands that packet to a "
      "neighbour on it, which sends it on right after its own; with --algo local-search: K own packets per PU (at most 2d), each out-port "
      "sending one of them in step 1, then only forwarding (as prove torus --packets); with --algo invariant: the same, tables invariant "
      "under a translation group (default 1)";
  generate->add_option("--packets", g->packets, packets_help)->check(integer_at_least(1));
  const char* max_delay_help =
      "D, with --algo one-packet or partial and the scheduled supply: off-cycle PUs' suppliers may hold a packet up to D steps "
      "(2.." "8; switches with a delay) where that gossips faster (default 1: forward what arrived the step before)";
  generate->add_option("--max-delay", g->max_delay, max_delay_help)->check(integer_at_least(1));
  add_local_search_options(generate, g->local);
  generate->add_option("--output,-o", g->output, "write to FILE instead of stdout")->check(writable_file());
  generate->add_flag("--list-groups", g->list_groups,
                     "with --algo invariant: print the groups --groups names, numbered as --group-index reads them (order and generators), "
                     "and ask nothing");
  generate->callback([g, &code] {
    reject_unread_options(g->local, g->algo);
    if (g->list_groups) {
      if (g->algo != "invariant") throw bad_input("--list-groups: only with --algo invariant");
      const torus t = parse_dims(g->dims);
      if (t.size() > 256) throw bad_input("--dims " + g->dims + " --list-groups: at most 256 PUs, as for --algo invariant");
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
    const std::optional<routing_table> table =
        build(g->dims, g->algo, g->supply, g->local, g->supply_search, g->certify, g->packets, g->max_delay, no_table_code);
    if (!table) {
      code = no_table_code;
      return;
    }
    write_output(g->output, [&](std::ostream& out) { write_torus_routing(out, *table, g->algo); });
    code = exit_holds;
  });

  auto s = std::make_shared<options>();
  CLI::App* simulate = app.get_subcommand("simulate")->add_subcommand("torus", "Gossip on a torus by a routing table");
  simulate->add_option("table", s->table, "a dancecard.torus-routing/1 file (or - for stdin); or use --dims and --algo");
  simulate->add_option("--dims", s->dims, "sizes, e.g. 6x8 (with --algo)");
  simulate->add_option("--algo", s->algo, "hamiltonian, hamiltonian-switch, hamiltonian-search, partial, one-packet, local-search, tabu, invariant or catalogue");
  simulate->add_option("--supply", s->supply, "time-independent, one-switch or scheduled (default)");
  simulate->add_option("--supply-search", s->supply_search, supply_search_help);
  simulate->add_flag("--certify", s->certify, certify_help);
  simulate->add_option("--packets", s->packets, packets_help)->check(integer_at_least(1));
  simulate->add_option("--max-delay", s->max_delay, max_delay_help)->check(integer_at_least(1));
  simulate->add_option("--max-switch-step", s->max_switch_step,
                       "with a table file: the latest switch step read (default 4·P·packets + 64, later than any sensible "
                       "gossip takes); the simulator may run that many steps")
      ->check(integer_at_least(1));
  add_local_search_options(simulate, s->local);
  simulate->add_flag("--json", s->json, "print the result as JSON");
  simulate->add_option("--arrivals", s->arrivals,
                       "write FILE.csv: for every PU and packet the step in which the PU first held it (0: its own); at most 2^22 entries")
      ->check(writable_file());
  simulate->callback([s, &code] {
    if (s->table.empty() == s->dims.empty()) throw bad_input("simulate torus: give a table file or --dims (not both)");
    reject_unread_options(s->local, s->table.empty() ? s->algo : std::string());
    if (!s->table.empty() && s->packets != 1) throw bad_input("--packets: with --dims and --algo partial (a table file gives its own packets)");
    check_packets(s->packets, s->algo, s->supply, s->supply_search);
    if (!s->table.empty() && s->max_delay != 1) throw bad_input("--max-delay: with --dims (a table file gives its own switches)");
    if (s->table.empty() && s->max_switch_step != 0) throw bad_input("--max-switch-step: only with a table file");
    check_max_delay(s->max_delay, s->algo, s->supply, s->supply_search, s->packets);
    check_certify(s->certify, s->supply_search, s->algo, !s->table.empty());
    supply_policy system_policy = supply_policy::scheduled;
    std::optional<cycle_system> system;  // built once: the table and the cycle checks both use it
    const bool local = s->table.empty() && (s->algo == "local-search" || s->algo == "tabu" || s->algo == "invariant" || s->algo == "catalogue");
    if (s->table.empty() && !local) {
      const supply_policy policy = parse_supply(s->supply);  // checked before the (possibly slow) construction
      system = build_cycles(s->dims, s->algo);
      system_policy = policy;
    }
    if (!s->supply_search.empty() && !system) throw bad_input("--supply-search: needs --dims with --algo one-packet or partial");
    int no_table_code = exit_unknown;
    std::optional<routing_table> found = local                ? build(s->dims, s->algo, s->supply, s->local, s->supply_search, s->certify, s->packets, 1, no_table_code)
                                         : s->packets == 2    ? two_packet_table(*system)
                                         : s->table.empty()   ? table_for(*system, s->algo, system_policy, s->supply_search, s->certify)
                                                              : parse_input(s->table, [&](const std::string& t) { return read_torus_routing(t, s->max_switch_step); });
    if (!found) {
      code = no_table_code;
      return;
    }
    const std::uint64_t entries = static_cast<std::uint64_t>(found->network.size()) * found->network.size() * found->packets;
    if (!s->arrivals.empty() && entries > (std::uint64_t{1} << 22))
      throw bad_input("--arrivals: " + std::to_string(entries) + " entries (PUs x packets) is more than 2^22");
    const gossip_options options{0, 10, !s->arrivals.empty()};
    std::optional<gossip_report> held_run;  // --max-delay: the given table was simulated when it was chosen
    if (system && s->packets == 1) found = held_packet_table(*system, std::move(*found), s->max_delay, options, &held_run);
    const routing_table& table = *found;
    const torus_cycle_report cycles = forwarding_cycles(table, false);
    const gossip_report run = held_run ? std::move(*held_run) : simulate_gossip(table, options);
    if (run.outcome == verdict::unknown) throw bad_input("simulate torus on " + table.network.name() + ": " + run.checked);
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
    const std::uint64_t optimum = counting_bound(table.network);  // ⌈(P − 1)/2d⌉
    const std::uint64_t counting = counting_bound(table.network, table.packets);  // k packets per PU: ⌈k(P − 1)/2d⌉
    // one packet per PU, none held back (a switch with delay > 1 holds packets): core's parity bound, where it is above
    // the counting bound
    const bool held = std::any_of(table.switches.begin(), table.switches.end(), [](const port_switch& w) { return w.delay > 1; });
    const std::uint64_t parity = table.packets == 1 && !held && P <= 4096 ? parity_bound(table.network) : 0;
    std::optional<cycle_system_report> system_check;
    std::optional<supply_report> supply_check;
    // Section 4.3.4: two zigzags of one cycle may pass the same PU, so the zigzag cycles are closed trails
    if (system) system_check = check_cycle_system(*system, 2, 10, s->algo == "one-packet"), supply_check = check_supply(table, *system);
    const bool holds = run.holds() && (!system_check || system_check->holds()) && (!supply_check || supply_check->holds());
    if (s->json) {
      nlohmann::json j{{"format", "dancecard.torus-simulation/1"},
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
      std::cout << "gossip on the " << table.network.name() << " torus (P = " << P << ", " << table.packets << " packet(s) per PU";
      if (!table.switches.empty()) std::cout << ", " << table.switches.size() << " switches";
      std::cout << "): ";
      if (run.holds()) std::cout << "complete after " << run.steps << " steps";
      else std::cout << "INCOMPLETE after " << run.steps << " steps";
      std::cout << "; " << run.link_steps << " link-steps, " << run.duplicate_receives << " duplicate receives\n";
      if (system_check) {
        std::cout << "  cycles: " << describe(*system_check) << "  lengths:";
        for (std::uint64_t l : system_check->lengths) std::cout << " " << l;
        std::cout << "\n  locality: " << describe(*supply_check);
        if (supply_check->supplied_pairs > 0) std::cout << "  off-cycle PUs supplied within " << supply_check->max_delay << " link(s)\n";
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
        std::cout << "  Theorem " << (P % 2 == 0 ? "3" : "4") << "'s count with two packets per PU: ceil(n1 n2/2) = " << (P + 1) / 2 << " steps\n";
      if (table.packets == 1 && optimum_known(table.network))
        std::cout << "  time-dependent optimum with one packet per PU: ceil((P - 1)/" << table.network.ports() << ") = " << optimum << " steps\n";
      else if (table.packets == 1)
        std::cout << "  counting bound with one packet per PU: ceil((P - 1)/" << table.network.ports() << ") = " << optimum << " steps\n";
      else
        std::cout << "  counting bound with " << table.packets << " packets per PU: ceil(" << table.packets << "(P - 1)/" << table.network.ports()
                  << ") = " << counting << " steps\n";
      if (parity > optimum)
        std::cout << "  parity bound with one packet per PU, none held back: " << parity
                  << " steps (a packet moves one hop per step, so one at even distance comes in even steps only)\n";
      if (!run.holds()) std::cout << describe(run);
    }
    code = holds ? exit_holds : exit_violated;
  });

  auto d = std::make_shared<options>();
  CLI::App* draw = app.add_subcommand("draw", "Draw a construction as SVG");
  draw->require_subcommand(1);
  CLI::App* draw_torus = draw->add_subcommand("torus", "The cycles of a torus construction, 2-D to 6-D (Figures 1, 2 and 5; 3-D and beyond panel by panel)");
  draw_torus->add_option("--dims", d->dims, "sizes of a torus of dimension 2 to 6, at most 4096 PUs, e.g. 6x8, 3x3x4 or 4x2x4x5")->required();
  draw_torus->add_option("--algo", d->algo, "hamiltonian, hamiltonian-switch, hamiltonian-search, partial or one-packet");
  draw_torus->add_option("--out", d->output, "the SVG file to write (- for stdout)")->required()->check(writable_file());
  draw_torus->callback([d, &code] {
    const torus shape = parse_dims(d->dims);  // refused before anything is built
    if (shape.dimension() < 2 || shape.dimension() > max_drawn_dimension)
      throw bad_input("--dims " + d->dims + ": draw torus draws tori of dimension 2 to " + std::to_string(max_drawn_dimension) + ", not " +
                      std::to_string(shape.dimension()));
    if (shape.size() > 4096) throw bad_input("--dims " + d->dims + ": draw torus draws at most 4096 PUs");
    const cycle_system system = build_cycles(d->dims, d->algo);
    const cycle_system_report check = check_cycle_system(system);
    write_output(d->output, [&](std::ostream& out) { draw_svg(out, system); });
    if (d->output != "-") std::cout << "wrote " << d->output << ": " << system.cycles.size() << " cycles; " << describe(check);
    code = check.holds() ? exit_holds : exit_violated;
  });

  auto pt = std::make_shared<std::uint32_t>(11);
  CLI::App* two = app.get_subcommand("prove")->add_subcommand(
      "two-cycles", "Theorem 1: least gossip time over every pair of edge-disjoint Hamiltonian cycles on P nodes (enumeration)");
  two->add_option("--P", *pt, "nodes, 5 to 13 ((P - 1)!/2 second cycles: P = 12 takes seconds, 13 minutes)")->required();
  two->callback([pt, &code] {
    if (*pt < 5 || *pt > 13) throw bad_input("--P: expected 5 to 13, got " + std::to_string(*pt));
    const auto start = std::chrono::steady_clock::now();
    const two_cycle_minimum r = least_two_cycle_gossip_steps(*pt);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::uint64_t bound = (11 * std::uint64_t{*pt} + 39) / 40 - 1;
    std::cout << "P = " << *pt << ": " << r.cycles << " edge-disjoint second cycles; least gossip time " << r.steps
              << " steps; Theorem 1's bound ceil(11P/40 - 1) = " << bound << "; time-dependent optimum ceil((P - 1)/4) = "
              << (*pt + 2) / 4 << " (" << static_cast<long long>(seconds * 1000) << " ms)\n  a least second cycle:";
    for (std::uint32_t v : r.second) std::cout << " " << v;
    std::cout << "\n";
    code = r.cycles == 0 || r.steps >= bound ? exit_holds : exit_violated;
  });

  struct prove_options {
    std::string dims, model = "pairing", timeout = "60", engine = "sat", witness, emit;
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
  prove->add_option("--model", pr->model, "pairing (each PU pairs its ports) or general (each out-port forwards one in-port or nothing)");
  prove->add_option("--engine", pr->engine, "sat (CaDiCaL, unsat certified by a checked DRAT proof; default) or z3 (pairing only, no certificate)");
  prove->add_option("--timeout", pr->timeout, "seconds per solver query (default 60)");
  prove->add_flag("--json", pr->json, "print the result as JSON");
  prove->add_option("--packets", pr->packets,
                    "own packets per PU (default 1; at most 2d): in step 1 each out-port sends one of them, chosen by the solver, and from "
                    "step 2 on every PU only forwards what arrived the step before, by the model's rule — no packet is held (Theorems 3 "
                    "and 4 have 2, and the paper's partial cycles need held packets for them: docs/torus.md). The search starts at "
                    "the counting bound ceil(K(P - 1)/2d); sat engine only")
      ->check(integer_at_least(1));
  prove->add_option("--steps", pr->steps,
                    "ask one question instead of searching: can some table complete within this many steps? "
                    "(exit 0 with a simulated witness, 1 unsat with a checked DRAT proof, 3 unknown; sat engine only)")
      ->check(integer_at_least(1));
  prove->add_option("--cubes", pr->cubes,
                    "with --steps: split the query into at least N cubes (every combination of the pairings, or of the in-ports of "
                    "out-ports, of the PUs farthest from PU 0) and solve them side by side; unsat only when every cube's DRAT "
                    "proof is accepted and the cubes are checked to cover the query (one packet per PU, 1 to 65536; for machines "
                    "with many cores: the longest cube, not the sum, is then the wall time)")
      ->check(integer_at_least(1));
  prove->add_option("--cube-timeout", pr->cube_timeout,
                    "with --cubes: at most this many seconds of solving per cube (default: what is left of --timeout); the cubes "
                    "out of time are listed, to see how many cubes of a hard query answer quickly");
  pr->jobs_option = prove->add_option("--jobs,-j", pr->jobs, "with --cubes: cubes solved at once (1 to 256, default 1; each holds its own solver and proof trace)")
                        ->check(integer_at_least(1));
  prove->add_option("--witness", pr->witness,
                    "write the witness table (dancecard.torus-routing/1) to FILE: with --steps when sat, else the table of the "
                    "minimum (or of the upper bound when the minimum is not proven)")
      ->check(writable_file());
  prove->add_option("--emit", pr->emit,
                    "write into DIR what a reader needs to re-check the answer without dancecard's solver: the unsat query below "
                    "the minimum as DIMACS (FILE-lower.cnf) with CaDiCaL's DRAT proof (FILE-lower.drat) for `dancecard check-proof` "
                    "or any DRAT checker, the witness table (FILE-witness.json) for `dancecard simulate torus`, and a manifest "
                    "with SHA-256 sums (sat engine only)");
  prove->callback([pr, &code] {
    const torus_model model = parse_model(pr->model);
    if (!pr->emit.empty() && pr->engine != "sat") throw bad_input("--emit: only with --engine sat (Z3's unsat has no certificate)");
    auto save = [&](const std::optional<routing_table>& table, const std::string& algorithm) {
      if (!pr->witness.empty() && table) write_output(pr->witness, [&](std::ostream& out) { write_torus_routing(out, *table, algorithm); });
    };
    if (pr->engine != "sat" && pr->engine != "z3") throw bad_input("--engine: expected sat or z3, got '" + pr->engine + "'");
    if (pr->engine == "z3" && pr->model != "pairing") throw bad_input("--engine z3: only the pairing model is encoded for Z3");
    const torus t = parse_dims(pr->dims);
    if (t.size() > 64) throw bad_input("--dims " + pr->dims + ": at most 64 PUs for an exact minimum");
    const unsigned budget = parse_timeout_ms(pr->timeout, "--timeout");
    const std::uint32_t k = pr->packets;
    if (k > t.ports()) throw bad_input("--packets " + std::to_string(k) + ": at most 2d = " + std::to_string(t.ports()) + " (each needs an out-port in step 1)");
    if (k != 1 && pr->engine != "sat") throw bad_input("--packets: only with --engine sat");
    const std::string per_pu = k == 1 ? "one packet per PU" : std::to_string(k) + " packets per PU";
    const std::string tag = k == 1 ? pr->model : pr->model + "-" + std::to_string(k) + "-packets";
    if (pr->cubes != 0 && pr->steps == 0) throw bad_input("--cubes: only with --steps (one query split into cubes)");
    if (*pr->jobs_option && pr->cubes == 0) throw bad_input("--jobs: only with --cubes");
    if (!pr->cube_timeout.empty() && pr->cubes == 0) throw bad_input("--cube-timeout: only with --cubes");
    const unsigned cube_budget = pr->cube_timeout.empty() ? 0 : parse_timeout_ms(pr->cube_timeout, "--cube-timeout");
    if (pr->steps != 0) {
      if (pr->engine != "sat") throw bad_input("--steps: only with --engine sat");
      if (pr->steps > t.dimension() * t.size() * 4) throw bad_input("--steps " + std::to_string(pr->steps) + ": more than 4·d·P steps");
      if (pr->cubes != 0) {
        prove_split(t, model, pr->model, pr->steps, budget, {.cubes = pr->cubes, .jobs = pr->jobs, .cube_budget_ms = cube_budget}, k, pr->emit, pr->json, save,
                    code);
        return;
      }
      if (!pr->emit.empty()) create_emit_directory(pr->emit);
      const torus_query_result q = k == 1 ? solve_torus_clausal(t, model, pr->steps, budget, torus_symmetry::automorphisms, !pr->emit.empty())
                                          : solve_torus_packets(t, model, k, pr->steps, budget, !pr->emit.empty());
      save(q.witness, "sat-" + pr->model);
      const char* answer = q.answer == solver_answer::sat ? "sat" : q.answer == solver_answer::unsat ? "unsat" : "unknown";
      if (!pr->emit.empty())
        emit_torus_certificates(pr->emit, t, pr->model, "torus-" + t.name() + "-" + tag + "-" + std::to_string(pr->steps),
                                "time-independent gossip on the " + t.name() + " torus, " + pr->model + " model, " + per_pu + ": can some table complete within " +
                                    std::to_string(pr->steps) + " steps?",
                                answer, q.reason, q.witness, q.answer == solver_answer::unsat ? &q : nullptr, k);
      if (pr->json) {
        std::cout << nlohmann::json{{"format", "dancecard.torus-query/1"}, {"dims", t.dims()}, {"model", pr->model}, {"packets", k}, {"steps", pr->steps},
                                    {"answer", answer}, {"reason", q.reason}, {"seconds", q.seconds}}
                         .dump(2)
                  << "\n";
      } else {
        std::cout << t.name() << " torus, " << pr->model << " model, " << per_pu << ", within " << pr->steps << " steps: " << answer << " ("
                  << q.reason << "; " << static_cast<long long>(q.seconds * 1000) << " ms)\n";
      }
      code = q.answer == solver_answer::sat ? exit_holds : q.answer == solver_answer::unsat ? exit_violated : exit_unknown;
      return;
    }
    if (!pr->emit.empty()) create_emit_directory(pr->emit);
    const torus_minimum_result r = pr->engine == "z3" ? prove_torus_pairing_minimum(t, budget)
                                   : k == 1           ? prove_torus_minimum(t, model, budget, 0, !pr->emit.empty())
                                                      : prove_torus_packets_minimum(t, model, k, budget, 0, !pr->emit.empty());
    const std::optional<routing_table> best = r.status == proof_status::proven ? r.at_minimum.witness : r.upper ? r.upper->witness : std::nullopt;
    save(best, "minimum-" + tag);
    if (!pr->emit.empty()) {
      const bool certified = r.proven_lower > r.parity_bound && r.below_minimum.answer == solver_answer::unsat;
      emit_torus_certificates(pr->emit, t, pr->model, "torus-" + t.name() + "-" + tag,
                              "time-independent gossip on the " + t.name() + " torus, " + pr->model + " model, " + per_pu + ": the least number of steps" +
                                  (r.status == proof_status::proven ? " is " + std::to_string(r.minimum_steps) : std::string()) +
                                  " (at least " + std::to_string(r.proven_lower) +
                                  (certified                             ? ": " + std::to_string(r.proven_lower - 1) + " steps unsat, the -lower files"
                                   : r.parity_bound > r.lower_bound ? ": the parity bound, no solver"
                                                                    : ": the counting bound, no solver") +
                                  (r.upper_bound != 0 ? "; at most " + std::to_string(r.upper_bound) + ": the -witness table" : std::string()) + ")",
                              std::string(to_string(r.status)), r.reason, best, certified ? &r.below_minimum : nullptr, k);
    }
    const std::uint64_t optimum = counting_bound(t, k);
    const bool optimum_is_known = k == 1 && optimum_known(t);  // Šoch and Tvrdík's optimum is for one packet per PU
    const std::string certificate = r.minimum_steps > r.parity_bound ? (pr->engine == "z3" ? "none (Z3's unsat only)" : "DRAT proof of the step below, checked by checkers/drat_check")
                                    : r.minimum_steps > r.lower_bound ? "parity bound"
                                                                       : "counting bound";
    if (pr->json) {
      std::cout << nlohmann::json{{"format", "dancecard.torus-proof/1"},
                                  {"dims", t.dims()},
                                  {"model", pr->model},
                                  {"packets", k},
                                  {"engine", pr->engine},
                                  {"status", to_string(r.status)},
                                  {"minimum_steps", r.status == proof_status::proven ? nlohmann::json(r.minimum_steps) : nlohmann::json(nullptr)},
                                  {"counting_bound", r.lower_bound},
                                  {"parity_bound", r.parity_bound},
                                  {"proven_lower_bound", r.proven_lower},
                                  {"upper_bound", r.upper_bound != 0 ? nlohmann::json(r.upper_bound) : nlohmann::json(nullptr)},
                                  {"time_dependent_optimum", optimum_is_known ? nlohmann::json(optimum) : nlohmann::json(nullptr)},
                                  {"certificate", r.status == proof_status::proven ? certificate : "none"},
                                  {"reason", r.reason},
                                  {"seconds", r.seconds}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << t.name() << " torus, " << pr->model << " model, " << per_pu << ": " << to_string(r.status);
      if (r.status == proof_status::proven) std::cout << ", minimum " << r.minimum_steps << " steps";
      else if (r.status == proof_status::unknown && r.proven_lower > 0)
        std::cout << ", minimum >= " << r.proven_lower << (r.upper_bound != 0 ? " and <= " + std::to_string(r.upper_bound) : std::string()) << " steps";
      std::cout << (optimum_is_known ? " (time-dependent optimum " : " (counting bound ") << optimum << "; " << r.reason << "; " << static_cast<long long>(r.seconds * 1000)
                << " ms)\n";
    }
    code = r.status == proof_status::proven ? exit_holds : r.status == proof_status::refuted ? exit_violated : exit_unknown;
  });
}

}  // namespace dancecard::cli
