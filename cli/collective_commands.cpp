// `dancecard generate collective --algo ring --coll allgather --ranks 8 [--chunks C] [--root R] [--output FILE]` (or
// `--algo multi-ring --torus AxB…`): the classic collective algorithms as dancecard.collective/1 schedules
// (core/collective/generators.hpp), for `dancecard check collective`; `dancecard export msccl FILE [--output XML]`: a
// schedule as an MSCCL-IR algorithm; `dancecard import msccl FILE.xml [--topology T] [--output JSON]`: an MSCCL-IR
// algorithm as a collective schedule; `dancecard import hrel|dance …`: the papers' schedules as collective schedules;
// `dancecard draw collective FILE --out SVG`: a schedule as a step × link timeline.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <tuple>

#include "common.hpp"
#include "cube_commands.hpp"
#include "cube_queries.hpp"
#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/msccl_import.hpp"
#include "dancecard/core/collective/adapters.hpp"
#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/formats/collective_io.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/formats/msccl_io.hpp"
#include "dancecard/smt/collective_frontier.hpp"
#include "dancecard/smt/collective_synthesis.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;

namespace {

// `draw collective`: a step × link timeline. A row per link that carries anything, a column per step; each chunk moved
// is a square in its link's row and its step's column, coloured by chunk (golden-angle hues), a reduction marked with a
// white bar. Limits keep the picture readable: at most 512 links used and 1,024 steps.
constexpr std::size_t max_drawn_links = 512, max_drawn_steps = 1024;

void draw_collective_svg(std::ostream& out, const collective::schedule& s) {
  std::map<std::pair<rank, rank>, std::size_t> row_of;
  std::map<std::tuple<std::size_t, std::size_t>, std::uint64_t> cell_count;  // (row key order later)
  std::uint64_t widest = 1;
  for (const collective::step& st : s.steps)
    for (const collective::transfer& t : st.transfers) row_of.try_emplace({t.from, t.to}, 0);
  if (row_of.size() > max_drawn_links || s.steps.size() > max_drawn_steps)
    throw bad_input("draw collective: " + std::to_string(row_of.size()) + " links used over " +
                    std::to_string(s.steps.size()) + " steps; at most " + std::to_string(max_drawn_links) +
                    " links and " + std::to_string(max_drawn_steps) + " steps are drawn");
  std::size_t r = 0;
  for (auto& [link, row] : row_of) row = r++;
  for (std::size_t i = 0; i < s.steps.size(); ++i)
    for (const collective::transfer& t : s.steps[i].transfers)
      widest = std::max(widest, ++cell_count[{row_of.at({t.from, t.to}), i}]);
  constexpr int square = 7, gap = 1, label = 70, top = 46, margin = 10;
  const int per_line = static_cast<int>(std::min<std::uint64_t>(widest, 8));
  const int lines = static_cast<int>((widest + per_line - 1) / per_line);
  const int cell_w = per_line * (square + gap) + 6, cell_h = lines * (square + gap) + 6;
  std::ostringstream caption;
  caption << s.coll.describe() << " by " << (s.algorithm.empty() ? "a schedule" : s.algorithm) << " on "
          << s.network.name() << " (" << to_string(s.ports) << "): " << s.steps.size() << " steps, " << s.transfers()
          << " transfers; a square per chunk, coloured by chunk; a bar: a reduction";
  const int width = std::max(label + static_cast<int>(s.steps.size()) * cell_w + margin,
                             2 * margin + static_cast<int>(caption.str().size()) * 7);
  const int height = top + static_cast<int>(row_of.size()) * cell_h + margin;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"10\">\n";
  out << "<title>" << s.coll.describe() << " by " << (s.algorithm.empty() ? "a schedule" : s.algorithm) << " on "
      << s.network.name() << "</title>\n";
  out << "<text x=\"" << margin << "\" y=\"14\" font-size=\"12\">" << caption.str() << "</text>\n";
  for (std::size_t i = 0; i < s.steps.size(); ++i)
    out << "<text x=\"" << label + static_cast<int>(i) * cell_w + 2 << "\" y=\"" << top - 6 << "\">" << i
        << "</text>\n";
  for (const auto& [link, row] : row_of) {
    const int y = top + static_cast<int>(row) * cell_h;
    out << "<text x=\"" << margin << "\" y=\"" << y + cell_h / 2 + 3 << "\">" << link.first << " &#8594; "
        << link.second << "</text>\n";
    out << "<line x1=\"" << label << "\" y1=\"" << y << "\" x2=\"" << width - margin << "\" y2=\"" << y
        << "\" stroke=\"#ddd\"/>\n";
  }
  std::map<std::pair<std::size_t, std::size_t>, int> placed;
  for (std::size_t i = 0; i < s.steps.size(); ++i)
    for (const collective::transfer& t : s.steps[i].transfers) {
      const std::size_t row = row_of.at({t.from, t.to});
      const int k = placed[{row, i}]++;
      const int x = label + static_cast<int>(i) * cell_w + 3 + (k % per_line) * (square + gap);
      const int y = top + static_cast<int>(row) * cell_h + 3 + (k / per_line) * (square + gap);
      const unsigned hue = static_cast<unsigned>((t.chunk * 137) % 360);
      out << "<rect class=\"chunk\" x=\"" << x << "\" y=\"" << y << "\" width=\"" << square << "\" height=\"" << square
          << "\" fill=\"hsl(" << hue << ",70%,50%)\"><title>chunk " << t.chunk << ", " << t.from << " &#8594; " << t.to
          << ", step " << i << (t.op == collective::transfer_op::reduce ? ", reduce" : "") << "</title></rect>";
      if (t.op == collective::transfer_op::reduce)
        out << "<rect x=\"" << x + 1 << "\" y=\"" << y + square / 2 << "\" width=\"" << square - 2
            << "\" height=\"1\" fill=\"white\"/>";
      out << "\n";
    }
  out << "</svg>\n";
}

// --emit: a witness (STEM.json) and, where a cut refuted the query below it, that cut's cutting-planes certificate
// (STEM-below.cp, which `dancecard check-proof` reads); their manifest entries.
nlohmann::json emit_point(const std::string& dir, const std::string& stem, const collective::schedule* witness,
                          const std::string& below) {
  nlohmann::json files = nlohmann::json::array();
  if (witness) {
    std::ostringstream text;
    write_collective_schedule(text, *witness);
    files.push_back(emit_file(dir, stem + ".json", text.str()));
  }
  if (!below.empty()) files.push_back(emit_file(dir, stem + "-below.cp", below));
  return files;
}

// `prove collective --frontier`: the points as a table or JSON, the frontier's witnesses and cut certificates to
// --emit DIR.
template <class Options>
int run_frontier(const collective::topology& net, const collective::collective& coll,
                 const collective::synthesis_options& synthesis, const Options& opt) {
  collective::frontier_options options;
  options.max_chunks = opt.max_chunks;
  options.max_extra_steps = opt.max_extra_steps;
  options.max_extra_rounds = opt.max_extra_rounds;
  options.synthesis = synthesis;
  collective::frontier_result f;
  try {
    f = collective::prove_frontier(net, coll, options);
  } catch (const std::invalid_argument& e) {
    throw bad_input(e.what());
  }
  if (!opt.emit.empty()) {
    create_emit_directory(opt.emit);
    nlohmann::json files = nlohmann::json::array();
    for (std::size_t i : f.frontier) {
      const collective::frontier_point& p = f.points[i];
      const std::string stem =
          "C" + std::to_string(p.chunks) + "-S" + std::to_string(p.steps) + "-R" + std::to_string(p.rounds);
      for (auto& file : emit_point(opt.emit, stem, p.witness ? &*p.witness : nullptr, p.below_certificate))
        files.push_back(std::move(file));
    }
    emit_file(
        opt.emit, "frontier.manifest.json",
        nlohmann::json{{"network", net.name()}, {"status", to_string(f.status)}, {"files", files}}.dump(2) + "\n");
  }
  auto ratio = [](std::uint64_t r, std::uint64_t c) {
    const std::uint64_t g = std::gcd(r, c);
    return c / g == 1 ? std::to_string(r / g) : std::to_string(r / g) + "/" + std::to_string(c / g);
  };
  const std::string head = coll.describe().substr(0, coll.describe().find(','));
  if (opt.json) {
    nlohmann::json points = nlohmann::json::array();
    for (const collective::frontier_point& p : f.points)
      points.push_back({{"chunks", p.chunks},
                        {"steps", p.steps},
                        {"rounds", p.rounds},
                        {"rounds_per_chunk", p.rounds ? ratio(p.rounds, p.chunks) : ""},
                        {"status", to_string(p.status)},
                        {"on_frontier", p.on_frontier},
                        {"corner", p.corner},
                        {"cut_bound", p.cut_bound},
                        {"seconds", p.seconds},
                        {"reason", p.reason}});
    std::cout << nlohmann::json{{"status", to_string(f.status)},
                                {"collective", head},
                                {"network", net.name()},
                                {"ports", to_string(synthesis.ports)},
                                {"least_steps", f.least_steps},
                                {"reason", f.reason},
                                {"points", points}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << to_string(f.status) << ": the (C, S, R) frontier of " << head << " on " << net.name() << " ("
              << to_string(synthesis.ports) << "): " << f.reason << "\n";
    std::cout << "   C   S   R  R/C    cut  answer    seconds\n";
    for (const collective::frontier_point& p : f.points) {
      char line[96];
      std::snprintf(line, sizeof line, "  %2u  %2llu  %2s  %-5s %4s  %-8s %8.2f", p.chunks,
                    static_cast<unsigned long long>(p.steps), p.rounds ? std::to_string(p.rounds).c_str() : "-",
                    p.rounds ? ratio(p.rounds, p.chunks).c_str() : "-",
                    p.cut_bound ? std::to_string(p.cut_bound).c_str() : "-", to_string(p.status).data(), p.seconds);
      std::cout << line << (p.corner ? "  frontier, corner" : p.on_frontier ? "  frontier" : "") << "\n";
    }
  }
  return f.status == proof_status::proven ? exit_holds : exit_unknown;
}

// `import hrel INSTANCE SCHEDULE [--full-duplex]` and `import dance FILE`: the papers' schedules as the collectives
// they perform (core/collective/adapters.hpp), for `check collective`, `draw collective` and `dancecard-mpi`.
void add_model_imports(CLI::App* importer, int& code) {
  CLI::App* hrel = importer->add_subcommand(
      "hrel",
      "An h-relation schedule (dancecard.hrel-schedule/1) as the all-to-allv of moves it performs, pieces of 1/g "
      "packet (g the least common denominator of its durations and amounts)");
  struct hrel_options {
    std::string instance, schedule, output;
    bool full_duplex = false;
  };
  auto hopt = std::make_shared<hrel_options>();
  hrel->add_option("instance", hopt->instance, "the instance file (dancecard.hrel/1)")->required();
  hrel->add_option("schedule", hopt->schedule, "the schedule file, or - for stdin")->required();
  hrel->add_flag("--full-duplex", hopt->full_duplex,
                 "one send and one receive per slot (one-port-full-duplex; default: half duplex, one-port-simplex)");
  hrel->add_option("--output,-o", hopt->output, "write to FILE instead of stdout")->check(writable_file());
  hrel->callback([hopt, &code] {
    const hrel::hrel_instance instance =
        parse_input(hopt->instance, [](const std::string& t) { return hrel::read_hrel_instance(t); });
    const hrel::hrel_schedule slots =
        parse_input(hopt->schedule, [](const std::string& t) { return hrel::read_hrel_schedule(t); });
    collective::schedule s;
    try {
      s = collective::from_hrel(
          instance, slots,
          hopt->full_duplex ? collective::port_model::one_port_full_duplex : collective::port_model::one_port_simplex);
    } catch (const std::invalid_argument& e) {
      throw bad_input(input_name(hopt->schedule) + ": " + e.what());
    }
    write_output(hopt->output, [&](std::ostream& out) { write_collective_schedule(out, s); });
    code = exit_holds;
  });
  CLI::App* dance = importer->add_subcommand(
      "dance", "A dance schedule (dancecard.dance-schedule/1) as the half-duplex all-to-all it performs");
  struct dance_options {
    std::string file = "-", output;
  };
  auto dopt = std::make_shared<dance_options>();
  dance->add_option("file", dopt->file, "the schedule file, or - for stdin (default)");
  dance->add_option("--output,-o", dopt->output, "write to FILE instead of stdout")->check(writable_file());
  dance->callback([dopt, &code] {
    const dance_schedule d = parse_input(dopt->file, [](const std::string& t) { return read_dance_json(t); });
    if (d.people() > 4096) throw bad_input(input_name(dopt->file) + ": at most 4096 people as a collective");
    write_output(dopt->output, [&](std::ostream& out) { write_collective_schedule(out, collective::from_dance(d)); });
    code = exit_holds;
  });
}

}  // namespace

void add_collective_commands(CLI::App& app, int& code) {
  CLI::App* generate =
      app.get_subcommand("generate")
          ->add_subcommand("collective",
                           "A classic collective algorithm as a collective schedule (dancecard.collective/1)");
  struct options {
    std::string algo, coll, output, torus;
    std::uint64_t ranks = 0, chunks = 1, root = 0;
  };
  auto opt = std::make_shared<options>();
  generate
      ->add_option(
          "--algo", opt->algo,
          "ring | bruck | recursive-doubling | rotated-doubling | recursive-halving | rabenseifner | pairwise | "
          "binomial | double-binary-tree | multi-ring | bidirectional-multi-ring (the last two: all-gather on --torus)")
      ->required();
  generate->add_option("--coll", opt->coll, "allgather | alltoall | broadcast | reduce | reduce-scatter | allreduce")
      ->required();
  CLI::Option* ranks = generate->add_option("--ranks,-n", opt->ranks, "ranks, 1..4096")->check(CLI::Range(1, 4096));
  generate
      ->add_option("--torus", opt->torus,
                   "multi-ring, bidirectional-multi-ring: the torus AxB… (its ranks are its PUs); chunks per rank a "
                   "multiple of 2·dimensions (bidirectional with P odd: of the dimensions)")
      ->excludes(ranks);
  generate->add_option("--chunks", opt->chunks, "chunks per rank (default 1)")->check(CLI::Range(1, 1024));
  generate->add_option("--root", opt->root, "broadcast, reduce: the root rank (default 0)");
  generate->add_option("--output,-o", opt->output, "write to FILE instead of stdout")->check(writable_file());
  generate->callback([opt, &code] {
    const auto c = static_cast<std::uint32_t>(opt->chunks);
    const bool rings = opt->algo == "multi-ring" || opt->algo == "bidirectional-multi-ring";
    if (rings || !opt->torus.empty()) {
      if (!rings) throw bad_input("--torus: only with --algo multi-ring or bidirectional-multi-ring");
      if (opt->torus.empty()) throw bad_input("--algo " + opt->algo + ": name the torus with --torus AxB…");
      if (opt->coll != "allgather") throw bad_input("--algo " + opt->algo + ": an allgather, not '" + opt->coll + "'");
      collective::schedule s;
      try {
        const torus::network t = torus::network::parse(opt->torus);
        s = opt->algo == "multi-ring" ? collective::multi_ring_allgather(t, c)
                                      : collective::bidirectional_multi_ring_allgather(t, c);
      } catch (const std::invalid_argument& e) {
        throw bad_input("--algo " + opt->algo + " --torus " + opt->torus + " --chunks " + std::to_string(c) + ": " +
                        e.what());
      }
      write_output(opt->output, [&](std::ostream& out) { write_collective_schedule(out, s); });
      code = exit_holds;
      return;
    }
    if (opt->ranks == 0) throw bad_input("--ranks: required (or --torus with --algo multi-ring)");
    const auto n = static_cast<rank>(opt->ranks);
    if (opt->root >= n)
      throw bad_input("--root: " + std::to_string(opt->root) + " is not one of the " + std::to_string(n) + " ranks");
    const auto kind = collective::parse_collective_kind(opt->coll);
    if (!kind)
      throw bad_input("--coll: expected allgather, alltoall, broadcast, reduce, reduce-scatter or allreduce, got '" +
                      opt->coll + "'");
    collective::schedule s;
    try {
      s = collective::classic_schedule(opt->algo, *kind, n, c, static_cast<rank>(opt->root));
    } catch (const std::invalid_argument& e) {
      throw bad_input("--algo " + opt->algo + " --coll " + opt->coll + " --ranks " + std::to_string(n) + ": " +
                      e.what());
    }
    write_output(opt->output, [&](std::ostream& out) { write_collective_schedule(out, s); });
    code = exit_holds;
  });

  CLI::App* draw = app.get_subcommand("draw")->add_subcommand(
      "collective", "A collective schedule as a step × link timeline (SVG), one square per chunk moved");
  auto dopt = std::make_shared<std::pair<std::string, std::string>>("-", "");
  draw->add_option("file", dopt->first, "schedule file (dancecard.collective/1), or - for stdin (default)");
  draw->add_option("--out", dopt->second, "the SVG file to write (- for stdout)")->required()->check(writable_file());
  draw->callback([dopt, &code] {
    const collective::schedule s =
        parse_input(dopt->first, [](const std::string& t) { return collective::read_collective_schedule(t); });
    const collective::collective_report check = collective::check_collective_schedule(s);
    write_output(dopt->second == "-" ? std::string() : dopt->second,
                 [&](std::ostream& out) { draw_collective_svg(out, s); });
    if (dopt->second != "-") std::cout << "wrote " << dopt->second << "; " << describe(check);
    code = exit_for(check.outcome);
  });

  CLI::App* prove = app.get_subcommand("prove")->add_subcommand(
      "collective",
      "The least steps (or with --steps the least rounds) of a collective on a network: a checked witness and a "
      "checked DRAT proof below");
  struct prove_options {
    std::string topology, coll, ports = "all-port", timeout = "60", witness, msccl, emit, emit_cubes;
    std::uint64_t chunks = 1, root = 0, rounds = 1, max_steps = 32, steps = 0, cubes = 0, query_rounds = 0;
    std::uint32_t max_chunks = 4, max_extra_steps = 1, max_extra_rounds = 8;
    bool json = false, frontier = false, drat_only = false, no_symmetry = false;
    std::uint64_t max_clauses = collective::synthesis_options{}.max_clauses;
  };
  auto popt = std::make_shared<prove_options>();
  prove
      ->add_option("--topology", popt->topology,
                   "complete:N, ring:N, torus:AxB…, hypercube:D, dgx1, or FILE (dancecard.topology/1)")
      ->required();
  prove
      ->add_option("--coll", popt->coll,
                   "allgather | alltoall | broadcast | gather | scatter | reduce-scatter | reduce (the last two by "
                   "inversion) | allreduce (directly; where that stays unknown, reduce-scatter then all-gather gives a "
                   "checked witness)")
      ->required();
  prove->add_option("--chunks", popt->chunks, "chunks per rank (SCCL's C; default 1)")->check(CLI::Range(1, 64));
  prove->add_option("--root", popt->root, "broadcast, gather, scatter, reduce: the root rank (default 0)");
  prove->add_option("--rounds-per-step", popt->rounds, "rounds in every step (default 1; R = S · this)")
      ->check(CLI::Range(1, 64));
  prove->add_option("--ports", popt->ports, "all-port (default) or one-port-full-duplex");
  prove->add_option("--max-steps", popt->max_steps, "give up above this many steps (default 32)")
      ->check(CLI::Range(0, 1024));
  prove
      ->add_option("--steps", popt->steps,
                   "instead: the least rounds R for this many steps S, the rounds distributed over the steps as the "
                   "solver likes (SCCL's (C, S, R); at most S + 64 rounds asked)")
      ->check(CLI::Range(1, 1024));
  add_timeout_option(prove, popt->timeout, "solver query (default 60)");
  prove->add_option("--witness", popt->witness, "write the witness schedule (dancecard.collective/1) to FILE")
      ->check(writable_file());
  prove
      ->add_option(
          "--export-msccl", popt->msccl,
          "write the witness as an MSCCL-IR algorithm to FILE (allgather and alltoall; `check msccl` reads it)")
      ->check(writable_file());
  prove->add_flag("--json", popt->json, "print the result as JSON");
  prove->add_flag("--drat-only", popt->drat_only,
                  "refute every query with CaDiCaL and a DRAT proof, also where a cut's cutting-planes certificate "
                  "would do");
  prove
      ->add_option("--max-clauses", popt->max_clauses,
                   "a query whose formula passes this many clauses answers unknown, a resource limit (default "
                   "40000000: about 5 GB with CaDiCaL's copy)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  prove->add_flag("--no-symmetric-witnesses", popt->no_symmetry,
                  "ask every query of the whole model only, not first for a schedule that the network's symmetries "
                  "(its translations, or its automorphisms) map onto itself");
  prove->add_flag(
      "--frontier", popt->frontier,
      "instead: SCCL's (C, S, R) frontier, the least R for every C = 1 … --max-chunks and S = the least (of any "
      "schedule, whatever its rounds) … + --max-extra-steps, and the points no other beats in S, R and R/C");
  prove->add_option("--max-chunks", popt->max_chunks, "--frontier: chunks per rank up to this (default 4)")
      ->check(CLI::Range(1, 64));
  prove->add_option("--max-extra-steps", popt->max_extra_steps, "--frontier: steps above the least (default 1)")
      ->check(CLI::Range(0, 16));
  prove
      ->add_option("--max-extra-rounds", popt->max_extra_rounds,
                   "--frontier: rounds asked above S or the cut bound, the larger (default 8)")
      ->check(CLI::Range(0, 64));
  prove->add_option("--emit", popt->emit,
                    "write the witness (DIR/least.json; --frontier: DIR/C<c>-S<s>-R<r>.json per frontier point), the "
                    "cut's cutting-planes certificate where a cut refuted the query below (…-below.cp) and a manifest");
  prove->add_option(
      "--emit-cubes", popt->emit_cubes,
      "instead: with --steps S and --cubes K, write the query \"a schedule of S steps (and --rounds R in "
      "all)\" split into at least K cubes into DIR, as jobs for a batch scheduler (`dancecard solve-cube`, "
      "`dancecard merge-cubes`; docs/scale-out.md)");
  prove->add_option("--cubes", popt->cubes, "with --emit-cubes: at least this many cubes")->check(CLI::Range(1, 65536));
  prove->add_option("--rounds", popt->query_rounds, "with --emit-cubes: the rounds in all (default: one a step)");
  prove->callback([popt, &code] {
    if (!popt->emit_cubes.empty()) {
      if (popt->steps == 0 || popt->cubes == 0) throw bad_input("--emit-cubes: with --steps S and --cubes K");
      if (popt->ports != "all-port") throw bad_input("--emit-cubes: all-port only");
      emit_cubes(popt->emit_cubes,
                 collective_spec(popt->topology, popt->coll, popt->chunks, popt->root, popt->steps, popt->query_rounds),
                 popt->cubes, 0, 0);
      code = exit_holds;
      return;
    }
    if (popt->cubes != 0 || popt->query_rounds != 0) throw bad_input("--cubes, --rounds: only with --emit-cubes");
    std::optional<collective::topology> net;
    try {
      net = collective::builtin_topology(popt->topology);
    } catch (const std::invalid_argument& e) {
      throw bad_input("--topology: " + std::string(e.what()));
    }
    if (!net && std::filesystem::exists(popt->topology))  // a network from a file
      net = parse_input(popt->topology, [](const std::string& t) { return collective::read_topology(t); });
    if (!net)
      throw bad_input("--topology: '" + popt->topology +
                      "' is no built-in network (complete:N, ring:N, torus:AxB…, hypercube:D, dgx1) and no file");
    const auto kind = collective::parse_collective_kind(popt->coll);
    if (!kind)
      throw bad_input(
          "--coll: expected allgather, alltoall, broadcast, gather, scatter, reduce-scatter, reduce or allreduce, "
          "got '" +
          popt->coll + "'");
    if (*kind == collective::collective_kind::alltoallv)
      throw bad_input("--coll alltoallv: its counts come with a schedule file (check collective), not this command");
    const auto ports = collective::parse_port_model(popt->ports);
    if (!ports || *ports == collective::port_model::one_port_half_duplex ||
        *ports == collective::port_model::one_port_simplex)
      throw bad_input("--ports: expected all-port or one-port-full-duplex, got '" + popt->ports + "'");
    if (popt->root >= net->size())
      throw bad_input("--root: " + std::to_string(popt->root) + " is not one of the " + std::to_string(net->size()) +
                      " ranks");
    const collective::collective coll{*kind, net->size(), static_cast<std::uint32_t>(popt->chunks),
                                      static_cast<rank>(popt->root)};
    collective::synthesis_options options;
    options.ports = *ports;
    options.rounds_per_step = static_cast<std::uint32_t>(popt->rounds);
    options.max_steps = static_cast<std::uint32_t>(popt->max_steps);
    options.budget_ms = parse_timeout_ms(popt->timeout, "--timeout");
    options.cut_certificates = !popt->drat_only;
    options.symmetric_witnesses = !popt->no_symmetry;
    options.max_clauses = popt->max_clauses;
    if (popt->frontier) {
      if (popt->steps > 0 || popt->rounds != 1 || !popt->witness.empty() || !popt->msccl.empty())
        throw bad_input(
            "--frontier: asks every (C, S) itself; --steps, --rounds-per-step, --witness and "
            "--export-msccl do not apply (--emit DIR writes the witnesses)");
      code = run_frontier(*net, coll, options, *popt);
      return;
    }
    collective::least_steps_result r;
    try {
      r = popt->steps > 0 ? collective::prove_least_rounds(*net, coll, popt->steps, 64, options)
                          : collective::prove_least_steps(*net, coll, options);
    } catch (const std::invalid_argument& e) {
      throw bad_input(e.what());
    }
    const std::uint64_t rounds = r.witness ? r.witness->rounds() : 0;
    if (!popt->emit.empty()) {
      create_emit_directory(popt->emit);
      std::string below;
      for (const auto& q : r.queries)
        if (q.answer == solver_answer::unsat) below = q.certificate;
      const nlohmann::json files = emit_point(popt->emit, "least", r.witness ? &*r.witness : nullptr, below);
      emit_file(
          popt->emit, "least.manifest.json",
          nlohmann::json{{"network", net->name()}, {"status", to_string(r.status)}, {"files", files}}.dump(2) + "\n");
    }
    if (!popt->witness.empty() && r.witness)
      write_output(popt->witness, [&](std::ostream& out) { write_collective_schedule(out, *r.witness); });
    if (!popt->msccl.empty() && r.witness) {
      collective::msccl_program program;
      try {
        program = collective::to_msccl(*r.witness);
      } catch (const std::invalid_argument& e) {
        throw bad_input("--export-msccl: " + std::string(e.what()));
      }
      write_output(popt->msccl, [&](std::ostream& out) { write_msccl_xml(out, program); });
    }
    if (popt->json) {
      nlohmann::json queries = nlohmann::json::array();
      for (std::size_t i = 0; i < r.queries.size(); ++i) {
        const auto& q = r.queries[i];
        queries.push_back({{"steps", q.steps},
                           {"rounds", popt->steps > 0 ? popt->steps + i : q.steps * popt->rounds},
                           {"answer", to_string(q.answer)},
                           {"variables", q.variables},
                           {"clauses", q.clauses},
                           {"seconds", q.seconds},
                           {"detail", q.detail}});
      }
      std::cout << nlohmann::json{{"status", to_string(r.status)},
                                  {"collective", coll.describe()},
                                  {"network", net->name()},
                                  {"ports", to_string(*ports)},
                                  {"steps", r.steps},
                                  {"rounds", rounds},
                                  {"reason", r.reason},
                                  {"queries", queries}}
                       .dump(2)
                << "\n";
    } else {
      const std::string rounds_rule = popt->steps > 0 ? std::string(", rounds distributed over the steps")
                                                      : ", " + std::to_string(popt->rounds) +
                                                            (popt->rounds == 1 ? " round" : " rounds") + " a step";
      std::cout << to_string(r.status) << ": " << coll.describe() << " on " << net->name() << " (" << to_string(*ports)
                << rounds_rule << "): " << r.reason << "\n";
      for (std::size_t i = 0; i < r.queries.size(); ++i) {
        const auto& q = r.queries[i];
        std::cout << "  " << q.steps << " steps"
                  << (popt->steps > 0 ? ", " + std::to_string(popt->steps + i) + " rounds" : std::string()) << ": "
                  << q.detail
                  << (q.certificate.empty() ? " (" + std::to_string(q.variables) + " variables, " +
                                                  std::to_string(q.clauses) + " clauses)"
                                            : std::string())
                  << "\n";
      }
    }
    code = r.status == proof_status::proven ? exit_holds : exit_unknown;
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

  CLI::App* importer =
      app.add_subcommand("import",
                         "Read a schedule from another tool's format, or one of the papers' models, as a "
                         "collective schedule");
  importer->require_subcommand(1);
  CLI::App* from_msccl = importer->add_subcommand(
      "msccl",
      "An MSCCL-IR XML algorithm as a collective schedule (dancecard.collective/1): each transfer at its depth in the "
      "program's order, its chunk and op read from the values it carries");
  struct import_options {
    std::string file = "-", output, topology, ports = "all-port";
    std::uint32_t slots = 1;
  };
  auto iopt = std::make_shared<import_options>();
  from_msccl->add_option("file", iopt->file, "MSCCL-IR XML file, or - for stdin (default)");
  from_msccl->add_option("--output,-o", iopt->output, "write to FILE instead of stdout")->check(writable_file());
  from_msccl->add_option("--topology", iopt->topology,
                         "the network to put it on: complete:N (default, N = ngpus), ring:N, torus:AxB…, "
                         "hypercube:D, dgx1");
  from_msccl->add_option("--ports", iopt->ports,
                         "all-port (default), one-port-full-duplex, one-port-half-duplex, one-port-simplex");
  from_msccl->add_option("--connection-slots", iopt->slots, "messages a connection buffers (default 1)")
      ->check(CLI::Range(1, 1 << 20));
  from_msccl->callback([iopt, &code] {
    const collective::msccl_program program =
        parse_input(iopt->file, [](const std::string& t) { return collective::read_msccl_xml(t); });
    collective::msccl_import_options options;
    options.connection_slots = iopt->slots;
    const auto ports = collective::parse_port_model(iopt->ports);
    if (!ports)
      throw bad_input(
          "--ports: expected all-port, one-port-full-duplex, one-port-half-duplex or one-port-simplex, got '" +
          iopt->ports + "'");
    options.ports = *ports;
    if (!iopt->topology.empty()) {
      try {
        options.network = collective::builtin_topology(iopt->topology);
      } catch (const std::invalid_argument& e) {
        throw bad_input("--topology: " + std::string(e.what()));
      }
      if (!options.network)
        throw bad_input("--topology: '" + iopt->topology +
                        "' is no built-in network (complete:N, ring:N, torus:AxB…, hypercube:D, dgx1)");
      if (options.network->size() != static_cast<rank>(program.ngpus))
        throw bad_input("--topology: " + options.network->name() + " has " + std::to_string(options.network->size()) +
                        " ranks; " + input_name(iopt->file) + " has " + std::to_string(program.ngpus) + " GPUs");
    }
    const collective::msccl_import_result r = collective::import_msccl(program, options);
    if (!r.imported) {
      if (r.program_invalid) {
        std::cerr << input_name(iopt->file) << ": " << r.reason << "\n" << describe(r.program_check);
        code = exit_violated;
        return;
      }
      throw bad_input(input_name(iopt->file) + ": not a chunk schedule: " + r.reason);
    }
    write_output(iopt->output, [&](std::ostream& out) { write_collective_schedule(out, *r.imported); });
    std::cerr << "imported " << r.imported->algorithm << ": " << r.imported->steps.size() << " steps, "
              << r.imported->rounds() << " rounds, " << r.imported->transfers() << " transfers on "
              << r.imported->network.name() << "; the program's own check: " << to_string(r.program_check.outcome)
              << "\n";
    code = exit_holds;
  });

  add_model_imports(importer, code);
}

}  // namespace dancecard::cli
