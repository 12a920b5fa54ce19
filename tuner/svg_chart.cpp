#include "svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

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
    const double v = x ? p.x : p.y;
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (const ChartSeries& s : chart.series)
    for (const ChartPoint& p : s.points) take(p);
  for (const ChartMarker& m : chart.markers) take(m.at);
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  if (!x) lo = std::min(lo, 0.0);  // bars of occupancy, time, ... read best from zero
  if (axis.min) lo = *axis.min;
  if (axis.max) hi = *axis.max;
  if (hi <= lo) hi = lo + 1;
  const std::vector<double> ticks = NiceTicks(lo, hi, 6);
  if (!axis.min) lo = ticks.front();
  if (!axis.max) hi = ticks.back();
  return {lo, hi};
}

std::string Axes(const Chart& chart, const Frame& f) {
  std::string out = "<rect x=\"" + Num(f.left) + "\" y=\"" + Num(f.top) + "\" width=\"" + Num(f.width) +
                    "\" height=\"" + Num(f.height) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  for (double t : NiceTicks(f.x.lo, f.x.hi, 8)) {
    if (t < f.x.lo - 1e-9 || t > f.x.hi + 1e-9) continue;
    const double px = f.Px(t);
    out += "<line x1=\"" + Num(px) + "\" y1=\"" + Num(f.top) + "\" x2=\"" + Num(px) + "\" y2=\"" +
           Num(f.top + f.height) + "\" stroke=\"#e4e4e4\"/>\n";
    out += Text(px, f.top + f.height + 16, Label(t), "text-anchor=\"middle\"");
  }
  for (double t : NiceTicks(f.y.lo, f.y.hi, 6)) {
    if (t < f.y.lo - 1e-9 || t > f.y.hi + 1e-9) continue;
    const double py = f.Py(t);
    out += "<line x1=\"" + Num(f.left) + "\" y1=\"" + Num(py) + "\" x2=\"" + Num(f.left + f.width) + "\" y2=\"" +
           Num(py) + "\" stroke=\"#e4e4e4\"/>\n";
    out += Text(f.left - 6, py + 4, Label(t), "text-anchor=\"end\"");
  }
  out += Text(f.left + f.width / 2, f.top + f.height + 40, AxisTitle(chart.x_axis), "text-anchor=\"middle\"");
  const double ymid = f.top + f.height / 2;
  out += Text(18, ymid, AxisTitle(chart.y_axis),
              "text-anchor=\"middle\" transform=\"rotate(-90 18 " + Num(ymid) + ")\"");
  return out;
}

std::string SeriesPath(const ChartSeries& s, const Frame& f, const std::string& color) {
  std::vector<ChartPoint> points;
  for (const ChartPoint& p : s.points)
    if (std::isfinite(p.x) && std::isfinite(p.y)) points.push_back(p);
  std::string out;
  if (s.style == SeriesStyle::kScatter) {
    for (const ChartPoint& p : points)
      out += "<circle cx=\"" + Num(f.Px(p.x)) + "\" cy=\"" + Num(f.Py(p.y)) + "\" r=\"3\" fill=\"" + color + "\"/>\n";
    return out;
  }
  std::string coordinates;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (s.style == SeriesStyle::kStep && i > 0)
      coordinates += Num(f.Px(points[i].x)) + "," + Num(f.Py(points[i - 1].y)) + " ";
    coordinates += Num(f.Px(points[i].x)) + "," + Num(f.Py(points[i].y)) + " ";
  }
  return "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\" points=\"" + coordinates + "\"/>\n";
}

std::string Legend(const Chart& chart, const Frame& f, const std::vector<std::string>& colors) {
  std::string out;
  double y = f.top + 16;
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    if (chart.series[i].name.empty()) continue;
    const double x = f.left + f.width - 180;
    out += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y - 9) + "\" width=\"12\" height=\"10\" fill=\"" + colors[i] + "\"/>\n";
    out += Text(x + 18, y, chart.series[i].name, "");
    y += 18;
  }
  return out;
}

std::string Markers(const Chart& chart, const Frame& f) {
  std::string out;
  for (const ChartMarker& m : chart.markers) {
    if (!std::isfinite(m.at.x) || !std::isfinite(m.at.y)) continue;
    const double px = f.Px(m.at.x), py = f.Py(m.at.y);
    out += "<circle cx=\"" + Num(px) + "\" cy=\"" + Num(py) + "\" r=\"6\" fill=\"none\" stroke=\"#d62728\" "
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
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
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

std::string RenderSvg(const Chart& chart) {
  Frame f;
  f.x = DataRange(chart, true, chart.x_axis);
  f.y = DataRange(chart, false, chart.y_axis);
  f.left = kLeft;
  f.top = kTop;
  f.width = std::max(10.0, chart.width_px - kLeft - kRight);
  f.height = std::max(10.0, chart.height_px - kTop - kBottom);
  std::vector<std::string> colors;
  for (std::size_t i = 0; i < chart.series.size(); ++i)
    colors.push_back(chart.series[i].color.empty() ? kPalette[i % std::size(kPalette)] : XmlEscape(chart.series[i].color));

  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(chart.width_px) +
                    "\" height=\"" + std::to_string(chart.height_px) + "\" viewBox=\"0 0 " +
                    std::to_string(chart.width_px) + " " + std::to_string(chart.height_px) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += Text(chart.width_px / 2.0, 24, chart.title, "text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\"");
  out += Axes(chart, f);
  for (std::size_t i = 0; i < chart.series.size(); ++i) out += SeriesPath(chart.series[i], f, colors[i]);
  out += Markers(chart, f);
  out += Legend(chart, f, colors);
  out += "</svg>\n";
  return out;
}

void WriteSvgFile(const Chart& chart, const std::string& path) {
  const std::string svg = RenderSvg(chart);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error("cannot open " + path + " for writing");
  file << svg;
  file.close();
  if (!file) throw std::runtime_error("cannot write " + path);
}

}  // namespace tuner
