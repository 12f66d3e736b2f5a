// The Euler-split colouring of regular bipartite multigraphs (H. N. Gabow, "Using Euler partitions to edge color
// bipartite multigraphs", Int. J. Comput. Inf. Sci. 5 (1976)) on unit edge copies kept in left-major order:
//   * the left side needs no index: in a d-regular graph left vertex u's copies are [u·d, (u+1)·d), and each Euler
//     split gives every vertex exactly half of its copies in each half, so written in order the halves are again in
//     left-major order, d/2 copies per vertex;
//   * a copy is one 32-bit word, its right vertex and its slot among its left vertex's input copies, which with the
//     implicit left vertex names its ref; the refs are read only when a class is taken;
//   * even d: copies 2i and 2i+1 (at one left vertex, d being even) are paired there, and at each right vertex its
//     copies are paired in the order met; the pairings form even cycles, whose copies are given to the halves
//     alternately. A walk along a cycle is a chain of dependent random accesses (one per two copies), bound by memory
//     latency; so 16 walks go at once, each one step in turn with the next copy prefetched, and a walk that meets
//     copies another walk has already given out stops there: each walk's copies form a segment whose halves are
//     decided up to a flip, the meetings say which segments must flip relative to which (a union-find with parity),
//     and the flips are applied as the halves are written. A walked pair's segment overwrites its partner words, which
//     share a cache line, so a step touches one line;
//   * odd d: one perfect matching is a colour class; taking it out leaves d − 1 copies per vertex, still in order. It
//     starts from Karp–Sipser's greedy matching (R. M. Karp, M. Sipser, "Maximum matchings in sparse random graphs",
//     FOCS 1981: a vertex with one free neighbour left is matched to it first), which on the random regular graphs
//     measured leaves a few dozen of 10^5 vertices free; each of those gets one breadth-first search that stops at the
//     first free right vertex, where Hopcroft–Karp's phases would each sweep the whole graph (13 phases on a
//     25-regular graph after a plain greedy pass). Hopcroft–Karp phases come first only while many are free.
// The multiplicity form in edge_coloring.cpp rebuilt incidence lists at every level; this one moves 4 bytes a copy
// per level sequentially plus one random access per two copies in the walk (docs/performance.md).
#include "regular_unit_colouring.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <utility>

namespace dancecard::hrel::detail {

namespace {

constexpr std::uint32_t none = UINT32_MAX;
constexpr std::uint32_t walked = 1u << 31;       // partner word: the copy's half is decided
constexpr std::uint32_t second_half = 1u << 30;  // partner word: … and it is the second half
constexpr std::uint32_t index_bits = second_half - 1;

// Augments the matching along a shortest alternating path from the free left vertex `root` (a BFS that stops at the
// first free right vertex); one exists whenever the matching is not perfect (Berge), so in a regular graph always.
// `seen` stamps the right vertices this search reached, `via` the copy it reached them by.
void augment_from(const std::uint32_t* copy, std::uint32_t mask, std::uint32_t d, std::uint32_t root,
                  std::vector<std::uint32_t>& match_left, std::vector<std::uint32_t>& match_right,
                  std::vector<std::uint32_t>& seen, std::vector<std::uint32_t>& via, std::uint32_t stamp,
                  std::vector<std::uint32_t>& queue) {
  queue.assign(1, root);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t u = queue[head];
    for (std::uint32_t i = u * d; i < (u + 1) * d; ++i) {
      const std::uint32_t v = copy[i] & mask;
      if (seen[v] == stamp) continue;
      seen[v] = stamp, via[v] = i;
      if (match_right[v] != none) {
        queue.push_back(match_right[v] / d);
        continue;
      }
      for (std::uint32_t e = i;;) {  // flip the path back to the root
        const std::uint32_t w = e / d, previous = match_left[w];
        match_left[w] = e, match_right[copy[e] & mask] = e;
        if (previous == none) return;
        e = via[copy[previous] & mask];
      }
    }
  }
  throw std::logic_error("colour_regular_units: a regular bipartite graph without a perfect matching");
}

// One Hopcroft–Karp phase: a BFS layering from every free left vertex up to the first layer that reaches a free right
// vertex, then vertex-disjoint shortest augmenting paths along it by DFS. Returns how many were found.
std::uint32_t hopcroft_karp_phase(const std::uint32_t* copy, std::uint32_t mask, std::uint32_t k, std::uint32_t d,
                                  std::vector<std::uint32_t>& match_left, std::vector<std::uint32_t>& match_right) {
  std::vector<std::uint32_t> dist(k), next(k), queue;
  for (std::uint32_t u = 0; u < k; ++u) {
    dist[u] = match_left[u] == none ? 0 : none;
    if (match_left[u] == none) queue.push_back(u);
  }
  std::uint32_t limit = none;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t u = queue[head];
    if (dist[u] >= limit) break;
    for (std::uint32_t i = u * d; i < (u + 1) * d; ++i) {
      const std::uint32_t m = match_right[copy[i] & mask];
      if (m == none)
        limit = std::min(limit, dist[u] + 1);
      else if (dist[m / d] == none && dist[u] + 1 < limit)
        dist[m / d] = dist[u] + 1, queue.push_back(m / d);
    }
  }
  if (limit == none)
    throw std::logic_error("colour_regular_units: a regular bipartite graph without a perfect matching");
  for (std::uint32_t u = 0; u < k; ++u) next[u] = u * d;
  std::uint32_t found = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // (left vertex, copy taken to get there)
  for (std::uint32_t root = 0; root < k; ++root) {
    if (match_left[root] != none) continue;
    stack.assign(1, {root, none});
    while (!stack.empty()) {
      const std::uint32_t u = stack.back().first;
      if (next[u] == (u + 1) * d) {
        dist[u] = none;  // a dead end for this phase
        stack.pop_back();
        continue;
      }
      const std::uint32_t i = next[u]++;
      const std::uint32_t m = match_right[copy[i] & mask];
      if (m == none) {  // a free right vertex: flip the path on the stack
        stack.push_back({none, i});
        for (std::size_t s = stack.size() - 1; s >= 1; --s) {
          const std::uint32_t taken = stack[s].second;
          match_left[taken / d] = taken, match_right[copy[taken] & mask] = taken;
        }
        ++found;
        break;
      }
      if (dist[m / d] == dist[u] + 1) stack.push_back({m / d, i});
    }
  }
  return found;
}

// Karp–Sipser's greedy matching: a left vertex with one free right neighbour left takes it first, otherwise the next
// one in order; fills match_left and match_right and returns how many it matched. `at_right`: k·d words of scratch,
// the left vertex of each copy grouped by right vertex. Count holds d: a left vertex's copies to free right
// vertices, 0 once it is matched, and is narrow for small d so that the counts stay in cache.
template <class Count>
std::uint32_t karp_sipser(const std::uint32_t* copy, std::uint32_t mask, std::uint32_t k, std::uint32_t d,
                          std::uint32_t* at_right, std::vector<std::uint32_t>& match_left,
                          std::vector<std::uint32_t>& match_right) {
  std::vector<std::uint32_t> fill(k), forced;
  std::vector<Count> free_copies(k, static_cast<Count>(d));
  for (std::uint32_t v = 0; v < k; ++v) fill[v] = v * d;
  for (std::uint32_t u = 0, i = 0; u < k; ++u)
    for (std::uint32_t end = i + d; i < end; ++i) {
      const std::uint32_t v = copy[i] & mask;
      if (fill[v] == (v + 1) * d) throw std::logic_error("colour_regular_units: the graph is not d-regular");
      at_right[fill[v]++] = u;
    }
  std::uint32_t matched = 0;
  auto take = [&](std::uint32_t u) {
    for (std::uint32_t i = u * d; i < (u + 1) * d; ++i) {
      const std::uint32_t v = copy[i] & mask;
      if (match_right[v] != none) continue;
      match_left[u] = i, match_right[v] = i, free_copies[u] = 0, ++matched;
      for (std::uint32_t c = v * d; c < (v + 1) * d; ++c)
        if (const std::uint32_t w = at_right[c]; free_copies[w] > 1 && --free_copies[w] == 1) forced.push_back(w);
      return;
    }
  };
  for (std::uint32_t u = 0; u < k; ++u) {
    // the right neighbours of the left vertex taken a few steps on, mostly its first copy's
    if (u + 8 < k) __builtin_prefetch(&at_right[(copy[(u + 8) * d] & mask) * d]);
    while (!forced.empty()) {
      const std::uint32_t w = forced.back();
      forced.pop_back();
      if (free_copies[w] != 0) take(w);
    }
    if (free_copies[u] != 0) take(u);
  }
  return matched;
}

// A perfect matching of the d-regular graph: for each left vertex the index of its matched copy. `at_right`: k·d
// words of scratch.
std::vector<std::uint32_t> perfect_matching(const std::uint32_t* copy, std::uint32_t mask, std::uint32_t k,
                                            std::uint32_t d, std::uint32_t* at_right) {
  std::vector<std::uint32_t> match_left(k, none), match_right(k, none);
  std::uint32_t matched =
      d <= UINT8_MAX    ? karp_sipser<std::uint8_t>(copy, mask, k, d, at_right, match_left, match_right)
      : d <= UINT16_MAX ? karp_sipser<std::uint16_t>(copy, mask, k, d, at_right, match_left, match_right)
                        : karp_sipser<std::uint32_t>(copy, mask, k, d, at_right, match_left, match_right);
  // Many left free (not on the graphs measured): Hopcroft–Karp phases, each a pass over the graph, until a few are.
  while (k - matched > k / 64 + 16) matched += hopcroft_karp_phase(copy, mask, k, d, match_left, match_right);
  // A few: one search each, which stops at the first free right vertex.
  std::vector<std::uint32_t> seen(k, 0), via(k), queue;
  std::uint32_t stamp = 0;
  for (std::uint32_t u = 0; u < k; ++u)
    if (match_left[u] == none) augment_from(copy, mask, d, u, match_left, match_right, seen, via, ++stamp, queue);
  return match_left;
}

// Union-find over segments with the parity of each to its root: flip(s) = parity from s to its root, xor the root's.
class parity_union_find {
 public:
  std::size_t size() const { return parent_.size(); }
  void clear() {
    parent_.clear();
    parity_.clear();
  }
  std::uint32_t add() {
    parent_.push_back(static_cast<std::uint32_t>(parent_.size()));
    parity_.push_back(0);
    return parent_.back();
  }
  std::pair<std::uint32_t, std::uint8_t> find(std::uint32_t s) {
    std::uint8_t p = 0;
    std::uint32_t root = s;
    while (parent_[root] != root) p ^= parity_[root], root = parent_[root];
    // path compression, keeping each node's parity to the root
    for (std::uint8_t q = p; parent_[s] != s;) {
      const std::uint32_t up = parent_[s];
      const std::uint8_t here = parity_[s];
      parent_[s] = root, parity_[s] = q;
      q ^= here, s = up;
    }
    return {root, p};
  }
  /// flip(a) xor flip(b) = parity. Returns false when that contradicts what is known.
  bool unite(std::uint32_t a, std::uint32_t b, std::uint8_t parity) {
    const auto [ra, pa] = find(a);
    const auto [rb, pb] = find(b);
    if (ra == rb) return (pa ^ pb) == parity;
    parent_[rb] = ra, parity_[rb] = static_cast<std::uint8_t>(pa ^ pb ^ parity);
    return true;
  }

 private:
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint8_t> parity_;
};

// Gives every pair of copies (i, i ^ 1) at a left vertex a segment, written into both partner words with `walked`,
// and gives copy i the segment's first half or, with second_half, its second; `flips` then says which segments turn
// over, such that the two copies of each left pair (i, i ^ 1) and of each right pair (i, partner) end in different
// halves. The segment replaces the partner index, which the walk has then read; the two words share a cache line.
void split_cycles(std::uint32_t* partner, std::uint32_t n, parity_union_find& flips) {
  constexpr std::uint32_t walkers = 16;
  struct walk {
    std::uint32_t at = none;  // the copy the walk arrives at, to be given the segment's first half
    std::uint32_t segment = 0;
    bool fresh = false;  // nothing given out yet: `at` is where the segment starts
  };
  // Where segments start: a walk reaches every copy but its first one's partner at the right vertex, which must go to
  // the other half too; that pair is checked once every copy has its segment.
  struct segment_start {
    std::uint32_t segment, first, other;
  };
  std::vector<segment_start> starts;
  std::array<walk, walkers> walks;
  std::uint32_t scan = 0;  // left pairs before it are walked or held by a walk
  auto start = [&](walk& w) {
    while (scan < n && (partner[scan] & walked)) scan += 2;
    if (scan >= n) {
      w.at = none;
      return;
    }
    w.at = scan, w.segment = flips.add(), w.fresh = true;
    scan += 2;
  };
  for (walk& w : walks) start(w);
  for (bool busy = true; busy;) {
    busy = false;
    for (walk& w : walks) {
      if (w.at == none) continue;
      busy = true;
      const std::uint32_t i = w.at, j = i ^ 1u, word = partner[i];
      if (word & walked) {  // met a segment (maybe its own start): i must be in this one's first half
        if (!flips.unite(w.segment, word & index_bits, (word & second_half) ? 1 : 0))
          throw std::logic_error("colour_regular_units: an odd cycle in a bipartite pairing");
        start(w);
        continue;
      }
      if (w.fresh) starts.push_back({w.segment, i, word}), w.fresh = false;
      w.at = partner[j];  // j is not walked either: the two are walked together
      partner[i] = walked | w.segment;
      partner[j] = walked | second_half | w.segment;
      __builtin_prefetch(&partner[w.at]);
    }
  }
  for (const segment_start& s : starts) {  // first: first half of its segment; other, its partner: the other half
    const std::uint32_t word = partner[s.other];
    if (!flips.unite(s.segment, word & index_bits, (word & second_half) ? 0 : 1))
      throw std::logic_error("colour_regular_units: an odd cycle in a bipartite pairing");
  }
}

// The copies at one level: word i holds copy i's right vertex in its low bits and, above them, the copy's place
// among its left vertex's copies in the input (a slot), from which its ref is read at the end. Both fit 32 bits
// because k·Δ < 2^30, so a split moves 4 bytes a copy.
struct copy_layout {
  std::uint32_t vertex_mask;
  std::uint32_t slot_shift;
  std::uint32_t delta;       // the input's degree
  const std::uint32_t* ref;  // the input's refs, k·Δ
  std::uint32_t ref_of(std::uint32_t u, std::uint32_t word) const {
    return ref[static_cast<std::size_t>(u) * delta + (word >> slot_shift)];
  }
};

// Appends the class of the copies at(u), one per left vertex u < k, dummies left out.
template <class At>
void take_class(const std::uint32_t* copy, std::uint32_t k, At at, const copy_layout& layout,
                std::vector<std::vector<std::size_t>>& out) {
  std::vector<std::size_t>& colour_class = out.emplace_back();
  colour_class.reserve(k);
  for (std::uint32_t u = 0; u < k; ++u)
    if (const std::uint32_t r = layout.ref_of(u, copy[at(u)]); r != no_ref) colour_class.push_back(r);
}

// The work space of one colouring: the copies live in one of two buffers of k·Δ words each, the other receiving the
// halves of a split; partner and the per-right-vertex words are scratch reused level by level (the recursion is
// depth first), so nothing large is allocated below the top.
struct work_space {
  std::uint32_t k;
  copy_layout layout;
  std::uint32_t* partner;  // k·Δ + 1 words
  std::uint32_t* pending;  // k words
  parity_union_find* flips;
  std::vector<std::uint8_t>* flipped;  // of each segment: its parity to its root in `flips`, xor the root's
  std::vector<std::vector<std::size_t>>* out;
};

// Colours the d-regular graph whose copies are copy[0, k·d); spare, as long, is free to use.
void colour(std::uint32_t* copy, std::uint32_t* spare, std::uint32_t d, const work_space& w) {
  const std::uint32_t k = w.k, n = k * d, mask = w.layout.vertex_mask;
  if (d == 0) return;
  if (d == 1) {  // the graph is a perfect matching
    take_class(
        copy, k, [](std::uint32_t u) { return u; }, w.layout, *w.out);
    return;
  }
  if (d % 2 == 1) {
    const std::vector<std::uint32_t> match = perfect_matching(copy, mask, k, d, w.partner);
    take_class(
        copy, k, [&](std::uint32_t u) { return match[u]; }, w.layout, *w.out);
    std::uint32_t to = 0;  // the rest in place, in order: d − 1 copies per left vertex
    for (std::uint32_t u = 0; u < k; ++u)
      for (std::uint32_t i = u * d; i < (u + 1) * d; ++i)
        if (i != match[u]) copy[to++] = copy[i];
    colour(copy, spare, d - 1, w);
    return;
  }
  // Pair the copies at each right vertex in the order met: partner[i] is i's partner there. Without branches (whether
  // a copy opens or closes a pair is a coin toss): each copy writes the pending copy it read (none when it opens a
  // pair) into its own word, and itself into that copy's word or, when it opens a pair, into the sentinel partner[n].
  std::uint32_t* partner = w.partner;
  std::uint32_t* const pending = w.pending;
  std::fill(pending, pending + k, none);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i + 16 < n) __builtin_prefetch(&pending[copy[i + 16] & mask]);
    const std::uint32_t v = copy[i] & mask, p = pending[v];
    const bool second = p != none;
    pending[v] = second ? none : i;
    partner[i] = p;
    partner[second ? p : n] = i;
  }
  for (std::uint32_t v = 0; v < k; ++v)  // every copy has a partner: each right vertex has an even number of copies
    if (pending[v] != none) throw std::logic_error("colour_regular_units: the graph is not d-regular");
  // Copy i and its left neighbour i ^ 1 go to opposite halves, and so do i ^ 1 and its partner at the right vertex —
  // which is therefore in i's half.
  parity_union_find& flips = *w.flips;
  flips.clear();
  split_cycles(partner, n, flips);
  // The halves into the spare buffer, each in left-major order: of each left pair one copy goes to each half.
  std::vector<std::uint8_t>& flipped = *w.flipped;  // the segments are few (about 800 at the top of Δ = 100)
  flipped.resize(flips.size());
  for (std::uint32_t segment = 0; segment < flipped.size(); ++segment) flipped[segment] = flips.find(segment).second;
  for (std::uint32_t i = 0, at = 0; i < n; i += 2, ++at) {
    const std::uint32_t word = partner[i];
    const std::uint32_t swap = ((word & second_half) ? 1u : 0u) ^ flipped[word & index_bits];  // 1: i to the second
    const std::uint32_t a = copy[i], b = copy[i + 1], x = (a ^ b) & (0 - swap);
    spare[at] = a ^ x, spare[n / 2 + at] = b ^ x;
  }
  colour(spare, copy, d / 2, w);
  colour(spare + n / 2, copy + n / 2, d / 2, w);
}

}  // namespace

void colour_regular_units(std::vector<std::uint32_t> right, std::vector<std::uint32_t> ref, std::uint32_t k,
                          std::uint32_t d, std::vector<std::vector<std::size_t>>& out) {
  const std::size_t n = static_cast<std::size_t>(k) * d;
  if (right.size() != n || ref.size() != n || n >= index_bits)
    throw std::logic_error("colour_regular_units: k·d copies, fewer than 2^30");
  if (d == 0) return;
  const auto slot_shift = static_cast<std::uint32_t>(std::bit_width(k > 0 ? k - 1 : 0u));
  const copy_layout layout{(std::uint32_t{1} << slot_shift) - 1, slot_shift, d, ref.data()};
  std::vector<std::uint32_t> count(k, 0);
  for (std::uint32_t u = 0, i = 0; u < k; ++u)  // pack in place: right[i] becomes copy i's word
    for (std::uint32_t slot = 0; slot < d; ++slot, ++i) {
      const std::uint32_t v = right[i];
      if (v >= k || ++count[v] > d) throw std::logic_error("colour_regular_units: the graph is not d-regular");
      right[i] = v | slot << slot_shift;
    }
  std::vector<std::uint32_t> spare(n), partner(n + 1), pending(k);
  parity_union_find flips;
  std::vector<std::uint8_t> flipped;
  colour(right.data(), spare.data(), d, {k, layout, partner.data(), pending.data(), &flips, &flipped, &out});
}

}  // namespace dancecard::hrel::detail
