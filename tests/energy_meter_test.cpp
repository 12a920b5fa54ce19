#include "measure/energy_meter.h"

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

}  // namespace
}  // namespace tuner
