// What every Z3 query in smt/ shares: how its solver is made, and how an answer is taken — unsat, unknown with the
// solver's reason, or sat only once the decoded model has passed checkers/.
#pragma once

#include <z3++.h>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "dancecard/smt/dance_encoding.hpp"

namespace dancecard::detail {

/// Measured on this project's queries (docs/performance.md): Z3's default solver beats the finite-domain (SAT +
/// cardinality) engine on the witness searches, and the bare "smt" tactic (no preprocessing pipeline) settles the
/// counting encodings' infeasibility about 1.7 times faster than the default solver.
inline z3::solver make_solver(z3::context& ctx, const dance::solve_options& options) {
  z3::solver s =
      options.encoding == dance::dance_encoding::counting ? z3::tactic(ctx, "smt").mk_solver() : z3::solver(ctx);
  if (options.timeout_ms > 0) {
    z3::params p(ctx);
    p.set("timeout", options.timeout_ms);
    s.set(p);
  }
  return s;
}

/// While it lives, a thread interrupts `ctx` (Z3_interrupt, meant to be called from another thread) as soon as
/// `*cancel` is set, looking every 10 ms; without `cancel` it does nothing.
class interrupt_watch {
 public:
  interrupt_watch(z3::context& ctx, const std::atomic<bool>* cancel) {
    if (cancel == nullptr) return;
    watcher_ = std::thread([this, &ctx, cancel] {
      std::unique_lock<std::mutex> lock(mutex_);
      while (!done_) {
        if (cancel->load(std::memory_order_relaxed)) {
          ctx.interrupt();
          return;
        }
        wake_.wait_for(lock, std::chrono::milliseconds(10));
      }
    });
  }
  ~interrupt_watch() {
    if (!watcher_.joinable()) return;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    watcher_.join();
  }
  interrupt_watch(const interrupt_watch&) = delete;
  interrupt_watch& operator=(const interrupt_watch&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread watcher_;
};

/// Checks `s` (interrupted when `*cancel` is set: unknown, "cancelled by the caller"). On sat, `accept(model)` decodes
/// the model and runs the checker; it returns "" when the checker accepted the witness, or the checker's rejection —
/// then the answer is unknown, never sat.
template <class Accept>
void take_answer(z3::solver& s, solver_answer& answer, std::string& reason, Accept accept,
                 const std::atomic<bool>* cancel = nullptr) {
  z3::check_result result = z3::unknown;
  {
    interrupt_watch watch(s.ctx(), cancel);
    result = s.check();
  }
  switch (result) {
    case z3::unsat:
      answer = solver_answer::unsat;
      return;
    case z3::unknown:
      answer = solver_answer::unknown;
      reason = cancel != nullptr && cancel->load() ? "Z3 stopped: cancelled by the caller" : s.reason_unknown();
      return;
    case z3::sat: {
      const std::string rejection = accept(s.get_model());
      if (rejection.empty()) {
        answer = solver_answer::sat;
      } else {
        answer = solver_answer::unknown;
        reason = "the solver's model was rejected by the checker (an encoding bug): " + rejection;
      }
    }
  }
}

/// Runs `body` — build a query, check it, take its answer into `out` — and records the wall time in `out.seconds`;
/// a Z3 exception becomes answer unknown with the exception's message as the reason. `Result` has answer, reason
/// and seconds (the existence results of every encoding here).
template <class Result, class Body>
void run_timed_query(Result& out, Body body) {
  const auto start = std::chrono::steady_clock::now();
  try {
    body();
  } catch (const z3::exception& e) {
    out.answer = solver_answer::unknown;
    out.reason = std::string("z3 error: ") + e.msg();
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace dancecard::detail
