// The collective checker (see the header): SCCL's step semantics (Cai et al., PPoPP 2021, Section 3.2) — every
// transfer of a step reads the values held when the step begins, the writes land together at its end — with chunk
// values as contributor sets for the combining collectives.
#include "dancecard/checkers/collective_check.hpp"

#include "collective_transfer_loop.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace dancecard::collective {

using namespace detail;

namespace {

constexpr std::array<std::string_view, collective_violation_kind_count> kind_names = {
    "out of range",   "not a link",       "over capacity", "port conflict",        "not held",  "write conflict",
    "double counted", "reduce forbidden", "missing",       "missing contribution", "redundant", "moved twice"};

// Whether the network is one of the vertex-transitive built-ins with links both ways, by its links: the complete graph
// (every ordered pair: n·(n − 1) links, as no pair repeats), or the ring, torus or hypercube its name gives.
bool vertex_transitive_builtin(const topology& network) {
  const std::uint64_t n = network.size();
  const std::string& name = network.name();
  if (name.rfind("complete:", 0) == 0) return network.links().size() == n * (n - 1);
  if (name.rfind("ring:", 0) != 0 && name.rfind("torus:", 0) != 0 && name.rfind("hypercube:", 0) != 0) return false;
  try {
    const std::optional<topology> same = builtin_topology(name);
    return same && same->size() == network.size() && same->links() == network.links();
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace

namespace detail {

chunk_values::chunk_values(const collective& c)
    : ranks_(combining(c.kind) ? c.ranks : 0), chunks_(c.chunk_count()), words_((c.ranks + 63) / 64) {
  const std::uint64_t bytes = static_cast<std::uint64_t>(ranks_) * chunks_ * words_ * 8;
  if (bytes > (std::uint64_t{1} << 31))
    throw std::invalid_argument("collective check: " + c.describe() + " needs " + std::to_string(bytes >> 20) +
                                " MiB of chunk values (at most 2048)");
  bits_.assign(static_cast<std::size_t>(ranks_) * chunks_ * words_, 0);
  for (rank r = 0; r < ranks_; ++r)
    for (std::uint64_t k = 0; k < chunks_; ++k) at(r, k)[r / 64] |= std::uint64_t{1} << (r % 64);
}

}  // namespace detail

std::string_view to_string(collective_violation_kind kind) { return kind_names[static_cast<std::size_t>(kind)]; }

std::string describe(const collective_violation& v) {
  std::ostringstream s;
  const std::string where = "step " + std::to_string(v.step) + ", transfer " + std::to_string(v.index) + " (chunk " +
                            std::to_string(v.chunk) + ", " + std::to_string(v.from) + " -> " + std::to_string(v.to) +
                            ")";
  switch (v.kind) {
    case collective_violation_kind::out_of_range:
      s << where << ": names a rank or chunk that does not exist, or sends to itself";
      break;
    case collective_violation_kind::not_a_link:
      s << where << ": " << v.from << " -> " << v.to << " is no link of the network";
      break;
    case collective_violation_kind::over_capacity:
      s << where << ": more chunks over " << v.from << " -> " << v.to
        << " in this step than its capacity times the rounds";
      break;
    case collective_violation_kind::port_conflict:
      s << where << ": breaks the port model, as a rank of it already exchanges with " << v.other << " in this step";
      break;
    case collective_violation_kind::not_held:
      s << where << ": rank " << v.from << " does not hold chunk " << v.chunk << " when the step begins";
      break;
    case collective_violation_kind::write_conflict:
      s << where << ": a second write of chunk " << v.chunk << " at rank " << v.to
        << " in this step that disagrees with the first (another value, or a copy beside a reduction)";
      break;
    case collective_violation_kind::double_counted:
      s << where << ": the reduction counts the contribution of rank " << v.other << " twice";
      break;
    case collective_violation_kind::reduce_forbidden:
      s << where << ": a reduction, but this collective does not combine";
      break;
    case collective_violation_kind::missing:
      s << "after " << v.step << " steps: rank " << v.to << " lacks chunk " << v.chunk;
      break;
    case collective_violation_kind::redundant:
      s << where << ": rank " << v.to << " already holds this chunk as sent, or receives it twice in this step";
      break;
    case collective_violation_kind::missing_contribution:
      s << "after " << v.step << " steps: rank " << v.to << "'s chunk " << v.chunk << " lacks the contribution of rank "
        << v.other;
      break;
    case collective_violation_kind::moved_twice:
      s << where << ": rank " << v.from << " moved chunk " << v.chunk << " away already in this step (transfer "
        << v.other << ")";
      break;
  }
  return s.str();
}

collective_report check_collective_schedule(const schedule& sched, const collective_check_options& options) {
  const collective& c = sched.coll;
  require_valid(c);
  if (c.ranks != sched.network.size())
    throw std::invalid_argument("collective check: the collective has " + std::to_string(c.ranks) +
                                " ranks, the network " + sched.network.name() + " " +
                                std::to_string(sched.network.size()));
  collective_report out;
  const rank n = c.ranks;
  const std::uint64_t K = c.chunk_count();
  const bool combines = combining(c.kind);
  out.checked = c.describe() + " on " + sched.network.name() + " (" + std::string(to_string(sched.ports)) + ")";
  auto add = [&](collective_violation v) {
    ++out.count_by_kind[static_cast<std::size_t>(v.kind)];
    out.add(v, options.max_witnesses);
  };

  // The state (collective_transfer_loop.hpp): contributor sets where the collective combines, held bits otherwise.
  chunk_values values(c);
  const std::uint64_t pairs = static_cast<std::uint64_t>(n) * K;
  if (!combines && pairs > (std::uint64_t{1} << 30))
    throw std::invalid_argument("collective check: " + c.describe() + " needs " + std::to_string(pairs >> 19) +
                                " MiB of chunk states (at most 2048)");
  std::vector<std::uint16_t> held(combines ? 0 : static_cast<std::size_t>(pairs), 0);
  if (!combines)
    for (std::uint64_t k = 0; k < K; ++k) held[static_cast<std::size_t>(k) * n + c.source(k)] = held_codes::before;
  const std::size_t links = sched.network.links().size();
  std::vector<link_load> load(links);
  for (std::size_t l = 0; l < links; ++l) load[l].capacity = sched.network.links()[l].capacity;
  std::vector<sender_link> senders(n);
  std::vector<port_state> ports(sched.ports == port_model::all_port ? 0 : n);
  std::vector<std::uint32_t> write_step(combines ? static_cast<std::size_t>(pairs) : 0, 0);
  std::vector<std::uint32_t> write_at(combines ? static_cast<std::size_t>(pairs) : 0, 0);
  if (sched.steps.size() >= std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("collective check: at most 2^32 - 2 steps");
  loop_state state{sched, options, out, values, held, load, senders, ports, write_step, write_at};
  auto run_for = [&]<bool Combines>() {
    switch (sched.ports) {
      case port_model::all_port:
        return transfer_loop<Combines, port_model::all_port>(state).run();
      case port_model::one_port_full_duplex:
        return transfer_loop<Combines, port_model::one_port_full_duplex>(state).run();
      case port_model::one_port_half_duplex:
        return transfer_loop<Combines, port_model::one_port_half_duplex>(state).run();
      case port_model::one_port_simplex:
        return transfer_loop<Combines, port_model::one_port_simplex>(state).run();
    }
  };
  combines ? run_for.template operator()<true>() : run_for.template operator()<false>();
  out.steps = sched.steps.size();

  // The postcondition: each chunk at every rank (allgather, broadcast, allreduce) or at the one rank that wants it.
  auto check_at = [&](std::uint64_t k, rank r) {
    if (!combines) {
      if (held[static_cast<std::size_t>(k) * n + r] == 0)
        add({collective_violation_kind::missing, out.steps, 0, k, r, r, 0});
      return;
    }
    const std::uint64_t* v = values.at(r, k);
    for (rank u = 0; u < n; ++u)
      if ((v[u / 64] >> (u % 64) & 1) == 0) {
        add({collective_violation_kind::missing_contribution, out.steps, 0, k, u, r, u});
        return;
      }
  };
  // Where nothing combines and every rank wants every chunk, one scan for a pair not held: the pairs one by one only
  // when there is one (for the witnesses, in their order).
  const bool everywhere = c.kind == collective_kind::allgather || c.kind == collective_kind::broadcast;
  const bool all_held = !combines && everywhere && std::find(held.begin(), held.end(), 0) == held.end();
  for (std::uint64_t k = 0; k < K && !all_held; ++k) {
    switch (c.kind) {
      case collective_kind::allgather:
      case collective_kind::broadcast:
      case collective_kind::allreduce:
        for (rank r = 0; r < n; ++r) check_at(k, r);
        break;
      case collective_kind::gather:
      case collective_kind::reduce:
        check_at(k, c.root);
        break;
      case collective_kind::alltoall:
      case collective_kind::alltoallv:
        check_at(k, static_cast<rank>(c.block(k) % n));
        break;
      case collective_kind::scatter:
      case collective_kind::reduce_scatter:
        check_at(k, static_cast<rank>(k / c.chunks));
        break;
    }
  }

  for (std::size_t l = 0; l < links; ++l)
    if (load[l].total > out.busiest_link_chunks) {
      out.busiest_link_chunks = load[l].total;
      out.busiest_from = sched.network.links()[l].from;
      out.busiest_to = sched.network.links()[l].to;
    }

  // The lower bounds. Steps: a chunk (a contribution) moves one hop a step, so the farthest pair of a rank holding it
  // at the start and a rank wanting it bounds every schedule: the eccentricity of each source (every rank wants what
  // it sends: allgather, alltoall, broadcast, scatter; every rank contributes to blocks wanted everywhere:
  // reduce-scatter, allreduce) or its distance to the root (gather, reduce). One breadth-first search per source,
  // left out (0) where that is more than 2^27 link visits.
  const bool to_root = c.kind == collective_kind::gather || c.kind == collective_kind::reduce;
  const bool from_root = c.kind == collective_kind::broadcast || c.kind == collective_kind::scatter;
  // On a vertex-transitive network with links both ways (the built-in complete graph, ring, torus and hypercube,
  // recognised by their links, not their name) every rank has the same eccentricity, the distance both ways: one
  // search from the root (or rank 0) gives the bound.
  // An alltoallv's pairs with nothing to send do not count: one search per source, the farthest wanted destination.
  const bool pairs_only = c.kind == collective_kind::alltoallv;
  const bool one_search = !pairs_only && (from_root || vertex_transitive_builtin(sched.network));
  const std::uint64_t searches = one_search ? 1 : n;
  if (n > 1 && searches * (n + sched.network.links().size()) <= (std::uint64_t{1} << 27)) {
    std::uint64_t farthest = 0;
    const rank first = from_root || to_root ? c.root : 0;
    for (rank u = one_search ? first : 0; u < (one_search ? first + 1 : n); ++u) {
      const std::vector<std::uint32_t> d = distances_from(sched.network, u);
      for (rank r = 0; r < n; ++r) {
        if (to_root && !one_search && r != c.root) continue;
        if (pairs_only && (r == u || c.block_chunks(u, r) == 0)) continue;
        if (d[r] == std::numeric_limits<std::uint32_t>::max())
          out.unreachable = true;
        else
          farthest = std::max<std::uint64_t>(farthest, d[r]);
      }
    }
    out.step_bound = farthest;
  }
  // Under one port, a rank takes in one peer's values a step, so the ranks whose values (or contributions) a rank can
  // hold after t steps are at most 2^t, as are the ranks a value can have reached: every collective here but alltoallv
  // joins all n ranks (a rank wants every rank's values, or one rank's values reach all) — steps >= ⌈log2 n⌉; an
  // alltoallv joins a rank with the ranks it sends to, and with those it receives from.
  if (sched.ports != port_model::all_port && n > 1) {
    std::uint64_t joined = n;
    if (pairs_only) {
      joined = 1;
      for (rank r = 0; r < n; ++r) {
        std::uint64_t to = 0, from = 0;
        for (rank u = 0; u < n; ++u)
          if (u != r) to += c.block_chunks(r, u) != 0, from += c.block_chunks(u, r) != 0;
        joined = std::max(joined, 1 + std::max(to, from));
      }
    }
    std::uint64_t doubling = 0;
    while ((std::uint64_t{1} << doubling) < joined) ++doubling;
    out.step_bound = std::max(out.step_bound, doubling);
  }
  // Rounds (non-combining): rank r must receive every chunk it wants and does not start with — (n − 1)·C for allgather
  // and alltoall, at the root for gather; C for every other rank in broadcast and scatter; the blocks others send it in
  // an alltoallv — at most in_capacity(r) a round (one port: its widest in-link).
  auto receives = [&](rank r) {
    std::uint64_t need = 0;
    if (c.kind == collective_kind::allgather || c.kind == collective_kind::alltoall ||
        (c.kind == collective_kind::gather && r == c.root))
      need = std::uint64_t{n - 1} * c.chunks;
    else if (pairs_only)
      for (rank u = 0; u < n; ++u) need += u == r ? 0 : c.block_chunks(u, r);
    else if ((c.kind == collective_kind::broadcast || c.kind == collective_kind::scatter) && r != c.root)
      need = c.chunks;
    return need;
  };
  if (!combines) {
    for (rank r = 0; r < n; ++r) {
      const std::uint64_t need = receives(r);
      if (need == 0) continue;
      const std::uint64_t per_round =
          sched.ports == port_model::all_port ? sched.network.in_capacity(r) : sched.network.largest_in_link(r);
      if (per_round == 0) {
        out.unreachable = true;
        continue;
      }
      if (const std::uint64_t bound = (need + per_round - 1) / per_round; bound > out.round_bound) {
        out.round_bound = bound;
        // the cut: every rank but r inside (n <= 32)
        out.round_bound_cut =
            n > 32 ? 0 : static_cast<std::uint32_t>(((std::uint64_t{1} << n) - 1) ^ (std::uint64_t{1} << r));
      }
    }
  }
  // Simplex (one link, one way, a step): rank r must also send at least once every chunk it starts with that another
  // rank wants — its own C for allgather and gather off the root, (n − 1)·C for alltoall, the root's C or (n − 1)·C
  // for broadcast and scatter, its blocks for alltoallv — and its one port carries at most its widest link a round,
  // either way: rounds >= (received + sent) / widest (the h-relation paper's half-duplex h). Not a cut (none named).
  if (!combines && sched.ports == port_model::one_port_simplex && n > 1) {
    std::vector<std::uint64_t> widest(n, 0);
    for (const link& l : sched.network.links()) {
      widest[l.from] = std::max<std::uint64_t>(widest[l.from], l.capacity);
      widest[l.to] = std::max<std::uint64_t>(widest[l.to], l.capacity);
    }
    for (rank r = 0; r < n; ++r) {
      std::uint64_t sends = 0;
      if (c.kind == collective_kind::allgather || (c.kind == collective_kind::gather && r != c.root))
        sends = c.chunks;
      else if (c.kind == collective_kind::alltoall || (c.kind == collective_kind::scatter && r == c.root))
        sends = std::uint64_t{n - 1} * c.chunks;
      else if (c.kind == collective_kind::broadcast && r == c.root)
        sends = c.chunks;
      else if (pairs_only)
        for (rank u = 0; u < n; ++u) sends += u == r ? 0 : c.block_chunks(r, u);
      const std::uint64_t need = receives(r) + sends;
      if (need == 0 || widest[r] == 0) continue;  // unreachable where it matters: found above
      if (const std::uint64_t bound = (need + widest[r] - 1) / widest[r]; bound > out.round_bound) {
        out.round_bound = bound;
        out.round_bound_cut = 0;
      }
    }
  }
  // Rounds by cuts (non-combining, n <= 16: every subset S of the ranks): the chunks that start in S and are wanted
  // outside it must cross from S to the rest, each at least once — |S|·C for allgather (and gather with the root
  // outside), |S|·|rest|·C for alltoall, the blocks from S to the rest for alltoallv, C for broadcast and |rest|·C for
  // scatter (the root in S) — and at most the
  // capacity of the links from S to the rest crosses a round (one port: each rank of S uses one of its links out of S,
  // each rank of the rest one of its links from S, so the smaller sum of the widest ones). The singletons give the
  // per-rank bound above; larger cuts bind where the network is thin between groups (DGX-1's two quads).
  if (!combines && n >= 2 && n <= 16) {
    const std::uint64_t C = c.chunks;
    const bool one_port = sched.ports != port_model::all_port;
    std::vector<std::uint64_t> widest_out(one_port ? n : 0), widest_in(one_port ? n : 0);  // per cut, one port only
    for (std::uint32_t set = 1; set + 1 < (std::uint32_t{1} << n); ++set) {
      const auto inside = static_cast<std::uint64_t>(std::popcount(set)), outside = n - inside;
      const bool root_in = (set >> c.root & 1) != 0;
      std::uint64_t need = 0;
      switch (c.kind) {
        case collective_kind::allgather:
          need = inside * C;
          break;
        case collective_kind::alltoall:
          need = inside * outside * C;
          break;
        case collective_kind::alltoallv:
          for (rank u = 0; u < n; ++u)
            if ((set >> u & 1) != 0)
              for (rank w = 0; w < n; ++w) need += (set >> w & 1) == 0 ? c.block_chunks(u, w) : 0;
          break;
        case collective_kind::gather:
          need = root_in ? 0 : inside * C;
          break;
        case collective_kind::broadcast:
          need = root_in ? C : 0;
          break;
        case collective_kind::scatter:
          need = root_in ? outside * C : 0;
          break;
        default:
          break;
      }
      if (need == 0) continue;
      std::uint64_t across = 0;
      if (one_port)
        std::fill(widest_out.begin(), widest_out.end(), 0), std::fill(widest_in.begin(), widest_in.end(), 0);
      for (const link& l : sched.network.links())
        if ((set >> l.from & 1) != 0 && (set >> l.to & 1) == 0) {
          across += l.capacity;
          if (one_port) {
            widest_out[l.from] = std::max<std::uint64_t>(widest_out[l.from], l.capacity);
            widest_in[l.to] = std::max<std::uint64_t>(widest_in[l.to], l.capacity);
          }
        }
      if (one_port) {
        std::uint64_t senders = 0, receivers = 0;
        for (rank r = 0; r < n; ++r) senders += widest_out[r], receivers += widest_in[r];
        across = std::min(senders, receivers);
      }
      if (across == 0) {
        out.unreachable = true;
        continue;
      }
      const std::uint64_t bound = (need + across - 1) / across;
      if (bound > out.round_bound) {
        out.round_bound = bound;
        out.round_bound_cut = set;
      }
    }
  }
  out.checked += ": " + std::to_string(out.steps) + " steps, " + std::to_string(out.rounds) + " rounds, " +
                 std::to_string(out.transfers) + " transfers";
  return out;
}

std::string describe(const collective_report& report) {
  std::string text = describe_report<collective_violation_kind>(report, report.count_by_kind);
  std::ostringstream s;
  s << "  lower bounds on this network: ";
  if (report.unreachable)
    s << "some chunk cannot reach a rank that wants it";
  else
    s << report.step_bound << " steps"
      << (report.round_bound != 0 ? ", " + std::to_string(report.round_bound) + " rounds" : "");
  if (report.round_bound_cut != 0 && !report.unreachable) {
    s << " (the chunks leaving {";
    bool first = true;
    for (rank r = 0; r < 32; ++r)
      if ((report.round_bound_cut >> r & 1) != 0) s << (first ? "" : ", ") << r, first = false;
    s << "} over its links out)";
  }
  if (report.busiest_link_chunks != 0)
    s << "; the busiest link " << report.busiest_from << " -> " << report.busiest_to << " carries "
      << report.busiest_link_chunks << " chunks";
  return text + s.str() + "\n";
}

}  // namespace dancecard::collective
