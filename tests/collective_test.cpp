// The collective model: topologies, the classic generators on many sizes, the checker on damaged schedules (each
// kind of violation, with its witness), the lower bounds, and the dancecard.collective/1 format.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <sstream>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/core/collective/generators.hpp"
#include "dancecard/formats/collective_io.hpp"

namespace dancecard::collective {

using namespace dancecard::dance;
namespace {

collective_report check(const schedule& s) { return check_collective_schedule(s, {.max_witnesses = 100}); }

bool has(const collective_report& r, collective_violation_kind kind) { return r.count(kind) > 0; }

// The message of the format_error `read` throws, or "no error".
template <class Read>
std::string format_error_of(Read read) {
  try {
    read();
  } catch (const format_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(collective_topology, builtins_have_the_links_they_name) {
  const topology dgx1 = dgx1_topology();
  EXPECT_EQ(dgx1.size(), 8u);
  for (rank r = 0; r < 8; ++r) {
    EXPECT_EQ(dgx1.out_capacity(r), 6u) << r;  // six NVLinks per GPU
    EXPECT_EQ(dgx1.in_capacity(r), 6u) << r;
  }
  EXPECT_EQ(dgx1.capacity(0, 1), 2u);
  EXPECT_EQ(dgx1.capacity(0, 2), 1u);
  EXPECT_EQ(dgx1.capacity(0, 5), 0u);
  std::uint32_t diameter = 0;
  for (rank r = 0; r < 8; ++r)
    for (const std::uint32_t d : distances_from(dgx1, r)) diameter = std::max(diameter, d);
  EXPECT_EQ(diameter, 2u);  // as SCCL's paper says
  const topology ring = ring_topology(5);
  EXPECT_EQ(ring.links().size(), 10u);
  EXPECT_EQ(distances_from(ring, 0), (std::vector<std::uint32_t>{0, 1, 2, 2, 1}));
  EXPECT_EQ(ring_topology(2).links().size(), 2u);
  const topology t = torus_topology(torus::network({2, 3}));  // the side of 2: +x1 and -x1 reach the same PU
  EXPECT_EQ(t.capacity(0, 3), 2u);
  EXPECT_EQ(t.capacity(0, 1), 1u);
  EXPECT_EQ(hypercube_topology(3).capacity(5, 4), 1u);
  EXPECT_EQ(hypercube_topology(3).capacity(5, 6), 0u);
  EXPECT_EQ(builtin_topology("complete:4")->links().size(), 12u);
  EXPECT_FALSE(builtin_topology("mesh:4").has_value());
  EXPECT_THROW(builtin_topology("ring:0"), std::invalid_argument);
  EXPECT_THROW(builtin_topology("ring:x"), std::invalid_argument);
  EXPECT_THROW(topology("t", 2, {{0, 1, 1}, {0, 1, 2}}), std::invalid_argument);  // a link twice
  EXPECT_THROW(topology("t", 2, {{0, 2, 1}}), std::invalid_argument);
  EXPECT_THROW(topology("t", 2, {{1, 1, 1}}), std::invalid_argument);
}

TEST(collective_generators, hold_on_many_sizes_with_their_figures) {
  for (rank n = 1; n <= 24; ++n)
    for (std::uint32_t c : {1u, 3u}) {
      const collective_report ring = check(ring_allgather(n, c));
      EXPECT_TRUE(ring.holds()) << n << "\n" << describe(ring);
      EXPECT_EQ(ring.steps, n - 1u);
      EXPECT_EQ(ring.rounds, std::uint64_t{n - 1} * c);
      EXPECT_EQ(ring.round_bound, std::uint64_t{n - 1} * c) << n;  // one port, one chunk a round: at the bound
      std::uint64_t log = 0;
      while ((std::uint64_t{1} << log) < n) ++log;
      EXPECT_EQ(ring.step_bound, std::max<std::uint64_t>(n / 2, log))
          << n;  // the ring's diameter, or one-port doubling
      const collective_report pairwise = check(pairwise_alltoall(n, c));
      EXPECT_TRUE(pairwise.holds()) << n << "\n" << describe(pairwise);
      EXPECT_EQ(pairwise.step_bound, std::max<std::uint64_t>(n > 1 ? 1 : 0, log));
      for (rank root : {rank{0}, n - 1}) {
        const collective_report bcast = check(binomial_broadcast(n, root, c));
        EXPECT_TRUE(bcast.holds()) << n << " root " << root << "\n" << describe(bcast);
        EXPECT_EQ(bcast.steps, log);
        EXPECT_EQ(bcast.step_bound, log);  // the binomial tree meets the doubling bound
      }
      const collective_report bruck = check(bruck_allgather(n, c));
      EXPECT_TRUE(bruck.holds()) << n << "\n" << describe(bruck);
      const collective_report reduce = check(binomial_reduce(n, n / 2, c));
      EXPECT_TRUE(reduce.holds()) << n << "\n" << describe(reduce);
      const collective_report rs = check(ring_reduce_scatter(n, c));
      EXPECT_TRUE(rs.holds()) << n << "\n" << describe(rs);
      const collective_report ar = check(ring_allreduce(n, c));
      EXPECT_TRUE(ar.holds()) << n << "\n" << describe(ar);
      EXPECT_EQ(ar.steps, 2 * std::uint64_t{n - 1});
      // recursive doubling for any n (MPICH's fold when n is not a power of two): log2 p + 2 steps
      const collective_report rd = check(recursive_doubling_allgather(n, c));
      EXPECT_TRUE(rd.holds()) << n << "\n" << describe(rd);
      std::uint64_t p_log = 0;
      while ((std::uint64_t{2} << p_log) <= n) ++p_log;
      EXPECT_EQ(rd.steps, (n & (n - 1)) == 0 ? p_log : p_log + 2) << n;
      // the double binary tree: two mirrored trees of height h, 2h steps; each chunk reduced up one and copied down
      const collective_report dbt = check(double_binary_tree_allreduce(n, c));
      EXPECT_TRUE(dbt.holds()) << n << "\n" << describe(dbt);
      std::uint64_t h = 0;
      while ((std::uint64_t{2} << h) <= n) ++h;  // a balanced binary tree of n nodes has height floor(log2 n)
      EXPECT_EQ(dbt.steps, 2 * h) << n;
    }
  for (rank n = 1; n <= 64; n *= 2) {
    const collective_report rd = check(recursive_doubling_allgather(n, 2));
    EXPECT_TRUE(rd.holds()) << n << "\n" << describe(rd);
    EXPECT_EQ(rd.rounds, std::uint64_t{n - 1} * 2);  // 1 + 2 + 4 + … blocks of 2 chunks
    const collective_report rh = check(recursive_halving_reduce_scatter(n, 2));
    EXPECT_TRUE(rh.holds()) << n << "\n" << describe(rh);
    const collective_report rab = check(rabenseifner_allreduce(n, 2));
    EXPECT_TRUE(rab.holds()) << n << "\n" << describe(rab);
    EXPECT_EQ(rab.rounds, 2 * std::uint64_t{n - 1} * 2);  // the bandwidth of the ring in 2 log2 n steps
  }
  EXPECT_THROW(recursive_doubling_allgather(0), std::invalid_argument);
}

TEST(collective_generators, multi_ring_allgather_meets_every_ranks_ingress_bound) {
  // 1-D to 3-D tori, both parities, the square-switch, product and layered constructions
  for (const char* dims : {"5", "3x3", "3x4", "4x4", "4x8", "5x6", "3x3x3", "4x4x4", "3x4x5"}) {
    const torus::network t = torus::network::parse(dims);
    const std::uint64_t rings = 2 * t.dimension(), P = t.size();
    for (std::uint32_t share : {1u, 2u}) {
      const schedule s = multi_ring_allgather(t, static_cast<std::uint32_t>(rings * share));
      const collective_report r = check_collective_schedule(s, {.exact = true});  // no chunk arrives twice
      EXPECT_TRUE(r.holds()) << dims << "\n" << describe(r);
      EXPECT_EQ(r.steps, P - 1) << dims;
      EXPECT_EQ(r.rounds, (P - 1) * share) << dims;
      // the checker's own bound: (P − 1)·C chunks into each rank over its 2d in-links
      EXPECT_EQ(r.round_bound, r.rounds) << dims;
    }
  }
  // the checker sees a ring's transfer missing, or two ranks' forwarded chunks swapped
  schedule s = multi_ring_allgather(torus::network::parse("4x8"), 4);
  schedule dropped = s;
  dropped.steps[17].transfers.erase(dropped.steps[17].transfers.begin() + 40);
  EXPECT_FALSE(check_collective_schedule(dropped).holds());
  std::swap(s.steps[3].transfers[0].chunk, s.steps[3].transfers[1].chunk);
  EXPECT_FALSE(check_collective_schedule(s).holds());
  EXPECT_THROW(multi_ring_allgather(torus::network::parse("4x8"), 6), std::invalid_argument);     // 6 chunks, 4 rings
  EXPECT_THROW(multi_ring_allgather(torus::network::parse("2x3"), 4), std::invalid_argument);     // no decomposition
  EXPECT_THROW(multi_ring_allgather(torus::network::parse("128x64"), 4), std::invalid_argument);  // 8192 ranks
  EXPECT_THROW(multi_ring_allgather(torus::network::parse("64x64"), 12), std::invalid_argument);  // 2^27.6 transfers
}

TEST(collective_generators, bidirectional_multi_ring_allgather_meets_the_ingress_bound_in_half_the_steps) {
  for (const char* dims : {"5", "6", "3x3", "3x4", "4x4", "4x8", "5x6", "3x3x3", "4x4x4", "3x4x5"}) {
    const torus::network t = torus::network::parse(dims);
    const std::uint64_t cycles = t.dimension(), P = t.size(), unit = P % 2 == 0 ? 2 * cycles : cycles;
    for (std::uint32_t share : {1u, 2u, 3u}) {
      const schedule s = bidirectional_multi_ring_allgather(t, static_cast<std::uint32_t>(unit * share));
      const collective_report r = check_collective_schedule(s, {.exact = true});  // no chunk arrives twice
      EXPECT_TRUE(r.holds()) << dims << "\n" << describe(r);
      EXPECT_EQ(r.steps, P / 2) << dims;
      EXPECT_EQ(r.rounds, (P - 1) * unit * share / (2 * cycles)) << dims;
      EXPECT_EQ(r.round_bound, r.rounds) << dims;  // (P − 1)·C chunks into each rank over its 2d in-links
    }
  }
  // 4 x 8 with 4 chunks: (C, S, R) = (4, 16, 31), where multi_ring_allgather takes 31 steps
  schedule s = bidirectional_multi_ring_allgather(torus::network::parse("4x8"), 4);
  EXPECT_EQ(s.steps.size(), 16u);
  EXPECT_EQ(s.rounds(), 31u);
  schedule dropped = s;
  dropped.steps[9].transfers.erase(dropped.steps[9].transfers.begin() + 40);
  EXPECT_FALSE(check_collective_schedule(dropped).holds());
  schedule early = s;  // a chunk sent a step before it arrives
  std::swap(early.steps[5], early.steps[6]);
  EXPECT_FALSE(check_collective_schedule(early).holds());
  EXPECT_THROW(bidirectional_multi_ring_allgather(torus::network::parse("4x8"), 2), std::invalid_argument);  // P even
  EXPECT_THROW(bidirectional_multi_ring_allgather(torus::network::parse("3x3"), 3), std::invalid_argument);
  EXPECT_THROW(bidirectional_multi_ring_allgather(torus::network::parse("2x3"), 4), std::invalid_argument);
  EXPECT_THROW(bidirectional_multi_ring_allgather(torus::network::parse("128x64"), 4), std::invalid_argument);
}

TEST(collective_generators, rotated_doubling_allgather_meets_the_ingress_bound_in_the_diameter) {
  for (unsigned dims = 1; dims <= 7; ++dims) {
    const rank n = rank{1} << dims;
    for (std::uint32_t share : {1u, 3u}) {
      const schedule s = rotated_doubling_allgather(n, dims * share);
      EXPECT_EQ(s.network.name(), "hypercube:" + std::to_string(dims));
      const collective_report r = check_collective_schedule(s, {.exact = true});  // no chunk arrives twice
      EXPECT_TRUE(r.holds()) << dims << "\n" << describe(r);
      EXPECT_EQ(r.steps, dims);
      EXPECT_EQ(r.step_bound, dims);  // the checker's distance bound: the antipode is D links away
      EXPECT_EQ(r.rounds, (n - 1) * share) << dims;
      EXPECT_EQ(r.round_bound, r.rounds) << dims;          // (n − 1)·C chunks into each rank over its D in-links
      EXPECT_EQ(r.busiest_link_chunks, r.rounds) << dims;  // the busiest link carries a chunk in every round
    }
  }
  // every link full in every step: a transfer moved to the next step overloads that step's link
  schedule s = rotated_doubling_allgather(32, 5);
  schedule late = s;
  late.steps[3].transfers.push_back(late.steps[2].transfers[7]);
  late.steps[2].transfers.erase(late.steps[2].transfers.begin() + 7);
  EXPECT_FALSE(check_collective_schedule(late).holds());
  schedule dropped = s;
  dropped.steps[4].transfers.pop_back();
  EXPECT_FALSE(check_collective_schedule(dropped).holds());
  EXPECT_THROW(rotated_doubling_allgather(24, 5), std::invalid_argument);     // not a power of two
  EXPECT_THROW(rotated_doubling_allgather(32, 4), std::invalid_argument);     // 4 chunks, 5 dimensions
  EXPECT_THROW(rotated_doubling_allgather(8192, 13), std::invalid_argument);  // more than 4096 ranks
  EXPECT_THROW(rotated_doubling_allgather(4096, 36), std::invalid_argument);  // 2^29.2 transfers
}

TEST(collective_check, names_each_kind_of_violation) {
  // a transfer left out: in step 1 rank 3 forwards chunk 2 to rank 0, which then never gets it
  schedule s = ring_allgather(4);
  s.steps[1].transfers.erase(s.steps[1].transfers.begin() + 3);
  collective_report r = check(s);
  EXPECT_FALSE(r.holds());
  EXPECT_TRUE(has(r, collective_violation_kind::missing)) << describe(r);

  // a chunk sent before it arrives
  s = ring_allgather(4);
  std::swap(s.steps[0], s.steps[1]);
  r = check(s);
  EXPECT_TRUE(has(r, collective_violation_kind::not_held)) << describe(r);
  EXPECT_EQ(r.witnesses.front().step, 0u);

  // not a link of the ring; over capacity; a second peer under one port
  s = ring_allgather(4);
  s.steps[0].transfers.push_back({0, 0, 2, transfer_op::copy});
  r = check(s);
  EXPECT_TRUE(has(r, collective_violation_kind::not_a_link)) << describe(r);
  s = ring_allgather(4);
  s.steps[0].transfers.push_back({0, 0, 1, transfer_op::copy});
  r = check(s);
  EXPECT_TRUE(has(r, collective_violation_kind::over_capacity)) << describe(r);
  EXPECT_FALSE(has(r, collective_violation_kind::write_conflict)) << describe(r);  // the same value twice
  EXPECT_TRUE(has(check_collective_schedule(s, {.exact = true}), collective_violation_kind::redundant));
  // a copy beside a reduction into one chunk, and two copies of different partial sums, disagree
  schedule mixed{ring_topology(3), port_model::all_port, {collective_kind::reduce, 3, 1, 0}, {}, "mixed"};
  mixed.steps.push_back({1, {{0, 1, 0, transfer_op::reduce}, {0, 2, 0, transfer_op::copy}}});
  EXPECT_TRUE(has(check(mixed), collective_violation_kind::write_conflict)) << describe(check(mixed));
  mixed.steps[0].transfers[0].op = transfer_op::copy;
  EXPECT_TRUE(has(check(mixed), collective_violation_kind::write_conflict)) << describe(check(mixed));
  s = ring_allgather(4);
  s.steps[0].transfers.push_back({0, 0, 3, transfer_op::copy});
  r = check(s);
  EXPECT_TRUE(has(r, collective_violation_kind::port_conflict)) << describe(r);
  s.ports = port_model::all_port;  // the same schedule, every port at once: fine
  EXPECT_TRUE(check(s).holds()) << describe(check(s));

  // half duplex: sending to 1 and receiving from 3 in one step is two partners
  s = ring_allgather(4);
  s.ports = port_model::one_port_half_duplex;
  r = check(s);
  EXPECT_TRUE(has(r, collective_violation_kind::port_conflict)) << describe(r);

  // a reduction in an all-gather; out of range
  s = ring_allgather(4);
  s.steps[0].transfers[0].op = transfer_op::reduce;
  r = check(s);
  EXPECT_TRUE(has(r, collective_violation_kind::reduce_forbidden)) << describe(r);
  s = ring_allgather(4);
  s.steps[0].transfers.push_back({99, 0, 1, transfer_op::copy});
  s.steps[0].transfers.push_back({0, 1, 1, transfer_op::copy});
  r = check(s);
  EXPECT_EQ(r.count(collective_violation_kind::out_of_range), 2u) << describe(r);

  // a contribution added twice: the ring reduce-scatter's first step repeated
  s = ring_reduce_scatter(4);
  s.steps.insert(s.steps.begin() + 1, s.steps.front());
  r = check(s);
  EXPECT_TRUE(has(r, collective_violation_kind::double_counted)) << describe(r);

  // a contribution missing: the reduce-scatter's last step left out
  s = ring_reduce_scatter(4);
  s.steps.pop_back();
  r = check(s);
  EXPECT_TRUE(has(r, collective_violation_kind::missing_contribution)) << describe(r);
  EXPECT_NE(describe(r).find("lacks the contribution of rank"), std::string::npos) << describe(r);

  // two reductions into one chunk in one step combine (a tree's children)
  schedule tree{ring_topology(3), port_model::all_port, {collective_kind::reduce, 3, 1, 0}, {}, "two children"};
  tree.steps.push_back({1, {{0, 1, 0, transfer_op::reduce}, {0, 2, 0, transfer_op::reduce}}});
  EXPECT_TRUE(check(tree).holds()) << describe(check(tree));
}

// The checker codes each held chunk by the step that wrote it, and recodes them once every 32,766 steps: a chunk held
// since the first step is still held, and a chunk written in a step is still unreadable in it, across that span.
TEST(collective_check, what_a_step_wrote_is_read_right_across_tens_of_thousands_of_steps) {
  constexpr std::size_t span = 32766;
  auto broadcast_over = [](std::size_t last) {
    schedule s{complete_topology(3), port_model::all_port, {collective_kind::broadcast, 3, 1, 0}, {}, "spread out"};
    s.steps.resize(last + 1);
    s.steps[0].transfers = {{0, 0, 1, transfer_op::copy}};
    return s;
  };
  for (const std::size_t last : {span - 1, span, span + 1, 2 * span, 2 * span + 3}) {
    schedule s = broadcast_over(last);
    s.steps[last].transfers = {{0, 1, 2, transfer_op::copy}};
    EXPECT_TRUE(check(s).holds()) << last << ": " << describe(check(s));
    // rank 2 forwards in the step that brings it the chunk
    s.steps[last].transfers.push_back({0, 2, 1, transfer_op::copy});
    collective_report r = check(s);
    ASSERT_EQ(r.count(collective_violation_kind::not_held), 1u) << last << ": " << describe(r);
    EXPECT_EQ(r.witnesses.front().step, last);
    // a move away in that step leaves rank 1 without it
    s.steps[last].transfers = {{0, 1, 2, transfer_op::move}};
    r = check(s);
    ASSERT_EQ(r.count(collective_violation_kind::missing), 1u) << last << ": " << describe(r);
    EXPECT_EQ(r.witnesses.front().to, 1u);
    // written just before the recoding, forwarded just after it
    s = broadcast_over(last);
    s.steps[0].transfers.clear();
    s.steps[last - 1].transfers = {{0, 0, 1, transfer_op::copy}};
    s.steps[last].transfers = {{0, 1, 2, transfer_op::copy}};
    EXPECT_TRUE(check(s).holds()) << last << ": " << describe(check(s));
  }
}

TEST(collective_check, the_missing_transfer_is_named) {
  schedule s = ring_allgather(5);
  // step 1, rank 2 sends block 1 to rank 3: without it rank 3 lacks chunk 1, and ranks 4 and 0 after it cannot get it
  // either
  const auto& ts = s.steps[1].transfers;
  const auto at = std::find_if(ts.begin(), ts.end(), [](const transfer& t) { return t.from == 2; });
  ASSERT_NE(at, ts.end());
  EXPECT_EQ(at->chunk, 1u);
  s.steps[1].transfers.erase(at);
  const collective_report r = check(s);
  EXPECT_TRUE(has(r, collective_violation_kind::not_held)) << describe(r);  // 3 forwards chunk 1 in step 2
  EXPECT_EQ(r.count(collective_violation_kind::missing), 3u) << describe(r);
  EXPECT_NE(describe(r).find("step 2, transfer 3 (chunk 1, 3 -> 4): rank 3 does not hold chunk 1"), std::string::npos);
}

TEST(collective_format, a_network_on_its_own_round_trips_and_names_the_place_of_an_error) {
  for (const topology& net : {dgx1_topology(), ring_topology(5), topology("lopsided", 3, {{0, 1, 2}, {1, 2, 1}})}) {
    std::ostringstream out;
    write_topology(out, net);
    const topology back = read_topology(out.str());
    EXPECT_EQ(back.name(), net.name());
    EXPECT_EQ(back.size(), net.size());
    EXPECT_EQ(back.links(), net.links());
  }
  auto error_of = [](const std::string& text) { return format_error_of([&] { read_topology(text); }); };
  EXPECT_NE(
      error_of(R"({"format": "dancecard.topology/1", "ranks": 2, "links": [[0, 2, 1]]})").find("topology.links[0]"),
      std::string::npos);
  EXPECT_NE(error_of(R"({"format": "dancecard.topology/1", "ranks": 2, "links": [], "colour": 1})").find("colour"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"format": "dancecard.collective/1", "ranks": 2, "links": []})").find("format"),
            std::string::npos);
}

TEST(collective_format, round_trips_and_names_the_place_of_an_error) {
  for (const schedule& s : {ring_allreduce(5, 2), binomial_broadcast(6, 2), pairwise_alltoall(4)}) {
    std::ostringstream out;
    write_collective_schedule(out, s);
    const schedule back = read_collective_schedule(out.str());
    EXPECT_EQ(back.network.name(), s.network.name());
    EXPECT_EQ(back.network.links(), s.network.links());
    EXPECT_EQ(back.coll.kind, s.coll.kind);
    EXPECT_EQ(back.coll.root, s.coll.root);
    EXPECT_EQ(back.steps.size(), s.steps.size());
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
      EXPECT_EQ(back.steps[i].rounds, s.steps[i].rounds);
      EXPECT_EQ(back.steps[i].transfers, s.steps[i].transfers);
    }
    EXPECT_TRUE(check(back).holds());
  }
  // a network of its own is written out link by link
  schedule custom{
      topology("pair", 2, {{0, 1, 3}, {1, 0, 3}}), port_model::all_port, {collective_kind::allgather, 2, 1, 0}, {}, ""};
  custom.steps.push_back({1, {{0, 0, 1, transfer_op::copy}, {1, 1, 0, transfer_op::copy}}});
  std::ostringstream out;
  write_collective_schedule(out, custom);
  EXPECT_NE(out.str().find("\"links\": [[0, 1, 3], [1, 0, 3]]"), std::string::npos) << out.str();
  EXPECT_TRUE(check(read_collective_schedule(out.str())).holds());

  auto error = [](const std::string& text) { return format_error_of([&] { read_collective_schedule(text); }); };
  const std::string head =
      R"({"format": "dancecard.collective/1", "topology": "ring:3", "collective": {"kind": "allgather"}, )";
  EXPECT_EQ(error(head + R"("steps": [{"transfers": [[0, 0, 1], [5, 0, 1]]}]})"),
            "steps[0].transfers[1][0]: chunk 5 is out of range (3 chunks)");
  EXPECT_EQ(error(head + R"("steps": [{"transfers": [[0, 0, 7]]}]})"),
            "steps[0].transfers[0][2]: rank 7 is out of range");
  EXPECT_EQ(error(head + R"("steps": [{"transfers": [[0, 0, 1, "add"]]}]})"),
            R"(steps[0].transfers[0][3]: expected "copy", "reduce" or "move", got "add")");
  EXPECT_EQ(error(head + R"("steps": [{"tranfers": []}]})"),
            "steps[0].tranfers: unknown key (expected rounds, transfers)");
  const std::string format = R"({"format": "dancecard.collective/1", )";
  const std::string allgather = R"("collective": {"kind": "allgather"}, "steps": []})";
  EXPECT_NE(error(format + R"("topology": "mesh:3", )" + allgather).find("topology: unknown topology"),
            std::string::npos);
  EXPECT_NE(error(format + R"("topology": "ring:3", "collective": {"kind": "allgather", "ranks": 4}, "steps": []})")
                .find("collective.ranks: 4 ranks, but the topology ring:3 has 3"),
            std::string::npos);
  EXPECT_NE(error(format + R"("topology": {"ranks": 2, "links": [[0, 2, 1]]}, )" + allgather)
                .find("topology.links[0]: rank 2 is out of range"),
            std::string::npos);
}

TEST(collective_bounds, a_network_named_like_a_built_in_is_searched_as_what_it_is) {
  // A path of 6 ranks called "ring:6", rank 0 in its middle (1 - 2 - 0 - 3 - 4 - 5): the one-search shortcut of the
  // vertex-transitive built-ins must not apply (its links are not the ring's), so the bound is the path's diameter 5,
  // not rank 0's eccentricity 3 (nor the ring's 3).
  const std::array<rank, 6> order = {1, 2, 0, 3, 4, 5};
  std::vector<link> path;
  for (std::size_t p = 0; p + 1 < 6; ++p)
    path.push_back({order[p], order[p + 1], 1}), path.push_back({order[p + 1], order[p], 1});
  schedule s{topology("ring:6", 6, path), port_model::all_port, {collective_kind::allgather, 6, 1, 0}, {}, "path"};
  for (std::size_t hop = 0; hop < 5; ++hop) {  // every chunk walks the path both ways, one hop a step
    step& st = s.steps.emplace_back();
    for (std::size_t at = 0; at < 6; ++at) {  // the chunk of the rank at position `at`
      const std::uint64_t chunk = order[at];
      if (at + hop + 1 < 6) st.transfers.push_back({chunk, order[at + hop], order[at + hop + 1], transfer_op::copy});
      if (at >= hop + 1) st.transfers.push_back({chunk, order[at - hop], order[at - hop - 1], transfer_op::copy});
    }
  }
  const collective_report r = check(s);
  EXPECT_TRUE(r.holds()) << describe(r);
  EXPECT_EQ(r.step_bound, 5u);
  EXPECT_EQ(check(ring_allgather(6)).step_bound, 3u);  // the real ring:6, searched once
}

TEST(collective_bounds, cuts_bound_the_rounds_where_the_network_is_thin) {
  // DGX-1, all-to-all with 3 chunks per pair (SCCL's C = 24): a quad's 4·4·3 = 48 chunks must cross the 6 link
  // capacities between the quads, so 8 rounds (SCCL's (24, 8, 8)); one GPU alone needs only ⌈7·3/6⌉ = 4.
  schedule none{dgx1_topology(), port_model::all_port, {collective_kind::alltoall, 8, 3, 0}, {}, "nothing"};
  const collective_report r = check(none);
  EXPECT_FALSE(r.holds());  // no steps: every chunk is missing, but the bounds stand
  EXPECT_EQ(r.round_bound, 8u);
  EXPECT_EQ(std::popcount(r.round_bound_cut), 4);  // a quad (or its complement)
  // all-gather with 6 chunks per GPU: the per-GPU bound ⌈7·6/6⌉ = 7 is the larger (SCCL's (6, 3, 7))
  none.coll = {collective_kind::allgather, 8, 6, 0};
  const collective_report ag = check(none);
  EXPECT_EQ(ag.round_bound, 7u);
  EXPECT_EQ(std::popcount(ag.round_bound_cut), 7);  // every GPU but the one receiving
}

}  // namespace
}  // namespace dancecard::collective
