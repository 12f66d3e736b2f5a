// Queries rebuilt from their spec (see the header): torus gossip (smt/torus_cubes.hpp), collectives and h-relations.
#include "cube_queries.hpp"

#include <algorithm>
#include <sstream>

#include "common.hpp"

#include "dancecard/formats/collective_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/smt/collective_synthesis.hpp"
#include "dancecard/smt/hrel_cubes.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "torus_support.hpp"

namespace dancecard::cli {

nlohmann::json cube_result_json(std::size_t id, const cubes::cube_result& r) {
  return {{"id", id},
          {"answer", std::string(to_string(r.answer))},
          {"budget_spent", r.budget_spent},
          {"proof_bytes", r.proof_bytes},
          {"proof_sha256", r.proof_sha256},
          {"lemmas_checked", r.lemmas_checked},
          {"seconds", r.seconds},
          {"reason", r.reason},
          {"model", r.model}};
}

cubes::cube_result cube_result_of(const nlohmann::json& j, const std::string& where) {
  cubes::cube_result r;
  try {
    const std::string answer = j.at("answer").get<std::string>();
    if (answer != "sat" && answer != "unsat" && answer != "unknown")
      throw bad_input(where + ": answer: expected sat, unsat or unknown, got '" + answer + "'");
    r.answer = answer == "sat" ? solver_answer::sat : answer == "unsat" ? solver_answer::unsat : solver_answer::unknown;
    r.budget_spent = j.at("budget_spent").get<bool>();
    r.proof_bytes = j.at("proof_bytes").get<std::uint64_t>();
    r.proof_sha256 = j.at("proof_sha256").get<std::string>();
    r.lemmas_checked = j.at("lemmas_checked").get<std::uint64_t>();
    r.seconds = j.at("seconds").get<double>();
    r.reason = j.at("reason").get<std::string>();
    r.model = j.at("model").get<std::vector<int>>();
  } catch (const nlohmann::json::exception& e) {
    throw bad_input(where + ": " + e.what());
  }
  return r;
}

nlohmann::json torus_spec(const std::string& dims, const std::string& model, std::uint64_t steps) {
  return {{"kind", "torus"}, {"dims", dims}, {"model", model}, {"steps", steps}};
}

namespace {

spec_query collective_query_of(const nlohmann::json& spec);
spec_query hrel_query_of(const nlohmann::json& spec);

}  // namespace

spec_query spec_query_of(const nlohmann::json& spec) {
  if (spec.is_object() && spec.value("kind", "") == "collective") return collective_query_of(spec);
  if (spec.is_object() && spec.value("kind", "") == "hrel") return hrel_query_of(spec);
  if (!spec.is_object() || spec.value("kind", "") != "torus")
    throw bad_input(
        "query: expected {\"kind\": \"torus\", …}, {\"kind\": \"collective\", …} or {\"kind\": \"hrel\", …}, got " +
        spec.dump());
  if (!spec.contains("dims") || !spec["dims"].is_string() || !spec.contains("model") || !spec["model"].is_string() ||
      !spec.contains("steps") || !spec["steps"].is_number_unsigned())
    throw bad_input("query: a torus query names dims, model and steps, got " + spec.dump());
  const std::string dims = spec["dims"].get<std::string>(), model_name = spec["model"].get<std::string>();
  const std::uint64_t steps = spec["steps"].get<std::uint64_t>();
  const torus::network t = parse_dims(dims);
  const torus::torus_model model = parse_model(model_name);
  if (t.size() > 64) throw bad_input("query: dims " + dims + ": at most 64 PUs");
  if (steps < 1 || steps > 4096) throw bad_input("query: steps 1 to 4096");
  torus::torus_cube_query tq = torus::torus_cubes_of(t, model, steps);
  spec_query out;
  out.spec = torus_spec(dims, model_name, steps);
  out.empty_clause = tq.empty_clause;
  out.query.name = "torus " + t.name() + ", " + model_name + " model, " + std::to_string(steps) + " steps";
  out.query.formula = std::move(tq.formula);
  out.query.groups = std::move(tq.groups);
  auto witness = std::make_shared<std::optional<torus::routing_table>>();
  const int variables = out.query.formula.variables;
  out.query.accept = [t, model, steps, variables, witness](const std::vector<int>& m) {
    auto [table, reason] = torus::torus_cube_witness(t, model, steps, m, variables);
    const bool accepted = table.has_value();
    if (accepted) *witness = std::move(table);
    return std::pair<bool, std::string>(accepted, "its table " + reason);
  };
  out.write_witness = [witness, model_name](const std::string& path) {
    if (*witness) write_output(path, [&](std::ostream& o) { write_torus_routing(o, **witness, "sat-" + model_name); });
  };
  return out;
}

nlohmann::json collective_spec(const std::string& topology, const std::string& coll, std::uint64_t chunks,
                               std::uint64_t root, std::uint64_t steps, std::uint64_t rounds) {
  nlohmann::json spec{{"kind", "collective"}, {"topology", topology}, {"coll", coll},
                      {"chunks", chunks},     {"root", root},         {"steps", steps}};
  if (rounds != 0) spec["rounds"] = rounds;
  return spec;
}

nlohmann::json hrel_spec(const hrel::hrel_instance& instance, unsigned granularity, bool forwarding,
                         std::uint64_t slots) {
  std::ostringstream text;
  hrel::write_hrel_instance(text, instance);
  return {{"kind", "hrel"},
          {"instance", nlohmann::json::parse(text.str())},
          {"granularity", granularity},
          {"forwarding", forwarding},
          {"slots", slots}};
}

namespace {

std::uint64_t unsigned_field(const nlohmann::json& spec, const char* key, std::uint64_t lo, std::uint64_t hi) {
  if (!spec.contains(key) || !spec[key].is_number_unsigned() || spec[key].get<std::uint64_t>() < lo ||
      spec[key].get<std::uint64_t>() > hi)
    throw bad_input(std::string("query: ") + key + " must be a whole number from " + std::to_string(lo) + " to " +
                    std::to_string(hi) + ", in " + spec.dump());
  return spec[key].get<std::uint64_t>();
}

// {"kind": "collective", "topology": "dgx1", "coll": "allgather", "chunks": C, "root": r, "steps": S[, "rounds": R]}:
// collective_split_query: collective_steps_cnf (combining_steps_cnf for reduce, reduce-scatter and all-reduce),
// all-port, with its groups; a model is decoded and checked by the collective checker.
spec_query collective_query_of(const nlohmann::json& spec) {
  if (!spec.contains("topology") || !spec["topology"].is_string() || !spec.contains("coll") ||
      !spec["coll"].is_string())
    throw bad_input("query: a collective query names topology and coll, got " + spec.dump());
  const std::string topology_name = spec["topology"].get<std::string>(), coll_name = spec["coll"].get<std::string>();
  std::optional<collective::topology> network;
  try {
    network = collective::builtin_topology(topology_name);
  } catch (const std::invalid_argument& e) {
    throw bad_input("query: topology " + topology_name + ": " + e.what());
  }
  if (!network) throw bad_input("query: topology " + topology_name + " is no built-in network");
  const auto kind = collective::parse_collective_kind(coll_name);
  if (!kind || *kind == collective::collective_kind::alltoallv)
    throw bad_input(
        "query: coll must be allgather, alltoall, broadcast, gather, scatter, reduce, reduce-scatter or allreduce, "
        "not " +
        coll_name);
  const bool combines = collective::combining(*kind);
  const std::uint64_t chunks = unsigned_field(spec, "chunks", 1, 1024);
  const std::uint64_t root = unsigned_field(spec, "root", 0, network->size() - 1);
  const std::uint64_t steps = unsigned_field(spec, "steps", 1, 64);
  const std::uint64_t rounds = spec.contains("rounds") ? unsigned_field(spec, "rounds", steps, steps + 4096) : 0;
  const collective::collective coll(*kind, network->size(), static_cast<std::uint32_t>(chunks),
                                    static_cast<rank>(root));
  collective::synthesis_options options;
  if (rounds != 0) options.total_rounds = static_cast<std::uint32_t>(rounds);
  spec_query out;
  out.spec = collective_spec(topology_name, coll_name, chunks, root, steps, rounds);
  try {
    collective::split_query split = collective::collective_split_query(*network, coll, steps, options);
    out.query.formula = std::move(split.formula);
    out.query.groups = std::move(split.groups);
  } catch (const std::invalid_argument& e) {
    throw bad_input(std::string("query: ") + e.what());
  } catch (const collective::formula_too_large& e) {
    throw resource_limit(std::string("query: ") + e.what());
  }
  out.empty_clause = std::any_of(out.query.formula.clauses.begin(), out.query.formula.clauses.end(),
                                 [](const std::vector<int>& c) { return c.empty(); });
  out.query.name = coll.describe() + " on " + network->name() + ", " + std::to_string(steps) + " steps" +
                   (rounds != 0 ? ", " + std::to_string(rounds) + " rounds" : "");
  auto witness = std::make_shared<std::optional<collective::schedule>>();
  const int variables = out.query.formula.variables;
  const collective::topology net = *network;
  out.query.accept = [net, coll, steps, options, variables, witness, combines](const std::vector<int>& m) {
    const auto decode = combines ? collective::decode_combining_model : collective::decode_collective_model;
    collective::schedule s = decode(net, coll, steps, options, m, variables, "cube and conquer (CaDiCaL)");
    const collective::collective_report check = collective::check_collective_schedule(s);
    if (!check.holds()) return std::pair<bool, std::string>(false, "its schedule is rejected: " + describe(check));
    *witness = std::move(s);
    return std::pair<bool, std::string>(true, "its schedule holds in the collective checker (" +
                                                  std::to_string(check.transfers) + " transfers, " +
                                                  std::to_string(check.rounds) + " rounds)");
  };
  out.write_witness = [witness](const std::string& path) {
    if (*witness) write_output(path, [&](std::ostream& o) { collective::write_collective_schedule(o, **witness); });
  };
  return out;
}

// {"kind": "hrel", "instance": {dancecard.hrel/1}, "granularity": k, "forwarding": true, "slots": T}: hrel_query_cnf,
// split along hrel_cubes_of's groups; a model is decoded and checked by the half-duplex checker.
spec_query hrel_query_of(const nlohmann::json& spec) {
  if (!spec.contains("instance") || !spec["instance"].is_object() || !spec.contains("forwarding") ||
      !spec["forwarding"].is_boolean())
    throw bad_input("query: an hrel query holds its instance (a dancecard.hrel/1 object) and forwarding, got " +
                    spec.dump());
  const hrel::hrel_instance instance = [&] {
    try {
      return hrel::read_hrel_instance(spec["instance"].dump());
    } catch (const std::exception& e) {
      throw bad_input(std::string("query: instance: ") + e.what());
    }
  }();
  if (instance.messages().empty()) throw bad_input("query: instance: the instance has no messages");
  const auto k = static_cast<unsigned>(unsigned_field(spec, "granularity", 1, 100));
  const bool forwarding = spec["forwarding"].get<bool>();
  const std::uint64_t slots = unsigned_field(spec, "slots", 1, 4096);
  if (const std::string why = hrel::hrel_proof_size_problem(instance, k); !why.empty())
    throw bad_input("query: instance: " + why);
  if (const std::uint64_t variables = hrel::hrel_query_core_variables(instance, k, forwarding, slots);
      variables > (std::uint64_t{1} << 26))
    throw bad_input("query: " + std::to_string(variables) + " variables for " + std::to_string(slots) +
                    " slots (at most 2^26): ask fewer slots, or a smaller instance");
  hrel::hrel_cube_query hq = hrel::hrel_cubes_of(instance, k, forwarding, slots);
  spec_query out;
  out.spec = hrel_spec(instance, k, forwarding, slots);
  out.query.name = "h-relation of " + std::to_string(instance.messages().size()) + " messages on " +
                   std::to_string(instance.pes()) + " PEs, " + std::to_string(slots) + " slots of 1/" +
                   std::to_string(k) + (forwarding ? ", with" : ", without") + " forwarding";
  out.query.formula = std::move(hq.formula);
  out.query.groups = std::move(hq.groups);
  auto witness = std::make_shared<std::optional<hrel::hrel_schedule>>();
  out.query.accept = [instance, k, forwarding, slots, witness](const std::vector<int>& m) {
    auto [schedule, reason] = hrel::hrel_cube_witness(instance, k, forwarding, slots, m);
    const bool accepted = schedule.has_value();
    if (accepted) *witness = std::move(schedule);
    return std::pair<bool, std::string>(accepted, "its schedule " + reason);
  };
  out.write_witness = [witness](const std::string& path) {
    if (*witness) write_output(path, [&](std::ostream& o) { hrel::write_hrel_schedule(o, **witness); });
  };
  return out;
}

}  // namespace

}  // namespace dancecard::cli
