// The DRAT checker's index of the clauses present while a proof is read (internal to checkers/src/drat_check.cpp):
// found by content, for deletions. Open addressing with linear probing and deletion by backward shift (Knuth, TAOCP
// vol. 3, 6.4, Algorithm R), so no tombstones build up over a proof of millions of deletions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace dancecard::certificates::drat_detail {

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The clauses present while the proof is read, by content: slot = (hash's high 32 bits) << 32 | (clause id + 1),
// 0 empty; linear probing, deletion by backward shift (no tombstones), load at most one half. Clauses of equal content
// share one slot: it holds the latest, and below_[id] the one added before it, so a proof that adds one clause k
// times costs k steps, not k² (each copy would otherwise probe past all the others). A deletion removes the latest
// copy; the multiset of present clauses is the same whichever copy goes.
class clause_table {
 public:
  static constexpr std::uint32_t none = 0xffffffffu;

  template <class Same>
  void insert(std::uint64_t hash, std::uint32_t id, Same same) {
    if (below_.size() <= id) below_.resize(static_cast<std::size_t>(id) + 1, none);
    below_[id] = none;
    if (const std::optional<std::uint64_t> at = find(hash, same)) {
      below_[id] = id_at(*at);
      slots_[*at] = (slots_[*at] & ~0xffffffffull) | (static_cast<std::uint64_t>(id) + 1);
      return;
    }
    if (2 * (count_ + 1) > slots_.size()) grow();
    place((hash & ~0xffffffffull) | (static_cast<std::uint64_t>(id) + 1));
    ++count_;
  }
  // The latest present clause with this hash for which `same(id)` holds is removed and returned.
  template <class Same>
  std::optional<std::uint32_t> erase(std::uint64_t hash, Same same) {
    const std::optional<std::uint64_t> at = find(hash, same);
    if (!at) return std::nullopt;
    const std::uint32_t id = id_at(*at);
    if (below_[id] != none) {
      slots_[*at] = (slots_[*at] & ~0xffffffffull) | (static_cast<std::uint64_t>(below_[id]) + 1);
    } else {
      remove_at(*at);
      --count_;
    }
    return id;
  }

 private:
  static std::uint32_t id_at_slot(std::uint64_t slot) { return static_cast<std::uint32_t>((slot & 0xffffffffull) - 1); }
  std::uint32_t id_at(std::uint64_t i) const { return id_at_slot(slots_[i]); }
  // The slot of the present clause with this hash whose content `same` accepts, if any.
  template <class Same>
  std::optional<std::uint64_t> find(std::uint64_t hash, Same same) const {
    if (slots_.empty()) return std::nullopt;
    const std::uint64_t mask = slots_.size() - 1, tag = hash >> 32;
    for (std::uint64_t i = home(tag); slots_[i] != 0; i = (i + 1) & mask)
      if ((slots_[i] >> 32) == tag && same(id_at(i))) return i;
    return std::nullopt;
  }
  std::uint64_t home(std::uint64_t tag) const { return mix(tag) & (slots_.size() - 1); }
  void place(std::uint64_t slot) {
    const std::uint64_t mask = slots_.size() - 1;
    std::uint64_t i = home(slot >> 32);
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
  void grow() {
    std::vector<std::uint64_t> old(std::max<std::size_t>(1024, 2 * slots_.size()), 0);
    old.swap(slots_);
    for (std::uint64_t s : old)
      if (s != 0) place(s);
  }
  void remove_at(std::uint64_t hole) {
    const std::uint64_t mask = slots_.size() - 1;
    slots_[hole] = 0;
    for (std::uint64_t j = (hole + 1) & mask; slots_[j] != 0; j = (j + 1) & mask) {
      const std::uint64_t h = home(slots_[j] >> 32);
      // The entry at j may move back into the hole unless its home lies cyclically in (hole, j].
      const bool home_between = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (home_between) continue;
      slots_[hole] = slots_[j];
      slots_[j] = 0;
      hole = j;
    }
  }

  std::vector<std::uint64_t> slots_;
  std::vector<std::uint32_t> below_;  // per clause id: the copy of equal content added before it, or none
  std::size_t count_ = 0;
};

}  // namespace dancecard::certificates::drat_detail
