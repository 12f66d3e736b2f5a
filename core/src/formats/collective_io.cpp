// Reading and writing "dancecard.collective/1" (see the header).
#include "dancecard/formats/collective_io.hpp"

#include <ostream>
#include <stdexcept>

#include "json_support.hpp"

namespace dancecard::collective {

namespace {

using dancecard::detail::json;

// The most transfers a file may hold: a guard against allocating for a typo (a 1,024-rank ring all-gather has about a
// million).
constexpr std::uint64_t max_transfers = std::uint64_t{1} << 27;

std::string str(const json& v, const std::string& place) {
  if (!v.is_string()) throw format_error(place, "expected a string, got " + dancecard::detail::excerpt(v));
  return v.get<std::string>();
}

topology read_topology(const json& v) {
  if (v.is_string()) {
    const std::string spec = v.get<std::string>();
    std::optional<topology> found;
    try {
      found = builtin_topology(spec);
    } catch (const std::invalid_argument& e) {
      throw format_error("topology", e.what());
    }
    if (!found)
      throw format_error("topology",
                         "unknown topology " + dancecard::detail::excerpt(v) +
                             " (complete:N, ring:N, torus:AxB..., hypercube:D, dgx1, or an object with links)");
    return *found;
  }
  if (!v.is_object())
    throw format_error("topology", "expected a name or an object, got " + dancecard::detail::excerpt(v));
  dancecard::detail::only_keys(v, "topology", {"name", "ranks", "links"});
  if (!v.contains("ranks")) throw format_error("topology.ranks", "missing");
  if (!v.contains("links")) throw format_error("topology.links", "missing");
  const std::uint64_t ranks = dancecard::detail::unsigned_at(v["ranks"], "topology.ranks", 1);
  if (ranks > (std::uint64_t{1} << 20)) throw format_error("topology.ranks", "at most 1048576 ranks");
  const json& links = v["links"];
  if (!links.is_array())
    throw format_error("topology.links", "expected an array, got " + dancecard::detail::excerpt(links));
  std::vector<link> out;
  out.reserve(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string place = "topology.links[" + std::to_string(i) + "]";
    const json& l = links[i];
    if (!l.is_array() || l.size() != 3)
      throw format_error(place, "expected [from, to, capacity], got " + dancecard::detail::excerpt(l));
    const std::uint64_t from = dancecard::detail::unsigned_at(l[0], place + "[0]", 0),
                        to = dancecard::detail::unsigned_at(l[1], place + "[1]", 0);
    const std::uint64_t capacity = dancecard::detail::unsigned_at(l[2], place + "[2]", 1);
    if (from >= ranks || to >= ranks)
      throw format_error(place, "rank " + std::to_string(std::max(from, to)) + " is out of range for " +
                                    std::to_string(ranks) + " ranks");
    if (capacity > (std::uint64_t{1} << 20)) throw format_error(place + "[2]", "capacity at most 1048576");
    out.push_back({static_cast<rank>(from), static_cast<rank>(to), static_cast<std::uint32_t>(capacity)});
  }
  const std::string name = v.contains("name") ? str(v["name"], "topology.name") : "custom";
  try {
    return topology(name, static_cast<rank>(ranks), std::move(out));
  } catch (const std::invalid_argument& e) {
    throw format_error("topology.links", e.what());
  }
}

// Whether the network is the built-in topology its name names (then the name alone is written).
bool builtin_topology_name(const topology& network) {
  try {
    const std::optional<topology> named = builtin_topology(network.name());
    return named && named->size() == network.size() && named->links() == network.links();
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// An alltoallv's "counts": n rows of n chunk counts, row s for what rank s sends.
collective read_counts(const json& c, rank n) {
  if (c.contains("chunks") || c.contains("root"))
    throw format_error("collective", "an alltoallv has counts, not chunks or a root");
  if (!c.contains("counts")) throw format_error("collective.counts", "missing (n rows of n chunk counts)");
  if (n > 4096) throw format_error("collective.ranks", "an alltoallv of at most 4096 ranks");
  const json& rows = c["counts"];
  if (!rows.is_array() || rows.size() != n)
    throw format_error("collective.counts",
                       "expected " + std::to_string(n) + " rows, got " + dancecard::detail::excerpt(rows));
  std::vector<std::uint64_t> counts;
  counts.reserve(std::size_t{n} * n);
  std::uint64_t total = 0;
  for (rank s = 0; s < n; ++s) {
    const std::string place = "collective.counts[" + std::to_string(s) + "]";
    const json& row = rows[s];
    if (!row.is_array() || row.size() != n)
      throw format_error(place, "expected " + std::to_string(n) + " counts, got " + dancecard::detail::excerpt(row));
    for (rank d = 0; d < n; ++d) {
      const std::uint64_t k = dancecard::detail::unsigned_at(row[d], place + "[" + std::to_string(d) + "]", 0);
      total += std::min<std::uint64_t>(k, std::uint64_t{1} << 33);
      if (total > (std::uint64_t{1} << 32))
        throw format_error(place + "[" + std::to_string(d) + "]", "more than 2^32 chunks in all");
      counts.push_back(k);
    }
  }
  return alltoallv_collective(n, counts);
}

}  // namespace

topology read_topology(std::string_view text) {
  json doc = dancecard::detail::parse_document(text, topology_format_name, {"format", "name", "ranks", "links"});
  doc.erase("format");
  return read_topology(doc);
}

void write_topology(std::ostream& out, const topology& network) {
  json links = json::array();
  for (const link& l : network.links()) links.push_back({l.from, l.to, l.capacity});
  out << json{{"format", topology_format_name}, {"name", network.name()}, {"ranks", network.size()}, {"links", links}}
             .dump()
      << "\n";
}

schedule read_collective_schedule(std::string_view text) {
  const json doc = dancecard::detail::parse_document(
      text, collective_format_name, {"format", "topology", "ports", "collective", "algorithm", "steps", "comment"});
  schedule out;
  if (!doc.contains("topology")) throw format_error("topology", "missing");
  out.network = read_topology(doc["topology"]);
  if (doc.contains("ports")) {
    const std::string ports = str(doc["ports"], "ports");
    const std::optional<port_model> model = parse_port_model(ports);
    if (!model)
      throw format_error("ports",
                         "expected all-port, one-port-full-duplex, one-port-half-duplex or one-port-simplex, got " +
                             dancecard::detail::excerpt(doc["ports"]));
    out.ports = *model;
  }
  if (!doc.contains("collective")) throw format_error("collective", "missing");
  const json& c = doc["collective"];
  if (!c.is_object()) throw format_error("collective", "expected an object, got " + dancecard::detail::excerpt(c));
  dancecard::detail::only_keys(c, "collective", {"kind", "ranks", "chunks", "root", "counts"});
  if (!c.contains("kind")) throw format_error("collective.kind", "missing");
  const std::optional<collective_kind> kind = parse_collective_kind(str(c["kind"], "collective.kind"));
  if (!kind)
    throw format_error("collective.kind",
                       "expected allgather, alltoall, broadcast, gather, scatter, reduce, reduce-scatter, "
                       "allreduce or alltoallv, got " +
                           dancecard::detail::excerpt(c["kind"]));
  out.coll.kind = *kind;
  out.coll.ranks = c.contains("ranks")
                       ? static_cast<rank>(std::min<std::uint64_t>(
                             dancecard::detail::unsigned_at(c["ranks"], "collective.ranks", 1), rank{1} << 21))
                       : out.network.size();
  if (out.coll.ranks != out.network.size())
    throw format_error("collective.ranks", std::to_string(out.coll.ranks) + " ranks, but the topology " +
                                               out.network.name() + " has " + std::to_string(out.network.size()));
  if (c.contains("chunks")) {
    const std::uint64_t chunks = dancecard::detail::unsigned_at(c["chunks"], "collective.chunks", 1);
    if (chunks > (std::uint64_t{1} << 20)) throw format_error("collective.chunks", "at most 1048576 chunks per rank");
    out.coll.chunks = static_cast<std::uint32_t>(chunks);
  }
  if (c.contains("root")) {
    const std::uint64_t root = dancecard::detail::unsigned_at(c["root"], "collective.root", 0);
    if (root >= out.coll.ranks)
      throw format_error("collective.root", "rank " + std::to_string(root) + " is out of range");
    out.coll.root = static_cast<rank>(root);
  }
  if (*kind == collective_kind::alltoallv)
    out.coll = read_counts(c, out.coll.ranks);
  else if (c.contains("counts"))
    throw format_error("collective.counts", "counts belong to an alltoallv only");
  try {
    require_valid(out.coll);
  } catch (const std::invalid_argument& e) {
    throw format_error("collective", e.what());
  }
  if (doc.contains("algorithm")) out.algorithm = str(doc["algorithm"], "algorithm");
  if (!doc.contains("steps")) throw format_error("steps", "missing");
  const json& steps = doc["steps"];
  if (!steps.is_array()) throw format_error("steps", "expected an array, got " + dancecard::detail::excerpt(steps));
  const std::uint64_t K = out.coll.chunk_count();
  std::uint64_t total = 0;
  out.steps.reserve(steps.size());
  for (std::size_t si = 0; si < steps.size(); ++si) {
    const std::string place = "steps[" + std::to_string(si) + "]";
    const json& s = steps[si];
    if (!s.is_object()) throw format_error(place, "expected an object, got " + dancecard::detail::excerpt(s));
    dancecard::detail::only_keys(s, place, {"rounds", "transfers"});
    step st;
    if (s.contains("rounds")) {
      const std::uint64_t rounds = dancecard::detail::unsigned_at(s["rounds"], place + ".rounds", 1);
      if (rounds > (std::uint64_t{1} << 30)) throw format_error(place + ".rounds", "at most 2^30 rounds in one step");
      st.rounds = static_cast<std::uint32_t>(rounds);
    }
    if (!s.contains("transfers")) throw format_error(place + ".transfers", "missing");
    const json& ts = s["transfers"];
    if (!ts.is_array())
      throw format_error(place + ".transfers", "expected an array, got " + dancecard::detail::excerpt(ts));
    total += ts.size();
    if (total > max_transfers) throw format_error(place + ".transfers", "more than 2^27 transfers in all");
    st.transfers.reserve(ts.size());
    for (std::size_t ti = 0; ti < ts.size(); ++ti) {
      const std::string tplace = place + ".transfers[" + std::to_string(ti) + "]";
      const json& t = ts[ti];
      if (!t.is_array() || t.size() < 3 || t.size() > 4)
        throw format_error(tplace, "expected [chunk, from, to] or [chunk, from, to, \"reduce\"], got " +
                                       dancecard::detail::excerpt(t));
      const std::uint64_t chunk = dancecard::detail::unsigned_at(t[0], tplace + "[0]", 0);
      const std::uint64_t from = dancecard::detail::unsigned_at(t[1], tplace + "[1]", 0),
                          to = dancecard::detail::unsigned_at(t[2], tplace + "[2]", 0);
      if (chunk >= K)
        throw format_error(tplace + "[0]",
                           "chunk " + std::to_string(chunk) + " is out of range (" + std::to_string(K) + " chunks)");
      if (from >= out.coll.ranks)
        throw format_error(tplace + "[1]", "rank " + std::to_string(from) + " is out of range");
      if (to >= out.coll.ranks) throw format_error(tplace + "[2]", "rank " + std::to_string(to) + " is out of range");
      transfer_op op = transfer_op::copy;
      if (t.size() == 4) {
        const std::optional<transfer_op> named = parse_transfer_op(str(t[3], tplace + "[3]"));
        if (!named)
          throw format_error(tplace + "[3]",
                             "expected \"copy\", \"reduce\" or \"move\", got " + dancecard::detail::excerpt(t[3]));
        op = *named;
      }
      st.transfers.push_back({chunk, static_cast<rank>(from), static_cast<rank>(to), op});
    }
    out.steps.push_back(std::move(st));
  }
  return out;
}

void write_collective_schedule(std::ostream& out, const schedule& s) {
  out << "{\"format\": \"" << collective_format_name << "\", \"topology\": ";
  if (builtin_topology_name(s.network)) {
    out << json(s.network.name()).dump();
  } else {
    out << "{\"name\": " << json(s.network.name()).dump() << ", \"ranks\": " << s.network.size() << ", \"links\": [";
    for (std::size_t i = 0; i < s.network.links().size(); ++i) {
      const link& l = s.network.links()[i];
      out << (i ? ", " : "") << "[" << l.from << ", " << l.to << ", " << l.capacity << "]";
    }
    out << "]}";
  }
  out << ",\n \"ports\": \"" << to_string(s.ports) << "\", \"collective\": {\"kind\": \"" << to_string(s.coll.kind)
      << "\", \"ranks\": " << s.coll.ranks;
  if (s.coll.kind == collective_kind::alltoallv) {
    out << ", \"counts\": [";
    for (rank src = 0; src < s.coll.ranks; ++src) {
      out << (src ? ", [" : "[");
      for (rank dst = 0; dst < s.coll.ranks; ++dst) out << (dst ? ", " : "") << s.coll.block_chunks(src, dst);
      out << "]";
    }
    out << "]}";
  } else {
    out << ", \"chunks\": " << s.coll.chunks << ", \"root\": " << s.coll.root << "}";
  }
  if (!s.algorithm.empty()) out << ", \"algorithm\": " << json(s.algorithm).dump();
  out << ",\n \"steps\": [";
  for (std::size_t si = 0; si < s.steps.size(); ++si) {
    out << (si ? ",\n  " : "\n  ") << "{\"rounds\": " << s.steps[si].rounds << ", \"transfers\": [";
    const auto& ts = s.steps[si].transfers;
    for (std::size_t ti = 0; ti < ts.size(); ++ti) {
      const transfer& t = ts[ti];
      out << (ti ? ", " : "") << "[" << t.chunk << ", " << t.from << ", " << t.to;
      if (t.op != transfer_op::copy) out << ", \"" << to_string(t.op) << "\"";
      out << "]";
    }
    out << "]}";
  }
  out << "]}\n";
}

}  // namespace dancecard::collective
