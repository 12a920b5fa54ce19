#include "reports/report_charts.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "db/counters.h"
#include "reports/chart_parts.h"
#include "reports/report_format.h"

namespace tuner::report {

namespace {

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

// The profiled candidates' achieved occupancy (black), each joined by a grey line to its
// theoretical one. Whether there was any.
bool AddAchievedOccupancy(Chart& chart, const Run& run) {
  bool any = false;
  for (const db::MeasurementRow& row : run.rows) {
    const db::MeasurementRecord& m = row.measurement;
    const auto achieved = db::CounterValue(m.counters_json, "achieved_occupancy_pct");
    if (!IsOk(m.status) || !achieved) continue;
    ChartSeries& join = AddSeries(chart, "", SeriesStyle::kLine, "#bbbbbb");
    AddPoint(chart, join, {100 * m.occupancy, m.perf_value}, "");
    AddPoint(chart, join, {*achieved, m.perf_value}, "");
    any = true;
  }
  if (!any) return false;
  ChartSeries& dots = AddSeries(chart, "achieved (counters)", SeriesStyle::kScatter, "#000000");
  for (const db::MeasurementRow& row : run.rows)
    if (const auto achieved = db::CounterValue(row.measurement.counters_json, "achieved_occupancy_pct");
        achieved && IsOk(row.measurement.status))
      AddPoint(chart, dots, {*achieved, row.measurement.perf_value},
               run.Params(row.measurement) + ": achieved " + FormatNumber(*achieved) + "% of theoretical " +
                   FormatNumber(100 * row.measurement.occupancy) + "%");
  return true;
}

// A parameter's value as a category: "n/a" where a candidate lacks it.
std::string ValueOf(const Run& run, const db::MeasurementRecord& m, const std::string& name) {
  const std::string value = run.Value(m, name);
  return value.empty() ? "n/a" : value;
}

// Long values ("constant_filter_shared_input") broken in two lines at the '_' nearest the middle.
std::vector<std::string> TickLabels(const std::vector<std::string>& values) {
  std::vector<std::string> labels;
  for (std::string v : values) {
    std::size_t best = std::string::npos;
    for (std::size_t i = v.find('_'); v.size() > 14 && i != std::string::npos; i = v.find('_', i + 1))
      if (best == std::string::npos || std::abs(double(i) - v.size() / 2.0) < std::abs(double(best) - v.size() / 2.0))
        best = i;
    if (best != std::string::npos) v[best] = '\n';
    labels.push_back(v);
  }
  return labels;
}

// Spreads the dots of one value sideways so that close throughputs do not cover each other
// (deterministic); candidates within a pixel of one throughput are one dot (svg_chart.h, kScatter).
double Jitter(std::size_t i) { return (std::fmod(static_cast<double>(i) * 0.618034, 1.0) - 0.5) * 0.5; }

// The sorted values a parameter takes among a run's correct candidates.
std::vector<std::string> OkValues(const Run& run, const std::string& name) {
  std::set<std::string> values;
  for (const db::MeasurementRow& row : run.rows)
    if (IsOk(row.measurement.status)) values.insert(ValueOf(run, row.measurement, name));
  return SortedValues(values);
}

// The parameter that colours the dots of the other parameters' charts: the first one with 2 to 7
// non-numeric values (VARIANT, MODE), since the other parameters' effects differ by variant.
std::string GroupParameter(const KernelReport& kernel, const Run& run) {
  for (const std::string& name : kernel.parameter_names) {
    const std::vector<std::string> values = OkValues(run, name);
    const bool text = std::any_of(values.begin(), values.end(), [](const std::string& v) {
      return !v.empty() && !std::isdigit(static_cast<unsigned char>(v[0])) && v[0] != '-';
    });
    if (text && values.size() >= 2 && values.size() <= PaletteSize()) return name;
  }
  return "";
}

// Every correct candidate at its value of `name` (spread sideways), coloured by its value of
// `group` when given, and the best per value. No hover texts: these charts hold the most dots.
NamedChart ParameterChart(const KernelReport& kernel, const Run& run, const std::string& name,
                          const std::string& group) {
  Chart chart = NewChart(RunChartTitle(kernel, run, "effect of " + name), name, "", "Throughput", RunUnit(run));
  const std::vector<std::string> sorted = OkValues(run, name);
  chart.x_categories = TickLabels(sorted);
  std::map<std::string, double> best_of;
  std::map<std::string, std::size_t> series_of;
  std::size_t i = 0;
  for (const db::MeasurementRow& row : run.rows) {
    const db::MeasurementRecord& m = row.measurement;
    if (!IsOk(m.status)) continue;
    const std::string key = group.empty() ? "candidates" : group + "=" + ValueOf(run, m, group);
    auto found = series_of.find(key);
    if (found == series_of.end()) {
      found = series_of.emplace(key, chart.series.size()).first;
      AddSeries(chart, key, SeriesStyle::kScatter, group.empty() ? "#6baed6" : PaletteColor(series_of.size() - 1));
    }
    const std::string value = ValueOf(run, m, name);
    const auto at = std::find(sorted.begin(), sorted.end(), value) - sorted.begin();
    AddPoint(chart, chart.series[found->second], {static_cast<double>(at), m.perf_value, Jitter(i++)}, "");
    best_of[value] = std::max(best_of[value], m.perf_value);
  }
  ChartSeries& line = AddSeries(chart, "best of each value", SeriesStyle::kLine, "#222222");
  for (std::size_t v = 0; v < sorted.size(); ++v)
    AddPoint(chart, line, {static_cast<double>(v), best_of[sorted[v]]}, "");
  if (const db::MeasurementRow* best = run.Best())
    MarkBest(chart, run,
             static_cast<double>(std::find(sorted.begin(), sorted.end(), ValueOf(run, best->measurement, name)) -
                                 sorted.begin()));
  Headroom(chart);
  return {RunChartPrefix(run) + "param-" + Slug(name),
          "Throughput of every correct candidate for each value of " + name + " (dots spread sideways)" +
              (group.empty() ? "" : ", coloured by " + group) + ", and the best for each value.",
          chart};
}

}  // namespace

std::string RunChartTitle(const KernelReport& kernel, const Run& run, const std::string& what) {
  return kernel.kernel + ": " + what + " (" + run.Label() + ")";
}

std::string RunChartPrefix(const Run& run) {
  return Slug(ShortGpuName(run.gpu.name)) + "-" + Slug(run.ShortCards()) + "-" + Slug(run.size_key) +
         (run.stale ? "-stale-" + Slug(run.template_hash.substr(0, 8)) : "") + "-";
}

const char* StatusColor(const std::string& status) {
  static const std::map<std::string, const char*> colors = {
      {"ok", "#1f77b4"},           {"wrong_result", "#d62728"}, {"compile_error", "#9467bd"}, {"invalid", "#7f7f7f"},
      {"launch_error", "#ff7f0e"}, {"fault", "#8c1a1a"},        {"timeout", "#bcbd22"},       {"skipped", "#c7c7c7"}};
  const auto found = colors.find(status);
  return found == colors.end() ? "#e377c2" : found->second;
}

const char* LimiterColor(const std::string& limiter) {
  static const std::map<std::string, const char*> colors = {{"warps", "#1f77b4"},
                                                            {"registers", "#ff7f0e"},
                                                            {"shared_memory", "#2ca02c"},
                                                            {"blocks", "#9467bd"},
                                                            {"barriers", "#8c564b"}};
  const auto found = colors.find(limiter);
  return found == colors.end() ? "#7f7f7f" : found->second;
}

NamedChart CandidatesChart(const KernelReport& kernel, const Run& run) {
  Chart chart = NewChart(RunChartTitle(kernel, run, "every candidate"), "Candidate, fastest first", "", "Throughput",
                         RunUnit(run));
  std::map<std::string, std::size_t> series_of;
  std::size_t rank = 0;
  for (const db::MeasurementRow& row : run.rows) {
    const db::MeasurementRecord& m = row.measurement;
    const std::string status = ToText(m.status);
    auto found = series_of.find(status);
    if (found == series_of.end()) {
      found = series_of.emplace(status, chart.series.size()).first;
      AddSeries(chart, status, SeriesStyle::kScatter, StatusColor(status));
    }
    ChartSeries& series = chart.series[found->second];
    const bool ok = IsOk(m.status);
    AddPoint(chart, series, {static_cast<double>(++rank), ok ? m.perf_value : 0.0},
             ok ? OkTitle(run, m) : FailTitle(run, m));
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
  return {RunChartPrefix(run) + "candidates",
          "Every candidate's throughput, fastest first, coloured by status; candidates that failed sit at 0 "
          "(hover a dot for its parameters and reason).",
          chart};
}

NamedChart OccupancyChart(const KernelReport& kernel, const Run& run) {
  Chart chart = NewChart(RunChartTitle(kernel, run, "throughput vs occupancy"), "Theoretical occupancy", "%",
                         "Throughput", RunUnit(run));
  chart.x_axis.min = 0;
  chart.x_axis.max = 100;
  std::map<std::string, std::size_t> series_of;
  for (const db::MeasurementRow& row : run.rows) {
    const db::MeasurementRecord& m = row.measurement;
    if (!IsOk(m.status)) continue;
    const std::string limiter = m.limiter.empty() ? "unknown" : m.limiter;
    auto found = series_of.find(limiter);
    if (found == series_of.end()) {
      found = series_of.emplace(limiter, chart.series.size()).first;
      AddSeries(chart, "limited by " + limiter, SeriesStyle::kScatter, LimiterColor(limiter));
    }
    AddPoint(chart, chart.series[found->second], {100 * m.occupancy, m.perf_value}, OkTitle(run, m));
  }
  const bool achieved = AddAchievedOccupancy(chart, run);
  if (achieved) chart.x_axis.label = "Occupancy, theoretical and achieved";
  if (const db::MeasurementRow* best = run.Best()) MarkBest(chart, run, 100 * best->measurement.occupancy);
  Headroom(chart);
  return {RunChartPrefix(run) + "occupancy",
          "Each correct candidate's throughput against its theoretical occupancy, coloured by the resource that "
          "limits blocks per SM" +
              std::string(achieved ? "; in black, the achieved occupancy the counters measured for the profiled "
                                     "candidates (each joined to its theoretical one)"
                                   : "") +
              ". Higher occupancy is not always faster.",
          chart};
}

std::vector<NamedChart> ParameterCharts(const KernelReport& kernel, const Run& run) {
  const std::string group = GroupParameter(kernel, run);
  std::vector<NamedChart> charts;
  for (const std::string& name : kernel.parameter_names)
    if (OkValues(run, name).size() >= 2)
      charts.push_back(ParameterChart(kernel, run, name, name == group ? "" : group));
  return charts;
}

}  // namespace tuner::report
