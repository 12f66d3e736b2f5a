// MSCCL-IR: every generator's schedule exported (on 1 and 3 channels), written as XML, read back equal, accepted
// by the checker and imported back to the same transfers (the round trip); hand-written programs, each broken in one
// way, rejected with the kind and the steps named; programs that are no chunk schedule refused with the step named;
// the reader's errors naming the element and attribute.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <tuple>

#include "dancecard/checkers/collective_check.hpp"
#include "dancecard/checkers/msccl_check.hpp"
#include "dancecard/checkers/msccl_import.hpp"
#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/formats/msccl_io.hpp"

namespace dancecard::collective {
namespace {

std::string xml(const msccl_program& p) {
  std::ostringstream out;
  write_msccl_xml(out, p);
  return out.str();
}

msccl_report check(const msccl_program& p, std::uint32_t slots = 1) {
  return check_msccl_program(p, {.max_witnesses = 50, .connection_slots = slots});
}

struct generated {
  std::string name;
  std::function<schedule(rank)> make;
  bool powers_of_two = false;
};

std::vector<generated> generators() {
  return {
      {"ring_allgather", [](rank n) { return ring_allgather(n, 2); }},
      {"recursive_doubling_allgather", [](rank n) { return recursive_doubling_allgather(n); }},
      {"bruck_allgather", [](rank n) { return bruck_allgather(n); }},
      {"pairwise_alltoall", [](rank n) { return pairwise_alltoall(n, 2); }},
      {"ring_reduce_scatter", [](rank n) { return ring_reduce_scatter(n, 2); }},
      {"recursive_halving_reduce_scatter", [](rank n) { return recursive_halving_reduce_scatter(n); }, true},
      {"ring_allreduce", [](rank n) { return ring_allreduce(n); }},
      {"rabenseifner_allreduce", [](rank n) { return rabenseifner_allreduce(n, 2); }, true},
      {"double_binary_tree_allreduce", [](rank n) { return double_binary_tree_allreduce(n, 2); }},
  };
}

TEST(msccl_export, every_generator_round_trips_and_checks_on_many_sizes) {
  for (const generated& g : generators())
    for (rank n : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 12u, 16u}) {
      if (g.powers_of_two && (n & (n - 1)) != 0) continue;
      const schedule s = g.make(n);
      ASSERT_TRUE(check_collective_schedule(s).holds()) << g.name << " " << n;
      for (std::uint32_t channels : {1u, 3u}) {
        const msccl_program p = to_msccl(s, {.channels = channels});
        const std::string text = xml(p);
        const msccl_program back = read_msccl_xml(text);
        EXPECT_EQ(back, p) << g.name << " " << n;
        for (std::uint32_t slots : {1u, 8u}) {
          const msccl_report r = check(back, slots);
          EXPECT_TRUE(r.holds()) << g.name << " n = " << n << "\n" << describe(r);
          EXPECT_TRUE(r.postcondition_checked);
          EXPECT_EQ(r.transfers, s.transfers()) << g.name << " " << n;
          if (g.name == "ring_allgather" && n > 1) {  // a chunk goes n − 1 hops: a send and a receive each
            EXPECT_GE(r.critical_path, 2 * (n - 1)) << n;
          }
        }
      }
    }
}

TEST(msccl_export, rooted_collectives_are_refused) {
  EXPECT_THROW(to_msccl(binomial_broadcast(4)), std::invalid_argument);
  EXPECT_THROW(to_msccl(binomial_reduce(4)), std::invalid_argument);
}

TEST(msccl_export, a_damaged_schedule_exports_to_a_program_the_checker_rejects) {
  schedule s = ring_allgather(4);
  s.steps.pop_back();  // the last step's chunks never arrive
  const msccl_report r = check(to_msccl(s));
  EXPECT_FALSE(r.holds());
  EXPECT_GT(r.count(msccl_violation_kind::wrong_value), 0u) << describe(r);
  schedule twice = ring_allreduce(4);
  twice.steps[1] = twice.steps[0];  // the first step's contributions added a second time
  EXPECT_GT(check(to_msccl(twice)).count(msccl_violation_kind::double_counted), 0u);
}

// A hand-written 2-GPU all-gather: each GPU copies its chunk to the output and swaps it with the other GPU.
constexpr std::string_view two_gpu_allgather =
    R"(<algo name="swap" proto="Simple" nchannels="1" nchunksperloop="2" ngpus="2" coll="allgather" inplace="0">
  <gpu id="0" i_chunks="1" o_chunks="2" s_chunks="0">
    <tb id="0" send="1" recv="1" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="-1" cnt="1" depid="-1" deps="-1" hasdep="0"/>
      <step s="1" type="r" srcbuf="i" srcoff="-1" dstbuf="o" dstoff="1" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
    <tb id="1" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
  <gpu id="1" i_chunks="1" o_chunks="2" s_chunks="0">
    <tb id="0" send="0" recv="0" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="-1" cnt="1" depid="-1" deps="-1" hasdep="0"/>
      <step s="1" type="r" srcbuf="i" srcoff="-1" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
    <tb id="1" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="1" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
</algo>
)";

msccl_program hand() { return read_msccl_xml(two_gpu_allgather); }

TEST(msccl_check, the_hand_written_all_gather_holds) {
  const msccl_report r = check(hand());
  EXPECT_TRUE(r.holds()) << describe(r);
  EXPECT_EQ(r.transfers, 2u);
  EXPECT_EQ(r.critical_path, 2u);  // a send, then its receive
  EXPECT_EQ(r.receive_bound, 1u);
  EXPECT_EQ(r.most_received_chunks, 1u);
}

TEST(msccl_check, receives_before_sends_on_both_sides_deadlock_with_the_cycle_named) {
  msccl_program p = hand();
  for (msccl_gpu& g : p.gpus) {
    auto& steps = g.threadblocks[0].steps;
    std::swap(steps[0], steps[1]);
    steps[0].s = 0;
    steps[1].s = 1;
  }
  const msccl_report r = check(p);
  ASSERT_EQ(r.count(msccl_violation_kind::deadlock), 1u) << describe(r);
  const auto& cycle = r.witnesses[0].steps;
  ASSERT_EQ(cycle.size(), 2u);
  EXPECT_EQ(cycle[0], (msccl_step_ref{0, 0, 0}));
  EXPECT_EQ(cycle[1], (msccl_step_ref{1, 0, 0}));
}

TEST(msccl_check, two_sends_each_way_need_a_second_slot) {
  // Each GPU sends its chunk twice, then receives twice: with one buffered message per connection the second sends
  // wait for receives that come after them; with two slots it runs (and the second receive rewrites the same value).
  msccl_program p = hand();
  for (msccl_gpu& g : p.gpus) {
    auto& steps = g.threadblocks[0].steps;
    steps.insert(steps.begin() + 1, steps[0]);
    steps.push_back(steps.back());
    for (std::uint32_t k = 0; k < steps.size(); ++k) steps[k].s = k;
  }
  EXPECT_EQ(check(p, 1).count(msccl_violation_kind::deadlock), 1u);
  EXPECT_EQ(check(p, 2).count(msccl_violation_kind::deadlock), 0u);
}

TEST(msccl_check, a_copy_and_a_receive_into_one_chunk_race) {
  msccl_program p = hand();
  p.gpus[0].threadblocks[1].steps[0].dstoff = 1;  // the local copy writes where the receive writes
  const msccl_report r = check(p);
  ASSERT_GT(r.count(msccl_violation_kind::race), 0u) << describe(r);
  const auto& w = *std::find_if(r.witnesses.begin(), r.witnesses.end(),
                                [](const msccl_violation& v) { return v.kind == msccl_violation_kind::race; });
  EXPECT_NE(std::find(w.steps.begin(), w.steps.end(), msccl_step_ref{0, 1, 0}), w.steps.end());
  EXPECT_NE(std::find(w.steps.begin(), w.steps.end(), msccl_step_ref{0, 0, 1}), w.steps.end());
  // ordered by a dependency (the receive signals, the copy waits for it), the race is gone; the value is then wrong
  p.gpus[0].threadblocks[0].steps[1].hasdep = true;
  p.gpus[0].threadblocks[1].steps[0].depid = 0;
  p.gpus[0].threadblocks[1].steps[0].deps = 1;
  const msccl_report ordered = check(p);
  EXPECT_EQ(ordered.count(msccl_violation_kind::race), 0u) << describe(ordered);
  EXPECT_GT(ordered.count(msccl_violation_kind::wrong_value), 0u);
}

TEST(msccl_check, a_dependency_on_a_step_that_never_signals_is_a_deadlock) {
  msccl_program p = hand();
  p.gpus[1].threadblocks[1].steps[0].depid = 0;
  p.gpus[1].threadblocks[1].steps[0].deps = 1;  // hasdep is 0 there
  const msccl_report r = check(p);
  EXPECT_EQ(r.count(msccl_violation_kind::deadlock), 1u);
  EXPECT_EQ(r.witnesses[0].steps[0], (msccl_step_ref{1, 1, 0}));
}

TEST(msccl_check, unmatched_and_count_mismatch) {
  msccl_program p = hand();
  p.gpus[1].threadblocks[0].steps.pop_back();  // GPU 1 never receives
  EXPECT_EQ(check(p).count(msccl_violation_kind::unmatched), 1u);
  msccl_program q = hand();
  q.gpus[1].threadblocks[0].steps[1].cnt = 2;
  q.gpus[1].o_chunks = 3;
  EXPECT_EQ(check(q).count(msccl_violation_kind::count_mismatch), 1u);
}

TEST(msccl_check, structural_errors_are_named) {
  auto malformed = [](const msccl_program& p) {
    const msccl_report r = check(p);
    return r.count(msccl_violation_kind::malformed) > 0 ? r.witnesses[0].detail : std::string("accepted");
  };
  msccl_program p = hand();
  p.gpus[0].threadblocks[0].steps[1].dstoff = 2;
  EXPECT_NE(malformed(p).find("outside the buffer's 2 chunks"), std::string::npos) << malformed(p);
  p = hand();
  p.gpus[0].threadblocks[1].send = 1;  // a second block sending to GPU 1 on channel 0
  EXPECT_NE(malformed(p).find("one connection"), std::string::npos) << malformed(p);
  p = hand();
  p.gpus[0].threadblocks[0].steps[1].s = 5;
  EXPECT_NE(malformed(p).find("numbered in order"), std::string::npos);
  p = hand();
  p.gpus[1].id = 0;
  EXPECT_NE(malformed(p).find("given twice"), std::string::npos);
  p = hand();
  p.gpus[0].threadblocks[1].steps[0].type = msccl_instruction::send;
  EXPECT_NE(malformed(p).find("no send peer"), std::string::npos);
}

TEST(msccl_check, an_unknown_collective_is_unknown_not_holds) {
  msccl_program p = hand();
  p.coll = "broadcast";
  const msccl_report r = check(p);
  EXPECT_EQ(r.outcome, verdict::unknown);
  EXPECT_FALSE(r.postcondition_checked);
}

TEST(msccl_check, in_place_all_gather_aliases_the_input_into_the_output) {
  // In place, GPU r's input is output[r·C …]: no local copy is needed.
  msccl_program p = hand();
  p.inplace = true;
  for (msccl_gpu& g : p.gpus) g.threadblocks.pop_back();
  EXPECT_TRUE(check(p).holds()) << describe(check(p));
}

// The transfers as a sorted list, for comparing schedules whose steps group them differently.
std::vector<std::tuple<std::uint64_t, rank, rank, int>> transfer_list(const schedule& s) {
  std::vector<std::tuple<std::uint64_t, rank, rank, int>> out;
  for (const step& st : s.steps)
    for (const transfer& t : st.transfers) out.emplace_back(t.chunk, t.from, t.to, static_cast<int>(t.op));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(msccl_import, every_generator_comes_back_with_its_transfers_and_holds) {
  for (const generated& g : generators())
    for (rank n : {2u, 3u, 4u, 5u, 8u, 12u}) {
      if (g.powers_of_two && (n & (n - 1)) != 0) continue;
      const schedule s = g.make(n);
      for (std::uint32_t channels : {1u, 3u}) {
        const msccl_import_result r =
            import_msccl(read_msccl_xml(xml(to_msccl(s, {.channels = channels}))), {.network = s.network});
        ASSERT_TRUE(r.imported) << g.name << " n = " << n << ": " << r.reason;
        EXPECT_EQ(transfer_list(*r.imported), transfer_list(s)) << g.name << " n = " << n;
        EXPECT_EQ(r.imported->coll.kind, s.coll.kind);
        EXPECT_EQ(r.imported->coll.chunks, s.coll.chunks);
        const collective_report check = check_collective_schedule(*r.imported);
        EXPECT_TRUE(check.holds()) << g.name << " n = " << n << "\n" << describe(check);
        // Every transfer is at most as deep as its step; the ring's chunks depend on each other hop by hop, so there
        // the program's depth is the schedule's steps.
        EXPECT_LE(r.imported->steps.size(), s.steps.size()) << g.name << " n = " << n;
        if (g.name.starts_with("ring_")) {
          EXPECT_EQ(r.imported->steps.size(), s.steps.size()) << g.name << " n = " << n;
        }
      }
    }
}

TEST(msccl_import, a_program_with_wrong_values_imports_to_a_schedule_the_checker_rejects) {
  schedule s = ring_allgather(4);
  s.steps.pop_back();  // the last step's chunks never arrive
  const msccl_import_result r = import_msccl(to_msccl(s), {.network = s.network});
  ASSERT_TRUE(r.imported) << r.reason;
  EXPECT_GT(r.program_check.count(msccl_violation_kind::wrong_value), 0u);
  const collective_report check = check_collective_schedule(*r.imported);
  EXPECT_EQ(check.count(collective_violation_kind::missing), 4u) << describe(check);
}

TEST(msccl_import, a_deadlocked_program_is_not_imported) {
  msccl_program p = hand();
  for (msccl_gpu& g : p.gpus) std::swap(g.threadblocks[0].steps[0].type, g.threadblocks[0].steps[1].type);
  for (msccl_gpu& g : p.gpus) std::swap(g.threadblocks[0].steps[0].srcoff, g.threadblocks[0].steps[1].srcoff);
  for (msccl_gpu& g : p.gpus) std::swap(g.threadblocks[0].steps[0].dstoff, g.threadblocks[0].steps[1].dstoff);
  const msccl_import_result r = import_msccl(p);
  EXPECT_FALSE(r.imported);
  EXPECT_TRUE(r.program_invalid);
  EXPECT_NE(r.reason.find("deadlock"), std::string::npos) << r.reason;
}

TEST(msccl_import, the_hand_written_all_gather_is_one_step_on_the_complete_network) {
  const msccl_import_result r = import_msccl(hand());
  ASSERT_TRUE(r.imported) << r.reason;
  ASSERT_EQ(r.imported->steps.size(), 1u);
  EXPECT_EQ(r.imported->network.name(), "complete:2");
  EXPECT_EQ(transfer_list(*r.imported),
            (std::vector<std::tuple<std::uint64_t, rank, rank, int>>{{0, 0, 1, 0}, {1, 1, 0, 0}}));
}

TEST(msccl_import, a_stale_copy_sent_after_a_reduction_is_no_chunk_schedule) {
  // A 2-GPU all-reduce (one chunk each): the GPUs swap both input chunks and reduce them into the output. Then GPU 0
  // sends its input[0] again, which it no longer holds as its value of chunk 0 (that is now the sum); GPU 1 puts it in
  // scratch. The program holds, but a chunk schedule cannot say that.
  msccl_program p = read_msccl_xml(xml(to_msccl(ring_allreduce(2))));
  ASSERT_TRUE(import_msccl(p).imported);
  msccl_step send;
  send.type = msccl_instruction::send;
  send.srcbuf = msccl_buffer::input;
  send.srcoff = 0;
  msccl_step recv;
  recv.type = msccl_instruction::recv;
  recv.dstbuf = msccl_buffer::scratch;
  recv.dstoff = p.gpus[1].s_chunks++;
  for (auto [g, s] : {std::pair{0, send}, std::pair{1, recv}}) {
    auto& blocks = p.gpus[static_cast<std::size_t>(g)].threadblocks;
    auto& steps = std::find_if(blocks.begin(), blocks.end(), [&](const msccl_threadblock& tb) {
                    return (g == 0 ? tb.send : tb.recv) == 1 - g;
                  })->steps;
    s.s = static_cast<std::uint32_t>(steps.size());
    steps.push_back(s);
  }
  ASSERT_TRUE(check(p).holds()) << describe(check(p));
  const msccl_import_result r = import_msccl(p);
  EXPECT_FALSE(r.imported);
  EXPECT_FALSE(r.program_invalid);
  EXPECT_NE(r.reason.find("gpu 0 tb 0 step"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("one value per chunk and rank"), std::string::npos) << r.reason;
}

TEST(msccl_xml, errors_name_the_element_attribute_and_line) {
  auto error = [](std::string text) {
    try {
      read_msccl_xml(text);
    } catch (const format_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  std::string t(two_gpu_allgather);
  EXPECT_NE(error(t.replace(t.find("type=\"r\""), 8, "type=\"q\""))
                .find("algo/gpu[id=0]/tb[id=0]/step[1] (line 5): "
                      "attribute 'type' is 'q'"),
            std::string::npos);
  t = two_gpu_allgather;
  EXPECT_NE(error(t.replace(t.find("cnt=\"1\""), 7, "cnt=\"x\"")).find("attribute 'cnt' is 'x'; expected an integer"),
            std::string::npos);
  t = two_gpu_allgather;
  EXPECT_NE(error(t.replace(t.find(" hasdep=\"0\""), 11, "")).find("attribute 'hasdep' is missing"), std::string::npos);
  t = two_gpu_allgather;
  EXPECT_NE(error(t.replace(t.find("<tb id=\"1\""), 0, "<note/>")).find("unexpected element 'note'"),
            std::string::npos);
  t = two_gpu_allgather;
  const std::string op = R"(<op step="0" type="s" buf="i" off="0"/>)";
  EXPECT_NE(error(t.replace(t.find("<step s=\"1\""), 0, op)).find("newer MSCCLang form"), std::string::npos);
  EXPECT_NE(error("<algo").find("not well-formed XML"), std::string::npos);
  EXPECT_NE(error("<algo name=\"x\"/><algo/>").find("one 'algo' element"), std::string::npos);
  t = two_gpu_allgather;
  EXPECT_NE(error(t.replace(t.find("ngpus=\"2\""), 9, "ngpus=\"99999999\"")).find("expected 1 to 65536"),
            std::string::npos);
  t = two_gpu_allgather;
  EXPECT_NE(error(t.replace(t.find("srcbuf=\"i\""), 10, "srcbuf=\"x\"")).find("expected i, o or s"), std::string::npos);
}

}  // namespace
}  // namespace dancecard::collective
