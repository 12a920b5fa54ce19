#include "occupancy/occupancy_curve.h"

#include <gtest/gtest.h>

#include "occupancy/arch_table.h"

namespace tuner {
namespace {

TEST(OccupancyCurve, RegistersFromZeroTo255WithTheKernelsValue) {
  const std::vector<CurvePoint> curve = OccupancyCurve(ArchLimits("sm_90"), {256, 48, 4096}, VaryInput::kRegisters);
  ASSERT_EQ(curve.size(), 256u);
  EXPECT_EQ(curve.front().value, 0);
  EXPECT_EQ(curve.back().value, 255);
  EXPECT_EQ(curve[48].result.blocks_per_sm, 5);
  EXPECT_EQ(curve[40].result.blocks_per_sm, 6);
  for (std::size_t i = 1; i < curve.size(); ++i)
    EXPECT_LE(curve[i].result.blocks_per_sm, curve[i - 1].result.blocks_per_sm);
}

TEST(OccupancyCurve, ThreadsAndSharedMemoryIncludeTheKernelsOwnValue) {
  const DeviceLimits d = ArchLimits("sm_90");
  const std::vector<CurvePoint> threads = OccupancyCurve(d, {100, 32, 4000}, VaryInput::kThreads);
  EXPECT_EQ(threads.size(), 33u);  // 32, 64, ..., 1024 and 100
  const std::vector<CurvePoint> smem = OccupancyCurve(d, {256, 32, 4000}, VaryInput::kSharedMemory);
  EXPECT_EQ(smem.back().value, 227 * 1024);
  bool found = false;
  for (const CurvePoint& p : smem) found = found || p.value == 4000;
  EXPECT_TRUE(found);
}

TEST(OccupancyCurve, SuggestionsComeFromSearchingTheCalculator) {
  const DeviceLimits d = ArchLimits("sm_90");
  const std::vector<Suggestion> s = SuggestImprovements(d, {256, 48, 4096});
  ASSERT_GE(s.size(), 2u);
  EXPECT_EQ(s[0].input, VaryInput::kRegisters);
  EXPECT_EQ(s[0].value, 40);
  EXPECT_EQ(s[0].blocks_per_sm, 6);
  EXPECT_EQ(s[0].text, "≤ 40 registers per thread gives 6 blocks per SM (75% occupancy)");
  EXPECT_EQ(s[1].value, 32);
  EXPECT_EQ(s[1].blocks_per_sm, 8);
  EXPECT_EQ(ComputeOccupancy(d, {256, 41, 4096}).blocks_per_sm, 5);  // 40 is the largest that works
  EXPECT_TRUE(SuggestImprovements(d, {256, 32, 4096}).empty());      // already 100%
}

TEST(OccupancyCurve, SharedMemorySuggestionIsTheLargestThatFits) {
  const DeviceLimits d = ArchLimits("sm_90");
  const std::vector<Suggestion> s = SuggestImprovements(d, {256, 32, 48 * 1024});
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s[0].input, VaryInput::kSharedMemory);
  const int now = ComputeOccupancy(d, {256, 32, 48 * 1024}).blocks_per_sm;
  EXPECT_GT(ComputeOccupancy(d, {256, 32, std::size_t(s[0].value)}).blocks_per_sm, now);
  EXPECT_EQ(ComputeOccupancy(d, {256, 32, std::size_t(s[0].value + 1)}).blocks_per_sm, now);
}

TEST(OccupancyCurve, ChartMarksTheKernel) {
  const DeviceLimits d = ArchLimits("sm_90");
  const KernelResources k{256, 48, 4096};
  const Chart chart = CurveChart(d, k, VaryInput::kRegisters, OccupancyCurve(d, k, VaryInput::kRegisters));
  ASSERT_EQ(chart.markers.size(), 1u);
  EXPECT_DOUBLE_EQ(chart.markers[0].at.x, 48);
  EXPECT_DOUBLE_EQ(chart.markers[0].at.y, 62.5);
  EXPECT_EQ(chart.series.at(0).points.size(), 256u);
}

}  // namespace
}  // namespace tuner
