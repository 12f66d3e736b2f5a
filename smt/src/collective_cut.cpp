// Cut bounds on rounds as cutting-planes certificates (see the header): the derivation written line by line, then
// checked by checkers/cutting_planes_check, which builds the model's axioms itself from the instance line.
#include "dancecard/smt/collective_cut.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/cutting_planes_check.hpp"

namespace dancecard::collective {

namespace {

// Derivation lines are bounded: chunks × steps × ranks outside.
constexpr std::uint64_t max_claims = 1'000'000;

struct cut {
  std::vector<char> in;                           // by rank
  std::vector<std::pair<std::uint64_t, rank>> d;  // the chunks that must leave, each with a rank outside that wants it
  std::uint64_t capacity = 0;
};

cut make_cut(const topology& net, const collective& coll, std::vector<char> in) {
  cut x;
  x.in = std::move(in);
  for (const link& l : net.links())
    if (x.in[l.from] && !x.in[l.to]) x.capacity += l.capacity;
  for (std::uint64_t c = 0; c < coll.chunk_count(); ++c) {
    if (!x.in[coll.source(c)]) continue;
    for (rank w = 0; w < coll.ranks; ++w)
      if (!x.in[w] && coll.wanted(c, w)) {
        x.d.push_back({c, w});
        break;
      }
  }
  return x;
}

// "c:u:v:t", the suffix of the axioms of chunk c over link u → v in step t
std::string name_link(std::uint64_t c, const link& l, std::uint64_t t) {
  std::ostringstream s;
  s << c << ':' << l.from << ':' << l.to << ':' << t;
  return s.str();
}

std::string write_certificate(const topology& net, const collective& coll, std::uint64_t steps, std::uint64_t rounds,
                              const cut& x) {
  std::ostringstream out;
  out << "dancecard.cp/1\ninstance collective network=" << net.name() << " coll=" << to_string(coll.kind)
      << " chunks=" << coll.chunks << " root=" << coll.root << " steps=" << steps << " rounds=" << rounds << '\n';
  std::vector<const link*> across;  // the links out of X
  for (const link& l : net.links())
    if (x.in[l.from] && !x.in[l.to]) across.push_back(&l);
  std::vector<rank> outside;
  for (rank r = 0; r < coll.ranks; ++r)
    if (!x.in[r]) outside.push_back(r);
  std::uint64_t id = 0;
  std::vector<std::uint64_t> totals;  // per chunk of d: the derived Y_S(c) ≥ 1
  std::vector<std::string> claim(coll.ranks), next(coll.ranks);
  auto reference = [](std::uint64_t k) {
    std::string r = "#";  // appended, not "#" + …: GCC 12 warns falsely (-Wrestrict) on that
    r += std::to_string(k);
    return r;
  };
  for (const auto& [c, w] : x.d) {
    for (rank v : outside) {
      std::ostringstream init;
      init << "init:" << c << ':' << v;
      claim[v] = init.str();
    }
    for (std::uint64_t t = 0; t < steps; ++t) {
      for (rank v : outside) {
        std::uint64_t k = 1;
        std::ostringstream terms;
        terms << " 1 arrive:" << c << ':' << v << ':' << t << " 1 " << claim[v];
        for (const link& l : net.links())
          if (l.to == v && !x.in[l.from]) {
            ++k;
            terms << " 1 send:" << name_link(c, l, t) << " 1 " << claim[l.from];
          }
        for (const link* l : across) {
          const std::uint64_t raise = l->to == v ? k - 1 : k;  // arrive already counts the links into v once
          if (raise > 0) terms << ' ' << raise << " lower:x:" << name_link(c, *l, t);
        }
        if (k > 1) terms << ' ' << k - 1 << " upper:h:" << c << ':' << v << ':' << t + 1;
        out << "c " << ++id << " sum" << terms.str() << '\n';
        if (k > 1) {
          out << "c " << id + 1 << " div " << k << ' ' << reference(id) << "\ndel " << reference(id) << '\n';
          ++id;
        }
        next[v] = reference(id);
      }
      for (rank v : outside) {
        if (claim[v][0] == '#') out << "del " << claim[v] << '\n';
        claim[v] = next[v];
      }
    }
    out << "c " << ++id << " sum 1 want:" << c << ':' << w << " 1 " << claim[w] << '\n';
    for (rank v : outside)
      if (claim[v][0] == '#') out << "del " << claim[v] << '\n';
    totals.push_back(id);
  }
  out << "c " << ++id << " sum";
  for (std::uint64_t f : totals) out << " 1 " << reference(f);
  for (const link* l : across)
    for (std::uint64_t t = 0; t < steps; ++t) out << " 1 cap:" << l->from << ':' << l->to << ':' << t;
  if (rounds > steps) out << ' ' << x.capacity << " rounds";
  std::vector<char> leaves(static_cast<std::size_t>(coll.chunk_count()), 0);
  for (const auto& dc : x.d) leaves[static_cast<std::size_t>(dc.first)] = 1;
  for (std::uint64_t c = 0; c < coll.chunk_count(); ++c)
    if (!leaves[static_cast<std::size_t>(c)])
      for (const link* l : across)
        for (std::uint64_t t = 0; t < steps; ++t) out << " 1 lower:x:" << name_link(c, *l, t);
  out << "\ncontradiction " << reference(id) << '\n';
  return out.str();
}

}  // namespace

std::optional<cut_refutation> refute_by_cut(const topology& network, const collective& coll, std::uint64_t steps,
                                            std::uint64_t rounds) {
  // The certificate's instance line names the collective by kind, chunks and root: an alltoallv's counts have no
  // place in it.
  if (combining(coll.kind) || coll.kind == collective_kind::alltoallv || coll.ranks != network.size() || coll.ranks < 2)
    return std::nullopt;
  try {  // the certificate names the network: it must be the built-in one of that name
    const std::optional<topology> same = builtin_topology(network.name());
    if (!same || same->links() != network.links()) return std::nullopt;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  // The cut the checker names (up to 32 ranks), else the rank whose in-links bind most.
  const collective_report bounds = check_collective_schedule(schedule{network, port_model::all_port, coll, {}, ""});
  if (bounds.round_bound <= rounds) return std::nullopt;
  std::vector<char> in(coll.ranks, 1);
  if (bounds.round_bound_cut != 0) {
    for (rank r = 0; r < coll.ranks; ++r) in[r] = static_cast<char>(bounds.round_bound_cut >> r & 1);
  } else {
    std::uint64_t best = 0;
    rank alone = 0;
    for (rank r = 0; r < coll.ranks; ++r) {
      std::vector<char> all_but(coll.ranks, 1);
      all_but[r] = 0;
      const cut x = make_cut(network, coll, std::move(all_but));
      if (x.capacity > 0 && (x.d.size() + x.capacity - 1) / x.capacity > best)
        best = (x.d.size() + x.capacity - 1) / x.capacity, alone = r;
    }
    in[alone] = 0;
  }
  const cut x = make_cut(network, coll, std::move(in));
  const std::uint64_t outside = static_cast<std::uint64_t>(std::count(x.in.begin(), x.in.end(), 0));
  if (x.capacity == 0 || x.d.size() <= x.capacity * rounds || x.d.size() * steps * outside > max_claims)
    return std::nullopt;
  cut_refutation out;
  for (rank r = 0; r < coll.ranks; ++r)
    if (x.in[r]) out.inside.push_back(r);
  out.chunks = x.d.size();
  out.capacity = x.capacity;
  out.certificate = write_certificate(network, coll, steps, rounds, x);
  const certificates::cutting_planes_report check = certificates::check_cutting_planes(out.certificate);
  out.accepted = check.outcome == verdict::holds;
  out.checked_steps = check.steps;
  std::ostringstream d;
  d << out.chunks << " chunks must leave {";
  for (std::size_t i = 0; i < out.inside.size() && i < 16; ++i) d << (i ? ", " : "") << out.inside[i];
  d << (out.inside.size() > 16 ? ", …}" : "}") << " over " << out.capacity << " a round, more than " << rounds
    << (rounds == 1 ? " round carries: " : " rounds carry: ");
  if (out.accepted) {
    d << "cutting-planes certificate checked (" << check.steps << " steps)";
  } else {
    d << "but the cutting-planes certificate was rejected: " << check.problem;
  }
  out.detail = d.str();
  return out;
}

}  // namespace dancecard::collective
