// The time-independent limit of torus gossip in the pairing model, by Z3: every PU sends its own (single) packet on
// every port in step 1; from step 2 on, each PU forwards what arrives on a port out of the port it is paired with
// (one fixed pairing of its 2d ports per PU). "Can some choice of pairings complete gossip within T steps?" — the
// witness is turned into a routing table and must complete within T steps in checkers/torus_check's simulator; the
// minimum is the least such T with T − 1 unsat. Z3's unsat only: no certificate.
//
//   auto r = dancecard::prove_torus_pairing_minimum(dancecard::torus({4, 4}), {.timeout_ms = 60000});
//   r.status == proof_status::proven && r.minimum_steps == ...
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/smt/clausal.hpp"
#include "dancecard/smt/optimality.hpp"

namespace dancecard {

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

torus_query_result solve_torus_pairing(const torus& network, std::uint64_t steps, unsigned timeout_ms);

/// The two models of the issue: in both, every PU sends its own packet on every port in step 1 and from step 2 on
/// only forwards. pairing: each PU pairs its 2d ports and forwards what arrives on a port out of its partner;
/// general: each out-port forwards one fixed in-port's stream (any of the 2d, its own included) or nothing.
enum class torus_model { pairing, general };
std::string_view to_string(torus_model model);

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
/// and 2-D pairing model). Variables: the model's choices (pairing: choice(pu, c) for the c-th pairing of port_pairings(d), exactly
/// one per PU; general: sel(pu, out, in), at most one per out-port), then x(t, link, u) for t = 2 … steps: the link
/// (pu, out-port) carries PU u's packet in step t. Clauses: x(t, pu→, u) ∧ sel(pu, out, in) → the in-link carried u in
/// step t − 1 (step 1: the neighbour's own packet); in the general model x also needs some sel. Goal: every PU
/// receives every other packet on some in-link in some step <= steps. Exact: the x true in a model are a subset of
/// the real transfers of the decoded table (by induction over t), and the real transfers satisfy every clause.
/// base_only: leave out the implied and the symmetry-breaking constraints (the question as such; used to test the
/// encoding's exactness against the simulator).
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
/// 2^m·m!), or the same without the line swaps or without the hypercube's (for comparison in bench/), or none (the implied constraints alone: every table, not only
/// a lex-least one, keeps its models — what the tests of the implied constraints need). With an orbit map of a group H
/// the break uses the automorphisms that keep the invariant tables invariant (H's normalizer: every translation, after
/// the relabellings σ with A_σ·H = H; translations only: after none), no line swaps, and compares PU 0's whole rule.
enum class torus_symmetry { translations, automorphisms, none, automorphisms_without_line_swaps, automorphisms_without_hypercube };
/// What a torus CNF holds besides the question itself (the defaults: every implied constraint and the full symmetry
/// break, each sound as argued above). torus_packets_cnf reads base_only, orbit and symmetry; torus_symmetric_cnf reads
/// arrival_count, and breaks symmetry unless symmetry is none.
struct torus_cnf_options {
  bool base_only = false;                                   // the question alone: no implied constraint, no break
  std::vector<pu_index> orbit = {};                         // tables invariant under this translation group's orbits
  torus_symmetry symmetry = torus_symmetry::automorphisms;  // the automorphisms of the lex-leader break
  bool arrival_count = true, parity_classes = true, returns = true;  // the implied constraints, one by one
};
cnf_formula torus_gossip_cnf(const torus& network, torus_model model, std::uint64_t steps, const torus_cnf_options& options = {});
/// The choice variable of the CNF: pairing — PU pu uses pairing c of port_pairings(d); general — out-port `out` of PU
/// pu forwards in-port `in` (c is ignored in the general model and in_port in the pairing model).
int torus_choice_variable(const torus& network, torus_model model, pu_index pu, std::uint32_t c_or_out, std::uint32_t in_port = 0);

/// Solves torus_gossip_cnf by CaDiCaL. sat: the model is decoded into a routing table that must complete within
/// `steps` in the simulator (else answer unknown with the simulator's report). unsat: the DRAT proof is checked by
/// checkers/drat_check (else unknown); `reason` says how many lemmas were checked.
torus_query_result solve_torus_clausal(const torus& network, torus_model model, std::uint64_t steps, unsigned budget_ms,
                                       torus_symmetry symmetry = torus_symmetry::automorphisms, bool keep_certificate = false);

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
/// hypercube's bit permutations and the line swaps included; its 'equal so far' variables after the x variables). require: 1 <= packets <= 2d (std::invalid_argument).
/// orbit (empty: none): only tables invariant under a group of translations (translation_orbits), as torus_gossip_cnf's
/// orbit map — a PU uses its orbit's least PU's choice and injection variables, x follows only those PUs' packets, the
/// arrival count is kept at the least PUs (an untracked packet's arrival read off a translate's tracked one), and the
/// lex-leader runs over the group's normalizer (translations, and the relabellings σ with A_σ·H = H), as
/// torus_gossip_cnf's with an orbit map. Unsat then says nothing about tables outside the group. `symmetry`: the
/// lex-leader's automorphisms (translations: translations only — the weaker break, for comparison in bench/; none: no lex-leader;
/// the packet-0 break stays). require: orbit is empty or the orbit map of a translation group (std::invalid_argument).
cnf_formula torus_packets_cnf(const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps,
                              const torus_cnf_options& options = {});
/// The choice variable inj(pu, out, q) of torus_packets_cnf (its model choices are numbered as torus_choice_variable's).
int torus_injection_variable(const torus& network, torus_model model, std::uint32_t packets, pu_index pu, std::uint32_t out, std::uint32_t packet);
/// Solves torus_packets_cnf by CaDiCaL: sat answers carry the decoded table (packets per PU, injections, forwarding),
/// simulated within `steps`; unsat answers stand only with their DRAT proof checked by checkers/drat_check (else
/// unknown). Below the counting bound ⌈k·(P − 1)/2d⌉ the answer is unsat without a search.
torus_query_result solve_torus_packets(const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps, unsigned budget_ms,
                                       bool keep_certificate = false);

/// The best injections for given forwarding rules, k own packets per PU (as torus_packets_cnf: in step 1 each out-port
/// sends one of them, then only forwarding). With the forwarding fixed, what out-port o of PU u sends in step 1 reaches
/// a fixed set of PUs within T steps — its stream, the links downstream by the rules (an out-port never chooses: it
/// sends its one in-port's arrivals) — and packet q of u reaches the union of those sets over the out-ports that send
/// q. So each PU's injection is chosen alone: the assignment of its 2d out-ports to the k packets that leaves the fewest
/// (PU, packet) pairs missing after T steps (a packet sent nowhere misses all P − 1). Renaming a PU's packets changes
/// no arrival, so the assignments up to renaming are all it tries (restricted growth strings: at most Bell(6) = 203).
/// The sets come from the simulator itself: one run of the table with 2d packets per PU, out-port o sending packet o
/// (P²·2d arrival entries). Used by search_torus_table with k > 1.
class torus_injection_chooser {
 public:
  /// require: 1 <= packets <= 2d (std::invalid_argument).
  torus_injection_chooser(const torus& network, std::uint32_t packets);
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
struct torus_heuristic_result {
  std::optional<routing_table> table;  // none if no start table completed (e.g. a budget too small)
  std::uint64_t steps = 0;
  std::uint64_t evaluations = 0;  // tables simulated (tabu search: single changes counted)
  double seconds = 0;
  std::uint64_t closest = 0;  // tabu search only: the fewest (PU, packet) pairs missing one step below `steps` it reached (0 at its goal)
  // tabu search under a group (ask_solver): the SAT queries of its start, and the steps of the solver's table (0: none)
  std::uint64_t solver_queries = 0, solver_steps = 0;
};
/// start: begin from this table's forwarding instead of a random one (and, in the general model, instead
/// of the pairing search) — to improve a known table, such as the catalogue's, by a step. Its out-ports that forward
/// nothing forward straight on instead (an idle out-port never helps: torus_cnf_detail.hpp); its injections are not read.
/// require: the same torus, no switches, and in the pairing model a pairing at every PU (std::invalid_argument).
torus_heuristic_result search_torus_table(const torus& network, torus_model model, unsigned budget_ms, std::uint64_t seed = 1,
                                          std::uint64_t goal = 0, std::uint32_t packets = 1, std::uint64_t max_evaluations = 0,
                                          const std::optional<routing_table>& start = std::nullopt);

/// The (PU, packet) pairs a one-packet time-independent table (packet 0 sent on every out-port in step 1; idle
/// out-ports allowed) leaves missing after `steps` steps, counted as tabu_search_torus_table counts them: PU w holds
/// the tails of the first `steps` links of the backward walks from its in-links. The simulator's count (a RapidCheck
/// property holds the two to each other). require: such a table, every forward entry a port or no_port
/// (std::invalid_argument).
std::uint64_t torus_missing_pairs(const routing_table& table, std::uint64_t steps);


/// Translation-invariant tables: the group of translations generated by shift vectors (one entry per dimension,
/// taken mod n_j). Translations keep every port's direction, so a table is invariant iff all PUs of an orbit make the
/// same choice. translation_orbits: orbit[pu] = the least PU of pu's orbit. require: every generator has d entries.
std::vector<pu_index> translation_orbits(const torus& network, const std::vector<std::vector<std::uint32_t>>& generators);
/// The non-trivial subgroups of the translations, one per class under conjugation by the torus's automorphisms, as
/// generators (joins of cyclic subgroups); the largest groups (smallest CNFs) first. An automorphism with linear part A
/// conjugates the translations by H to those by A·H, and a table moved by it is invariant under A·H and gossips in as
/// many steps (both models are kept by every automorphism), so one group per class is enough to ask: on 6 × 6, 16 of
/// the 29 subgroups. (subgroups × P) orbit computations: meant for the small tori of the SAT queries.
std::vector<std::vector<std::vector<std::uint32_t>>> translation_subgroups(const torus& network);
/// "Is there a table invariant under the group that completes within `steps`?" by CaDiCaL: sat answers carry the
/// decoded table, simulated; unsat answers say nothing about the minimum (only that no table invariant under the group
/// does it). certify: CaDiCaL traces a DRAT proof and unsat stands only once checkers/drat_check accepts it (else
/// unknown, saying why); without, unsat carries no certificate.
torus_query_result solve_torus_invariant(const torus& network, torus_model model, std::uint64_t steps, const std::vector<pu_index>& orbit,
                                         unsigned budget_ms, bool certify = false);

/// An automorphism φ of the port-labelled torus that need not keep directions: the ports are relabelled by σ = `ports`
/// (port p of a PU becomes port σ[p] of its image; σ[2j + b] = 2π(j) + (b xor s_j) for a permutation π of the
/// dimensions with n_π(j) = n_j and a reflection s_j of axis j), and PU x goes to y with y_π(j) = (s_j ? −x_j : x_j) +
/// shift_π(j) mod n_π(j). σ the identity: a translation by `shift`. Reflections, rotations of square layers and glide
/// reflections are of this form.
struct torus_automorphism {
  std::vector<std::uint32_t> ports;
  std::vector<std::uint32_t> shift;
  friend bool operator==(const torus_automorphism&, const torus_automorphism&) = default;
};
/// φ(pu). require: φ is of the form above for this torus (std::invalid_argument naming what is wrong).
pu_index apply_automorphism(const torus& network, const torus_automorphism& phi, pu_index pu);
/// "(x1, x2) -> (-x1 + 2, x2)".
std::string describe(const torus& network, const torus_automorphism& phi);
/// A group's generators, each described, joined by "; ".
std::string describe(const torus& network, const std::vector<torus_automorphism>& generators);
/// The groups of automorphisms whose only translation is the identity (so tables invariant under them are not
/// translation-invariant unless they have more symmetry): reflections, point reflections, rotations of square
/// layers, glide reflections of order 2, and the groups they generate together. One group per class under conjugation
/// by automorphisms (a table moved by an automorphism is invariant under the conjugate group and gossips in as many
/// steps), as generators; the largest groups first. For the small tori of the SAT queries (at most 256 PUs: else
/// std::invalid_argument).
std::vector<std::vector<torus_automorphism>> point_subgroups(const torus& network);
/// The mixed groups: a non-trivial group of translations H together with automorphisms that are not translations
/// (reflections, rotations, glide reflections, …) and add no translation to H — every group of the torus's
/// automorphisms (a signed permutation of equal sizes after a translation) that is neither a translation group nor a
/// point group. A table invariant under such a group is invariant under H, so these groups ask nothing new of H's
/// answer, only a smaller question where H's runs out of time (a mixed group's CNF has |G| / |H| times fewer
/// orbits). One group per class under conjugation by automorphisms, as generators (H's, then the others); the largest
/// groups first. For the small tori of the SAT queries (at most 256 PUs: else std::invalid_argument).
std::vector<std::vector<torus_automorphism>> mixed_subgroups(const torus& network);
/// torus_gossip_cnf restricted to the tables invariant under the group generated by `generators` (any automorphisms
/// above): a PU reads the variables of its orbit's least PU r through the port relabelling of a group element that
/// maps r to it, r's own rule is kept by every element fixing r (stabilizer clauses), and x follows only the orbits'
/// least PUs' packets. (The full CNF's break would not be sound here: a translated invariant table is invariant under
/// a conjugate group, in general not this one.) A table invariant under φ carries φ(u)'s packet to φ(w) whenever it carries
/// u's to w, so bringing the tracked packets everywhere brings every packet everywhere.
/// arrival_count: as in torus_gossip_cnf, kept at the orbits' least PUs (false: left out, for comparison).
/// symmetry_break: torus_gossip_cnf's lex-leader on PU 0's rule (2-D pairing: and its neighbours'), over the group's
/// normalizer — the automorphisms ψ with ψ G ψ⁻¹ = G, which alone carry invariant tables to invariant tables — one ψ
/// per coset ψG (false: left out, for comparison; soundness in torus_cnf_layout.cpp).
cnf_formula torus_symmetric_cnf(const torus& network, torus_model model, std::uint64_t steps, const std::vector<torus_automorphism>& generators,
                                const torus_cnf_options& options = {});
/// solve_torus_invariant for such a group: sat answers carry the decoded table, simulated; unsat says nothing about
/// tables outside the group (certify: as there).
torus_query_result solve_torus_symmetric(const torus& network, torus_model model, std::uint64_t steps, const std::vector<torus_automorphism>& generators,
                                         unsigned budget_ms, bool certify = false);

/// Upper bounds by symmetry: asks solve_torus_invariant for the groups of translation_subgroups (largest first), then
/// (groups = all or point) solve_torus_symmetric for the groups of point_subgroups, then (with_mixed) for those of
/// mixed_subgroups, until a table is found or budget_ms
/// is spent. In rounds: every group still open is asked with the round's budget (the first: half of budget_ms shared
/// out equally over the groups, at least 100 ms each), and those out of time are asked again in the next round with
/// twice as much, at most query_ms (0: no cap) — so the groups that answer at once are all asked before a hard one
/// takes more, and up to 16 groups out of time go on where their solver stopped (the others are built again). A group
/// that contains a conjugate of a group answered unsat is unsat without a query (a table invariant under it would be
/// invariant under that conjugate, and moving the table by the conjugator would give one invariant under the refuted
/// group): it answers when the rounds come to it, or at the end (`implied`). certify: every unsat answer only
/// with its DRAT proof checked (as solve_torus_invariant), or implied so by one, so that unsat == groups proves that no table invariant
/// under any of these groups, or under a group conjugate to one of them, completes within `steps`; a proof's check comes on top of its query's budget, so the
/// search may then run past budget_ms by the last check.
/// with_mixed: all, then mixed_subgroups — numbered after all's, so a group's number is the same in both lists.
enum class invariant_groups { translations, point, all, with_mixed };
/// The groups the search asks, numbered as it numbers them: translation_subgroups (unless `which` is point), then
/// point_subgroups (unless translations), then (with_mixed only) mixed_subgroups. `order`: how many elements.
struct torus_symmetry_group {
  std::vector<std::vector<std::uint32_t>> translations;  // shift vectors generating it, or
  std::vector<torus_automorphism> automorphisms;         // the generators of a point group or a mixed group
  std::uint64_t order = 0;
};
std::vector<torus_symmetry_group> invariant_group_list(const torus& network, invariant_groups which);
/// "9 translations generated by (1,1,1) (0,1,2)" / "2 automorphisms generated by (x1, x2) -> (-x1, -x2)"
std::string describe(const torus& network, const torus_symmetry_group& group);

/// Tabu search for a one-packet table of the model that completes gossip in few steps (smt/src/torus_tabu.cpp). It
/// aims at one step below the best so far and minimises the (PU, packet) pairs still missing there, counted without
/// the simulator: with the forwarding fixed, PU w holds after T steps the tails of the first T links of the backward
/// walks from its in-links (each link's predecessor is the in-link its out-port forwards). Each iteration evaluates
/// every single change (a PU's pairing; an out-port's in-port), recounting only the PUs whose walks the change touches,
/// and makes the best one not tabu, worse ones included; a slot may not return to a value it left for a random tenure
/// (unless that beats the least count yet). Starts from random pairings — in the general model from the best pairing
/// table of half the budget (a pairing table is a general table) — or from `start` (as search_torus_table's). Every table it reports was run by the simulator and completes within `steps`; a table
/// the counter completes and the simulator does not is a std::logic_error. Stops at `goal` (at least the parity bound,
/// up to 4,096 PUs, else the counting bound), after budget_ms, or after max_iterations (0: none; deterministic for a
/// seed then — what tests use). `evaluations` counts the changes evaluated. An upper bound only.
/// group: only tables invariant under this group of automorphisms (translations, point or mixed, as
/// invariant_group_list gives them) — a change is one choice at an orbit's least PU (its pairing, or the in-port of one
/// out-port per orbit of its stabilizer), made at every PU of the orbit relabelled, and each orbit's least PU is
/// counted for the whole orbit. For the groups whose SAT queries (search_invariant_table) run out of time. require: the
/// generators are automorphisms of this torus; in the pairing model every orbit's least PU has a pairing its
/// stabilizer keeps; a start table invariant under the group (std::invalid_argument).
/// ask_solver (general model under a group, without a start, in a timed run — max_iterations 0): the
/// pairing search gets a quarter of the budget, then the SAT query over the group's tables a quarter (half where the
/// pairing search found no table), asked at the goal, one step more, … up to one below the pairing table
/// (solve_torus_invariant or solve_torus_symmetric, each query half the time left, until one is sat), and the search
/// starts from the better table; a sat answer at the goal ends the run. Where the group fixes PUs the pairing start can
/// be poor (3 × 12 under a point group of order 4: 22 steps, where the group has 12-step tables). false: the search
/// from the pairing start only (for comparison in bench/).
torus_heuristic_result tabu_search_torus_table(const torus& network, torus_model model, unsigned budget_ms, std::uint64_t seed = 1,
                                               std::uint64_t goal = 0, std::uint64_t max_iterations = 0,
                                               const std::optional<routing_table>& start = std::nullopt,
                                               const std::optional<torus_symmetry_group>& group = std::nullopt, bool ask_solver = true);

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
  std::vector<std::size_t> open_groups;    // no table: the groups asked still out of time and those never asked, by number
  double seconds = 0;
};
/// only (empty: every group): ask just these groups, by their numbers in invariant_group_list(network, groups) — to
/// give the groups a search left open more time (std::invalid_argument for a number out of range). `groups` then counts
/// those asked for.
/// on_answer (optional): called on the searching thread after each query that answers (unsat, or sat with a simulated
/// table — not a query out of time), so that a long campaign that is stopped keeps what it learned.
struct invariant_group_answer {
  std::size_t group = 0;        // in invariant_group_list's numbering
  torus_symmetry_group symmetry;  // that group itself (generators and order), as the search listed it
  solver_answer answer = solver_answer::unknown;
  bool certified = false;       // unsat with its DRAT proof checked (certify)
  double group_seconds = 0;     // the group's queries over all rounds, building included
  double search_seconds = 0;    // since the search began
  // unsat without a query of its own: the group contains a conjugate of this group (by number), answered unsat before
  // (certified is then false, though that group's answer may be certified)
  std::optional<std::size_t> implied_by;
};
torus_invariant_search_result search_invariant_table(const torus& network, torus_model model, std::uint64_t steps, unsigned budget_ms,
                                                     unsigned query_ms = 0, invariant_groups groups = invariant_groups::translations,
                                                     bool certify = false, const std::vector<std::size_t>& only = {},
                                                     const std::function<void(const invariant_group_answer&)>& on_answer = {});

/// search_invariant_table with k own packets per PU (torus_packets_cnf with the groups' orbit maps): the translation
/// groups only (invariant_group_list's translations, numbered as there), in the same rounds, a group that contains a
/// conjugate of a refuted group refuted without a query (a table invariant under it is invariant under that conjugate;
/// an automorphism carries k-packet tables to k-packet tables). sat: a simulated table with k packets. require: 1 <=
/// packets <= 2d (std::invalid_argument).
torus_invariant_search_result search_invariant_packets_table(const torus& network, torus_model model, std::uint32_t packets, std::uint64_t steps,
                                                             unsigned budget_ms, unsigned query_ms = 0, bool certify = false,
                                                             const std::vector<std::size_t>& only = {},
                                                             const std::function<void(const invariant_group_answer&)>& on_answer = {});

struct torus_minimum_result {
  proof_status status = proof_status::unknown;
  std::uint64_t minimum_steps = 0;  // proven: the minimum; unknown: the step count whose query ran out of time
  std::uint64_t lower_bound = 0;  // ⌈(P − 1)/(2d)⌉: a PU learns at most 2d packets per step
  std::uint64_t parity_bound = 0;  // core's parity_bound (>= lower_bound; P > 4,096: lower_bound), where the search starts
  // What is proven either way: the minimum is >= proven_lower (counting, or one step less unsat), and <= upper_bound
  // when upper_bound != 0 (a simulated witness). Equal when proven. After an unknown query the search goes on upward
  // (completing in T steps implies completing in T + 1, so an unsat above raises proven_lower and a sat ends it).
  std::uint64_t proven_lower = 0, upper_bound = 0;
  torus_query_result at_minimum, below_minimum;
  std::optional<torus_query_result> upper;  // unknown status: the query that gave upper_bound
  double seconds = 0;
  std::string reason;
};

/// The least steps of torus_packets_cnf's tables: asks solve_torus_packets for T = ⌈k·(P − 1)/2d⌉ (lower_bound, a PU
/// receives at most 2d packets a step), T + 1, … as prove_torus_minimum asks its queries: the first sat is the minimum
/// (the step below unsat with a checked DRAT proof, or the counting bound); past the first query out of time the local
/// search with k packets (search_torus_table, at most a minute) gives an upper bound U and the search goes on below U,
/// unknown after three queries out of time; max_steps (0: d·P; pairing model: unsat there is refuted — a stream follows
/// a cycle of the pairing, which passes a PU at most d times, so nothing new arrives later). parity_bound is left at
/// lower_bound. General model: each step count is first asked of the pairing model (a tenth of the budget, at most
/// 30 s; a pairing table is a general one), whose sat answer counts as any other.
/// keep_certificate: as prove_torus_minimum (below_minimum carries the DIMACS and DRAT proof of the step below).
torus_minimum_result prove_torus_packets_minimum(const torus& network, torus_model model, std::uint32_t packets, unsigned budget_ms, std::uint64_t max_steps = 0,
                                                 bool keep_certificate = false);

/// Searches upward from the parity bound (the counting bound, or one more on some tori with all sides even). require: P >= 2.
torus_minimum_result prove_torus_pairing_minimum(const torus& network, unsigned timeout_ms, std::uint64_t max_steps = 0);

/// The same search with the clausal encoding (either model): sat witnesses simulated, the unsat one step below
/// certified by a checked DRAT proof. Pairing: unsat at d·P steps means no pairing completes at all (refuted);
/// general: no such horizon is known, so the search ends unknown at max_steps (0: d·P).
/// keep_certificate: the full queries keep their certificate (torus_query_result::formula, proof), so that
/// below_minimum carries the DIMACS and DRAT proof of the step below the minimum (none when the minimum is the
/// counting bound, which needs no solver).
torus_minimum_result prove_torus_minimum(const torus& network, torus_model model, unsigned budget_ms, std::uint64_t max_steps = 0,
                                         bool keep_certificate = false);

}  // namespace dancecard
