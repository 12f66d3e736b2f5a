// dancecard-mpi: runs dancecard's schedules as real MPI communication and verifies every byte.
//   mpirun -np 8 dancecard-mpi allgather --algo factorization --bytes 65536
//   mpirun -np 8 dancecard-mpi allgather --schedule my.json
//   mpirun -np 6 dancecard-mpi hrel INSTANCE.json SCHEDULE.json [--packet-bytes 600] [--full-duplex]
//   mpirun -np 8 dancecard-mpi torus --dims 2x4 [--bytes 1024]         (or --table FILE)
//   mpirun -np 8 dancecard-mpi collective --algo ring --coll allreduce [--chunks 2] [--chunk-bytes 4096]
//   mpirun -np 8 dancecard-mpi collective --schedule my.json        (a dancecard.collective/1 schedule)
//   mpirun -np 8 dancecard-mpi collective --msccl algo.xml          (an MSCCL-IR program, interpreted)
//   mpirun -np 8 dancecard-mpi bench
//   mpirun -np 64 dancecard-mpi prove torus --dims 3x9 --steps 8 --cubes 256 --checkpoint 3x9.ckpt
// The number of ranks is mpirun's -np. A schedule is checked (checkers/) on every rank before anything is sent; an
// invalid one is refused with the checker's witnesses (exit 1). Exit codes: 0 verified, 1 refused or a content
// mismatch, 2 bad input. Nothing assumes one host: the same command runs with --hostfile on a cluster.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/checkers/msccl_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/formats/collective_io.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/formats/msccl_io.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/mpi/execute.hpp"
#include "src/prove_commands.hpp"

namespace {

using namespace dancecard;
using namespace dancecard::dance;
using namespace dancecard::hrel;
using namespace dancecard::torus;

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error(path + ": cannot be read");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string ms(double seconds) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(3) << seconds * 1000 << " ms";
  return s.str();
}

void report_rounds(const mpi_run_result& r, const char* unit) {
  if (r.round_seconds.empty()) {  // a run without rounds (an MSCCL-IR program): its total only
    std::cout << "  total " << ms(r.total_seconds) << " (slowest rank)\n";
    return;
  }
  double slowest = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < r.round_seconds.size(); ++i)
    if (r.round_seconds[i] > slowest) slowest = r.round_seconds[i], at = i;
  std::cout << "  " << r.round_seconds.size() << " " << unit << "s, total " << ms(r.total_seconds)
            << " (slowest rank); slowest " << unit << " " << at << ": " << ms(slowest) << "\n";
}

// After a run's headline (rank 0): its rounds, each round when asked, and the built-in collective of the same run.
// The exit code: 0 when both moved every byte intact.
int compare_with_builtin(const mpi_run_result& run, const mpi_run_result& builtin, const char* unit,
                         const char* builtin_name, bool per_round, int me) {
  if (me == 0) {
    report_rounds(run, unit);
    if (per_round)
      for (std::size_t r = 0; r < run.round_seconds.size(); ++r)
        std::cout << "    " << unit << " " << r << ": " << ms(run.round_seconds[r]) << "\n";
    std::cout << "  " << builtin_name << ": " << (builtin.all_verified ? "verified" : "CONTENT MISMATCH") << ", "
              << ms(builtin.total_seconds) << "\n";
  }
  return run.all_verified && builtin.all_verified ? 0 : 1;
}

// `collective --algo/--schedule`: the schedule checked on every rank (refused with the checker's witnesses), then run
// step by step, then the MPI collective of the same data.
int run_schedule(const std::string& coll_algo, const std::string& coll_kind, const std::string& coll_file,
                 std::uint64_t coll_chunks, std::uint64_t chunk_bytes, int coll_fault, bool per_round, int me,
                 int size) {
  if (coll_chunks < 1 || coll_chunks > 64) throw usage_error("--chunks: expected 1..64");
  collective::schedule s;
  if (!coll_file.empty()) {
    s = collective::read_collective_schedule(slurp(coll_file));
  } else {
    const auto n = static_cast<rank>(size);
    const auto k = static_cast<std::uint32_t>(coll_chunks);
    const auto kind = collective::parse_collective_kind(coll_kind);
    if (!kind)
      throw usage_error("--coll: expected allgather, alltoall, broadcast, reduce, reduce-scatter or allreduce");
    try {
      s = collective::classic_schedule(coll_algo, *kind, n, k);
    } catch (const std::invalid_argument& e) {
      throw usage_error("--algo " + coll_algo + " on " + std::to_string(size) + " ranks: " + e.what());
    }
  }
  if (static_cast<int>(s.coll.ranks) != size)
    throw usage_error("the schedule is for " + std::to_string(s.coll.ranks) + " ranks, but mpirun started " +
                      std::to_string(size) + " ranks");
  if (s.coll.chunk_count() * chunk_bytes > (1ull << 31))
    throw usage_error("the collective's chunks times --chunk-bytes is above 2 GiB");
  const collective::collective_report check = collective::check_collective_schedule(s);
  if (!check.holds()) {
    if (me == 0) std::cout << "refused before sending anything: " << describe(check);
    return 1;
  }
  const mpi_run_result run = mpi_run_collective(s, MPI_COMM_WORLD, chunk_bytes, coll_fault);
  const mpi_run_result builtin = mpi_run_builtin_collective(s.coll, MPI_COMM_WORLD, chunk_bytes);
  if (!run.verified) std::cerr << run.problem << "\n";
  if (!builtin.verified) std::cerr << "MPI collective: " << builtin.problem << "\n";
  if (me == 0)
    std::cout << s.coll.describe() << " by " << (coll_file.empty() ? coll_algo : coll_file) << ", " << chunk_bytes
              << " bytes per chunk: " << (run.all_verified ? "verified" : "CONTENT MISMATCH") << "\n";
  return compare_with_builtin(run, builtin, "step", "the MPI collective, same data", per_round, me);
}

// `collective --msccl FILE`: the program checked on every rank (refused with the checker's witnesses), then
// interpreted, then the MPI collective of the same data.
int run_msccl(const std::string& file, std::uint64_t chunk_bytes, int fault, bool per_round, int me, int size) {
  const collective::msccl_program program = collective::read_msccl_xml(slurp(file));
  if (program.ngpus != size)
    throw usage_error(file + ": the program is for " + std::to_string(program.ngpus) + " GPUs, but mpirun started " +
                      std::to_string(size) + " ranks");
  const std::optional<collective::collective> coll = collective::msccl_collective(program);
  if (!coll)
    throw usage_error(file + ": coll '" + program.coll +
                      "' has no postcondition to verify (allgather, alltoall, allreduce, reducescatter)");
  std::uint64_t memory = 0;
  for (const auto& g : program.gpus) memory = std::max<std::uint64_t>(memory, g.i_chunks + g.o_chunks + g.s_chunks);
  if (memory * chunk_bytes > (1ull << 31)) throw usage_error("the program's chunks times --chunk-bytes is above 2 GiB");
  const collective::msccl_report check = collective::check_msccl_program(program);
  if (check.outcome != verdict::holds) {
    if (me == 0) std::cout << "refused before sending anything: " << describe(check);
    return 1;
  }
  const mpi_run_result run = mpi_run_msccl(program, MPI_COMM_WORLD, chunk_bytes, fault);
  const mpi_run_result builtin = mpi_run_builtin_collective(*coll, MPI_COMM_WORLD, chunk_bytes);
  if (!run.verified) std::cerr << run.problem << "\n";
  if (!builtin.verified) std::cerr << "MPI collective: " << builtin.problem << "\n";
  if (me == 0)
    std::cout << "MSCCL-IR " << program.coll << " '" << program.name << "' (" << file << ") on " << size << " ranks, "
              << chunk_bytes << " bytes per chunk: " << (run.all_verified ? "verified" : "CONTENT MISMATCH") << "\n";
  return compare_with_builtin(run, builtin, "program", "the MPI collective, same data", per_round, me);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;  // prove: a worker solves on a thread of its own, while its main thread alone calls MPI
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int me = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = 0;
  CLI::App app{"dancecard-mpi: run dancecard schedules over MPI and verify every byte"};
  app.require_subcommand(1);
  std::string algo, schedule_file, instance_file, hrel_schedule_file;
  std::uint64_t bytes = 1024, packet_bytes = 600;
  bool full_duplex = false, per_round = false;
  CLI::App* allgather =
      app.add_subcommand("allgather", "All-gather by a dance schedule (Section 6 loop), against MPI_Allgather");
  allgather->add_option("--algo", algo, "sequential | searching | divide | factorization");
  allgather->add_option("--schedule", schedule_file, "a dance schedule file (JSON or partner matrix) for -np people");
  allgather->add_option("--bytes", bytes, "bytes per rank's block (default 1024)");
  allgather->add_flag("--per-round", per_round, "print every round's time");
  int inject_fault = -1;
  allgather->add_option("--inject-fault", inject_fault, "testing: this rank corrupts one byte of its block in flight");
  CLI::App* hrel = app.add_subcommand("hrel", "An h-relation schedule, slot by slot, against MPI_Alltoallv");
  hrel->add_option("instance", instance_file, "dancecard.hrel/1 instance")->required();
  hrel->add_option("schedule", hrel_schedule_file, "dancecard.hrel-schedule/1 schedule")->required();
  hrel->add_option("--packet-bytes", packet_bytes, "bytes per packet (default 600, divisible by 1..6 and 10)");
  hrel->add_flag("--full-duplex", full_duplex, "check the schedule in the full-duplex model");
  hrel->add_flag("--per-round", per_round, "print every slot's time");
  std::string dims, torus_algo = "hamiltonian", torus_file;
  std::uint64_t torus_bytes = 1024;
  CLI::App* torus_cmd = app.add_subcommand("torus", "Torus gossip by a routing table on a Cartesian communicator");
  torus_cmd->add_option("--dims", dims, "sizes, e.g. 2x4 (with --algo); their product must be -np");
  torus_cmd->add_option("--algo", torus_algo,
                        "hamiltonian (Section 3.1; square switches for odd 2-D sizes; Section 3.4 for d = 4, 8), "
                        "partial (Sections 3.2, 3.3) or one-packet (Section 4, scheduled supply)");
  torus_cmd->add_option("--table", torus_file, "a dancecard.torus-routing/1 file instead of --dims/--algo");
  torus_cmd->add_option("--bytes", torus_bytes, "bytes per packet (default 1024)");
  std::string coll_algo, coll_kind, coll_file, msccl_file;
  std::uint64_t coll_chunks = 1, chunk_bytes = 4096;
  int coll_fault = -1;
  CLI::App* coll_cmd = app.add_subcommand(
      "collective", "A collective schedule (reductions included), step by step, against the MPI collective");
  coll_cmd->add_option("--algo", coll_algo,
                       "ring | bruck | recursive-doubling | recursive-halving | rabenseifner | "
                       "pairwise | binomial | double-binary-tree (with --coll)");
  coll_cmd->add_option("--coll", coll_kind, "allgather | alltoall | broadcast | reduce | reduce-scatter | allreduce");
  coll_cmd->add_option("--chunks", coll_chunks, "chunks per rank with --algo (default 1)");
  coll_cmd->add_option("--schedule", coll_file, "a dancecard.collective/1 file for -np ranks instead of --algo");
  coll_cmd->add_option("--msccl", msccl_file,
                       "an MSCCL-IR XML algorithm for -np GPUs instead, interpreted thread block by thread block");
  coll_cmd->add_option("--chunk-bytes", chunk_bytes, "bytes per chunk, a multiple of 8 (default 4096)");
  coll_cmd->add_flag("--per-round", per_round, "print every step's time");
  coll_cmd->add_option("--inject-fault", coll_fault, "testing: this rank corrupts the first chunk it sends");
  CLI::App* bench = app.add_subcommand("bench", "Dance all-gather against MPI_Allgather: ranks x message size");
  cubes::add_prove_commands(app, code);
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      if (me == 0) app.exit(e);
      MPI_Finalize();
      return 0;
    } catch (const CLI::ParseError& e) {
      if (me == 0) app.exit(e);
      MPI_Finalize();
      return 2;
    }
    if (allgather->parsed()) {
      if (algo.empty() == schedule_file.empty())
        throw usage_error("allgather: give exactly one of --algo and --schedule");
      if (bytes > (1u << 26)) throw usage_error("--bytes: at most 67108864");
      dance_schedule schedule(1);
      if (!algo.empty()) {
        const auto a = parse_dance_algorithm(algo);
        if (!a)
          throw usage_error("--algo: expected sequential, searching, divide or factorization, got '" + algo + "'");
        schedule = generate(*a, static_cast<rank>(size));
      } else {
        const auto input = read_dance_input(slurp(schedule_file));
        schedule = std::holds_alternative<dance_schedule>(input) ? std::get<dance_schedule>(input)
                                                                 : from_partner_matrix(std::get<partner_matrix>(input));
      }
      if (static_cast<int>(schedule.people()) != size)
        throw usage_error("the schedule is for " + std::to_string(schedule.people()) + " people, but mpirun started " +
                          std::to_string(size) + " ranks");
      const dance_report check = check_dance_schedule(schedule);
      if (!check.holds()) {
        if (me == 0) std::cout << "refused before sending anything: " << describe(check);
        code = 1;
      } else {
        const mpi_run_result dance = mpi_run_allgather(schedule, MPI_COMM_WORLD, bytes, inject_fault);
        const mpi_run_result builtin = mpi_run_builtin_allgather(MPI_COMM_WORLD, bytes);
        if (!dance.verified) std::cerr << dance.problem << "\n";
        if (me == 0)
          std::cout << "all-gather by " << (algo.empty() ? schedule_file : algo) << " on " << size << " ranks, "
                    << bytes << " bytes per block: " << (dance.all_verified ? "verified" : "CONTENT MISMATCH") << "\n";
        code = compare_with_builtin(dance, builtin, "round", "MPI_Allgather, same blocks", per_round, me);
      }
    } else if (coll_cmd->parsed()) {
      if (!coll_algo.empty() + !coll_file.empty() + !msccl_file.empty() != 1)
        throw usage_error("collective: give exactly one of --algo, --schedule and --msccl");
      if (chunk_bytes == 0 || chunk_bytes % 8 != 0 || chunk_bytes > (1u << 24))
        throw usage_error("--chunk-bytes: a multiple of 8 from 8 to 16777216");
      code = msccl_file.empty() ? run_schedule(coll_algo, coll_kind, coll_file, coll_chunks, chunk_bytes, coll_fault,
                                               per_round, me, size)
                                : run_msccl(msccl_file, chunk_bytes, coll_fault, per_round, me, size);
    } else if (hrel->parsed()) {
      if (packet_bytes < 1 || packet_bytes > (1u << 20)) throw usage_error("--packet-bytes: expected 1..1048576");
      const hrel_instance instance = read_hrel_instance(slurp(instance_file));
      const hrel_schedule schedule = read_hrel_schedule(slurp(hrel_schedule_file));
      if (static_cast<int>(instance.pes()) != size)
        throw usage_error(instance_file + ": the instance has " + std::to_string(instance.pes()) +
                          " PEs, but mpirun started " + std::to_string(size) + " ranks");
      std::uint64_t volume = 0;
      for (const hrel_message& m : instance.messages()) volume += m.packets;
      if (volume * packet_bytes > (1ull << 31)) throw usage_error("the instance times --packet-bytes is above 2 GiB");
      const hrel_report check = check_hrel_schedule(instance, schedule, full_duplex ? duplex::full : duplex::half);
      if (!check.holds()) {
        if (me == 0) std::cout << "refused before sending anything: " << describe(check);
        code = 1;
      } else {
        for (const hrel_slot& slot : schedule.slots)
          for (const hrel_transfer& t : slot.transfers) {
            const rational b = t.amount * rational(static_cast<std::int64_t>(packet_bytes));
            if (b.denominator() != 1)
              throw usage_error("--packet-bytes: a transfer of " + t.amount.to_string() +
                                " packet is not a whole number of bytes");
          }
        const mpi_run_result run = mpi_run_hrel(instance, schedule, MPI_COMM_WORLD, packet_bytes);
        const mpi_run_result builtin = mpi_run_builtin_alltoallv(instance, MPI_COMM_WORLD, packet_bytes);
        if (!run.verified) std::cerr << run.problem << "\n";
        if (me == 0)
          std::cout << "h-relation " << instance_file << " by " << hrel_schedule_file << " on " << size << " ranks, "
                    << packet_bytes << " bytes per packet, makespan " << check.makespan.to_string() << ": "
                    << (run.all_verified ? "verified" : "CONTENT MISMATCH") << "\n";
        code = compare_with_builtin(run, builtin, "slot", "MPI_Alltoallv, same messages", per_round, me);
      }
    } else if (torus_cmd->parsed()) {
      if (dims.empty() == torus_file.empty()) throw usage_error("torus: give exactly one of --dims and --table");
      if (torus_bytes > (1u << 24)) throw usage_error("--bytes: at most 16777216");
      routing_table table = torus_file.empty() ? [&] {
        try {
          // hamiltonian: Section 3.1 when both sizes are even, else square switches / Section 3.4 (3-D cubes explicit)
          if (torus_algo == "hamiltonian") {
            const torus::network t = torus::network::parse(dims);
            if (section_3_1_applies(t)) return hamiltonian_2d(t);
            const cycle_system cycles = hamiltonian_product_cycles(t);
            return cycle_routing(cycles, supply_policy::time_independent, packets_per_pu::per_cycle);
          }
          const torus::network t = torus::network::parse(dims);
          if (torus_algo == "one-packet") return cycle_routing(zigzag_cycles(t), supply_policy::scheduled);
          if (torus_algo == "partial") return cycle_routing(partial_2d_cycles(t), supply_policy::scheduled);
        } catch (const std::invalid_argument& e) {
          throw usage_error(std::string("--dims ") + dims + ": " + e.what());
        }
        throw usage_error("--algo: expected hamiltonian, partial or one-packet, got '" + torus_algo + "'");
      }()
                                               : read_torus_routing(slurp(torus_file));
      if (static_cast<int>(table.network.size()) != size)
        throw usage_error("the " + table.network.name() + " torus has " + std::to_string(table.network.size()) +
                          " PUs, but mpirun started " + std::to_string(size) + " ranks");
      const gossip_report check = simulate_gossip(table);
      if (!check.holds()) {
        if (me == 0) std::cout << "refused before sending anything: " << describe(check);
        code = 1;
      } else {
        const mpi_run_result run = mpi_run_torus(table, MPI_COMM_WORLD, torus_bytes, check.steps + 1);
        if (!run.verified) std::cerr << run.problem << "\n";
        if (me == 0) {
          std::cout << "torus gossip on " << table.network.name() << " (" << size << " ranks), " << table.packets
                    << " packet(s) of " << torus_bytes
                    << " bytes per PU: " << (run.all_verified ? "verified" : "CONTENT MISMATCH")
                    << " (simulator: " << check.steps << " steps)\n";
          report_rounds(run, "step");
        }
        code = run.all_verified && run.round_seconds.size() == check.steps ? 0 : 1;
      }
    } else if (bench->parsed()) {
      if (me == 0)
        std::cout << "dance all-gather (factorization schedule) / MPI_Allgather, best of 3, verified every run\n"
                  << std::setw(6) << "ranks";
      const std::uint64_t sizes[] = {8, 1024, 65536, 1048576};
      if (me == 0) {
        for (std::uint64_t b : sizes) std::cout << std::setw(14) << (std::to_string(b) + " B");
        std::cout << "\n";
      }
      bool all_ok = true;
      for (int k = 2; k <= size; ++k) {
        MPI_Comm sub;
        MPI_Comm_split(MPI_COMM_WORLD, me < k ? 0 : MPI_UNDEFINED, me, &sub);
        std::ostringstream row;
        row << std::setw(6) << k;
        if (sub != MPI_COMM_NULL) {
          const dance_schedule schedule = generate(dance_algorithm::factorization, static_cast<rank>(k));
          for (std::uint64_t b : sizes) {
            double best_dance = 1e30, best_builtin = 1e30;
            for (int rep = 0; rep < 3; ++rep) {
              const mpi_run_result d = mpi_run_allgather(schedule, sub, b);
              const mpi_run_result m = mpi_run_builtin_allgather(sub, b);
              all_ok = all_ok && d.all_verified && m.all_verified;
              best_dance = std::min(best_dance, d.total_seconds);
              best_builtin = std::min(best_builtin, m.total_seconds);
            }
            std::ostringstream cell;
            cell << std::fixed << std::setprecision(2) << best_dance / best_builtin;
            row << std::setw(14) << cell.str();
          }
          MPI_Comm_free(&sub);
        }
        if (me == 0) std::cout << row.str() << "\n";
        MPI_Barrier(MPI_COMM_WORLD);
      }
      int ok = all_ok ? 1 : 0, every = 0;
      MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      if (me == 0) std::cout << (every ? "all runs verified" : "CONTENT MISMATCH in some run") << "\n";
      code = every ? 0 : 1;
    }
  } catch (const usage_error& e) {
    if (me == 0) std::cerr << "dancecard-mpi: " << e.what() << "\n";
    code = 2;
  } catch (const format_error& e) {
    if (me == 0) std::cerr << "dancecard-mpi: " << e.what() << "\n";
    code = 2;
  } catch (const std::invalid_argument& e) {
    if (me == 0) std::cerr << "dancecard-mpi: " << e.what() << "\n";
    code = 2;
  }
  MPI_Finalize();
  return code;
}
