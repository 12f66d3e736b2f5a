// The shared parts of the collective CNFs (see the header); cardinality by Sinz's sequential counters ("Towards an
// optimal CNF encoding of Boolean cardinality constraints", CP 2005).
#include "collective_cnf_parts.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cnf_cardinality.hpp"

namespace dancecard::collective::cnf_parts {

namespace {

// At least m of `flags` true implies outputs[m − 1], for m = 1 … M (Sinz's sequential counter, the implications
// towards "at least" only); an output beyond |flags| is never forced and stays free.
std::vector<int> at_least_outputs(cnf_formula& f, const std::vector<int>& flags, std::uint64_t M) {
  const std::uint64_t m = flags.size(), s = std::min(M, m);
  std::vector<int> out(M, 0);
  if (m == 0 || s == 0) {
    for (int& o : out) o = ++f.variables;
    return out;
  }
  std::vector<int> previous(s, 0);
  for (std::uint64_t k = 0; k < m; ++k) {
    std::vector<int> row(s);
    for (int& c : row) c = ++f.variables;
    f.clauses.push_back({-flags[k], row[0]});
    if (k > 0) {
      for (std::uint64_t j = 0; j < s; ++j) f.clauses.push_back({-previous[j], row[j]});
      for (std::uint64_t j = 1; j < s; ++j) f.clauses.push_back({-flags[k], -previous[j - 1], row[j]});
    }
    previous = std::move(row);
  }
  for (std::uint64_t j = 0; j < M; ++j) out[j] = j < s ? previous[j] : ++f.variables;
  return out;
}

}  // namespace

void require_synthesizable(const topology& network, const collective& coll, const synthesis_options& options) {
  require_valid(coll);
  if (coll.ranks != network.size())
    throw std::invalid_argument("collective synthesis: the collective has " + std::to_string(coll.ranks) +
                                " ranks, the network " + std::to_string(network.size()));
  if (options.ports == port_model::one_port_half_duplex || options.ports == port_model::one_port_simplex)
    throw std::invalid_argument("collective synthesis: all-port or one-port-full-duplex");
  if (options.rounds_per_step < 1) throw std::invalid_argument("collective synthesis: rounds_per_step >= 1");
}

held_send_layout make_held_send_layout(std::uint64_t chunks, std::uint64_t steps, rank ranks, std::size_t links) {
  const std::uint64_t vars = (steps + 1) * ranks * chunks + steps * links * chunks;
  if (vars > (std::uint64_t{1} << 28))
    throw formula_too_large("collective synthesis: " + std::to_string(vars) +
                            " variables for this query (at most 2^28)");
  return {chunks, steps, ranks, links};
}

void chunk_moves(cnf_formula& f, const topology& network, const held_send_layout& at, std::uint64_t k,
                 std::uint64_t t) {
  const auto& links = network.links();
  for (std::size_t l = 0; l < links.size(); ++l)  // a send only of a chunk held
    f.clauses.push_back({-at.send(k, l, t), at.held(k, links[l].from, t)});
  for (rank v = 0; v < at.ranks; ++v) {
    f.clauses.push_back({-at.held(k, v, t), at.held(k, v, t + 1)});  // what is held stays held
    std::vector<int> came{-at.held(k, v, t + 1), at.held(k, v, t)};  // held at t + 1: held at t, or arrived
    for (std::size_t l = 0; l < links.size(); ++l)
      if (links[l].to == v) came.push_back(at.send(k, l, t));
    f.clauses.push_back(std::move(came));
  }
}

round_spread spread_rounds(cnf_formula& f, std::uint64_t steps, const synthesis_options& options) {
  round_spread spread{f.variables + 1, 0};
  if (!options.total_rounds) return spread;
  if (*options.total_rounds < steps)
    throw std::invalid_argument("collective synthesis: " + std::to_string(*options.total_rounds) +
                                " rounds cannot fill " + std::to_string(steps) + " steps");
  spread.extra = *options.total_rounds - steps;
  f.variables += static_cast<int>(steps * spread.extra);
  if (spread.extra > 0) {
    std::vector<int> all;
    for (std::uint64_t t = 0; t < steps; ++t)
      for (std::uint64_t j = 1; j <= spread.extra; ++j) {
        all.push_back(spread.var(t, j));
        if (j > 1) f.clauses.push_back({-spread.var(t, j), spread.var(t, j - 1)});
      }
    detail::at_most(f, all, spread.extra);  // the steps' rounds beyond the first sum to at most R − S
  }
  return spread;
}

void require_within_limit(const cnf_formula& f, const synthesis_options& options) {
  if (f.clauses.size() > options.max_clauses)
    throw formula_too_large("collective synthesis: the formula passed " + std::to_string(options.max_clauses) +
                            " clauses (synthesis_options::max_clauses, --max-clauses) with " +
                            std::to_string(f.variables) + " variables, and was not finished");
}

void limit_link(cnf_formula& f, const std::vector<int>& sends, std::uint64_t capacity, std::uint64_t t,
                const synthesis_options& options, const round_spread& spread) {
  if (!options.total_rounds) {
    detail::at_most(f, sends, capacity * options.rounds_per_step);
    require_within_limit(f, options);
    return;
  }
  // more than cap·(1 + j) sends need the step's (j + 1)-th extra round; more than cap·(1 + R − S) none has
  const std::vector<int> least = at_least_outputs(f, sends, capacity * (1 + spread.extra) + 1);
  for (std::uint64_t j = 0; j < spread.extra; ++j)
    f.clauses.push_back({-least[capacity * (1 + j)], spread.var(t, j + 1)});
  if (sends.size() > capacity * (1 + spread.extra)) f.clauses.push_back({-least[capacity * (1 + spread.extra)]});
  require_within_limit(f, options);
}

void one_port(cnf_formula& f, const topology& network, const std::vector<std::vector<int>>& sends) {
  const auto& links = network.links();
  std::vector<int> used(links.size());
  for (std::size_t l = 0; l < links.size(); ++l) {
    used[l] = ++f.variables;
    for (const int s : sends[l]) f.clauses.push_back({-s, used[l]});
  }
  for (rank r = 0; r < network.size(); ++r) {
    std::vector<int> out, in;
    for (std::size_t l = 0; l < links.size(); ++l) {
      if (links[l].from == r) out.push_back(used[l]);
      if (links[l].to == r) in.push_back(used[l]);
    }
    detail::at_most(f, out, 1);
    detail::at_most(f, in, 1);
  }
}

std::uint64_t chunk_image(const collective& coll, const std::vector<rank>& g, std::uint64_t c) {
  const std::uint64_t C = coll.chunks, n = coll.ranks;
  if (coll.kind == collective_kind::allgather) return std::uint64_t{g[c / C]} * C + c % C;
  const std::uint64_t block = c / C;
  return (std::uint64_t{g[block / n]} * n + g[block % n]) * C + c % C;
}

std::string query_comment(const topology& network, const collective& coll, std::uint64_t steps,
                          const synthesis_options& options) {
  return "dancecard collective synthesis: " + coll.describe() + " on " + network.name() + " (" +
         std::string(to_string(options.ports)) + "), " + std::to_string(steps) + " steps, " +
         (options.total_rounds ? std::to_string(*options.total_rounds) + " rounds in all"
                               : std::to_string(options.rounds_per_step) + " round(s) each");
}

std::vector<char> truth_of(const std::vector<int>& model, int variables) {
  std::vector<char> truth(static_cast<std::size_t>(variables) + 1, 0);
  for (const int v : model)
    if (v > 0 && v <= variables) truth[static_cast<std::size_t>(v)] = 1;
  return truth;
}

schedule steps_of_model(const topology& network, const collective& coll, std::uint64_t steps,
                        const synthesis_options& options, const std::vector<char>& truth, int first_extra,
                        const std::string& algorithm) {
  const round_spread spread{first_extra, options.total_rounds ? *options.total_rounds - steps : 0};
  schedule w{network, options.ports, coll, {}, algorithm};
  std::uint64_t rounds_left = options.total_rounds ? *options.total_rounds : 0;
  for (std::uint64_t t = 0; t < steps; ++t) {
    std::uint32_t rounds = options.rounds_per_step;
    if (options.total_rounds) {
      rounds = 1;
      for (std::uint64_t j = 1; j <= spread.extra; ++j) rounds += truth[static_cast<std::size_t>(spread.var(t, j))];
      if (t + 1 == steps) rounds = static_cast<std::uint32_t>(std::max<std::uint64_t>(rounds, rounds_left));
      rounds_left -= std::min<std::uint64_t>(rounds_left, rounds);
    }
    w.steps.push_back(step{rounds, {}});
  }
  return w;
}

}  // namespace dancecard::collective::cnf_parts
