// What the torus commands share (torus_support.cpp): option readers, the constructions every --algo names, and the
// options of the table searches.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/smt/torus_encoding.hpp"

namespace dancecard::cli {

using namespace dancecard::dance;
using namespace dancecard::torus;

// --algo local-search: a table of the pairing or general model (one packet per PU) found by local search against the
// simulator (search/torus_tables.hpp: search_torus_table) — no cycle system, no proof of minimality.
struct local_search_options {
  std::string model = "pairing", seconds = "10", groups = "translations", group_index, start;
  std::uint64_t seed = 1, steps = 0, evaluations = 0;
  unsigned jobs = 1;
  bool progress = false;
  // the registered options, to tell "given" from "default" (an option the chosen --algo ignores is an error)
  CLI::Option *model_option = nullptr, *seconds_option = nullptr, *evaluations_option = nullptr,
              *steps_option = nullptr, *seed_option = nullptr, *groups_option = nullptr, *group_index_option = nullptr,
              *progress_option = nullptr, *start_option = nullptr, *jobs_option = nullptr;
};

/// Whether the time-dependent optimum is known for this torus (2-D, both sides >= 3).
bool optimum_known(const torus::network& network);
torus::network parse_dims(const std::string& dims);
supply_policy parse_supply(const std::string& supply);
torus_model parse_model(const std::string& model);
invariant_groups parse_groups(const std::string& groups);
std::vector<std::size_t> parse_group_index(const std::string& text, std::size_t count);
std::pair<std::string, std::uint64_t> zigzag_theorem_bound(const torus::network& t);
/// The cycle system of --algo on --dims (bad_input naming the conditions when the construction does not apply).
cycle_system build_cycles(const std::string& dims, const std::string& algo);
std::optional<routing_table> table_for(const cycle_system& system, const std::string& algo, supply_policy policy,
                                       const std::string& supply_search = "", bool certify = false);
void reject_unread_options(const local_search_options& o, const std::string& algo);
void require_packets_fit(const torus::network& t, std::uint32_t packets);
routing_table local_search_table(const std::string& dims, const local_search_options& o, std::uint32_t packets,
                                 bool tabu = false);
routing_table catalogue_table(const std::string& dims, const local_search_options& o);
std::string group_ranges(std::vector<std::size_t> numbers, const std::string& sep);
std::optional<routing_table> invariant_table(const std::string& dims, const local_search_options& o, bool certify,
                                             std::uint32_t packets, int& no_table_code);
void check_packets(std::uint32_t packets, const std::string& algo, const std::string& supply,
                   const std::string& supply_search);
routing_table two_packet_table(const cycle_system& system);
void check_max_delay(std::uint32_t max_delay, const std::string& algo, const std::string& supply,
                     const std::string& supply_search, std::uint32_t packets);
void check_certify(bool certify, const std::string& supply_search, const std::string& algo, bool table_file);
routing_table held_packet_table(const cycle_system& system, routing_table table, std::uint32_t max_delay,
                                const gossip_options& options = {}, std::optional<gossip_report>* run = nullptr);
/// The table of generate/simulate torus --dims D --algo A (nothing, with no_table_code set, when a search finds none).
std::optional<routing_table> build(const std::string& dims, const std::string& algo, const std::string& supply,
                                   const local_search_options& local, const std::string& supply_search, bool certify,
                                   std::uint32_t packets, std::uint32_t max_delay, int& no_table_code);
void add_local_search_options(CLI::App* command, local_search_options& o);

/// `dancecard draw torus` (torus_draw.cpp).
void add_draw_torus_command(CLI::App& app, int& code);

}  // namespace dancecard::cli
