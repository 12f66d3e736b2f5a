// The module's Ctrl-C handling during proofs (interrupt.hpp).
#include "interrupt.hpp"

namespace dancecard::python {

std::atomic<bool> interrupted{false};

namespace {
extern "C" void on_interrupt(int) { interrupted.store(true, std::memory_order_relaxed); }
}  // namespace

std::mutex interrupt_guard::mutex_;
int interrupt_guard::active_ = 0;
void (*interrupt_guard::previous_)(int) = SIG_DFL;

interrupt_guard::interrupt_guard() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (active_++ == 0) {
    interrupted.store(false);
    previous_ = std::signal(SIGINT, on_interrupt);
  }
}

interrupt_guard::~interrupt_guard() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (--active_ == 0) std::signal(SIGINT, previous_);
}

}  // namespace dancecard::python
