// The combining collectives asked directly: all-reduce, reduce-scatter and reduce as CNF whose models are exactly the
// schedules of copies and reductions that checkers/collective_check accepts, values tracked as contributor sets as the
// checker tracks them (see combining_steps_cnf in the header). Cardinality by Sinz's sequential counters.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "collective_cnf_parts.hpp"
#include "dancecard/smt/collective_synthesis.hpp"

namespace dancecard::collective {

namespace {

// value(k, r, u, t): rank r's value of chunk k holds u's contribution after t steps; then copy(k, l, t) and
// reduce(k, l, t) per link and step.
struct combining_layout {
  std::uint64_t chunks = 0, steps = 0;
  rank ranks = 0;
  std::size_t links = 0;
  int value(std::uint64_t k, rank r, rank u, std::uint64_t t) const {
    return static_cast<int>(1 + ((t * ranks + r) * chunks + k) * ranks + u);
  }
  int transfer(std::uint64_t k, std::size_t l, std::uint64_t t, bool reduce) const {
    return static_cast<int>(1 + (steps + 1) * ranks * chunks * ranks + ((t * links + l) * chunks + k) * 2 + reduce);
  }
  int last() const { return static_cast<int>((steps + 1) * ranks * chunks * ranks + steps * links * chunks * 2); }
};

combining_layout make_combining_layout(const topology& network, const collective& coll, std::uint64_t steps) {
  const std::uint64_t n = coll.ranks, K = coll.chunk_count();
  const std::uint64_t vars = (steps + 1) * n * K * n + steps * network.links().size() * K * 2;
  if (vars > (std::uint64_t{1} << 27))
    throw formula_too_large("collective synthesis: " + std::to_string(vars) +
                            " variables for this query (at most 2^27)");
  return {K, steps, coll.ranks, network.links().size()};
}

// The clause of the last step that says how rank r's value of chunk k came to hold u's contribution: "a copy arrived,
// or the value held it already, or a reduction over one of r's in-links brought it" (the "came" clause less ¬now).
struct came_clause {
  std::uint64_t k;
  rank r, u;
  int copied;
  std::vector<std::pair<std::size_t, int>> brought;  // (in-link, its "brings u's contribution" variable)
};

// combining_steps_cnf; with `last_step`, the came clauses of the last step where the postcondition wants the value
// (u != r) are recorded there.
cnf_formula build(const topology& network, const collective& coll, std::uint64_t steps,
                  const synthesis_options& options, std::vector<came_clause>* last_step) {
  cnf_parts::require_synthesizable(network, coll, options);
  if (!combining(coll.kind))
    throw std::invalid_argument("collective synthesis: " + std::string(to_string(coll.kind)) +
                                " does not combine; collective_steps_cnf covers it");
  const combining_layout at = make_combining_layout(network, coll, steps);
  const std::uint64_t K = coll.chunk_count();
  const rank n = coll.ranks;
  const auto& links = network.links();
  cnf_formula f;
  f.variables = at.last();
  const cnf_parts::round_spread spread = cnf_parts::spread_rounds(f, steps, options);
  f.comments.push_back(cnf_parts::query_comment(network, coll, steps, options));
  f.comments.push_back("value(k, r, u, t) = 1 + ((t*" + std::to_string(n) + " + r)*" + std::to_string(K) + " + k)*" +
                       std::to_string(n) + " + u; copy(k, link l, t) = " + std::to_string(at.transfer(0, 0, 0, false)) +
                       " + ((t*" + std::to_string(links.size()) + " + l)*" + std::to_string(K) +
                       " + k)*2, reduce one more; links sorted by (from, to)");
  // The precondition: each rank's value of each chunk is its own contribution. The postcondition: every contribution
  // in the value of each (chunk, rank) that wants the chunk.
  for (std::uint64_t k = 0; k < K; ++k)
    for (rank r = 0; r < n; ++r)
      for (rank u = 0; u < n; ++u) {
        f.clauses.push_back({u == r ? at.value(k, r, u, 0) : -at.value(k, r, u, 0)});
        if (coll.wanted(k, r)) f.clauses.push_back({at.value(k, r, u, steps)});
      }
  std::vector<std::vector<std::size_t>> in_links(n);
  for (std::size_t l = 0; l < links.size(); ++l) in_links[links[l].to].push_back(l);
  for (std::uint64_t t = 0; t < steps; ++t) {
    for (std::uint64_t k = 0; k < K; ++k) {
      for (std::size_t l = 0; l < links.size(); ++l)  // a transfer only of a value with a contribution
        for (const bool reduce : {false, true}) {
          std::vector<int> some{-at.transfer(k, l, t, reduce)};
          for (rank u = 0; u < n; ++u) some.push_back(at.value(k, links[l].from, u, t));
          f.clauses.push_back(std::move(some));
        }
      for (rank r = 0; r < n; ++r) {
        const std::vector<std::size_t>& in = in_links[r];
        // copied: some copy arrives (a copy replaces the value; beside it no reduction, and every copy the same value)
        const int copied = ++f.variables;
        std::vector<int> any{-copied};
        for (const std::size_t l : in) {
          const int copy = at.transfer(k, l, t, false), reduce = at.transfer(k, l, t, true);
          f.clauses.push_back({-copy, copied});
          any.push_back(copy);
          f.clauses.push_back({-reduce, -copied});
        }
        f.clauses.push_back(std::move(any));
        for (std::size_t i = 0; i < in.size(); ++i)
          for (std::size_t j = i + 1; j < in.size(); ++j) {
            const int a = at.transfer(k, in[i], t, false), b = at.transfer(k, in[j], t, false);
            const int ra = at.transfer(k, in[i], t, true), rb = at.transfer(k, in[j], t, true);
            for (rank u = 0; u < n; ++u) {
              const int va = at.value(k, links[in[i]].from, u, t), vb = at.value(k, links[in[j]].from, u, t);
              f.clauses.push_back({-a, -b, -va, vb});  // two copies: one value
              f.clauses.push_back({-a, -b, va, -vb});
              f.clauses.push_back({-ra, -rb, -va, -vb});  // two reductions: no contribution in both
            }
          }
        for (rank u = 0; u < n; ++u) {
          const int old = at.value(k, r, u, t), now = at.value(k, r, u, t + 1);
          // copied: now = the copies' value
          for (const std::size_t l : in) {
            const int copy = at.transfer(k, l, t, false), sent = at.value(k, links[l].from, u, t);
            f.clauses.push_back({-copy, -sent, now});
            f.clauses.push_back({-copy, sent, -now});
          }
          // not copied: now = old plus what the reductions bring, none of it counted twice
          f.clauses.push_back({copied, -old, now});
          std::vector<int> came{copied, -now, old};
          came_clause* record = nullptr;
          if (last_step && t + 1 == steps && u != r && coll.wanted(k, r)) {
            last_step->push_back({k, r, u, copied, {}});
            record = &last_step->back();
          }
          for (const std::size_t l : in) {
            const int reduce = at.transfer(k, l, t, true), sent = at.value(k, links[l].from, u, t);
            f.clauses.push_back({-reduce, -sent, -old});  // the contribution is not in the value already
            f.clauses.push_back({-reduce, -sent, now});
            const int brought = ++f.variables;  // this reduction brings u's contribution
            f.clauses.push_back({-brought, reduce});
            f.clauses.push_back({-brought, sent});
            came.push_back(brought);
            if (record) record->brought.emplace_back(l, brought);
          }
          f.clauses.push_back(std::move(came));
        }
      }
    }
    cnf_parts::require_within_limit(f, options);
    std::vector<std::vector<int>> sends(links.size());
    for (std::size_t l = 0; l < links.size(); ++l) {  // capacity × rounds per link and step: copies and reductions
      for (std::uint64_t k = 0; k < K; ++k)
        for (const bool reduce : {false, true}) sends[l].push_back(at.transfer(k, l, t, reduce));
      cnf_parts::limit_link(f, sends[l], links[l].capacity, t, options, spread);
    }
    if (options.ports == port_model::one_port_full_duplex) cnf_parts::one_port(f, network, sends);
  }
  return f;
}

}  // namespace

cnf_formula combining_steps_cnf(const topology& network, const collective& coll, std::uint64_t steps,
                                const synthesis_options& options) {
  return build(network, coll, steps, options, nullptr);
}

namespace cnf_parts {

split_query combining_split_query(const topology& network, const collective& coll, std::uint64_t steps,
                                  const synthesis_options& options) {
  split_query out;
  std::vector<came_clause> last;
  out.formula = build(network, coll, steps, options, &last);
  if (steps == 0) return out;
  const combining_layout at = make_combining_layout(network, coll, steps);
  std::vector<std::vector<std::uint32_t>> from(coll.ranks);
  for (const came_clause& c : last)
    if (from[c.u].empty()) from[c.u] = distances_from(network, c.u);
  // The contributions that travel farthest first: their last step is the most constrained (ties in build order).
  std::stable_sort(last.begin(), last.end(),
                   [&](const came_clause& a, const came_clause& b) { return from[a.u][a.r] > from[b.u][b.r]; });
  for (const came_clause& c : last) {
    const std::string value = "rank " + std::to_string(c.r) + "'s chunk " + std::to_string(c.k);
    cubes::split_group g{value + " gets " + std::to_string(c.u) + "'s contribution", {}, {}};
    g.literals.push_back(c.copied);
    g.values.push_back("a copy of chunk " + std::to_string(c.k) + " reaches rank " + std::to_string(c.r) +
                       " in the last step");
    g.literals.push_back(at.value(c.k, c.r, c.u, steps - 1));
    g.values.push_back(value + " holds " + std::to_string(c.u) + "'s contribution before the last step");
    for (const auto& [l, brought] : c.brought) {
      g.literals.push_back(brought);
      g.values.push_back("a reduction " + std::to_string(network.links()[l].from) + " -> " + std::to_string(c.r) +
                         " brings " + std::to_string(c.u) + "'s contribution in the last step");
    }
    out.groups.push_back(std::move(g));
  }
  return out;
}

}  // namespace cnf_parts

schedule decode_combining_model(const topology& network, const collective& coll, std::uint64_t s,
                                const synthesis_options& options, const std::vector<int>& model, int variables,
                                const std::string& algorithm) {
  const combining_layout at = make_combining_layout(network, coll, s);
  const std::vector<char> truth = cnf_parts::truth_of(model, variables);
  schedule w = cnf_parts::steps_of_model(network, coll, s, options, truth, at.last() + 1, algorithm);
  for (std::uint64_t t = 0; t < s; ++t) {
    step& st = w.steps[t];
    for (std::size_t l = 0; l < network.links().size(); ++l)
      for (std::uint64_t k = 0; k < coll.chunk_count(); ++k)
        for (const bool reduce : {false, true})
          if (truth[static_cast<std::size_t>(at.transfer(k, l, t, reduce))])
            st.transfers.push_back(
                {k, network.links()[l].from, network.links()[l].to, reduce ? transfer_op::reduce : transfer_op::copy});
  }
  return w;
}

}  // namespace dancecard::collective
