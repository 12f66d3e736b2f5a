// `dancecard-mpi prove torus|collective|hrel … --cubes K`: one query split into cubes and solved by the ranks of the
// MPI job (prove_cubes.hpp), with the answer certified as `dancecard prove torus --steps S --cubes K` certifies it on
// threads: every cube's DRAT proof checked, the cover checked, a witness checked by the query's own checker.
#include <CLI/CLI.hpp>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "common.hpp"
#include "cube_queries.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "prove_commands.hpp"
#include "prove_cubes.hpp"

namespace dancecard::cubes {

namespace {

// What every prove command takes: the split, the budget, the checkpoint, the witness, and the testing faults.
struct cube_run_options {
  std::string checkpoint, witness;
  std::uint64_t cubes = 16, conflicts = 0;
  unsigned cube_seconds = 0;
  std::int64_t fail_cube = -1, kill_on_cube = -1, abort_after = -1;
};

std::string seconds_text(double s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << s << " s";
  return out.str();
}

// The query of `spec` split and solved by the job's ranks; the exit code (0 sat, 1 unsat, 3 unknown).
int prove_spec(const nlohmann::json& spec, const cube_run_options& o) {
  int me = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (o.cubes < 1 || o.cubes > 65'536) throw std::invalid_argument("--cubes: 1 to 65536");
  cli::spec_query sq;
  try {
    sq = cli::spec_query_of(spec);
  } catch (const cli::bad_input& e) {
    throw std::invalid_argument(e.what());
  }
  const cube_query& q = sq.query;
  mpi_cube_options options;
  options.cubes = sq.empty_clause ? 1 : o.cubes;  // below a counting bound: the whole query, refuted at once
  options.budget = {o.cube_seconds * 1000, o.conflicts};
  options.checkpoint = o.checkpoint;
  if (o.fail_cube >= 0) options.fail_cube = static_cast<std::size_t>(o.fail_cube);
  if (o.kill_on_cube >= 0) options.kill_on_cube = static_cast<std::size_t>(o.kill_on_cube);
  if (o.abort_after >= 0) options.abort_after = static_cast<std::uint64_t>(o.abort_after);
  const mpi_cube_result r = mpi_prove_cubes(q, MPI_COMM_WORLD, options);
  if (me == 0) {
    std::cout << "prove " << q.name << ", on " << size << (size == 1 ? " rank: " : " ranks: ") << r.reason << "\n"
              << "  " << r.cubes << " cubes (" << r.divided << " divided for their budget), " << r.refuted
              << " refuted; " << r.resumed << " results from the checkpoint, " << r.reassigned
              << " given to another rank; wall " << seconds_text(r.seconds) << ", cubes "
              << seconds_text(r.cube_seconds) << "\n";
    if (r.answer == solver_answer::sat && !o.witness.empty()) sq.write_witness(o.witness);
  }
  return cli::exit_for(r.answer);
}

void add_cube_run_options(CLI::App* command, cube_run_options& o, const std::string& witness) {
  command->add_option("--cubes", o.cubes, "at least this many cubes to begin with (default 16)");
  command->add_option("--cube-conflicts", o.conflicts,
                      "a cube that spends this many CaDiCaL conflicts comes back and is divided (default: no limit)");
  command->add_option("--cube-seconds", o.cube_seconds,
                      "a cube that spends this many seconds comes back and is divided (default: no limit)");
  command->add_option("--checkpoint", o.checkpoint,
                      "append each refuted or divided cube to FILE, and resume from it: a job started again with the "
                      "same FILE and query solves only what is left");
  command->add_option("--witness", o.witness, "write the witness " + witness + " to FILE when sat");
  command->add_option("--fail-cube", o.fail_cube, "testing: the solver of this cube fails the first time")->group("");
  command->add_option("--kill-on-cube", o.kill_on_cube, "testing: the rank handed this cube kills itself")->group("");
  command->add_option("--abort-after", o.abort_after, "testing: rank 0 aborts the job after this many results")
      ->group("");
}

}  // namespace

void add_prove_commands(CLI::App& app, int& code) {
  CLI::App* prove = app.add_subcommand("prove", "A query split into cubes and solved by the ranks of the job");
  prove->require_subcommand(1);
  struct torus_options {
    std::string dims, model = "pairing";
    std::uint64_t steps = 0;
    cube_run_options run;
  };
  auto t = std::make_shared<torus_options>();
  CLI::App* torus = prove->add_subcommand(
      "torus", "Can some time-independent table complete torus gossip within --steps? (one packet per PU)");
  torus->add_option("--dims", t->dims, "sizes, e.g. 3x4")->required();
  torus->add_option("--model", t->model, "pairing (default) or general");
  torus->add_option("--steps", t->steps, "the steps asked for")->required()->check(CLI::Range(1, 4096));
  add_cube_run_options(torus, t->run, "table");
  torus->callback([t, &code] { code = prove_spec(cli::torus_spec(t->dims, t->model, t->steps), t->run); });

  struct collective_options {
    std::string topology, coll;
    std::uint64_t chunks = 1, root = 0, steps = 0, rounds = 0;
    cube_run_options run;
  };
  auto c = std::make_shared<collective_options>();
  CLI::App* coll = prove->add_subcommand(
      "collective", "Is there a schedule of the collective within --steps (and --rounds) on the network? (all-port)");
  coll->add_option("--topology", c->topology, "dgx1, ring:N, torus:AxB…, hypercube:D, complete:N")->required();
  coll->add_option("--coll", c->coll,
                   "allgather, alltoall, broadcast, gather, scatter, reduce, reduce-scatter or allreduce")
      ->required();
  coll->add_option("--chunks", c->chunks, "chunks per rank (default 1)");
  coll->add_option("--root", c->root, "broadcast, gather, scatter: the root (default 0)");
  coll->add_option("--steps", c->steps, "the steps asked for")->required();
  coll->add_option("--rounds", c->rounds, "the rounds in all, spread over the steps (default: one a step)");
  add_cube_run_options(coll, c->run, "schedule (dancecard.collective/1)");
  coll->callback([c, &code] {
    code = prove_spec(cli::collective_spec(c->topology, c->coll, c->chunks, c->root, c->steps, c->rounds), c->run);
  });

  struct hrel_options {
    std::string instance;
    unsigned granularity = 1;
    bool forwarding = false;
    std::uint64_t slots = 0;
    cube_run_options run;
  };
  auto h = std::make_shared<hrel_options>();
  CLI::App* hrel = prove->add_subcommand(
      "hrel", "Can every message be delivered within --slots slots of 1/k, half duplex? (every rank reads INSTANCE)");
  hrel->add_option("instance", h->instance, "the instance file (dancecard.hrel/1)")->required();
  hrel->add_option("--granularity,-k", h->granularity, "pieces of 1/k packet (default 1)")->check(CLI::Range(1, 100));
  hrel->add_flag("--forwarding", h->forwarding, "pieces may travel through other PEs");
  hrel->add_option("--slots", h->slots, "the slots of 1/k asked for")->required()->check(CLI::Range(1, 4096));
  add_cube_run_options(hrel, h->run, "schedule (dancecard.hrel-schedule/1)");
  hrel->callback([h, &code] {
    std::string text;
    try {
      text = cli::read_input(h->instance);
    } catch (const cli::bad_input& e) {
      throw std::invalid_argument(e.what());  // it names the file
    }
    nlohmann::json spec;
    try {
      spec = cli::hrel_spec(hrel::read_hrel_instance(text), h->granularity, h->forwarding, h->slots);
    } catch (const std::exception& e) {
      throw std::invalid_argument(h->instance + ": " + e.what());
    }
    code = prove_spec(spec, h->run);
  });
}

}  // namespace dancecard::cubes
