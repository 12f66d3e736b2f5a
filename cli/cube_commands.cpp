// Cube and conquer for batch schedulers without MPI (Slurm job arrays and the like):
//   dancecard prove torus … --steps S --cubes K --emit-cubes DIR   writes the split: DIR/query.cnf, DIR/split.json,
//       one DIR/cube-N.cube (the cube's literals, for any solver as assumptions) and one line of DIR/jobs.txt per cube
//       (`dancecard solve-cube DIR N`), and DIR/slurm.sh, a job array over jobs.txt;
//   dancecard solve-cube DIR N [--conflicts C] [--seconds T]       solves cube N with its DRAT proof checked, writing
//       DIR/cube-N.json (the answer, the proof's SHA-256 and size, the model when sat) and DIR/cube-N.drat;
//   dancecard merge-cubes DIR [--divide] [--witness FILE]          checks every proof against its cube's formula
//       (checkers/drat_check, with the hash the job recorded), every model with the query's own checker, and the
//       cover (checkers/cube_cover_check), and gives the verdict; --divide splits the cubes that spent their budget
//       by the next group and adds their jobs to jobs.txt.
// The formula is rebuilt from the query's spec by each job and by the merge, and must hash as split.json says.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "common.hpp"
#include "cube_commands.hpp"
#include "cube_queries.hpp"
#include "dancecard/checkers/drat_check.hpp"

namespace dancecard::cli {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string cube_file(const fs::path& dir, std::size_t id, const std::string& extension) {
  return (dir / ("cube-" + std::to_string(id) + extension)).string();
}

// The cubes of the plan from `first` on: their files and job lines, appended to split.json's list and jobs.txt.
void write_cube_jobs(const fs::path& dir, const cubes::cube_plan& plan, std::size_t first, json& split) {
  std::ofstream jobs(dir / "jobs.txt", std::ios::app);
  for (std::size_t id = first; id < plan.cubes().size(); ++id) {
    const cubes::cube& c = plan.cubes()[id];
    split["cubes"].push_back({{"id", id}, {"literals", c.literals}, {"description", c.description}});
    std::ofstream units(cube_file(dir, id, ".cube"));
    units << "c cube " << id << ": " << c.description << "\n";
    for (int lit : c.literals) units << lit << " ";
    units << "0\n";
    if (!units) throw bad_input(cube_file(dir, id, ".cube") + ": cannot write");
    jobs << "dancecard solve-cube " << dir.string() << " " << id << split.value("budget", std::string()) << "\n";
  }
  if (!jobs) throw bad_input((dir / "jobs.txt").string() + ": cannot write");
}

void write_split(const fs::path& dir, const json& split) {
  std::ofstream out(dir / "split.json");
  out << split.dump(1) << "\n";
  if (!out) throw bad_input((dir / "split.json").string() + ": cannot write");
}

struct loaded_split {
  json split;
  spec_query q;
};

// split.json, and the query rebuilt from its spec — refused when its formula does not hash as split.json says.
loaded_split load_split(const fs::path& dir) {
  const std::string path = (dir / "split.json").string();
  json split;
  try {
    split = json::parse(read_input(path));
  } catch (const json::exception& e) {
    throw bad_input(path + ": " + e.what());
  }
  if (split.value("format", "") != "dancecard.cube-split/1" || !split.contains("query") || !split.contains("cubes"))
    throw bad_input(path + ": not a dancecard.cube-split/1 file");
  spec_query q = spec_query_of(split["query"]);
  if (sha256(q.query.formula.dimacs()) != split.value("formula_sha256", ""))
    throw bad_input(path + ": the query's formula, rebuilt, does not hash as recorded (another version of dancecard?)");
  return {std::move(split), std::move(q)};
}

}  // namespace

void emit_cubes(const std::string& dir_name, const nlohmann::json& spec, std::uint64_t wanted, std::uint64_t conflicts,
                unsigned seconds) {
  const spec_query q = spec_query_of(spec);
  if (q.empty_clause) throw bad_input("--emit-cubes: the query is refuted by its count alone; nothing to split");
  create_emit_directory(dir_name);
  const fs::path dir(dir_name);
  const cubes::cube_plan plan(q.query.groups, wanted);
  const std::string dimacs = q.query.formula.dimacs();
  {
    std::ofstream cnf(dir / "query.cnf");
    cnf << dimacs;
    if (!cnf) throw bad_input((dir / "query.cnf").string() + ": cannot write");
  }
  std::string budget;
  if (conflicts != 0) budget += " --conflicts " + std::to_string(conflicts);
  if (seconds != 0) budget += " --seconds " + std::to_string(seconds);
  json split{{"format", "dancecard.cube-split/1"},
             {"query", q.spec},
             {"name", q.query.name},
             {"formula_sha256", sha256(dimacs)},
             {"first_cubes", plan.cubes().size()},
             {"budget", budget},
             {"groups", json::array()},
             {"cubes", json::array()}};
  for (const cubes::split_group& g : q.query.groups)
    split["groups"].push_back({{"name", g.name}, {"literals", g.literals}});
  std::ofstream(dir / "jobs.txt", std::ios::trunc);
  write_cube_jobs(dir, plan, 0, split);
  write_split(dir, split);
  std::ofstream slurm(dir / "slurm.sh");
  slurm << "#!/bin/sh\n# sbatch --array=0-" << plan.cubes().size() - 1 << " " << (dir / "slurm.sh").string()
        << "   (--divide adds lines to jobs.txt: give the array their numbers)\n"
        << "sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " << (dir / "jobs.txt").string() << " | sh\n";
  std::cout << "wrote " << plan.cubes().size() << " cubes of " << q.query.name << " to " << dir_name
            << ": query.cnf, split.json, cube-N.cube, jobs.txt, slurm.sh; then `dancecard merge-cubes " << dir_name
            << "`\n";
}

void add_cube_commands(CLI::App& app, int& code) {
  struct options {
    std::string dir, witness;
    std::size_t id = 0;
    std::uint64_t conflicts = 0;
    unsigned seconds = 0;
    bool divide = false;
  };
  auto o = std::make_shared<options>();
  CLI::App* solve = app.add_subcommand("solve-cube", "Solve one cube of a split written by --emit-cubes");
  solve->add_option("dir", o->dir, "the split's directory")->required();
  solve->add_option("id", o->id, "the cube's number")->required();
  solve->add_option("--conflicts", o->conflicts, "give up after this many CaDiCaL conflicts (default: no limit)");
  solve->add_option("--seconds", o->seconds, "give up after this many seconds (default: no limit)");
  solve->callback([o, &code] {
    const fs::path dir(o->dir);
    const loaded_split s = load_split(dir);
    const json* entry = nullptr;
    for (const json& c : s.split["cubes"])
      if (c.value("id", std::size_t{0}) == o->id) entry = &c;
    if (!entry) throw bad_input((dir / "split.json").string() + ": no cube " + std::to_string(o->id));
    const std::vector<int> literals = entry->at("literals").get<std::vector<int>>();
    std::string digest;
    const std::string proof_path = cube_file(dir, o->id, ".drat");
    cubes::cube_result r = cubes::solve_cube(s.q.query.formula, literals, {o->seconds * 1000, o->conflicts}, nullptr,
                                             [&](const drat_trace& proof) {
                                               std::ofstream out(proof_path, std::ios::binary);
                                               digest = sha256(proof, [&](std::string_view piece) {
                                                 out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
                                               });
                                               if (!out) throw bad_input(proof_path + ": cannot write");
                                             });
    r.proof_sha256 = digest;
    std::ofstream out(cube_file(dir, o->id, ".json"));
    out << cube_result_json(o->id, r).dump() << "\n";
    if (!out) throw bad_input(cube_file(dir, o->id, ".json") + ": cannot write");
    std::cout << "cube " << o->id << " (" << entry->value("description", "") << "): " << to_string(r.answer) << " ("
              << r.reason << ")\n";
    code = exit_for(r.answer);
  });

  CLI::App* merge = app.add_subcommand(
      "merge-cubes", "Check every cube's proof or model and the cover of a split written by --emit-cubes: the verdict");
  merge->add_option("dir", o->dir, "the split's directory")->required();
  merge->add_flag("--divide", o->divide,
                  "divide the cubes that spent their budget by the next group, and add their jobs to jobs.txt");
  merge->add_option("--witness", o->witness, "write the witness to FILE when sat")->check(writable_file());
  merge->callback([o, &code] {
    const fs::path dir(o->dir);
    loaded_split s = load_split(dir);
    cubes::cube_plan plan(s.q.query.groups, s.split.value("first_cubes", std::uint64_t{1}));
    const std::size_t before = plan.cubes().size();
    std::uint64_t missing = 0, checked = 0;
    for (json& entry : s.split["cubes"]) {
      const auto id = entry.at("id").get<std::size_t>();
      const std::vector<int> literals = entry.at("literals").get<std::vector<int>>();
      if (id >= plan.cubes().size() || plan.cubes()[id].literals != literals)
        throw bad_input((dir / "split.json").string() + ": cube " + std::to_string(id) + " is not this split's");
      if (entry.value("divided", false)) {
        plan.restore_divided(literals);
        continue;
      }
      std::ifstream in(cube_file(dir, id, ".json"));
      if (!in) {
        ++missing;
        continue;
      }
      json result;
      try {
        result = json::parse(in);
      } catch (const json::exception& e) {
        throw bad_input(cube_file(dir, id, ".json") + ": " + e.what());
      }
      const cubes::cube_result recorded = cube_result_of(result, cube_file(dir, id, ".json"));
      cubes::cube_result r;  // what this merge accepts of it
      r.budget_spent = recorded.budget_spent;
      r.seconds = recorded.seconds;
      r.reason = recorded.reason;
      if (recorded.answer == solver_answer::unsat) {  // the job's proof, checked again against the cube's formula
        const std::string proof = cube_file(dir, id, ".drat");
        const std::string hash = sha256_of_file(proof);
        std::ifstream stream(proof, std::ios::binary);
        const certificates::drat_report check =
            certificates::check_drat(cubes::cube_formula(s.q.query.formula, literals, "").dimacs(), stream);
        ++checked;
        if (hash != recorded.proof_sha256) {
          r.reason = proof + " does not hash as the job recorded";
        } else if (check.outcome != verdict::holds) {
          r.reason = proof + " is not accepted: " + describe(check);
        } else {
          r.answer = solver_answer::unsat;
          r.proof_sha256 = hash;
          r.proof_bytes = recorded.proof_bytes;
          r.lemmas_checked = check.checked_lemmas;
        }
      } else if (recorded.answer == solver_answer::sat) {
        auto [accepted, reason] = s.q.query.accept(recorded.model);
        r.answer = accepted ? solver_answer::sat : solver_answer::unknown;
        r.reason = accepted ? reason : "the model is not accepted: " + reason;
      }
      plan.restore(literals, r, o->divide);
      if (plan.cubes()[id].status == cubes::cube_status::divided) entry["divided"] = true;
    }
    if (plan.cubes().size() > before || o->divide) {
      write_cube_jobs(dir, plan, s.split["cubes"].size(), s.split);
      write_split(dir, s.split);
    }
    auto [answer, reason] = plan.verdict(s.q.query.formula.clauses);
    if (answer == solver_answer::sat && !o->witness.empty()) s.q.write_witness(o->witness);
    std::cout << s.q.query.name << ": " << reason << "\n  " << checked << " proofs checked here, " << missing
              << " cubes without a result";
    if (plan.cubes().size() > before)
      std::cout << ", " << plan.cubes().size() - before << " new cubes from --divide (their jobs are in jobs.txt)";
    std::cout << "\n";
    code = exit_for(answer);
  });
}

}  // namespace dancecard::cli
