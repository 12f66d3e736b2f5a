// Cutting-planes certificates for h-relation lower bounds at piece granularity 1/k, which code sharing nothing with
// the solver checks (checkers/cutting_planes_check.hpp, instance `hrel`). They refute "every message is delivered
// within T slots of 1/k, half duplex" by one of three counting arguments, each a few lines of integer linear algebra
// over the checker's own axioms (busy: a PE moves at most one piece a slot; final: no PE ends with fewer than 0 pieces;
// deliver: the destination ends with all k·packets):
//   per PE     — PE p sends or receives all of its own pieces one a slot: T >= own(p) = k·(sent + received packets);
//                for a message out of p, the final holdings of all other PEs add up to "p sends k·packets more pieces
//                than it gets back", with forwarding too;
//   odd set    — without forwarding: in a slot, the moves inside a set S of PEs are at most ⌊|S|/2⌋ (sum S's busy
//                axioms, divide by 2), so T >= k·V(S)/⌊|S|/2⌋ (V(S): packets of the messages inside S);
//   Section 2.5 — with or without forwarding: per message, 2·deliver plus the final holdings of the PEs in between give
//                2·direct + indirect >= 2·k·packets (a piece that goes round takes two moves); a slot holds at most
//                ⌊P/2⌋ moves and at most ν direct ones (ν from a Tutte–Berge cover U plus the components of the
//                message graph without U: |U| + Σ⌊|C|/2⌋), so T·(⌊P/2⌋ + ν) >= 2·k·V.
// The checker's model allows every move (back to a source, out of a destination), so a refutation holds for every
// schedule with pieces of 1/k, not only for the solver's encoding of it.
//
//   auto cp = dancecard::hrel::hrel_lower_bound_certificate(two_triangles, 5, true, 11);  // 11 slots of 1/5: no
//   cp && dancecard::certificates::check_cutting_planes(*cp).outcome == verdict::holds
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "dancecard/core/hrel/instance.hpp"

namespace dancecard::hrel {

/// What the three arguments refute: each field is the least number of slots that argument leaves possible.
struct hrel_counting_bounds {
  std::size_t per_pe = 0;
  std::size_t odd_set = 0;  // without forwarding only (0 with forwarding, and for P > 16: not searched)
  std::size_t global = 0;   // Section 2.5
  std::size_t best() const;
};

/// require: granularity >= 1, the instance has messages.
hrel_counting_bounds hrel_certified_bounds(const hrel_instance& instance, unsigned granularity, bool forwarding);

/// The instance such a certificate refutes, as the checker names it (cutting_planes_report::instance):
/// "hrel pes=P k=K slots=T forwarding=0|1 messages=s>d*n,...".
std::string hrel_certificate_instance(const hrel_instance& instance, unsigned granularity, bool forwarding,
                                      std::size_t slots);

/// A certificate that `slots` slots of 1/k do not suffice, or nullopt when no argument reaches that far
/// (slots >= hrel_certified_bounds(...).best()). require: granularity >= 1, the instance has messages.
std::optional<std::string> hrel_lower_bound_certificate(const hrel_instance& instance, unsigned granularity,
                                                        bool forwarding, std::size_t slots);

}  // namespace dancecard::hrel
