// Running dancecard's schedules as real MPI point-to-point communication, with byte-for-byte verification.
//
//   all-gather by a dance schedule — the dance paper's Section 6 loop: in each round a rank exchanges its own block
//       with its partner, the lower rank sending first (MPI_Ssend, then MPI_Recv), the higher one receiving first;
//   h-relation schedules — every slot's transfers as point-to-point messages (nonblocking, completed before the next
//       slot, so forwarded data always arrived in an earlier slot), pieces tracked as byte ranges of their message.
// Every block and message carries its origin and content generated from (origin, offset); at the end each rank
// checks what it holds byte for byte. The caller checks the schedule with checkers/ before calling (the executors
// assume a valid schedule; dancecard-mpi refuses an invalid one before anything is sent).
//
//   collective schedules — each step's transfers as nonblocking messages, reductions as word-wise sums, against the
//       MPI collective of the same data;
//   MSCCL-IR programs — interpreted thread block by thread block, against the MPI collective of the same data.
//
//   auto r = dancecard::mpi_run_allgather(schedule, MPI_COMM_WORLD, 1 << 20);   // r.verified on every rank
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/core/collective/schedule.hpp"
#include "dancecard/core/dance/schedule.hpp"
#include "dancecard/core/hrel/instance.hpp"
#include "dancecard/core/torus/torus.hpp"

namespace dancecard {

struct mpi_run_result {
  bool verified = false;              // this rank holds exactly what it should (all ranks: see all_verified)
  bool all_verified = false;          // the logical AND over the communicator
  std::string problem;                // this rank's first mismatch, if any
  std::vector<double> round_seconds;  // per round / slot: the slowest rank's time (same on every rank)
  double total_seconds = 0;           // the slowest rank, from the first round to the last
};

/// require: schedule.people() == the communicator's size; the schedule passed check_dance_schedule.
/// `corrupt_rank`: that rank flips one byte of its own block after computing the checksum (a fault to show that the
/// verification catches it); -1: none.
mpi_run_result mpi_run_allgather(const dance::dance_schedule& schedule, MPI_Comm comm, std::uint64_t block_bytes,
                                 int corrupt_rank = -1);

/// MPI_Allgather of the same blocks, verified the same way (the baseline of `dancecard-mpi bench`).
mpi_run_result mpi_run_builtin_allgather(MPI_Comm comm, std::uint64_t block_bytes);

/// require: instance.pes() == the communicator's size; the schedule passed check_hrel_schedule; every transfer's
/// amount times packet_bytes is a whole number of bytes.
mpi_run_result mpi_run_hrel(const hrel::hrel_instance& instance, const hrel::hrel_schedule& schedule, MPI_Comm comm,
                            std::uint64_t packet_bytes);

/// MPI_Alltoallv of the same messages (each sent directly), verified the same way.
mpi_run_result mpi_run_builtin_alltoallv(const hrel::hrel_instance& instance, MPI_Comm comm,
                                         std::uint64_t packet_bytes);

/// Torus gossip by a time-independent routing table on a Cartesian communicator (MPI_Cart_create with the table's
/// dims, periodic): in step 1 each rank sends its injected packets, then every step each out-port sends what arrived
/// on the in-port it forwards in the previous step — one neighbour exchange per link per step — until every rank
/// holds all P·packets packets (at most `max_steps`). Each packet is packet_bytes of pattern(origin packet, ·).
/// require: the communicator's size is the torus's PU count.
mpi_run_result mpi_run_torus(const torus::routing_table& table, MPI_Comm comm, std::uint64_t packet_bytes,
                             std::uint64_t max_steps);

/// A collective schedule, step by step: each transfer a nonblocking send of the value held when the step began and a
/// nonblocking receive, all completed before the receives are applied in the step's order (copy, or word-wise sum
/// modulo 2^64 for a reduction); chunks of chunk_bytes (a multiple of 8), rank r's contribution to chunk k being the
/// words collective_word(r, k, ·). At the end every rank compares what it holds with the collective's postcondition.
/// require: the schedule's ranks are the communicator's size; the schedule passed check_collective_schedule.
/// `corrupt_rank`: that rank flips bits of the first chunk it sends (to show the verification catches it); -1: none.
mpi_run_result mpi_run_collective(const collective::schedule& schedule, MPI_Comm comm, std::uint64_t chunk_bytes,
                                  int corrupt_rank = -1);

/// An MSCCL-IR program interpreted: MPI rank r runs GPU r's thread blocks as the MSCCL runtime does (each block's
/// steps in order, depid/deps waited for as the runtime waits, trailing nops dropped, a receive waiting for its
/// message; the channel is the MPI tag), chunks of chunk_bytes (a multiple of 8) with the input holding the
/// collective's contributions (collective_word), reductions as word-wise sums modulo 2^64; at the end every output
/// chunk is compared with the collective's (allgather, alltoall, allreduce, reducescatter as msccl-tools defines
/// them, in place or not). require: ngpus is the
/// communicator's size; the program passed check_msccl_program (the interpreter assumes it cannot deadlock).
/// `corrupt_rank`: that rank flips bits of the first chunk it sends; -1: none.
mpi_run_result mpi_run_msccl(const collective::msccl_program& program, MPI_Comm comm, std::uint64_t chunk_bytes,
                             int corrupt_rank = -1);
/// The MPI collective computing the same (MPI_Allgather, MPI_Alltoall, MPI_Bcast, MPI_Gather, MPI_Scatter,
/// MPI_Reduce, MPI_Reduce_scatter_block, MPI_Allreduce with MPI_SUM on MPI_UINT64_T) on the same data, verified the
/// same way.
mpi_run_result mpi_run_builtin_collective(const collective::collective& c, MPI_Comm comm, std::uint64_t chunk_bytes);

/// Word i of rank r's contribution to chunk k (a deterministic pattern).
inline std::uint64_t collective_word(std::uint64_t r, std::uint64_t k, std::uint64_t i) {
  std::uint64_t x = (r + 1) * 0x9E3779B97F4A7C15ull ^ (k + 1) * 0xBF58476D1CE4E5B9ull ^ (i + 1) * 0x94D049BB133111EBull;
  x ^= x >> 29;
  return x * 0xBF58476D1CE4E5B9ull;
}

/// The byte at `offset` of the data that originates as block / message `origin` (a deterministic pattern).
inline unsigned char pattern_byte(std::uint64_t origin, std::uint64_t offset) {
  std::uint64_t x = (origin + 1) * 0x9E3779B97F4A7C15ull ^ (offset * 0xBF58476D1CE4E5B9ull);
  x ^= x >> 31;
  return static_cast<unsigned char>(x);
}

}  // namespace dancecard
