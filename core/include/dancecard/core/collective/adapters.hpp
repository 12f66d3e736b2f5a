// The papers' models as instances of the collective model: a dance schedule (the dance-party paper) is a half-duplex
// all-to-all on the complete network, a full-duplex all-to-all schedule (MPI's pairwise exchange) the same with one
// port each way, an h-relation slot schedule an all-to-allv of moves. With collective_check_options::exact (a
// transfer that brings a receiver what it holds already is a violation: the papers' "every pair meets exactly
// once"), the collective checker gives the verdict of the dance and directed checkers; the h-relation adapter needs
// no option (from_hrel says where the two models part). properties/collective_properties_test.cpp holds each pair
// of checkers to each other, on generated and damaged schedules.
//
//   auto r = collective::check_collective_schedule(collective::from_dance(generate(dance_algorithm::factorization, 8)),
//                                                  {.exact = true});
#pragma once

#include "dancecard/core/collective/schedule.hpp"
#include "dancecard/core/dance/directed.hpp"
#include "dancecard/core/dance/schedule.hpp"
#include "dancecard/core/hrel/instance.hpp"
#include "dancecard/core/torus/torus.hpp"

namespace dancecard::collective {

/// complete:n, one-port half duplex, all-to-all with one chunk per pair; round t is step t, a dance (a, b) moves
/// a's chunk for b to b and b's chunk for a to a. require: 1 <= n <= 4096.
schedule from_dance(const dance::dance_schedule& dances);
/// complete:n, one-port full duplex, all-to-all; round t is step t, a transfer i -> j moves i's chunk for j.
schedule from_directed(const dance::directed_schedule& transfers);
/// A time-independent torus routing table run for `steps` steps, as the all-gather it performs: torus:dims, all-port,
/// the table's k packets per PU as chunks (PU p's packet q is chunk p·k + q). Step 1 moves over every out-port the
/// packet it injects; step t > 1 what arrived on the in-port it forwards in step t − 1 (nothing where that in-port
/// carried nothing). With one packet per link and step this is the torus paper's model, so the schedule holds exactly
/// when the table completes gossip within `steps` (properties/collective_properties_test.cpp holds it to
/// checkers/torus_check's simulator). require: no switches, every entry a port or no_port / a packet or no_packet
/// (std::invalid_argument).
schedule from_torus_table(const torus::routing_table& table, std::uint64_t steps);
/// An h-relation slot schedule as the all-to-allv it performs on complete:P: with g the least common denominator of
/// the slots' durations and the transfers' amounts, message m of p packets is block (src, dst) of p·g chunks; slot s
/// is step s of duration·g rounds (a link carries 1 chunk a round, a PE 1 packet a time unit); a transfer of a/b
/// packets is a·g/b moves, which hand on the oldest pieces the sender holds when the slot begins (forwarding moves:
/// the sender gives them up), and where it holds fewer, name a piece it lacks or has already moved in the slot.
/// `ports`: one_port_simplex for the paper's half duplex (a PE sends or receives), one_port_full_duplex for full.
/// With these the collective checker gives the h-relation checker's verdict, except that two transfers over one link
/// in one slot are one port's use and share the link's rounds in the collective model, where the h-relation checker
/// counts the port twice (properties/collective_properties_test.cpp holds the two to each other). require: every
/// duration and amount positive, every transfer naming PEs and a message of the instance, P <= 4096, at most 2^32
/// pieces (g at most 2^32, slots at most 2^30 rounds) (std::invalid_argument).
schedule from_hrel(const hrel::hrel_instance& instance, const hrel::hrel_schedule& slots, port_model ports);

}  // namespace dancecard::collective
