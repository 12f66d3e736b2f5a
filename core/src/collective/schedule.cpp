// Collectives as pre- and postconditions on (chunk, rank) — SCCL's definitions (Cai et al., PPoPP 2021, Section 3.1)
// with the combining collectives as contribution sets.
#include "dancecard/core/collective/schedule.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace dancecard::collective {

namespace {

constexpr std::array<std::string_view, collective_kind_count> kind_names = {
    "allgather", "alltoall", "broadcast", "gather", "scatter", "reduce", "reduce-scatter", "allreduce", "alltoallv"};

}  // namespace

std::string_view to_string(collective_kind kind) { return kind_names[static_cast<std::size_t>(kind)]; }

std::optional<collective_kind> parse_collective_kind(std::string_view text) {
  for (std::size_t k = 0; k < collective_kind_count; ++k)
    if (text == kind_names[k]) return static_cast<collective_kind>(k);
  return std::nullopt;
}

bool combining(collective_kind kind) {
  return kind == collective_kind::reduce || kind == collective_kind::reduce_scatter ||
         kind == collective_kind::allreduce;
}

std::uint64_t collective::chunk_count() const {
  const std::uint64_t n = ranks, c = chunks;
  switch (kind) {
    case collective_kind::alltoall:
      return n * n * c;
    case collective_kind::alltoallv:
      return offsets.empty() ? 0 : offsets.back();
    case collective_kind::broadcast:
    case collective_kind::reduce:
      return c;
    default:
      return n * c;
  }
}

rank collective::source(std::uint64_t chunk) const {
  switch (kind) {
    case collective_kind::allgather:
    case collective_kind::gather:
      return static_cast<rank>(chunk / chunks);
    case collective_kind::alltoall:
    case collective_kind::alltoallv:
      return static_cast<rank>(block(chunk) / ranks);
    case collective_kind::broadcast:
    case collective_kind::scatter:
      return root;
    default:
      return 0;  // combining: every rank contributes
  }
}

bool collective::wanted(std::uint64_t chunk, rank r) const {
  switch (kind) {
    case collective_kind::allgather:
    case collective_kind::broadcast:
    case collective_kind::allreduce:
      return true;
    case collective_kind::gather:
    case collective_kind::reduce:
      return r == root;
    case collective_kind::alltoall:
    case collective_kind::alltoallv:
      return static_cast<rank>(block(chunk) % ranks) == r;
    case collective_kind::scatter:
    case collective_kind::reduce_scatter:
      return static_cast<rank>(chunk / chunks) == r;
  }
  return false;
}

std::uint64_t collective::block(std::uint64_t chunk) const {
  if (kind == collective_kind::alltoall) return chunk / chunks;
  // The last block starting at or before the chunk that is not empty: the first offset above it, less one.
  return static_cast<std::uint64_t>(std::upper_bound(offsets.begin(), offsets.end(), chunk) - offsets.begin()) - 1;
}

std::string collective::describe() const {
  std::string what(to_string(kind));
  if (kind == collective_kind::alltoallv) {
    const std::uint64_t k = chunk_count();
    return what + " of " + std::to_string(ranks) + (ranks == 1 ? " rank, " : " ranks, ") + std::to_string(k) +
           (k == 1 ? " chunk in all" : " chunks in all");
  }
  if (kind == collective_kind::broadcast || kind == collective_kind::scatter)
    what += " from rank " + std::to_string(root);
  if (kind == collective_kind::gather || kind == collective_kind::reduce) what += " to rank " + std::to_string(root);
  return what + " of " + std::to_string(ranks) + (ranks == 1 ? " rank, " : " ranks, ") + std::to_string(chunks) +
         (chunks == 1 ? " chunk each" : " chunks each");
}

void require_valid(const collective& c) {
  if (c.ranks == 0) throw std::invalid_argument("collective: at least 1 rank");
  if (c.chunks == 0) throw std::invalid_argument("collective: at least 1 chunk per rank");
  if (c.root >= c.ranks)
    throw std::invalid_argument("collective: root " + std::to_string(c.root) + " is not one of the " +
                                std::to_string(c.ranks) + " ranks");
  const std::uint64_t n = c.ranks, per = c.chunks;
  const std::uint64_t limit = std::uint64_t{1} << 32;
  if (per > limit || n * per > limit || (c.kind == collective_kind::alltoall && n * n * per > limit))
    throw std::invalid_argument("collective: more than 2^32 chunks");
  if (c.kind != collective_kind::alltoallv) {
    if (!c.offsets.empty()) throw std::invalid_argument("collective: block offsets belong to an alltoallv only");
    return;
  }
  if (c.chunks != 1) throw std::invalid_argument("collective: an alltoallv has its counts, not chunks per rank");
  if (n > 4096) throw std::invalid_argument("collective: an alltoallv of at most 4096 ranks");
  if (c.offsets.size() != n * n + 1)
    throw std::invalid_argument("collective: an alltoallv of " + std::to_string(n) + " ranks needs " +
                                std::to_string(n * n + 1) + " block offsets, not " + std::to_string(c.offsets.size()));
  if (c.offsets.front() != 0) throw std::invalid_argument("collective: the first block offset is not 0");
  for (std::size_t b = 0; b + 1 < c.offsets.size(); ++b)
    if (c.offsets[b + 1] < c.offsets[b])
      throw std::invalid_argument("collective: block offset " + std::to_string(b + 1) + " decreases");
  if (c.offsets.back() > limit) throw std::invalid_argument("collective: more than 2^32 chunks");
}

collective alltoallv_collective(rank n, const std::vector<std::uint64_t>& counts) {
  const std::uint64_t pairs = std::uint64_t{n} * n;
  if (n == 0 || counts.size() != pairs)
    throw std::invalid_argument("alltoallv: " + std::to_string(pairs) + " counts for " + std::to_string(n) +
                                " ranks, not " + std::to_string(counts.size()));
  collective out{collective_kind::alltoallv, n, 1, 0};
  out.offsets.reserve(counts.size() + 1);
  out.offsets.push_back(0);
  for (const std::uint64_t c : counts) {
    if (c > (std::uint64_t{1} << 32) - out.offsets.back())
      throw std::invalid_argument("alltoallv: more than 2^32 chunks");
    out.offsets.push_back(out.offsets.back() + c);
  }
  require_valid(out);
  return out;
}

std::string_view to_string(transfer_op op) {
  switch (op) {
    case transfer_op::copy:
      return "copy";
    case transfer_op::reduce:
      return "reduce";
    case transfer_op::move:
      return "move";
  }
  return "?";
}

std::optional<transfer_op> parse_transfer_op(std::string_view text) {
  for (const transfer_op op : {transfer_op::copy, transfer_op::reduce, transfer_op::move})
    if (text == to_string(op)) return op;
  return std::nullopt;
}

std::uint64_t schedule::rounds() const {
  std::uint64_t sum = 0;
  for (const step& s : steps) sum += s.rounds;
  return sum;
}

std::uint64_t schedule::transfers() const {
  std::uint64_t sum = 0;
  for (const step& s : steps) sum += s.transfers.size();
  return sum;
}

}  // namespace dancecard::collective
