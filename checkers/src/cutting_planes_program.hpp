// The cutting-planes checker's internals shared by its instance families: a linear constraint, the 0/1 program a
// certificate refutes (built by the checker from the instance line alone), and the two ways a certificate fails.
#pragma once

#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dancecard::certificates::detail_cp {

// Σ coefficient · x_variable ≥ rhs; each variable at most once, no zero coefficients, in no particular order.
struct linear {
  std::vector<std::pair<std::uint64_t, std::int64_t>> terms;
  std::int64_t rhs = 0;
};

struct malformed_input {
  std::string what;
};
struct rejected {
  std::string what;
};

inline std::uint64_t parse_unsigned(std::string_view token, const char* what) {
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || ptr != token.data() + token.size())
    throw malformed_input{std::string("expected ") + what + ", got '" + std::string(token) + "'"};
  return value;
}

// The 0/1 program a certificate refutes, built here from the instance line alone.
class program {
 public:
  virtual ~program() = default;
  virtual std::uint64_t variables() const = 0;
  virtual linear axiom(std::string_view name) const = 0;

 protected:
  // "kind:1:2:3" split at the colons; number(k) reads part k as an integer below `limit`.
  struct axiom_name {
    std::string_view text;
    std::vector<std::string_view> parts;
    explicit axiom_name(std::string_view name) : text(name) {
      for (std::size_t start = 0;;) {
        const std::size_t colon = name.find(':', start);
        parts.push_back(name.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
        if (colon == std::string_view::npos) break;
        start = colon + 1;
      }
    }
    std::uint64_t number(std::size_t k, std::uint64_t limit, const char* what) const {
      const std::uint64_t v = parse_unsigned(parts[k], what);
      if (v >= limit)
        throw malformed_input{std::string(what) + " " + std::to_string(v) + " out of range in '" + std::string(text) +
                              "'"};
      return v;
    }
  };
};

/// `instance collective network=<spec> coll=<kind> chunks=<C> root=<r> steps=<S> rounds=<R>`
/// (cutting_planes_collective.cpp); `name` gets the instance's canonical text.
std::unique_ptr<program> collective_program(const std::vector<std::string_view>& tokens, std::string& name);

}  // namespace dancecard::certificates::detail_cp
