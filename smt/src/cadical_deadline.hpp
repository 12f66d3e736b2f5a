// A CaDiCaL terminator that stops the solver at a wall-clock deadline (0 ms: never), or as soon as another thread
// raises `cancel` (the split queries of torus_cubes: once one cube is sat the others are moot).
#pragma once

#include <atomic>
#include <cadical.hpp>
#include <chrono>

namespace dancecard::detail {

class cadical_deadline : public CaDiCaL::Terminator {
 public:
  explicit cadical_deadline(unsigned ms, const std::atomic<bool>* cancel = nullptr)
      : end_(std::chrono::steady_clock::now() + std::chrono::milliseconds(ms)), on_(ms > 0), cancel_(cancel) {}
  bool terminate() override {
    return (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) ||
           (on_ && std::chrono::steady_clock::now() >= end_);
  }
  bool cancelled() const { return cancel_ != nullptr && cancel_->load(std::memory_order_relaxed); }
  bool timed_out() const { return on_ && std::chrono::steady_clock::now() >= end_; }

 private:
  std::chrono::steady_clock::time_point end_;
  bool on_;
  const std::atomic<bool>* cancel_;
};

}  // namespace dancecard::detail
