// The (C, S, R) frontier of a collective on a network, as SCCL draws it (Cai et al., PPoPP 2021, Section 5): for
// each number of steps S and chunks per rank C, the least rounds R of a k-synchronous schedule (prove_least_rounds:
// a witness the checker accepts, R − 1 refuted by a checked DRAT proof or a cut's checked cutting-planes certificate),
// and the points that no other point beats. Latency grows with the steps and rounds, bandwidth with the rounds per
// chunk R/C; a point is on the frontier when no other asked point has at most its S, at most its R and at most its
// R/C with one of them smaller, and a corner when it also has the least R/C among the points with at most its steps
// (SCCL's cost S·α + (R/C)·L·β ranks only the corners).
//
// The frontier is proven within the range asked — C = 1 … max_chunks, S = the least steps … that + max_extra_steps
// — when every (C, S) was settled; a point outside the range can still beat one inside (more chunks lower R/C).
//
//   auto f = dancecard::collective::prove_frontier(dancecard::collective::dgx1_topology(),
//                                                  {dancecard::collective::collective_kind::allgather, 8, 1, 0},
//                                                  {.max_chunks = 6, .max_extra_steps = 1});
//   for (std::size_t i : f.frontier) f.points[i];   // (1, 2, 2), (2, 2, 3), …, (6, 3, 7): SCCL's DGX-1 all-gather
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dancecard/smt/collective_synthesis.hpp"

namespace dancecard::collective {

struct frontier_options {
  std::uint32_t max_chunks = 4;        // C = 1 … this (1 … 64)
  std::uint32_t max_extra_steps = 1;   // S = the least … the least + this (0 … 16)
  std::uint32_t max_extra_rounds = 8;  // for each (C, S), R = S … max(S, the cut bound) + this
  /// Ports, max_steps (for the least S) and the budget of every query; rounds_per_step and total_rounds are set here.
  synthesis_options synthesis;
};

struct frontier_point {
  std::uint32_t chunks = 0;
  std::uint64_t steps = 0, rounds = 0;          // rounds: 0 where no witness was found
  proof_status status = proof_status::unknown;  // proven: `rounds` is the least for (chunks, steps)
  bool on_frontier = false, corner = false;
  std::uint64_t cut_bound = 0;  // the checker's lower bound on R for C chunks (0: not computed)
  std::optional<schedule> witness;
  std::string reason;
  std::string below;              // how R − 1 was refuted (the query's detail; empty where R = S needs no refutation)
  std::string below_certificate;  // dancecard.cp/1, where a cut refuted R − 1
  double seconds = 0;
};

struct frontier_result {
  proof_status status = proof_status::unknown;  // proven: every (C, S) in range settled, so the frontier is exact
  /// The least steps of any schedule with one chunk per rank, whatever its rounds (SCCL's lower bound on steps;
  /// more chunks cannot need fewer), proven: from here the range of steps counts.
  std::uint64_t least_steps = 0;
  std::vector<frontier_point> points;  // every (C, S) asked, by S, then C
  std::vector<std::size_t> frontier;   // indices into points, by S, then R
  std::string reason;
};

/// require (std::invalid_argument): the collective's chunks are ignored (1 … max_chunks are asked); a collective
/// prove_least_rounds takes; 1 <= max_chunks <= 64; max_extra_steps <= 16.
frontier_result prove_frontier(const topology& network, const collective& coll, const frontier_options& options = {});

}  // namespace dancecard::collective
