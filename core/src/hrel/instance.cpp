// h-relation instances and schedules.
#include "dancecard/core/hrel/instance.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace dancecard::hrel {

hrel_instance::hrel_instance(rank pes, std::vector<hrel_message> messages) : pes_(pes), messages_(std::move(messages)) {
  if (pes == 0) throw std::invalid_argument("hrel_instance: P must be at least 1");
  std::set<std::pair<rank, rank>> seen;
  for (std::size_t k = 0; k < messages_.size(); ++k) {
    const hrel_message& m = messages_[k];
    const std::string where = "messages[" + std::to_string(k) + "]";
    if (m.src >= pes || m.dst >= pes)
      throw std::invalid_argument(where + ": PE out of range for P = " + std::to_string(pes));
    if (m.src == m.dst)
      throw std::invalid_argument(where + ": a message from PE " + std::to_string(m.src) + " to itself");
    if (m.packets == 0) throw std::invalid_argument(where + ": a message has at least one packet");
    if (!seen.emplace(m.src, m.dst).second)
      throw std::invalid_argument(where + ": a second message from " + std::to_string(m.src) + " to " +
                                  std::to_string(m.dst) + " (merge them into one)");
  }
}

std::uint64_t hrel_instance::h_half_duplex() const {
  std::vector<std::uint64_t> load(pes_, 0);
  for (const hrel_message& m : messages_) load[m.src] += m.packets, load[m.dst] += m.packets;
  return load.empty() ? 0 : *std::max_element(load.begin(), load.end());
}

std::uint64_t hrel_instance::h_full_duplex() const {
  std::vector<std::uint64_t> sent(pes_, 0), received(pes_, 0);
  for (const hrel_message& m : messages_) sent[m.src] += m.packets, received[m.dst] += m.packets;
  std::uint64_t h = 0;
  for (rank p = 0; p < pes_; ++p) h = std::max({h, sent[p], received[p]});
  return h;
}

rational hrel_schedule::makespan() const {
  rational total;
  for (const hrel_slot& s : slots) total += s.duration;
  return total;
}

}  // namespace dancecard::hrel
