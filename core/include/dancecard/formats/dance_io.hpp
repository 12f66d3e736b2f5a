// Reading and writing dance schedules: the JSON format "dancecard.dance/1" and the paper's partner-matrix text.
// Every reading error is a format_error whose message names the problem and its place (a JSON path such as
// rounds[2][1][0], or a line and column), so that a user can fix the file without reading our code.
//
//   auto input = dancecard::dance::read_dance_input(text);        // JSON or matrix, detected by the first character
//   dancecard::dance::write_dance_json(std::cout, schedule, "factorization");
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

#include "dancecard/core/dance/directed.hpp"
#include "dancecard/core/dance/schedule.hpp"
#include "dancecard/formats/format_error.hpp"

namespace dancecard::dance {

inline constexpr std::string_view dance_format_name = "dancecard.dance/1";
inline constexpr std::string_view directed_format_name = "dancecard.directed/1";

/// {"format": "dancecard.dance/1", "n": N, "rounds": [[[a, b], ...], ...]} with 0-based ranks; optional
/// "algorithm" and "comment" strings. Throws format_error.
dance_schedule read_dance_json(std::string_view text);
/// Writes the JSON form (one round per line). `algorithm` is written when not empty.
void write_dance_json(std::ostream& out, const dance_schedule& schedule, std::string_view algorithm = {});

/// {"format": "dancecard.directed/1", "n": N, "rounds": [[[from, to], ...], ...]}: full-duplex rounds of transfers,
/// 0-based; the same keys and error places as the dance format. Throws format_error.
directed_schedule read_directed_json(std::string_view text);
void write_directed_json(std::ostream& out, const directed_schedule& schedule, std::string_view algorithm = {});

/// The partner matrix as text: one line per person, t whitespace-separated 1-based entries, equal to the row number
/// when idle; '#' starts a comment; blank lines are ignored. n is the number of rows. Throws format_error.
partner_matrix read_partner_matrix(std::string_view text);
void write_partner_matrix(std::ostream& out, const partner_matrix& matrix);

/// Either form, told apart by the first non-blank character ('{' means JSON).
std::variant<dance_schedule, partner_matrix> read_dance_input(std::string_view text);

}  // namespace dancecard::dance
