// Checker for full-duplex directed schedules (all-to-all personalized exchange).
#include "dancecard/checkers/directed_check.hpp"

#include <sstream>
#include <vector>

namespace dancecard::dance {

std::string_view to_string(directed_violation_kind kind) {
  switch (kind) {
    case directed_violation_kind::ordered_pair_missing:
      return "ordered_pair_missing";
    case directed_violation_kind::ordered_pair_repeated:
      return "ordered_pair_repeated";
    case directed_violation_kind::sends_twice:
      return "sends_twice";
    case directed_violation_kind::receives_twice:
      return "receives_twice";
    case directed_violation_kind::self_transfer:
      return "self_transfer";
  }
  return "?";
}

std::string describe(const directed_violation& v) {
  std::ostringstream s;
  s << to_string(v.kind) << ": ";
  switch (v.kind) {
    case directed_violation_kind::ordered_pair_missing:
      s << v.a << " never sends to " << v.b;
      break;
    case directed_violation_kind::ordered_pair_repeated:
      s << v.a << " sends to " << v.b << " in round " << v.other_round << " and again in round " << v.round;
      break;
    case directed_violation_kind::sends_twice:
      s << v.a << " sends to both " << v.b << " and " << v.c << " in round " << v.round;
      break;
    case directed_violation_kind::receives_twice:
      s << v.a << " receives from both " << v.b << " and " << v.c << " in round " << v.round;
      break;
    case directed_violation_kind::self_transfer:
      s << v.a << " sends to itself in round " << v.round;
      break;
  }
  return s.str();
}

directed_report check_directed_schedule(const directed_schedule& schedule, std::size_t max_witnesses) {
  directed_report out;
  const rank n = schedule.people();
  out.checked = "full-duplex rounds and every ordered pair once, for n = " + std::to_string(n) + " over " +
                std::to_string(schedule.rounds()) + " rounds (" + std::to_string(schedule.transfer_count()) +
                " transfers; ranks and rounds numbered from 0)";
  auto add = [&](directed_violation v) {
    ++out.count_by_kind[static_cast<std::size_t>(v.kind)];
    out.add(v, max_witnesses);
  };
  // first_round[i * n + j] = round + 1 of i's first transfer to j (0: none yet).
  std::vector<std::uint32_t> first_round(static_cast<std::size_t>(n) * n, 0);
  std::vector<std::size_t> send_stamp(n, 0), receive_stamp(n, 0);
  std::vector<rank> sent_to(n, 0), received_from(n, 0);
  for (std::size_t r = 0; r < schedule.rounds(); ++r) {
    for (transfer t : schedule.round(r)) {
      if (t.from == t.to) {
        add({directed_violation_kind::self_transfer, t.from, t.to, 0, r, 0});
        continue;
      }
      if (send_stamp[t.from] == r + 1) add({directed_violation_kind::sends_twice, t.from, sent_to[t.from], t.to, r, 0});
      if (receive_stamp[t.to] == r + 1)
        add({directed_violation_kind::receives_twice, t.to, received_from[t.to], t.from, r, 0});
      send_stamp[t.from] = receive_stamp[t.to] = r + 1;
      sent_to[t.from] = t.to;
      received_from[t.to] = t.from;
      std::uint32_t& first = first_round[static_cast<std::size_t>(t.from) * n + t.to];
      if (first != 0)
        add({directed_violation_kind::ordered_pair_repeated, t.from, t.to, 0, r, first - 1});
      else
        first = static_cast<std::uint32_t>(r + 1);
    }
  }
  for (rank i = 0; i < n; ++i)
    for (rank j = 0; j < n; ++j)
      if (i != j && first_round[static_cast<std::size_t>(i) * n + j] == 0)
        add({directed_violation_kind::ordered_pair_missing, i, j, 0, 0, 0});
  return out;
}

std::optional<checked_directed_schedule> checked_directed_schedule::accept(directed_schedule schedule,
                                                                           std::size_t max_rounds,
                                                                           directed_report* rejection) {
  directed_report r = check_directed_schedule(schedule);
  if (r.holds() && schedule.rounds() > max_rounds) {
    r.outcome = verdict::violated;
    r.checked +=
        "; but it has " + std::to_string(schedule.rounds()) + " rounds, more than " + std::to_string(max_rounds);
  }
  if (!r.holds()) {
    if (rejection) *rejection = std::move(r);
    return std::nullopt;
  }
  return checked_directed_schedule(std::move(schedule), std::move(r));
}

std::string describe(const directed_report& report) {
  return describe_report<directed_violation_kind>(report, report.count_by_kind);
}

}  // namespace dancecard::dance
