#include "reports/overview_charts.h"

#include <algorithm>
#include <map>
#include <set>

#include "reports/chart_parts.h"
#include "reports/report_format.h"

namespace tuner::report {

std::optional<NamedChart> AcrossChart(const KernelReport& kernel) {
  std::vector<const Run*> runs;
  std::set<std::string> size_set;
  std::string unit;
  for (const Run& run : kernel.runs)
    if (run.Best() && !run.stale) runs.push_back(&run), size_set.insert(run.size_key), unit = RunUnit(run);
  if (runs.size() < 2) return std::nullopt;
  std::vector<std::string> sizes(size_set.begin(), size_set.end());
  std::sort(sizes.begin(), sizes.end(), SizeKeyLess);
  Chart chart = NewChart(kernel.kernel + ": best across GPUs and sizes", "Problem size", "", "Best throughput", unit);
  chart.x_categories = sizes;
  std::map<std::string, std::size_t> series_of;  // by GPU uuid: a line and its dots
  for (const Run* run : runs) {
    auto found = series_of.find(run->gpu.uuid);
    if (found == series_of.end()) {
      const char* color = PaletteColor(series_of.size());
      found = series_of.emplace(run->gpu.uuid, chart.series.size()).first;
      AddSeries(chart, ShortGpuName(run->gpu.name) + " (" + run->gpu.uuid.substr(0, 12) + ")", SeriesStyle::kLine, color);
      AddSeries(chart, "", SeriesStyle::kScatter, color);
    }
    const double x = static_cast<double>(std::find(sizes.begin(), sizes.end(), run->size_key) - sizes.begin());
    const db::MeasurementRecord& m = run->Best()->measurement;
    AddPoint(chart, chart.series[found->second], {x, m.perf_value}, "");
    AddPoint(chart, chart.series[found->second + 1], {x, m.perf_value}, run->Label() + "\n" + OkTitle(*run, m));
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

}  // namespace tuner::report
