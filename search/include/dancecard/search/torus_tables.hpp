// Heuristic search for time-independent torus tables (the paper on torus gossip, Section 4's time-independent limit):
// local search and tabu search over the pairing and the general model, with k own packets per PU or one, over all
// tables or those invariant under a symmetry group. Upper bounds only: every table returned has been run by
// checkers/torus_check's simulator and completes within the steps it reports; nothing here proves a minimum (smt/
// does, with certificates). Searches are deterministic for a seed when a work count (evaluations, iterations) ends
// them rather than the deadline — what tests use.
//
//   namespace torus = dancecard::torus;
//   auto r = torus::tabu_search_torus_table(torus::network({6, 6}), torus::torus_model::general, 10000,
//                                          {.seed = 7});
//   if (r.table) std::cout << r.steps << " steps\n";
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dancecard/core/torus/symmetry.hpp"
#include "dancecard/core/torus/torus.hpp"

namespace dancecard::torus {

/// The best injections for given forwarding rules, k own packets per PU (as torus_packets_cnf: in step 1 each out-port
/// sends one of them, then only forwarding). With the forwarding fixed, what out-port o of PU u sends in step 1 reaches
/// a fixed set of PUs within T steps — its stream, the links downstream by the rules (an out-port never chooses: it
/// sends its one in-port's arrivals) — and packet q of u reaches the union of those sets over the out-ports that send
/// q. So each PU's injection is chosen alone: the assignment of its 2d out-ports to the k packets that leaves the
/// fewest (PU, packet) pairs missing after T steps (a packet sent nowhere misses all P − 1). Renaming a PU's packets
/// changes no arrival, so the assignments up to renaming are all it tries (restricted growth strings: at most Bell(6) =
/// 203). The sets come from the simulator itself: one run of the table with 2d packets per PU, out-port o sending
/// packet o (P²·2d arrival entries). Used by search_torus_table with k > 1.
class torus_injection_chooser {
 public:
  /// require: 1 <= packets <= 2d (std::invalid_argument).
  torus_injection_chooser(const torus::network& network, std::uint32_t packets);
  /// `forwarding`'s forward entries (its packets and inject are ignored; no switches, else std::invalid_argument):
  /// writes the best injection of every PU to `inject` ([pu · 2d + out-port] → packet) and returns the pairs then
  /// missing after `steps` steps — 0 exactly when some injection lets the table complete within them.
  std::uint64_t choose(const routing_table& forwarding, std::uint64_t steps, std::vector<std::uint32_t>& inject) const;

 private:
  pu_index P_;
  std::uint32_t ports_, k_;
  std::size_t words_;
  std::vector<std::vector<std::uint32_t>> assignments_;
};

struct torus_heuristic_result {
  std::optional<routing_table> table;  // none if no start table completed (e.g. a budget too small)
  std::uint64_t steps = 0;
  std::uint64_t evaluations = 0;  // tables simulated (tabu search: single changes counted)
  double seconds = 0;
  std::uint64_t closest =
      0;  // tabu search only: the fewest (PU, packet) pairs missing one step below `steps` it reached (0 at its goal)
  // tabu search under a group with a solver: the queries of its start, and the steps of the solver's table (0: none)
  std::uint64_t solver_queries = 0, solver_steps = 0;
};

/// Local search for a table of the model that completes gossip in few steps, `packets` own packets per PU (as
/// torus_packets_cnf: in step 1 each out-port sends one of them, then only forwarding): random start (general model:
/// the best pairing table of half the budget — a pairing table is a general table), then single changes (a PU's
/// pairing; an out-port's in-port) that do not increase what is still missing one step below the best so far — with
/// one packet the PUs that lack some packet, with k > 1 the (PU, packet) pairs — (rarely a slightly worse table),
/// restarts from the best when stalled; with k > 1 the injections of every table are chosen for its forwarding by
/// torus_injection_chooser. Stops at `goal` (at least, with one packet, the parity
/// bound, core's parity_bound, up to 4,096 PUs; else the counting bound ⌈k(P − 1)/2d⌉) or after budget_ms. The table
/// is simulated: it completes within `steps`. An upper bound only — never a proof of minimality. Deterministic for a
/// seed, except where the deadline cuts it off; max_evaluations (0: none) also stops it once that many tables are
/// evaluated (checked every 64; the general model's pairing start gets half), so a search that this work count ends,
/// the deadline far off, gives the same table on any machine under any load — what tests use.
/// require: 1 <= packets <= 2d (std::invalid_argument).
struct local_search_options {
  std::uint64_t seed = 1;
  std::uint64_t goal = 0;                             // stop at this many steps (raised to the bound above)
  std::uint32_t packets = 1;                          // own packets per PU, 1 … 2d
  std::uint64_t max_evaluations = 0;                  // 0: the deadline alone
  std::optional<routing_table> start = std::nullopt;  // begin from this table (below)
};
/// start: begin from this table's forwarding instead of a random one (and, in the general model, instead
/// of the pairing search) — to improve a known table, such as the catalogue's, by a step. Its out-ports that forward
/// nothing forward straight on instead (an idle out-port never helps: a stream forwarded more never arrives later);
/// its injections are not read.
/// require: the same torus, no switches, and in the pairing model a pairing at every PU (std::invalid_argument).
torus_heuristic_result search_torus_table(const torus::network& network, torus_model model, unsigned budget_ms,
                                          const local_search_options& options = {});

/// Tabu search for a one-packet table of the model that completes gossip in few steps (search/src/torus_tabu.cpp). It
/// aims at one step below the best so far and minimises the (PU, packet) pairs still missing there, counted without
/// the simulator: with the forwarding fixed, PU w holds after T steps the tails of the first T links of the backward
/// walks from its in-links (each link's predecessor is the in-link its out-port forwards). Each iteration evaluates
/// every single change (a PU's pairing; an out-port's in-port), recounting only the PUs whose walks the change touches,
/// and makes the best one not tabu, worse ones included; a slot may not return to a value it left for a random tenure
/// (unless that beats the least count yet). Starts from random pairings — in the general model from the best pairing
/// table of half the budget (a pairing table is a general table) — or from `start` (as search_torus_table's). Every
/// table it reports was run by the simulator and completes within `steps`; a table
/// the counter completes and the simulator does not is a std::logic_error. Stops at `goal` (at least the parity bound,
/// up to 4,096 PUs, else the counting bound), after budget_ms, or after max_iterations (0: none; deterministic for a
/// seed then — what tests use). `evaluations` counts the changes evaluated. An upper bound only.
/// group: only tables invariant under this group of automorphisms (translations, point or mixed, as
/// invariant_group_list gives them) — a change is one choice at an orbit's least PU (its pairing, or the in-port of one
/// out-port per orbit of its stabilizer), made at every PU of the orbit relabelled, and each orbit's least PU is
/// counted for the whole orbit. For the groups whose SAT queries (search_invariant_table) run out of time. require: the
/// generators are automorphisms of this torus; in the pairing model every orbit's least PU has a pairing its
/// stabilizer keeps; a start table invariant under the group (std::invalid_argument).
/// solver (general model under a group, without a start; smt's invariant_table_solver, or any
/// invariant_table_query): the pairing search gets a quarter of the budget (and half of max_iterations, when not 0),
/// then the SAT query over the group's tables a quarter (half where the pairing search found no table), asked at the
/// goal, one step more, … up to one below the pairing table (each query half the time left, until one answers with a
/// table, which is simulated), and the search starts from the better table; a sat answer at the goal ends the run.
/// The queries end by time alone: with max_iterations the run is the same for a seed wherever they answer in it.
/// Where the group fixes PUs the pairing start can be poor (3 × 12 under a point group of order 4: 22 steps, where
/// the group has 12-step tables). Empty: the search from the pairing start only (for comparison in bench/).
struct tabu_search_options {
  std::uint64_t seed = 1;
  std::uint64_t goal = 0;                                    // stop at this many steps (raised to the bound above)
  std::uint64_t max_iterations = 0;                          // 0: the deadline alone
  std::optional<routing_table> start = std::nullopt;         // begin from this table (as local_search_options::start)
  std::optional<torus_symmetry_group> group = std::nullopt;  // only tables invariant under it
  invariant_table_query solver = {};                         // asked for a start under a group (empty: never)
};
torus_heuristic_result tabu_search_torus_table(const torus::network& network, torus_model model, unsigned budget_ms,
                                               const tabu_search_options& options = {});

/// The (PU, packet) pairs a one-packet time-independent table (packet 0 sent on every out-port in step 1; idle
/// out-ports allowed) leaves missing after `steps` steps, counted as tabu_search_torus_table counts them: PU w holds
/// the tails of the first `steps` links of the backward walks from its in-links. The simulator's count (a RapidCheck
/// property holds the two to each other). require: such a table, every forward entry a port or no_port
/// (std::invalid_argument).
std::uint64_t torus_missing_pairs(const routing_table& table, std::uint64_t steps);
}  // namespace dancecard::torus
