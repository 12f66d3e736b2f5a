// `dancecard check dance|directed|hrel …`: a schedule against its model. Every check takes the same report options
// (--json, --max-witnesses, --max-gap) and, when the schedule holds, reports how far it is from the bound the papers
// give (the optimum where it is known) and fails with --max-gap when it is farther.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "dancecard/checkers/allgather_simulation.hpp"
#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/checkers/msccl_check.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/core/hrel/bounds.hpp"
#include "dancecard/formats/collective_io.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/formats/msccl_io.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;
using namespace dancecard::hrel;

namespace {

// A report as JSON: the verdict, what was checked, the counts per kind and the witnesses' text.
template <class Kind, class Report>
nlohmann::json report_json(const Report& r) {
  nlohmann::json witnesses = nlohmann::json::array();
  for (const auto& v : r.witnesses) witnesses.push_back({{"kind", to_string(v.kind)}, {"text", describe(v)}});
  nlohmann::json counts = nlohmann::json::object();
  for (std::size_t k = 0; k < r.count_by_kind.size(); ++k)
    if (r.count_by_kind[k] > 0) counts[std::string(to_string(static_cast<Kind>(k)))] = r.count_by_kind[k];
  return {{"verdict", to_string(r.outcome)},
          {"checked", r.checked},
          {"violation_count", r.violation_count},
          {"counts", counts},
          {"witnesses", witnesses}};
}

// A dance report as JSON: report_json, each witness with its people and rounds as numbers besides its text.
nlohmann::json to_json(const dance_report& r) {
  nlohmann::json out = report_json<dance_violation_kind>(r);
  for (std::size_t k = 0; k < r.witnesses.size(); ++k) {
    const dance_violation& v = r.witnesses[k];
    nlohmann::json& w = out["witnesses"][k];
    switch (v.kind) {
      case dance_violation_kind::person_booked_twice:
        w["person"] = v.a, w["partners"] = {v.b, v.c}, w["round"] = v.round;
        break;
      case dance_violation_kind::self_dance:
        w["person"] = v.a, w["round"] = v.round;
        break;
      case dance_violation_kind::too_many_rounds:
        w["rounds"] = v.round, w["allowed"] = v.b;
        break;
      case dance_violation_kind::pair_meets_twice:
        w["pair"] = {v.a, v.b}, w["rounds"] = {v.other_round, v.round};
        break;
      case dance_violation_kind::pair_never_meets:
        w["pair"] = {v.a, v.b};
        break;
      case dance_violation_kind::asymmetric_entry:
      case dance_violation_kind::entry_out_of_range:
        w["person"] = v.a, w["round"] = v.round, w["entry"] = v.b;
        break;
      default:
        w["pair"] = {v.a, v.b}, w["round"] = v.round;
        break;
    }
  }
  return out;
}

// The options every check takes, declared once (add_report_options).
struct report_options {
  bool json = false;
  std::size_t max_witnesses = 10;
  std::string max_gap;  // empty: no limit
};

void add_report_options(CLI::App* command, report_options& o) {
  command->add_flag("--json", o.json, "print the report as JSON");
  command->add_option("--max-witnesses", o.max_witnesses, "witnesses to list (default 10)")->check(integer_at_least(0));
  command->add_option("--max-gap", o.max_gap,
                      "G: a schedule that holds but is more than G above the bound (rounds, or time as a fraction a/b) "
                      "is violated (exit 1)");
}

// How far a schedule that holds is from a bound of its model: "rounds 15; optimum T(6) = 5 (…); 10 above".
struct bound_gap {
  std::string measure;  // "rounds", "makespan"
  rational value, bound;
  std::string bound_name;  // "optimum T(6)", "counting lower bound"
  std::string why;
  rational gap() const { return value - bound; }
  std::string text() const {
    return measure + " " + value.to_string() + "; " + bound_name + " = " + bound.to_string() + " (" + why + "); " +
           (gap() == rational(0) ? std::string("at the bound") : gap().to_string() + " above") + "\n";
  }
  nlohmann::json json() const {
    return {{"measure", measure},
            {"value", value.to_string()},
            {"bound", bound.to_string()},
            {"bound_name", bound_name},
            {"gap", gap().to_string()}};
  }
};

// The report's verdict, with --max-gap applied to a schedule that holds; prints the gap's line (text) or adds it to
// the JSON, and the limit's violation when there is one.
verdict apply_gap(verdict outcome, const std::optional<bound_gap>& gap, const report_options& o, nlohmann::json* out) {
  if (!gap || outcome != verdict::holds) return outcome;
  std::string over;
  if (!o.max_gap.empty()) {
    rational limit;
    try {
      limit = rational::parse(o.max_gap);
    } catch (const std::exception&) {
      throw bad_input("--max-gap: '" + o.max_gap.substr(0, 40) + "' is not a number (an integer or a fraction a/b)");
    }
    if (limit < rational(0)) throw bad_input("--max-gap: " + o.max_gap + " is negative");
    if (gap->gap() > limit)
      over = gap->gap().to_string() + " above the " + gap->bound_name + ", more than --max-gap " + o.max_gap;
  }
  if (out != nullptr) {
    (*out)["bound"] = gap->json();
    if (!over.empty()) (*out)["bound"]["exceeds_max_gap"] = over;
  } else {
    std::cout << gap->text();
    if (!over.empty()) std::cout << "violated: " << over << "\n";
  }
  return over.empty() ? outcome : verdict::violated;
}

}  // namespace

void add_check_command(CLI::App& app, int& code) {
  CLI::App* check = app.add_subcommand("check", "Check a schedule file against the papers' constraints");
  check->require_subcommand(1);
  CLI::App* dance = check->add_subcommand("dance", "Check a dance schedule (JSON dancecard.dance/1 or partner matrix)");
  struct options {
    std::string file = "-";
    bool allgather = false;
    report_options report;
  };
  auto opt = std::make_shared<options>();
  dance->add_option("file", opt->file, "schedule file, or - for stdin (default)");
  dance->add_flag("--allgather", opt->allgather, "also run the Section 6 all-gather simulation");
  add_report_options(dance, opt->report);
  dance->callback([opt, &code] {
    const std::variant<dance_schedule, partner_matrix> input =
        parse_input(opt->file, [](const std::string& t) { return read_dance_input(t); });
    dance_requirements req;
    req.max_witnesses = opt->report.max_witnesses;
    const bool json_schedule = std::holds_alternative<dance_schedule>(input);
    dance_report report = json_schedule ? check_dance_schedule(std::get<dance_schedule>(input), req)
                                        : check_partner_matrix(std::get<partner_matrix>(input), req);
    const rank n = json_schedule ? std::get<dance_schedule>(input).people() : std::get<partner_matrix>(input).people();
    const std::size_t rounds =
        json_schedule ? std::get<dance_schedule>(input).rounds() : std::get<partner_matrix>(input).rounds();
    verdict overall = report.outcome;
    std::optional<allgather_report> sim;
    if (opt->allgather) {
      sim = json_schedule ? simulate_allgather(std::get<dance_schedule>(input))
                          : simulate_allgather(std::get<partner_matrix>(input));
      if (sim->outcome != verdict::holds) overall = verdict::violated;
    }
    std::optional<bound_gap> gap;
    if (n >= 1)
      gap = bound_gap{"rounds", rational(static_cast<std::int64_t>(rounds)),
                      rational(static_cast<std::int64_t>(optimal_rounds(n))), "optimum T(" + std::to_string(n) + ")",
                      "Propositions 1 and 5: n - 1 for even n, n for odd n"};
    if (opt->report.json) {
      nlohmann::json out = to_json(report);
      if (sim)
        out["allgather"] = {{"verdict", to_string(sim->outcome)},
                            {"steps", sim->steps},
                            {"messages", sim->messages},
                            {"deadlock_cycle", sim->deadlock_cycle},
                            {"problem", sim->problem}};
      overall = apply_gap(overall, gap, opt->report, &out);
      out["verdict"] = to_string(overall);
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << describe(report);
      if (sim) std::cout << "allgather " << describe(*sim) << "\n";
      overall = apply_gap(overall, gap, opt->report, nullptr);
    }
    code = exit_for(overall);
  });

  CLI::App* hrel = check->add_subcommand(
      "hrel", "Check an h-relation schedule (dancecard.hrel-schedule/1) against its instance (dancecard.hrel/1)");
  struct hrel_options {
    std::string instance, schedule;
    bool full_duplex = false;
    report_options report;
  };
  auto hopt = std::make_shared<hrel_options>();
  hrel->add_option("instance", hopt->instance, "the instance file")->required();
  hrel->add_option("schedule", hopt->schedule, "the schedule file, or - for stdin")->required();
  hrel->add_flag("--full-duplex", hopt->full_duplex, "full-duplex ports (one send and one receive per slot)");
  add_report_options(hrel, hopt->report);
  hrel->callback([hopt, &code] {
    const hrel_instance instance =
        parse_input(hopt->instance, [](const std::string& t) { return read_hrel_instance(t); });
    const hrel_schedule schedule =
        parse_input(hopt->schedule, [](const std::string& t) { return read_hrel_schedule(t); });
    if (schedule.pes != instance.pes())
      throw bad_input(hopt->schedule + ": P: the schedule is for P = " + std::to_string(schedule.pes) +
                      ", the instance for P = " + std::to_string(instance.pes()));
    const hrel_report report = check_hrel_schedule(instance, schedule, hopt->full_duplex ? duplex::full : duplex::half,
                                                   hopt->report.max_witnesses);
    // The counting bound: half duplex, every PE sends and receives its packets one at a time and at most P/2
    // transfers run at once; full duplex, every PE sends its packets one at a time and receives them one at a time.
    const bound_gap gap =
        hopt->full_duplex
            ? bound_gap{"makespan", report.makespan, rational(static_cast<std::int64_t>(instance.h_full_duplex())),
                        "counting lower bound", "full duplex: the most packets a PE sends, or receives"}
            : bound_gap{"makespan", report.makespan, counting_lower_bound(instance), "counting lower bound",
                        "half duplex: max(h, V / floor(P/2))"};
    verdict overall = report.outcome;
    if (hopt->report.json) {
      nlohmann::json out = report_json<hrel_violation_kind>(report);
      out["makespan"] = report.makespan.to_string();
      overall = apply_gap(overall, gap, hopt->report, &out);
      out["verdict"] = to_string(overall);
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << describe(report);
      overall = apply_gap(overall, gap, hopt->report, nullptr);
    }
    code = exit_for(overall);
  });

  CLI::App* directed = check->add_subcommand(
      "directed",
      "Check a full-duplex all-to-all schedule (dancecard.directed/1); --half-duplex also reads it as a dance");
  auto dopt = std::make_shared<options>();
  auto half_duplex = std::make_shared<bool>(false);
  directed->add_option("file", dopt->file, "schedule file, or - for stdin (default)");
  directed->add_flag("--half-duplex", *half_duplex, "also check it as a half-duplex dance schedule (dance_view)");
  add_report_options(directed, dopt->report);
  directed->callback([dopt, half_duplex, &code] {
    const directed_schedule schedule =
        parse_input(dopt->file, [](const std::string& t) { return read_directed_json(t); });
    const directed_report report = check_directed_schedule(schedule, dopt->report.max_witnesses);
    verdict overall = report.outcome;
    std::optional<dance_report> dance;
    if (*half_duplex) {
      dance_requirements req;
      req.max_witnesses = dopt->report.max_witnesses;
      dance = check_dance_schedule(dance_view(schedule), req);
      if (!dance->holds()) overall = verdict::violated;
    }
    std::optional<bound_gap> gap;
    if (schedule.people() >= 2)
      gap = bound_gap{"rounds", rational(static_cast<std::int64_t>(schedule.rounds())),
                      rational(static_cast<std::int64_t>(schedule.people() - 1)), "optimum n - 1",
                      "every rank sends to n - 1 others, one per round"};
    if (dopt->report.json) {
      nlohmann::json out = report_json<directed_violation_kind>(report);
      if (dance) out["half_duplex"] = to_json(*dance);
      overall = apply_gap(overall, gap, dopt->report, &out);
      out["verdict"] = to_string(overall);
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << "full duplex " << describe(report);
      if (dance) std::cout << "half duplex " << describe(*dance);
      overall = apply_gap(overall, gap, dopt->report, nullptr);
    }
    code = exit_for(overall);
  });

  CLI::App* coll = check->add_subcommand(
      "collective",
      "Check a collective schedule (dancecard.collective/1): links, ports, causality, contributions, postcondition");
  auto copt = std::make_shared<options>();
  coll->add_option("file", copt->file, "schedule file, or - for stdin (default)");
  add_report_options(coll, copt->report);
  coll->callback([copt, &code] {
    const collective::schedule schedule =
        parse_input(copt->file, [](const std::string& t) { return collective::read_collective_schedule(t); });
    const collective::collective_report report =
        collective::check_collective_schedule(schedule, {.max_witnesses = copt->report.max_witnesses});
    std::optional<bound_gap> gap;
    if (report.step_bound != 0 && !report.unreachable)
      gap = bound_gap{"steps", rational(static_cast<std::int64_t>(report.steps)),
                      rational(static_cast<std::int64_t>(report.step_bound)), "distance lower bound",
                      "a chunk moves one hop a step"};
    verdict overall = report.outcome;
    if (copt->report.json) {
      nlohmann::json out = report_json<collective::collective_violation_kind>(report);
      out["steps"] = report.steps;
      out["rounds"] = report.rounds;
      out["transfers"] = report.transfers;
      out["round_bound"] = report.round_bound;
      if (report.round_bound_cut != 0) {  // the ranks whose chunks must leave over the cut that gives the bound
        nlohmann::json inside = nlohmann::json::array();
        for (rank r = 0; r < 32; ++r)
          if ((report.round_bound_cut >> r & 1) != 0) inside.push_back(r);
        out["round_bound_cut"] = inside;
      }
      out["busiest_link"] = {
          {"from", report.busiest_from}, {"to", report.busiest_to}, {"chunks", report.busiest_link_chunks}};
      overall = apply_gap(overall, gap, copt->report, &out);
      out["verdict"] = to_string(overall);
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << describe(report);
      overall = apply_gap(overall, gap, copt->report, nullptr);
    }
    code = exit_for(overall);
  });

  CLI::App* msccl = check->add_subcommand(
      "msccl", "Check an MSCCL-IR XML algorithm: structure, matching, deadlock, races, the collective's postcondition");
  auto mopt = std::make_shared<options>();
  auto slots = std::make_shared<std::uint32_t>(1);
  msccl->add_option("file", mopt->file, "MSCCL-IR XML file, or - for stdin (default)");
  msccl
      ->add_option("--connection-slots", *slots,
                   "messages a connection buffers before a send waits (default 1; deadlock freedom with 1 holds "
                   "with more)")
      ->check(CLI::Range(1, 1 << 20));
  add_report_options(msccl, mopt->report);
  msccl->callback([mopt, slots, &code] {
    const collective::msccl_program program =
        parse_input(mopt->file, [](const std::string& t) { return collective::read_msccl_xml(t); });
    const collective::msccl_report report = collective::check_msccl_program(
        program, {.max_witnesses = mopt->report.max_witnesses, .connection_slots = *slots});
    std::optional<bound_gap> gap;
    if (report.receive_bound > 0)
      gap = bound_gap{"chunks received by the busiest GPU",
                      rational(static_cast<std::int64_t>(report.most_received_chunks)),
                      rational(static_cast<std::int64_t>(report.receive_bound)), "(n - 1)·C",
                      "every GPU receives the chunks of all others"};
    verdict overall = report.outcome;
    if (mopt->report.json) {
      nlohmann::json out = report_json<collective::msccl_violation_kind>(report);
      for (std::size_t k = 0; k < report.witnesses.size(); ++k) {
        nlohmann::json steps = nlohmann::json::array();
        for (const collective::msccl_step_ref& r : report.witnesses[k].steps)
          steps.push_back({{"gpu", r.gpu}, {"tb", r.tb}, {"step", r.step}});
        out["witnesses"][k]["steps"] = steps;
      }
      out["steps"] = report.steps;
      out["transfers"] = report.transfers;
      out["critical_path"] = report.critical_path;
      out["busiest_connection"] = {
          {"from", report.busiest_from}, {"to", report.busiest_to}, {"chunks", report.busiest_connection_chunks}};
      out["postcondition_checked"] = report.postcondition_checked;
      out["connection_slots"] = *slots;
      overall = apply_gap(overall, gap, mopt->report, &out);
      out["verdict"] = to_string(overall);
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << describe(report);
      overall = apply_gap(overall, gap, mopt->report, nullptr);
    }
    code = exit_for(overall);
  });
}

}  // namespace dancecard::cli
