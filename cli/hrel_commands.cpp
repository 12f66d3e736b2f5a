// `dancecard instance hrel --family ...`, `dancecard generate hrel --algo direct|forwarding|full-duplex|regular
// INSTANCE` and `dancecard prove hrel`.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "common.hpp"
#include "cube_commands.hpp"
#include "cube_queries.hpp"
#include "dancecard/core/hrel/families.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/smt/hrel_encoding.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;
using namespace dancecard::hrel;

void add_hrel_commands(CLI::App& app, int& code) {
  CLI::App* instance = app.add_subcommand("instance", "Generate a problem instance of the papers' families");
  instance->require_subcommand(1);
  CLI::App* hrel = instance->add_subcommand("hrel", "An h-relation (dancecard.hrel/1)");
  struct instance_options {
    std::string family, output;
    rank pes = 12, k = 2;
    std::uint64_t h = 4, seed = 1, l = 1, extra = 0;
  };
  auto iopt = std::make_shared<instance_options>();
  hrel->add_option("--family", iopt->family, "triangles | triangle-copies | random | skewed | regular")->required();
  hrel->add_option("--P", iopt->pes, "PEs (random, skewed, regular; default 12)");
  hrel->add_option("--l", iopt->l, "packets every pair exchanges (regular; default 1)");
  hrel->add_option("--extra", iopt->extra, "load of a random rest on top (regular; default 0)");
  hrel->add_option("--k", iopt->k, "triangles (triangles; default 2)");
  hrel->add_option("--h", iopt->h, "h (default 4; even for the triangle families)");
  add_seed_option(hrel, iopt->seed, "the random and skewed instances (default 1)");
  hrel->add_option("--output,-o", iopt->output, "write to FILE instead of stdout")->check(writable_file());
  hrel->callback([iopt, &code] {
    if (iopt->h == 0 || iopt->h > 1'000'000'000) throw bad_input("--h: expected 1..1000000000");
    if (iopt->pes < 2 || iopt->pes > 4096) throw bad_input("--P: expected 2..4096");
    if (iopt->k < 1 || iopt->k > 1365) throw bad_input("--k: expected 1..1365");
    const bool triangle_family = iopt->family == "triangles" || iopt->family == "triangle-copies";
    if (triangle_family && iopt->h % 2 != 0) throw bad_input("--h: the triangle families need an even h");
    if (!triangle_family && iopt->h > 100'000) throw bad_input("--h: random and skewed instances take h <= 100000");
    if (iopt->l < 1 || iopt->l > 1'000'000'000) throw bad_input("--l: expected 1..1000000000");
    if (iopt->extra > 100'000) throw bad_input("--extra: expected 0..100000");
    const hrel_instance result = iopt->family == "triangles"         ? triangles(iopt->k, iopt->h)
                                 : iopt->family == "triangle-copies" ? triangle_copies(iopt->h)
                                 : iopt->family == "random"          ? random_relation(iopt->pes, iopt->h, iopt->seed)
                                 : iopt->family == "skewed"          ? skewed_relation(iopt->pes, iopt->h, iopt->seed)
                                 : iopt->family == "regular"
                                     ? regular_relation(iopt->pes, iopt->l, iopt->extra, iopt->seed)
                                     : throw bad_input(
                                           "--family: expected triangles, triangle-copies, random, skewed or "
                                           "regular, got '" +
                                           iopt->family + "'");
    write_output(iopt->output, [&](std::ostream& out) { write_hrel_instance(out, result); });
    code = exit_holds;
  });

  CLI::App* generate = app.get_subcommand("generate");
  CLI::App* schedule = generate->add_subcommand("hrel", "An h-relation schedule (dancecard.hrel-schedule/1)");
  struct schedule_options {
    std::string algo, instance, output;
  };
  auto sopt = std::make_shared<schedule_options>();
  schedule
      ->add_option("--algo", sopt->algo,
                   "direct (half duplex, <= 3 ceil(h/2)) | forwarding (half duplex, 12/5 per 2-relation) | "
                   "full-duplex (exactly h) | regular (1-factorization of the l part, then forwarding)")
      ->required();
  schedule->add_option("instance", sopt->instance, "the instance file, or - for stdin")->required();
  schedule->add_option("--output,-o", sopt->output, "write to FILE instead of stdout")->check(writable_file());
  schedule->callback([sopt, &code] {
    const hrel_instance inst = parse_input(sopt->instance, [](const std::string& t) { return read_hrel_instance(t); });
    hrel_schedule result;
    if (sopt->algo == "direct")
      result = direct_schedule(inst);
    else if (sopt->algo == "full-duplex")
      result = full_duplex_schedule(inst);
    else if (sopt->algo == "forwarding")
      result = forwarding_schedule(inst);
    else if (sopt->algo == "regular") {
      try {
        result = regular_schedule(inst);
      } catch (const std::invalid_argument& e) {  // l = 0: names the pair
        throw bad_input(sopt->instance + ": " + e.what());
      }
    } else {
      throw bad_input("--algo: expected direct, forwarding, full-duplex or regular, got '" + sopt->algo + "'");
    }
    write_output(sopt->output, [&](std::ostream& out) { write_hrel_schedule(out, result); });
    code = exit_holds;
  });
}

void add_prove_hrel_command(CLI::App& app, int& code) {
  CLI::App* prove = app.get_subcommand("prove");
  CLI::App* hrel =
      prove->add_subcommand("hrel", "The least time to deliver an h-relation at piece granularity 1/k (CaDiCaL or Z3)");
  struct options {
    std::string instance, timeout = "60", hint, certificate, engine = "sat", emit_cubes, witness;
    unsigned granularity = 1;
    std::uint64_t slots = 0, cubes = 0;
    bool forwarding = false, json = false, no_generators = false;
  };
  auto opt = std::make_shared<options>();
  hrel->add_option("instance", opt->instance, "the instance file (dancecard.hrel/1)")->required();
  hrel->add_flag("--forwarding", opt->forwarding, "pieces may travel through other PEs");
  hrel->add_option("--granularity,-k", opt->granularity, "pieces of 1/k packet (default 1)");
  add_timeout_option(hrel, opt->timeout, "solver query (default 60)");
  hrel->add_option("--hint", opt->hint,
                   "forwarding | direct | FILE: use that schedule (checked) as the witness; the solver is asked only "
                   "about one slot less");
  hrel->add_flag("--no-generator-witnesses", opt->no_generators,
                 "without --hint, do not bound the search by the direct, forwarding and regular generators' schedules "
                 "(checked): the solver alone looks for the witness");
  hrel->add_option(
          "--certificate", opt->certificate,
          "FILE: write the cutting-planes certificate (dancecard.cp/1) that refutes the slots below the counting "
          "bound; `dancecard check-proof FILE` re-checks it")
      ->check(writable_file());
  hrel->add_option("--witness", opt->witness,
                   "FILE: write the witness of a proven optimum (dancecard.hrel-schedule/1), for `check hrel` or a "
                   "later --hint FILE")
      ->check(writable_file());
  hrel->add_option(
      "--engine", opt->engine,
      "sat (CaDiCaL on the CNF of hrel_query_cnf: an unsat answer only with a checked DRAT proof; default) or "
      "z3 (the integer encoding with the Section 2.5 sums; unsat uncertified)");
  hrel->add_flag("--json", opt->json, "print the result as JSON");
  hrel->add_option("--emit-cubes", opt->emit_cubes,
                   "instead: with --slots T and --cubes K, write the query \"delivered within T slots of 1/k\" (the "
                   "CNF of hrel_query_cnf) split into at least K cubes into DIR, as jobs for a batch scheduler "
                   "(`dancecard solve-cube`, `dancecard merge-cubes`; docs/scale-out.md)");
  hrel->add_option("--slots", opt->slots, "with --emit-cubes: the slots of 1/k asked for")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{4096}));
  hrel->add_option("--cubes", opt->cubes, "with --emit-cubes: at least this many cubes")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{65536}));
  hrel->callback([opt, &code] {
    if (opt->engine != "sat" && opt->engine != "z3")
      throw bad_input("--engine: expected sat or z3, got '" + opt->engine + "'");
    if (opt->granularity == 0 || opt->granularity > 100) throw bad_input("--granularity: expected 1..100");
    const hrel_instance inst = parse_input(opt->instance, [](const std::string& t) { return read_hrel_instance(t); });
    if (inst.messages().empty()) throw bad_input(opt->instance + ": messages: the instance has no messages");
    if (const std::string why = hrel_proof_size_problem(inst, opt->granularity); !why.empty())
      throw bad_input(opt->instance + ": " + why);
    if (!opt->emit_cubes.empty()) {
      if (opt->slots == 0 || opt->cubes == 0) throw bad_input("--emit-cubes: with --slots T and --cubes K");
      emit_cubes(opt->emit_cubes, hrel_spec(inst, opt->granularity, opt->forwarding, opt->slots), opt->cubes, 0, 0);
      code = exit_holds;
      return;
    }
    if (opt->slots != 0 || opt->cubes != 0) throw bad_input("--slots, --cubes: only with --emit-cubes");
    std::optional<hrel_schedule> hint;
    if (opt->hint == "forwarding")
      hint = forwarding_schedule(inst);
    else if (opt->hint == "direct")
      hint = direct_schedule(inst);
    else if (!opt->hint.empty())
      hint = parse_input(opt->hint, [](const std::string& t) { return read_hrel_schedule(t); });
    const hrel_optimum_result r =
        prove_hrel_optimum(inst, {.granularity = opt->granularity,
                                  .forwarding = opt->forwarding,
                                  .timeout_ms = parse_timeout_ms(opt->timeout, "--timeout"),
                                  .engine = opt->engine == "z3" ? hrel_engine::z3 : hrel_engine::sat,
                                  .hint = hint ? &*hint : nullptr,
                                  .generator_witnesses = !opt->no_generators});
    if (!opt->certificate.empty()) {
      if (r.certificate.empty())
        std::cerr << "--certificate: none written (the counting certificate was not accepted: " << r.certificate_check
                  << ")\n";
      else
        write_output(opt->certificate, [&](std::ostream& out) { out << r.certificate; });
    }
    if (!opt->witness.empty() && r.status == proof_status::proven && r.at_optimum.witness)
      write_output(opt->witness, [&](std::ostream& out) { write_hrel_schedule(out, *r.at_optimum.witness); });
    // what the certificate refutes, whatever the status; where the optimum is proven above it, Z3 carries the rest
    std::string certificate = r.certificate.empty()
                                  ? "none" + (r.certificate_check.empty() ? "" : " (" + r.certificate_check + ")")
                                  : "cutting planes (counting) refuting " + std::to_string(r.certified_bound - 1) +
                                        " slots: " + r.certificate_check;
    if (r.status == proof_status::proven && r.slots > r.certified_bound)
      certificate += "; " + std::to_string(r.slots - 1) + " slots: " +
                     (r.below_optimum.proof_check.empty() ? "Z3's unsat only"
                                                          : "DRAT proof (CaDiCaL), " + r.below_optimum.proof_check);
    if (opt->json) {
      std::cout << nlohmann::json{{"format", "dancecard.hrel-proof/1"},
                                  {"status", to_string(r.status)},
                                  {"optimum", r.optimum.to_string()},
                                  {"slots", r.slots},
                                  {"granularity", opt->granularity},
                                  {"forwarding", opt->forwarding},
                                  {"certified_bound", r.certified_bound},
                                  {"engine", opt->engine},
                                  {"certificate", certificate},
                                  {"reason", r.reason},
                                  {"seconds", r.seconds}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << (opt->forwarding ? "with" : "without") << " forwarding, pieces of 1/" << opt->granularity << ": "
                << to_string(r.status);
      if (r.status == proof_status::proven) std::cout << ", optimum " << r.optimum.to_string();
      std::cout << " (" << r.reason << "; " << static_cast<long long>(r.seconds * 1000) << " ms)\n";
    }
    code = r.status == proof_status::proven    ? exit_holds
           : r.status == proof_status::refuted ? exit_violated
                                               : exit_unknown;
  });
}

}  // namespace dancecard::cli
