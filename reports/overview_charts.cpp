#include "reports/overview_charts.h"

#include <algorithm>
#include <map>
#include <set>

#include "reports/chart_parts.h"
#include "reports/report_format.h"

namespace tuner::report {

namespace {

// The current runs with a correct candidate, their sizes in numeric order, and each GPU model's
// cards' index in order of appearance (its colour, the same in both charts).
struct Overview {
  std::vector<const Run*> runs;
  std::vector<std::string> sizes;
  std::map<std::string, std::size_t> gpu_index;

  explicit Overview(const KernelReport& kernel) {
    std::set<std::string> size_set;
    for (const Run& run : kernel.runs) {
      if (!run.Best() || run.stale) continue;
      runs.push_back(&run);
      size_set.insert(run.size_key);
      gpu_index.emplace(run.Cards(), gpu_index.size());
    }
    sizes.assign(size_set.begin(), size_set.end());
    std::sort(sizes.begin(), sizes.end(), SizeKeyLess);
  }
  double X(const Run& run) const {
    return static_cast<double>(std::find(sizes.begin(), sizes.end(), run.size_key) - sizes.begin());
  }
};

std::string GpuName(const Run& run) { return ShortGpuName(run.gpu.name) + " (" + run.ShortCards() + ")"; }

}  // namespace

std::optional<NamedChart> AcrossChart(const KernelReport& kernel) {
  const Overview o(kernel);
  if (o.runs.size() < 2) return std::nullopt;
  Chart chart = NewChart(kernel.kernel + ": best across GPUs and sizes", "Problem size", "", "Best throughput",
                         RunUnit(*o.runs.front()));
  chart.x_categories = o.sizes;
  std::map<std::string, std::size_t> series_of;  // by the run's cards: a line and its dots
  for (const Run* run : o.runs) {
    auto found = series_of.find(run->Cards());
    if (found == series_of.end()) {
      const char* color = PaletteColor(o.gpu_index.at(run->Cards()));
      found = series_of.emplace(run->Cards(), chart.series.size()).first;
      AddSeries(chart, GpuName(*run), SeriesStyle::kLine, color);
      AddSeries(chart, "", SeriesStyle::kScatter, color);
    }
    const db::MeasurementRecord& m = run->Best()->measurement;
    AddPoint(chart, chart.series[found->second], {o.X(*run), m.perf_value}, "");
    AddPoint(chart, chart.series[found->second + 1], {o.X(*run), m.perf_value}, run->Label() + "\n" + OkTitle(*run, m));
  }
  Headroom(chart);
  return NamedChart{"across", "The best candidate's throughput of each GPU and problem size.", chart};
}

std::optional<NamedChart> CeilingChart(const KernelReport& kernel) {
  const Overview o(kernel);
  Chart chart = NewChart(kernel.kernel + ": best as a share of the device ceiling", "Problem size", "",
                         "Share of measured ceiling", "%");
  chart.x_categories = o.sizes;
  std::map<std::string, std::size_t> series_of;  // by the run's cards: its bars
  for (const Run* run : o.runs) {
    if (!run->ceiling.known()) continue;
    auto found = series_of.find(run->Cards());
    if (found == series_of.end()) {
      found = series_of.emplace(run->Cards(), chart.series.size()).first;
      AddSeries(chart, GpuName(*run), SeriesStyle::kBar, PaletteColor(o.gpu_index.at(run->Cards())));
    }
    const double perf = run->Best()->measurement.perf_value;
    AddPoint(chart, chart.series[found->second], {o.X(*run), 100 * perf / run->ceiling.value},
             run->Label() + ": " + FormatNumber(perf) + " of " + FormatNumber(run->ceiling.value) + " " +
                 run->ceiling.unit + " (" + run->ceiling.source + ")");
  }
  if (series_of.empty()) return std::nullopt;
  ChartSeries& line = AddSeries(chart, "ceiling", SeriesStyle::kLine, "#555555");
  AddPoint(chart, line, {-0.5, 100}, "");
  AddPoint(chart, line, {static_cast<double>(o.sizes.size()) - 0.5, 100}, "");
  Headroom(chart);
  return NamedChart{"ceiling",
                    "The best candidate's throughput as a percentage of the device's ceiling: copy bandwidth "
                    "measured in the same sweep for GB/s, the FP32 peak for GFLOP/s.",
                    chart};
}

}  // namespace tuner::report
