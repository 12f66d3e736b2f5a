// The dance-party and MPI pairwise models as collective schedules (see the header).
#include "dancecard/core/collective/adapters.hpp"

namespace dancecard::collective {

schedule from_dance(const dance_schedule& dances) {
  const rank n = dances.people();
  schedule out{
      complete_topology(n), port_model::one_port_half_duplex, {collective_kind::alltoall, n, 1, 0}, {}, "dance"};
  out.steps.reserve(dances.rounds());
  for (std::size_t r = 0; r < dances.rounds(); ++r) {
    step& s = out.steps.emplace_back();
    for (const dance& d : dances.round(r)) {
      s.transfers.push_back({std::uint64_t{d.first} * n + d.second, d.first, d.second, transfer_op::copy});
      s.transfers.push_back({std::uint64_t{d.second} * n + d.first, d.second, d.first, transfer_op::copy});
    }
  }
  return out;
}

schedule from_directed(const directed_schedule& transfers) {
  const rank n = transfers.people();
  schedule out{
      complete_topology(n), port_model::one_port_full_duplex, {collective_kind::alltoall, n, 1, 0}, {}, "directed"};
  out.steps.reserve(transfers.rounds());
  for (std::size_t r = 0; r < transfers.rounds(); ++r) {
    step& s = out.steps.emplace_back();
    for (const dancecard::transfer& t : transfers.round(r))
      s.transfers.push_back({std::uint64_t{t.from} * n + t.to, t.from, t.to, transfer_op::copy});
  }
  return out;
}

}  // namespace dancecard::collective
