// Theorem-book rows for the on-line paper: the 1.1h lower bound on the difficult relation, the analytic upper
// bounds of Theorems 4, 10 and 14 never exceeded, and the Section 7 simulated constants. Every run's trace is
// replayed by checkers/online_trace_check; every verdict compares integers and rationals.
#include <iomanip>
#include <sstream>
#include <string>

#include "claim_rows.hpp"
#include "dancecard/checkers/online_experiment.hpp"
#include "theorem_book.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::online;

namespace {

// ⌈h^(4/5)⌉ in integers: the o(h) allowance for the protocols' final phases (they finish an h^(2/5)-relation).
std::uint64_t h_four_fifths(std::uint64_t h) {
  std::uint64_t a = 0;
  auto fifth = [](std::uint64_t x) { return x * x * x * x * x; };
  while (fifth(a) < h * h * h * h) ++a;
  return a;
}

std::string show(const online_campaign& c) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(3) << c.mean << " ± " << c.ci95 << " h (max " << c.max_rounds << " rounds)";
  return s.str();
}

// Runs the campaign and checks max rounds <= bound_factor·h + allowance; the factor is a rational at most the
// paper's constant, so "holds" implies the paper's bound holds.
claim_result upper_bound_row(const online_instance& instance, const online_options& options, const rational& factor,
                             std::uint64_t additive, const std::string& covered) {
  const online_campaign c = run_online_campaign(instance, options, 1, 5);
  if (!c.all_finished || !c.all_valid) return {verdict::violated, covered, c.problem};
  const std::uint64_t h = c.h;
  const rational bound = factor * rational(as_int(h)) + rational(as_int(additive + h_four_fifths(h)));
  if (rational(as_int(c.max_rounds)) > bound)
    return {verdict::violated, covered, "max " + std::to_string(c.max_rounds) + " rounds > " + bound.to_string()};
  return {verdict::holds, covered, "traces valid; " + show(c) + " <= " + bound.to_string() + " rounds"};
}

}  // namespace

void register_online_claims(theorem_book& book) {
  const std::string paper = "online-h-relations";
  book.add({"online.thm1.lower_bound", paper, "Theorem 1",
            "on the difficult h-relation no uniform direct protocol finishes in under 1.1h (ocpc, arbitrary, fifo)",
            claim_method::simulation, [] {
              const online_instance hard = difficult_relation(10);  // n = 911 >= h^3
              struct run {
                contention d;
                online_protocol p;
              };
              std::string evidence;
              for (const run& r :
                   {run{contention::ocpc, online_protocol::ggt}, run{contention::arbitrary, online_protocol::equal},
                    run{contention::arbitrary, online_protocol::weighted},
                    run{contention::fifo, online_protocol::fifo_staged}}) {
                const online_campaign c = run_online_campaign(hard, {.discipline = r.d, .protocol = r.p}, 1, 10);
                const std::string name = std::string(to_string(r.d)) + "/" + std::string(to_string(r.p));
                if (!c.all_finished || !c.all_valid)
                  return claim_result{verdict::violated, "h = 10, n = 911", name + ": " + c.problem};
                if (c.mean_ratio < rational(11, 10))
                  return claim_result{verdict::violated, "h = 10, n = 911",
                                      name + ": mean " + c.mean_ratio.to_string() + " h < 1.1h"};
                evidence += (evidence.empty() ? "" : "; ") + name + " " + show(c);
              }
              return claim_result{verdict::holds, "difficult relation h = 10 (n = 911), 10 seeds per protocol",
                                  "mean rounds >= 1.1h for each: " + evidence};
            }});
  book.add({"online.thm4.fifo_bound", paper, "Theorem 4",
            "staged FIFO (K = 2.5, mu = 0.267) within 3.41h + o(h) (o(h) taken as h^(4/5))", claim_method::simulation,
            [] {
              return upper_bound_row(random_online_relation(256, 256, 1),
                                     {.discipline = contention::fifo, .protocol = online_protocol::fifo_staged},
                                     rational(341, 100), 0, "random 256-relation on n = 256, 5 seeds");
            }});
  book.add(
      {"online.thm10.arbitrary_bound", paper, "Theorem 10",
       "weighted arbitrary-write protocol within (1 + beta)/(1 - beta) 1.62h + O(log n log log n) + o(h) (beta = 0.1)",
       claim_method::simulation, [] {
         // (11/9)·1.618 (alpha = 1/(4(1 - e^(-1/2))^2) = 1.6186...; 1.618 below it), additive 8 ln n ln ln n ≈ 79.
         return upper_bound_row(
             random_online_relation(256, 256, 2),
             {.discipline = contention::arbitrary, .protocol = online_protocol::weighted, .beta = 0.1},
             rational(11, 9) * rational(1618, 1000), 79, "random 256-relation on n = 256, 5 seeds");
       }});
  book.add({"online.thm14.priority_bound", paper, "Theorem 14", "random priorities within (2e - 1)h + log n + o(h)",
            claim_method::simulation, [] {
              return upper_bound_row(random_online_relation(256, 256, 3),
                                     {.discipline = contention::priority, .protocol = online_protocol::random_priority},
                                     rational(44365, 10000), 8, "random 256-relation on n = 256, 5 seeds");
            }});
  book.add({"online.sec7.constants", paper, "Section 7",
            "simulated constants on total exchange: FIFO 2.08h at K = 1 and priority queue 1.85h, each within 15%",
            claim_method::simulation, [] {
              const online_instance te = total_exchange(256);
              const online_campaign fifo = run_online_campaign(
                  te, {.discipline = contention::fifo, .protocol = online_protocol::fifo_staged, .K = 1.0}, 1, 5);
              const online_campaign prio = run_online_campaign(
                  te, {.discipline = contention::priority, .protocol = online_protocol::random_priority}, 1, 5);
              const std::string covered = "total exchange n = 256 (h = 255), 5 seeds each";
              for (const auto* c : {&fifo, &prio})
                if (!c->all_finished || !c->all_valid) return claim_result{verdict::violated, covered, c->problem};
              const std::string evidence =
                  "FIFO K = 1: " + show(fifo) + " (paper 2.08h); priority: " + show(prio) + " (paper 1.85h)";
              const bool agree = within(fifo.mean_ratio, rational(208, 100), rational(15, 100)) &&
                                 within(prio.mean_ratio, rational(185, 100), rational(15, 100));
              return claim_result{agree ? verdict::holds : verdict::violated, covered, evidence};
            }});
  // The paper reports 1.57h for its weighted arbitrary-write protocol and no equal-probability variant below 1.7h.
  // The protocol as printed (stage lengths and send probabilities of Theorem 10) does not reproduce either number
  // (docs/online.md says why we think so); this row states the reproduction's finding and fails if it changes.
  book.add(
      {"online.sec7.arbitrary_write", paper, "Section 7",
       "arbitrary write on total exchange, protocol as printed: the paper's 1.57h (weighted) and 'none below 1.7h' "
       "(equal probabilities) do not reproduce — weighted takes more than 1.57h + 15% and equal probabilities beat it",
       claim_method::simulation, [] {
         const online_instance te = total_exchange(256);
         const online_campaign weighted = run_online_campaign(
             te, {.discipline = contention::arbitrary, .protocol = online_protocol::weighted}, 1, 5);
         const online_campaign equal =
             run_online_campaign(te, {.discipline = contention::arbitrary, .protocol = online_protocol::equal}, 1, 5);
         const std::string covered = "total exchange n = 256 (h = 255), 5 seeds each";
         for (const auto* c : {&weighted, &equal})
           if (!c->all_finished || !c->all_valid) return claim_result{verdict::violated, covered, c->problem};
         const std::string evidence = "weighted: " + show(weighted) +
                                      " (paper 1.57h); equal probability: " + show(equal) + " (paper: none below 1.7h)";
         const bool as_stated =
             weighted.mean_ratio > rational(157, 100) * rational(115, 100) && equal.mean_ratio < weighted.mean_ratio;
         return claim_result{as_stated ? verdict::holds : verdict::violated, covered, evidence};
       }});
}

}  // namespace dancecard
