// SCCL's (C, S, R) frontier (Cai et al., PPoPP 2021, Section 5, its Pareto-synthesis loop over steps and chunks), each
// point a least-rounds proof of collective_synthesis, the domination taken over steps, rounds and rounds per chunk.
#include "dancecard/smt/collective_frontier.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace dancecard::collective {

namespace {

// a/b < c/d for positive b, d, exactly.
bool ratio_less(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) { return a * d < c * b; }
bool ratio_at_most(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) { return a * d <= c * b; }

// Whether p beats q: at most its steps, rounds and rounds per chunk, and fewer in one.
bool beats(const frontier_point& p, const frontier_point& q) {
  const bool no_worse =
      p.steps <= q.steps && p.rounds <= q.rounds && ratio_at_most(p.rounds, p.chunks, q.rounds, q.chunks);
  const bool better = p.steps < q.steps || p.rounds < q.rounds || ratio_less(p.rounds, p.chunks, q.rounds, q.chunks);
  return no_worse && better;
}

}  // namespace

frontier_result prove_frontier(const topology& network, const collective& coll, const frontier_options& options) {
  if (options.max_chunks < 1 || options.max_chunks > 64)
    throw std::invalid_argument("collective frontier: max_chunks must be 1 … 64, not " +
                                std::to_string(options.max_chunks));
  if (options.max_extra_steps > 16)
    throw std::invalid_argument("collective frontier: max_extra_steps must be 0 … 16, not " +
                                std::to_string(options.max_extra_steps));
  frontier_result out;
  collective single = coll;
  single.chunks = 1;
  // SCCL counts steps from its lower bound that holds whatever the rounds (msccl-tools' lower_bound_steps): a step may
  // take as many rounds as it likes. Asked here with so many rounds a step that no link's capacity binds: the least S
  // of any schedule.
  synthesis_options unbounded = options.synthesis;
  unbounded.rounds_per_step = unbounded_rounds_per_step(single);
  unbounded.total_rounds.reset();
  const least_steps_result least = prove_least_steps(network, single, unbounded);
  if (least.status != proof_status::proven) {
    out.reason = "the least steps with one chunk per rank, whatever the rounds: " + least.reason;
    return out;
  }
  synthesis_options one = options.synthesis;
  one.rounds_per_step = 1;
  one.total_rounds.reset();
  out.least_steps = least.steps;
  bool settled = true;
  for (std::uint64_t s = least.steps; s <= least.steps + options.max_extra_steps; ++s)
    for (std::uint32_t c = 1; c <= options.max_chunks; ++c) {
      collective with = coll;
      with.chunks = c;
      const auto start = std::chrono::steady_clock::now();
      // The checker's cut bound on R for C chunks, from any schedule of the collective (its figures do not depend on
      // the schedule's transfers). Rounds below it are refuted at once by the cut (all-port): the range counts from
      // there.
      const std::uint64_t bound =
          check_collective_schedule(schedule{network, options.synthesis.ports, with, {}, ""}).round_bound;
      const std::uint64_t above = std::max<std::uint64_t>(bound, s) - s + options.max_extra_rounds;
      least_steps_result r =
          prove_least_rounds(network, with, s, static_cast<std::uint32_t>(std::min<std::uint64_t>(above, 4096)), one);
      frontier_point p;
      p.chunks = c;
      p.steps = s;
      p.status = r.status;
      p.reason = r.reason;
      if (r.witness) p.rounds = r.witness->rounds();
      for (const synthesis_query& q : r.queries)
        if (q.answer == solver_answer::unsat) p.below = q.detail, p.below_certificate = q.certificate;
      p.witness = std::move(r.witness);
      p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      p.cut_bound = bound;
      if (p.status != proof_status::proven) settled = false;
      out.points.push_back(std::move(p));
    }
  // Points without a witness are not on the frontier; a point is there when no point with a witness beats it. (An
  // unsettled point's true R may be smaller than its witness's, so then the frontier is only as proven as its status.)
  for (std::size_t i = 0; i < out.points.size(); ++i) {
    frontier_point& q = out.points[i];
    if (q.rounds == 0) continue;
    bool beaten = false, corner = true;
    for (const frontier_point& p : out.points) {
      if (p.rounds == 0) continue;
      beaten = beaten || beats(p, q);
      if (p.steps <= q.steps && (ratio_less(p.rounds, p.chunks, q.rounds, q.chunks) ||
                                 (p.steps < q.steps && ratio_at_most(p.rounds, p.chunks, q.rounds, q.chunks))))
        corner = false;
    }
    q.on_frontier = !beaten;
    q.corner = !beaten && corner;
    if (q.on_frontier) out.frontier.push_back(i);
  }
  std::stable_sort(out.frontier.begin(), out.frontier.end(), [&](std::size_t a, std::size_t b) {
    const frontier_point &p = out.points[a], &q = out.points[b];
    return p.steps != q.steps ? p.steps < q.steps : p.rounds < q.rounds;
  });
  const std::string range = "C = 1 … " + std::to_string(options.max_chunks) + ", S = " + std::to_string(least.steps) +
                            " … " + std::to_string(least.steps + options.max_extra_steps);
  if (settled) {
    out.status = proof_status::proven;
    out.reason = std::to_string(out.frontier.size()) + " points on the frontier of " + range +
                 ", every (C, S) settled: a least R with a checked witness and R − 1 refuted (a checked DRAT proof or "
                 "a cut's checked cutting-planes certificate)";
  } else {
    out.reason = "not every (C, S) of " + range + " was settled (see the points)";
  }
  return out;
}

}  // namespace dancecard::collective
