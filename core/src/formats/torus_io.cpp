// JSON reading and writing of torus routing tables.
#include "dancecard/formats/torus_io.hpp"

#include <algorithm>
#include <ostream>
#include <tuple>

#include "json_support.hpp"

namespace dancecard::torus {

std::uint64_t default_max_switch_step(std::uint64_t pus, std::uint64_t packets) { return 4 * pus * packets + 64; }

routing_table read_torus_routing(std::string_view text, std::uint64_t max_switch_step) {
  using dancecard::detail::json;
  const json doc = dancecard::detail::parse_document(
      text, torus_routing_format_name, {"format", "algorithm", "dims", "packets", "forward", "inject", "switches"});
  if (!doc.contains("dims") || !doc["dims"].is_array()) throw format_error("dims", "expected an array of sizes");
  std::vector<std::uint32_t> dims;
  for (std::size_t j = 0; j < doc["dims"].size(); ++j)
    dims.push_back(static_cast<std::uint32_t>(std::min<std::uint64_t>(
        dancecard::detail::unsigned_at(doc["dims"][j], "dims[" + std::to_string(j) + "]", 2), 1u << 24)));
  torus::network network = [&] {
    try {
      return torus::network(dims);
    } catch (const std::invalid_argument& e) {
      throw format_error("dims", e.what());
    }
  }();
  if (!doc.contains("packets")) throw format_error("packets", "missing");
  const std::uint64_t packets = dancecard::detail::unsigned_at(doc["packets"], "packets", 1);
  if (packets > 64) throw format_error("packets", "at most 64 packets per PU");
  const std::uint32_t ports = network.ports();
  routing_table t{network,
                  static_cast<std::uint32_t>(packets),
                  std::vector<std::uint32_t>(static_cast<std::size_t>(network.size()) * ports, no_port),
                  std::vector<std::uint32_t>(static_cast<std::size_t>(network.size()) * ports, no_packet),
                  {}};
  for (const char* key : {"forward", "inject"}) {
    if (!doc.contains(key) || !doc[key].is_array()) throw format_error(key, "expected one array per PU");
    const json& rows = doc[key];
    if (rows.size() != network.size())
      throw format_error(
          key, "expected " + std::to_string(network.size()) + " rows (one per PU), got " + std::to_string(rows.size()));
    const bool forward = std::string_view(key) == "forward";
    for (pu_index pu = 0; pu < network.size(); ++pu) {
      const std::string place = std::string(key) + "[" + std::to_string(pu) + "]";
      if (!rows[pu].is_array() || rows[pu].size() != ports)
        throw format_error(place, "expected " + std::to_string(ports) + " entries (one per out-port)");
      for (std::uint32_t o = 0; o < ports; ++o) {
        const json& v = rows[pu][o];
        if (v.is_null()) continue;
        const std::string at = place + "[" + std::to_string(o) + "]";
        const std::uint64_t value = dancecard::detail::unsigned_at(v, at, 0);
        if (forward && value >= ports)
          throw format_error(
              at, "in-port " + std::to_string(value) + " does not exist (ports 0.." + std::to_string(ports - 1) + ")");
        if (!forward && value >= packets)
          throw format_error(at, "packet " + std::to_string(value) + " does not exist (packets 0.." +
                                     std::to_string(packets - 1) + ")");
        (forward ? t.forward_at(pu, o) : t.inject_at(pu, o)) = static_cast<std::uint32_t>(value);
      }
    }
  }
  if (doc.contains("switches")) {
    const json& list = doc["switches"];
    if (!list.is_array())
      throw format_error("switches",
                         "expected an array of [pu, out-port, step, in-port] or [pu, out-port, step, in-port, delay]");
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string at = "switches[" + std::to_string(k) + "]";
      if (!list[k].is_array() || (list[k].size() != 4 && list[k].size() != 5))
        throw format_error(at, "expected [pu, out-port, step, in-port] or [pu, out-port, step, in-port, delay]");
      const std::uint64_t pu = dancecard::detail::unsigned_at(list[k][0], at + "[0]", 0),
                          port = dancecard::detail::unsigned_at(list[k][1], at + "[1]", 0);
      const std::uint64_t step = dancecard::detail::unsigned_at(list[k][2], at + "[2]", 2),
                          in = dancecard::detail::unsigned_at(list[k][3], at + "[3]", 0);
      const std::uint64_t latest =
          max_switch_step > 0 ? max_switch_step : default_max_switch_step(network.size(), packets);
      if (step > latest)
        throw format_error(
            at + "[2]",
            "step " + std::to_string(step) + " is later than " + std::to_string(latest) +
                (max_switch_step > 0 ? " (the limit given)"
                                     : " = 4·P·packets + 64, the latest switch read by default (simulate torus "
                                       "--max-switch-step N raises it)"));
      if (pu >= network.size())
        throw format_error(at + "[0]",
                           "PU " + std::to_string(pu) + " does not exist (" + std::to_string(network.size()) + " PUs)");
      if (port >= ports)
        throw format_error(at + "[1]", "out-port " + std::to_string(port) + " does not exist (ports 0.." +
                                           std::to_string(ports - 1) + ")");
      if (in >= ports)
        throw format_error(at + "[3]", "in-port " + std::to_string(in) + " does not exist (ports 0.." +
                                           std::to_string(ports - 1) + ")");
      std::uint64_t delay = 1;
      if (list[k].size() == 5) {
        delay = dancecard::detail::unsigned_at(list[k][4], at + "[4]", 1);
        if (delay > max_switch_delay)
          throw format_error(at + "[4]", "delay " + std::to_string(delay) + " is more than " +
                                             std::to_string(max_switch_delay) + " steps");
        if (step < delay + 1)
          throw format_error(at + "[2]", "a switch with delay " + std::to_string(delay) + " starts in step " +
                                             std::to_string(delay + 1) + " or later, got " + std::to_string(step));
      }
      t.switches.push_back({static_cast<pu_index>(pu), static_cast<std::uint32_t>(port), step,
                            static_cast<std::uint32_t>(in), static_cast<std::uint32_t>(delay)});
    }
    std::vector<std::size_t> order(t.switches.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    auto key = [&](std::size_t k) { return std::tie(t.switches[k].pu, t.switches[k].port, t.switches[k].step); };
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    for (std::size_t k = 1; k < order.size(); ++k)
      if (key(order[k - 1]) == key(order[k]))
        throw format_error("switches[" + std::to_string(std::max(order[k - 1], order[k])) + "]",
                           "a second switch of PU " + std::to_string(t.switches[order[k]].pu) + " out-port " +
                               std::to_string(t.switches[order[k]].port) + " in step " +
                               std::to_string(t.switches[order[k]].step));
  }
  return t;
}

void write_torus_routing(std::ostream& out, const routing_table& table, std::string_view algorithm) {
  const std::uint32_t ports = table.network.ports();
  out << "{\"format\": \"" << torus_routing_format_name << "\"";
  if (!algorithm.empty()) out << ", \"algorithm\": \"" << algorithm << "\"";
  out << ", \"dims\": [";
  for (std::size_t j = 0; j < table.network.dims().size(); ++j) out << (j ? ", " : "") << table.network.dims()[j];
  out << "], \"packets\": " << table.packets;
  for (const char* key : {"forward", "inject"}) {
    out << ",\n \"" << key << "\": [";
    for (pu_index pu = 0; pu < table.network.size(); ++pu) {
      out << (pu ? ",\n  [" : "\n  [");
      for (std::uint32_t o = 0; o < ports; ++o) {
        const std::uint32_t v = std::string_view(key) == "forward" ? table.forward_at(pu, o) : table.inject_at(pu, o);
        out << (o ? ", " : "");
        if (v == UINT32_MAX)
          out << "null";
        else
          out << v;
      }
      out << "]";
    }
    out << "]";
  }
  if (!table.switches.empty()) {
    out << ",\n \"switches\": [";
    for (std::size_t k = 0; k < table.switches.size(); ++k) {
      const port_switch& w = table.switches[k];
      out << (k ? ",\n  [" : "\n  [") << w.pu << ", " << w.port << ", " << w.step << ", " << w.in_port;
      if (w.delay != 1) out << ", " << w.delay;
      out << "]";
    }
    out << "]";
  }
  out << "}\n";
}

}  // namespace dancecard::torus
