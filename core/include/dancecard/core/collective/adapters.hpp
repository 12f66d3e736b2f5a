// The papers' models as instances of the collective model: a dance schedule (the dance-party paper) is a half-duplex
// all-to-all on the complete network, a full-duplex all-to-all schedule (MPI's pairwise exchange) the same with one
// port each way. With collective_check_options::exact (a transfer that brings a receiver what it holds already is a
// violation: the papers' "every pair meets exactly once"), the collective checker gives the verdict of the model's
// own checker (properties/collective_properties_test.cpp holds the two to each other, on generated and damaged
// schedules).
//
//   auto r = collective::check_collective_schedule(collective::from_dance(generate(dance_algorithm::factorization, 8)),
//                                                  {.exact = true});
#pragma once

#include "dancecard/core/collective/schedule.hpp"
#include "dancecard/core/dance/directed.hpp"
#include "dancecard/core/dance/schedule.hpp"

namespace dancecard::collective {

/// complete:n, one-port half duplex, all-to-all with one chunk per pair; round t is step t, a dance (a, b) moves
/// a's chunk for b to b and b's chunk for a to a. require: 1 <= n <= 4096.
schedule from_dance(const dance_schedule& dances);
/// complete:n, one-port full duplex, all-to-all; round t is step t, a transfer i -> j moves i's chunk for j.
schedule from_directed(const directed_schedule& transfers);

}  // namespace dancecard::collective
