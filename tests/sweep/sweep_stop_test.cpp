// Why a sweep stops: Ctrl-C or another GPU's failure, told apart.
#include "sweep/sweep_stop.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(SweepStop, AFailedGpuStopsTheSweepsOfItsCommandWithoutPressingCtrlC) {
  SweepStop stop, other_command;
  EXPECT_EQ(stop.Reason(), StopReason::kNone);
  stop.GpuFailed();
  EXPECT_EQ(stop.Reason(), StopReason::kGpuFailed);
  EXPECT_TRUE(stop.Requested());
  EXPECT_FALSE(g_sweep_interrupted);
  EXPECT_FALSE(other_command.Requested());
}

TEST(SweepStop, CtrlCStopsEverySweepAndIsTheReasonGiven) {
  SweepStop stop, failed;
  failed.GpuFailed();
  g_sweep_interrupted = true;
  EXPECT_EQ(stop.Reason(), StopReason::kInterrupted);
  EXPECT_EQ(failed.Reason(), StopReason::kInterrupted);
  g_sweep_interrupted = false;
}

}  // namespace
}  // namespace tuner
