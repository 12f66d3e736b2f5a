// Exact questions about time-independent torus gossip (the torus paper's Section 4 limit): "can some table of the
// pairing or the general model complete gossip within T steps?", as CNF for CaDiCaL (unsat answers carry a DRAT proof
// that checkers/drat_check accepts) or, for the pairing model, as SMT for Z3 (no certificate); over all tables or over
// those invariant under a symmetry group; and the least such T (prove_torus_minimum). Every sat answer's table is run
// by checkers/torus_check's simulator before it is reported.
//
//   namespace torus = dancecard::torus;
//   auto r = torus::prove_torus_minimum(torus::network({4, 4}), torus::torus_model::pairing, 60000);
//   r.status == proof_status::proven && r.minimum_steps == ...   // r.below_minimum: the DRAT-certified step below
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/symmetry.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard::torus {

struct torus_query_result {
  solver_answer answer = solver_answer::unknown;
  std::optional<routing_table> witness;  // present iff sat; completes within the steps asked, by the simulator
  double seconds = 0;
  std::string reason;
  // Asked for with keep_certificate (clausal engine), for an unsat answer whose proof was accepted: the query in
  // DIMACS (with its comments) and CaDiCaL's text DRAT proof, still in its temporary file (it may be gigabytes) —
  // what `dancecard check-proof FILE.cnf FILE.drat` or any DRAT checker re-checks. Empty otherwise.
  std::string formula;
  drat_trace proof;
};

/// `cancel` (here and in the solves below): when another thread sets it, the solver stops, answer unknown.
torus_query_result solve_torus_pairing(const torus::network& network, std::uint64_t steps, unsigned timeout_ms,
                                       const std::atomic<bool>* cancel = nullptr);

/// "Can some table of the model complete gossip within `steps` steps?" as CNF. Two implied constraints (general model:
/// every out-port forwards something; arrival_count: no PU wastes more of its 2d·T in-slots than 2d·T − (P − 1) — fresh
/// 'waste' variables, ladders and a sequential counter after the x variables; with an orbit map kept at the orbits'
/// least PUs, reading an untracked packet's arrival off a translate's tracked one; parity_classes: and a counter per
/// step parity where that is tighter, core's arrival_parity_count — packets that only walks of one parity bring, on
/// tori whose sides are all even; returns, with arrival_count: no stream comes back to the PU that sent it within
/// T − 1 − s forwards, s the wasted slots the count allows — a clause over the forwards of each such walk: U-turns in
/// the general model, two PUs of a ring of 3 going straight, squares, …) and one
/// symmetry-breaking constraint (PU 0's rule — in the 2-D pairing model
/// followed by its neighbours' — is lexicographically least among every PU's relabelled by every automorphism fixing
/// PU 0 — reflections, and permutations of equal sizes; translations only with an orbit map), each with its soundness
/// argument in torus_cnf_layout.cpp; the lex-leader adds 'equal so far' variables after the x variables (general model,
/// and 2-D pairing model). Variables: the model's choices (pairing: choice(pu, c) for the c-th pairing of
/// port_pairings(d), exactly one per PU; general: sel(pu, out, in), at most one per out-port), then x(t, link, u) for t
/// = 2 … steps: the link (pu, out-port) carries PU u's packet in step t. Clauses: x(t, pu→, u) ∧ sel(pu, out, in) → the
/// in-link carried u in step t − 1 (step 1: the neighbour's own packet); in the general model x also needs some sel.
/// Goal: every PU receives every other packet on some in-link in some step <= steps. Exact: the x true in a model are a
/// subset of the real transfers of the decoded table (by induction over t), and the real transfers satisfy every
/// clause. base_only: leave out the implied and the symmetry-breaking constraints (the question as such; used to test
/// the encoding's exactness against the simulator).
/// orbit (empty: none): only tables invariant under a group of translations (translation_orbits) — a PU reads the
/// variables of its orbit's least PU, and x follows only those PUs' packets (P / |group| of them); such a table that
/// brings every tracked packet everywhere brings every packet everywhere (translate). Unsat then says nothing about
/// tables outside the group. require: orbit is empty or the orbit map of a translation group (std::invalid_argument).
/// symmetry: which automorphisms the symmetry break uses — translations only (the earlier, weaker break: PU 0's
/// pairing, or the in-port its out-port 0 forwards, is the least; kept for comparison in bench/) or every automorphism
/// (translations after reflections and permutations of equal sizes, PU 0's whole rule — 2-D pairing: and its
/// neighbours' — lexicographically least; the default; on sides of length 2 also the line swaps: ±x_j exchanged at the
/// two PUs of one line alone, each line's two rules at most their swapped selves, 2-D pairing excepted; where two or
/// more sides are 4, also the automorphisms of their hypercube that permute its bits, whose port relabelling differs
/// from PU to PU: (2m)! relabellings of PU 0's ports of those m sides where the reflections and permutations give
/// 2^m·m!), or the same without the line swaps or without the hypercube's (for comparison in bench/), or none (the
/// implied constraints alone: every table, not only a lex-least one, keeps its models — what the tests of the implied
/// constraints need). With an orbit map of a group H the break uses the automorphisms that keep the invariant tables
/// invariant (H's normalizer: every translation, after the relabellings σ with A_σ·H = H; translations only: after
/// none), no line swaps, and compares PU 0's whole rule.
enum class torus_symmetry {
  translations,
  automorphisms,
  none,
  automorphisms_without_line_swaps,
  automorphisms_without_hypercube
};
/// What a torus CNF holds besides the question itself (the defaults: every implied constraint and the full symmetry
/// break, each sound as argued above). torus_packets_cnf reads base_only, orbit and symmetry; torus_symmetric_cnf reads
/// arrival_count, and breaks symmetry unless symmetry is none.
struct torus_cnf_options {
  bool base_only = false;                                   // the question alone: no implied constraint, no break
  std::vector<pu_index> orbit = {};                         // tables invariant under this translation group's orbits
  torus_symmetry symmetry = torus_symmetry::automorphisms;  // the automorphisms of the lex-leader break
  bool arrival_count = true, parity_classes = true, returns = true;  // the implied constraints, one by one
};
cnf_formula torus_gossip_cnf(const torus::network& network, torus_model model, std::uint64_t steps,
                             const torus_cnf_options& options = {});
/// The choice variable of the CNF: pairing — PU pu uses pairing c of port_pairings(d); general — out-port `out` of PU
/// pu forwards in-port `in` (c is ignored in the general model and in_port in the pairing model).
int torus_choice_variable(const torus::network& network, torus_model model, pu_index pu, std::uint32_t c_or_out,
                          std::uint32_t in_port = 0);

/// Solves torus_gossip_cnf by CaDiCaL. sat: the model is decoded into a routing table that must complete within
/// `steps` in the simulator (else answer unknown with the simulator's report). unsat: the DRAT proof is checked by
/// checkers/drat_check (else unknown); `reason` says how many lemmas were checked.
torus_query_result solve_torus_clausal(const torus::network& network, torus_model model, std::uint64_t steps,
                                       unsigned budget_ms, torus_symmetry symmetry = torus_symmetry::automorphisms,
                                       bool keep_certificate = false, const std::atomic<bool>* cancel = nullptr);

/// k own packets per PU (routing_table::packets = k; Theorems 3 and 4 have k = 2), no packet held: in step 1 each
/// out-port sends one of its PU's k packets (a choice), from step 2 on every PU only forwards what arrived the step
/// before, by the model's rule (pairing: the partner port; general: one fixed in-port per out-port). "Can some such
/// table complete gossip — every PU gets the k·(P − 1) packets of the others — within `steps`?" Variables: the model's
/// choices (as torus_gossip_cnf), inj(pu, out, q) (out-port `out` of pu sends packet q in step 1), then x(t, link, (u,
/// q)) for t = 2 … steps. Implied constraints (each with its soundness argument in torus_cnf.cpp, left out with
/// base_only): every out-port sends one packet in step 1 and (general) forwards some in-port; every packet leaves its
/// PU in step 1; the arrival count (no PU wastes more than 2d·T − k·(P − 1) in-slots: fresh 'waste' variables,
/// ladders and a sequential counter after the x variables); and two symmetry breaks: out-port 0 of every PU sends that
/// PU's packet 0, and torus_gossip_cnf's lex-leader on PU 0's rule over every automorphism fixing PU 0 (the
/// hypercube's bit permutations and the line swaps included; its 'equal so far' variables after the x variables).
/// require: 1 <= packets <= 2d (std::invalid_argument). orbit (empty: none): only tables invariant under a group of
/// translations (translation_orbits), as torus_gossip_cnf's orbit map — a PU uses its orbit's least PU's choice and
/// injection variables, x follows only those PUs' packets, the arrival count is kept at the least PUs (an untracked
/// packet's arrival read off a translate's tracked one), and the lex-leader runs over the group's normalizer
/// (translations, and the relabellings σ with A_σ·H = H), as torus_gossip_cnf's with an orbit map. Unsat then says
/// nothing about tables outside the group. `symmetry`: the lex-leader's automorphisms (translations: translations only
/// — the weaker break, for comparison in bench/; none: no lex-leader; the packet-0 break stays). require: orbit is
/// empty or the orbit map of a translation group (std::invalid_argument).
cnf_formula torus_packets_cnf(const torus::network& network, torus_model model, std::uint32_t packets,
                              std::uint64_t steps, const torus_cnf_options& options = {});
/// The choice variable inj(pu, out, q) of torus_packets_cnf (its model choices are numbered as
/// torus_choice_variable's).
int torus_injection_variable(const torus::network& network, torus_model model, std::uint32_t packets, pu_index pu,
                             std::uint32_t out, std::uint32_t packet);
/// Solves torus_packets_cnf by CaDiCaL: sat answers carry the decoded table (packets per PU, injections, forwarding),
/// simulated within `steps`; unsat answers stand only with their DRAT proof checked by checkers/drat_check (else
/// unknown). Below the counting bound ⌈k·(P − 1)/2d⌉ the answer is unsat without a search.
torus_query_result solve_torus_packets(const torus::network& network, torus_model model, std::uint32_t packets,
                                       std::uint64_t steps, unsigned budget_ms, bool keep_certificate = false,
                                       const std::atomic<bool>* cancel = nullptr);

/// "Is there a table invariant under the group that completes within `steps`?" by CaDiCaL: sat answers carry the
/// decoded table, simulated; unsat answers say nothing about the minimum (only that no table invariant under the group
/// does it). certify: CaDiCaL traces a DRAT proof and unsat stands only once checkers/drat_check accepts it (else
/// unknown, saying why); without, unsat carries no certificate.
torus_query_result solve_torus_invariant(const torus::network& network, torus_model model, std::uint64_t steps,
                                         const std::vector<pu_index>& orbit, unsigned budget_ms, bool certify = false);

/// torus_gossip_cnf restricted to the tables invariant under the group generated by `generators` (any automorphisms
/// above): a PU reads the variables of its orbit's least PU r through the port relabelling of a group element that
/// maps r to it, r's own rule is kept by every element fixing r (stabilizer clauses), and x follows only the orbits'
/// least PUs' packets. (The full CNF's break would not be sound here: a translated invariant table is invariant under
/// a conjugate group, in general not this one.) A table invariant under φ carries φ(u)'s packet to φ(w) whenever it
/// carries u's to w, so bringing the tracked packets everywhere brings every packet everywhere.
/// arrival_count: as in torus_gossip_cnf, kept at the orbits' least PUs (false: left out, for comparison).
/// symmetry_break: torus_gossip_cnf's lex-leader on PU 0's rule (2-D pairing: and its neighbours'), over the group's
/// normalizer — the automorphisms ψ with ψ G ψ⁻¹ = G, which alone carry invariant tables to invariant tables — one ψ
/// per coset ψG (false: left out, for comparison; soundness in torus_cnf_layout.cpp).
cnf_formula torus_symmetric_cnf(const torus::network& network, torus_model model, std::uint64_t steps,
                                const std::vector<torus_automorphism>& generators,
                                const torus_cnf_options& options = {});
/// solve_torus_invariant for such a group: sat answers carry the decoded table, simulated; unsat says nothing about
/// tables outside the group (certify: as there).
torus_query_result solve_torus_symmetric(const torus::network& network, torus_model model, std::uint64_t steps,
                                         const std::vector<torus_automorphism>& generators, unsigned budget_ms,
                                         bool certify = false);

/// The SAT solver a heuristic search asks for a start (search/'s tabu search under a group): solve_torus_invariant for
/// a group of translations, solve_torus_symmetric otherwise, without certificates; a sat answer's table, simulated.
invariant_table_query invariant_table_solver(const torus::network& network, torus_model model);

/// Upper bounds by symmetry (search_invariant_table): asks solve_torus_invariant for the groups of
/// translation_subgroups (largest first), then (groups = all or point) solve_torus_symmetric for the groups of
/// point_subgroups, then (with_mixed) for those of mixed_subgroups, until a table is found or budget_ms is spent. In
/// rounds: every group still open is asked with the round's budget (the first: half of budget_ms shared
/// out equally over the groups, at least 100 ms each), and those out of time are asked again in the next round with
/// twice as much, at most query_ms (0: no cap) — so the groups that answer at once are all asked before a hard one
/// takes more, and up to 16 groups out of time go on where their solver stopped (the others are built again). A group
/// that contains a conjugate of a group answered unsat is unsat without a query (a table invariant under it would be
/// invariant under that conjugate, and moving the table by the conjugator would give one invariant under the refuted
/// group): it answers when the rounds come to it, or at the end (`implied`). certify: every unsat answer only
/// with its DRAT proof checked (as solve_torus_invariant), or implied so by one, so that unsat == groups proves that no
/// table invariant under any of these groups, or under a group conjugate to one of them, completes within `steps`; a
/// proof's check comes on top of its query's budget, so the search may then run past budget_ms by the last check.
struct torus_invariant_search_result {
  std::optional<routing_table> table;  // simulated within the steps asked
  // the table's group: its translation generators (shifts) or, when that is where the table came from, a point group's
  // generators; and its order
  std::optional<torus_symmetry_group> group;
  // groups: how many there are; asked: how many were asked at least once, of which unsat ruled out and unknown still
  // out of time at the end (the table's group is the one left); queries: solver calls over all rounds
  std::uint64_t groups = 0, asked = 0, unsat = 0, unknown = 0, queries = 0, rounds = 0;
  // of the unsat: ruled out without a query of their own, because they contain a conjugate of a group answered unsat
  // (a table invariant under them would be invariant under that conjugate); counted as asked
  std::uint64_t implied = 0;
  std::optional<std::size_t> group_index;  // the table's group, in invariant_group_list's numbering
  std::vector<std::size_t>
      open_groups;  // no table: the groups asked still out of time and those never asked, by number
  double seconds = 0;
};
/// only (empty: every group): ask just these groups, by their numbers in invariant_group_list(network, groups) — to
/// give the groups a search left open more time (std::invalid_argument for a number out of range). `groups` then counts
/// those asked for.
/// on_answer (optional): called on the searching thread after each query that answers (unsat, or sat with a simulated
/// table — not a query out of time), so that a long campaign that is stopped keeps what it learned.
struct invariant_group_answer {
  std::size_t group = 0;          // in invariant_group_list's numbering
  torus_symmetry_group symmetry;  // that group itself (generators and order), as the search listed it
  solver_answer answer = solver_answer::unknown;
  bool certified = false;     // unsat with its DRAT proof checked (certify)
  double group_seconds = 0;   // the group's queries over all rounds, building included
  double search_seconds = 0;  // since the search began
  // unsat without a query of its own: the group contains a conjugate of this group (by number), answered unsat before
  // (certified is then false, though that group's answer may be certified)
  std::optional<std::size_t> implied_by;
};
/// packets (k > 1): tables with k own packets per PU (torus_packets_cnf with the groups' orbit maps) — the translation
/// groups only (groups must be translations; numbered as invariant_group_list's), in the same rounds, a group that
/// contains a conjugate of a refuted group refuted without a query (an automorphism carries k-packet tables to k-packet
/// tables); sat: a simulated table with k packets. require: 1 <= packets <= 2d (std::invalid_argument).
struct invariant_search_options {
  unsigned query_ms = 0;                                     // the most one query of one round gets (0: no cap)
  invariant_groups groups = invariant_groups::translations;  // which groups to ask
  std::uint32_t packets = 1;                                 // own packets per PU
  bool certify = false;                                      // unsat only with its DRAT proof checked
  std::vector<std::size_t> only = {};                        // ask just these groups (empty: all)
  std::function<void(const invariant_group_answer&)> on_answer = {};
};
torus_invariant_search_result search_invariant_table(const torus::network& network, torus_model model,
                                                     std::uint64_t steps, unsigned budget_ms,
                                                     const invariant_search_options& options = {});

struct torus_minimum_result {
  proof_status status = proof_status::unknown;
  std::uint64_t minimum_steps = 0;  // proven: the minimum; unknown: the step count whose query ran out of time
  std::uint64_t lower_bound = 0;    // ⌈(P − 1)/(2d)⌉: a PU learns at most 2d packets per step
  std::uint64_t parity_bound =
      0;  // core's parity_bound (>= lower_bound; P > 4,096: lower_bound), where the search starts
  // What is proven either way: the minimum is >= proven_lower (counting, or one step less unsat), and <= upper_bound
  // when upper_bound != 0 (a simulated witness). Equal when proven. After an unknown query the search goes on upward
  // (completing in T steps implies completing in T + 1, so an unsat above raises proven_lower and a sat ends it).
  std::uint64_t proven_lower = 0, upper_bound = 0;
  torus_query_result at_minimum, below_minimum;
  std::optional<torus_query_result> upper;  // unknown status: the query that gave upper_bound
  double seconds = 0;
  std::string reason;
};

/// How prove_torus_minimum asks its queries.
enum class torus_engine {
  clausal,  // CaDiCaL on the CNF (torus_gossip_cnf, torus_packets_cnf): the unsat step below with a checked DRAT proof
  z3        // Z3 on the pairing model's SMT encoding (solve_torus_pairing): unsat without a certificate
};
struct torus_minimum_options {
  torus_engine engine = torus_engine::clausal;
  std::uint32_t packets = 1;      // own packets per PU, 1 … 2d (z3: 1)
  std::uint64_t max_steps = 0;    // the last step count asked (0: d·P)
  bool keep_certificate = false;  // clausal: below_minimum keeps its DIMACS and DRAT proof
  // Called on the calling thread before each step count is asked: the steps asked, and what is proven so far (the
  // minimum is >= proven_lower, and <= upper_bound when that is not 0) — for a progress display.
  std::function<void(std::uint64_t steps, std::uint64_t proven_lower, std::uint64_t upper_bound)> on_query = {};
  /// When another thread sets it, the query running stops (unknown) and the search ends, unknown, with what it proved
  /// so far; a heuristic witness search already running (at most a minute) ends first.
  const std::atomic<bool>* cancel = nullptr;
};

/// "How many steps does the best time-independent table of the model need?" Asks "within T steps?" upward from the
/// lowest bound known — one packet: core's parity bound (the counting bound ⌈(P − 1)/2d⌉, or one more on some tori
/// with all sides even); k packets: the counting bound ⌈k·(P − 1)/2d⌉ — and the first sat is the minimum, its witness
/// simulated, with the step below unsat (or the bound itself). Past the first query out of time a heuristic search
/// (search/: the local search, or for one packet the tabu search, at most a minute) gives an upper bound U and the
/// search goes on below U, unknown after three queries out of time. Pairing model: unsat at d·P steps means no
/// pairing completes at all (refuted — a stream follows a cycle of the pairing, which passes a PU at most d times);
/// general: no such horizon is known, so the search ends unknown at max_steps.
/// clausal, one packet: each step count is first asked of the tables invariant under a group (a tenth of the budget,
/// at most 30 s; search_invariant_table's groups), whose sat answer is a witness like any other; only the full query's
/// unsat, with its DRAT proof checked by checkers/drat_check, is a lower bound.
/// clausal, k packets (torus_packets_cnf): each step count is first asked, in the general model, of the pairing model
/// (a pairing table is a general one), then of the tables invariant under translations (on P <= 256 PUs), each with a
/// tenth of the budget, at most 30 s; parity_bound is left at lower_bound.
/// z3: the pairing model with one packet (std::invalid_argument otherwise); unsat is Z3's word, with no certificate.
/// keep_certificate (clausal): the full queries keep their certificate (torus_query_result::formula, proof), so that
/// below_minimum carries the DIMACS and DRAT proof of the step below the minimum (none when the minimum is the bound,
/// which needs no solver). require: P >= 2, 1 <= packets <= 2d (std::invalid_argument).
torus_minimum_result prove_torus_minimum(const torus::network& network, torus_model model, unsigned budget_ms,
                                         const torus_minimum_options& options = {});

}  // namespace dancecard::torus
