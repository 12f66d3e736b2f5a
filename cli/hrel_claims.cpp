// Theorem-book rows for the h-relation paper's Section 2.1 and the on-line paper's offline remark — the parts built
// so far (the forwarding schedules of Sections 2.2–2.4 and the SMT optimum are not built yet).
#include <random>
#include <string>

#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/checkers/hrel_structure_check.hpp"
#include "dancecard/core/hrel/edge_coloring.hpp"
#include "dancecard/core/hrel/families.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "theorem_book.hpp"

namespace dancecard {

namespace {

// The instances every row runs on: random and skewed relations and the triangle families, P up to 64, h up to 40.
template <class F>
claim_result over_instances(F body, const std::string& what) {
  std::uint64_t count = 0;
  auto run = [&](const hrel_instance& instance, const std::string& name) -> std::string {
    ++count;
    const std::string failure = body(instance);
    return failure.empty() ? "" : name + ": " + failure;
  };
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (rank P : {2u, 3u, 8u, 17u, 64u})
      for (std::uint64_t h : {1u, 2u, 7u, 40u}) {
        const std::string tag = "P = " + std::to_string(P) + ", h = " + std::to_string(h) + ", seed " + std::to_string(seed);
        if (auto f = run(random_relation(P, h, seed), "random " + tag); !f.empty()) return {verdict::violated, "", f};
        if (auto f = run(skewed_relation(P, h, seed), "skewed " + tag); !f.empty()) return {verdict::violated, "", f};
      }
  for (rank k = 1; k <= 5; ++k)
    for (std::uint64_t h = 2; h <= 12; h += 2)
      if (auto f = run(triangles(k, h), "triangles k = " + std::to_string(k) + ", h = " + std::to_string(h)); !f.empty())
        return {verdict::violated, "", f};
  return {verdict::holds, std::to_string(count) + " instances (random, skewed, triangles; P <= 64, h <= 40)", what};
}

std::int64_t as_int(std::uint64_t v) { return static_cast<std::int64_t>(v); }

}  // namespace

void register_hrel_claims(theorem_book& book) {
  const std::string paper = "h-relations";
  book.add({"hrel.sec2_1.euler_orientation", paper, "Section 2.1",
            "orienting along Euler trails leaves every PE at most ceil(h/2) packets out and in",
            claim_method::generator_and_checker, [] {
              return over_instances(
                  [](const hrel_instance& instance) -> std::string {
                    return orientation_problem(instance, euler_orientation(instance));
                  },
                  "in- and out-degree <= ceil(h/2) at every PE");
            }});
  book.add({"hrel.sec2_1.coloring", paper, "Section 2.1",
            "a bipartite multigraph of maximum degree D is edge-coloured with exactly D colours (Euler splits, no "
            "matching per colour)",
            claim_method::generator_and_checker, [] {
              std::mt19937_64 random(2026);
              for (int trial = 0; trial < 500; ++trial) {
                const std::uint32_t L = 1 + random() % 20, R = 1 + random() % 20;
                bipartite_multigraph g{L, R, {}};
                for (int e = static_cast<int>(random() % 80); e > 0; --e)
                  g.edges.push_back({static_cast<std::uint32_t>(random() % L), static_cast<std::uint32_t>(random() % R),
                                     1 + random() % 9});
                const std::string problem = edge_coloring_problem(g, color_bipartite_edges(g));
                const bool proper = problem.empty();
                if (!proper)
                  return claim_result{verdict::violated, "500 random multigraphs", "trial " + std::to_string(trial) + ": " + problem};
              }
              return claim_result{verdict::holds, "500 random multigraphs (up to 20 + 20 vertices, multiplicities 1..9)",
                                  "exactly D colour classes, each a matching, every edge copy coloured once"};
            }});
  book.add({"hrel.sec2_1.direct", paper, "Section 2.1",
            "without forwarding, ceil(h/2) 2-relations of 3 steps each: at most 3 ceil(h/2) half-duplex steps",
            claim_method::generator_and_checker, [] {
              return over_instances(
                  [](const hrel_instance& instance) -> std::string {
                    const hrel_report r = check_hrel_schedule(instance, direct_schedule(instance), duplex::half);
                    if (!r.holds()) return describe(r);
                    if (r.makespan > rational(as_int(3 * ((instance.h_half_duplex() + 1) / 2))))
                      return "makespan " + r.makespan.to_string();
                    return "";
                  },
                  "the half-duplex checker accepts every direct schedule within 3 ceil(h/2)");
            }});
  book.add({"hrel.sec2_1.triangle_copies", paper, "Section 2.1 (footnote)",
            "h/2 copies of a triangle: the direct schedule takes 3h/2 steps (its optimality without forwarding: not "
            "proven here yet)",
            claim_method::generator_and_checker, [] {
              for (std::uint64_t h = 2; h <= 40; h += 2) {
                const hrel_instance t = triangle_copies(h);
                const hrel_report r = check_hrel_schedule(t, direct_schedule(t), duplex::half);
                if (!r.holds() || r.makespan != rational(as_int(3 * h / 2)))
                  return claim_result{verdict::violated, "h = 2..40 even", "h = " + std::to_string(h)};
              }
              return claim_result{verdict::holds, "h = 2..40 even", "checked schedule of exactly 3h/2 steps"};
            }});
  book.add({"online.offline_full_duplex", "online-h-relations", "Section 1 (offline remark)",
            "any h-relation routes in h full-duplex rounds (bipartite edge colouring)", claim_method::generator_and_checker,
            [] {
              return over_instances(
                  [](const hrel_instance& instance) -> std::string {
                    const hrel_report r = check_hrel_schedule(instance, full_duplex_schedule(instance), duplex::full);
                    if (!r.holds()) return describe(r);
                    if (r.makespan != rational(as_int(instance.h_full_duplex()))) return "makespan " + r.makespan.to_string();
                    return "";
                  },
                  "the full-duplex checker accepts every schedule, makespan exactly h");
            }});
}

}  // namespace dancecard
