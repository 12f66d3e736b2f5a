// `dancecard-mpi prove torus --dims AxB --steps S --cubes K …`: one torus query split into cubes and solved by the
// ranks of the MPI job (prove_cubes.hpp), with the answer certified as `dancecard prove torus --steps S --cubes K`
// certifies it on threads: every cube's DRAT proof checked, the cover checked, a witness simulated.
#include <CLI/CLI.hpp>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "common.hpp"
#include "cube_queries.hpp"
#include "prove_commands.hpp"
#include "prove_cubes.hpp"

namespace dancecard::cubes {

namespace {

struct prove_torus_options {
  std::string dims, model = "pairing", checkpoint, witness;
  std::uint64_t steps = 0, cubes = 16, conflicts = 0;
  unsigned cube_seconds = 0;
  std::int64_t fail_cube = -1, kill_on_cube = -1, abort_after = -1;
};

std::string seconds_text(double s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << s << " s";
  return out.str();
}

int prove_torus(const prove_torus_options& o) {
  int me = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (o.cubes < 1 || o.cubes > 65'536) throw std::invalid_argument("--cubes: 1 to 65536");
  cli::spec_query sq;
  try {
    sq = cli::spec_query_of(cli::torus_spec(o.dims, o.model, o.steps));
  } catch (const cli::bad_input& e) {
    throw std::invalid_argument(e.what());
  }
  const cube_query& q = sq.query;
  mpi_cube_options options;
  options.cubes = sq.empty_clause ? 1 : o.cubes;  // below the count's bound: the whole query, refuted at once
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
  return r.answer == solver_answer::sat ? 0 : r.answer == solver_answer::unsat ? 1 : 3;
}

}  // namespace

void add_prove_commands(CLI::App& app, int& code) {
  CLI::App* prove = app.add_subcommand("prove", "A query split into cubes and solved by the ranks of the job");
  prove->require_subcommand(1);
  auto o = std::make_shared<prove_torus_options>();
  CLI::App* torus = prove->add_subcommand(
      "torus", "Can some time-independent table complete torus gossip within --steps? (one packet per PU)");
  torus->add_option("--dims", o->dims, "sizes, e.g. 3x4")->required();
  torus->add_option("--model", o->model, "pairing (default) or general");
  torus->add_option("--steps", o->steps, "the steps asked for")->required()->check(CLI::Range(1, 4096));
  torus->add_option("--cubes", o->cubes, "at least this many cubes to begin with (default 16)");
  torus->add_option("--cube-conflicts", o->conflicts,
                    "a cube that spends this many CaDiCaL conflicts comes back and is divided (default: no limit)");
  torus->add_option("--cube-seconds", o->cube_seconds,
                    "a cube that spends this many seconds comes back and is divided (default: no limit)");
  torus->add_option("--checkpoint", o->checkpoint,
                    "append each refuted or divided cube to FILE, and resume from it: a job started again with the "
                    "same FILE and query solves only what is left");
  torus->add_option("--witness", o->witness, "write the witness table to FILE when sat");
  torus->add_option("--fail-cube", o->fail_cube, "testing: the solver of this cube fails the first time")->group("");
  torus->add_option("--kill-on-cube", o->kill_on_cube, "testing: the rank handed this cube kills itself")->group("");
  torus->add_option("--abort-after", o->abort_after, "testing: rank 0 aborts the job after this many results")
      ->group("");
  torus->callback([o, &code] { code = prove_torus(*o); });
}

}  // namespace dancecard::cubes
