// Cube and conquer on MPI (see the header): rank 0's dispatcher, the workers, and the checkpoint.
//
// Messages are JSON text on four tags. Rank 0 sends `work` ({"id", "literals"}), `cancel` (drop the cube in hand) and
// `stop`; a worker sends `result` ({"id", "answer", "budget_spent", "proof_bytes", "proof_sha256", "lemmas_checked",
// "seconds", "reason", "model", "failed"}). Both sides wait by probing and sleeping a millisecond, not in a blocking
// receive, which Open MPI turns into a spinning core. Every rank, rank 0 included, solves on a thread of its own while
// its main thread (the only one that calls MPI) watches for messages.
#include "prove_cubes.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "common.hpp"
#include "cube_queries.hpp"

namespace dancecard::cubes {

namespace {

using nlohmann::json;

enum tag : int { tag_work = 1, tag_result = 2, tag_cancel = 3, tag_stop = 4 };

void send_text(const std::string& text, int to, int t, MPI_Comm comm) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, t, comm);
}

std::string receive_text(const MPI_Status& status, MPI_Comm comm) {
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(static_cast<std::size_t>(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, comm, MPI_STATUS_IGNORE);
  return text;
}

// Solves one cube, hashing its proof; `failed` when the solver threw (the reason says what).
cube_result solve_and_hash(const cube_query& q, const std::vector<int>& literals, const cube_budget& budget,
                           const std::atomic<bool>* cancel, bool& failed) {
  try {
    std::string digest;
    cube_result r =
        solve_cube(q.formula, literals, budget, cancel, [&](const drat_trace& proof) { digest = cli::sha256(proof); });
    r.proof_sha256 = digest;
    return r;
  } catch (const std::exception& e) {
    failed = true;
    cube_result r;
    r.reason = std::string("the solver failed: ") + e.what();
    return r;
  }
}

// The checkpoint: a header line naming the query and its formula's hash, then one line per refuted or divided cube.
class checkpoint {
 public:
  checkpoint(const std::string& path, const cube_query& q, cube_plan& plan, std::uint64_t& resumed) : path_(path) {
    if (path_.empty()) return;
    const std::string identity = cli::sha256(q.formula.dimacs());
    std::ifstream in(path_);
    std::string line, kept;  // kept: the complete lines
    bool header = false, cut = false;
    std::size_t number = 0;
    while (in && std::getline(in, line)) {
      ++number;
      if (in.eof()) {  // a last line without its newline: cut off when the job was killed
        cut = true;
        break;
      }
      kept += line + "\n";
      json j;
      try {
        j = json::parse(line);
      } catch (const json::exception&) {
        throw std::invalid_argument(path_ + ": line " + std::to_string(number) + " is not JSON");
      }
      if (!header) {
        if (j.value("format", "") != "dancecard.cubes-checkpoint/1" || j.value("query", "") != q.name ||
            j.value("formula_sha256", "") != identity)
          throw std::invalid_argument(path_ + ": a checkpoint of another query (it says '" + j.value("query", "?") +
                                      "'), not of " + q.name);
        if (j.value("first_cubes", std::uint64_t{0}) != plan.cubes().size())
          throw std::invalid_argument(
              path_ + ": a checkpoint of a split into " + std::to_string(j.value("first_cubes", std::uint64_t{0})) +
              " first cubes; this run splits into " + std::to_string(plan.cubes().size()) + " (give the same --cubes)");
        header = true;
        continue;
      }
      const std::vector<int> literals = j.at("cube").get<std::vector<int>>();
      bool restored = false;
      if (j.contains("divided")) {
        restored = plan.restore_divided(literals);
        resumed += restored ? 1 : 0;
      } else {
        cube_result r;
        r.answer = solver_answer::unsat;
        r.proof_bytes = j.value("proof_bytes", std::uint64_t{0});
        r.proof_sha256 = j.value("proof_sha256", "");
        r.lemmas_checked = j.value("lemmas_checked", std::uint64_t{0});
        r.reason = "refuted in an earlier run, DRAT proof " + r.proof_sha256 + " checked then";
        restored = plan.restore_refuted(literals, r);
        resumed += restored ? 1 : 0;
      }
      if (!restored)
        throw std::invalid_argument(path_ + ": line " + std::to_string(number) +
                                    " names a cube this split does not have");
    }
    if (cut) std::ofstream(path_, std::ios::trunc) << kept;  // drop the cut line before appending
    out_.open(path_, std::ios::app);
    if (!out_) throw std::invalid_argument(path_ + ": cannot be written");
    if (!header)
      write({{"format", "dancecard.cubes-checkpoint/1"},
             {"query", q.name},
             {"formula_sha256", identity},
             {"first_cubes", plan.cubes().size()}});
  }
  void refuted(const cube& c) {
    write({{"cube", c.literals},
           {"proof_sha256", c.result.proof_sha256},
           {"proof_bytes", c.result.proof_bytes},
           {"lemmas_checked", c.result.lemmas_checked},
           {"seconds", c.result.seconds}});
  }
  void divided(const cube& c) { write({{"cube", c.literals}, {"divided", true}, {"seconds", c.result.seconds}}); }

 private:
  void write(const json& j) {
    if (path_.empty()) return;
    out_ << j.dump() << "\n";
    out_.flush();
    if (!out_) throw std::runtime_error(path_ + ": cannot be written");
  }
  std::string path_;
  std::ofstream out_;
};

// Rank 0: records a result in the plan and the checkpoint (a sat model only once the query's checker accepts it).
void record(const cube_query& q, cube_plan& plan, checkpoint& file, mpi_cube_result& out, std::size_t id, cube_result r,
            bool failed) {
  if (failed) {
    ++out.reassigned;
    if (plan.cubes()[id].attempts < 3) {
      plan.give_back(id);
      return;
    }
  }
  out.cube_seconds += r.seconds;
  if (r.answer == solver_answer::sat) {
    auto [accepted, reason] = q.accept(r.model);
    r.reason = accepted ? reason : "sat, but the model was not accepted: " + reason;
    if (!accepted) r.answer = solver_answer::unknown, r.budget_spent = false;
  }
  plan.record(id, std::move(r));
  const cube& c = plan.cubes()[id];
  if (c.status == cube_status::refuted) file.refuted(c);
  if (c.status == cube_status::divided) file.divided(c);
}

// One cube solved on a thread of its own, so that the thread calling MPI stays free to watch for messages.
class solver_slot {
 public:
  ~solver_slot() {  // leaving with a cube in hand (a stop, an error): the solver is cancelled, not waited out
    cancel_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  bool busy() const { return id_.has_value(); }
  bool done() const { return done_.load(); }
  void cancel() { cancel_.store(true); }
  void start(const cube_query& q, std::size_t id, std::vector<int> literals, const mpi_cube_options& options) {
    id_ = id;
    cancel_.store(false);
    done_.store(false);
    failed_ = false;
    thread_ = std::thread([this, &q, literals = std::move(literals), &options] {
      result_ = solve_and_hash(q, literals, options.budget, &cancel_, failed_);
      done_.store(true);
    });
  }
  /// The finished cube: its number, result, and whether the solver failed (the testing fault included: the first
  /// time this rank solves options.fail_cube).
  std::tuple<std::size_t, cube_result, bool> finish(const mpi_cube_options& options) {
    thread_.join();
    const std::size_t id = *id_;
    id_.reset();
    if (options.fail_cube == id && injected_.insert(id).second) {
      failed_ = true;
      result_ = {};
      result_.reason = "the solver failed (a fault injected for testing)";
    }
    return {id, std::move(result_), failed_};
  }

 private:
  std::thread thread_;
  std::atomic<bool> cancel_{false}, done_{false};
  std::optional<std::size_t> id_;
  cube_result result_;
  bool failed_ = false;
  std::set<std::size_t> injected_;
};

// Waits a little, longer the longer nothing happens (1 to 8 ms): the waiting costs no core, and a cube of seconds is
// handed on within milliseconds.
class backoff {
 public:
  void wait() {
    std::this_thread::sleep_for(std::chrono::microseconds(micros_));
    micros_ = std::min(micros_ * 2, 8000);
  }
  void reset() { micros_ = 1000; }

 private:
  int micros_ = 1000;
};

void worker(const cube_query& q, MPI_Comm comm, const mpi_cube_options& options) {
  solver_slot slot;
  backoff idle;
  for (;;) {
    if (slot.busy() && slot.done()) {
      auto [id, r, failed] = slot.finish(options);
      json message = cli::cube_result_json(id, r);
      message["failed"] = failed;
      send_text(message.dump(), 0, tag_result, comm);
      idle.reset();
      continue;
    }
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(0, MPI_ANY_TAG, comm, &flag, &status);
    if (!flag) {
      idle.wait();
      continue;
    }
    idle.reset();
    const std::string text = receive_text(status, comm);
    if (status.MPI_TAG == tag_stop) break;
    if (status.MPI_TAG == tag_cancel) {
      if (slot.busy()) slot.cancel();
      continue;
    }
    if (status.MPI_TAG != tag_work) continue;
    const json work = json::parse(text);
    const auto id = work.at("id").get<std::size_t>();
    if (options.kill_on_cube == id) std::raise(SIGKILL);
    slot.start(q, id, work.at("literals").get<std::vector<int>>(), options);
  }
}

// Rank 0: the plan, the checkpoint and the dispatch, to the end of the search. Rank 0 solves cubes too, on a thread of
// its own, so that -np N gives N solvers.
void dispatch(const cube_query& q, MPI_Comm comm, const mpi_cube_options& options, mpi_cube_result& out, int size) {
  cube_plan plan(q.groups, options.cubes);
  checkpoint file(options.checkpoint, q, plan, out.resumed);
  std::uint64_t recorded = 0;
  auto take_result = [&](std::size_t w, std::size_t id, cube_result r, bool failed) {
    out.worker_busy[w] += r.seconds;
    if (plan.cubes()[id].status != cube_status::running) return;
    if (plan.sat_cube() && r.answer != solver_answer::sat) {  // cancelled: left unsolved
      plan.give_back(id);
      return;
    }
    record(q, plan, file, out, id, std::move(r), failed);
    if (options.abort_after && ++recorded >= *options.abort_after) MPI_Abort(comm, 9);  // a batch system's kill
  };
  std::vector<std::optional<std::size_t>> busy(static_cast<std::size_t>(size));  // ranks 1 … : the cube in hand
  out.worker_busy.assign(static_cast<std::size_t>(size), 0);
  solver_slot local;
  backoff idle;
  bool cancelled = false;
  for (;;) {
    if (!local.busy() && !plan.sat_cube())
      if (const std::optional<std::size_t> id = plan.take()) {
        if (options.kill_on_cube == *id) std::raise(SIGKILL);
        local.start(q, *id, plan.cubes()[*id].literals, options);
      }
    for (int w = 1; w < size && !plan.sat_cube(); ++w) {
      if (busy[static_cast<std::size_t>(w)]) continue;
      const std::optional<std::size_t> id = plan.take();
      if (!id) break;
      busy[static_cast<std::size_t>(w)] = id;
      send_text(json{{"id", *id}, {"literals", plan.cubes()[*id].literals}}.dump(), w, tag_work, comm);
    }
    // Nothing in hand after handing out: nothing waits, or a cube is sat.
    if (!local.busy() && std::none_of(busy.begin(), busy.end(), [](const auto& b) { return b.has_value(); })) break;
    if (plan.sat_cube() && !cancelled) {  // the others are moot
      for (int w = 1; w < size; ++w)
        if (busy[static_cast<std::size_t>(w)]) send_text("{}", w, tag_cancel, comm);
      if (local.busy()) local.cancel();
      cancelled = true;
    }
    if (local.busy() && local.done()) {
      auto [id, r, failed] = local.finish(options);
      take_result(0, id, std::move(r), failed);
      idle.reset();
      continue;
    }
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, tag_result, comm, &flag, &status);
    if (!flag) {
      idle.wait();
      continue;
    }
    idle.reset();
    const json j = json::parse(receive_text(status, comm));
    const auto w = static_cast<std::size_t>(status.MPI_SOURCE);
    busy[w].reset();
    take_result(w, j.at("id").get<std::size_t>(), cli::cube_result_of(j, "a result from rank " + std::to_string(w)),
                j.at("failed").get<bool>());
  }
  for (int w = 1; w < size; ++w) send_text("{}", w, tag_stop, comm);
  auto [answer, reason] = plan.verdict(q.formula.clauses);
  out.answer = answer;
  out.reason = reason;
  if (plan.sat_cube()) out.model = plan.cubes()[*plan.sat_cube()].result.model;
  out.cubes = plan.cubes().size();
  out.refuted = plan.refuted();
  out.divided = plan.divided();
}

}  // namespace

mpi_cube_result mpi_prove_cubes(const cube_query& q, MPI_Comm comm, const mpi_cube_options& options) {
  int me = 0, size = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &size);
  const auto start = std::chrono::steady_clock::now();
  mpi_cube_result out;
  std::string refused;  // rank 0: why the search could not go on (a checkpoint of another query, a file not written)
  if (me != 0) {
    worker(q, comm, options);
  } else {
    try {
      dispatch(q, comm, options, out, size);
    } catch (const std::exception& e) {
      refused = e.what();
      for (int w = 1; w < size; ++w) send_text("{}", w, tag_stop, comm);
    }
  }
  // Every rank learns the answer (-1: refused).
  int answer = refused.empty() ? static_cast<int>(out.answer) : -1;
  MPI_Bcast(&answer, 1, MPI_INT, 0, comm);
  if (answer < 0) throw std::invalid_argument(me == 0 ? refused : "rank 0 refused the query");
  out.answer = static_cast<solver_answer>(answer);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dancecard::cubes
