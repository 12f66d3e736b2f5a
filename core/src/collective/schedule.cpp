// Collectives as pre- and postconditions on (chunk, rank) — SCCL's definitions (Cai et al., PPoPP 2021, Section 3.1)
// with the combining collectives as contribution sets.
#include "dancecard/core/collective/schedule.hpp"

#include <array>
#include <stdexcept>

namespace dancecard::collective {

namespace {

constexpr std::array<std::string_view, collective_kind_count> kind_names = {
    "allgather", "alltoall", "broadcast", "gather", "scatter", "reduce", "reduce-scatter", "allreduce"};

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
      return static_cast<rank>(chunk / chunks / ranks);
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
      return static_cast<rank>((chunk / chunks) % ranks) == r;
    case collective_kind::scatter:
    case collective_kind::reduce_scatter:
      return static_cast<rank>(chunk / chunks) == r;
  }
  return false;
}

std::string collective::describe() const {
  std::string what(to_string(kind));
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
}

std::string_view to_string(transfer_op op) { return op == transfer_op::copy ? "copy" : "reduce"; }

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
