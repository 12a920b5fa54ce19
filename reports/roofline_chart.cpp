#include "reports/roofline_chart.h"

#include <algorithm>
#include <vector>

#include "db/speed_of_light.h"
#include "reports/chart_parts.h"
#include "reports/report_charts.h"
#include "reports/report_format.h"

namespace tuner::report {

namespace {

struct Placed {
  const db::MeasurementRecord* m;
  db::RooflinePoint point;
};

// The counted correct candidates with a roofline point, the best (the run's first row) first.
std::vector<Placed> PlacedCandidates(const Run& run) {
  std::vector<Placed> placed;
  for (const db::MeasurementRow& row : run.rows)
    if (IsOk(row.measurement.status))
      if (const auto point = db::RooflinePointOf(row.measurement.counters_json))
        placed.push_back({&row.measurement, *point});
  return placed;
}

// The roof of the precision of the first candidate that reports one.
std::optional<db::Roof> RoofOf(const std::vector<Placed>& placed) {
  for (const Placed& p : placed)
    if (const auto roof = db::RoofOf(p.m->counters_json, p.point.precision)) return roof;
  return std::nullopt;
}

// The roofs from a tenth of the lowest intensity to ten times the highest (and the ridge).
void DrawRoofs(Chart& chart, const db::Roof& roof, const std::string& precision, double lo, double hi) {
  const double ridge = roof.RidgeFlopPerByte();
  lo = std::min(lo, ridge) / 10;
  hi = std::max(hi, ridge) * 10;
  ChartSeries& memory = AddSeries(chart, "DRAM " + FormatNumber(roof.dram_gbps) + " GB/s", SeriesStyle::kLine,
                                  "#555555");
  AddPoint(chart, memory, {lo, roof.dram_gbps * lo}, "");
  AddPoint(chart, memory, {ridge, roof.peak_gflops}, "ridge at " + FormatNumber(ridge) + " FLOP/byte");
  ChartSeries& compute = AddSeries(chart, precision + " peak " + FormatNumber(roof.peak_gflops) + " GFLOP/s",
                                   SeriesStyle::kLine, "#d62728");
  AddPoint(chart, compute, {ridge, roof.peak_gflops}, "");
  AddPoint(chart, compute, {hi, roof.peak_gflops}, "");
}

}  // namespace

std::optional<NamedChart> RooflineChart(const KernelReport& kernel, const Run& run) {
  const std::vector<Placed> placed = PlacedCandidates(run);
  const auto roof = RoofOf(placed);
  if (placed.empty() || !roof) return std::nullopt;
  const std::string precision = placed.front().point.precision;
  Chart chart = NewChart(RunChartTitle(kernel, run, "roofline"), "Arithmetic intensity", "FLOP/byte, counted",
                         "Performance", "GFLOP/s, counted");
  chart.x_axis.log_scale = chart.y_axis.log_scale = true;
  double lo = placed.front().point.flop_per_byte, hi = lo;
  ChartSeries& dots = AddSeries(chart, "counted candidates", SeriesStyle::kScatter, "#1f77b4");
  for (const Placed& p : placed) {
    lo = std::min(lo, p.point.flop_per_byte);
    hi = std::max(hi, p.point.flop_per_byte);
    const auto sol = db::SpeedOfLightOf(p.m->counters_json);
    AddPoint(chart, dots, {p.point.flop_per_byte, p.point.gflops},
             run.Params(*p.m) + ": " + FormatNumber(p.point.flop_per_byte) + " FLOP/byte, " +
                 FormatNumber(p.point.gflops) + " GFLOP/s" + (sol ? "; " + db::HeadroomText(*sol) : ""));
  }
  const db::MeasurementRow* best = run.Best();
  if (best && &best->measurement == placed.front().m)
    chart.markers.push_back({{placed.front().point.flop_per_byte, placed.front().point.gflops},
                             "best: " + FormatNumber(placed.front().point.gflops) + " GFLOP/s"});
  DrawRoofs(chart, *roof, precision, lo, hi);
  return NamedChart{RunChartPrefix(run) + "roofline",
                    "Every counted candidate's " + precision +
                        " operations per DRAM byte against its operations per second, both counted by the "
                        "profiler (an FMA is two operations; log scales). Left of the ridge the DRAM bandwidth "
                        "bounds a kernel, right of it the peak rate; the distance below the roof is the headroom.",
                    chart};
}

}  // namespace tuner::report
