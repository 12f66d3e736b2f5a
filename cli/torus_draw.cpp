// `dancecard draw torus`: the cycles of a torus construction as SVG (the paper's Figures 1, 2 and 5).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <iostream>
#include <sstream>
#include <string>

#include "common.hpp"
#include "torus_support.hpp"

namespace dancecard::cli {

using namespace dancecard::torus;

namespace {

// Figures 1, 2 and 5: the cycles on the grid, one colour per cycle; PUs off some cycle drawn hollow. A 3-D torus is
// drawn as its layers x3 = 0, 1, … side by side (six to a row), links along x3 as short diagonal stubs at both ends
// (up-right at the PU it leaves towards the next layer, down-left at the PU it enters). Beyond 3-D (up to 6-D) one
// panel per (x3, …, xd): x3 and x5 across (x3 fastest), x4 and x6 down, each panel labelled with its coordinates; links
// along x_j for j >= 3 are stubs too, one direction per axis (x3 up-right, x4 up-left, x5 shallow up-right, x6 shallow
// up-left, named in the caption), pointing along the axis at the PU a link leaves towards +, the opposite way at the
// PU it enters.
constexpr std::uint32_t max_drawn_dimension = 6;

void draw_svg(std::ostream& out, const cycle_system& system) {
  const torus::network& t = system.network;
  const std::uint32_t d = t.dimension();
  if (d < 2 || d > max_drawn_dimension)
    throw std::invalid_argument("draw_svg: dimension outside 2.." + std::to_string(max_drawn_dimension));
  const std::uint32_t rows = t.dims()[0], cols = t.dims()[1];
  std::uint32_t layers = 1;  // panels: one per (x3, …, xd)
  for (std::uint32_t j = 2; j < d; ++j) layers *= t.dims()[j];
  constexpr int cell = 40, margin = 30, stub = 12;
  // per axis j >= 2 (x_{j+1}): the stub's direction towards + (SVG y grows downwards)
  constexpr std::array<std::array<int, 2>, max_drawn_dimension - 2> stub_direction{
      {{stub, -stub}, {-stub, -stub}, {stub + 2, -stub / 2}, {-stub - 2, -stub / 2}}};
  constexpr std::array<const char*, max_drawn_dimension - 2> stub_name{"up-right", "up-left", "shallow up-right",
                                                                       "shallow up-left"};
  const char* colours[] = {"#1f4e9c", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#2c3e50"};
  const bool labelled = layers > 1 || d > 2;
  // the panel of a PU: 3-D six layers to a row; beyond, column x3 + n3·x5 and row x4 + n4·x6 (near square)
  const std::uint32_t per_row = d == 3  ? std::min<std::uint32_t>(layers, 6)
                                : d > 3 ? t.dims()[2] * (d > 4 ? t.dims()[4] : 1)
                                        : 1;
  const std::uint32_t panel_rows = d == 3  ? (layers + per_row - 1) / per_row
                                   : d > 3 ? t.dims()[3] * (d > 5 ? t.dims()[5] : 1)
                                           : 1;
  auto panel_of = [&](const std::vector<std::uint32_t>& a) -> std::pair<int, int> {
    if (d == 2) return {0, 0};
    if (d == 3) return {static_cast<int>(a[2] % per_row), static_cast<int>(a[2] / per_row)};
    return {static_cast<int>(a[2] + (d > 4 ? t.dims()[2] * a[4] : 0)),
            static_cast<int>(a[3] + (d > 5 ? t.dims()[3] * a[5] : 0))};
  };
  const int label_h = labelled ? 16 : 0;
  const int panel_w =
      std::max(cell * static_cast<int>(cols - 1) + 2 * margin, d > 3 ? 70 + 34 * static_cast<int>(d - 2) : 0);
  const int panel_h = cell * static_cast<int>(rows - 1) + 2 * margin + label_h;
  const int width = std::max(panel_w * static_cast<int>(per_row), labelled ? 720 : 520),
            height = panel_h * static_cast<int>(panel_rows);
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height + (d > 3 ? 34 : 20)
      << "\">\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  auto x_of = [&](const std::vector<std::uint32_t>& a) {
    return margin + panel_w * panel_of(a).first + cell * static_cast<int>(a[1]);
  };
  auto y_of = [&](const std::vector<std::uint32_t>& a) {
    return margin + label_h + panel_h * panel_of(a).second + cell * static_cast<int>(a[0]);
  };
  auto line = [&](int x1, int y1, int x2, int y2, std::size_t c, bool dashed) {
    out << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2 << "\" y2=\"" << y2 << "\" stroke=\""
        << colours[c % 8] << "\" stroke-width=\"2\"" << (dashed ? " stroke-dasharray=\"3,2\"" : "") << "/>\n";
  };
  for (std::uint32_t k = 0; k < layers && labelled; ++k) {
    std::vector<std::uint32_t> a(d, 0);  // the panel's (x3, …, xd), x3 fastest
    for (std::uint32_t j = 2, rest = k; j < d; rest /= t.dims()[j], ++j) a[j] = rest % t.dims()[j];
    const auto [column, row] = panel_of(a);
    out << "<text x=\"" << margin + panel_w * column << "\" y=\"" << 16 + panel_h * row
        << "\" font-family=\"sans-serif\" font-size=\"11\">";
    if (d == 3) {
      out << "x3 = " << k;
    } else {  // (x3, …, xd) = (…)
      std::string names, values;
      for (std::uint32_t j = 2; j < d; ++j) {
        names += (j > 2 ? ", x" : "x") + std::to_string(j + 1);
        values += (j > 2 ? ", " : "") + std::to_string(a[j]);
      }
      out << "(" << names << ") = (" << values << ")";
    }
    out << "</text>\n";
  }
  std::vector<std::uint32_t> on(t.size(), 0);
  for (std::size_t c = 0; c < system.cycles.size(); ++c) {
    const torus_cycle& cy = system.cycles[c];
    const int offset = static_cast<int>(c) * 4 - 2;  // parallel strokes when two cycles share a PU
    for (std::size_t i = 0; i < cy.length(); ++i) {
      ++on[cy.pus[i]];
      const auto a = t.coordinates(cy.pus[i]);
      const auto b = t.coordinates(t.neighbor(cy.pus[i], cy.ports[i]));
      const std::uint32_t port = cy.ports[i], axis = port / 2;
      const bool plus = port % 2 == 0;
      const int x1 = x_of(a) + offset, y1 = y_of(a) + offset, x2 = x_of(b) + offset, y2 = y_of(b) + offset;
      if (axis >= 2) {  // along x3, …: a stub at each end
        const int sx = plus ? stub_direction[axis - 2][0] : -stub_direction[axis - 2][0];
        const int sy = plus ? stub_direction[axis - 2][1] : -stub_direction[axis - 2][1];
        line(x1, y1, x1 + sx, y1 + sy, c, false);
        line(x2, y2, x2 - sx, y2 - sy, c, false);
        continue;
      }
      // wrap-around links are drawn as dashed stubs leaving the grid on both sides
      const bool wraps = plus ? a[axis] + 1 == t.dims()[axis] : a[axis] == 0;
      const int dx = axis == 1 ? (plus ? cell : -cell) : 0, dy = axis == 0 ? (plus ? cell : -cell) : 0;
      if (!wraps) {
        line(x1, y1, x1 + dx, y1 + dy, c, false);
      } else {
        line(x1, y1, x1 + dx / 2, y1 + dy / 2, c, true);
        line(x2, y2, x2 - dx / 2, y2 - dy / 2, c, true);
      }
    }
  }
  for (pu_index pu = 0; pu < t.size(); ++pu) {
    const auto a = t.coordinates(pu);
    const bool everywhere = on[pu] == system.cycles.size();
    out << "<circle cx=\"" << x_of(a) << "\" cy=\"" << y_of(a) << "\" r=\"5\" fill=\""
        << (everywhere ? "black" : "white") << "\" stroke=\"black\" stroke-width=\"1.5\"/>\n";
  }
  std::string layout, legend;
  if (d == 3) {
    layout = "; layers x3 side by side, links along x3 as diagonal stubs";
  } else if (d > 3) {
    layout = "; one panel per (x3";
    for (std::uint32_t j = 3; j < d; ++j) layout += ", x" + std::to_string(j + 1);
    layout +=
        d > 4 ? "), x3 and x5 across, x4" + std::string(d > 5 ? " and x6" : "") + " down" : "), x3 across, x4 down";
    legend = "links along";
    for (std::uint32_t j = 2; j < d; ++j)
      legend += std::string(j > 2 ? "," : "") + " x" + std::to_string(j + 1) + " " + stub_name[j - 2];
    legend += ": stubs at the PU a link leaves towards +, the opposite way at the PU it enters";
  }
  auto caption = [&](int y, const std::string& text) {
    out << "<text x=\"" << margin << "\" y=\"" << y << "\" font-family=\"sans-serif\" font-size=\"10\">" << text
        << "</text>\n";
  };
  caption(height + 10, system.construction + " cycles on the " + t.name() + " torus (rows = coordinate 1" + layout +
                           "); hollow: off some cycle");
  if (!legend.empty()) caption(height + 24, legend);
  out << "</svg>\n";
}

}  // namespace

void add_draw_torus_command(CLI::App& app, int& code) {
  struct options {
    std::string dims, algo = "hamiltonian", output;
  };
  auto d = std::make_shared<options>();
  CLI::App* draw = app.add_subcommand("draw", "Draw a construction as SVG");
  draw->require_subcommand(1);
  CLI::App* draw_torus = draw->add_subcommand(
      "torus", "The cycles of a torus construction, 2-D to 6-D (Figures 1, 2 and 5; 3-D and beyond panel by panel)");
  draw_torus
      ->add_option("--dims", d->dims,
                   "sizes of a torus of dimension 2 to 6, at most 4096 PUs, e.g. 6x8, 3x3x4 or 4x2x4x5")
      ->required();
  draw_torus->add_option("--algo", d->algo,
                         "hamiltonian, hamiltonian-switch, hamiltonian-search, partial or one-packet");
  draw_torus->add_option("--out", d->output, "the SVG file to write (- for stdout)")
      ->required()
      ->check(writable_file());
  draw_torus->callback([d, &code] {
    const torus::network shape = parse_dims(d->dims);  // refused before anything is built
    if (shape.dimension() < 2 || shape.dimension() > max_drawn_dimension)
      throw bad_input("--dims " + d->dims + ": draw torus draws tori of dimension 2 to " +
                      std::to_string(max_drawn_dimension) + ", not " + std::to_string(shape.dimension()));
    if (shape.size() > 4096) throw bad_input("--dims " + d->dims + ": draw torus draws at most 4096 PUs");
    const cycle_system system = build_cycles(d->dims, d->algo);
    const cycle_system_report check = check_cycle_system(system);
    write_output(d->output, [&](std::ostream& out) { draw_svg(out, system); });
    if (d->output != "-")
      std::cout << "wrote " << d->output << ": " << system.cycles.size() << " cycles; " << describe(check);
    code = check.holds() ? exit_holds : exit_violated;
  });
}

}  // namespace dancecard::cli
