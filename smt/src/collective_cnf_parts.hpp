// Parts of the collective CNFs that the copy-only encoding (collective_synthesis.cpp) and the combining one
// (collective_combining.cpp) share: the checks of the options, the rounds the solver spreads over the steps, a link's
// capacity in a step, one port; and reading the rounds back from a model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dancecard/smt/collective_synthesis.hpp"

namespace dancecard::collective::cnf_parts {

/// require (std::invalid_argument): the collective valid and on the network's ranks; all-port or one-port full
/// duplex; rounds_per_step >= 1.
void require_synthesizable(const topology& network, const collective& coll, const synthesis_options& options);

/// held(c, r, t) for t = 0 … S and send(c, l, t) per step and link, numbered as the copy-only encodings (the whole
/// formula and the quotient) number them: held 1 + (t·n + r)·K + c, then send 1 + (S + 1)·n·K + (t·L + l)·K + c.
struct held_send_layout {
  std::uint64_t chunks = 0, steps = 0;
  rank ranks = 0;
  std::size_t links = 0;
  int held(std::uint64_t c, rank r, std::uint64_t t) const {
    return static_cast<int>(1 + (t * ranks + r) * chunks + c);
  }
  int send(std::uint64_t c, std::size_t l, std::uint64_t t) const {
    return static_cast<int>(1 + (steps + 1) * ranks * chunks + (t * links + l) * chunks + c);
  }
  int last() const { return static_cast<int>((steps + 1) * ranks * chunks + steps * links * chunks); }
};
/// require (formula_too_large): at most 2^28 held and send variables.
held_send_layout make_held_send_layout(std::uint64_t chunks, std::uint64_t steps, rank ranks, std::size_t links);

/// The model's conditions on chunk k (numbered by `at`) in step t: a send only of a chunk held; what is held stays
/// held; held at t + 1: held at t, or arrived over one of the rank's in-links in step t.
void chunk_moves(cnf_formula& f, const topology& network, const held_send_layout& at, std::uint64_t k, std::uint64_t t);

/// The rounds as the solver distributes them (options.total_rounds): extra(t, j), j = 1 … R − S, "step t has at
/// least 1 + j rounds", numbered from `first` (t-major) so that a model can be read back; each implies the one below,
/// and they sum to at most R − S. None without total_rounds.
struct round_spread {
  int first = 0;
  std::uint64_t extra = 0;  // R − S
  int var(std::uint64_t t, std::uint64_t j) const { return first + static_cast<int>(t * extra + j - 1); }
};
/// Allocates the extra variables right after f.variables and adds their clauses. require (std::invalid_argument):
/// total_rounds >= steps.
round_spread spread_rounds(cnf_formula& f, std::uint64_t steps, const synthesis_options& options);

/// require (formula_too_large): f within options.max_clauses. The builders call it as they go (limit_link does after
/// each link), so that a formula too large stops before it fills the memory.
void require_within_limit(const cnf_formula& f, const synthesis_options& options);

/// At most capacity × rounds of `sends` (the chunks over one link in step t): rounds_per_step, or with the spread, more
/// than capacity·(1 + j) sends need step t's (j + 1)-th extra round (Sinz's sequential counter, its "at least"
/// outputs).
void limit_link(cnf_formula& f, const std::vector<int>& sends, std::uint64_t capacity, std::uint64_t t,
                const synthesis_options& options, const round_spread& spread);

/// One port, full duplex, in one step: a link is used when one of its sends is, and each rank uses one out-link and
/// one in-link. `sends[l]`: the send variables of link l in the step.
void one_port(cnf_formula& f, const topology& network, const std::vector<std::vector<int>>& sends);

/// Where the rank permutation g takes chunk c of an all-gather or all-to-all: the chunk with g's image of c's source
/// (and destination, for the all-to-all), the same index within its block.
std::uint64_t chunk_image(const collective& coll, const std::vector<rank>& g, std::uint64_t c);

/// The formula's first comment line: what it asks ("dancecard collective synthesis: … on …, S steps, …").
std::string query_comment(const topology& network, const collective& coll, std::uint64_t steps,
                          const synthesis_options& options);

/// A model (the true variables) as a truth value per variable 1 … variables.
std::vector<char> truth_of(const std::vector<int>& model, int variables);

/// The schedule a model encodes with its steps still empty: the network, port model and collective, and each step's
/// rounds — rounds_per_step, or 1 plus its true extras (numbered from first_extra), the last step taking what is left
/// of R.
schedule steps_of_model(const topology& network, const collective& coll, std::uint64_t steps,
                        const synthesis_options& options, const std::vector<char>& truth, int first_extra,
                        const std::string& algorithm);

/// collective_split_query for the combining collectives (collective_combining.cpp): for each (chunk, rank) the
/// postcondition wants and each other rank's contribution, the last step's clause "a copy arrives, or the value held
/// the contribution before, or a reduction over an in-link brings it" — combining_steps_cnf's clause less the literal
/// the postcondition's unit falsifies — the contributions that travel farthest first.
split_query combining_split_query(const topology& network, const collective& coll, std::uint64_t steps,
                                  const synthesis_options& options);

}  // namespace dancecard::collective::cnf_parts
