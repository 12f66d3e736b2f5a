// Section 6 all-gather simulation: completion, message counts, deadlock witnesses.
#include <gtest/gtest.h>

#include "dancecard/checkers/allgather_simulation.hpp"
#include "dancecard/core/dance/generators.hpp"

namespace dancecard {

using namespace dancecard::dance;
namespace {

TEST(allgather_simulation, optimal_schedule_takes_two_steps_per_round) {
  for (rank n : {2u, 5u, 8u, 13u}) {
    const dance_schedule g = factorization_schedule(n);
    const allgather_report r = simulate_allgather(to_partner_matrix(g));
    EXPECT_EQ(r.outcome, verdict::holds) << describe(r);
    EXPECT_EQ(r.messages, static_cast<std::uint64_t>(n) * (n - 1));
    EXPECT_EQ(r.steps, 2 * g.rounds());
    EXPECT_TRUE(r.all_blocks_everywhere);
  }
}

TEST(allgather_simulation, ranks_drift_ahead_when_they_can) {
  // In S_4 the pairs {0,1} ... {2,3} use 6 rounds, but 2-3 waits only for its own earlier dances, so the
  // asynchronous loop finishes in fewer than 2 * 6 steps.
  const allgather_report r = simulate_allgather(sequential_schedule(4));
  EXPECT_EQ(r.outcome, verdict::holds);
  EXPECT_LT(r.steps, 12u);
}

TEST(allgather_simulation, cyclic_waiting_is_a_deadlock_with_the_cycle_as_witness) {
  // Round 1: 1 waits for 2, 2 waits for 3, 3 waits for 1 (each has a different partner).
  partner_matrix m(3, 1);
  m.set(1, 1, 2);
  m.set(2, 1, 3);
  m.set(3, 1, 1);
  const allgather_report r = simulate_allgather(m);
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_EQ(r.deadlock_cycle.size(), 3u);
  EXPECT_NE(r.problem.find("cycle"), std::string::npos);
}

TEST(allgather_simulation, waiting_for_a_finished_rank_is_reported_as_a_chain) {
  // Person 1 expects to meet 2 in round 1, but 2 has an empty row: 2 finishes and 1 waits forever.
  partner_matrix m(2, 1);
  m.set(1, 1, 2);
  const allgather_report r = simulate_allgather(m);
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_TRUE(r.deadlock_cycle.empty());
  ASSERT_EQ(r.waiting_chain.size(), 2u);
  EXPECT_EQ(r.waiting_chain[0], 0u);
  EXPECT_EQ(r.waiting_chain[1], 1u);
}

TEST(allgather_simulation, missing_dance_leaves_a_block_missing) {
  dance_schedule s(3);
  s.begin_round();
  s.add_dance(0, 1);
  s.begin_round();
  s.add_dance(0, 2);
  const allgather_report r = simulate_allgather(s);
  ASSERT_EQ(r.outcome, verdict::violated);
  EXPECT_TRUE(r.all_finished);
  ASSERT_TRUE(r.missing_block.has_value());
  EXPECT_EQ(*r.missing_block, std::pair(1u, 2u));
}

TEST(allgather_simulation, repeated_dances_count_redundant_blocks) {
  dance_schedule s(2);
  for (int k = 0; k < 2; ++k) {
    s.begin_round();
    s.add_dance(0, 1);
  }
  const allgather_report r = simulate_allgather(s);
  EXPECT_EQ(r.outcome, verdict::holds);
  EXPECT_EQ(r.duplicate_blocks, 2u);
}

TEST(allgather_simulation, out_of_range_matrix_entries_are_refused) {
  partner_matrix m(2, 1);
  m.set(1, 1, 5);
  EXPECT_EQ(simulate_allgather(m).outcome, verdict::violated);
}

}  // namespace
}  // namespace dancecard
