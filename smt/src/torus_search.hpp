// The upward search for the least number of steps shared by the Z3 and the clausal torus encodings.
#pragma once

#include <chrono>

#include "dancecard/smt/torus_encoding.hpp"

namespace dancecard::detail {

/// Asks query(T) for T = the counting bound, bound + 1, …: the first sat is the minimum (the step below was unsat, or
/// is the counting bound). In the pairing model a stream follows a directed cycle of the pairing, which passes a PU at
/// most d times: after d·P steps nothing new arrives, so unsat there means no pairing completes gossip at all
/// (refuted); the general model has no such horizon, and max_steps (0: d·P) ends the search as unknown.
template <class Query>
torus_minimum_result search_torus_minimum(const torus& network, bool pairing, std::uint64_t max_steps, Query query) {
  const auto start = std::chrono::steady_clock::now();
  torus_minimum_result out;
  const std::uint64_t P = network.size();
  if (P < 2) throw std::invalid_argument("torus minimum: needs at least 2 PUs");
  out.lower_bound = (P - 1 + network.ports() - 1) / network.ports();
  const std::uint64_t conclusive = network.dimension() * P;
  if (max_steps == 0 || (pairing && max_steps > conclusive)) max_steps = conclusive;
  out.below_minimum.answer = solver_answer::unsat;
  out.below_minimum.reason = "counting: a PU learns at most 2d packets per step";
  for (std::uint64_t T = std::max<std::uint64_t>(out.lower_bound, 1); T <= max_steps; ++T) {
    torus_query_result r = query(T);
    if (r.answer == solver_answer::unsat) {
      out.below_minimum = std::move(r);
      continue;
    }
    out.minimum_steps = T;
    out.at_minimum = std::move(r);
    if (out.at_minimum.answer == solver_answer::sat) {
      out.status = proof_status::proven;
      out.reason = out.at_minimum.reason + "; " +
                   (T == out.lower_bound ? "the counting bound" : std::to_string(T - 1) + " steps: " + out.below_minimum.reason);
    } else {
      out.reason = "unknown at " + std::to_string(T) + " steps: " + out.at_minimum.reason;
    }
    break;
  }
  if (out.minimum_steps == 0) {
    if (pairing && max_steps >= conclusive && out.below_minimum.answer == solver_answer::unsat) {
      out.status = proof_status::refuted;
      out.reason = "no pairing completes gossip: unsat at d·P = " + std::to_string(conclusive) + " steps (" + out.below_minimum.reason + ")";
    } else {
      out.reason = "no table completes within " + std::to_string(max_steps) + " steps (not conclusive)";
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::detail
