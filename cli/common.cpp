// Shared CLI helpers: input reading, range and timeout parsing.
#include "common.hpp"
#include "range_grammar.hpp"

#include <openssl/evp.h>
#include <unistd.h>
#include <zlib.h>
#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

namespace dancecard::cli {

std::uint64_t& max_input_mib() {
  static std::uint64_t limit = default_max_input_mib;
  return limit;
}

namespace {
std::vector<std::string>& input_sizes() {
  static std::vector<std::string> read;
  return read;
}
std::string megabytes(std::uint64_t bytes) {
  return bytes < 1'000'000 ? std::to_string(bytes) + " bytes" : std::to_string((bytes + 500'000) / 1'000'000) + " MB";
}
}  // namespace

std::string inputs_read() {
  std::string list;
  for (const std::string& entry : input_sizes()) list += (list.empty() ? "" : ", ") + entry;
  return list;
}

std::string read_input(const std::string& path) {
  // Read in pieces: every format read whole is text, so a NUL byte ends the read at once with an error, instead of
  // an endless binary input (/dev/zero) growing until memory runs out; and an endless text (`yes`) ends at the limit.
  std::ifstream file;
  if (path != "-") file = open_input(path);
  std::istream& in = path == "-" ? std::cin : file;
  std::string content;
  const std::uint64_t limit = max_input_mib() << 20;  // --max-input-mib is at most 2^40: no overflow
  input_sizes().push_back(input_name(path));          // named while it is read, sized once read
  try {
    char buffer[1 << 16];
    while (in) {
      in.read(buffer, sizeof buffer);
      const std::size_t got = static_cast<std::size_t>(in.gcount());
      if (const void* nul = std::memchr(buffer, 0, got); nul != nullptr)
        throw bad_input(
            input_name(path) + ": byte " +
            std::to_string(content.size() + static_cast<std::size_t>(static_cast<const char*>(nul) - buffer) + 1) +
            " is a NUL byte: not a text file");
      if (content.size() + got > limit)
        throw resource_limit(input_name(path) + ": larger than " + std::to_string(max_input_mib()) +
                             " MiB, the limit for a file read whole (--max-input-mib N raises it)");
      content.append(buffer, got);
    }
    if (in.bad()) throw bad_input(input_name(path) + ": read error");
    input_sizes().back() += " (" + megabytes(content.size()) + ")";
    return content;
  } catch (const std::ios_base::failure& e) {  // libstdc++ throws from the buffer on a failed read(2)
    throw bad_input(input_name(path) + ": read error (" + e.code().message() + ")");
  }
}

std::ifstream open_input(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw bad_input(path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad_input(path + ": cannot open file for reading");
  return in;
}

std::string input_name(const std::string& path) { return path == "-" ? std::string("stdin") : path; }

void write_output(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::ofstream file;
  if (!path.empty()) {
    file.open(path);
    if (!file) throw bad_input(path + ": cannot open file for writing");
  }
  std::ostream& out = path.empty() ? std::cout : file;
  write(out);
  out.flush();
  if (!out) throw bad_input("write error on " + (path.empty() ? std::string("stdout") : path));
}

namespace {
std::uint64_t parse_integer(const std::string& text, const std::string& option) {
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    throw bad_input(option + ": '" + text + "' is not a non-negative integer");
  return value;
}
}  // namespace

static std::string hex_of(const unsigned char* digest, unsigned int length) {
  std::string hex;
  char byte[3];
  for (unsigned int k = 0; k < length; ++k) {
    std::snprintf(byte, sizeof byte, "%02x", digest[k]);
    hex += byte;
  }
  return hex;
}

namespace {

// SHA-256 fed piece by piece (OpenSSL's EVP interface).
class sha256_stream {
 public:
  sha256_stream() : context_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1)
      throw bad_input("cannot compute SHA-256 (OpenSSL)");
  }
  void update(std::string_view piece) {
    if (EVP_DigestUpdate(context_.get(), piece.data(), piece.size()) != 1)
      throw bad_input("cannot compute SHA-256 (OpenSSL)");
  }
  std::string hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context_.get(), digest, &length) != 1) throw bad_input("cannot compute SHA-256 (OpenSSL)");
    return hex_of(digest, length);
  }

 private:
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context_;
};

}  // namespace

// SHA-256 of a file's content, hex, for the manifest.
std::string sha256(std::string_view data) {
  sha256_stream digest;
  digest.update(data);
  return digest.hex();
}

// SHA-256 of a proof trace, piece by piece (it may be gigabytes); each piece is also given to `also` when set.
std::string sha256(const drat_trace& proof, const std::function<void(std::string_view)>& also) {
  sha256_stream digest;
  proof.for_each_piece([&](std::string_view piece) {
    if (also) also(piece);
    digest.update(piece);
  });
  return digest.hex();
}

std::string sha256_of_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad_input(path + ": cannot be read");
  sha256_stream digest;
  std::vector<char> buffer(std::size_t{1} << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    digest.update(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
  }
  if (in.bad()) throw bad_input(path + ": cannot be read");
  return digest.hex();
}

// Writes a proof trace as one file of an --emit set, piece by piece, and returns its entry.
nlohmann::json emit_file(const std::filesystem::path& dir, const std::string& name, const drat_trace& proof) {
  std::ofstream out(dir / name, std::ios::binary);
  const std::string digest = sha256(
      proof, [&](std::string_view piece) { out.write(piece.data(), static_cast<std::streamsize>(piece.size())); });
  if (!out) throw bad_input((dir / name).string() + ": cannot write");
  return {{"file", name}, {"bytes", proof.bytes()}, {"sha256", digest}};
}

// Writes one file of an --emit set and returns its manifest entry.
nlohmann::json emit_file(const std::filesystem::path& dir, const std::string& name, const std::string& content) {
  std::ofstream out(dir / name, std::ios::binary);
  out << content;
  if (!out) throw bad_input((dir / name).string() + ": cannot write");
  return {{"file", name}, {"bytes", content.size()}, {"sha256", sha256(content)}};
}

std::filesystem::path data_directory() {
  if (const char* set = std::getenv("DANCECARD_DATA_DIR"); set != nullptr && *set != '\0') return set;
  std::error_code ec;
  if (std::filesystem::is_directory(DANCECARD_SOURCE_DATA_DIR, ec)) return DANCECARD_SOURCE_DATA_DIR;
  return DANCECARD_INSTALL_DATA_DIR;
}

std::string read_gzip_file(const std::filesystem::path& file, std::size_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw bad_input(file.string() + ": cannot open (no such file)");
  std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(file.c_str(), "rb"), gzclose);
  if (!in) throw bad_input(file.string() + ": cannot open");
  std::string out;
  char buffer[1 << 16];
  for (;;) {
    const int got = gzread(in.get(), buffer, sizeof buffer);
    if (got < 0) {
      int code = 0;
      throw bad_input(file.string() + ": damaged gzip data (" + gzerror(in.get(), &code) + ")");
    }
    if (got == 0) break;
    if (out.size() + static_cast<std::size_t>(got) > max_bytes)
      throw bad_input(file.string() + ": decompresses to more than " + std::to_string(max_bytes) + " bytes");
    out.append(buffer, static_cast<std::size_t>(got));
  }
  return out;
}

void create_emit_directory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw bad_input("--emit: cannot create directory " + dir + (ec ? ": " + ec.message() : ""));
}

CLI::Validator writable_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        if (path.empty()) return "an empty file name";
        if (path == "-") return {};
        std::error_code ec;
        const std::filesystem::path file(path);
        if (std::filesystem::is_directory(file, ec)) return path + ": is a directory, not a file to write";
        const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
        if (!std::filesystem::is_directory(dir, ec))
          return path + ": its directory " + dir.string() + " does not exist";
        if (access(dir.c_str(), W_OK) != 0) return path + ": its directory " + dir.string() + " is not writable";
        if (std::filesystem::exists(file, ec) && access(file.c_str(), W_OK) != 0) return path + ": is not writable";
        return {};
      },
      "FILE");
}

CLI::Validator integer_at_least(std::uint64_t lo) {
  return CLI::Validator(
      [lo](std::string& text) -> std::string {
        std::uint64_t value = 0;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
          return "'" + text + "' is not " + (lo == 0 ? "a non-negative" : "an") + " integer" +
                 (lo == 0 ? "" : " >= " + std::to_string(lo));
        if (value < lo) return "expected an integer >= " + std::to_string(lo) + ", got " + text;
        return {};
      },
      lo == 0 ? "UINT" : "UINT>=" + std::to_string(lo));
}

std::vector<std::uint64_t> parse_values(const std::string& text, const std::string& option, std::uint64_t lo,
                                        std::uint64_t hi) {
  try {
    return ranges::parse_values(text, lo, hi);
  } catch (const std::invalid_argument& e) {
    throw bad_input(option + ": " + e.what());
  }
}

unsigned parse_timeout_ms(const std::string& text, const std::string& option) {
  // Exact decimal parsing: integer part and up to three fractional digits, no floating point.
  std::uint64_t ms = 0;
  const auto dot = text.find('.');
  const std::string whole = text.substr(0, dot);
  std::string fraction = dot == std::string::npos ? "" : text.substr(dot + 1);
  if (fraction.size() > 3) fraction = fraction.substr(0, 3);
  while (fraction.size() < 3) fraction += '0';
  try {
    ms = parse_integer(whole.empty() ? "0" : whole, option) * 1000 + parse_integer(fraction, option);
  } catch (const bad_input&) {
    throw bad_input(option + ": '" + text + "' is not a number of seconds");
  }
  if (ms == 0) throw bad_input(option + ": the timeout must be positive, got '" + text + "'");
  if (ms > 86'400'000) throw bad_input(option + ": " + text + " s is more than a day");
  return static_cast<unsigned>(ms);
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

bool& quiet() {
  static bool value = false;
  return value;
}

bool progress_enabled() { return !quiet() && stderr_is_terminal(); }

// How long a run goes before its progress line shows: a second, or DANCECARD_PROGRESS_AFTER_MS milliseconds (0: at
// once, and redrawn at every update — what the tests of the line itself use, on a pseudo-terminal).
std::chrono::milliseconds progress_delay() {
  static const std::chrono::milliseconds delay = [] {
    const char* set = std::getenv("DANCECARD_PROGRESS_AFTER_MS");
    if (set == nullptr || *set == '\0') return std::chrono::milliseconds(1000);
    char* end = nullptr;
    const unsigned long ms = std::strtoul(set, &end, 10);
    return *end == '\0' && ms <= 60'000 ? std::chrono::milliseconds(ms) : std::chrono::milliseconds(1000);
  }();
  return delay;
}

progress_line::progress_line(std::string what) : what_(std::move(what)) {
  if (!progress_enabled()) return;
  if (progress_delay().count() == 0) {
    std::lock_guard hold(lock_);
    draw();
  }
  ticker_ = std::thread([this] {
    std::unique_lock hold(lock_);
    if (wake_.wait_for(hold, progress_delay(), [this] { return stop_; })) return;
    draw();
    while (!wake_.wait_for(hold, std::chrono::seconds(1), [this] { return stop_; })) draw();
  });
}

progress_line::~progress_line() {
  if (!ticker_.joinable()) return;
  {
    std::lock_guard hold(lock_);
    stop_ = true;
  }
  wake_.notify_all();
  ticker_.join();
  if (drawn_) std::cerr << "\r\033[K" << std::flush;
}

void progress_line::update(std::string where) {
  std::lock_guard hold(lock_);
  where_ = std::move(where);
  hidden_ = false;
  if (ticker_.joinable() && progress_delay().count() == 0) draw();
}

void progress_line::clear() {
  std::lock_guard hold(lock_);
  if (drawn_) std::cerr << "\r\033[K" << std::flush;
  drawn_ = false;
  hidden_ = true;
}

void progress_line::draw() {  // lock_ held
  if (hidden_) return;
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_).count();
  std::cerr << "\r\033[K" << what_ << (where_.empty() ? "" : ": " + where_) << " (" << seconds << " s)" << std::flush;
  drawn_ = true;
}

CLI::Option* add_timeout_option(CLI::App* command, std::string& seconds, const std::string& what) {
  return command->add_option("--timeout", seconds, "wall-clock seconds for each " + what)
      ->type_name("SECONDS")
      ->check(CLI::Validator(
          [](std::string& text) {
            try {
              (void)parse_timeout_ms(text, "--timeout");
            } catch (const bad_input& e) {
              return std::string(e.what());
            }
            return std::string();
          },
          "", "seconds"));
}

namespace {
template <class Seed>
CLI::Option* seed_option(CLI::App* command, Seed& seed, const std::string& what) {
  return command->add_option("--seed", seed, "the first random seed of " + what + " (the same seed, the same run)")
      ->check(integer_at_least(0));
}
}  // namespace

CLI::Option* add_seed_option(CLI::App* command, std::uint64_t& seed, const std::string& what) {
  return seed_option(command, seed, what);
}

CLI::Option* add_seed_option(CLI::App* command, std::optional<std::uint64_t>& seed, const std::string& what) {
  return seed_option(command, seed, what);
}

CLI::Option* add_jobs_option(CLI::App* command, unsigned& jobs, const std::string& what, const std::string& more) {
  return command
      ->add_option("--jobs,-j", jobs,
                   "how many " + what + " run at once, each on a thread of its own" + (more.empty() ? "" : "; " + more))
      ->check(CLI::Range(1u, 256u));
}

}  // namespace dancecard::cli
