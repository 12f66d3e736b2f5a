// Queries that cube and conquer splits (smt/cube_and_conquer.hpp), rebuilt from a spec that every MPI rank, batch job
// and merge makes the same formula from: {"kind": "torus", "dims": "3x5", "model": "pairing", "steps": 4}, or
// {"kind": "collective", "topology": "dgx1", "coll": "allgather", "chunks": 6, "root": 0, "steps": 3, "rounds": 7}, or
// {"kind": "hrel", "instance": {"format": "dancecard.hrel/1", …}, "granularity": 2, "forwarding": true, "slots": 5}.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "dancecard/core/hrel/instance.hpp"
#include "dancecard/smt/cube_and_conquer.hpp"

namespace dancecard::cli {

struct spec_query {
  nlohmann::json spec;
  cubes::cube_query query;
  bool empty_clause = false;  // the formula holds the empty clause (below a counting bound): nothing to split
  /// Writes the witness `query.accept` last accepted (a routing table) to `path` (nothing before one was accepted).
  std::function<void(const std::string& path)> write_witness;
};

/// A cube's result as JSON — {"id", "answer", "budget_spent", "proof_bytes", "proof_sha256", "lemmas_checked",
/// "seconds", "reason", "model"} — as solve-cube writes it and the MPI ranks send it; and back (bad_input naming
/// `where` when a field is missing or of another type).
nlohmann::json cube_result_json(std::size_t id, const cubes::cube_result& r);
cubes::cube_result cube_result_of(const nlohmann::json& j, const std::string& where);

/// require: a spec of a known kind with valid fields (bad_input naming the field otherwise).
spec_query spec_query_of(const nlohmann::json& spec);
/// The spec of `prove torus --dims D --model M --steps S`.
nlohmann::json torus_spec(const std::string& dims, const std::string& model, std::uint64_t steps);
/// The spec of `prove hrel INSTANCE -k K [--forwarding] --slots T`: the instance itself is in it.
nlohmann::json hrel_spec(const hrel::hrel_instance& instance, unsigned granularity, bool forwarding,
                         std::uint64_t slots);
/// The spec of `prove collective --topology T --coll K --chunks C --root R --steps S [--rounds R]` (rounds 0: one
/// round a step), all-port.
nlohmann::json collective_spec(const std::string& topology, const std::string& coll, std::uint64_t chunks,
                               std::uint64_t root, std::uint64_t steps, std::uint64_t rounds);

}  // namespace dancecard::cli
