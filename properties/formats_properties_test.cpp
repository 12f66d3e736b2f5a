// Properties of the file readers and the certificate checker under RapidCheck (run by ctest): any damage to a valid file — bytes deleted,
// replaced or inserted, tokens spliced in, the text cut short — is either read (and then checked without an exception
// escaping the checker) or refused with a format_error, which the CLI turns into exit 2 with the place named. Nothing
// else may escape: session 32's fuzzing of the CLI found a JSON number beyond a double ("1e999": nlohmann's
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

#include "dancecard/checkers/cutting_planes_check.hpp"
#include "dancecard/checkers/dance_check.hpp"
#include "dancecard/checkers/directed_check.hpp"
#include "dancecard/checkers/hrel_schedule_check.hpp"
#include "dancecard/checkers/torus_check.hpp"
#include "dancecard/core/dance/directed.hpp"
#include "dancecard/core/dance/generators.hpp"
#include "dancecard/core/hrel/schedules.hpp"
#include "dancecard/core/torus/cycles.hpp"
#include "dancecard/formats/dance_io.hpp"
#include "dancecard/formats/hrel_io.hpp"
#include "dancecard/formats/torus_io.hpp"
#include "dancecard/properties/hrel_generators.hpp"
#include "dancecard/smt/dance_certificates.hpp"
#include "dancecard/smt/directed.hpp"
#include "damaged_text.hpp"

namespace dancecard {
namespace {

using properties_test::damaged;

// `read` then `check` on the damaged text: only a format_error may come out of reading; checking throws nothing
// (overflow_allowed_in_check: the hrel checker documents a std::overflow_error where sums leave 64-bit rationals).
template <class Value>
bool read_and_check_once(const std::string& text, const std::function<Value(std::string_view)>& read, const std::function<void(const Value&)>& check,
                    bool overflow_allowed_in_check = false) {
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
void read_and_check(const std::string& text, const std::function<Value(std::string_view)>& read_text, const std::function<void(const Value&)>& check,
                    bool overflow_allowed_in_check = false) {
  bool read = false;
  for (int copy = 0; copy < 8; ++copy) read = read_and_check_once(text, read_text, check, overflow_allowed_in_check) || read;
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
    read_and_check<dance_schedule>(written(write_dance_json, s), read_dance_json, [](const dance_schedule& v) { check_dance_schedule(v); });
  } else {
    std::ostringstream out;
    write_partner_matrix(out, to_partner_matrix(s));
    read_and_check<partner_matrix>(out.str(), read_partner_matrix, [](const partner_matrix& v) { check_partner_matrix(v); });
  }
}

RC_GTEST_PROP(formats_damaged, directed_schedules_are_read_or_refused, ()) {
  const directed_schedule s = openmpi_pairwise_schedule(*rc::gen::inRange<rank>(2, 10));
  read_and_check<directed_schedule>(written(write_directed_json, s), read_directed_json, [](const directed_schedule& v) { check_directed_schedule(v); });
}

RC_GTEST_PROP(formats_damaged, hrel_instances_and_schedules_are_read_or_refused, ()) {
  const hrel_instance instance = *rc::gen::resize(30, properties::hrel_instances(8, 6));
  std::ostringstream instance_text, schedule_text;
  write_hrel_instance(instance_text, instance);
  write_hrel_schedule(schedule_text, *rc::gen::arbitrary<bool>() ? forwarding_schedule(instance) : direct_schedule(instance));
  if (*rc::gen::arbitrary<bool>()) {
    read_and_check<hrel_instance>(instance_text.str(), read_hrel_instance, [&](const hrel_instance& v) {
      check_hrel_schedule(v, read_hrel_schedule(schedule_text.str()), duplex::half);
    }, true);
  } else {
    read_and_check<hrel_schedule>(schedule_text.str(), read_hrel_schedule, [&](const hrel_schedule& v) {
      check_hrel_schedule(instance, v, duplex::half);
      check_hrel_schedule(instance, v, duplex::full);
    }, true);
  }
}

RC_GTEST_PROP(formats_damaged, torus_routing_tables_are_read_or_refused, ()) {
  // a table with switches (the scheduled supply of Section 4's zigzag cycles) or a time-independent one (square switches)
  const bool zigzag = *rc::gen::arbitrary<bool>();
  const torus network = zigzag ? torus({*rc::gen::element<std::uint32_t>(4, 6), *rc::gen::element<std::uint32_t>(6, 8)})
                               : torus({*rc::gen::inRange<std::uint32_t>(3, 6), *rc::gen::inRange<std::uint32_t>(3, 6)});
  const routing_table table = zigzag ? cycle_routing(zigzag_cycles(network), supply_policy::scheduled) : cycle_table(square_switch_cycles(network));
  read_and_check<routing_table>(written(write_torus_routing, table), read_torus_routing, [](const routing_table& v) { simulate_gossip(v, 4096); });
}

// A damaged cutting-planes certificate never makes the checker throw, and it is never accepted for an instance that
// has a schedule: what it refutes — "dance n=N rounds=R" or "directed n=N rounds=R", read back from the report — must
// have R below the optimum (T(N) = N − 1 for even N, N for odd N; N − 1 for the directed rounds).
RC_GTEST_PROP(formats_damaged, cutting_planes_certificates_never_refute_a_feasible_instance, ()) {
  const rank n = *rc::gen::inRange<rank>(3, 9);
  const bool dance = *rc::gen::arbitrary<bool>();
  const std::string text = dance ? dance_lower_bound_certificate(n) : directed_lower_bound_certificate(n);
  bool accepted = false;
  for (int copy = 0; copy < 8; ++copy) {
    const std::string input = damaged(text);
    cutting_planes_report r;
    try {
      r = check_cutting_planes(input);
    } catch (const std::exception& e) {
      RC_FAIL(std::string("the checker threw: ") + e.what() + "\ninput:\n" + input);
    }
    if (r.outcome != verdict::holds) continue;
    accepted = true;
    unsigned long long people = 0, rounds = 0;
    char kind[16] = {};
    RC_ASSERT(std::sscanf(r.instance.c_str(), "%15s n=%llu rounds=%llu", kind, &people, &rounds) == 3);
    const std::string family = kind;
    const unsigned long long optimum = family == "dance" ? (people % 2 == 0 ? people - 1 : people) : people - 1;
    RC_ASSERT(family == "dance" || family == "directed");
    RC_ASSERT(rounds < optimum);
  }
  RC_TAG(accepted ? "a damaged copy still accepted (comments, spacing)" : "every damaged copy refused");
}

}  // namespace
}  // namespace dancecard
