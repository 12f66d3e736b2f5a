// `dancecard check dance [FILE|-] [--json] [--allgather] [--max-witnesses K]`
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "dancecard/checkers/allgather_simulation.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"

namespace dancecard::cli {

namespace {

nlohmann::json to_json(const dance_report& r) {
  nlohmann::json witnesses = nlohmann::json::array();
  for (const auto& v : r.witnesses) {
    nlohmann::json w = {{"kind", to_string(v.kind)}, {"text", describe(v)}};
    switch (v.kind) {
      case dance_violation_kind::person_booked_twice:
        w["person"] = v.a, w["partners"] = {v.b, v.c}, w["round"] = v.round;
        break;
      case dance_violation_kind::self_dance: w["person"] = v.a, w["round"] = v.round; break;
      case dance_violation_kind::too_many_rounds: w["rounds"] = v.round, w["allowed"] = v.b; break;
      case dance_violation_kind::pair_meets_twice: w["pair"] = {v.a, v.b}, w["rounds"] = {v.other_round, v.round}; break;
      case dance_violation_kind::pair_never_meets: w["pair"] = {v.a, v.b}; break;
      case dance_violation_kind::asymmetric_entry:
      case dance_violation_kind::entry_out_of_range:
        w["person"] = v.a, w["round"] = v.round, w["entry"] = v.b;
        break;
      default: w["pair"] = {v.a, v.b}, w["round"] = v.round; break;
    }
    witnesses.push_back(w);
  }
  nlohmann::json counts = nlohmann::json::object();
  for (std::size_t k = 0; k < dance_violation_kind_count; ++k)
    if (r.count_by_kind[k] > 0) counts[std::string(to_string(static_cast<dance_violation_kind>(k)))] = r.count_by_kind[k];
  return {{"verdict", to_string(r.outcome)}, {"checked", r.checked}, {"violation_count", r.violation_count},
          {"counts", counts}, {"witnesses", witnesses}};
}

}  // namespace

void add_check_command(CLI::App& app, int& code) {
  CLI::App* check = app.add_subcommand("check", "Check a schedule file against the papers' constraints");
  check->require_subcommand(1);
  CLI::App* dance = check->add_subcommand("dance", "Check a dance schedule (JSON dancecard.dance/1 or partner matrix)");
  struct options {
    std::string file = "-";
    bool json = false, allgather = false;
    std::size_t max_witnesses = 10;
  };
  auto opt = std::make_shared<options>();
  dance->add_option("file", opt->file, "schedule file, or - for stdin (default)");
  dance->add_flag("--json", opt->json, "print the report as JSON");
  dance->add_flag("--allgather", opt->allgather, "also run the Section 6 all-gather simulation");
  dance->add_option("--max-witnesses", opt->max_witnesses, "witnesses to list (default 10)")->check(integer_at_least(0));
  dance->callback([opt, &code] {
    const std::variant<dance_schedule, partner_matrix> input =
        parse_input(opt->file, [](const std::string& t) { return read_dance_input(t); });
    dance_requirements req;
    req.max_witnesses = opt->max_witnesses;
    dance_report report = std::holds_alternative<dance_schedule>(input)
                              ? check_dance_schedule(std::get<dance_schedule>(input), req)
                              : check_partner_matrix(std::get<partner_matrix>(input), req);
    verdict overall = report.outcome;
    std::optional<allgather_report> sim;
    if (opt->allgather) {
      sim = std::holds_alternative<dance_schedule>(input) ? simulate_allgather(std::get<dance_schedule>(input))
                                                          : simulate_allgather(std::get<partner_matrix>(input));
      if (sim->outcome != verdict::holds) overall = verdict::violated;
    }
    if (opt->json) {
      nlohmann::json out = to_json(report);
      if (sim)
        out["allgather"] = {{"verdict", to_string(sim->outcome)}, {"steps", sim->steps}, {"messages", sim->messages},
                            {"deadlock_cycle", sim->deadlock_cycle}, {"problem", sim->problem}};
      out["verdict"] = to_string(overall);
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << describe(report);
      if (sim) std::cout << "allgather " << describe(*sim) << "\n";
    }
    code = exit_for(overall);
  });

  CLI::App* hrel = check->add_subcommand(
      "hrel", "Check an h-relation schedule (dancecard.hrel-schedule/1) against its instance (dancecard.hrel/1)");
  auto hopt = std::make_shared<std::pair<std::string, std::string>>();
  auto full_duplex = std::make_shared<bool>(false);
  hrel->add_option("instance", hopt->first, "the instance file")->required();
  hrel->add_option("schedule", hopt->second, "the schedule file, or - for stdin")->required();
  hrel->add_flag("--full-duplex", *full_duplex, "full-duplex ports (one send and one receive per slot)");
  hrel->callback([hopt, full_duplex, &code] {
    const hrel_instance instance = parse_input(hopt->first, [](const std::string& t) { return read_hrel_instance(t); });
    const hrel_schedule schedule = parse_input(hopt->second, [](const std::string& t) { return read_hrel_schedule(t); });
    if (schedule.pes != instance.pes())
      throw bad_input(hopt->second + ": P: the schedule is for P = " + std::to_string(schedule.pes) +
                      ", the instance for P = " + std::to_string(instance.pes()));
    const hrel_report report = check_hrel_schedule(instance, schedule, *full_duplex ? duplex::full : duplex::half);
    std::cout << describe(report);
    code = exit_for(report.outcome);
  });

  CLI::App* directed = check->add_subcommand(
      "directed", "Check a full-duplex all-to-all schedule (dancecard.directed/1); --half-duplex also reads it as a dance");
  auto dopt = std::make_shared<options>();
  auto half_duplex = std::make_shared<bool>(false);
  directed->add_option("file", dopt->file, "schedule file, or - for stdin (default)");
  directed->add_flag("--half-duplex", *half_duplex, "also check it as a half-duplex dance schedule (dance_view)");
  directed->add_option("--max-witnesses", dopt->max_witnesses, "witnesses to list (default 10)")->check(integer_at_least(0));
  directed->callback([dopt, half_duplex, &code] {
    const directed_schedule schedule =
        parse_input(dopt->file, [](const std::string& t) { return read_directed_json(t); });
    const directed_report report = check_directed_schedule(schedule, dopt->max_witnesses);
    std::cout << "full duplex " << describe(report);
    verdict overall = report.outcome;
    if (*half_duplex) {
      dance_requirements req;
      req.max_witnesses = dopt->max_witnesses;
      const dance_report dance = check_dance_schedule(dance_view(schedule), req);
      std::cout << "half duplex " << describe(dance);
      if (!dance.holds()) overall = verdict::violated;
    }
    code = exit_for(overall);
  });
}

}  // namespace dancecard::cli
