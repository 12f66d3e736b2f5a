// MPI executors for dance all-gathers and h-relation schedules, with byte-for-byte verification.
#include "dancecard/mpi/execute.hpp"
#include "run_support.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <stdexcept>

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::hrel;
using namespace dancecard::torus;

namespace {

using detail_mpi::finish;
using detail_mpi::rank_of;
using detail_mpi::size_of;

constexpr int tag_block = 1, tag_piece = 2;

std::uint64_t checksum(const unsigned char* data, std::uint64_t n) {  // FNV-1a, 64 bit
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint64_t i = 0; i < n; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
  return h;
}

// A block: [origin][length][checksum] then `length` bytes of pattern(origin, ·).
std::vector<unsigned char> make_block(std::uint64_t origin, std::uint64_t bytes) {
  std::vector<unsigned char> b(24 + bytes);
  for (std::uint64_t i = 0; i < bytes; ++i) b[24 + i] = pattern_byte(origin, i);
  const std::uint64_t header[3] = {origin, bytes, checksum(b.data() + 24, bytes)};
  std::memcpy(b.data(), header, 24);
  return b;
}

std::string check_block(const std::vector<unsigned char>& b, std::uint64_t origin, std::uint64_t bytes) {
  if (b.size() != 24 + bytes) return "block of rank " + std::to_string(origin) + " missing";
  std::uint64_t header[3];
  std::memcpy(header, b.data(), 24);
  if (header[0] != origin)
    return "block expected from rank " + std::to_string(origin) + " is tagged " + std::to_string(header[0]);
  if (header[1] != bytes) return "block of rank " + std::to_string(origin) + " has the wrong length";
  if (header[2] != checksum(b.data() + 24, bytes))
    return "block of rank " + std::to_string(origin) + ": checksum mismatch";
  for (std::uint64_t i = 0; i < bytes; ++i)
    if (b[24 + i] != pattern_byte(origin, i))
      return "block of rank " + std::to_string(origin) + ": byte " + std::to_string(i) + " differs";
  return "";
}

}  // namespace

mpi_run_result mpi_run_allgather(const dance_schedule& schedule, MPI_Comm comm, std::uint64_t block_bytes,
                                 int corrupt_rank) {
  const int n = size_of(comm), me = rank_of(comm);
  if (static_cast<int>(schedule.people()) != n)
    throw std::invalid_argument("mpi_run_allgather: schedule size differs from the communicator's");
  std::vector<std::vector<unsigned char>> held(static_cast<std::size_t>(n));
  held[static_cast<std::size_t>(me)] = make_block(static_cast<std::uint64_t>(me), block_bytes);
  std::vector<unsigned char> sent = held[static_cast<std::size_t>(me)];
  if (me == corrupt_rank && block_bytes > 0) sent.back() ^= 0x5a;  // what goes out differs from what was checksummed
  const int count = static_cast<int>(24 + block_bytes);
  std::vector<double> rounds(schedule.rounds(), 0);
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  for (std::size_t r = 0; r < schedule.rounds(); ++r) {
    const double t0 = MPI_Wtime();
    int partner = -1;
    for (const couple& d : schedule.round(r)) {
      if (static_cast<int>(d.first) == me) partner = static_cast<int>(d.second);
      if (static_cast<int>(d.second) == me) partner = static_cast<int>(d.first);
    }
    if (partner >= 0) {
      auto& incoming = held[static_cast<std::size_t>(partner)];
      incoming.assign(static_cast<std::size_t>(count), 0);
      const auto& own = sent;
      if (me < partner) {  // Section 6: the lower rank sends first, with synchronous sends
        MPI_Ssend(own.data(), count, MPI_BYTE, partner, tag_block, comm);
        MPI_Recv(incoming.data(), count, MPI_BYTE, partner, tag_block, comm, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(incoming.data(), count, MPI_BYTE, partner, tag_block, comm, MPI_STATUS_IGNORE);
        MPI_Ssend(own.data(), count, MPI_BYTE, partner, tag_block, comm);
      }
    }
    rounds[r] = MPI_Wtime() - t0;
  }
  const double total = MPI_Wtime() - start;
  mpi_run_result out;
  out.verified = true;
  for (int o = 0; o < n && out.verified; ++o) {
    const std::string p = check_block(held[static_cast<std::size_t>(o)], static_cast<std::uint64_t>(o), block_bytes);
    if (!p.empty()) out.verified = false, out.problem = "rank " + std::to_string(me) + ": " + p;
  }
  finish(out, comm, rounds, total);
  return out;
}

mpi_run_result mpi_run_builtin_allgather(MPI_Comm comm, std::uint64_t block_bytes) {
  const int n = size_of(comm), me = rank_of(comm);
  const std::vector<unsigned char> own = make_block(static_cast<std::uint64_t>(me), block_bytes);
  std::vector<unsigned char> all(own.size() * static_cast<std::size_t>(n));
  std::vector<double> rounds(1, 0);
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  MPI_Allgather(own.data(), static_cast<int>(own.size()), MPI_BYTE, all.data(), static_cast<int>(own.size()), MPI_BYTE,
                comm);
  rounds[0] = MPI_Wtime() - start;
  mpi_run_result out;
  out.verified = true;
  for (int o = 0; o < n && out.verified; ++o) {
    std::vector<unsigned char> b(all.begin() + static_cast<std::ptrdiff_t>(o * own.size()),
                                 all.begin() + static_cast<std::ptrdiff_t>((o + 1) * own.size()));
    const std::string p = check_block(b, static_cast<std::uint64_t>(o), block_bytes);
    if (!p.empty()) out.verified = false, out.problem = "rank " + std::to_string(me) + ": " + p;
  }
  finish(out, comm, rounds, rounds[0]);
  return out;
}

namespace {

// A piece of a message in flight or held: bytes [offset, offset + length) of message `message`.
struct range {
  std::uint64_t message, offset, length;
};

std::uint64_t bytes_of(const rational& amount, std::uint64_t packet_bytes) {
  const rational b = amount * rational(static_cast<std::int64_t>(packet_bytes));
  if (b.denominator() != 1 || b.numerator() < 0)
    throw std::invalid_argument("mpi_run_hrel: amount " + amount.to_string() + " is not a whole number of bytes at " +
                                std::to_string(packet_bytes) + " bytes per packet");
  return static_cast<std::uint64_t>(b.numerator());
}

}  // namespace

mpi_run_result mpi_run_hrel(const hrel_instance& instance, const hrel_schedule& schedule, MPI_Comm comm,
                            std::uint64_t packet_bytes) {
  const int n = size_of(comm), me = rank_of(comm);
  if (static_cast<int>(instance.pes()) != n)
    throw std::invalid_argument("mpi_run_hrel: instance size differs from the communicator's");
  const auto& messages = instance.messages();
  // What this rank holds of each message, as ranges in arrival order (the source starts with the whole message).
  std::vector<std::deque<range>> held(messages.size());
  std::vector<std::vector<unsigned char>> content(messages.size());  // only at the destination: the assembled message
  for (std::size_t m = 0; m < messages.size(); ++m) {
    const std::uint64_t length = messages[m].packets * packet_bytes;
    if (static_cast<int>(messages[m].src) == me) held[m].push_back({m, 0, length});
    if (static_cast<int>(messages[m].dst) == me) content[m].assign(length, 0);
  }
  std::vector<std::uint64_t> delivered(messages.size(), 0);
  std::vector<double> rounds(schedule.slots.size(), 0);
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  for (std::size_t s = 0; s < schedule.slots.size(); ++s) {
    const double t0 = MPI_Wtime();
    std::vector<MPI_Request> requests;
    std::vector<std::vector<unsigned char>> out_buffers, in_buffers;
    std::vector<std::size_t> in_messages;
    for (const hrel_transfer& t : schedule.slots[s].transfers) {
      const std::uint64_t bytes = bytes_of(t.amount, packet_bytes);
      if (static_cast<int>(t.from) == me) {
        // Take `bytes` from the front of what is held; send the ranges (header) and their bytes.
        std::vector<range> ranges;
        std::uint64_t need = bytes;
        auto& q = held[t.message];
        while (need > 0) {
          if (q.empty())
            throw std::logic_error("mpi_run_hrel: rank " + std::to_string(me) + " sends data it does not hold");
          range& front = q.front();
          const std::uint64_t take = std::min(need, front.length);
          ranges.push_back({t.message, front.offset, take});
          front.offset += take, front.length -= take, need -= take;
          if (front.length == 0) q.pop_front();
        }
        std::vector<unsigned char> buffer(8 + ranges.size() * sizeof(range) + bytes);
        const std::uint64_t count = ranges.size();
        std::memcpy(buffer.data(), &count, 8);
        std::memcpy(buffer.data() + 8, ranges.data(), ranges.size() * sizeof(range));
        std::uint64_t at = 8 + ranges.size() * sizeof(range);
        for (const range& r : ranges)
          for (std::uint64_t i = 0; i < r.length; ++i) buffer[at++] = pattern_byte(r.message, r.offset + i);
        out_buffers.push_back(std::move(buffer));
        requests.emplace_back();
        MPI_Isend(out_buffers.back().data(), static_cast<int>(out_buffers.back().size()), MPI_BYTE,
                  static_cast<int>(t.to), tag_piece, comm, &requests.back());
      }
      if (static_cast<int>(t.to) == me) {
        // The header size is not known in advance: probe below, after the sends are posted.
        in_messages.push_back(t.from);
      }
    }
    // Receive one piece from each sender that targets this rank in this slot (the schedule lists them).
    for (std::size_t i = 0; i < in_messages.size(); ++i) {
      MPI_Status status;
      MPI_Probe(static_cast<int>(in_messages[i]), tag_piece, comm, &status);
      int count = 0;
      MPI_Get_count(&status, MPI_BYTE, &count);
      std::vector<unsigned char> buffer(static_cast<std::size_t>(count));
      MPI_Recv(buffer.data(), count, MPI_BYTE, status.MPI_SOURCE, tag_piece, comm, MPI_STATUS_IGNORE);
      in_buffers.push_back(std::move(buffer));
    }
    if (!requests.empty()) MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    // Unpack what arrived: ranges the rank now holds (a forwarder) or content (the destination).
    for (const auto& buffer : in_buffers) {
      std::uint64_t count = 0;
      std::memcpy(&count, buffer.data(), 8);
      std::vector<range> ranges(count);
      std::memcpy(ranges.data(), buffer.data() + 8, count * sizeof(range));
      std::uint64_t at = 8 + count * sizeof(range);
      for (const range& r : ranges) {
        if (r.message >= messages.size()) throw std::logic_error("mpi_run_hrel: a piece of an unknown message arrived");
        if (static_cast<int>(messages[r.message].dst) == me) {
          std::memcpy(content[r.message].data() + r.offset, buffer.data() + at, r.length);
          delivered[r.message] += r.length;
        } else {
          // A forwarder keeps the bytes' identity as ranges; the bytes themselves are regenerated when it sends on
          // only after checking them here.
          for (std::uint64_t i = 0; i < r.length; ++i)
            if (buffer[at + i] != pattern_byte(r.message, r.offset + i))
              throw std::runtime_error("mpi_run_hrel: rank " + std::to_string(me) +
                                       " received corrupted bytes of message " + std::to_string(r.message));
          held[r.message].push_back(r);
        }
        at += r.length;
      }
    }
    rounds[s] = MPI_Wtime() - t0;
  }
  const double total = MPI_Wtime() - start;
  mpi_run_result out;
  out.verified = true;
  for (std::size_t m = 0; m < messages.size() && out.verified; ++m) {
    if (static_cast<int>(messages[m].dst) != me) continue;
    const std::uint64_t length = messages[m].packets * packet_bytes;
    if (delivered[m] != length) {
      out.verified = false;
      out.problem = "rank " + std::to_string(me) + ": message " + std::to_string(m) + " has " +
                    std::to_string(delivered[m]) + " of " + std::to_string(length) + " bytes";
      break;
    }
    for (std::uint64_t i = 0; i < length; ++i)
      if (content[m][i] != pattern_byte(m, i)) {
        out.verified = false;
        out.problem =
            "rank " + std::to_string(me) + ": message " + std::to_string(m) + " byte " + std::to_string(i) + " differs";
        break;
      }
  }
  finish(out, comm, rounds, total);
  return out;
}

mpi_run_result mpi_run_builtin_alltoallv(const hrel_instance& instance, MPI_Comm comm, std::uint64_t packet_bytes) {
  const int n = size_of(comm), me = rank_of(comm);
  const auto& messages = instance.messages();
  std::vector<int> send_counts(static_cast<std::size_t>(n), 0), recv_counts(static_cast<std::size_t>(n), 0),
      send_displs(static_cast<std::size_t>(n), 0), recv_displs(static_cast<std::size_t>(n), 0);
  std::vector<std::size_t> to(static_cast<std::size_t>(n), SIZE_MAX), from(static_cast<std::size_t>(n), SIZE_MAX);
  for (std::size_t m = 0; m < messages.size(); ++m) {
    if (static_cast<int>(messages[m].src) == me)
      to[messages[m].dst] = m, send_counts[messages[m].dst] = static_cast<int>(messages[m].packets * packet_bytes);
    if (static_cast<int>(messages[m].dst) == me)
      from[messages[m].src] = m, recv_counts[messages[m].src] = static_cast<int>(messages[m].packets * packet_bytes);
  }
  for (int i = 1; i < n; ++i) {
    send_displs[static_cast<std::size_t>(i)] =
        send_displs[static_cast<std::size_t>(i - 1)] + send_counts[static_cast<std::size_t>(i - 1)];
    recv_displs[static_cast<std::size_t>(i)] =
        recv_displs[static_cast<std::size_t>(i - 1)] + recv_counts[static_cast<std::size_t>(i - 1)];
  }
  std::vector<unsigned char> send(static_cast<std::size_t>(send_displs.back() + send_counts.back())),
      recv(static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
  for (int d = 0; d < n; ++d)
    if (to[static_cast<std::size_t>(d)] != SIZE_MAX)
      for (int i = 0; i < send_counts[static_cast<std::size_t>(d)]; ++i)
        send[static_cast<std::size_t>(send_displs[static_cast<std::size_t>(d)] + i)] =
            pattern_byte(to[static_cast<std::size_t>(d)], static_cast<std::uint64_t>(i));
  std::vector<double> rounds(1, 0);
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_BYTE, recv.data(), recv_counts.data(),
                recv_displs.data(), MPI_BYTE, comm);
  rounds[0] = MPI_Wtime() - start;
  mpi_run_result out;
  out.verified = true;
  for (int s = 0; s < n && out.verified; ++s)
    if (from[static_cast<std::size_t>(s)] != SIZE_MAX)
      for (int i = 0; i < recv_counts[static_cast<std::size_t>(s)]; ++i)
        if (recv[static_cast<std::size_t>(recv_displs[static_cast<std::size_t>(s)] + i)] !=
            pattern_byte(from[static_cast<std::size_t>(s)], static_cast<std::uint64_t>(i))) {
          out.verified = false;
          out.problem =
              "rank " + std::to_string(me) + ": MPI_Alltoallv data from rank " + std::to_string(s) + " differs";
          break;
        }
  finish(out, comm, rounds, rounds[0]);
  return out;
}

mpi_run_result mpi_run_torus(const routing_table& table, MPI_Comm comm, std::uint64_t packet_bytes,
                             std::uint64_t max_steps) {
  const int n = size_of(comm);
  const torus::network& net = table.network;
  if (static_cast<pu_index>(n) != net.size())
    throw std::invalid_argument("mpi_run_torus: the torus has a different PU count");
  // The Cartesian communicator: coordinates in the torus's order (row-major, as torus::index), periodic.
  std::vector<int> dims(net.dims().begin(), net.dims().end()), periods(net.dims().size(), 1);
  MPI_Comm cart;
  MPI_Cart_create(comm, static_cast<int>(dims.size()), dims.data(), periods.data(), 0, &cart);
  int me = 0;
  MPI_Comm_rank(cart, &me);
  std::vector<int> coords(dims.size());
  MPI_Cart_coords(cart, me, static_cast<int>(dims.size()), coords.data());
  const pu_index pu = net.index(std::vector<std::uint32_t>(coords.begin(), coords.end()));
  const std::uint32_t ports = net.ports();
  std::vector<int> neighbour(ports);  // rank across each port
  for (std::uint32_t j = 0; j < net.dimension(); ++j) {
    int minus = 0, plus = 0;
    MPI_Cart_shift(cart, static_cast<int>(j), 1, &minus, &plus);
    neighbour[2 * j] = plus, neighbour[2 * j + 1] = minus;
  }
  const std::uint64_t total = static_cast<std::uint64_t>(net.size()) * table.packets;
  std::vector<std::vector<unsigned char>> held(total);  // packet id → its bytes (with a 16-byte header)
  auto make_packet = [&](std::uint64_t id) {
    std::vector<unsigned char> b(16 + packet_bytes);
    for (std::uint64_t i = 0; i < packet_bytes; ++i) b[16 + i] = pattern_byte(id, i);
    const std::uint64_t header[2] = {id, checksum(b.data() + 16, packet_bytes)};
    std::memcpy(b.data(), header, 16);
    return b;
  };
  std::uint64_t count = table.packets;
  for (std::uint32_t q = 0; q < table.packets; ++q)
    held[static_cast<std::uint64_t>(pu) * table.packets + q] =
        make_packet(static_cast<std::uint64_t>(pu) * table.packets + q);
  const int bytes = static_cast<int>(16 + packet_bytes);
  constexpr std::uint64_t none = UINT64_MAX;
  std::vector<std::uint64_t> sending(ports, none), arrived(ports, none);
  for (std::uint32_t o = 0; o < ports; ++o)
    if (table.inject_at(pu, o) != no_packet)
      sending[o] = static_cast<std::uint64_t>(pu) * table.packets + table.inject_at(pu, o);
  std::vector<std::uint32_t> rule(ports),
      lag(ports, 1);  // the in-port each out-port forwards, and from how many steps back
  for (std::uint32_t o = 0; o < ports; ++o) rule[o] = table.forward_at(pu, o);
  std::vector<port_switch> mine;
  for (const port_switch& w : table.switches)
    if (w.pu == pu && w.port < ports) mine.push_back(w);
  std::sort(mine.begin(), mine.end(), [](const port_switch& a, const port_switch& b) { return a.step < b.step; });
  // earlier[d − 1]: what arrived d steps before the latest step, as far back as this rank's longest delay needs
  std::uint32_t longest_delay = 1;
  for (const port_switch& w : mine) longest_delay = std::max(longest_delay, w.delay);
  std::vector<std::vector<std::uint64_t>> earlier(longest_delay - 1, std::vector<std::uint64_t>(ports, none));
  std::size_t next_switch = 0;
  std::vector<std::vector<unsigned char>> in(ports, std::vector<unsigned char>(static_cast<std::size_t>(bytes)));
  std::vector<unsigned char> empty(static_cast<std::size_t>(bytes), 0xff);
  std::vector<double> rounds;
  mpi_run_result out;
  out.verified = true;
  MPI_Barrier(cart);
  const double start = MPI_Wtime();
  for (std::uint64_t step = 0; step < max_steps; ++step) {
    int mine_done = count == total ? 1 : 0, all_done = 0;
    MPI_Allreduce(&mine_done, &all_done, 1, MPI_INT, MPI_MIN, cart);
    if (all_done) break;
    const double t0 = MPI_Wtime();
    // One exchange per link: every port sends (a packet, or an "empty" marker) and receives from its neighbour.
    std::vector<MPI_Request> requests(2 * ports);
    for (std::uint32_t p = 0; p < ports; ++p)
      MPI_Irecv(in[p].data(), bytes, MPI_BYTE, neighbour[p], static_cast<int>(torus::network::opposite(p)), cart,
                &requests[p]);
    for (std::uint32_t o = 0; o < ports; ++o) {
      const unsigned char* data = sending[o] == none ? empty.data() : held[sending[o]].data();
      MPI_Isend(data, bytes, MPI_BYTE, neighbour[o], static_cast<int>(o), cart, &requests[ports + o]);
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    if (!earlier.empty()) {
      std::rotate(earlier.rbegin(), earlier.rbegin() + 1, earlier.rend());
      earlier.front() = arrived;
    }
    for (std::uint32_t p = 0; p < ports; ++p) {
      arrived[p] = none;
      if (in[p] == empty) continue;
      std::uint64_t header[2];
      std::memcpy(header, in[p].data(), 16);
      if (header[0] >= total || header[1] != checksum(in[p].data() + 16, packet_bytes)) {
        out.verified = false;
        out.problem = "rank " + std::to_string(me) + ": a corrupted packet arrived in step " + std::to_string(step + 1);
        continue;
      }
      arrived[p] = header[0];
      if (held[header[0]].empty()) held[header[0]] = in[p], ++count;
    }
    // switches (Section 3.2's switching strategy) that start with the next step, step + 2
    for (; next_switch < mine.size() && mine[next_switch].step <= step + 2; ++next_switch) {
      rule[mine[next_switch].port] = mine[next_switch].in_port;
      lag[mine[next_switch].port] = mine[next_switch].delay;
    }
    for (std::uint32_t o = 0; o < ports; ++o) {
      const std::uint32_t from = rule[o];
      sending[o] = from == no_port || from >= ports ? none : (lag[o] <= 1 ? arrived : earlier[lag[o] - 2])[from];
    }
    rounds.push_back(MPI_Wtime() - t0);
  }
  const double elapsed = MPI_Wtime() - start;
  for (std::uint64_t id = 0; id < total && out.verified; ++id) {
    if (held[id].empty()) {
      out.verified = false;
      out.problem =
          "rank " + std::to_string(me) + " (PU " + std::to_string(pu) + ") never received packet " + std::to_string(id);
      break;
    }
    for (std::uint64_t i = 0; i < packet_bytes; ++i)
      if (held[id][16 + i] != pattern_byte(id, i)) {
        out.verified = false;
        out.problem =
            "rank " + std::to_string(me) + ": packet " + std::to_string(id) + " byte " + std::to_string(i) + " differs";
        break;
      }
  }
  // Every rank ran the same number of steps (the loop ends on a collective decision).
  finish(out, cart, rounds, elapsed);
  MPI_Comm_free(&cart);
  return out;
}

}  // namespace dancecard
