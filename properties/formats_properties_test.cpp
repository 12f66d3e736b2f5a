// Properties of the file readers and the certificate checker under RapidCheck (run by ctest): any damage to a valid
// file — bytes deleted, replaced or inserted, tokens spliced in, the text cut short — is either read (and then checked
// without an exception escaping the checker) or refused with a format_error, which the CLI turns into exit 2 with the
// place named. Nothing else may escape: fuzzing the CLI found a JSON number beyond a double ("1e999": nlohmann's
// out_of_range, not a parse error) aborting every JSON reader, an hrel amount of 2^63 read as -2^63, and sums past
// 64-bit rationals aborting `check hrel`.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "damaged_text.hpp"
#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/checkers/msccl_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/collective/generators.hpp"
#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/core/dance/directed.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/formats/msccl_io.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/properties/hrel_generators.hpp"
#include "dancecard/smt/dance_certificates.hpp"
#include "dancecard/smt/directed.hpp"
#include "dancecard/smt/hrel_certificates.hpp"
#include "dancecard/smt/hrel_encoding.hpp"

namespace dancecard {

using namespace dancecard::dance;
using namespace dancecard::hrel;
using namespace dancecard::torus;
using namespace dancecard::certificates;
namespace {

using properties_test::damaged;

// `read` then `check` on the damaged text: only a format_error may come out of reading; checking throws nothing
// (overflow_allowed_in_check: the hrel checker documents a std::overflow_error where sums leave 64-bit rationals).
template <class Value>
bool read_and_check_once(const std::string& text, const std::function<Value(std::string_view)>& read,
                         const std::function<void(const Value&)>& check, bool overflow_allowed_in_check = false) {
  const std::string input = damaged(text);
  std::optional<Value> value;
  try {
    value.emplace(read(input));
  } catch (const format_error&) {
    return false;  // refused, with the place named
  } catch (const std::exception& e) {
    RC_FAIL(std::string("the reader threw something other than format_error: ") + e.what() + "\ninput:\n" + input);
  }
  try {
    check(*value);
  } catch (const std::overflow_error& e) {
    RC_ASSERT(overflow_allowed_in_check);
  } catch (const std::exception& e) {
    RC_FAIL(std::string("the checker threw on a file the reader accepted: ") + e.what() + "\ninput:\n" + input);
  }
  return true;
}

// Eight damaged copies a case: reading and checking take microseconds.
template <class Value>
void read_and_check(const std::string& text, const std::function<Value(std::string_view)>& read_text,
                    const std::function<void(const Value&)>& check, bool overflow_allowed_in_check = false) {
  bool read = false;
  for (int copy = 0; copy < 8; ++copy)
    read = read_and_check_once(text, read_text, check, overflow_allowed_in_check) || read;
  RC_TAG(read ? "a damaged copy read (and checked)" : "every damaged copy refused");
}

template <class Value>
std::string written(void (*write)(std::ostream&, const Value&, std::string_view), const Value& value) {
  std::ostringstream out;
  write(out, value, "");
  return out.str();
}

RC_GTEST_PROP(formats_damaged, dance_schedules_and_matrices_are_read_or_refused, ()) {
  const rank n = *rc::gen::inRange<rank>(2, 12);
  const dance_schedule s = factorization_schedule(n);
  if (*rc::gen::arbitrary<bool>()) {
    read_and_check<dance_schedule>(written(write_dance_json, s), read_dance_json,
                                   [](const dance_schedule& v) { check_dance_schedule(v); });
  } else {
    std::ostringstream out;
    write_partner_matrix(out, to_partner_matrix(s));
    read_and_check<partner_matrix>(out.str(), read_partner_matrix,
                                   [](const partner_matrix& v) { check_partner_matrix(v); });
  }
}

RC_GTEST_PROP(formats_damaged, directed_schedules_are_read_or_refused, ()) {
  const directed_schedule s = openmpi_pairwise_schedule(*rc::gen::inRange<rank>(2, 10));
  read_and_check<directed_schedule>(written(write_directed_json, s), read_directed_json,
                                    [](const directed_schedule& v) { check_directed_schedule(v); });
}

RC_GTEST_PROP(formats_damaged, msccl_programs_are_read_or_refused, ()) {
  namespace coll = dancecard::collective;
  const rank n = *rc::gen::inRange<rank>(2, 6);
  const int which = *rc::gen::inRange(0, 3);
  const coll::schedule s = which == 0   ? coll::ring_allreduce(n)
                           : which == 1 ? coll::bruck_allgather(n)
                                        : coll::pairwise_alltoall(n);
  std::ostringstream out;
  coll::write_msccl_xml(out, coll::to_msccl(s));
  read_and_check<coll::msccl_program>(out.str(), coll::read_msccl_xml,
                                      [](const coll::msccl_program& v) { coll::check_msccl_program(v); });
}

RC_GTEST_PROP(formats_damaged, hrel_instances_and_schedules_are_read_or_refused, ()) {
  const hrel_instance instance = *rc::gen::resize(30, properties::hrel_instances(8, 6));
  std::ostringstream instance_text, schedule_text;
  write_hrel_instance(instance_text, instance);
  write_hrel_schedule(schedule_text,
                      *rc::gen::arbitrary<bool>() ? forwarding_schedule(instance) : direct_schedule(instance));
  if (*rc::gen::arbitrary<bool>()) {
    read_and_check<hrel_instance>(
        instance_text.str(), read_hrel_instance,
        [&](const hrel_instance& v) { check_hrel_schedule(v, read_hrel_schedule(schedule_text.str()), duplex::half); },
        true);
  } else {
    read_and_check<hrel_schedule>(
        schedule_text.str(), read_hrel_schedule,
        [&](const hrel_schedule& v) {
          check_hrel_schedule(instance, v, duplex::half);
          check_hrel_schedule(instance, v, duplex::full);
        },
        true);
  }
}

RC_GTEST_PROP(formats_damaged, torus_routing_tables_are_read_or_refused, ()) {
  // a table with switches (the scheduled supply of Section 4's zigzag cycles) or a time-independent one (square
  // switches)
  const bool zigzag = *rc::gen::arbitrary<bool>();
  const torus::network network =
      zigzag ? torus::network({*rc::gen::element<std::uint32_t>(4, 6), *rc::gen::element<std::uint32_t>(6, 8)})
             : torus::network({*rc::gen::inRange<std::uint32_t>(3, 6), *rc::gen::inRange<std::uint32_t>(3, 6)});
  const routing_table table = zigzag ? cycle_routing(zigzag_cycles(network), supply_policy::scheduled)
                                     : cycle_table(square_switch_cycles(network));
  read_and_check<routing_table>(
      written(write_torus_routing, table), [](std::string_view t) { return read_torus_routing(t); },
      [](const routing_table& v) { simulate_gossip(v, 4096); });
}

// Eight damaged copies of a certificate through the checker, which must not throw; `accepted` sees the report of each
// copy it still accepts (damage to comments or spacing). Tags the case by whether any was.
void check_damaged_certificates(const std::string& text,
                                const std::function<void(const cutting_planes_report&)>& accepted) {
  bool any = false;
  for (int copy = 0; copy < 8; ++copy) {
    const std::string input = damaged(text);
    cutting_planes_report r;
    try {
      r = check_cutting_planes(input);
    } catch (const std::exception& e) {
      RC_FAIL(std::string("the checker threw: ") + e.what() + "\ninput:\n" + input);
    }
    if (r.outcome != verdict::holds) continue;
    any = true;
    accepted(r);
  }
  RC_TAG(any ? "a damaged copy still accepted (comments, spacing)" : "every damaged copy refused");
}

// A damaged cutting-planes certificate never makes the checker throw, and it is never accepted for an instance that
// has a schedule: what it refutes — "dance n=N rounds=R" or "directed n=N rounds=R", read back from the report — must
// have R below the optimum (T(N) = N − 1 for even N, N for odd N; N − 1 for the directed rounds).
RC_GTEST_PROP(formats_damaged, cutting_planes_certificates_never_refute_a_feasible_instance, ()) {
  const rank n = *rc::gen::inRange<rank>(3, 9);
  const bool dance = *rc::gen::arbitrary<bool>();
  const std::string text = dance ? dance_lower_bound_certificate(n) : directed_lower_bound_certificate(n);
  check_damaged_certificates(text, [](const cutting_planes_report& r) {
    unsigned long long people = 0, rounds = 0;
    char kind[16] = {};
    RC_ASSERT(std::sscanf(r.instance.c_str(), "%15s n=%llu rounds=%llu", kind, &people, &rounds) == 3);
    const std::string family = kind;
    const unsigned long long optimum = family == "dance" ? (people % 2 == 0 ? people - 1 : people) : people - 1;
    RC_ASSERT(family == "dance" || family == "directed");
    RC_ASSERT(rounds < optimum);
  });
}

// The same for the h-relation certificates (two or three directed triangles, or a star, at k = 1 or 5, with or without
// forwarding): an accepted damaged copy names an instance — read back from the report's instance line, which may
// itself be damaged — whose slot count is below that of a checked schedule of it in slots of 1/k.
RC_GTEST_PROP(formats_damaged, hrel_certificates_never_refute_a_feasible_instance, ()) {
  const bool star = *rc::gen::arbitrary<bool>();
  std::vector<hrel_message> messages;
  const rank P = star ? 5 : 3 * *rc::gen::inRange<rank>(2, 4);
  for (rank i = 0; i < (star ? 4 : P); ++i)
    messages.push_back(star ? hrel_message{0, i + 1, 2} : hrel_message{i, 3 * (i / 3) + (i + 1) % 3, 1});
  const hrel_instance instance(P, messages);
  const unsigned k = *rc::gen::element(1u, 5u);
  const bool forwarding = *rc::gen::arbitrary<bool>();
  const auto text =
      hrel_lower_bound_certificate(instance, k, forwarding, hrel_certified_bounds(instance, k, forwarding).best() - 1);
  RC_ASSERT(text.has_value());
  check_damaged_certificates(*text, [](const cutting_planes_report& r) {
    // "hrel pes=P k=K slots=T forwarding=F messages=s>d*n,..."
    std::istringstream line(r.instance);
    std::string family, field[5];
    line >> family >> field[0] >> field[1] >> field[2] >> field[3] >> field[4];
    RC_ASSERT(family == "hrel");
    auto value = [&](int i) { return std::stoull(field[i].substr(field[i].find('=') + 1)); };
    std::vector<hrel_message> read;
    std::istringstream list(field[4].substr(field[4].find('=') + 1));
    for (std::string item; std::getline(list, item, ',');) {
      const auto arrow = item.find('>'), star_at = item.find('*');
      read.push_back({static_cast<rank>(std::stoul(item.substr(0, arrow))),
                      static_cast<rank>(std::stoul(item.substr(arrow + 1, star_at - arrow - 1))),
                      std::stoull(item.substr(star_at + 1))});
    }
    std::uint64_t packets = 0;
    for (const hrel_message& m : read) packets += std::min<std::uint64_t>(m.packets, 1u << 20);
    if (packets * value(1) > 10'000 || value(0) > 64) return;  // damage made it huge: its schedule would be too
    const hrel_instance named(static_cast<rank>(value(0)), read);
    std::string why;
    const auto schedule = refine_to_granularity(value(3) ? forwarding_schedule(named) : direct_schedule(named),
                                                static_cast<unsigned>(value(1)), why);
    if (!schedule || !check_hrel_schedule(named, *schedule, duplex::half).holds()) return;  // e.g. k damaged to 7
    RC_ASSERT(value(2) < schedule->slots.size());
  });
}

}  // namespace
}  // namespace dancecard
