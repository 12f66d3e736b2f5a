// Tables invariant under a symmetry group (translations, point groups, both): the SAT query over one group's tables,
// and the search that asks the CNF of each group (core's invariant_group_list) in turn.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "cnf_cardinality.hpp"
#include "dancecard/checkers/drat_check.hpp"
#include "dancecard/core/torus/group_orbits.hpp"
#include "dancecard/smt/torus_encoding.hpp"
#include "torus_cnf_detail.hpp"
#include "torus_search.hpp"

namespace dancecard::torus {

using namespace torus_cnf_detail;

namespace torus_cnf_detail {

// The SAT query over the tables invariant under one group, which search_invariant_table keeps between its rounds so
// that a later round goes on where the earlier one stopped. Only the decoder is kept; CaDiCaL holds the clauses.
class invariant_query {
 public:
  using decoder = std::function<routing_table(const std::vector<int>& true_literals, int variables)>;
  // certify: the formula is kept, the solver traces a DRAT proof, and an unsat answer stands only once it is checked
  invariant_query(cnf_formula f, decoder decode, bool certify)
      : variables_(f.variables),
        decode_(std::move(decode)),
        solver_(f, certify ? std::optional(drat_encoding::binary) : std::nullopt) {
    if (certify) formula_ = std::move(f);
  }
  torus_query_result ask(std::uint64_t steps, unsigned budget_ms) {
    torus_query_result out;
    const auto start = std::chrono::steady_clock::now();
    const clausal_result solved = solver_.solve(budget_ms);
    out.answer = solved.answer;
    out.reason = solved.reason;
    if (solved.answer == solver_answer::sat) accept_witness(out, decode_(solved.model, variables_), steps);
    if (solved.answer == solver_answer::unsat) {
      if (formula_)
        check_unsat(out, solved, *formula_, "no table invariant under the group");
      else
        out.reason = "no table invariant under the group (CaDiCaL, no certificate: says nothing about other tables)";
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }

 private:
  int variables_;
  decoder decode_;
  resumable_solve solver_;
  std::optional<cnf_formula> formula_;
};

// The decoder of a CNF over a layout (the torus and the layout held by value).
invariant_query::decoder table_decoder(const torus::network& network, torus_variables v) {
  return [network, v = std::move(v)](const std::vector<int>& true_literals, int variables) {
    return decode_table(network, v, true_literals, variables);
  };
}

invariant_query translation_query(const torus::network& network, torus_model model, std::uint64_t steps,
                                  const std::vector<pu_index>& orbit, bool certify) {
  return invariant_query(torus_gossip_cnf(network, model, steps, {.orbit = orbit}),
                         table_decoder(network, layout(network, model, steps, orbit)), certify);
}

invariant_query point_group_query(const torus::network& network, torus_model model, std::uint64_t steps,
                                  const std::vector<torus_automorphism>& generators, bool certify) {
  return invariant_query(
      torus_symmetric_cnf(network, model, steps, generators),
      table_decoder(network, symmetric_layout(network, model, steps, detail::orbits_of(network, generators))), certify);
}

// k packets per PU, tables invariant under a group of translations (torus_packets_cnf with the orbit map).
invariant_query packets_translation_query(const torus::network& network, torus_model model, std::uint32_t packets,
                                          std::uint64_t steps, const std::vector<pu_index>& orbit, bool certify) {
  return invariant_query(
      torus_packets_cnf(network, model, packets, steps, {.orbit = orbit}),
      [network, model, packets, steps, orbit](const std::vector<int>& true_literals, int variables) {
        return decode_packets(network, model, packets, steps, orbit, true_literals, variables);
      },
      certify);
}

// The time of building the query and asking it once.
torus_query_result ask_once(const std::chrono::steady_clock::time_point start, invariant_query query,
                            std::uint64_t steps, unsigned budget_ms) {
  torus_query_result out = query.ask(steps, budget_ms);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace torus_cnf_detail

torus_query_result solve_torus_invariant(const torus::network& network, torus_model model, std::uint64_t steps,
                                         const std::vector<pu_index>& orbit, unsigned budget_ms, bool certify) {
  const auto start = std::chrono::steady_clock::now();
  return ask_once(start, translation_query(network, model, steps, orbit, certify), steps, budget_ms);
}

torus_query_result solve_torus_symmetric(const torus::network& network, torus_model model, std::uint64_t steps,
                                         const std::vector<torus_automorphism>& generators, unsigned budget_ms,
                                         bool certify) {
  const auto start = std::chrono::steady_clock::now();
  return ask_once(start, point_group_query(network, model, steps, generators, certify), steps, budget_ms);
}

invariant_table_query invariant_table_solver(const torus::network& network, torus_model model) {
  return [network, model](const torus_symmetry_group& group, std::uint64_t steps,
                          unsigned budget_ms) -> std::optional<routing_table> {
    const torus_query_result r =
        group.automorphisms.empty()
            ? solve_torus_invariant(network, model, steps, translation_orbits(network, group.translations), budget_ms)
            : solve_torus_symmetric(network, model, steps, group.automorphisms, budget_ms);
    if (r.answer != solver_answer::sat) return std::nullopt;
    return r.witness;
  };
}

namespace torus_cnf_detail {

// search_invariant_table over the groups of `list`, build(g) making group g's query.
torus_invariant_search_result search_groups(const torus::network& network,
                                            const std::vector<torus_symmetry_group>& list,
                                            const std::function<invariant_query(std::size_t)>& build,
                                            std::uint64_t steps, unsigned budget_ms, unsigned query_ms, bool certify,
                                            const std::vector<std::size_t>& only,
                                            const std::function<void(const invariant_group_answer&)>& on_answer) {
  const auto start = std::chrono::steady_clock::now();
  torus_invariant_search_result out;
  // Question q of the rounds is group numbers[q]: every group, largest first within each kind (translations, then point
  // groups), or those of `only`.
  std::vector<std::size_t> numbers = only;
  if (numbers.empty())
    for (std::size_t g = 0; g < list.size(); ++g) numbers.push_back(g);
  for (std::size_t g : numbers)
    if (g >= list.size())
      throw std::invalid_argument("search_invariant_table: group " + std::to_string(g) + " out of range (" +
                                  std::to_string(list.size()) + " groups)");
  out.groups = numbers.size();
  if (out.groups == 0) return out;
  // In rounds (detail::ask_in_rounds): the groups that answer at once (hundreds in 3-D) are all asked before a hard
  // one takes the budget. Up to kept_queries groups out of time keep their solver, which goes on where it stopped (so a
  // group that needs t is answered after about t of its own solving); the others are built again (after at most 2t).
  constexpr std::size_t kept_queries = 16;  // a CaDiCaL instance of a 36-PU query holds tens of MB
  std::map<std::size_t, invariant_query> kept;
  std::vector<solver_answer> last(numbers.size(), solver_answer::unknown);
  std::vector<bool> asked(numbers.size(), false);
  std::vector<double> spent(numbers.size(), 0.0);  // each group's queries, building included
  // A group that contains a conjugate of a group answered unsat is unsat too (detail::group_containment): it is not
  // asked again, and answers unsat when the rounds come to it (or at the end).
  const detail::group_containment containment(network, list);
  std::vector<std::optional<std::size_t>> implied_by(
      numbers.size());        // the unsat group (its number) it contains a conjugate of
  std::uint64_t instant = 0;  // calls of ask answered by such an implication, not by the solver
  const auto since = [](std::chrono::steady_clock::time_point from) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
  };
  auto answered = [&](std::size_t q, solver_answer answer) {
    if (on_answer)
      on_answer({numbers[q], list[numbers[q]], answer, certify && answer == solver_answer::unsat && !implied_by[q],
                 spent[q], since(start), implied_by[q]});
    if (answer == solver_answer::unsat && !implied_by[q])
      for (std::size_t other = 0; other < numbers.size(); ++other)
        if (last[other] == solver_answer::unknown && !implied_by[other] && other != q &&
            containment.contains_conjugate(numbers[other], numbers[q]))
          implied_by[other] = numbers[q];
    return last[q] = answer;
  };
  auto ask = [&](std::size_t q, unsigned ms) {
    const std::size_t g = numbers[q];
    const auto begun = std::chrono::steady_clock::now();
    asked[q] = true;
    if (implied_by[q]) {
      ++instant;
      kept.erase(g);
      return answered(q, solver_answer::unsat);
    }
    auto it = kept.find(g);
    invariant_query query = it != kept.end() ? std::move(it->second) : build(g);
    if (it != kept.end()) kept.erase(it);
    torus_query_result r = query.ask(steps, ms);
    spent[q] += since(begun);
    if (r.answer == solver_answer::sat && r.witness) {
      out.table = std::move(r.witness);
      return answered(q, solver_answer::sat);
    }
    if (r.answer == solver_answer::unsat) return answered(q, solver_answer::unsat);
    if (kept.size() < kept_queries) kept.emplace(g, std::move(query));
    return last[q] = solver_answer::unknown;
  };
  const detail::rounds_outcome rounds = detail::ask_in_rounds(out.groups, budget_ms, query_ms, ask, [&] {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count());
  });
  out.asked = rounds.asked;
  out.unsat = rounds.unsat;
  out.unknown = rounds.unknown;
  out.queries = rounds.queries - instant;
  if (rounds.sat) {
    out.group_index = numbers[*rounds.sat];
    out.group = list[*out.group_index];
  } else {
    for (std::size_t q = 0; q < numbers.size(); ++q) {
      if (implied_by[q] && last[q] == solver_answer::unknown) {  // implied after the rounds last came to it
        out.asked += asked[q] ? 0 : 1;
        out.unknown -= asked[q] ? 1 : 0;
        asked[q] = true;
        ++out.unsat;
        answered(q, solver_answer::unsat);
      }
      if (!asked[q] || last[q] == solver_answer::unknown) out.open_groups.push_back(numbers[q]);
    }
  }
  for (std::size_t q = 0; q < numbers.size(); ++q)
    out.implied += implied_by[q] && last[q] == solver_answer::unsat ? 1 : 0;
  out.rounds = rounds.rounds;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace torus_cnf_detail

torus_invariant_search_result search_invariant_table(const torus::network& network, torus_model model,
                                                     std::uint64_t steps, unsigned budget_ms,
                                                     const invariant_search_options& options) {
  const bool certify = options.certify;
  if (options.packets != 1) {
    require_packets(network, options.packets);  // before any group is built
    if (options.groups != invariant_groups::translations)
      throw std::invalid_argument("search for invariant tables with " + std::to_string(options.packets) +
                                  " packets per PU: over the translation groups only");
    const std::vector<torus_symmetry_group> list = invariant_group_list(network, invariant_groups::translations);
    auto build = [&](std::size_t g) {
      return packets_translation_query(network, model, options.packets, steps,
                                       translation_orbits(network, list[g].translations), certify);
    };
    return search_groups(network, list, build, steps, budget_ms, options.query_ms, certify, options.only,
                         options.on_answer);
  }
  const std::vector<torus_symmetry_group> list = invariant_group_list(network, options.groups);
  auto build = [&](std::size_t g) {
    const torus_symmetry_group& group = list[g];
    if (group.automorphisms.empty())
      return translation_query(network, model, steps, translation_orbits(network, group.translations), certify);
    return point_group_query(network, model, steps, group.automorphisms, certify);
  };
  return search_groups(network, list, build, steps, budget_ms, options.query_ms, certify, options.only,
                       options.on_answer);
}

}  // namespace dancecard::torus
