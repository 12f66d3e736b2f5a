// Replay of on-line h-relation traces, round by round, with integer state only.
#include "dancecard/checkers/online_trace_check.hpp"

#include <algorithm>
#include <map>

namespace dancecard::online {

std::string_view to_string(online_violation_kind kind) {
  switch (kind) {
    case online_violation_kind::bad_reference:
      return "bad_reference";
    case online_violation_kind::out_of_order:
      return "out_of_order";
    case online_violation_kind::sends_twice:
      return "sends_twice";
    case online_violation_kind::receives_twice:
      return "receives_twice";
    case online_violation_kind::sent_after_delivery:
      return "sent_after_delivery";
    case online_violation_kind::delivered_unsent:
      return "delivered_unsent";
    case online_violation_kind::collision_delivered:
      return "collision_delivered";
    case online_violation_kind::collision_lost:
      return "collision_lost";
    case online_violation_kind::stalled_send:
      return "stalled_send";
    case online_violation_kind::sent_twice:
      return "sent_twice";
    case online_violation_kind::queue_order:
      return "queue_order";
    case online_violation_kind::idle_receiver:
      return "idle_receiver";
    case online_violation_kind::not_delivered:
      return "not_delivered";
    case online_violation_kind::delivered_twice:
      return "delivered_twice";
  }
  return "?";
}

std::string describe(const online_violation& v) {
  return std::string(to_string(v.kind)) + ": round " + std::to_string(v.round) + ", message " +
         std::to_string(v.message) + ", processor " + std::to_string(v.processor);
}

std::string describe(const online_trace_report& report) {
  return describe_report<online_violation_kind>(report, report.count_by_kind);
}

online_trace_report check_online_trace(const online_instance& instance, const online_trace& trace,
                                       std::size_t max_witnesses) {
  online_trace_report out;
  const auto& messages = instance.messages();
  const rank n = instance.processors();
  out.checked = "trace under " + std::string(to_string(trace.discipline)) + ": " + std::to_string(trace.sends.size()) +
                " sends, " + std::to_string(trace.deliveries.size()) + " deliveries of " +
                std::to_string(messages.size()) + " messages on " + std::to_string(n) + " processors";
  auto add = [&](online_violation_kind k, std::uint64_t round, std::uint32_t m, rank p) {
    ++out.count_by_kind[static_cast<std::size_t>(k)];
    out.add({k, round, m, p}, max_witnesses);
  };
  for (std::size_t i = 0; i < trace.sends.size(); ++i) {
    if (trace.sends[i].message >= messages.size())
      return add(online_violation_kind::bad_reference, trace.sends[i].round, trace.sends[i].message, 0), out;
    if (i > 0 && trace.sends[i].round < trace.sends[i - 1].round)
      add(online_violation_kind::out_of_order, trace.sends[i].round, trace.sends[i].message, 0);
  }
  for (std::size_t i = 0; i < trace.deliveries.size(); ++i) {
    if (trace.deliveries[i].message >= messages.size())
      return add(online_violation_kind::bad_reference, trace.deliveries[i].round, trace.deliveries[i].message, 0), out;
    if (i > 0 && trace.deliveries[i].round < trace.deliveries[i - 1].round)
      add(online_violation_kind::out_of_order, trace.deliveries[i].round, trace.deliveries[i].message, 0);
  }
  if (!out.holds()) return out;

  const bool queued = trace.discipline == contention::fifo || trace.discipline == contention::priority;
  std::vector<std::uint64_t> delivered_in(messages.size(), UINT64_MAX);  // round, or UINT64_MAX
  std::vector<char> was_sent(messages.size(), 0);
  std::vector<std::uint64_t> sent_round(messages.size(), 0), priority(messages.size(), 0);
  std::vector<std::uint32_t> waiting(n, UINT32_MAX);  // fifo/priority: the message a sender has in a queue
  std::vector<std::vector<std::uint32_t>> queue(n);   // fifo/priority: messages queued at each receiver
  std::vector<std::uint64_t> last_send(n, UINT64_MAX), last_receive(n, UINT64_MAX);
  std::size_t s = 0, d = 0;
  std::map<rank, std::vector<std::uint32_t>> arrivals;  // ocpc/arbitrary: per destination, this round
  std::uint64_t previous_round = UINT64_MAX;
  while (s < trace.sends.size() || d < trace.deliveries.size()) {
    const std::uint64_t round = std::min(s < trace.sends.size() ? trace.sends[s].round : UINT64_MAX,
                                         d < trace.deliveries.size() ? trace.deliveries[d].round : UINT64_MAX);
    if (queued && round > previous_round + 1 && previous_round != UINT64_MAX)
      for (rank r = 0; r < n; ++r)  // a round without events while a queue waits: that receiver idled
        if (!queue[r].empty()) add(online_violation_kind::idle_receiver, previous_round + 1, queue[r].front(), r);
    previous_round = round;
    arrivals.clear();
    for (; s < trace.sends.size() && trace.sends[s].round == round; ++s) {
      const std::uint32_t m = trace.sends[s].message;
      const rank p = messages[m].src;
      if (last_send[p] == round) add(online_violation_kind::sends_twice, round, m, p);
      last_send[p] = round;
      if (delivered_in[m] != UINT64_MAX) add(online_violation_kind::sent_after_delivery, round, m, p);
      if (queued) {
        if (was_sent[m]) add(online_violation_kind::sent_twice, round, m, p);
        if (waiting[p] != UINT32_MAX) add(online_violation_kind::stalled_send, round, m, p);
        waiting[p] = m;
        queue[messages[m].dst].push_back(m);
      } else {
        arrivals[messages[m].dst].push_back(m);
      }
      was_sent[m] = 1;
      sent_round[m] = round;
      priority[m] = trace.sends[s].priority;
    }
    std::vector<char> took(n, 0);
    for (; d < trace.deliveries.size() && trace.deliveries[d].round == round; ++d) {
      const std::uint32_t m = trace.deliveries[d].message;
      const rank r = messages[m].dst;
      if (delivered_in[m] != UINT64_MAX) {
        add(online_violation_kind::delivered_twice, round, m, r);
        continue;
      }
      if (last_receive[r] == round) add(online_violation_kind::receives_twice, round, m, r);
      last_receive[r] = round;
      took[r] = 1;
      delivered_in[m] = round;
      out.rounds = round + 1;
      if (queued) {
        auto& q = queue[r];
        std::size_t at = q.size();
        for (std::size_t i = 0; i < q.size(); ++i)
          if (q[i] == m) at = i;
        if (at == q.size()) {
          add(online_violation_kind::delivered_unsent, round, m, r);
          continue;
        }
        for (std::uint32_t other : q) {
          const bool better =
              trace.discipline == contention::fifo ? sent_round[other] < sent_round[m] : priority[other] > priority[m];
          if (better) {
            add(online_violation_kind::queue_order, round, m, r);
            break;
          }
        }
        q.erase(q.begin() + static_cast<std::ptrdiff_t>(at));
        if (waiting[messages[m].src] == m) waiting[messages[m].src] = UINT32_MAX;
      } else {
        const auto it = arrivals.find(r);
        const bool sent_here =
            it != arrivals.end() && std::find(it->second.begin(), it->second.end(), m) != it->second.end();
        if (!sent_here) {
          add(online_violation_kind::delivered_unsent, round, m, r);
          continue;
        }
        if (trace.discipline == contention::ocpc && it->second.size() > 1)
          add(online_violation_kind::collision_delivered, round, m, r);
      }
    }
    if (queued) {
      for (rank r = 0; r < n; ++r)
        if (!queue[r].empty() && !took[r]) add(online_violation_kind::idle_receiver, round, queue[r].front(), r);
    } else {
      for (const auto& [r, arrived] : arrivals) {
        const bool alone = arrived.size() == 1;
        if (took[r]) continue;
        if (trace.discipline == contention::ocpc ? alone : true)
          add(online_violation_kind::collision_lost, round, arrived.front(), r);
      }
    }
  }
  for (std::uint32_t m = 0; m < messages.size(); ++m)
    if (delivered_in[m] == UINT64_MAX) add(online_violation_kind::not_delivered, out.rounds, m, messages[m].dst);
  return out;
}

}  // namespace dancecard::online
