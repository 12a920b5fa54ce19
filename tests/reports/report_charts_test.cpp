// The charts of one run: a parameter's strip chart draws candidates of one value and one throughput
// as one dot, however many there are, and every distinct one.
#include "reports/report_charts.h"

#include <gtest/gtest.h>

#include "report_test_data.h"
#include "text_search.h"

namespace tuner::report {
namespace {

using testing::ProfiledRow;

using tuner::testing::Count;

// `equal` candidates of TILE=32 at one time, and TILE=64 at four times far apart.
Run TileRun(int equal) {
  Run run;
  run.gpu.name = "NVIDIA H100 80GB HBM3";
  run.size_key = "8192x8192";
  for (double ms : {0.2, 0.25, 0.4, 1.0}) run.rows.push_back(ProfiledRow(R"({"TILE":64})", ms));
  for (int i = 0; i < equal; ++i) run.rows.push_back(ProfiledRow(R"({"TILE":32})", 0.5));
  run.best = 0;
  return run;
}

std::string TileChart(int equal) {
  KernelReport kernel;
  kernel.kernel = "transpose";
  kernel.parameter_names = {"TILE"};
  const std::vector<NamedChart> charts = ParameterCharts(kernel, TileRun(equal));
  EXPECT_EQ(charts.size(), 1u);
  return charts.empty() ? "" : RenderSvg(charts[0].chart);
}

TEST(ReportCharts, AParametersChartDrawsEqualCandidatesOnceAndEveryDistinctOne) {
  const std::string svg = TileChart(1000);
  EXPECT_EQ(Count(svg, "<circle cx="), 1u + 4 + 1) << "the 1000 equal ones, the four apart, the best's ring";
  EXPECT_EQ(svg, TileChart(1)) << "the same axes, labels, legend and dots as with one of the 1000";
}

}  // namespace
}  // namespace tuner::report
