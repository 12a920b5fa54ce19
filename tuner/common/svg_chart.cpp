#include "common/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <utility>

#include "common/whole_file.h"

namespace tuner {

namespace {

const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
constexpr double kLeft = 72, kRight = 24, kTop = 44, kBottom = 56;  // margins around the plot, px

struct Range {
  double lo = 0.0, hi = 1.0;
};

// Plot-area geometry: data coordinates to pixels.
struct Frame {
  Range x, y;
  double left, top, width, height;
  double Px(double v) const { return left + (v - x.lo) / (x.hi - x.lo) * width; }
  double Py(double v) const { return top + height - (v - y.lo) / (y.hi - y.lo) * height; }
};

// Where a point is drawn along x: at x, or spread to its side (a strip chart's).
double DrawnX(const ChartPoint& p) { return p.x + p.x_spread; }

std::string Num(double v) {  // pixel coordinates
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", v);
  return buffer;
}

std::string Label(double v) {  // tick labels: integers without decimals, others to 4 digits
  char buffer[32];
  if (std::fabs(v - std::round(v)) < 1e-9 * std::max(1.0, std::fabs(v)))
    std::snprintf(buffer, sizeof buffer, "%.0f", v);
  else
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

std::string Text(double x, double y, const std::string& text, const std::string& attributes) {
  return "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" " + attributes + ">" + XmlEscape(text) + "</text>\n";
}

std::string AxisTitle(const ChartAxis& axis) {
  return axis.unit.empty() ? axis.label : axis.label + " (" + axis.unit + ")";
}

Range DataRange(const Chart& chart, bool x, const ChartAxis& axis) {
  double lo = INFINITY, hi = -INFINITY;
  auto take = [&](const ChartPoint& p) {
    const double v = x ? DrawnX(p) : p.y;
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (const ChartSeries& s : chart.series)
    for (const ChartPoint& p : s.points) take(p);
  for (const ChartMarker& m : chart.markers) take(m.at);
  if (x && !chart.x_categories.empty()) {
    lo = -0.5;
    hi = static_cast<double>(chart.x_categories.size()) - 0.5;
  }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  if (!x && !axis.log_scale) lo = std::min(lo, 0.0);  // bars of occupancy, time, ... read best from zero
  if (axis.min) lo = *axis.min;
  if (axis.max) hi = *axis.max;
  if (hi <= lo) hi = lo + 1;
  if (axis.log_scale) return {std::floor(lo), std::ceil(hi) > std::floor(lo) ? std::ceil(hi) : std::floor(lo) + 1};
  const std::vector<double> ticks = NiceTicks(lo, hi, 6);
  if (x && !chart.x_categories.empty()) return {lo, hi};
  if (!axis.min) lo = ticks.front();
  if (!axis.max) hi = ticks.back();
  return {lo, hi};
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  lines.push_back(text.substr(start));
  return lines;
}

// Category labels under the x axis, one tick per category; every k-th only where they would overlap.
std::string CategoryTicks(const Chart& chart, const Frame& f) {
  std::size_t longest = 1;
  for (const std::string& c : chart.x_categories)
    for (const std::string& line : Lines(c)) longest = std::max(longest, line.size());
  const double per_category = f.width / static_cast<double>(chart.x_categories.size());
  const std::size_t every = static_cast<std::size_t>(std::ceil((longest * 6.8 + 6) / per_category));
  std::string out;
  for (std::size_t i = 0; i < chart.x_categories.size(); i += std::max<std::size_t>(1, every)) {
    const double px = f.Px(static_cast<double>(i));
    out += "<line x1=\"" + Num(px) + "\" y1=\"" + Num(f.top + f.height) + "\" x2=\"" + Num(px) + "\" y2=\"" +
           Num(f.top + f.height + 4) + "\" stroke=\"#444\"/>\n";
    const std::vector<std::string> lines = Lines(chart.x_categories[i]);
    for (std::size_t l = 0; l < lines.size(); ++l)
      out += Text(px, f.top + f.height + 16 + 13 * static_cast<double>(l), lines[l], "text-anchor=\"middle\"");
  }
  return out;
}

// A log axis is drawn in powers of ten: its ticks are whole exponents, labelled with the value.
std::vector<double> AxisTicks(const ChartAxis& axis, const Range& range, int max_ticks) {
  if (!axis.log_scale) return NiceTicks(range.lo, range.hi, max_ticks);
  std::vector<double> ticks;
  const double step = std::ceil((range.hi - range.lo) / max_ticks);
  for (double t = range.lo; t <= range.hi + 1e-9; t += std::max(1.0, step)) ticks.push_back(t);
  return ticks;
}

std::string TickLabel(const ChartAxis& axis, double t) { return Label(axis.log_scale ? std::pow(10.0, t) : t); }

// The chart with its log axes' values as exponents (values <= 0 become NaN: not drawn).
Chart OnLogScales(const Chart& chart) {
  if (!chart.x_axis.log_scale && !chart.y_axis.log_scale) return chart;
  Chart out = chart;
  auto exponent = [](double v) { return v > 0 ? std::log10(v) : NAN; };
  auto transform = [&](ChartPoint& p) {
    if (out.x_axis.log_scale) p.x = exponent(p.x);
    if (out.y_axis.log_scale) p.y = exponent(p.y);
  };
  for (ChartSeries& series : out.series)
    for (ChartPoint& p : series.points) transform(p);
  for (ChartMarker& m : out.markers) transform(m.at);
  for (ChartAxis* axis : {&out.x_axis, &out.y_axis}) {
    if (!axis->log_scale) continue;
    if (axis->min) axis->min = exponent(*axis->min);
    if (axis->max) axis->max = exponent(*axis->max);
  }
  return out;
}

std::string Axes(const Chart& chart, const Frame& f) {
  std::string out = "<rect x=\"" + Num(f.left) + "\" y=\"" + Num(f.top) + "\" width=\"" + Num(f.width) +
                    "\" height=\"" + Num(f.height) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  if (!chart.x_categories.empty()) out += CategoryTicks(chart, f);
  for (double t : AxisTicks(chart.x_axis, f.x, 8)) {
    if (!chart.x_categories.empty()) break;
    if (t < f.x.lo - 1e-9 || t > f.x.hi + 1e-9) continue;
    const double px = f.Px(t);
    out += "<line x1=\"" + Num(px) + "\" y1=\"" + Num(f.top) + "\" x2=\"" + Num(px) + "\" y2=\"" +
           Num(f.top + f.height) + "\" stroke=\"#e4e4e4\"/>\n";
    out += Text(px, f.top + f.height + 16, TickLabel(chart.x_axis, t), "text-anchor=\"middle\"");
  }
  for (double t : AxisTicks(chart.y_axis, f.y, 6)) {
    if (t < f.y.lo - 1e-9 || t > f.y.hi + 1e-9) continue;
    const double py = f.Py(t);
    out += "<line x1=\"" + Num(f.left) + "\" y1=\"" + Num(py) + "\" x2=\"" + Num(f.left + f.width) + "\" y2=\"" +
           Num(py) + "\" stroke=\"#e4e4e4\"/>\n";
    out += Text(f.left - 6, py + 4, TickLabel(chart.y_axis, t), "text-anchor=\"end\"");
  }
  std::size_t label_lines = 1;
  for (const std::string& c : chart.x_categories) label_lines = std::max(label_lines, Lines(c).size());
  out += Text(f.left + f.width / 2, f.top + f.height + 27 + 13 * static_cast<double>(label_lines),
              AxisTitle(chart.x_axis), "text-anchor=\"middle\"");
  const double ymid = f.top + f.height / 2;
  out +=
      Text(18, ymid, AxisTitle(chart.y_axis), "text-anchor=\"middle\" transform=\"rotate(-90 18 " + Num(ymid) + ")\"");
  return out;
}

// The rule of every scatter series: a dot within a pixel of an earlier dot of its series would hide
// behind it (a space of 10^4 candidates has thousands of those, each costing the file its markup and
// hover text), so only the first (the caller's order: the fastest, for a ranking) is drawn, keeping
// its place and its text. It is judged where the point is, before a strip chart spreads it sideways:
// candidates of one value and one throughput are one dot, however far apart a spread would put them.
class DotSieve {
 public:
  bool IsFirstAt(const Frame& f, const ChartPoint& p) {
    return drawn_.emplace(std::lround(f.Px(p.x)), std::lround(f.Py(p.y))).second;
  }

 private:
  std::set<std::pair<long, long>> drawn_;
};

// "/>" or, with a hover text, "><title>text</title></TAG>".
std::string Close(const std::string& tag, const std::vector<std::string>* titles, std::size_t i) {
  if (!titles || i >= titles->size() || (*titles)[i].empty()) return "/>\n";
  return "><title>" + XmlEscape((*titles)[i]) + "</title></" + tag + ">\n";
}

// Several bar series stand side by side: this one is `index` of `count`.
struct BarSlot {
  std::size_t index = 0, count = 1;
};

// Width of a group of bars in pixels: 60% of a category (80% for several series; at most 64 px a
// bar), else 80% of the smallest gap between x values.
double BarWidth(const ChartSeries& s, const Frame& f, std::size_t categories, std::size_t series) {
  if (categories > 0)
    return std::min((series > 1 ? 0.8 : 0.6) * f.width / static_cast<double>(categories),
                    64.0 * static_cast<double>(series));
  std::vector<double> xs;
  for (const ChartPoint& p : s.points)
    if (std::isfinite(p.x)) xs.push_back(f.Px(p.x));
  std::sort(xs.begin(), xs.end());
  double gap = f.width / 10;
  for (std::size_t i = 1; i < xs.size(); ++i)
    if (xs[i] > xs[i - 1]) gap = std::min(gap, xs[i] - xs[i - 1]);
  return std::max(1.0, 0.8 * gap);
}

std::string Bars(const ChartSeries& s, const Frame& f, const std::string& color, std::size_t categories, BarSlot slot,
                 const std::vector<std::string>* titles) {
  const double group = BarWidth(s, f, categories, slot.count), width = group / static_cast<double>(slot.count);
  const double offset = (static_cast<double>(slot.index) + 0.5) * width - group / 2;
  const double base = f.Py(std::clamp(0.0, f.y.lo, f.y.hi));
  std::string out;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const ChartPoint& p = s.points[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
    const double top = std::min(base, f.Py(p.y)), height = std::fabs(base - f.Py(p.y));
    out += "<rect x=\"" + Num(f.Px(p.x) + offset - width / 2) + "\" y=\"" + Num(top) + "\" width=\"" + Num(width) +
           "\" height=\"" + Num(height) + "\" fill=\"" + color + "\"" + Close("rect", titles, i);
  }
  return out;
}

std::string SeriesPath(const ChartSeries& s, const Frame& f, const std::string& color, std::size_t categories,
                       BarSlot slot, const std::vector<std::string>* titles) {
  if (s.style == SeriesStyle::kBar) return Bars(s, f, color, categories, slot, titles);
  std::string out;
  if (s.style == SeriesStyle::kScatter) {
    DotSieve sieve;
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      const ChartPoint& p = s.points[i];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !sieve.IsFirstAt(f, p)) continue;
      out += "<circle cx=\"" + Num(f.Px(DrawnX(p))) + "\" cy=\"" + Num(f.Py(p.y)) + "\" r=\"3\" fill=\"" + color +
             "\"" + Close("circle", titles, i);
    }
    return out;
  }
  std::vector<ChartPoint> points;
  for (const ChartPoint& p : s.points)
    if (std::isfinite(p.x) && std::isfinite(p.y)) points.push_back(p);
  std::string coordinates;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (s.style == SeriesStyle::kStep && i > 0)
      coordinates += Num(f.Px(points[i].x)) + "," + Num(f.Py(points[i - 1].y)) + " ";
    coordinates += Num(f.Px(points[i].x)) + "," + Num(f.Py(points[i].y)) + " ";
  }
  return "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\" points=\"" + coordinates + "\"/>\n";
}

// The corner of the plot (top right, top left, bottom right, bottom left) that hides the fewest
// points; a marker and its label count as many points.
std::pair<double, double> LegendCorner(const Chart& chart, const Frame& f, double width, double height) {
  const double right = f.left + f.width - width - 6, bottom = f.top + f.height - height - 6;
  const std::pair<double, double> corners[] = {
      {right, f.top + 6}, {f.left + 6, f.top + 6}, {right, bottom}, {f.left + 6, bottom}};
  std::size_t best = 0, best_hidden = SIZE_MAX;
  for (std::size_t c = 0; c < std::size(corners); ++c) {
    const auto [x, y] = corners[c];
    auto inside = [&](double px, double py, double margin) {
      return px >= x - margin && px <= x + width + margin && py >= y - margin && py <= y + height + margin;
    };
    std::size_t hidden = 0;
    for (const ChartSeries& s : chart.series)
      for (const ChartPoint& p : s.points) hidden += inside(f.Px(DrawnX(p)), f.Py(p.y), 0);
    for (const ChartMarker& m : chart.markers) hidden += 20 * inside(f.Px(m.at.x), f.Py(m.at.y) - 10, 60);
    if (hidden < best_hidden) best = c, best_hidden = hidden;
  }
  return corners[best];
}

std::string Legend(const Chart& chart, const Frame& f, const std::vector<std::string>& colors) {
  std::size_t entries = 0, longest = 0;
  for (const ChartSeries& s : chart.series)
    if (!s.name.empty()) ++entries, longest = std::max(longest, s.name.size());
  if (entries == 0) return "";
  const double width = 30 + 6.8 * static_cast<double>(longest), height = 8 + 18 * static_cast<double>(entries);
  const auto [x, top] = LegendCorner(chart, f, width, height);
  std::string out = "<rect x=\"" + Num(x) + "\" y=\"" + Num(top) + "\" width=\"" + Num(width) + "\" height=\"" +
                    Num(height) + "\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#ccc\"/>\n";
  double y = top + 17;
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    if (chart.series[i].name.empty()) continue;
    out += "<rect x=\"" + Num(x + 6) + "\" y=\"" + Num(y - 9) + "\" width=\"12\" height=\"10\" fill=\"" + colors[i] +
           "\"/>\n";
    out += Text(x + 24, y, chart.series[i].name, "");
    y += 18;
  }
  return out;
}

std::string Markers(const Chart& chart, const Frame& f) {
  std::string out;
  for (const ChartMarker& m : chart.markers) {
    if (!std::isfinite(m.at.x) || !std::isfinite(m.at.y)) continue;
    const double px = f.Px(m.at.x), py = f.Py(m.at.y);
    out += "<circle cx=\"" + Num(px) + "\" cy=\"" + Num(py) +
           "\" r=\"6\" fill=\"none\" stroke=\"#d62728\" "
           "stroke-width=\"2.5\"/>\n";
    const bool right_half = px > f.left + f.width / 2;
    out += Text(px + (right_half ? -10 : 10), py - 10, m.label,
                std::string("fill=\"#d62728\" text-anchor=\"") + (right_half ? "end" : "start") + "\"");
  }
  return out;
}

}  // namespace

std::string XmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        const bool forbidden = static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r';
        out += forbidden ? '?' : c;
    }
  }
  return out;
}

std::vector<double> NiceTicks(double lo, double hi, int max_ticks) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0.0, 1.0};
  if (hi < lo) std::swap(lo, hi);
  if (hi == lo) hi = lo + 1;
  const double raw = (hi - lo) / std::max(1, max_ticks);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude * 10;
  for (double m : {1.0, 2.0, 5.0})
    if (raw <= m * magnitude) {
      step = m * magnitude;
      break;
    }
  std::vector<double> ticks;
  const double first = std::floor(lo / step + 1e-9) * step;
  for (double t = first; t < hi + step * (1 - 1e-9); t += step) ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  return ticks;
}

std::string RenderSvg(const Chart& original) {
  const Chart chart = OnLogScales(original);
  Frame f;
  f.x = DataRange(chart, true, chart.x_axis);
  f.y = DataRange(chart, false, chart.y_axis);
  f.left = kLeft;
  f.top = kTop;
  f.width = std::max(10.0, chart.width_px - kLeft - kRight);
  f.height = std::max(10.0, chart.height_px - kTop - kBottom);
  std::vector<std::string> colors;
  for (std::size_t i = 0; i < chart.series.size(); ++i)
    colors.push_back(chart.series[i].color.empty() ? kPalette[i % std::size(kPalette)]
                                                   : XmlEscape(chart.series[i].color));

  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(chart.width_px) +
                    "\" height=\"" + std::to_string(chart.height_px) + "\" viewBox=\"0 0 " +
                    std::to_string(chart.width_px) + " " + std::to_string(chart.height_px) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += Text(chart.width_px / 2.0, 24, chart.title, "text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\"");
  out += Axes(chart, f);
  BarSlot slot{0, 0};
  for (const ChartSeries& s : chart.series) slot.count += s.style == SeriesStyle::kBar;
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    out += SeriesPath(chart.series[i], f, colors[i], chart.x_categories.size(), slot,
                      i < chart.point_titles.size() ? &chart.point_titles[i] : nullptr);
    slot.index += chart.series[i].style == SeriesStyle::kBar;
  }
  out += Markers(chart, f);
  out += Legend(chart, f, colors);
  out += "</svg>\n";
  return out;
}

void WriteSvgFile(const Chart& chart, const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!folder.empty() && !std::filesystem::is_directory(folder, error))
    throw std::runtime_error("cannot write " + path + ": the folder " + folder.string() + " does not exist");
  WriteWholeFile(path, RenderSvg(chart));
}

}  // namespace tuner
