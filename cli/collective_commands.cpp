// `dancecard generate collective --algo ring --coll allgather --ranks 8 [--chunks C] [--root R] [--output FILE]`: the
// classic collective algorithms as dancecard.collective/1 schedules (core/collective/generators.hpp), for
// `dancecard check collective`; `dancecard export msccl FILE [--output XML]`: a schedule as an MSCCL-IR algorithm.
#include <CLI/CLI.hpp>
#include <iostream>
#include <map>

#include "common.hpp"
#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/formats/collective_io.hpp"
#include "dancecard/formats/msccl_io.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;

void add_collective_commands(CLI::App& app, int& code) {
  CLI::App* generate =
      app.get_subcommand("generate")
          ->add_subcommand("collective",
                           "A classic collective algorithm as a collective schedule (dancecard.collective/1)");
  struct options {
    std::string algo, coll, output;
    std::uint64_t ranks = 0, chunks = 1, root = 0;
  };
  auto opt = std::make_shared<options>();
  generate
      ->add_option("--algo", opt->algo,
                   "ring | bruck | recursive-doubling | recursive-halving | rabenseifner | pairwise | binomial | "
                   "double-binary-tree")
      ->required();
  generate->add_option("--coll", opt->coll, "allgather | alltoall | broadcast | reduce | reduce-scatter | allreduce")
      ->required();
  generate->add_option("--ranks,-n", opt->ranks, "ranks, 1..4096")->required()->check(CLI::Range(1, 4096));
  generate->add_option("--chunks", opt->chunks, "chunks per rank (default 1)")->check(CLI::Range(1, 1024));
  generate->add_option("--root", opt->root, "broadcast, reduce: the root rank (default 0)");
  generate->add_option("--output,-o", opt->output, "write to FILE instead of stdout")->check(writable_file());
  generate->callback([opt, &code] {
    const auto n = static_cast<rank>(opt->ranks);
    const auto c = static_cast<std::uint32_t>(opt->chunks);
    if (opt->root >= n)
      throw bad_input("--root: " + std::to_string(opt->root) + " is not one of the " + std::to_string(n) + " ranks");
    using maker = collective::schedule (*)(rank, std::uint32_t, rank);
    static const std::map<std::pair<std::string, std::string>, maker> algorithms = {
        {{"ring", "allgather"}, [](rank r, std::uint32_t k, rank) { return collective::ring_allgather(r, k); }},
        {{"bruck", "allgather"}, [](rank r, std::uint32_t k, rank) { return collective::bruck_allgather(r, k); }},
        {{"binomial", "reduce"},
         [](rank r, std::uint32_t k, rank root) { return collective::binomial_reduce(r, root, k); }},
        {{"recursive-halving", "reduce-scatter"},
         [](rank r, std::uint32_t k, rank) { return collective::recursive_halving_reduce_scatter(r, k); }},
        {{"rabenseifner", "allreduce"},
         [](rank r, std::uint32_t k, rank) { return collective::rabenseifner_allreduce(r, k); }},
        {{"recursive-doubling", "allgather"},
         [](rank r, std::uint32_t k, rank) { return collective::recursive_doubling_allgather(r, k); }},
        {{"pairwise", "alltoall"}, [](rank r, std::uint32_t k, rank) { return collective::pairwise_alltoall(r, k); }},
        {{"binomial", "broadcast"},
         [](rank r, std::uint32_t k, rank root) { return collective::binomial_broadcast(r, root, k); }},
        {{"ring", "reduce-scatter"},
         [](rank r, std::uint32_t k, rank) { return collective::ring_reduce_scatter(r, k); }},
        {{"ring", "allreduce"}, [](rank r, std::uint32_t k, rank) { return collective::ring_allreduce(r, k); }},
        {{"double-binary-tree", "allreduce"},
         [](rank r, std::uint32_t k, rank) { return collective::double_binary_tree_allreduce(r, k); }},
    };
    const auto found = algorithms.find({opt->algo, opt->coll});
    if (found == algorithms.end()) {
      std::string known;
      for (const auto& [key, make] : algorithms) known += (known.empty() ? "" : ", ") + key.first + " " + key.second;
      throw bad_input("--algo " + opt->algo + " --coll " + opt->coll + ": no such algorithm (there are: " + known +
                      ")");
    }
    collective::schedule s;
    try {
      s = found->second(n, c, static_cast<rank>(opt->root));
    } catch (const std::invalid_argument& e) {
      throw bad_input("--algo " + opt->algo + " --ranks " + std::to_string(n) + ": " + e.what());
    }
    write_output(opt->output, [&](std::ostream& out) { write_collective_schedule(out, s); });
    code = exit_holds;
  });

  CLI::App* exporter = app.add_subcommand("export", "Write a schedule in another tool's format");
  exporter->require_subcommand(1);
  CLI::App* msccl = exporter->add_subcommand(
      "msccl", "A collective schedule (dancecard.collective/1) as an MSCCL-IR XML algorithm (check msccl reads it)");
  auto eopt = std::make_shared<std::pair<std::string, std::string>>("-", "");
  auto channels = std::make_shared<std::uint32_t>(1);
  msccl->add_option("file", eopt->first, "schedule file, or - for stdin (default)");
  msccl->add_option("--output,-o", eopt->second, "write to FILE instead of stdout")->check(writable_file());
  msccl->add_option("--channels", *channels, "channels, 1..64: chunk k on channel k mod C (default 1)")
      ->check(CLI::Range(1, 64));
  msccl->callback([eopt, channels, &code] {
    const collective::schedule s =
        parse_input(eopt->first, [](const std::string& t) { return collective::read_collective_schedule(t); });
    collective::msccl_program program;
    try {
      program = collective::to_msccl(s, {.channels = *channels});
    } catch (const std::invalid_argument& e) {
      throw bad_input(input_name(eopt->first) + ": " + e.what());
    }
    write_output(eopt->second, [&](std::ostream& out) { write_msccl_xml(out, program); });
    code = exit_holds;
  });
}

}  // namespace dancecard::cli
