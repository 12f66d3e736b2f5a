// Cube and conquer on MPI (smt/cube_and_conquer.hpp): rank 0 makes the cubes and hands them out on demand; every rank
// (rank 0 too, on a thread beside its dispatch) solves them, checks its own DRAT proofs and reports the verdict with
// the proof's SHA-256 and size.
//
// Rank 0 keeps the plan: a rank that finishes a cube gets the next one, so uneven cubes balance; a cube that runs out
// of its budget comes back and is divided by the next group; a cube whose solver fails (an exception, memory) is given
// to another rank; once a cube is sat and its model passes the caller's check, the others are cancelled. The query is
// unsat only when every leaf cube's proof was accepted and the cover check passed. With a checkpoint file every
// refuted or divided cube is appended as it comes in (with its proof's hash), and a job started again with the same
// file and query solves only what is left. Without a fault-tolerant MPI, a rank that dies ends the job: the checkpoint
// is what lets the next run resume.
#pragma once

#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dancecard/smt/cube_and_conquer.hpp"

namespace dancecard::cubes {

struct mpi_cube_options {
  std::uint64_t cubes = 16;  // at least this many to begin with
  cube_budget budget;        // per cube; a cube that spends it is divided
  std::string checkpoint;    // a file to append results to and resume from ("": none)
  // Testing the fault paths (deterministic, not timed):
  std::optional<std::size_t> fail_cube;      // the solver of this cube fails the first time (given to another)
  std::optional<std::size_t> kill_on_cube;   // the worker handed this cube kills itself (SIGKILL): the job ends
  std::optional<std::uint64_t> abort_after;  // rank 0 aborts the job after recording this many results
};

struct mpi_cube_result {
  solver_answer answer = solver_answer::unknown;
  std::string reason;
  std::vector<int> model;                  // sat
  std::size_t cubes = 0;                   // in the plan (leaves and divided)
  std::uint64_t refuted = 0, divided = 0;  // leaves refuted; cubes divided (this run and those it resumed)
  std::uint64_t resumed = 0;               // refuted or divided cubes read from the checkpoint
  std::uint64_t reassigned = 0;            // cubes whose solver failed, handed out again
  double seconds = 0;                      // wall time of rank 0
  double cube_seconds = 0;                 // solving and checking, summed over the cubes solved in this run
  std::vector<double> worker_busy;         // per rank: seconds spent on cubes (rank 0 too when alone)
};

/// Collective over `comm`: every rank calls it with the same query and options; the result is rank 0's (the other
/// ranks get the answer and reason only). Throws std::invalid_argument (on rank 0: a checkpoint of another query).
mpi_cube_result mpi_prove_cubes(const cube_query& query, MPI_Comm comm, const mpi_cube_options& options);

}  // namespace dancecard::cubes
