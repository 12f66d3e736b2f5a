// Time reversal of h-relation schedules. Run a schedule backwards — slot t of T becomes slot T − 1 − t, every transfer
// a → b of message m becomes b → a — and it delivers the transposed instance, every message turned round: what a PE
// holds of m before a reversed slot is what it held after the original one, so it sends only what it holds, and each
// PE is in as many transfers per slot as before (the standard inversion: a reduce is a broadcast run backwards). When
// an involution π of the PEs maps the transposed instance onto the instance itself, renaming the reversed schedule's
// PEs by π gives a schedule of the same instance; `prove hrel` looks first for witnesses that this leaves unchanged.
//
//   auto pi = dancecard::hrel::reversal_symmetry(instance);   // two directed triangles: each reflected, 0 ↔ 0, 1 ↔ 2
//   if (pi) auto back = dancecard::hrel::reversed_schedule(instance, schedule, *pi);  // the checker judges it
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dancecard/core/hrel/instance.hpp"

namespace dancecard::hrel {

/// An involution π of the PEs (π(π(x)) = x) such that for every message s → d of w packets, π(d) → π(s) is a message
/// of w packets; the first that a backtracking search over PEs 0, 1, … meets, or nullopt if there is none or the search
/// visits more than max_nodes partial maps.
std::optional<std::vector<rank>> reversal_symmetry(const hrel_instance& instance, std::uint64_t max_nodes = 1'000'000);

/// For each message m, the index of the message π(dst_m) → π(src_m). require: pi is a reversal symmetry of instance
/// (std::invalid_argument otherwise).
std::vector<std::size_t> reversed_messages(const hrel_instance& instance, const std::vector<rank>& pi);

/// `schedule` run backwards and renamed by π (slot order reversed, every transfer turned round, PEs and messages
/// mapped). require: pi is a reversal symmetry of instance. A schedule of the instance if `schedule` is one; the
/// checker, not this function, is the judge.
hrel_schedule reversed_schedule(const hrel_instance& instance, const hrel_schedule& schedule,
                                const std::vector<rank>& pi);

}  // namespace dancecard::hrel
