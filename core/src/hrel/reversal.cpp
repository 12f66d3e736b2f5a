// Reversal symmetries of h-relation instances: involutions π of the PEs that map the instance, every message turned
// round, onto itself (see reversal.hpp for why a schedule run backwards is one of the transposed instance).
// Search: PEs are mapped in order 0, 1, …; an unmapped PE x is tried as a fixed point and then paired with each later
// unmapped y, and a pair is kept only if every message among the PEs mapped so far keeps its packets when turned round
// and renamed, and the PEs' sums agree (what x sends is what π(x) receives, and the other way round).
#include "dancecard/core/hrel/reversal.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace dancecard::hrel {

namespace {

constexpr rank unmapped = static_cast<rank>(-1);

class reversal_search {
 public:
  reversal_search(const hrel_instance& instance, std::uint64_t max_nodes)
      : n_(instance.pes()), sent_(n_, 0), received_(n_, 0), touching_(n_), pi_(n_, unmapped), nodes_left_(max_nodes) {
    for (const hrel_message& m : instance.messages()) {
      packets_[{m.src, m.dst}] = m.packets;
      sent_[m.src] += m.packets;
      received_[m.dst] += m.packets;
      touching_[m.src].push_back(m.dst);
      touching_[m.dst].push_back(m.src);
    }
  }

  std::optional<std::vector<rank>> run() {
    if (extend(0)) return pi_;
    return std::nullopt;
  }

 private:
  std::uint64_t packets(rank a, rank b) const {
    const auto it = packets_.find({a, b});
    return it == packets_.end() ? 0 : it->second;
  }

  // Every message between x and a mapped PE keeps its packets when turned round and renamed. Called for both PEs of
  // a new pair x ↔ π(x): a message whose image is missing is seen at its own end, and a message that is the image of
  // nothing is seen at its end, which is x or π(x) too.
  bool consistent(rank x) const {
    if (sent_[x] != received_[pi_[x]] || received_[x] != sent_[pi_[x]]) return false;
    for (rank u : touching_[x])
      if (pi_[u] != unmapped && (packets(x, u) != packets(pi_[u], pi_[x]) || packets(u, x) != packets(pi_[x], pi_[u])))
        return false;
    return true;
  }

  bool extend(rank x) {
    while (x < n_ && pi_[x] != unmapped) ++x;
    if (x == n_) return true;
    for (rank y = x; y < n_; ++y) {
      if (pi_[y] != unmapped) continue;
      if (nodes_left_ == 0) return false;
      --nodes_left_;
      pi_[x] = y, pi_[y] = x;
      if (consistent(x) && (y == x || consistent(y)) && extend(x + 1)) return true;
      pi_[x] = unmapped, pi_[y] = unmapped;
    }
    return false;
  }

  rank n_;
  std::map<std::pair<rank, rank>, std::uint64_t> packets_;
  std::vector<std::uint64_t> sent_, received_;
  std::vector<std::vector<rank>> touching_;
  std::vector<rank> pi_;
  std::uint64_t nodes_left_;
};

}  // namespace

std::optional<std::vector<rank>> reversal_symmetry(const hrel_instance& instance, std::uint64_t max_nodes) {
  return reversal_search(instance, max_nodes).run();
}

std::vector<std::size_t> reversed_messages(const hrel_instance& instance, const std::vector<rank>& pi) {
  const auto& messages = instance.messages();
  if (pi.size() != instance.pes()) throw std::invalid_argument("reversed_messages: π must name every PE");
  std::map<std::pair<rank, rank>, std::size_t> index;
  for (std::size_t m = 0; m < messages.size(); ++m) index[{messages[m].src, messages[m].dst}] = m;
  std::vector<std::size_t> out(messages.size());
  for (std::size_t m = 0; m < messages.size(); ++m) {
    const hrel_message& msg = messages[m];
    const auto it = index.find({pi[msg.dst], pi[msg.src]});
    if (pi[msg.src] >= pi.size() || it == index.end() || messages[it->second].packets != msg.packets ||
        pi[pi[msg.src]] != msg.src || pi[pi[msg.dst]] != msg.dst)
      throw std::invalid_argument("reversed_messages: π is not a reversal symmetry (message " + std::to_string(m) +
                                  " has no image of as many packets)");
    out[m] = it->second;
  }
  return out;
}

hrel_schedule reversed_schedule(const hrel_instance& instance, const hrel_schedule& schedule,
                                const std::vector<rank>& pi) {
  const std::vector<std::size_t> image = reversed_messages(instance, pi);
  hrel_schedule out{schedule.pes, {}};
  for (auto slot = schedule.slots.rbegin(); slot != schedule.slots.rend(); ++slot) {
    hrel_slot turned{slot->duration, {}};
    for (const hrel_transfer& x : slot->transfers) {
      if (x.from >= pi.size() || x.to >= pi.size() || x.message >= image.size())
        throw std::invalid_argument("reversed_schedule: a transfer names a PE or message outside the instance");
      turned.transfers.push_back({pi[x.to], pi[x.from], image[x.message], x.amount});
    }
    out.slots.push_back(std::move(turned));
  }
  return out;
}

}  // namespace dancecard::hrel
