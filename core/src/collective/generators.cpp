// The classic collective algorithms in the collective model: ring (Patarasuk and Yuan, "Bandwidth optimal
// all-reduce algorithms for clusters of workstations", JPDC 2009), recursive doubling and the binomial tree (Thakur,
// Rabenseifner and Gropp, "Optimization of collective communication operations in MPICH", IJHPCA 2005), pairwise
// exchange (MPICH's and Open MPI's all-to-all).
#include "dancecard/core/collective/generators.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <vector>

#include "generator_parts.hpp"

namespace dancecard::collective {

namespace {

// The chunks of rank-block b (b·C … b·C + C − 1) from `from` to `to`.
void send_block(step& s, const collective& c, std::uint64_t block, rank from, rank to, transfer_op op) {
  for (std::uint32_t i = 0; i < c.chunks; ++i) s.transfers.push_back({block * c.chunks + i, from, to, op});
}

}  // namespace

schedule ring_allgather(rank n, std::uint32_t chunks) {
  schedule out = generator_parts::start(ring_topology(n), port_model::one_port_full_duplex,
                                        {collective_kind::allgather, n, chunks, 0}, "ring");
  for (rank s = 0; s + 1 < n; ++s) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (rank r = 0; r < n; ++r) send_block(st, out.coll, (r + n - s) % n, r, (r + 1) % n, transfer_op::copy);
  }
  return out;
}

schedule recursive_doubling_allgather(rank n, std::uint32_t chunks) {
  if (n == 0) throw std::invalid_argument("recursive doubling: at least one rank");
  unsigned d = 0;
  while ((rank{2} << d) <= n) ++d;  // p = 2^d, the largest power of two <= n
  const rank p = rank{1} << d, extra = n - p;
  schedule out = generator_parts::start(extra == 0 ? hypercube_topology(d) : complete_topology(n),
                                        port_model::one_port_full_duplex, {collective_kind::allgather, n, chunks, 0},
                                        "recursive-doubling");
  // Not a power of two (MPICH's way): rank p + j folds its block into rank j first and gets everything back last.
  if (extra > 0) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (rank j = 0; j < extra; ++j) send_block(st, out.coll, p + j, p + j, j, transfer_op::copy);
  }
  for (unsigned s = 0; s < d; ++s) {
    const rank half = rank{1} << s;
    step& st = out.steps.emplace_back(step{0, {}});
    for (rank r = 0; r < p; ++r) {
      const rank partner = r ^ half;
      const rank first = r & ~(half - 1);  // r holds the blocks of its aligned group of 2^s ranks (and their folds)
      std::uint32_t blocks = 0;
      for (rank b = first; b < first + half; ++b) {
        send_block(st, out.coll, b, r, partner, transfer_op::copy);
        ++blocks;
        if (b < extra) send_block(st, out.coll, p + b, r, partner, transfer_op::copy), ++blocks;
      }
      st.rounds = std::max(st.rounds, blocks * chunks);
    }
  }
  if (extra > 0) {
    step& st = out.steps.emplace_back(step{(n - 1) * chunks, {}});
    for (rank j = 0; j < extra; ++j)
      for (rank b = 0; b < n; ++b)
        if (b != p + j) send_block(st, out.coll, b, j, p + j, transfer_op::copy);
  }
  return out;
}

schedule bruck_allgather(rank n, std::uint32_t chunks) {
  schedule out = generator_parts::start(complete_topology(n), port_model::one_port_full_duplex,
                                        {collective_kind::allgather, n, chunks, 0}, "bruck");
  for (std::uint64_t reach = 1; reach < n; reach *= 2) {
    const std::uint64_t m = std::min<std::uint64_t>(reach, n - reach);
    step& st = out.steps.emplace_back(step{static_cast<std::uint32_t>(m * chunks), {}});
    for (rank r = 0; r < n; ++r)
      for (std::uint64_t b = 0; b < m; ++b)
        send_block(st, out.coll, (r + b) % n, r, static_cast<rank>((r + n - reach) % n), transfer_op::copy);
  }
  return out;
}

schedule pairwise_alltoall(rank n, std::uint32_t chunks) {
  schedule out = generator_parts::start(complete_topology(n), port_model::one_port_full_duplex,
                                        {collective_kind::alltoall, n, chunks, 0}, "pairwise");
  for (rank s = 1; s < n; ++s) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (rank r = 0; r < n; ++r) {
      const rank to = (r + s) % n;
      send_block(st, out.coll, static_cast<std::uint64_t>(r) * n + to, r, to, transfer_op::copy);
    }
  }
  return out;
}

schedule binomial_broadcast(rank n, rank root, std::uint32_t chunks) {
  schedule out = generator_parts::start(complete_topology(n), port_model::one_port_full_duplex,
                                        {collective_kind::broadcast, n, chunks, root}, "binomial");
  for (std::uint64_t reach = 1; reach < n; reach *= 2) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (std::uint64_t rel = 0; rel < reach && rel + reach < n; ++rel)
      send_block(st, out.coll, 0, static_cast<rank>((root + rel) % n), static_cast<rank>((root + rel + reach) % n),
                 transfer_op::copy);
  }
  return out;
}

schedule binomial_reduce(rank n, rank root, std::uint32_t chunks) {
  schedule out = generator_parts::start(complete_topology(n), port_model::one_port_full_duplex,
                                        {collective_kind::reduce, n, chunks, root}, "binomial");
  for (std::uint64_t reach = 1; reach < n; reach *= 2) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (std::uint64_t rel = reach; rel < n; rel += 2 * reach)
      send_block(st, out.coll, 0, static_cast<rank>((root + rel) % n), static_cast<rank>((root + rel - reach) % n),
                 transfer_op::reduce);
  }
  return out;
}

schedule recursive_halving_reduce_scatter(rank n, std::uint32_t chunks) {
  if (!generator_parts::power_of_two(n))
    throw std::invalid_argument("recursive halving: " + std::to_string(n) + " ranks is not a power of two");
  unsigned d = 0;
  while ((rank{1} << d) < n) ++d;
  schedule out = generator_parts::start(hypercube_topology(d), port_model::one_port_full_duplex,
                                        {collective_kind::reduce_scatter, n, chunks, 0}, "recursive-halving");
  for (rank half = n / 2; half >= 1; half /= 2) {
    step& st = out.steps.emplace_back(step{half * chunks, {}});
    for (rank r = 0; r < n; ++r) {
      const rank partner = r ^ half;
      const rank first = partner & ~(half - 1);  // the partner keeps its aligned group of `half` blocks
      for (rank b = first; b < first + half; ++b) send_block(st, out.coll, b, r, partner, transfer_op::reduce);
    }
  }
  return out;
}

schedule rabenseifner_allreduce(rank n, std::uint32_t chunks) {
  schedule out = recursive_halving_reduce_scatter(n, chunks);
  const schedule gather = recursive_doubling_allgather(n, chunks);
  out.coll.kind = collective_kind::allreduce;
  out.algorithm = "rabenseifner";
  out.steps.insert(out.steps.end(), gather.steps.begin(), gather.steps.end());
  return out;
}

schedule ring_reduce_scatter(rank n, std::uint32_t chunks) {
  schedule out = generator_parts::start(ring_topology(n), port_model::one_port_full_duplex,
                                        {collective_kind::reduce_scatter, n, chunks, 0}, "ring");
  for (rank s = 0; s + 1 < n; ++s) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (rank r = 0; r < n; ++r) send_block(st, out.coll, (r + 2 * n - s - 1) % n, r, (r + 1) % n, transfer_op::reduce);
  }
  return out;
}

schedule ring_allreduce(rank n, std::uint32_t chunks) {
  schedule out = ring_reduce_scatter(n, chunks);
  out.coll.kind = collective_kind::allreduce;
  for (rank s = 0; s + 1 < n; ++s) {
    step& st = out.steps.emplace_back(step{chunks, {}});
    for (rank r = 0; r < n; ++r) send_block(st, out.coll, (r + n - s) % n, r, (r + 1) % n, transfer_op::copy);
  }
  return out;
}

namespace {

// A balanced in-order binary tree over 0 … n − 1: the middle of [lo, hi] is the parent of the middles of its halves.
void in_order_tree(rank lo, rank hi, rank parent, std::vector<rank>& up) {
  if (lo > hi) return;
  const rank mid = lo + (hi - lo) / 2;
  up[mid] = parent;
  if (mid > lo) in_order_tree(lo, mid - 1, mid, up);
  in_order_tree(mid + 1, hi, mid, up);
}

}  // namespace

schedule double_binary_tree_allreduce(rank n, std::uint32_t chunks) {
  schedule out = generator_parts::start(complete_topology(n), port_model::all_port,
                                        {collective_kind::allreduce, n, chunks, 0}, "double-binary-tree");
  constexpr rank none = UINT32_MAX;
  // Tree 0 in order; tree 1 its mirror (r ↔ n − 1 − r), so that a leaf of one is mostly inside the other (NCCL's
  // double binary tree, Sanders, Speck and Träff, "Two-tree algorithms for full bandwidth broadcast, reduction and
  // scan", Parallel Computing 2009). Tree t carries chunks [t·⌈K/2⌉, …).
  std::array<std::vector<rank>, 2> up{std::vector<rank>(n, none), std::vector<rank>(n, none)};
  in_order_tree(0, n - 1, none, up[0]);
  for (rank r = 0; r < n; ++r) up[1][n - 1 - r] = up[0][r] == none ? none : n - 1 - up[0][r];
  const std::uint64_t K = out.coll.chunk_count(), split = (K + 1) / 2;
  const std::array<std::pair<std::uint64_t, std::uint64_t>, 2> range{{{0, split}, {split, K}}};
  std::array<std::vector<std::uint32_t>, 2> height, depth;
  std::array<std::uint32_t, 2> root_height{};
  for (int t = 0; t < 2; ++t) {
    height[t].assign(n, 0);
    depth[t].assign(n, 0);
    for (rank r = 0; r < n; ++r) {  // depth by walking up; height as the longest walk that reaches a node
      std::uint32_t dist = 0;
      for (rank a = r; up[t][a] != none; a = up[t][a]) {
        ++dist;
        height[t][up[t][a]] = std::max(height[t][up[t][a]], dist);
      }
      depth[t][r] = dist;
    }
    for (rank r = 0; r < n; ++r)
      if (up[t][r] == none) root_height[t] = height[t][r];
  }
  const std::uint32_t steps = std::max(2 * root_height[0], 2 * root_height[1]);
  for (std::uint32_t s = 0; s < steps; ++s) {
    step& st = out.steps.emplace_back(step{1, {}});
    for (int t = 0; t < 2; ++t) {
      const auto [first, last] = range[t];
      for (rank r = 0; r < n; ++r) {
        const rank parent = up[t][r];
        if (parent != none && height[t][r] == s)  // reduce: a subtree's sum goes up once its children's arrived
          for (std::uint64_t k = first; k < last; ++k) st.transfers.push_back({k, r, parent, transfer_op::reduce});
        if (parent != none && root_height[t] + depth[t][r] - 1 == s)  // broadcast: the sum comes down
          for (std::uint64_t k = first; k < last; ++k) st.transfers.push_back({k, parent, r, transfer_op::copy});
      }
    }
    std::map<std::pair<rank, rank>, std::uint32_t> load;  // the rounds: the most chunks over one link in the step
    for (const transfer& tr : st.transfers) st.rounds = std::max(st.rounds, ++load[{tr.from, tr.to}]);
  }
  return out;
}

schedule classic_schedule(std::string_view algorithm, collective_kind kind, rank n, std::uint32_t chunks, rank root) {
  using maker = schedule (*)(rank, std::uint32_t, rank);
  struct entry {
    std::string_view name;
    collective_kind kind;
    maker make;
  };
  static const std::array<entry, 12> table{{
      {"ring", collective_kind::allgather, [](rank r, std::uint32_t k, rank) { return ring_allgather(r, k); }},
      {"bruck", collective_kind::allgather, [](rank r, std::uint32_t k, rank) { return bruck_allgather(r, k); }},
      {"recursive-doubling", collective_kind::allgather,
       [](rank r, std::uint32_t k, rank) { return recursive_doubling_allgather(r, k); }},
      {"rotated-doubling", collective_kind::allgather,
       [](rank r, std::uint32_t k, rank) { return rotated_doubling_allgather(r, k); }},
      {"pairwise", collective_kind::alltoall, [](rank r, std::uint32_t k, rank) { return pairwise_alltoall(r, k); }},
      {"binomial", collective_kind::broadcast,
       [](rank r, std::uint32_t k, rank at) { return binomial_broadcast(r, at, k); }},
      {"binomial", collective_kind::reduce, [](rank r, std::uint32_t k, rank at) { return binomial_reduce(r, at, k); }},
      {"ring", collective_kind::reduce_scatter,
       [](rank r, std::uint32_t k, rank) { return ring_reduce_scatter(r, k); }},
      {"recursive-halving", collective_kind::reduce_scatter,
       [](rank r, std::uint32_t k, rank) { return recursive_halving_reduce_scatter(r, k); }},
      {"ring", collective_kind::allreduce, [](rank r, std::uint32_t k, rank) { return ring_allreduce(r, k); }},
      {"rabenseifner", collective_kind::allreduce,
       [](rank r, std::uint32_t k, rank) { return rabenseifner_allreduce(r, k); }},
      {"double-binary-tree", collective_kind::allreduce,
       [](rank r, std::uint32_t k, rank) { return double_binary_tree_allreduce(r, k); }},
  }};
  std::string known;
  for (const entry& e : table) {
    if (e.name == algorithm && e.kind == kind) {
      if (root >= n && n > 0)
        throw std::invalid_argument("root " + std::to_string(root) + " is not one of the " + std::to_string(n) +
                                    " ranks");
      return e.make(n, chunks, root);
    }
    known += (known.empty() ? "" : ", ") + std::string(e.name) + " " + std::string(to_string(e.kind));
  }
  throw std::invalid_argument(std::string(algorithm) + " " + std::string(to_string(kind)) +
                              ": no such algorithm (there are: " + known + ")");
}

}  // namespace dancecard::collective
