// MSCCL-IR XML through pugixml: the document is parsed whole, then walked element by element with the path and line
// of each, so that every error names where it is (see the header).
#include "dancecard/formats/msccl_io.hpp"

#include <pugixml.hpp>

#include <charconv>
#include <ostream>
#include <set>
#include <string>

namespace dancecard::collective {

namespace {

constexpr std::int64_t max_gpus = 65'536;
constexpr std::int64_t max_buffer_chunks = std::int64_t{1} << 24;
constexpr std::int64_t max_step_count = std::int64_t{1} << 20;

struct reader {
  std::string_view text;

  std::size_t line_of(const pugi::xml_node& node) const {
    const auto offset = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, node.offset_debug()));
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) line += text[i] == '\n';
    return line;
  }
  [[noreturn]] void fail(const std::string& path, const pugi::xml_node& node, const std::string& problem) const {
    throw format_error(path + " (line " + std::to_string(line_of(node)) + ")", problem);
  }

  // Only the listed attributes, each once (`open`: others are allowed and ignored, as the runtime does on algo).
  void only(const std::string& path, const pugi::xml_node& node, std::initializer_list<std::string_view> allowed,
            bool open = false) const {
    std::set<std::string_view> seen;
    for (const pugi::xml_attribute& a : node.attributes()) {
      const std::string_view name = a.name();
      if (!seen.insert(name).second) fail(path, node, "attribute '" + std::string(name) + "' is given twice");
      bool known = false;
      for (std::string_view k : allowed) known = known || k == name;
      if (!known && !open) {
        std::string list;
        for (std::string_view k : allowed) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(path, node, "unknown attribute '" + std::string(name) + "'; " + node.name() + " has " + list);
      }
    }
    for (const pugi::xml_node& child : node.children())
      if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
        const std::string_view t = child.value();
        if (t.find_first_not_of(" \t\r\n") != std::string_view::npos)
          fail(path, node, "text inside " + std::string(node.name()) + ": MSCCL-IR has none");
      }
  }

  std::string string(const std::string& path, const pugi::xml_node& node, const char* name) const {
    const pugi::xml_attribute a = node.attribute(name);
    if (!a) fail(path, node, "attribute '" + std::string(name) + "' is missing");
    return a.value();
  }

  std::int64_t integer(const std::string& path, const pugi::xml_node& node, const char* name, std::int64_t lo,
                       std::int64_t hi) const {
    const std::string v = string(path, node, name);
    std::int64_t out = 0;
    const char* end = v.data() + v.size();
    const auto [ptr, ec] = std::from_chars(v.data(), end, out);
    if (v.empty() || ec != std::errc() || ptr != end)
      fail(path, node, "attribute '" + std::string(name) + "' is '" + v.substr(0, 40) + "'; expected an integer");
    if (out < lo || out > hi)
      fail(path, node,
           "attribute '" + std::string(name) + "' is " + v + "; expected " + std::to_string(lo) + " to " +
               std::to_string(hi));
    return out;
  }

  msccl_buffer buffer(const std::string& path, const pugi::xml_node& node, const char* name) const {
    const std::string v = string(path, node, name);
    if (v == "i") return msccl_buffer::input;
    if (v == "o") return msccl_buffer::output;
    if (v == "s") return msccl_buffer::scratch;
    fail(path, node, "attribute '" + std::string(name) + "' is '" + v.substr(0, 40) + "'; expected i, o or s");
  }

  // Every element child must be `name`.
  void children_named(const std::string& path, const pugi::xml_node& node, std::string_view name) const {
    for (const pugi::xml_node& child : node.children())
      if (child.type() == pugi::node_element && name != child.name()) {
        std::string problem = "unexpected element '" + std::string(child.name()) + "'; " + node.name() +
                              " holds only " + std::string(name) + " elements";
        if (name == "step" && std::string_view(child.name()) == "op")
          problem += " ('op' is the newer MSCCLang form, which the MSCCL runtime does not read)";
        fail(path, child, problem);
      }
  }
};

}  // namespace

msccl_program read_msccl_xml(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) throw format_error("MSCCL-IR", "a NUL byte: not XML text");
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed =
      doc.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
  const reader rd{text};
  if (!parsed) {
    std::size_t line = 1;
    for (std::ptrdiff_t i = 0; i < parsed.offset && static_cast<std::size_t>(i) < text.size(); ++i)
      line += text[i] == '\n';
    throw format_error("line " + std::to_string(line), std::string("not well-formed XML: ") + parsed.description());
  }
  pugi::xml_node algo;
  for (const pugi::xml_node& child : doc.children()) {
    if (child.type() != pugi::node_element) continue;
    if (std::string_view(child.name()) != "algo" || algo)
      rd.fail(child.name(), child, "an MSCCL-IR document is one 'algo' element");
    algo = child;
  }
  if (!algo) throw format_error("MSCCL-IR", "no 'algo' element");
  const std::string ap = "algo";
  rd.only(ap, algo, {"name", "proto", "nchannels", "nchunksperloop", "ngpus", "coll", "inplace"}, true);
  msccl_program p;
  p.name = algo.attribute("name").value();
  p.proto = rd.string(ap, algo, "proto");
  if (p.proto != "Simple" && p.proto != "LL" && p.proto != "LL128")
    rd.fail(ap, algo, "attribute 'proto' is '" + p.proto.substr(0, 40) + "'; expected Simple, LL or LL128");
  p.nchannels = static_cast<std::int32_t>(rd.integer(ap, algo, "nchannels", 1, 64));
  p.nchunksperloop = rd.integer(ap, algo, "nchunksperloop", 1, max_buffer_chunks);
  p.ngpus = static_cast<std::int32_t>(rd.integer(ap, algo, "ngpus", 1, max_gpus));
  p.coll = rd.string(ap, algo, "coll");
  p.inplace = rd.integer(ap, algo, "inplace", 0, 1) == 1;
  rd.children_named(ap, algo, "gpu");
  for (const pugi::xml_node& g : algo.children("gpu")) {
    msccl_gpu gpu;
    std::string gp = ap + "/gpu[" + std::to_string(p.gpus.size()) + "]";
    rd.only(gp, g, {"id", "i_chunks", "o_chunks", "s_chunks"});
    gpu.id = static_cast<std::int32_t>(rd.integer(gp, g, "id", 0, max_gpus - 1));
    gp = ap + "/gpu[id=" + std::to_string(gpu.id) + "]";
    gpu.i_chunks = rd.integer(gp, g, "i_chunks", 0, max_buffer_chunks);
    gpu.o_chunks = rd.integer(gp, g, "o_chunks", 0, max_buffer_chunks);
    gpu.s_chunks = rd.integer(gp, g, "s_chunks", 0, max_buffer_chunks);
    rd.children_named(gp, g, "tb");
    for (const pugi::xml_node& t : g.children("tb")) {
      msccl_threadblock tb;
      std::string tp = gp + "/tb[" + std::to_string(gpu.threadblocks.size()) + "]";
      rd.only(tp, t, {"id", "send", "recv", "chan"});
      tb.id = static_cast<std::int32_t>(rd.integer(tp, t, "id", 0, 65'535));
      tp = gp + "/tb[id=" + std::to_string(tb.id) + "]";
      tb.send = static_cast<std::int32_t>(rd.integer(tp, t, "send", -1, max_gpus - 1));
      tb.recv = static_cast<std::int32_t>(rd.integer(tp, t, "recv", -1, max_gpus - 1));
      tb.chan = static_cast<std::int32_t>(rd.integer(tp, t, "chan", 0, 64));
      rd.children_named(tp, t, "step");
      for (const pugi::xml_node& s : t.children("step")) {
        msccl_step st;
        const std::string sp = tp + "/step[" + std::to_string(tb.steps.size()) + "]";
        rd.only(sp, s, {"s", "type", "srcbuf", "srcoff", "dstbuf", "dstoff", "cnt", "depid", "deps", "hasdep"});
        st.s = static_cast<std::uint32_t>(rd.integer(sp, s, "s", 0, max_step_count));
        const std::string type = rd.string(sp, s, "type");
        const auto op = parse_msccl_instruction(type);
        if (!op)
          rd.fail(
              sp, s,
              "attribute 'type' is '" + type.substr(0, 40) + "'; expected s, r, rcs, rrs, rrc, rrcs, cpy, re or nop");
        st.type = *op;
        st.srcbuf = rd.buffer(sp, s, "srcbuf");
        st.srcoff = rd.integer(sp, s, "srcoff", -1, max_buffer_chunks);
        st.dstbuf = rd.buffer(sp, s, "dstbuf");
        st.dstoff = rd.integer(sp, s, "dstoff", -1, max_buffer_chunks);
        st.cnt = static_cast<std::uint32_t>(rd.integer(sp, s, "cnt", 0, max_step_count));
        st.depid = static_cast<std::int32_t>(rd.integer(sp, s, "depid", -1, 65'535));
        st.deps = static_cast<std::int32_t>(rd.integer(sp, s, "deps", -1, max_step_count));
        st.hasdep = rd.integer(sp, s, "hasdep", 0, 1) == 1;
        tb.steps.push_back(st);
      }
      gpu.threadblocks.push_back(std::move(tb));
    }
    p.gpus.push_back(std::move(gpu));
  }
  return p;
}

void write_msccl_xml(std::ostream& out, const msccl_program& p) {
  pugi::xml_document doc;
  pugi::xml_node algo = doc.append_child("algo");
  algo.append_attribute("name") = p.name.c_str();
  algo.append_attribute("proto") = p.proto.c_str();
  algo.append_attribute("nchannels") = p.nchannels;
  algo.append_attribute("nchunksperloop") = static_cast<long long>(p.nchunksperloop);
  algo.append_attribute("ngpus") = p.ngpus;
  algo.append_attribute("coll") = p.coll.c_str();
  algo.append_attribute("inplace") = p.inplace ? 1 : 0;
  for (const msccl_gpu& g : p.gpus) {
    pugi::xml_node gpu = algo.append_child("gpu");
    gpu.append_attribute("id") = g.id;
    gpu.append_attribute("i_chunks") = static_cast<long long>(g.i_chunks);
    gpu.append_attribute("o_chunks") = static_cast<long long>(g.o_chunks);
    gpu.append_attribute("s_chunks") = static_cast<long long>(g.s_chunks);
    for (const msccl_threadblock& t : g.threadblocks) {
      pugi::xml_node tb = gpu.append_child("tb");
      tb.append_attribute("id") = t.id;
      tb.append_attribute("send") = t.send;
      tb.append_attribute("recv") = t.recv;
      tb.append_attribute("chan") = t.chan;
      for (const msccl_step& s : t.steps) {
        pugi::xml_node step = tb.append_child("step");
        step.append_attribute("s") = s.s;
        step.append_attribute("type") = std::string(to_string(s.type)).c_str();
        step.append_attribute("srcbuf") = std::string(1, to_char(s.srcbuf)).c_str();
        step.append_attribute("srcoff") = static_cast<long long>(s.srcoff);
        step.append_attribute("dstbuf") = std::string(1, to_char(s.dstbuf)).c_str();
        step.append_attribute("dstoff") = static_cast<long long>(s.dstoff);
        step.append_attribute("cnt") = s.cnt;
        step.append_attribute("depid") = s.depid;
        step.append_attribute("deps") = s.deps;
        step.append_attribute("hasdep") = s.hasdep ? 1 : 0;
      }
    }
  }
  doc.save(out, "  ", pugi::format_indent | pugi::format_no_declaration);
}

}  // namespace dancecard::collective
