// `dancecard generate dance --algo ... --n N [--format json|matrix] [--output FILE]`
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#include "common.hpp"
#include "dancecard/core/dance/directed.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/formats/dance_io.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;

namespace {
// n(n-1)/2 dances at 8 bytes each: 20,000 people is 1.6 GB, the largest the CLI writes.
constexpr std::uint64_t max_generate_people = 20'000;

// One number of the range grammar ("12"), not a list or a range: a schedule is generated for one size.
std::uint64_t parse_one_value(const std::string& text, const std::string& option, std::uint64_t lo, std::uint64_t hi,
                              const std::string& what) {
  const std::vector<std::uint64_t> values = parse_values(text, option, lo, hi);
  if (values.size() != 1 || text.find_first_not_of("0123456789") != std::string::npos)
    throw bad_input(option + ": expected one number of " + what + ", got '" + text + "'");
  return values.front();
}
}  // namespace

void add_generate_command(CLI::App& app, int& code) {
  CLI::App* generate = app.add_subcommand("generate", "Generate a schedule from one of the papers' constructions");
  generate->require_subcommand(1);
  CLI::App* dance = generate->add_subcommand("dance", "A dance-party schedule (all-gather on a complete network)");
  struct options {
    std::string algo, n, format = "json", output;
  };
  auto opt = std::make_shared<options>();
  dance->add_option("--algo", opt->algo, "sequential | searching | divide | factorization")->required();
  dance->add_option("--n", opt->n, "number of people, 1.." + std::to_string(max_generate_people))->required();
  dance->add_option("--format", opt->format, "json (dancecard.dance/1) or matrix (the paper's partner matrix)");
  dance->add_option("--output,-o", opt->output, "write to FILE instead of stdout")->check(writable_file());
  dance->callback([opt, &code] {
    const auto algorithm = parse_dance_algorithm(opt->algo);
    if (!algorithm)
      throw bad_input("--algo: unknown algorithm '" + opt->algo +
                      "'; expected sequential, searching, divide or factorization");
    if (opt->format != "json" && opt->format != "matrix")
      throw bad_input("--format: unknown format '" + opt->format + "'; expected json or matrix");
    const std::uint64_t n = parse_one_value(opt->n, "--n", 1, max_generate_people, "people");
    const dance_schedule schedule = dance::generate(*algorithm, static_cast<rank>(n));
    write_output(opt->output, [&](std::ostream& out) {
      if (opt->format == "json")
        write_dance_json(out, schedule, name(*algorithm));
      else
        write_partner_matrix(out, to_partner_matrix(schedule));
    });
    code = exit_holds;
  });

  CLI::App* directed = generate->add_subcommand("directed", "A full-duplex all-to-all schedule (dancecard.directed/1)");
  auto dopt = std::make_shared<options>();
  directed
      ->add_option("--algo", dopt->algo,
                   "openmpi (pairwise shift) | mpich (pairwise: xor for powers of two, else shift) | "
                   "sequential | searching | divide | factorization (a dance schedule in two sub-rounds)")
      ->required();
  directed->add_option("--n", dopt->n, "number of ranks, 1.." + std::to_string(max_generate_people))->required();
  directed->add_option("--output,-o", dopt->output, "write to FILE instead of stdout")->check(writable_file());
  directed->callback([dopt, &code] {
    const rank p = static_cast<rank>(parse_one_value(dopt->n, "--n", 1, max_generate_people, "ranks"));
    directed_schedule schedule(p);
    if (dopt->algo == "openmpi")
      schedule = openmpi_pairwise_schedule(p);
    else if (dopt->algo == "mpich")
      schedule = mpich_pairwise_schedule(p);
    else if (auto a = parse_dance_algorithm(dopt->algo))
      schedule = to_directed(dance::generate(*a, p));
    else
      throw bad_input("--algo: unknown algorithm '" + dopt->algo + "'; expected openmpi, mpich or a dance algorithm");
    write_output(dopt->output, [&](std::ostream& out) { write_directed_json(out, schedule, dopt->algo); });
    code = exit_holds;
  });
}

}  // namespace dancecard::cli
