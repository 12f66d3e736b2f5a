// What every MPI executor shares: the communicator's size and rank, and how a run's result is agreed on by all ranks
// (the slowest rank's times, the AND of the verifications).
#pragma once

#include <mpi.h>

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

}  // namespace dancecard::detail_mpi
