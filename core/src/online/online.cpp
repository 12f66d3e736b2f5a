// On-line h-relation instances, the four contention disciplines and the protocols of the on-line paper.
//
// Floating point appears only inside the randomized protocols (sending probabilities such as 1 − exp(−d/h)); it
// decides what a simulated processor tries, never whether a trace is valid — checkers/online_trace_check replays
// traces with integers only.
#include "dancecard/core/online/online.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>

#include "weighted_draws.hpp"

namespace dancecard::online {

online_instance::online_instance(rank processors, std::vector<online_message> messages)
    : processors_(processors), messages_(std::move(messages)) {
  if (processors_ == 0) throw std::invalid_argument("online instance: needs at least one processor");
  if (messages_.size() >= UINT32_MAX) throw std::invalid_argument("online instance: too many messages");
  for (std::size_t i = 0; i < messages_.size(); ++i) {
    const online_message& m = messages_[i];
    if (m.src >= processors_ || m.dst >= processors_ || m.src == m.dst)
      throw std::invalid_argument("online instance: messages[" + std::to_string(i) + "]: src " + std::to_string(m.src) +
                                  ", dst " + std::to_string(m.dst) + " for n = " + std::to_string(processors_));
  }
}

std::uint64_t online_instance::h() const {
  std::vector<std::uint64_t> out(processors_, 0), in(processors_, 0);
  std::uint64_t h = 0;
  for (const online_message& m : messages_) h = std::max({h, ++out[m.src], ++in[m.dst]});
  return h;
}

online_instance random_online_relation(rank n, std::uint64_t h, std::uint64_t seed) {
  if (n < 2) throw std::invalid_argument("random_online_relation: needs n >= 2");
  std::mt19937_64 random(seed);
  std::vector<online_message> messages;
  messages.reserve(static_cast<std::size_t>(n) * h);
  std::vector<rank> perm(n);
  for (std::uint64_t round = 0; round < h; ++round) {
    std::iota(perm.begin(), perm.end(), rank{0});
    // A random derangement by rejection: a permutation without fixed points (probability about 1/e each draw).
    do std::shuffle(perm.begin(), perm.end(), random);
    while ([&] {
      for (rank i = 0; i < n; ++i)
        if (perm[i] == i) return true;
      return false;
    }());
    for (rank i = 0; i < n; ++i) messages.push_back({i, perm[i]});
  }
  return online_instance(n, std::move(messages));
}

online_instance total_exchange(rank n) {
  std::vector<online_message> messages;
  for (rank i = 0; i < n; ++i)
    for (rank j = 0; j < n; ++j)
      if (i != j) messages.push_back({i, j});
  return online_instance(std::max<rank>(n, 1), std::move(messages));
}

online_instance difficult_relation(std::uint64_t h) {
  if (h < 2 || h > 40) throw std::invalid_argument("difficult_relation: needs 2 <= h <= 40");
  const rank H = static_cast<rank>(h);
  const rank n = 1 + H + H * (H - 1) + H * (H - 1) * (H - 1);
  std::vector<online_message> messages;
  rank next_blocker = 1 + H, next_fresh = 1 + H + H * (H - 1);
  for (rank j = 1; j <= H; ++j) {
    messages.push_back({0, j});
    for (rank b = 0; b + 1 < H; ++b) {
      const rank blocker = next_blocker++;
      messages.push_back({blocker, j});  // the conflicting message
      for (rank o = 0; o + 1 < H; ++o) messages.push_back({blocker, next_fresh++});
    }
  }
  return online_instance(n, std::move(messages));
}

std::string_view to_string(contention c) {
  switch (c) {
    case contention::ocpc:
      return "ocpc";
    case contention::arbitrary:
      return "arbitrary";
    case contention::fifo:
      return "fifo";
    case contention::priority:
      return "priority";
  }
  return "?";
}

std::string_view to_string(online_protocol p) {
  switch (p) {
    case online_protocol::ggt:
      return "ggt";
    case online_protocol::weighted:
      return "weighted";
    case online_protocol::equal:
      return "equal";
    case online_protocol::fifo_staged:
      return "fifo-staged";
    case online_protocol::random_priority:
      return "random-priority";
  }
  return "?";
}

std::optional<contention> parse_contention(std::string_view name) {
  for (contention c : {contention::ocpc, contention::arbitrary, contention::fifo, contention::priority})
    if (to_string(c) == name) return c;
  return std::nullopt;
}

std::optional<online_protocol> parse_online_protocol(std::string_view name) {
  for (online_protocol p : {online_protocol::ggt, online_protocol::weighted, online_protocol::equal,
                            online_protocol::fifo_staged, online_protocol::random_priority})
    if (to_string(p) == name) return p;
  return std::nullopt;
}

online_protocol paper_protocol(contention c) {
  switch (c) {
    case contention::ocpc:
      return online_protocol::ggt;
    case contention::arbitrary:
      return online_protocol::weighted;
    case contention::fifo:
      return online_protocol::fifo_staged;
    case contention::priority:
      return online_protocol::random_priority;
  }
  return online_protocol::fifo_staged;
}

bool runs_under(contention c, online_protocol p) {
  switch (p) {
    case online_protocol::ggt:
      return c == contention::ocpc || c == contention::arbitrary;
    case online_protocol::weighted:
    case online_protocol::equal:
      return c == contention::arbitrary;
    case online_protocol::fifo_staged:
      return c == contention::fifo || c == contention::priority;
    case online_protocol::random_priority:
      return c == contention::priority;
  }
  return false;
}

namespace {

using detail::weighted_draws;

constexpr std::uint32_t none = UINT32_MAX;

// A processor's undelivered (ocpc, arbitrary) or unsent (fifo, priority) messages, with O(1) removal.
struct pool {
  std::vector<std::uint32_t> items;
  std::vector<std::uint32_t>* position = nullptr;  // shared: message → index in its pool
  void add(std::uint32_t m) {
    (*position)[m] = static_cast<std::uint32_t>(items.size());
    items.push_back(m);
  }
  void remove(std::uint32_t m) {
    const std::uint32_t i = (*position)[m];
    items[i] = items.back();
    (*position)[items[i]] = i;
    items.pop_back();
  }
};

class simulator {
 public:
  simulator(const online_instance& instance, const online_options& options, std::uint64_t seed)
      : in_(instance),
        opt_(options),
        random_(seed),
        n_(instance.processors()),
        h_(instance.h()),
        position_(instance.messages().size(), 0),
        pools_(n_),
        stalled_(n_, 0) {
    for (auto& p : pools_) p.position = &position_;
    for (std::uint32_t m = 0; m < instance.messages().size(); ++m) pools_[instance.messages()[m].src].add(m);
    remaining_ = instance.messages().size();
    if (options.protocol == online_protocol::weighted) {
      draws_.emplace(instance.messages(), n_,
                     [&](std::size_t p) -> const std::vector<std::uint32_t>& { return pools_[p].items; });
      places_.assign(n_, weighted_draws::none);
    }
    max_rounds_ = options.max_rounds != 0 ? options.max_rounds : 100 * h_ + 10'000;
    if (options.discipline == contention::priority && options.protocol == online_protocol::random_priority) {
      priority_.resize(instance.messages().size());
      for (auto& p : priority_) p = random_();
      for (auto& p : pools_)  // send in decreasing priority: keep each pool sorted, send from the back
        std::sort(p.items.begin(), p.items.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return priority_[a] < priority_[b]; });
      for (auto& p : pools_)
        for (std::uint32_t i = 0; i < p.items.size(); ++i) position_[p.items[i]] = i;
    }
  }

  online_run run() {
    online_run out;
    out.trace.discipline = opt_.discipline;
    queues_.assign(n_, {});
    std::vector<std::uint32_t> choice(n_, none);
    for (round_ = 0; remaining_ > 0 && round_ < max_rounds_; ++round_) {
      begin_round();
      if (draws_ && !final_phase_) {
        // The weighted draws in two passes: first each processor's entry (its random number and its few bucket
        // starts), then the entries' messages, loads that no longer wait on each other.
        for (rank p = 0; p < n_; ++p) places_[p] = weighted_place(p);
        for (rank p = 0; p < n_; ++p)
          choice[p] = places_[p] == weighted_draws::none ? none : draws_->top_at(places_[p]);
      } else {
        for (rank p = 0; p < n_; ++p) choice[p] = choose(p);
      }
      resolve(choice, out);
    }
    out.finished = remaining_ == 0;
    out.rounds = last_delivery_ + (delivered_any_ ? 1 : 0);
    return out;
  }

 private:
  // ---- protocols -------------------------------------------------------------------------------------------
  void begin_round() {
    if (opt_.protocol == online_protocol::ggt) {
      if (round_ == phase_end_) {  // a new phase: k_i = (1 − ε)^i h, length e/(1 − ε)·ε·k_i + 1 rounds
        k_ = round_ == 0 ? static_cast<double>(h_) : std::max(2.0, k_ * (1 - opt_.epsilon));
        phase_end_ =
            round_ + static_cast<std::uint64_t>(std::ceil(std::exp(1.0) / (1 - opt_.epsilon) * opt_.epsilon * k_)) + 1;
      }
    } else if (opt_.protocol == online_protocol::weighted) {
      if (round_ == phase_end_ && !final_phase_) {  // stage k: h_{k−1} = (1 − β)^{k−1} h
        k_ = round_ == 0 ? static_cast<double>(h_) : k_ * (1 - opt_.beta);
        const double next = k_ * (1 - opt_.beta);
        // w(d) = 1 − exp(−d / h_{k−1}) once per count d a destination can have, not once per destination
        const std::uint32_t most = draws_->most_to_one();
        weight_by_count_.assign(most + std::size_t{1}, 0);
        for (std::size_t d = 1; d <= most; ++d) weight_by_count_[d] = -std::expm1(-static_cast<double>(d) / k_);
        draws_->weigh(weight_by_count_);
        if (next <= std::pow(static_cast<double>(h_), 0.4) || next < 1) {
          final_phase_ = true;
          // Uniform draws from here on: each processor's pool again, from its stacks (the draws kept none).
          for (rank p = 0; p < n_; ++p) {
            pools_[p].items.clear();
            draws_->for_each_left(p, [&](std::uint32_t m) { pools_[p].add(m); });
          }
        } else {
          const double alpha = 1 / (4 * std::pow(1 - std::exp(-0.5), 2));
          const double length =
              alpha * opt_.beta * (1 + opt_.beta) / (1 - opt_.beta) * (next + std::log(static_cast<double>(n_)));
          phase_end_ = round_ + std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(length)));
        }
      }
    } else if (opt_.protocol == online_protocol::fifo_staged) {
      if (round_ == phase_end_ && !final_phase_) start_fifo_stage();
    }
  }

  void start_fifo_stage() {
    k_ = stage_ == 0 ? static_cast<double>(h_) : k_ * opt_.mu;
    ++stage_;
    if (k_ <= std::pow(static_cast<double>(h_), 0.4) || k_ < 1) {
      final_phase_ = true;  // the rest in any order, whenever not stalled
      schedule_.assign(n_, {});
      return;
    }
    const std::uint64_t length = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(opt_.K * k_)));
    phase_start_ = round_;
    phase_end_ = round_ + length;
    // Each processor draws distinct sending times in [0, length) for (up to length of) its unsent messages.
    schedule_.assign(n_, {});
    for (rank p = 0; p < n_; ++p) {
      std::vector<std::uint32_t> mine = pools_[p].items;
      std::shuffle(mine.begin(), mine.end(), random_);
      if (mine.size() > length) mine.resize(length);
      std::vector<std::uint64_t> times;
      if (length <= 4 * mine.size() + 16) {
        times.resize(length);
        std::iota(times.begin(), times.end(), std::uint64_t{0});
        std::shuffle(times.begin(), times.end(), random_);
        times.resize(mine.size());
      } else {
        std::vector<std::uint64_t> drawn;
        while (drawn.size() < mine.size()) {
          const std::uint64_t t = random_() % length;
          if (std::find(drawn.begin(), drawn.end(), t) == drawn.end()) drawn.push_back(t);
        }
        times = drawn;
      }
      for (std::size_t i = 0; i < mine.size(); ++i) schedule_[p].push_back({phase_start_ + times[i], mine[i]});
      std::sort(schedule_[p].begin(), schedule_[p].end());
      std::reverse(schedule_[p].begin(), schedule_[p].end());  // pop from the back in time order
    }
  }

  // Destination j with probability w_j = 1 − exp(−d_pj / h_{k−1}) (all scaled down if they sum above 1), drawn by
  // count, then uniformly among the destinations with that count (weighted_draws): its entry, or none.
  std::uint32_t weighted_place(rank p) {
    if (!draws_->any_left(p)) return weighted_draws::none;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double total = draws_->total(p);
    const double u = unit(random_) * std::max(total, 1.0);
    if (u >= total) return weighted_draws::none;
    return draws_->place(p, u, weight_by_count_);
  }

  std::uint32_t uniform_from(rank p) {
    const auto& items = pools_[p].items;
    return items[random_() % items.size()];
  }

  std::uint32_t choose(rank p) {
    if (pools_[p].items.empty()) return none;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    switch (opt_.protocol) {
      case online_protocol::ggt: {
        const double r = static_cast<double>(pools_[p].items.size());
        if (unit(random_) >= std::min(1.0, r / k_)) return none;
        return uniform_from(p);
      }
      case online_protocol::equal:
        return uniform_from(p);
      case online_protocol::weighted:  // (before the final phase: weighted_place)
        return uniform_from(p);
      case online_protocol::fifo_staged: {
        if (final_phase_) return stalled_[p] ? none : uniform_from(p);
        auto& mine = schedule_[p];
        if (mine.empty() || mine.back().first != round_) return none;
        const std::uint32_t m = mine.back().second;
        mine.pop_back();
        return stalled_[p] ? none : m;  // stalled at its time: deferred to the next stage (it stays in the pool)
      }
      case online_protocol::random_priority:
        return stalled_[p] ? none : pools_[p].items.back();  // the highest priority left
    }
    return none;
  }

  // ---- disciplines -----------------------------------------------------------------------------------------
  void deliver(std::uint32_t m, online_run& out) {
    if (opt_.keep_trace) out.trace.deliveries.push_back({round_, m});
    --remaining_;
    last_delivery_ = round_;
    delivered_any_ = true;
  }

  void resolve(const std::vector<std::uint32_t>& choice, online_run& out) {
    const auto& messages = in_.messages();
    const bool queued = opt_.discipline == contention::fifo || opt_.discipline == contention::priority;
    for (rank p = 0; p < n_; ++p) {
      if (choice[p] == none) continue;
      const std::uint32_t m = choice[p];
      std::uint64_t priority = 0;
      if (opt_.discipline == contention::priority)
        priority =
            opt_.protocol == online_protocol::random_priority ? priority_[m] : UINT64_MAX - round_;  // FIFO emulation
      if (opt_.keep_trace) out.trace.sends.push_back({round_, m, priority});
      ++out.transmissions;
      if (queued) {
        pools_[p].remove(m);
        stalled_[p] = 1;
        queues_[messages[m].dst].push_back({m, priority});
      } else {
        arrivals_[messages[m].dst].push_back(m);
        if (arrivals_[messages[m].dst].size() == 1) touched_.push_back(messages[m].dst);
      }
    }
    if (queued) {
      for (rank r = 0; r < n_; ++r) {
        auto& q = queues_[r];
        if (q.empty()) continue;
        std::size_t pick = 0;
        if (opt_.discipline == contention::priority)
          for (std::size_t i = 1; i < q.size(); ++i)
            if (q[i].second > q[pick].second) pick = i;
        const std::uint32_t m = q[pick].first;
        q.erase(q.begin() + static_cast<std::ptrdiff_t>(pick));
        stalled_[messages[m].src] = 0;
        deliver(m, out);
      }
      return;
    }
    for (rank r : touched_) {
      auto& a = arrivals_[r];
      std::uint32_t winner = none;
      if (a.size() == 1)
        winner = a[0];
      else if (opt_.discipline == contention::arbitrary)
        winner = a[random_() % a.size()];
      if (winner != none) {
        const rank from = messages[winner].src;
        if (draws_ && !final_phase_)  // (the pools wait for the final phase: weighted_draws keeps what is left)
          draws_->deliver(places_[from], from, weight_by_count_);
        else
          pools_[from].remove(winner);
        deliver(winner, out);
      }
      a.clear();
    }
    touched_.clear();
  }

  const online_instance& in_;
  const online_options& opt_;
  std::mt19937_64 random_;
  rank n_;
  std::uint64_t h_;
  std::vector<std::uint32_t> position_;
  std::vector<pool> pools_;
  std::vector<char> stalled_;
  std::vector<std::uint64_t> priority_;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> queues_;
  std::vector<std::vector<std::uint32_t>> arrivals_ = std::vector<std::vector<std::uint32_t>>(n_);
  std::vector<rank> touched_;
  std::vector<std::vector<std::pair<std::uint64_t, std::uint32_t>>> schedule_;
  std::optional<weighted_draws> draws_;  // weighted
  std::vector<std::uint32_t> places_;    // weighted: each processor's drawn entry in this round
  std::size_t remaining_ = 0;
  std::uint64_t round_ = 0, max_rounds_ = 0, phase_end_ = 0, phase_start_ = 0, last_delivery_ = 0, stage_ = 0;
  bool delivered_any_ = false, final_phase_ = false;
  double k_ = 0;
  std::vector<double> weight_by_count_;  // weighted: w(d) in this stage
};

}  // namespace

online_run simulate_online(const online_instance& instance, const online_options& options, std::uint64_t seed) {
  if (!runs_under(options.discipline, options.protocol))
    throw std::invalid_argument("protocol " + std::string(to_string(options.protocol)) + " does not run under the " +
                                std::string(to_string(options.discipline)) + " discipline");
  if (options.epsilon <= 0 || options.epsilon >= 1) throw std::invalid_argument("epsilon must be in (0, 1)");
  if (options.beta <= 0 || options.beta >= 1) throw std::invalid_argument("beta must be in (0, 1)");
  if (options.K <= 0 || options.mu <= 0 || options.mu >= 1) throw std::invalid_argument("need K > 0 and mu in (0, 1)");
  simulator s(instance, options, seed);
  return s.run();
}

}  // namespace dancecard::online
