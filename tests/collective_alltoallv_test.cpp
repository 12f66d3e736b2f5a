// The all-to-allv collective, move transfers and the one-port simplex model: the checker's verdicts and witnesses,
// the lower bounds it computes for an all-to-allv, the format's counts, and the h-relation adapter built on them.
#include <gtest/gtest.h>

#include <sstream>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/core/collective/adapters.hpp"
#include "dancecard/core/hrel/families.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "dancecard/formats/collective_io.hpp"

namespace dancecard::collective {
namespace {

collective_report check(const schedule& s) { return check_collective_schedule(s, {.max_witnesses = 100}); }
bool has(const collective_report& r, collective_violation_kind kind) { return r.count(kind) > 0; }

// 0 sends 2 chunks to 1 and 1 to 2; 2 sends 3 to 0; 1 sends nothing.
const std::vector<std::uint64_t> counts = {0, 2, 1, 0, 0, 0, 3, 0, 0};

TEST(collective_alltoallv, numbers_its_blocks_in_pair_order) {
  const collective c = alltoallv_collective(3, counts);
  EXPECT_EQ(c.chunk_count(), 6u);
  EXPECT_EQ(c.block_chunks(0, 1), 2u);
  EXPECT_EQ(c.block_chunks(2, 0), 3u);
  // chunks 0, 1: 0 -> 1; chunk 2: 0 -> 2; chunks 3, 4, 5: 2 -> 0
  const std::vector<std::pair<rank, rank>> expected = {{0, 1}, {0, 1}, {0, 2}, {2, 0}, {2, 0}, {2, 0}};
  for (std::uint64_t k = 0; k < 6; ++k) {
    EXPECT_EQ(c.source(k), expected[k].first) << k;
    for (rank r = 0; r < 3; ++r) EXPECT_EQ(c.wanted(k, r), r == expected[k].second) << k << " " << r;
  }
  EXPECT_EQ(c.describe(), "alltoallv of 3 ranks, 6 chunks in all");
  EXPECT_THROW(alltoallv_collective(3, {1, 2}), std::invalid_argument);
  collective bad = c;
  bad.offsets[3] = 1;  // decreasing: 0, 0, 2, 1, …
  EXPECT_THROW(require_valid(bad), std::invalid_argument);
  collective stray{collective_kind::alltoall, 3, 1, 0};
  stray.offsets = {0};
  EXPECT_THROW(require_valid(stray), std::invalid_argument);
}

schedule direct(port_model ports) {
  schedule s{complete_topology(3), ports, alltoallv_collective(3, counts), {}, "direct"};
  s.steps.push_back({2, {{0, 0, 1}, {1, 0, 1}}});
  s.steps.push_back({1, {{2, 0, 2}}});
  s.steps.push_back({3, {{3, 2, 0}, {4, 2, 0}, {5, 2, 0}}});
  return s;
}

TEST(collective_alltoallv, is_checked_and_bounded_by_its_counts) {
  const collective_report r = check(direct(port_model::one_port_simplex));
  EXPECT_TRUE(r.holds()) << describe(r);
  // simplex: rank 0 receives 3 chunks and sends 3, one a round; every wanted pair is one hop apart; one port: rank 0
  // joins itself, 1 and 2 (three ranks: 2 steps)
  EXPECT_EQ(r.round_bound, 6u);
  EXPECT_EQ(r.rounds, 6u);
  EXPECT_EQ(r.step_bound, 2u);
  schedule s = direct(port_model::all_port);
  s.steps.pop_back();
  const collective_report missing = check(s);
  EXPECT_EQ(missing.count(collective_violation_kind::missing), 3u) << describe(missing);
  EXPECT_EQ(check(s).step_bound, 1u);  // all-port: the farthest wanted pair
  // On the ring 0 - 1 - 2 - 0 every pair is a neighbour; on the path 0 -> 1 -> 2 -> 1 -> 0, 2 is 2 hops from 0.
  schedule path{topology("path", 3, {{0, 1, 1}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}}),
                port_model::all_port,
                alltoallv_collective(3, counts),
                {},
                ""};
  EXPECT_EQ(check(path).step_bound, 2u);
  EXPECT_EQ(check(path).round_bound, 3u);  // three chunks into 0 over its one in-link
}

TEST(collective_moves, give_the_chunk_up) {
  // 0 moves its chunk for 2 to 1, which moves it on to 2: holds; 0 then no longer holds it
  schedule s{complete_topology(3), port_model::all_port, alltoallv_collective(3, {0, 0, 1, 0, 0, 0, 0, 0, 0}), {}, ""};
  s.steps.push_back({1, {{0, 0, 1, transfer_op::move}}});
  s.steps.push_back({1, {{0, 1, 2, transfer_op::move}}});
  EXPECT_TRUE(check(s).holds()) << describe(check(s));
  schedule again = s;
  again.steps.push_back({1, {{0, 0, 2, transfer_op::move}}});
  const collective_report gone = check(again);
  ASSERT_TRUE(has(gone, collective_violation_kind::not_held)) << describe(gone);
  EXPECT_EQ(gone.witnesses.front().step, 2u);
  // a copy in its place keeps the chunk at 0
  schedule copied = s;
  copied.steps[0].transfers[0].op = transfer_op::copy;
  copied.steps.push_back({1, {{0, 0, 2, transfer_op::copy}}});
  EXPECT_TRUE(check(copied).holds());
  // two moves of one chunk from one rank in one step: the second is named, with the first's place
  schedule twice{
      complete_topology(3), port_model::all_port, alltoallv_collective(3, {0, 0, 1, 0, 0, 0, 0, 0, 0}), {}, ""};
  twice.steps.push_back({1, {{0, 0, 1, transfer_op::move}, {0, 0, 2, transfer_op::move}}});
  const collective_report r = check(twice);
  ASSERT_EQ(r.count(collective_violation_kind::moved_twice), 1u) << describe(r);
  EXPECT_EQ(r.witnesses.front().index, 1u);
  EXPECT_EQ(r.witnesses.front().other, 0u);
  EXPECT_NE(describe(r.witnesses.front()).find("moved chunk 0 away already"), std::string::npos);
  // moved away and received back in the same step: held at the end (0 sends it once more in the last step)
  schedule back = s;
  back.steps = {{1, {{0, 0, 1, transfer_op::copy}}},
                {1, {{0, 0, 2, transfer_op::move}, {0, 1, 0, transfer_op::copy}}},
                {1, {{0, 0, 1, transfer_op::copy}}}};
  EXPECT_TRUE(check(back).holds()) << describe(check(back));
  back.steps[1].transfers.pop_back();
  EXPECT_TRUE(has(check(back), collective_violation_kind::not_held));
  // in a combining collective a move empties the sender's value
  schedule sum{ring_topology(2), port_model::all_port, {collective_kind::reduce, 2, 1, 0}, {}, ""};
  sum.steps.push_back({1, {{0, 1, 0, transfer_op::reduce}}});
  EXPECT_TRUE(check(sum).holds());
  sum.steps.push_back({1, {{0, 1, 0, transfer_op::reduce}}});
  EXPECT_TRUE(has(check(sum), collective_violation_kind::double_counted));  // 1 still holds its contribution
  sum.steps[0].transfers[0].op = transfer_op::move;  // now 0's value is 1's alone, and 1 holds nothing
  const collective_report moved = check(sum);
  EXPECT_TRUE(has(moved, collective_violation_kind::not_held)) << describe(moved);
  EXPECT_EQ(moved.witnesses.front().step, 1u);
}

TEST(collective_ports, simplex_allows_one_direction_a_step) {
  schedule s{ring_topology(3), port_model::one_port_simplex, {collective_kind::allgather, 3, 1, 0}, {}, ""};
  s.steps.push_back({1, {{0, 0, 1}, {1, 1, 0}}});  // an exchange: fine half duplex, not simplex
  collective_report r = check(s);
  ASSERT_TRUE(has(r, collective_violation_kind::port_conflict)) << describe(r);
  EXPECT_EQ(r.witnesses.front().index, 1u);
  s.ports = port_model::one_port_half_duplex;
  EXPECT_FALSE(has(check(s), collective_violation_kind::port_conflict));
  // a rank that receives and sends on to a third: fine full duplex, not simplex
  s.ports = port_model::one_port_simplex;
  s.steps[0].transfers = {{0, 0, 1}, {1, 1, 2}};
  EXPECT_TRUE(has(check(s), collective_violation_kind::port_conflict));
  s.ports = port_model::one_port_full_duplex;
  EXPECT_FALSE(has(check(s), collective_violation_kind::port_conflict));
  EXPECT_EQ(parse_port_model("one-port-simplex"), port_model::one_port_simplex);
}

TEST(collective_format, carries_an_alltoallvs_counts_and_moves) {
  schedule s = direct(port_model::one_port_simplex);
  s.steps[0].transfers[1].op = transfer_op::move;
  std::ostringstream out;
  write_collective_schedule(out, s);
  EXPECT_NE(out.str().find(R"("counts": [[0, 2, 1], [0, 0, 0], [3, 0, 0]])"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(R"([1, 0, 1, "move"])"), std::string::npos) << out.str();
  const schedule back = read_collective_schedule(out.str());
  EXPECT_EQ(back.coll.offsets, s.coll.offsets);
  EXPECT_EQ(back.ports, port_model::one_port_simplex);
  EXPECT_EQ(back.steps[0].transfers, s.steps[0].transfers);
  auto error = [](const std::string& collective) {
    try {
      read_collective_schedule(R"({"format": "dancecard.collective/1", "topology": "complete:2", "collective": )" +
                               collective + R"(, "steps": []})");
    } catch (const format_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(R"({"kind": "alltoallv", "counts": [[0, 1], [2, 0]]})"), "no error");
  EXPECT_EQ(error(R"({"kind": "alltoallv"})"), "collective.counts: missing (n rows of n chunk counts)");
  EXPECT_EQ(error(R"({"kind": "alltoallv", "counts": [[0, 1], [2]]})"),
            "collective.counts[1]: expected 2 counts, got [2]");
  EXPECT_EQ(error(R"({"kind": "alltoallv", "counts": [[0, 1], [2, -1]]})").rfind("collective.counts[1][1]", 0), 0u);
  EXPECT_EQ(error(R"({"kind": "alltoallv", "chunks": 2, "counts": [[0, 1], [2, 0]]})"),
            "collective: an alltoallv has counts, not chunks or a root");
  EXPECT_EQ(error(R"({"kind": "alltoall", "counts": [[0, 1], [2, 0]]})"),
            "collective.counts: counts belong to an alltoallv only");
}

TEST(collective_adapters, an_hrel_schedule_keeps_its_verdict) {
  // the paper's two triangles: the forwarding schedule of 12/5 is 12 slots of 1/5, pieces of a fifth of a packet
  const hrel::hrel_instance two =
      hrel::hrel_instance(6, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {3, 4, 1}, {4, 5, 1}, {5, 3, 1}});
  const hrel::hrel_schedule f = hrel::forwarding_schedule(two);
  ASSERT_TRUE(hrel::check_hrel_schedule(two, f, hrel::duplex::half).holds());
  const schedule s = from_hrel(two, f, port_model::one_port_simplex);
  EXPECT_EQ(s.coll.kind, collective_kind::alltoallv);
  EXPECT_EQ(s.coll.chunk_count(), 6u * 5);
  EXPECT_EQ(s.rounds(), 12u);  // 12/5 time units in fifths
  const collective_report r = check(s);
  EXPECT_TRUE(r.holds()) << describe(r);
  // the last slot dropped: both say violated
  hrel::hrel_schedule cut = f;
  cut.slots.pop_back();
  EXPECT_FALSE(hrel::check_hrel_schedule(two, cut, hrel::duplex::half).holds());
  EXPECT_TRUE(has(check(from_hrel(two, cut, port_model::one_port_simplex)), collective_violation_kind::missing));
  // bad references and empty slots are not schedules of the model
  hrel::hrel_schedule bad = f;
  bad.slots[0].transfers[0].message = 99;
  EXPECT_THROW(from_hrel(two, bad, port_model::one_port_simplex), std::invalid_argument);
  bad = f;
  bad.slots[0].duration = rational(0);
  EXPECT_THROW(from_hrel(two, bad, port_model::one_port_simplex), std::invalid_argument);
}

}  // namespace
}  // namespace dancecard::collective
