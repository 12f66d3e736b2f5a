// The kinds of theorem-book row, as functions that tests can feed false input: a printed table against a generator,
// a property over a range of sizes, a measured constant against a printed one. Each returns `violated` with the
// first difference it finds, so a row built on it holds only after a comparison that could have failed.
#pragma once

#include <chrono>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "dance_paper_tables.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/common/rational.hpp"
#include "dancecard/core/dance/round_counts.hpp"
#include "dancecard/core/dance/schedule.hpp"
#include "dancecard/smt/dance_certificates.hpp"
#include "dancecard/smt/optimality.hpp"
#include "theorem_book.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::torus;

inline partner_matrix matrix_of(const paper::matrix_rows& rows) {
  partner_matrix m(static_cast<rank>(rows.size()), rows.front().size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t r = 0; r < rows[i].size(); ++r) m.set(static_cast<rank>(i + 1), r + 1, rows[i][r]);
  return m;
}

// The first entry where two matrices differ, or "" when they are equal.
inline std::string first_difference(const partner_matrix& got, const partner_matrix& want) {
  if (got.people() != want.people() || got.rounds() != want.rounds())
    return "size " + std::to_string(got.people()) + "x" + std::to_string(got.rounds()) + ", printed " +
           std::to_string(want.people()) + "x" + std::to_string(want.rounds());
  for (rank i = 1; i <= got.people(); ++i)
    for (std::size_t r = 1; r <= got.rounds(); ++r)
      if (got.at(i, r) != want.at(i, r))
        return "entry (" + std::to_string(i) + ", " + std::to_string(r) + ") is " + std::to_string(got.at(i, r)) +
               ", printed " + std::to_string(want.at(i, r));
  return "";
}

// The generated schedule must equal the printed table entry for entry, except at documented errata; an erratum is
// accepted only when the checker rejects the table as printed and accepts it corrected.
inline claim_result table_row(const dance_schedule& generated, const paper::matrix_rows& printed,
                              const std::string& name, const std::vector<paper::erratum>& errata = {}) {
  const partner_matrix as_printed = matrix_of(printed);
  partner_matrix corrected = as_printed;
  for (const auto& e : errata) {
    if (as_printed.at(e.row, e.column) != e.printed)
      return {verdict::violated, name,
              "erratum at (" + std::to_string(e.row) + ", " + std::to_string(e.column) +
                  ") does not match the transcribed table"};
    corrected.set(e.row, e.column, e.corrected);
  }
  const std::string diff = first_difference(to_partner_matrix(generated), corrected);
  if (!diff.empty()) return {verdict::violated, name, "generated " + name + " differs: " + diff};
  const dance_report check = check_dance_schedule(generated);
  if (!check.holds()) return {verdict::violated, name, "generated table fails the checker: " + describe(check)};
  const std::string entries = std::to_string(printed.size() * printed.front().size());
  if (errata.empty()) {
    const dance_report printed_check = check_partner_matrix(as_printed);
    if (!printed_check.holds())
      return {verdict::violated, name, "printed table fails the checker: " + describe(printed_check)};
    return {verdict::holds, name, "all " + entries + " entries equal; checker accepts"};
  }
  const dance_report printed_check = check_partner_matrix(as_printed);
  if (printed_check.holds())
    return {verdict::violated, name, "an erratum is listed but the printed table passes the checker"};
  return {verdict::holds, name,
          "equal except " + std::to_string(errata.size()) + " printed entries that the checker rejects (" +
              describe(printed_check.witnesses.front()) + "); the generated table has the corrected values"};
}

// Runs `body(n)` for n in [lo, hi]; it returns "" when fine or a description of the failure.
template <class F>
claim_result for_each_n(std::uint64_t lo, std::uint64_t hi, F body, const std::string& what) {
  const std::string covered = "n = " + std::to_string(lo) + ".." + std::to_string(hi);
  for (std::uint64_t n = lo; n <= hi; ++n) {
    std::string failure = body(n);
    if (!failure.empty()) return {verdict::violated, covered, "n = " + std::to_string(n) + ": " + failure};
  }
  return {verdict::holds, covered, what};
}

// Sums up the lower-bound certificates of a row: how many, how big, how long the checks took.
struct certificate_totals {
  struct tally {
    std::uint64_t checked = 0, bytes = 0, steps = 0, timeouts = 0, skipped = 0;
    double seconds = 0;
  };
  tally cutting_planes, drat;
  std::string failure;

  void record(const certificate_check& c) {
    tally& t = c.kind == "DRAT" ? drat : cutting_planes;
    if (c.status == "checked") {
      ++t.checked;
      t.bytes += c.bytes;
      t.steps += c.steps;
      t.seconds += c.seconds;
    } else if (c.status == "timeout") {
      ++t.timeouts;
    } else if (c.status.rfind("not attempted", 0) == 0) {
      ++t.skipped;
    } else if (failure.empty()) {
      failure = c.kind + " " + c.status + ": " + c.detail;
    }
  }
  // Checks a cutting-planes certificate of `instance`; false (with `failure`) when it is rejected — also when the
  // checker accepts it as a refutation of another instance.
  bool add(std::string text, const std::string& instance) {
    const auto t0 = std::chrono::steady_clock::now();
    certificate_check c = cutting_planes_certificate(std::move(text), instance);
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    record(c);
    return c.accepted;
  }
  // Generates and checks the certificate that n people need T(n) rounds ("n people in T(n) − 1 rounds" refuted).
  bool add(rank n) {
    return add(dance_lower_bound_certificate(n), dance_certificate_instance(n, optimal_rounds(n) - 1));
  }
  static std::string line(const char* kind, const tally& t, const char* unit) {
    std::ostringstream s;
    s << kind << " " << t.checked << " checked (" << t.bytes << " bytes, " << t.steps << " " << unit << ", "
      << static_cast<long long>(t.seconds * 1000) << " ms)";
    if (t.timeouts > 0) s << ", " << t.timeouts << " CaDiCaL timeouts";
    if (t.skipped > 0) s << ", " << t.skipped << " not attempted (CNF too large)";
    return s.str();
  }
  std::string summary() const {
    std::string out;
    if (cutting_planes.checked + cutting_planes.timeouts > 0) out += line("cutting planes:", cutting_planes, "steps");
    if (drat.checked + drat.timeouts + drat.skipped > 0)
      out += (out.empty() ? "" : "; ") + line("DRAT:", drat, "lemmas");
    if (!failure.empty()) out += "; REJECTED: " + failure;
    return out;
  }
};

// measured within `tolerance` (a fraction) of printed, both ways.
inline bool within(const rational& measured, const rational& printed, const rational& tolerance) {
  return measured >= printed * (rational(1) - tolerance) && measured <= printed * (rational(1) + tolerance);
}

// A stored one-packet torus table against its model and stated step count: every PU follows the model's rule (a
// pairing of its ports, or one in-port or none per out-port), sends its packet on every port in step 1 and then only
// forwards, and the simulator completes gossip in exactly `stated_steps`. "" when it does, else the first failure.
inline std::string stored_table_failure(const torus::network& network, const std::string& model,
                                        std::uint64_t stated_steps, const routing_table& table) {
  const std::uint32_t ports = network.ports();
  if (table.packets != 1 || !table.switches.empty()) return "not one packet, or switches";
  if (table.network.name() != network.name())
    return "a table of the " + table.network.name() + " torus, not " + network.name();
  for (pu_index pu = 0; pu < network.size(); ++pu)
    for (std::uint32_t o = 0; o < ports; ++o) {
      const std::uint32_t in = table.forward_at(pu, o);
      const bool pairing_rule = in < ports && in != o && table.forward_at(pu, in) == o;
      if (table.inject_at(pu, o) != 0 || (model == "pairing" ? !pairing_rule : (in != no_port && in >= ports)))
        return "PU " + std::to_string(pu) + " port " + std::to_string(o) + " breaks the " + model + " model";
    }
  const gossip_report run = simulate_gossip(table, stated_steps + 1);
  if (!run.holds() || run.steps != stated_steps)
    return "stated " + std::to_string(stated_steps) + " steps, simulated " + describe(run);
  return "";
}

}  // namespace dancecard
