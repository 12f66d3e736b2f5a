// Core-internal: the rules of one out-port of a routing table, written step by step (the packet-matched and twin
// supplies build their supplying links and hosts with it).
#pragma once

#include <cstdint>

#include "dancecard/core/torus/torus.hpp"

namespace dancecard::torus {

// follow(s, in, delay): from step s on the out-port sends what arrived on `in` `delay` steps before. A first rule
// that starts in step 2 with delay 1 is the table's forward entry; every later change is a port_switch; a rule equal
// to the one in force adds nothing. Starts from the out-port's forward entry (delay 1), so the steps must increase.
class link_rules {
 public:
  link_rules(routing_table& table, pu_index pu, std::uint32_t port)
      : table_(table), pu_(pu), port_(port), in_(table.forward_at(pu, port)) {}
  void follow(std::uint64_t step, std::uint32_t in, std::uint32_t delay) {
    if (in == in_ && delay == delay_) return;
    if (in_ == no_port && step == 2 && delay == 1)
      table_.forward_at(pu_, port_) = in;
    else
      table_.switches.push_back(port_switch{pu_, port_, step, in, delay});
    in_ = in, delay_ = delay;
  }

 private:
  routing_table& table_;
  pu_index pu_;
  std::uint32_t port_;
  std::uint32_t in_, delay_ = 1;
};

}  // namespace dancecard::torus
