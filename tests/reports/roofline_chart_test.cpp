#include "reports/roofline_chart.h"

#include <gtest/gtest.h>

#include "report_test_data.h"

namespace tuner::report {
namespace {

using testing::PointInPolygonRun;
using testing::TransposeRun;

KernelReport Kernel(const std::string& name) {
  KernelReport kernel;
  kernel.kernel = name;
  return kernel;
}

TEST(RooflineChart, TheCountedCandidatesUnderTheRoofs) {
  const auto chart = RooflineChart(Kernel("pip"), PointInPolygonRun());
  ASSERT_TRUE(chart);
  const Chart& c = chart->chart;
  EXPECT_EQ(c.title, "pip: roofline (H100 \u00b7 1048576)");
  EXPECT_TRUE(c.x_axis.log_scale && c.y_axis.log_scale);
  ASSERT_EQ(c.series.size(), 3u) << "the candidates, the DRAM slope, the FP32 peak";
  ASSERT_EQ(c.series[0].points.size(), 2u) << "the uncounted candidate has no point";
  // 60 GFLOP over 0.5 GB in 2 ms: 120 FLOP/byte at 30000 GFLOP/s.
  EXPECT_DOUBLE_EQ(c.series[0].points[0].x, 120);
  EXPECT_DOUBLE_EQ(c.series[0].points[0].y, 30000);
  EXPECT_NE(c.point_titles[0][0].find("BLOCK=256: 120 FLOP/byte, 30000 GFLOP/s; compute-bound: SM 75% of peak"),
            std::string::npos)
      << c.point_titles[0][0];
  ASSERT_EQ(c.markers.size(), 1u);
  EXPECT_EQ(c.markers[0].label, "best: 30000 GFLOP/s");
  // The ridge: 66908 GFLOP/s over 3352 GB/s.
  EXPECT_NEAR(c.series[1].points.back().x, 19.96, 0.01);
  EXPECT_DOUBLE_EQ(c.series[1].points.back().y, 66908);
  EXPECT_DOUBLE_EQ(c.series[2].points.front().y, 66908);
  EXPECT_DOUBLE_EQ(c.series[2].points.back().y, 66908);
  EXPECT_EQ(c.series[2].name, "FP32 peak 66908 GFLOP/s");
  EXPECT_EQ(c.series[1].points.front().y / c.series[1].points.front().x, 3352) << "the DRAM slope";
}

TEST(RooflineChart, NoneWithoutCountedOperations) {
  EXPECT_FALSE(RooflineChart(Kernel("transpose"), TransposeRun())) << "counted by a version without the roofline";
  report::Run run = PointInPolygonRun();
  for (db::MeasurementRow& row : run.rows) row.measurement.counters_json.clear();
  EXPECT_FALSE(RooflineChart(Kernel("pip"), run));
}

}  // namespace
}  // namespace tuner::report
