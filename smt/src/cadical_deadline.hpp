// A CaDiCaL terminator that stops the solver at a wall-clock deadline (0 ms: never).
#pragma once

#include <cadical.hpp>
#include <chrono>

namespace dancecard::detail {

class cadical_deadline : public CaDiCaL::Terminator {
 public:
  explicit cadical_deadline(unsigned ms) : end_(std::chrono::steady_clock::now() + std::chrono::milliseconds(ms)), on_(ms > 0) {}
  bool terminate() override { return on_ && std::chrono::steady_clock::now() >= end_; }

 private:
  std::chrono::steady_clock::time_point end_;
  bool on_;
};

}  // namespace dancecard::detail
