// Cutting-planes certificates for the h-relation counting arguments (see the header for the three arguments; the
// comments below give the coefficients each derivation leaves on a move x(t, a, b, m), all of them <= 0 at the end,
// so that the final constraint is "0 >= positive": no 0/1 assignment satisfies it).
#include "dancecard/smt/hrel_certificates.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "dancecard/checkers/cutting_planes_check.hpp"

namespace dancecard::hrel {

namespace {

__extension__ typedef unsigned __int128 u128;  // sums of packet counts, which may pass 64 bits

std::size_t saturate(u128 v) {
  return v > std::numeric_limits<std::size_t>::max() ? std::numeric_limits<std::size_t>::max()
                                                     : static_cast<std::size_t>(v);
}
u128 ceil_div(u128 a, u128 b) { return (a + b - 1) / b; }

// A Tutte–Berge cover of the message graph (PEs joined when a message goes either way): the set U and the vertex
// sets of the components of the graph without U that have an edge. Every message has an end in U or both ends in
// one component, so the direct moves of a slot are at most |U| + Σ⌊|C|/2⌋ =: value. Up to 16 PEs every U is tried
// and the least value is ν (Tutte–Berge); beyond, U = ∅ (still a valid bound, possibly above ν).
struct matching_cover {
  std::vector<rank> u;
  std::vector<std::vector<rank>> components;
  std::size_t value = 0;
};

matching_cover best_matching_cover(const hrel_instance& instance) {
  const rank P = instance.pes();
  std::vector<std::vector<rank>> adjacent(P);
  for (const hrel_message& m : instance.messages()) {
    adjacent[m.src].push_back(m.dst);
    adjacent[m.dst].push_back(m.src);
  }
  auto cover_for = [&](std::uint32_t in_u) {
    matching_cover c;
    std::vector<char> seen(P, 0);
    for (rank p = 0; p < P; ++p) {
      if (in_u >> p & 1) {
        c.u.push_back(p);
        continue;
      }
      if (seen[p]) continue;
      std::vector<rank> component{p}, stack{p};
      seen[p] = 1;
      while (!stack.empty()) {
        const rank v = stack.back();
        stack.pop_back();
        for (rank w : adjacent[v])
          if (!seen[w] && !(in_u >> w & 1)) {
            seen[w] = 1;
            component.push_back(w);
            stack.push_back(w);
          }
      }
      if (component.size() >= 2) {
        std::sort(component.begin(), component.end());
        c.value += component.size() / 2;
        c.components.push_back(std::move(component));
      }
    }
    c.value += c.u.size();
    return c;
  };
  matching_cover best = cover_for(0);
  if (P <= 16)
    for (std::uint32_t in_u = 1; in_u < (1u << P); ++in_u) {
      matching_cover c = cover_for(in_u);
      if (c.value < best.value) best = std::move(c);
    }
  return best;
}

// The densest odd set S (|S| >= 3) for direct schedules: the largest ⌈k·V(S)/⌊|S|/2⌋⌉, searched for P <= 16.
struct odd_set {
  std::uint32_t members = 0;
  std::size_t bound = 0;
};

odd_set densest_odd_set(const hrel_instance& instance, unsigned k) {
  odd_set best;
  const rank P = instance.pes();
  if (P > 16) return best;
  for (std::uint32_t s = 1; s < (1u << P); ++s) {
    const int size = __builtin_popcount(s);
    if (size < 3 || size % 2 == 0) continue;
    u128 inside = 0;
    for (const hrel_message& m : instance.messages())
      if ((s >> m.src & 1) && (s >> m.dst & 1)) inside += m.packets;
    const std::size_t bound = saturate(ceil_div(inside * k, static_cast<u128>(size / 2)));
    if (bound > best.bound) best = {s, bound};
  }
  return best;
}

u128 own_pieces(const hrel_instance& instance, unsigned k, rank p) {
  u128 own = 0;
  for (const hrel_message& m : instance.messages())
    if (m.src == p || m.dst == p) own += static_cast<u128>(m.packets) * k;
  return own;
}

u128 total_pieces(const hrel_instance& instance, unsigned k) {
  u128 v = 0;
  for (const hrel_message& m : instance.messages()) v += static_cast<u128>(m.packets) * k;
  return v;
}

// "kind:a:b:…", an axiom's name; "#id", a derived constraint's.
template <class... Numbers>
std::string axiom(std::string_view kind, Numbers... numbers) {
  std::string out(kind);
  ((out.append(":").append(std::to_string(numbers))), ...);
  return out;
}
std::string derived(std::uint64_t id) { return std::string("#").append(std::to_string(id)); }

void require_valid(const hrel_instance& instance, unsigned k) {
  if (k == 0) throw std::invalid_argument("hrel certificates: the granularity must be at least 1");
  if (instance.messages().empty()) throw std::invalid_argument("hrel certificates: the instance has no messages");
}

// The three arguments' bounds with what their derivations need: each PE's own pieces, the densest odd set, the
// Tutte–Berge cover. Computed once per question (the two searches try up to 2^16 subsets).
struct analysis {
  std::vector<u128> own;  // per PE
  odd_set odd;            // without forwarding only
  matching_cover cover;
  hrel_counting_bounds bounds;
};

analysis analyse(const hrel_instance& instance, unsigned k, bool forwarding) {
  require_valid(instance, k);
  analysis a;
  for (rank p = 0; p < instance.pes(); ++p) {
    a.own.push_back(own_pieces(instance, k, p));
    a.bounds.per_pe = std::max(a.bounds.per_pe, saturate(a.own.back()));
  }
  if (!forwarding) a.odd = densest_odd_set(instance, k);
  a.bounds.odd_set = a.odd.bound;
  a.cover = best_matching_cover(instance);
  a.bounds.global = saturate(ceil_div(2 * total_pieces(instance, k), instance.pes() / 2 + a.cover.value));
  return a;
}

// Writes the derivation steps, numbering derived constraints from 1.
class writer {
 public:
  writer(const hrel_instance& instance, unsigned k, bool forwarding, std::size_t slots)
      : instance_(instance), forwarding_(forwarding) {
    out_ << certificates::cutting_planes_format_name << "\ninstance "
         << hrel_certificate_instance(instance, k, forwarding, slots) << "\n";
  }
  std::ostream& text() { return out_; }
  // "c <id> sum" with the terms; returns the id.
  std::uint64_t sum(const std::vector<std::string>& terms) {
    out_ << "c " << next_ << " sum";
    for (const std::string& t : terms) out_ << " 1 " << t;
    out_ << "\n";
    return next_++;
  }
  // Σ of the busy axioms of `pes` in slot t, halved: the moves inside the set get −1, the right side −⌊|set|/2⌋.
  std::string halved_busy(const std::vector<rank>& pes, std::size_t t) {
    std::vector<std::string> terms;
    for (rank p : pes) terms.push_back(axiom("busy", p, t));
    const std::uint64_t id = sum(terms);
    out_ << "c " << next_ << " div 2 #" << id << "\ndel #" << id << "\n";
    return derived(next_++);
  }
  // deliver:m plus final:q:m at every PE but the source and the destination: Σ over the PEs other than the source of
  // (received − sent) >= k·packets. With forwarding=0 the PEs in between have no moves, so they are left out.
  std::vector<std::string> away_from_source(std::size_t m) const {
    const hrel_message& msg = instance_.messages()[m];
    std::vector<std::string> terms{axiom("deliver", m)};
    if (forwarding_)
      for (rank q = 0; q < instance_.pes(); ++q)
        if (q != msg.src && q != msg.dst) terms.push_back(axiom("final", q, m));
    return terms;
  }
  std::string finish(std::uint64_t last) {
    out_ << "contradiction #" << last << "\n";
    return out_.str();
  }

 private:
  const hrel_instance& instance_;
  bool forwarding_;
  std::ostringstream out_;
  std::uint64_t next_ = 1;
};

}  // namespace

std::string hrel_certificate_instance(const hrel_instance& instance, unsigned granularity, bool forwarding,
                                      std::size_t slots) {
  std::ostringstream out;
  out << "hrel pes=" << instance.pes() << " k=" << granularity << " slots=" << slots
      << " forwarding=" << (forwarding ? 1 : 0) << " messages=";
  for (std::size_t m = 0; m < instance.messages().size(); ++m) {
    const hrel_message& msg = instance.messages()[m];
    out << (m ? "," : "") << msg.src << ">" << msg.dst << "*" << msg.packets;
  }
  return out.str();
}

std::size_t hrel_counting_bounds::best() const { return std::max({per_pe, odd_set, global}); }

hrel_counting_bounds hrel_certified_bounds(const hrel_instance& instance, unsigned granularity, bool forwarding) {
  return analyse(instance, granularity, forwarding).bounds;
}

std::optional<std::string> hrel_lower_bound_certificate(const hrel_instance& instance, unsigned granularity,
                                                        bool forwarding, std::size_t slots) {
  const analysis a = analyse(instance, granularity, forwarding);
  const hrel_counting_bounds& bounds = a.bounds;
  // The checker's integers are int64: keep every right side and coefficient well inside.
  if (slots >= bounds.best() ||
      2 * total_pieces(instance, granularity) > static_cast<u128>(std::numeric_limits<std::int64_t>::max() / 4))
    return std::nullopt;
  const rank P = instance.pes();
  const auto& messages = instance.messages();
  writer w(instance, granularity, forwarding, slots);
  if (slots < bounds.per_pe) {
    rank p = 0;
    while (a.own[p] <= slots) ++p;
    // busy:p:t over all slots puts −1 on every move of p. A message out of p adds "sent by p − received by p" (+1 on
    // p → q, −1 on q → p), one into p adds "received − sent" (the same the other way): moves of p's own messages end at
    // 0 or −2, all others at −1 or 0; the right side is own(p) − T >= 1.
    w.text() << "# per PE: PE " << p << " must send or receive " << static_cast<unsigned long long>(a.own[p])
             << " pieces, one a slot, in " << slots << " slots\n";
    std::vector<std::string> terms;
    for (std::size_t t = 0; t < slots; ++t) terms.push_back(axiom("busy", p, t));
    for (std::size_t m = 0; m < messages.size(); ++m) {
      if (messages[m].src == p) {
        const std::vector<std::string> away = w.away_from_source(m);
        terms.insert(terms.end(), away.begin(), away.end());
      } else if (messages[m].dst == p) {
        terms.push_back(axiom("deliver", m));
      }
    }
    return w.finish(w.sum(terms));
  }
  if (slots < bounds.odd_set) {
    const odd_set& s = a.odd;
    std::vector<rank> members;
    for (rank p = 0; p < P; ++p)
      if (s.members >> p & 1) members.push_back(p);
    // Without forwarding deliver:m is Σ_t x(t, src, dst, m) >= k·packets; each slot's halved busy sum over S puts −1
    // on the moves inside S, so the messages inside S cancel and the right side is k·V(S) − T·⌊|S|/2⌋ >= 1.
    w.text() << "# odd set: the " << members.size() << " PEs of S hold at most " << members.size() / 2
             << " moves a slot, too few for the messages inside S\n";
    std::vector<std::string> terms;
    for (std::size_t t = 0; t < slots; ++t) terms.push_back(w.halved_busy(members, t));
    for (std::size_t m = 0; m < messages.size(); ++m)
      if ((s.members >> messages[m].src & 1) && (s.members >> messages[m].dst & 1))
        terms.push_back(axiom("deliver", m));
    return w.finish(w.sum(terms));
  }
  // Section 2.5. Progress of message m (src s, dst d, PEs q in between): 2·deliver:m + Σ_q final:q:m has +2 on
  // s → d, +1 on q → d and on s → q, 0 on q → q', and −1 or −2 on moves back to s or out of d.
  const matching_cover& cover = a.cover;
  w.text() << "# Section 2.5: per message, 2 direct + indirect moves >= 2 k packets; a slot holds at most " << P / 2
           << " moves, and at most " << cover.value << " direct ones (a Tutte-Berge cover of the message graph)\n";
  std::vector<std::string> terms;
  for (std::size_t m = 0; m < messages.size(); ++m) {
    std::vector<std::string> progress = w.away_from_source(m);
    progress.push_back(progress.front());  // deliver:m twice
    terms.push_back(derived(w.sum(progress)));
  }
  std::vector<rank> everyone(P);
  std::iota(everyone.begin(), everyone.end(), rank{0});
  for (std::size_t t = 0; t < slots; ++t) {
    terms.push_back(w.halved_busy(everyone, t));  // −1 on every move of slot t, right side −⌊P/2⌋
    // −1 (or less) on every direct move of slot t: it has an end in U or both ends in one component
    for (rank u : cover.u) terms.push_back(axiom("busy", u, t));
    for (const std::vector<rank>& c : cover.components) terms.push_back(w.halved_busy(c, t));
  }
  return w.finish(w.sum(terms));
}

}  // namespace dancecard::hrel
