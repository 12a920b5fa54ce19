#include "reports/report_charts.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "reports/report_format.h"

namespace tuner::report {

namespace {

const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
constexpr int kWidthPx = 640, kHeightPx = 380;

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

std::string Unit(const Run& run) {
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

std::string OkTitle(const db::MeasurementRecord& m) {
  return ParamsText(m.params_json) + "\n" + FormatNumber(m.perf_value) + " " + m.perf_unit + ", " +
         FormatMs(m.time_ms_median) + ", occupancy " + FormatPercent(m.occupancy) + " (" + m.limiter + "), " +
         std::to_string(m.regs_per_thread) + " regs, " + std::to_string(m.smem_bytes) + " B smem";
}

std::string FailTitle(const db::MeasurementRecord& m) {
  return ParamsText(m.params_json) + "\n" + m.status + (m.reason.empty() ? "" : ": " + m.reason);
}

void MarkBest(Chart& chart, const Run& run, double x) {
  if (const db::MeasurementRow* best = run.Best())
    chart.markers.push_back({{x, best->measurement.perf_value},
                             "best " + FormatNumber(best->measurement.perf_value) + " " + best->measurement.perf_unit});
}

// Sorted distinct values of a parameter: numerically when every value is a number.
std::vector<std::string> SortedValues(std::set<std::string> values) {
  std::vector<std::string> sorted(values.begin(), values.end());
  auto number = [](const std::string& s, double* v) {
    char* end = nullptr;
    *v = std::strtod(s.c_str(), &end);
    return !s.empty() && end && *end == '\0';
  };
  double a = 0, b = 0;
  const bool numeric = std::all_of(sorted.begin(), sorted.end(), [&](const std::string& s) { return number(s, &a); });
  if (numeric)
    std::sort(sorted.begin(), sorted.end(), [&](const std::string& x, const std::string& y) {
      number(x, &a);
      number(y, &b);
      return a < b;
    });
  return sorted;
}

// A parameter's value as a category: "n/a" where a candidate lacks it.
std::string ValueOf(const db::MeasurementRecord& m, const std::string& name) {
  const std::string value = ParamValue(m.params_json, name);
  return value.empty() ? "n/a" : value;
}

// Long values ("constant_filter_shared_input") broken in two lines at the '_' nearest the middle.
std::vector<std::string> TickLabels(const std::vector<std::string>& values) {
  std::vector<std::string> labels;
  for (std::string v : values) {
    std::size_t best = std::string::npos;
    for (std::size_t i = v.find('_'); v.size() > 14 && i != std::string::npos; i = v.find('_', i + 1))
      if (best == std::string::npos || std::abs(double(i) - v.size() / 2.0) < std::abs(double(best) - v.size() / 2.0)) best = i;
    if (best != std::string::npos) v[best] = '\n';
    labels.push_back(v);
  }
  return labels;
}

// Spreads the dots of one value sideways so that equal throughputs stay visible (deterministic).
double Jitter(std::size_t i) { return (std::fmod(static_cast<double>(i) * 0.618034, 1.0) - 0.5) * 0.5; }

std::string RunTitle(const KernelReport& kernel, const Run& run, const std::string& what) {
  return kernel.kernel + ": " + what + " (" + run.Label() + ")";
}

std::string RunPrefix(const Run& run) {
  return Slug(ShortGpuName(run.gpu.name)) + "-" + Slug(run.gpu.uuid.substr(0, 12)) + "-" + Slug(run.size_key) +
         (run.stale ? "-stale-" + Slug(run.template_hash.substr(0, 8)) : "") + "-";
}

}  // namespace

const char* StatusColor(const std::string& status) {
  static const std::map<std::string, const char*> colors = {
      {"ok", "#1f77b4"},          {"wrong_result", "#d62728"}, {"compile_error", "#9467bd"},
      {"invalid", "#7f7f7f"},     {"launch_error", "#ff7f0e"}, {"fault", "#8c1a1a"},
      {"timeout", "#bcbd22"},     {"skipped", "#c7c7c7"}};
  const auto found = colors.find(status);
  return found == colors.end() ? "#e377c2" : found->second;
}

const char* LimiterColor(const std::string& limiter) {
  static const std::map<std::string, const char*> colors = {
      {"warps", "#1f77b4"}, {"registers", "#ff7f0e"}, {"shared_memory", "#2ca02c"}, {"blocks", "#9467bd"},
      {"barriers", "#8c564b"}};
  const auto found = colors.find(limiter);
  return found == colors.end() ? "#7f7f7f" : found->second;
}

NamedChart CandidatesChart(const KernelReport& kernel, const Run& run) {
  Chart chart = NewChart(RunTitle(kernel, run, "every candidate"), "Candidate, fastest first", "", "Throughput", Unit(run));
  std::map<std::string, std::size_t> series_of;
  std::size_t rank = 0;
  for (const db::MeasurementRow& row : run.rows) {
    const db::MeasurementRecord& m = row.measurement;
    auto found = series_of.find(m.status);
    if (found == series_of.end()) {
      found = series_of.emplace(m.status, chart.series.size()).first;
      AddSeries(chart, m.status, SeriesStyle::kScatter, StatusColor(m.status));
    }
    ChartSeries& series = chart.series[found->second];
    const bool ok = m.status == "ok";
    AddPoint(chart, series, {static_cast<double>(++rank), ok ? m.perf_value : 0.0}, ok ? OkTitle(m) : FailTitle(m));
  }
  if (run.ceiling.known() && run.Best()) {
    ChartSeries& line = AddSeries(chart, "ceiling " + FormatNumber(run.ceiling.value) + " " + run.ceiling.unit,
                                  SeriesStyle::kLine, "#555555");
    AddPoint(chart, line, {1, run.ceiling.value}, "");
    AddPoint(chart, line, {static_cast<double>(std::max<std::size_t>(rank, 2)), run.ceiling.value}, "");
  }
  chart.x_axis.min = 0;
  chart.x_axis.max = NiceTicks(0, std::max<double>(static_cast<double>(rank), 5), 8).back();  // whole ranks
  MarkBest(chart, run, 1);
  Headroom(chart);
  return {RunPrefix(run) + "candidates",
          "Every candidate's throughput, fastest first, coloured by status; candidates that failed sit at 0 "
          "(hover a dot for its parameters and reason).",
          chart};
}

NamedChart OccupancyChart(const KernelReport& kernel, const Run& run) {
  Chart chart = NewChart(RunTitle(kernel, run, "throughput vs occupancy"), "Theoretical occupancy", "%", "Throughput", Unit(run));
  chart.x_axis.min = 0;
  chart.x_axis.max = 100;
  std::map<std::string, std::size_t> series_of;
  for (const db::MeasurementRow& row : run.rows) {
    const db::MeasurementRecord& m = row.measurement;
    if (m.status != "ok") continue;
    const std::string limiter = m.limiter.empty() ? "unknown" : m.limiter;
    auto found = series_of.find(limiter);
    if (found == series_of.end()) {
      found = series_of.emplace(limiter, chart.series.size()).first;
      AddSeries(chart, "limited by " + limiter, SeriesStyle::kScatter, LimiterColor(limiter));
    }
    AddPoint(chart, chart.series[found->second], {100 * m.occupancy, m.perf_value}, OkTitle(m));
  }
  if (const db::MeasurementRow* best = run.Best()) MarkBest(chart, run, 100 * best->measurement.occupancy);
  Headroom(chart);
  return {RunPrefix(run) + "occupancy",
          "Each correct candidate's throughput against its theoretical occupancy, coloured by the resource that "
          "limits blocks per SM. Higher occupancy is not always faster.",
          chart};
}

std::vector<NamedChart> ParameterCharts(const KernelReport& kernel, const Run& run) {
  std::vector<NamedChart> charts;
  for (const std::string& name : kernel.parameter_names) {
    std::set<std::string> values;
    for (const db::MeasurementRow& row : run.rows)
      if (row.measurement.status == "ok") values.insert(ValueOf(row.measurement, name));
    if (values.size() < 2) continue;
    Chart chart = NewChart(RunTitle(kernel, run, "effect of " + name), name, "", "Throughput", Unit(run));
    const std::vector<std::string> sorted = SortedValues(values);
    chart.x_categories = TickLabels(sorted);
    std::map<std::string, double> best_of;
    ChartSeries* dots = &AddSeries(chart, "candidates", SeriesStyle::kScatter, "#6baed6");
    std::size_t i = 0;
    for (const db::MeasurementRow& row : run.rows) {
      const db::MeasurementRecord& m = row.measurement;
      if (m.status != "ok") continue;
      const std::string value = ValueOf(m, name);
      const auto at = std::find(sorted.begin(), sorted.end(), value) - sorted.begin();
      AddPoint(chart, *dots, {static_cast<double>(at) + Jitter(i++), m.perf_value}, OkTitle(m));
      best_of[value] = std::max(best_of[value], m.perf_value);
    }
    ChartSeries& line = AddSeries(chart, "best of each value", SeriesStyle::kLine, "#08519c");
    for (std::size_t v = 0; v < sorted.size(); ++v) AddPoint(chart, line, {static_cast<double>(v), best_of[sorted[v]]}, "");
    if (const db::MeasurementRow* best = run.Best()) {
      const std::string value = ValueOf(best->measurement, name);
      MarkBest(chart, run, static_cast<double>(std::find(sorted.begin(), sorted.end(), value) - sorted.begin()));
    }
    Headroom(chart);
    charts.push_back({RunPrefix(run) + "param-" + Slug(name),
                      "Throughput of every correct candidate for each value of " + name +
                          " (dots spread sideways), and the best for each value.",
                      chart});
  }
  return charts;
}

std::optional<NamedChart> AcrossChart(const KernelReport& kernel) {
  std::vector<const Run*> runs;
  std::set<std::string> size_set;
  std::string unit;
  for (const Run& run : kernel.runs)
    if (run.Best() && !run.stale) runs.push_back(&run), size_set.insert(run.size_key), unit = Unit(run);
  if (runs.size() < 2) return std::nullopt;
  std::vector<std::string> sizes(size_set.begin(), size_set.end());
  std::sort(sizes.begin(), sizes.end(), SizeKeyLess);
  Chart chart = NewChart(kernel.kernel + ": best across GPUs and sizes", "Problem size", "", "Best throughput", unit);
  chart.x_categories = sizes;
  std::map<std::string, std::size_t> series_of;  // by GPU uuid: a line and its dots
  for (const Run* run : runs) {
    auto found = series_of.find(run->gpu.uuid);
    if (found == series_of.end()) {
      const char* color = kPalette[series_of.size() % std::size(kPalette)];
      found = series_of.emplace(run->gpu.uuid, chart.series.size()).first;
      AddSeries(chart, ShortGpuName(run->gpu.name) + " (" + run->gpu.uuid.substr(0, 12) + ")", SeriesStyle::kLine, color);
      AddSeries(chart, "", SeriesStyle::kScatter, color);
    }
    const double x = static_cast<double>(std::find(sizes.begin(), sizes.end(), run->size_key) - sizes.begin());
    const db::MeasurementRecord& m = run->Best()->measurement;
    AddPoint(chart, chart.series[found->second], {x, m.perf_value}, "");
    AddPoint(chart, chart.series[found->second + 1], {x, m.perf_value}, run->Label() + "\n" + OkTitle(m));
  }
  Headroom(chart);
  return NamedChart{"across", "The best candidate's throughput of each GPU and problem size.", chart};
}

std::optional<NamedChart> CeilingChart(const KernelReport& kernel) {
  Chart chart = NewChart(kernel.kernel + ": best as a share of the device ceiling", "GPU and problem size", "",
                         "Share of measured ceiling", "%");
  ChartSeries* bars = &AddSeries(chart, "", SeriesStyle::kBar, "#2ca02c");
  for (const Run& run : kernel.runs) {
    if (!run.Best() || !run.ceiling.known() || run.stale) continue;
    const double share = 100 * run.Best()->measurement.perf_value / run.ceiling.value;
    AddPoint(chart, *bars, {static_cast<double>(chart.x_categories.size()), share},
             run.Label() + ": " + FormatNumber(run.Best()->measurement.perf_value) + " of " +
                 FormatNumber(run.ceiling.value) + " " + run.ceiling.unit + " (" + run.ceiling.source + ")");
    chart.x_categories.push_back(ShortGpuName(run.gpu.name) + "\n" + run.size_key);
  }
  if (chart.x_categories.empty()) return std::nullopt;
  ChartSeries& line = AddSeries(chart, "ceiling", SeriesStyle::kLine, "#555555");
  AddPoint(chart, line, {-0.5, 100}, "");
  AddPoint(chart, line, {static_cast<double>(chart.x_categories.size()) - 0.5, 100}, "");
  return NamedChart{"ceiling",
                    "The best candidate's throughput as a percentage of the device's ceiling: copy bandwidth "
                    "measured in the same sweep for GB/s, the FP32 peak for GFLOP/s.",
                    chart};
}

std::vector<NamedChart> KernelCharts(const KernelReport& kernel) {
  std::vector<NamedChart> charts;
  if (auto across = AcrossChart(kernel)) charts.push_back(std::move(*across));
  if (auto ceiling = CeilingChart(kernel)) charts.push_back(std::move(*ceiling));
  for (const Run& run : kernel.runs) {
    charts.push_back(CandidatesChart(kernel, run));
    if (run.Best()) charts.push_back(OccupancyChart(kernel, run));
    for (NamedChart& chart : ParameterCharts(kernel, run)) charts.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace tuner::report
