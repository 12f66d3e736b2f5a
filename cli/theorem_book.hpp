// The theorem book: one row per claim of the papers, each with a function that checks it mechanically.
//
// Modules register their claims (register_dance_claims, ...); `dancecard verify` runs them, times them and prints
// the table. A claim's check returns a verdict and evidence (which instances it covered, what it found); it never
// returns "holds" without a comparison that could have come out the other way. A row that computes and shows a value
// which no claim can be compared with (a bound that small instances cannot reach, say) is `informational`: shown and
// counted apart, never as "holds".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dancecard/checkers/report.hpp"

namespace dancecard {

using namespace dancecard::dance;

/// A row's verdict: a checker's verdict (holds, violated, unknown), or `informational` for a row whose value is shown
/// but compared with nothing that could fail.
enum class claim_verdict { holds, violated, unknown, informational };

constexpr claim_verdict to_claim_verdict(verdict v) {
  return v == verdict::holds      ? claim_verdict::holds
         : v == verdict::violated ? claim_verdict::violated
                                  : claim_verdict::unknown;
}

constexpr std::string_view to_string(claim_verdict v) {
  switch (v) {
    case claim_verdict::holds:
      return "holds";
    case claim_verdict::violated:
      return "violated";
    case claim_verdict::unknown:
      return "unknown";
    case claim_verdict::informational:
      return "informational";
  }
  return "?";
}

struct claim_result {
  claim_result() = default;
  claim_result(claim_verdict v, std::string covered_, std::string evidence_, std::string certificate_ = {})
      : outcome(v),
        covered(std::move(covered_)),
        evidence(std::move(evidence_)),
        certificate(std::move(certificate_)) {}
  claim_result(verdict v, std::string covered_, std::string evidence_, std::string certificate_ = {})
      : claim_result(to_claim_verdict(v), std::move(covered_), std::move(evidence_), std::move(certificate_)) {}

  claim_verdict outcome = claim_verdict::unknown;
  std::string covered;      // the instances checked, e.g. "n = 1..512"
  std::string evidence;     // what was found, or the counterexample
  std::string certificate;  // for proven rows: the certificate kind, size, check time and "checked"
};

enum class claim_method { table, generator_and_checker, formula, simulation, smt, certificate };
std::string_view to_string(claim_method m);

/// How long a row takes alone on two cores: quick (seconds), slow (over about 5 s: `verify --quick` leaves it out),
/// longest (minutes: also started first by `verify --jobs`, printing staying in book order).
enum class claim_cost { quick, slow, longest };

struct claim {
  std::string id;         // "dance.prop2"
  std::string paper;      // "dance-party"
  std::string section;    // "Section 3, Proposition 2"
  std::string statement;  // the claim in one line
  claim_method method;
  std::function<claim_result()> check;
  claim_cost cost = claim_cost::quick;
};

class theorem_book {
 public:
  void add(claim c) { claims_.push_back(std::move(c)); }
  const std::vector<claim>& claims() const noexcept { return claims_; }

 private:
  std::vector<claim> claims_;
};

void register_dance_claims(theorem_book& book);
void register_mpi_claims(theorem_book& book);
void register_collective_claims(theorem_book& book);
void register_hrel_claims(theorem_book& book);
void register_online_claims(theorem_book& book);
void register_torus_claims(theorem_book& book);
void register_torus_zigzag_claims(theorem_book& book);
void register_torus_smt_claims(theorem_book& book);

/// A count as the signed integer a row's rationals are built from.
inline std::int64_t as_int(std::uint64_t v) { return static_cast<std::int64_t>(v); }

/// Every module's claims, in book order.
theorem_book make_theorem_book();

}  // namespace dancecard
