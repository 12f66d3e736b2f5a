// The staged FIFO protocol's analysis as a function of K (Theorem 4's argument with the stage length K·h_{i−1} left
// free), and the SVG of Figure 2: simulated rounds/h with 95% intervals against that analysis.
//
// Lemma 7: with x messages arriving at uniform times in S = K·x rounds, a message waits at most x/(S − x) = 1/(K − 1)
// rounds on average, so a sender with x messages is stalled about x/(K − 1) of the K·x rounds, and a scheduled time
// falls in a stall — the message is deferred — with probability mu(K) = 1/(K(K − 1)). The stages then take
// K·h·(1 + mu + mu² + …) = K/(1 − mu(K)) · h rounds: 3.41h at K = 2.5 (mu = 0.267), the paper's Theorem 4.
// Defined for K(K − 1) > 1, i.e. K above the golden ratio; below it the analysis promises nothing.
#pragma once

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace dancecard::cli {

inline double fifo_staged_analysis(double K) {
  const double mu = 1 / (K * (K - 1));
  if (!(K > 1) || !(mu < 1)) return std::numeric_limits<double>::quiet_NaN();
  return K / (1 - mu);
}

struct fifo_sweep_point {
  double K, mean, ci95, analysis;
};

inline std::string fifo_sweep_svg(const std::vector<fifo_sweep_point>& points, const std::string& title) {
  const double width = 720, height = 440, left = 70, right = 30, top = 60, bottom = 60;
  double kmin = points.front().K, kmax = points.back().K, ymax = 0;
  for (const auto& p : points) {
    ymax = std::max(ymax, p.mean + p.ci95);
    if (std::isfinite(p.analysis) && p.analysis < 12) ymax = std::max(ymax, p.analysis);
  }
  ymax = std::ceil(ymax + 0.5);
  if (kmax <= kmin) kmax = kmin + 1;
  auto X = [&](double k) { return left + (k - kmin) / (kmax - kmin) * (width - left - right); };
  auto Y = [&](double y) { return height - bottom - y / ymax * (height - top - bottom); };
  std::ostringstream s;
  s << std::fixed << std::setprecision(1);
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << "<text x=\"" << width / 2
    << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">Staged FIFO: rounds / h against K"
    << "</text>\n<text x=\"" << width / 2 << "\" y=\"40\" text-anchor=\"middle\" font-size=\"11\">" << title
    << "</text>\n";
  s << "<line x1=\"" << left << "\" y1=\"" << Y(0) << "\" x2=\"" << width - right << "\" y2=\"" << Y(0)
    << "\" stroke=\"black\"/>\n";
  s << "<line x1=\"" << left << "\" y1=\"" << Y(0) << "\" x2=\"" << left << "\" y2=\"" << top
    << "\" stroke=\"black\"/>\n";
  for (int y = 0; y <= static_cast<int>(ymax); ++y)
    s << "<text x=\"" << left - 8 << "\" y=\"" << Y(y) + 4 << "\" text-anchor=\"end\">" << y << "</text>\n"
      << "<line x1=\"" << left << "\" y1=\"" << Y(y) << "\" x2=\"" << width - right << "\" y2=\"" << Y(y)
      << "\" stroke=\"#ddd\"/>\n";
  for (const auto& p : points)
    s << "<text x=\"" << X(p.K) << "\" y=\"" << Y(0) + 18 << "\" text-anchor=\"middle\" font-size=\"10\">"
      << std::setprecision(2) << p.K << std::setprecision(1) << "</text>\n";
  s << "<text x=\"" << width / 2 << "\" y=\"" << height - 18
    << "\" text-anchor=\"middle\">K (stage length K h_{i-1})</text>\n";
  s << "<text x=\"18\" y=\"" << height / 2 << "\" transform=\"rotate(-90 18 " << height / 2
    << ")\" text-anchor=\"middle\">rounds / h</text>\n";
  // Analysis: a polyline over the points where it is defined and on the chart.
  std::string path;
  for (const auto& p : points)
    if (std::isfinite(p.analysis) && p.analysis <= ymax) {
      std::ostringstream q;
      q << std::fixed << std::setprecision(1) << X(p.K) << "," << Y(p.analysis) << " ";
      path += q.str();
    }
  if (!path.empty()) s << "<polyline points=\"" << path << "\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2\"/>\n";
  for (const auto& p : points) {
    s << "<line x1=\"" << X(p.K) << "\" y1=\"" << Y(p.mean - p.ci95) << "\" x2=\"" << X(p.K) << "\" y2=\""
      << Y(p.mean + p.ci95) << "\" stroke=\"#1f4e9c\"/>\n";
    s << "<circle cx=\"" << X(p.K) << "\" cy=\"" << Y(p.mean) << "\" r=\"3.5\" fill=\"#1f4e9c\"/>\n";
  }
  s << "<circle cx=\"" << width - 250 << "\" cy=\"" << top + 10 << "\" r=\"3.5\" fill=\"#1f4e9c\"/><text x=\""
    << width - 240 << "\" y=\"" << top + 14 << "\">simulation, mean with 95% interval</text>\n";
  s << "<line x1=\"" << width - 256 << "\" y1=\"" << top + 30 << "\" x2=\"" << width - 244 << "\" y2=\"" << top + 30
    << "\" stroke=\"#c0392b\" stroke-width=\"2\"/><text x=\"" << width - 240 << "\" y=\"" << top + 34
    << "\">analysis K / (1 - 1/(K(K-1)))</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace dancecard::cli
