#include "reports/hardware_charts.h"

#include <gtest/gtest.h>

#include "report_test_data.h"

namespace tuner::report {
namespace {

using testing::TransposeRun;

TEST(HardwareCharts, TheParetoFrontHasNoCandidateBothFasterAndMoreFrugal) {
  const std::vector<std::pair<double, double>> points = {{1.0, 5.0}, {2.0, 3.0}, {1.5, 6.0},
                                                         {3.0, 3.0}, {0.5, 9.0}, {4.0, 1.0}};
  EXPECT_EQ(ParetoFront(points), (std::vector<std::size_t>{4, 0, 1, 5}));
  EXPECT_TRUE(ParetoFront({}).empty());
}

TEST(HardwareCharts, ACounterAgainstTheParameterThatMovesIt) {
  KernelReport kernel;
  kernel.kernel = "transpose";
  kernel.parameter_names = {"TILE", "PAD"};
  const report::Run run = TransposeRun();
  const std::vector<NamedChart> charts = CounterCharts(kernel, run);
  ASSERT_EQ(charts.size(), 2u) << "bank conflicts and DRAM throughput";
  EXPECT_EQ(charts[0].chart.title, "transpose: DRAM throughput against PAD (H100 \u00b7 8192x8192)");
  EXPECT_EQ(charts[1].chart.x_axis.label, "PAD");
  EXPECT_EQ(charts[1].chart.x_categories, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(charts[1].chart.markers.size(), 1u) << "the best";
  const auto pareto = ParetoChart(kernel, run);
  ASSERT_TRUE(pareto);
  EXPECT_EQ(pareto->chart.series.at(1).points.size(), 1u) << "the padded tile is faster and more frugal";
}

}  // namespace
}  // namespace tuner::report
