#include "profilers/energy_meter.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(EnergyMeter, BatchesOfAboutAMillisecond) {
  EXPECT_EQ(LaunchesPerBatch(0.01), 100);
  EXPECT_EQ(LaunchesPerBatch(0.3), 4);
  EXPECT_EQ(LaunchesPerBatch(1.0), 1);
  EXPECT_EQ(LaunchesPerBatch(25.0), 1);
  EXPECT_EQ(LaunchesPerBatch(0), 1) << "an unknown time";
  EXPECT_EQ(LaunchesPerBatch(1e-9), 100000) << "capped";
}

TEST(EnergyMeter, TheWindowRunsFiftyBatchesAtLeast) {
  EXPECT_DOUBLE_EQ(EnergyWindowMs(1), 50) << "the floor";
  EXPECT_DOUBLE_EQ(EnergyWindowMs(30), 1500) << "fifty batches of a long kernel";
  EXPECT_DOUBLE_EQ(EnergyWindowMs(1000), 10000) << "the ceiling";
}

TEST(EnergyMeter, AboutFourMillisecondsStayQueued) {
  EXPECT_EQ(BatchesQueued(1.0), 4u) << "batches of a millisecond";
  EXPECT_EQ(BatchesQueued(2.5), 2u);
  EXPECT_EQ(BatchesQueued(30), 1u) << "one long batch still has the next behind it";
  EXPECT_EQ(BatchesQueued(0.01), kMostBatchesQueued - 1) << "capped by the events that track them";
  EXPECT_EQ(BatchesQueued(0), 1u) << "an unknown time";
}

}  // namespace
}  // namespace tuner
