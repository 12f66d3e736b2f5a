// The cutting-planes instance "collective": "a k-synchronous schedule of a non-combining collective on a network,
// all-port, in S steps and at most R rounds, exists" (the model of SCCL, Cai et al., PPoPP 2021, Section 3, and of
// checkers/collective_check) as a 0/1 program built from the instance line alone. Variables:
//   x(c, l, t)  chunk c crosses link l in step t                     (t < S; l in the network's sorted links)
//   h(c, r, t)  rank r holds chunk c when step t begins (t = S: at the end)
//   e(t, j)     step t has a (1 + j)-th round, j = 1 … R − S
// Axioms (Σ a·x ≥ b):
//   init:c:r      h(c, r, 0) ≥ 1 at the chunk's source, −h(c, r, 0) ≥ 0 elsewhere
//   want:c:r      h(c, r, S) ≥ 1 where r wants c
//   send:c:u:v:t  h(c, u, t) − x(c, u→v, t) ≥ 0                      (a rank sends only what it holds)
//   arrive:c:r:t  h(c, r, t) + Σ_u x(c, u→r, t) − h(c, r, t + 1) ≥ 0  (held after a step: held before, or arrived)
//   cap:u:v:t     Σ_j cap·e(t, j) − Σ_c x(c, u→v, t) ≥ −cap            (capacity × the step's rounds)
//   rounds        −Σ_t Σ_j e(t, j) ≥ −(R − S)                          (every step has a round, R in all)
//   lower:x:c:u:v:t, upper:x:c:u:v:t, lower:h:c:r:t, upper:h:c:r:t, lower:e:t:j, upper:e:t:j   the 0/1 bounds
// Every schedule the collective checker accepts with S steps (empty ones allowed) and at most R rounds gives a 0/1
// solution: x from its transfers (a chunk sent twice over a link in a step counts once), h from its simulation, e(t, j)
// = [r_t ≥ 1 + j]. So a refutation refutes every such schedule, however the solver encoded its own query.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "cutting_planes_program.hpp"
#include "dancecard/core/collective/schedule.hpp"
#include "dancecard/core/collective/topology.hpp"

namespace dancecard::certificates::detail_cp {

namespace {

class collective_instance : public program {
 public:
  collective_instance(collective::topology network, collective::collective coll, std::uint64_t steps,
                      std::uint64_t rounds)
      : net_(std::move(network)),
        coll_(coll),
        steps_(steps),
        extra_(rounds - steps),
        K_(coll.chunk_count()),
        L_(net_.links().size()) {}

  std::uint64_t variables() const override {
    return steps_ * L_ * K_ + (steps_ + 1) * coll_.ranks * K_ + steps_ * extra_;
  }

  linear axiom(std::string_view name) const override {
    const axiom_name a(name);
    const auto& p = a.parts;
    const std::string_view kind = p[0];
    linear out;
    if ((kind == "init" || kind == "want") && p.size() == 3) {
      const std::uint64_t c = a.number(1, K_, "chunk");
      const auto r = static_cast<rank>(a.number(2, coll_.ranks, "rank"));
      if (kind == "init") {
        const bool source = coll_.source(c) == r;
        out.terms.push_back({h(c, r, 0), source ? 1 : -1});
        out.rhs = source ? 1 : 0;
      } else {
        if (!coll_.wanted(c, r))
          throw malformed_input{"rank " + std::to_string(r) + " does not want chunk " + std::to_string(c) + ": '" +
                                std::string(name) + "'"};
        out.terms.push_back({h(c, r, steps_), 1});
        out.rhs = 1;
      }
    } else if (kind == "send" && p.size() == 5) {
      const std::uint64_t c = a.number(1, K_, "chunk");
      const std::size_t l = link(a, 2, name);
      const std::uint64_t t = a.number(4, steps_, "step");
      out.terms = {{h(c, net_.links()[l].from, t), 1}, {x(c, l, t), -1}};
    } else if (kind == "arrive" && p.size() == 4) {
      const std::uint64_t c = a.number(1, K_, "chunk");
      const auto r = static_cast<rank>(a.number(2, coll_.ranks, "rank"));
      const std::uint64_t t = a.number(3, steps_, "step");
      out.terms = {{h(c, r, t), 1}, {h(c, r, t + 1), -1}};
      for (std::size_t l = 0; l < L_; ++l)
        if (net_.links()[l].to == r) out.terms.push_back({x(c, l, t), 1});
    } else if (kind == "cap" && p.size() == 4) {
      const std::size_t l = link(a, 1, name);
      const std::uint64_t t = a.number(3, steps_, "step");
      const std::int64_t cap = net_.links()[l].capacity;
      for (std::uint64_t j = 1; j <= extra_; ++j) out.terms.push_back({e(t, j), cap});
      for (std::uint64_t c = 0; c < K_; ++c) out.terms.push_back({x(c, l, t), -1});
      out.rhs = -cap;
    } else if (kind == "rounds" && p.size() == 1) {
      for (std::uint64_t t = 0; t < steps_; ++t)
        for (std::uint64_t j = 1; j <= extra_; ++j) out.terms.push_back({e(t, j), -1});
      out.rhs = -static_cast<std::int64_t>(extra_);
    } else if ((kind == "lower" || kind == "upper") && p.size() >= 2) {
      const std::uint64_t v = bounded_variable(a, name);
      out.terms.push_back({v, kind == "lower" ? 1 : -1});
      out.rhs = kind == "lower" ? 0 : -1;
    } else {
      throw malformed_input{"unknown axiom '" + std::string(name) +
                            "' (init:c:r, want:c:r, send:c:u:v:t, arrive:c:r:t, cap:u:v:t, rounds, "
                            "lower|upper:x:c:u:v:t, lower|upper:h:c:r:t, lower|upper:e:t:j)"};
    }
    return out;
  }

 private:
  std::uint64_t x(std::uint64_t c, std::size_t l, std::uint64_t t) const { return (t * L_ + l) * K_ + c; }
  std::uint64_t h(std::uint64_t c, rank r, std::uint64_t t) const {
    return steps_ * L_ * K_ + (t * coll_.ranks + r) * K_ + c;
  }
  std::uint64_t e(std::uint64_t t, std::uint64_t j) const {
    return steps_ * L_ * K_ + (steps_ + 1) * coll_.ranks * K_ + t * extra_ + (j - 1);
  }
  // parts k and k + 1 name a link u → v of the network
  std::size_t link(const axiom_name& a, std::size_t k, std::string_view name) const {
    const auto u = static_cast<rank>(a.number(k, coll_.ranks, "rank"));
    const auto v = static_cast<rank>(a.number(k + 1, coll_.ranks, "rank"));
    const std::size_t l = net_.link_index(u, v);
    if (l == L_)
      throw malformed_input{std::to_string(u) + " -> " + std::to_string(v) + " is no link of " + net_.name() + ": '" +
                            std::string(name) + "'"};
    return l;
  }
  std::uint64_t bounded_variable(const axiom_name& a, std::string_view name) const {
    const auto& p = a.parts;
    if (p[1] == "x" && p.size() == 6) return x(a.number(2, K_, "chunk"), link(a, 3, name), a.number(5, steps_, "step"));
    if (p[1] == "h" && p.size() == 5)
      return h(a.number(2, K_, "chunk"), static_cast<rank>(a.number(3, coll_.ranks, "rank")),
               a.number(4, steps_ + 1, "time"));
    if (p[1] == "e" && p.size() == 4) {
      const std::uint64_t t = a.number(2, steps_, "step"), j = a.number(3, extra_ + 1, "round");
      if (j == 0) throw malformed_input{"extra rounds are numbered from 1: '" + std::string(name) + "'"};
      return e(t, j);
    }
    throw malformed_input{"expected lower|upper:x:c:u:v:t, lower|upper:h:c:r:t or lower|upper:e:t:j, got '" +
                          std::string(name) + "'"};
  }

  collective::topology net_;
  collective::collective coll_;
  std::uint64_t steps_, extra_, K_;
  std::size_t L_;
};

}  // namespace

std::unique_ptr<program> collective_program(const std::vector<std::string_view>& tokens, std::string& name) {
  const char* usage =
      "expected 'instance collective network=<spec> coll=<kind> chunks=<C> root=<r> steps=<S> rounds=<R>'";
  const std::vector<std::string_view> keys = {"network=", "coll=", "chunks=", "root=", "steps=", "rounds="};
  if (tokens.size() != 2 + keys.size()) throw malformed_input{usage};
  std::vector<std::string_view> value;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (tokens[2 + k].substr(0, keys[k].size()) != keys[k]) throw malformed_input{usage};
    value.push_back(tokens[2 + k].substr(keys[k].size()));
  }
  std::optional<collective::topology> net;
  try {  // sized before it is built: a short line must not build a million-rank network
    const std::optional<std::uint64_t> links = collective::builtin_topology_links(value[0]);
    if (links && *links > 1'000'000)
      throw malformed_input{"instance collective: network " + std::string(value[0]) +
                            " has more than 1000000 links (instance too large)"};
    net = collective::builtin_topology(value[0]);
  } catch (const std::invalid_argument& e) {
    throw malformed_input{"instance collective: " + std::string(e.what())};
  }
  if (!net) throw malformed_input{"instance collective: '" + std::string(value[0]) + "' is no built-in network"};
  const auto kind = collective::parse_collective_kind(value[1]);
  if (!kind || collective::combining(*kind) || *kind == collective::collective_kind::alltoallv)
    throw malformed_input{"instance collective: coll must be allgather, alltoall, broadcast, gather or scatter, not '" +
                          std::string(value[1]) + "'"};
  const std::uint64_t chunks = parse_unsigned(value[2], "chunks"), root = parse_unsigned(value[3], "root");
  const std::uint64_t steps = parse_unsigned(value[4], "steps"), rounds = parse_unsigned(value[5], "rounds");
  if (chunks < 1 || chunks > 1024 || root >= net->size() || steps > 4096 || rounds < steps || rounds > steps + 4096)
    throw malformed_input{
        "instance collective: chunks 1..1024, root below the ranks, steps <= 4096 and steps <= "
        "rounds <= steps + 4096"};
  const collective::collective coll{*kind, net->size(), static_cast<std::uint32_t>(chunks), static_cast<rank>(root)};
  try {
    collective::require_valid(coll);
  } catch (const std::invalid_argument& e) {
    throw malformed_input{"instance collective: " + std::string(e.what())};
  }
  name = "collective network=" + net->name() + " coll=" + std::string(collective::to_string(*kind)) +
         " chunks=" + std::to_string(chunks) + " root=" + std::to_string(root) + " steps=" + std::to_string(steps) +
         " rounds=" + std::to_string(rounds);
  const std::uint64_t K = coll.chunk_count(), limit = 100'000'000;
  const std::uint64_t per_step = net->links().size() + net->size();
  if (K > limit || K * (steps + 1) > limit || K * (steps + 1) * per_step > limit || steps * (rounds - steps) > limit)
    throw malformed_input{"instance too large: above 100000000 variables"};
  return std::make_unique<collective_instance>(std::move(*net), coll, steps, rounds);
}

}  // namespace dancecard::certificates::detail_cp
