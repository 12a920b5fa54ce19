#include "reports/chart_parts.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "reports/report_format.h"

namespace tuner::report {

namespace {

const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
constexpr int kWidthPx = 640, kHeightPx = 380;

}  // namespace

const char* PaletteColor(std::size_t i) { return kPalette[i % std::size(kPalette)]; }
std::size_t PaletteSize() { return std::size(kPalette); }

Chart NewChart(const std::string& title, const std::string& x_label, const std::string& x_unit,
               const std::string& y_label, const std::string& y_unit) {
  Chart chart;
  chart.title = title;
  chart.x_axis.label = x_label;
  chart.x_axis.unit = x_unit;
  chart.y_axis.label = y_label;
  chart.y_axis.unit = y_unit;
  chart.width_px = kWidthPx;
  chart.height_px = kHeightPx;
  return chart;
}

// Adds a series with its hover texts; returns it for the points.
ChartSeries& AddSeries(Chart& chart, const std::string& name, SeriesStyle style, const std::string& color) {
  chart.series.push_back({name, {}, style, color});
  chart.point_titles.emplace_back();
  return chart.series.back();
}

void AddPoint(Chart& chart, ChartSeries& series, ChartPoint point, const std::string& title) {
  series.points.push_back(point);
  chart.point_titles[static_cast<std::size_t>(&series - chart.series.data())].push_back(title);
}

std::string RunUnit(const Run& run) {
  if (run.Best()) return run.Best()->measurement.perf_unit;
  for (const db::MeasurementRow& row : run.rows)
    if (!row.measurement.perf_unit.empty()) return row.measurement.perf_unit;
  return "";
}

// Room above the highest point for the best's label.
void Headroom(Chart& chart) {
  double top = 0;
  for (const ChartSeries& s : chart.series)
    for (const ChartPoint& p : s.points)
      if (std::isfinite(p.y)) top = std::max(top, p.y);
  if (top > 0) chart.y_axis.max = NiceTicks(0, top * 1.12, 6).back();
}

std::string OkTitle(const Run& run, const db::MeasurementRecord& m) {
  return run.Params(m) + "\n" + FormatNumber(m.perf_value) + " " + m.perf_unit + ", " + FormatMs(m.time_ms_median) +
         ", occupancy " + FormatPercent(m.occupancy) + " (" + m.limiter + "), " + std::to_string(m.regs_per_thread) +
         " regs, " + std::to_string(m.smem_bytes) + " B smem";
}

std::string FailTitle(const Run& run, const db::MeasurementRecord& m) {
  return run.Params(m) + "\n" + ToText(m.status) + (m.reason.empty() ? "" : ": " + m.reason);
}

void MarkBest(Chart& chart, const Run& run, double x) {
  if (const db::MeasurementRow* best = run.Best())
    chart.markers.push_back({{x, best->measurement.perf_value},
                             "best " + FormatNumber(best->measurement.perf_value) + " " + best->measurement.perf_unit});
}

}  // namespace tuner::report
