// Ctrl-C during a proof: while an interrupt_guard lives, SIGINT sets `interrupted` (and nothing else), which every
// proof the module runs takes as its cancel flag, so the solver stops and the answer is unknown; the handler Python had
// is put back when the last guard goes (proofs may run at once on several Python threads: the first installs, the last
// restores).
#pragma once

#include <atomic>
#include <csignal>
#include <mutex>

namespace dancecard::python {

extern std::atomic<bool> interrupted;

class interrupt_guard {
 public:
  interrupt_guard();
  ~interrupt_guard();
  interrupt_guard(const interrupt_guard&) = delete;
  interrupt_guard& operator=(const interrupt_guard&) = delete;

 private:
  static std::mutex mutex_;
  static int active_;
  static void (*previous_)(int);
};

}  // namespace dancecard::python
