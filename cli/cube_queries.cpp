// Queries rebuilt from their spec (see the header): the torus gossip query of smt/torus_cubes.hpp.
#include "cube_queries.hpp"

#include "common.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/smt/torus_cubes.hpp"
#include "torus_support.hpp"

namespace dancecard::cli {

nlohmann::json torus_spec(const std::string& dims, const std::string& model, std::uint64_t steps) {
  return {{"kind", "torus"}, {"dims", dims}, {"model", model}, {"steps", steps}};
}

spec_query spec_query_of(const nlohmann::json& spec) {
  if (!spec.is_object() || spec.value("kind", "") != "torus")
    throw bad_input("query: expected {\"kind\": \"torus\", …}, got " + spec.dump());
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

}  // namespace dancecard::cli
