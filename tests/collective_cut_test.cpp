// Cut bounds on rounds as cutting-planes certificates: accepted where the cut needs more rounds than the query has
// (DGX-1's quads for SCCL's all-to-all, one GPU's in-links for its all-gather), rejected when damaged or when the
// rounds suffice; and the least steps and rounds with the cut certificates on and off are the same answers.
#include <gtest/gtest.h>

#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/smt/collective_cut.hpp"
#include "dancecard/smt/collective_synthesis.hpp"
#include "text_edit.hpp"

namespace dancecard::collective {
namespace {

using testing_support::replace_first;

TEST(collective_cut, the_quads_of_dgx1_refute_the_all_to_all_in_seven_rounds) {
  const auto cut = refute_by_cut(dgx1_topology(), {collective_kind::alltoall, 8, 3, 0}, 7, 7);
  ASSERT_TRUE(cut);
  EXPECT_TRUE(cut->accepted) << cut->detail;
  EXPECT_EQ(cut->chunks, 48u);   // 4 · 4 · 3 chunks from one quad to the other
  EXPECT_EQ(cut->capacity, 6u);  // the links 0-4 and 2-6 (two NVLinks each), 1-5 and 3-7
  EXPECT_EQ(cut->inside.size(), 4u);
  // 8 rounds are enough for the count: no refutation
  EXPECT_FALSE(refute_by_cut(dgx1_topology(), {collective_kind::alltoall, 8, 3, 0}, 7, 8));
  // the same certificate for 8 rounds is rejected
  EXPECT_EQ(certificates::check_cutting_planes(replace_first(cut->certificate, "rounds=7", "rounds=8")).outcome,
            verdict::violated);
}

TEST(collective_cut, without_slack_every_chunk_counts) {
  // ring:4, all-gather in one round: rank 0 must take in 3 chunks over 2 links. One chunk's "wanted at the end"
  // dropped from the sum leaves 2 chunks for 2 links a round: no contradiction.
  const auto cut = refute_by_cut(ring_topology(4), {collective_kind::allgather, 4, 1, 0}, 1, 1);
  ASSERT_TRUE(cut);
  EXPECT_TRUE(cut->accepted) << cut->detail;
  EXPECT_EQ(cut->chunks, 3u);
  EXPECT_EQ(cut->capacity, 2u);
  EXPECT_EQ(certificates::check_cutting_planes(replace_first(cut->certificate, " 1 want:", " 0 want:")).outcome,
            verdict::violated);
  EXPECT_FALSE(refute_by_cut(ring_topology(4), {collective_kind::allgather, 4, 1, 0}, 2, 2));  // 2 rounds suffice
}

TEST(collective_cut, one_gpus_in_links_refute_the_all_gather_of_six_chunks_in_six_rounds) {
  const auto cut = refute_by_cut(dgx1_topology(), {collective_kind::allgather, 8, 6, 0}, 3, 6);
  ASSERT_TRUE(cut);
  EXPECT_TRUE(cut->accepted) << cut->detail;
  EXPECT_EQ(cut->chunks, 42u);  // the 7 other GPUs' 6 chunks each
  EXPECT_EQ(cut->capacity, 6u);
  EXPECT_EQ(cut->inside.size(), 7u);
  // a network the instance line cannot name, and a combining collective: no certificate
  std::vector<link> links = dgx1_topology().links();
  EXPECT_FALSE(refute_by_cut(topology("mine", 8, links), {collective_kind::allgather, 8, 6, 0}, 3, 6));
  EXPECT_FALSE(refute_by_cut(dgx1_topology(), {collective_kind::reduce_scatter, 8, 6, 0}, 3, 6));
}

TEST(collective_cut, malformed_instances_and_axioms_are_named) {
  using certificates::check_cutting_planes;
  auto problem = [](const std::string& body) {
    const auto r = check_cutting_planes("dancecard.cp/1\n" + body);
    return r.malformed ? r.problem : std::string("not malformed");
  };
  EXPECT_NE(problem("instance collective network=mesh:4 coll=allgather chunks=1 root=0 steps=1 rounds=1\n")
                .find("no built-in network"),
            std::string::npos);
  EXPECT_NE(problem("instance collective network=ring:4 coll=allreduce chunks=1 root=0 steps=1 rounds=1\n")
                .find("coll must be"),
            std::string::npos);
  EXPECT_NE(problem("instance collective network=ring:4 coll=allgather chunks=1 root=0 steps=2 rounds=1\n")
                .find("steps <= rounds"),
            std::string::npos);
  // a short line naming a million-rank network is refused before the network is built
  EXPECT_NE(problem("instance collective network=hypercube:20 coll=alltoall chunks=1 root=0 steps=1 rounds=1\n")
                .find("more than 1000000 links"),
            std::string::npos);
  const std::string ring = "instance collective network=ring:4 coll=allgather chunks=1 root=0 steps=1 rounds=1\n";
  EXPECT_NE(problem(ring + "c 1 sum 1 send:0:0:2:0\n").find("no link of ring:4"), std::string::npos);
  EXPECT_NE(problem(ring + "c 1 sum 1 want:0:9\n").find("rank 9 out of range"), std::string::npos);
  EXPECT_NE(problem(ring + "c 1 sum 1 lower:e:0:1\n").find("round 1 out of range"), std::string::npos);
  // gather: a chunk is wanted at the root only
  EXPECT_NE(problem("instance collective network=ring:4 coll=gather chunks=1 root=2 steps=1 rounds=1\n"
                    "c 1 sum 1 want:0:1\n")
                .find("does not want chunk 0"),
            std::string::npos);
}

// The answers do not depend on how "not below" is certified: with the cut certificates and with DRAT alone.
TEST(collective_cut, least_steps_and_rounds_agree_with_and_without_cut_certificates) {
  struct instance {
    topology net;
    collective coll;
    std::uint64_t steps;  // 0: least steps; else least rounds for these steps
  };
  const std::vector<instance> cases = {
      {ring_topology(4), {collective_kind::allgather, 4, 3, 0}, 2},
      {ring_topology(5), {collective_kind::alltoall, 5, 1, 0}, 0},
      {hypercube_topology(3), {collective_kind::allgather, 8, 2, 0}, 3},
      {dgx1_topology(), {collective_kind::allgather, 8, 2, 0}, 2},
      {dgx1_topology(), {collective_kind::broadcast, 8, 4, 3}, 0},
      {complete_topology(5), {collective_kind::scatter, 5, 2, 1}, 0},
      {torus_topology(torus::network({3, 3})), {collective_kind::gather, 9, 1, 4}, 0},
  };
  for (const instance& c : cases) {
    std::uint64_t answer[2] = {0, 0};
    bool by_cut = false;
    for (bool cuts : {false, true}) {
      synthesis_options o;
      o.budget_ms = 0;  // no time limit: the answer never depends on the machine's speed
      o.cut_certificates = cuts;
      const least_steps_result r =
          c.steps ? prove_least_rounds(c.net, c.coll, c.steps, 16, o) : prove_least_steps(c.net, c.coll, o);
      ASSERT_EQ(r.status, proof_status::proven) << c.net.name() << " " << c.coll.describe() << ": " << r.reason;
      answer[cuts] = c.steps ? r.witness->rounds() : r.steps;
      for (const synthesis_query& q : r.queries) {
        if (q.detail.find("unsat by a cut") != std::string::npos) by_cut = true;
        EXPECT_EQ(cuts || q.certificate.empty(), true);
      }
    }
    EXPECT_EQ(answer[0], answer[1]) << c.net.name() << " " << c.coll.describe();
    EXPECT_TRUE(by_cut || c.coll.kind == collective_kind::broadcast || c.coll.kind == collective_kind::gather ||
                c.coll.kind == collective_kind::scatter)
        << c.net.name() << " " << c.coll.describe();
  }
}

}  // namespace
}  // namespace dancecard::collective
