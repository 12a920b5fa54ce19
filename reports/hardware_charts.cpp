#include "reports/hardware_charts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "db/counters.h"
#include "reports/chart_parts.h"
#include "reports/report_charts.h"
#include "reports/report_format.h"

namespace tuner::report {

namespace {

struct Profiled {
  const db::MeasurementRecord* m;
  double value;
};

std::vector<Profiled> WithCounter(const Run& run, const std::string& key) {
  std::vector<Profiled> out;
  for (const db::MeasurementRow& row : run.rows)
    if (const auto value = db::CounterValue(row.measurement.counters_json, key);
        value && IsOk(row.measurement.status))
      out.push_back({&row.measurement, *value});
  return out;
}

// How far apart the means of the counter lie for the parameter's values (max mean - min mean);
// 0 for a parameter with one value among the profiled candidates.
double Separation(const Run& run, const std::vector<Profiled>& profiled, const std::string& name) {
  std::map<std::string, std::pair<double, int>> sums;
  for (const Profiled& p : profiled) {
    auto& [sum, count] = sums[run.Value(*p.m, name)];
    sum += p.value;
    ++count;
  }
  if (sums.size() < 2) return 0;
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  for (const auto& [value, sum_count] : sums) {
    const double mean = sum_count.first / sum_count.second;
    lo = std::min(lo, mean);
    hi = std::max(hi, mean);
  }
  return hi - lo;
}

// Values in the order the template declares them, as the profiled candidates have them.
std::vector<std::string> ValuesOf(const Run& run, const std::vector<Profiled>& profiled, const std::string& name) {
  std::vector<std::string> values;
  for (const Profiled& p : profiled) {
    const std::string v = run.Value(*p.m, name);
    if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
  }
  std::stable_sort(values.begin(), values.end(), [](const std::string& a, const std::string& b) {
    char* end_a = nullptr;
    char* end_b = nullptr;
    const double x = std::strtod(a.c_str(), &end_a), y = std::strtod(b.c_str(), &end_b);
    return *end_a == '\0' && *end_b == '\0' ? x < y : a < b;
  });
  return values;
}

NamedChart CounterChart(const KernelReport& kernel, const Run& run, const db::CounterField& field,
                        const std::vector<Profiled>& profiled, const std::string& name) {
  Chart chart = NewChart(RunChartTitle(kernel, run, std::string(field.label) + " against " + name), name, "",
                         field.label, field.unit);
  const std::vector<std::string> values = ValuesOf(run, profiled, name);
  chart.x_categories = values;
  ChartSeries& dots = AddSeries(chart, "profiled candidates", SeriesStyle::kScatter, "#6baed6");
  const db::MeasurementRow* best = run.Best();
  std::size_t i = 0;
  for (const Profiled& p : profiled) {
    const double at =
        static_cast<double>(std::find(values.begin(), values.end(), run.Value(*p.m, name)) - values.begin());
    const double jitter = (std::fmod(static_cast<double>(i++) * 0.618034, 1.0) - 0.5) * 0.4;
    AddPoint(chart, dots, {at + jitter, p.value}, run.Params(*p.m) + ": " + FormatNumber(p.value) + " " + field.unit);
    if (best && p.m == &best->measurement)
      chart.markers.push_back({{at + jitter, p.value}, "best: " + FormatNumber(p.value)});
  }
  chart.y_axis.min = 0;
  return {RunChartPrefix(run) + "counter-" + Slug(field.key),
          std::string(field.label) + " (" + field.unit + ", " + (field.lower_is_better ? "lower" : "higher") +
              " is better) of every profiled candidate at its value of " + name +
              ", the parameter that moves it most; the best candidate marked.",
          chart};
}

}  // namespace

std::vector<NamedChart> CounterCharts(const KernelReport& kernel, const Run& run) {
  std::vector<NamedChart> charts;
  for (const db::CounterField& field : db::CounterFields()) {
    const std::vector<Profiled> profiled = WithCounter(run, field.key);
    if (profiled.size() < 2) continue;
    std::string moving;
    double separation = 0;
    for (const std::string& name : kernel.parameter_names)
      if (const double s = Separation(run, profiled, name); s > separation) {
        separation = s;
        moving = name;
      }
    if (!moving.empty()) charts.push_back(CounterChart(kernel, run, field, profiled, moving));
  }
  return charts;
}

std::vector<std::size_t> ParetoFront(const std::vector<std::pair<double, double>>& points) {
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return points[a].first != points[b].first ? points[a].first < points[b].first : points[a].second < points[b].second;
  });
  std::vector<std::size_t> front;
  double least_energy = std::numeric_limits<double>::infinity();
  for (std::size_t i : order)
    if (points[i].second < least_energy) {
      front.push_back(i);
      least_energy = points[i].second;
    }
  return front;
}

std::optional<NamedChart> ParetoChart(const KernelReport& kernel, const Run& run) {
  std::vector<const db::MeasurementRecord*> measured;
  std::vector<std::pair<double, double>> points;
  for (const db::MeasurementRow& row : run.rows)
    if (IsOk(row.measurement.status) && row.measurement.energy_j > 0) {
      measured.push_back(&row.measurement);
      points.emplace_back(row.measurement.time_ms_median, row.measurement.energy_j * 1e3);
    }
  if (points.size() < 2) return std::nullopt;
  Chart chart =
      NewChart(RunChartTitle(kernel, run, "time against energy"), "Median time", "ms", "Energy per launch", "mJ");
  ChartSeries& dots = AddSeries(chart, "candidates with energy", SeriesStyle::kScatter, "#6baed6");
  for (std::size_t i = 0; i < points.size(); ++i)
    AddPoint(chart, dots, {points[i].first, points[i].second},
             run.Params(*measured[i]) + ": " + FormatMs(points[i].first) + ", " + FormatNumber(points[i].second) +
                 " mJ at " + FormatNumber(measured[i]->power_w) + " W");
  ChartSeries& front = AddSeries(chart, "Pareto front", SeriesStyle::kLine, "#d62728");
  for (std::size_t i : ParetoFront(points))
    AddPoint(chart, front, {points[i].first, points[i].second}, run.Params(*measured[i]));
  chart.x_axis.min = 0;
  chart.y_axis.min = 0;
  return NamedChart{RunChartPrefix(run) + "pareto",
                    "Median time against energy per launch of every candidate whose energy was measured; the red line "
                    "joins the Pareto front: no other candidate is both faster and uses less energy.",
                    chart};
}

}  // namespace tuner::report
