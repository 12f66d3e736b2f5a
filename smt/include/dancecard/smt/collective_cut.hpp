// "Not in R rounds", by counting across a cut, as a cutting-planes certificate that checkers/cutting_planes_check
// accepts: the counting argument the collective checker's round bound rests on (chunks that start inside a set X of
// ranks and are wanted outside it must each cross from X to the rest, and at most the capacity of those links crosses
// per round), written out as a derivation from the model's own axioms (instance `collective` of dancecard.cp/1), so
// that CDCL's weakness at counting (SCCL's DGX-1 all-to-all) does not stand between a bound and its proof.
//
// The derivation, for each chunk c that must leave X and a rank w outside that wants it: by induction over the steps,
// every rank v outside X holds c after step t at most as often as c crossed a link out of X in steps before t
//   Y_t(c) − h(c, v, t) ≥ 0
// (t = 0: the axiom init, c starts inside; t → t + 1: arrive at v, plus send and the claim for each neighbour of v
// outside X, gives k·Y_t + (c over the cut in step t) − h(c, v, t + 1) ≥ 0 with k = 1 + those neighbours; the 0/1
// bounds raise every crossing of step t to k and add (k − 1)·(1 − h), and dividing by k rounds −(k − 1)/k up to 0).
// At the end want:c:w gives Y_S(c) ≥ 1; summed over the chunks, against the capacity axioms of the links out of X and
// the rounds axiom, 0 ≥ (chunks) − capacity·R, a contradiction when R is below the bound.
//
//   auto cut = dancecard::collective::refute_by_cut(dgx1_topology(), {collective_kind::alltoall, 8, 3, 0}, 7, 7);
//   cut->accepted   // the quads' cut: 48 chunks over 6 per round need 8 rounds
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dancecard/core/collective/schedule.hpp"

namespace dancecard::collective {

struct cut_refutation {
  std::vector<rank> inside;    // the set X
  std::uint64_t chunks = 0;    // that must leave it
  std::uint64_t capacity = 0;  // chunks per round over the links out of it
  std::string certificate;     // dancecard.cp/1
  bool accepted = false;       // by checkers/cutting_planes_check
  std::uint64_t checked_steps = 0;
  std::string detail;  // one sentence: the cut, the count, the check
};

/// A refutation of "all-port, `steps` steps, at most `rounds` rounds" by the cut the collective checker names (up to
/// 32 ranks) or by one rank's in-links, when one of them needs more rounds; nullopt when none does, for a combining
/// collective, or for a network that is not a built-in one by its name (the certificate names it). The certificate is
/// checked before it is returned (`accepted`).
std::optional<cut_refutation> refute_by_cut(const topology& network, const collective& coll, std::uint64_t steps,
                                            std::uint64_t rounds);

}  // namespace dancecard::collective
