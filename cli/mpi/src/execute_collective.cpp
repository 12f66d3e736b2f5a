// The MPI executor for collective schedules (dancecard::collective), reductions included, verified word for word
// against the expected result and run beside the MPI collective that computes the same thing.
//
// A chunk is `words` 64-bit words; rank r's contribution to chunk k is collective_word(r, k, i). Copies move a chunk,
// reductions add it word by word modulo 2^64 (exact, and the same in every order, as MPI_SUM on MPI_UINT64_T is). A
// step posts every transfer as a nonblocking send of the value held when the step began and a nonblocking receive into
// a buffer of its own, waits for all, then applies the receives in the step's order — the model's semantics.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "dancecard/mpi/execute.hpp"
#include "run_support.hpp"

namespace dancecard {

namespace {

using detail_mpi::finish;
using detail_mpi::rank_of;
using detail_mpi::size_of;

using collective::collective_kind;
using detail_mpi::chunk_value;
using detail_mpi::contribution;
using detail_mpi::expected;

// Compares what this rank holds with the collective's postcondition; "" when every wanted chunk is exact.
std::string verify(const collective::collective& c, rank me, std::uint64_t words,
                   const std::function<const chunk_value*(std::uint64_t)>& held) {
  for (std::uint64_t k = 0; k < c.chunk_count(); ++k) {
    if (!c.wanted(k, me)) continue;
    const chunk_value* v = held(k);
    if (v == nullptr) return "rank " + std::to_string(me) + " lacks chunk " + std::to_string(k);
    const chunk_value want = expected(c, k, words);
    for (std::uint64_t i = 0; i < words; ++i)
      if ((*v)[i] != want[i])
        return "rank " + std::to_string(me) + " chunk " + std::to_string(k) + ": word " + std::to_string(i) +
               " differs";
  }
  return "";
}

}  // namespace

mpi_run_result mpi_run_collective(const collective::schedule& s, MPI_Comm comm, std::uint64_t chunk_bytes,
                                  int corrupt_rank) {
  const collective::collective& c = s.coll;
  const int n = size_of(comm), me_int = rank_of(comm);
  const auto me = static_cast<rank>(me_int);
  if (static_cast<int>(c.ranks) != n)
    throw std::invalid_argument("mpi_run_collective: the schedule's ranks differ from the communicator's");
  if (chunk_bytes == 0 || chunk_bytes % 8 != 0)
    throw std::invalid_argument("mpi_run_collective: chunk bytes must be a positive multiple of 8");
  const std::uint64_t words = chunk_bytes / 8;
  std::map<std::uint64_t, chunk_value> held;
  for (std::uint64_t k = 0; k < c.chunk_count(); ++k)
    if (collective::combining(c.kind) || c.source(k) == me) held[k] = contribution(me, k, words);
  mpi_run_result out;
  std::vector<double> rounds;
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  bool corrupted = false;
  for (std::size_t t = 0; t < s.steps.size(); ++t) {
    const double step_start = MPI_Wtime();
    const auto& transfers = s.steps[t].transfers;
    std::vector<MPI_Request> requests;
    std::vector<std::pair<std::size_t, chunk_value>> incoming;  // (transfer, buffer)
    std::vector<chunk_value> outgoing;
    std::vector<std::uint64_t> moved;  // chunks this rank moves away in the step
    incoming.reserve(transfers.size());
    outgoing.reserve(transfers.size());
    const int tag = static_cast<int>(t % 32768);  // pairs match in posting order within a step (MPI non-overtaking)
    for (std::size_t x = 0; x < transfers.size(); ++x) {
      const collective::transfer& tr = transfers[x];
      if (tr.to == me) {
        incoming.emplace_back(x, chunk_value(words));
        requests.emplace_back();
        MPI_Irecv(incoming.back().second.data(), static_cast<int>(words), MPI_UINT64_T, static_cast<int>(tr.from), tag,
                  comm, &requests.back());
      }
      if (tr.from == me) {
        auto it = held.find(tr.chunk);
        outgoing.push_back(it == held.end() ? chunk_value(words, 0) : it->second);  // the value the step began with
        if (me_int == corrupt_rank && !corrupted) {
          outgoing.back()[0] ^= 0x5a;
          corrupted = true;
        }
        requests.emplace_back();
        MPI_Isend(outgoing.back().data(), static_cast<int>(words), MPI_UINT64_T, static_cast<int>(tr.to), tag, comm,
                  &requests.back());
        if (tr.op == collective::transfer_op::move) moved.push_back(tr.chunk);
      }
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    for (const std::uint64_t chunk : moved) held.erase(chunk);  // given up before the step's writes land
    for (auto& [x, value] : incoming) {
      const collective::transfer& tr = transfers[x];
      if (tr.op != collective::transfer_op::reduce) {
        held[tr.chunk] = std::move(value);
      } else {
        chunk_value& into = held[tr.chunk];
        into.resize(words, 0);
        for (std::uint64_t i = 0; i < words; ++i) into[i] += value[i];
      }
    }
    rounds.push_back(MPI_Wtime() - step_start);
  }
  const double total = MPI_Wtime() - start;
  out.problem = verify(c, me, words, [&](std::uint64_t k) -> const chunk_value* {
    auto it = held.find(k);
    return it == held.end() ? nullptr : &it->second;
  });
  out.verified = out.problem.empty();
  finish(out, comm, rounds, total);
  return out;
}

mpi_run_result mpi_run_builtin_collective(const collective::collective& c, MPI_Comm comm, std::uint64_t chunk_bytes) {
  const int n = size_of(comm), me_int = rank_of(comm);
  const auto me = static_cast<rank>(me_int);
  const std::uint64_t words = chunk_bytes / 8, C = c.chunks;
  const auto count = static_cast<int>(C * words);  // one rank's share, in words
  const int root = static_cast<int>(c.root);
  // Buffers laid out by chunk number: chunk k at words k·w …
  auto chunks = [&](std::uint64_t first, std::uint64_t number, std::uint64_t contributor) {
    chunk_value b;
    b.reserve(number * words);
    for (std::uint64_t k = first; k < first + number; ++k) {
      const chunk_value v = contribution(contributor, k, words);
      b.insert(b.end(), v.begin(), v.end());
    }
    return b;
  };
  const std::uint64_t K = c.chunk_count();
  chunk_value send, recv;
  std::uint64_t first_result = 0;  // the chunk number of recv's first chunk
  // alltoallv: words to and from each rank, and where each block starts in send and recv (MPI counts are ints).
  std::vector<int> send_counts, send_at, receive_counts, receive_at;
  if (c.kind == collective_kind::alltoallv) {
    std::uint64_t sent = 0, received = 0;
    for (rank u = 0; u < c.ranks; ++u) {
      const std::uint64_t out = c.block_chunks(me, u) * words, in = c.block_chunks(u, me) * words;
      constexpr std::uint64_t most = std::numeric_limits<int>::max();
      if (sent + out > most || received + in > most)
        throw std::invalid_argument("mpi_run_builtin_collective: an alltoallv block past 2^31 words");
      send_counts.push_back(static_cast<int>(out)), send_at.push_back(static_cast<int>(sent));
      receive_counts.push_back(static_cast<int>(in)), receive_at.push_back(static_cast<int>(received));
      sent += out, received += in;
    }
  }
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  switch (c.kind) {
    case collective_kind::allgather:
      send = chunks(me * C, C, me);
      recv.assign(K * words, 0);
      MPI_Allgather(send.data(), count, MPI_UINT64_T, recv.data(), count, MPI_UINT64_T, comm);
      break;
    case collective_kind::gather:
      send = chunks(me * C, C, me);
      recv.assign(me_int == root ? K * words : 0, 0);
      MPI_Gather(send.data(), count, MPI_UINT64_T, recv.data(), count, MPI_UINT64_T, root, comm);
      break;
    case collective_kind::alltoall:  // block d of rank s: chunks (s·n + d)·C …; received block s at d likewise
      send = chunks(me * n * C, n * C, me);
      recv.assign(n * C * words, 0);
      MPI_Alltoall(send.data(), count, MPI_UINT64_T, recv.data(), count, MPI_UINT64_T, comm);
      break;
    case collective_kind::broadcast:
      recv = me_int == root ? chunks(0, C, me) : chunk_value(C * words, 0);
      MPI_Bcast(recv.data(), count, MPI_UINT64_T, root, comm);
      break;
    case collective_kind::scatter:
      send = me_int == root ? chunks(0, K, me) : chunk_value();
      recv.assign(C * words, 0);
      MPI_Scatter(send.data(), count, MPI_UINT64_T, recv.data(), count, MPI_UINT64_T, root, comm);
      first_result = me * C;
      break;
    case collective_kind::reduce:
      send = chunks(0, C, me);
      recv.assign(C * words, 0);
      MPI_Reduce(send.data(), recv.data(), count, MPI_UINT64_T, MPI_SUM, root, comm);
      break;
    case collective_kind::reduce_scatter:
      send = chunks(0, K, me);
      recv.assign(C * words, 0);
      MPI_Reduce_scatter_block(send.data(), recv.data(), count, MPI_UINT64_T, MPI_SUM, comm);
      first_result = me * C;
      break;
    case collective_kind::allreduce:
      send = chunks(0, K, me);
      recv.assign(K * words, 0);
      MPI_Allreduce(send.data(), recv.data(), static_cast<int>(K * words), MPI_UINT64_T, MPI_SUM, comm);
      break;
    case collective_kind::alltoallv: {  // rank me's blocks are chunks offsets[me·n] … offsets[me·n + n] − 1
      const std::uint64_t first = c.offsets[std::size_t{me} * c.ranks];
      send = chunks(first, c.offsets[std::size_t{me} * c.ranks + c.ranks] - first, me);
      recv.assign(static_cast<std::size_t>(receive_at.back()) + static_cast<std::size_t>(receive_counts.back()), 0);
      MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_UINT64_T, recv.data(), receive_counts.data(),
                    receive_at.data(), MPI_UINT64_T, comm);
      break;
    }
  }
  const double total = MPI_Wtime() - start;
  std::vector<chunk_value> results;
  mpi_run_result out;
  out.problem = verify(c, me, words, [&](std::uint64_t k) -> const chunk_value* {
    std::uint64_t at = k - first_result;
    if (c.kind == collective_kind::alltoall) at = (k / C / c.ranks) * C + k % C;  // block of the source
    if (c.kind == collective_kind::alltoallv) {  // the source's block, where MPI_Alltoallv put it
      const std::uint64_t b = c.block(k);
      at = static_cast<std::uint64_t>(receive_at[b / c.ranks]) / words + (k - c.offsets[b]);
    }
    if (k < first_result || (at + 1) * words > recv.size()) return nullptr;
    results.emplace_back(recv.begin() + static_cast<std::ptrdiff_t>(at * words),
                         recv.begin() + static_cast<std::ptrdiff_t>((at + 1) * words));
    return &results.back();
  });
  out.verified = out.problem.empty();
  std::vector<double> none;
  finish(out, comm, none, total);
  return out;
}

}  // namespace dancecard
