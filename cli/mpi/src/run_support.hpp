// What every MPI executor shares: the communicator's size and rank, how a run's result is agreed on by all ranks (the
// slowest rank's times, the AND of the verifications), and the words of a collective's chunks.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "dancecard/mpi/execute.hpp"

namespace dancecard::detail_mpi {

inline int size_of(MPI_Comm comm) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}

inline int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

inline void finish(mpi_run_result& r, MPI_Comm comm, std::vector<double>& local_rounds, double total) {
  r.round_seconds.assign(local_rounds.size(), 0);
  if (!local_rounds.empty())
    MPI_Allreduce(local_rounds.data(), r.round_seconds.data(), static_cast<int>(local_rounds.size()), MPI_DOUBLE,
                  MPI_MAX, comm);
  MPI_Allreduce(&total, &r.total_seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  int mine = r.verified ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
  r.all_verified = all == 1;
}

// A collective's chunk as words: rank r's contribution to chunk k, and what a rank that wants chunk k must hold at the
// end (the source's words, or the sum of every rank's modulo 2^64).
using chunk_value = std::vector<std::uint64_t>;

inline chunk_value contribution(std::uint64_t r, std::uint64_t k, std::uint64_t words) {
  chunk_value v(words);
  for (std::uint64_t i = 0; i < words; ++i) v[i] = collective_word(r, k, i);
  return v;
}

inline chunk_value expected(const collective::collective& c, std::uint64_t k, std::uint64_t words) {
  if (!collective::combining(c.kind)) return contribution(c.source(k), k, words);
  chunk_value sum(words, 0);
  for (std::uint64_t r = 0; r < c.ranks; ++r)
    for (std::uint64_t i = 0; i < words; ++i) sum[i] += collective_word(r, k, i);
  return sum;
}

}  // namespace dancecard::detail_mpi
