// The throttle accounting with fake clock readings: which samples are discarded and taken again,
// how often at most, and what is said when nothing can be read. No GPU, no NVML.
#include "measure/throttle_guard.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace tuner {
namespace {

constexpr unsigned long long kSwPowerCap = 0x4;
constexpr unsigned long long kHwThermal = 0x40;
constexpr unsigned long long kIdle = 0x1;
constexpr unsigned long long kApplicationClocks = 0x2;

// Readings handed out in order, the last one repeated; counts them.
struct FakeClocks {
  std::vector<ClockReading> readings;
  std::size_t taken = 0;
  ClockReading Next() { return readings.at(std::min(taken++, readings.size() - 1)); }
};

ThrottleGuard GuardOf(FakeClocks& clocks, int retries = 3) {
  return ThrottleGuard([&clocks] { return clocks.Next(); }, "", retries);
}

TEST(ThrottleGuard, PowerOrThermalReasonsCountOnlyWhenTheyLoweredTheClock) {
  EXPECT_TRUE(LoweredByThrottling({kSwPowerCap, 1500}, 1980));
  EXPECT_TRUE(LoweredByThrottling({kHwThermal | kIdle, 1700}, 1980));
  EXPECT_FALSE(LoweredByThrottling({kSwPowerCap, 1980}, 1980)) << "a reason at the highest clock lowered nothing";
  EXPECT_FALSE(LoweredByThrottling({kIdle | kApplicationClocks, 900}, 1980)) << "idle is no throttling";
  EXPECT_FALSE(LoweredByThrottling({0, 1200}, 1980));
}

TEST(ThrottleGuard, ASteadyClockKeepsEverySampleAndCountsTheReadings) {
  FakeClocks clocks{{{0, 1980}}};
  ThrottleGuard guard = GuardOf(clocks);
  int samples = 0;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(guard.Sample([&] { return ++samples; }), i + 1);
  const ThrottleCount count = guard.TakeCount();
  EXPECT_EQ(count.reads, 10) << "one reading before and one after each sample";
  EXPECT_EQ(count.discarded, 0);
  EXPECT_EQ(count.unavailable, "");
  EXPECT_EQ(guard.TakeCount().reads, 0) << "TakeCount starts the next count";
}

TEST(ThrottleGuard, ASampleThatSawThrottlingIsTakenAgain) {
  // Sample 1: before and after at 1980 MHz. Sample 2: throttled after it, then taken again cleanly.
  FakeClocks clocks{{{0, 1980}, {0, 1980}, {0, 1980}, {kSwPowerCap, 1410}, {0, 1980}, {0, 1980}}};
  ThrottleGuard guard = GuardOf(clocks);
  std::vector<double> times = {1.0, 1.4, 1.0};
  std::size_t next = 0;
  EXPECT_EQ(guard.Sample([&] { return times[next++]; }), 1.0);
  EXPECT_EQ(guard.Sample([&] { return times[next++]; }), 1.0) << "the throttled 1.4 was discarded";
  const ThrottleCount count = guard.TakeCount();
  EXPECT_EQ(count.discarded, 1);
  EXPECT_EQ(count.reads, 6);
}

TEST(ThrottleGuard, RetriesAreBoundedAndTheLastSampleIsKept) {
  FakeClocks clocks{{{0, 1980}, {kHwThermal, 1200}}};  // throttled from the second reading on
  ThrottleGuard guard = GuardOf(clocks, 2);
  int taken = 0;
  EXPECT_EQ(guard.Sample([&] { return ++taken; }), 3) << "the first and two retries; the third is kept";
  EXPECT_EQ(guard.TakeCount().discarded, 2);
}

TEST(ThrottleGuard, WithoutNvmlNothingIsReadOrDiscardedAndTheReasonIsSaid) {
  ThrottleGuard guard(nullptr, "NVML was not found");
  EXPECT_EQ(guard.Sample([] { return 2.5; }), 2.5);
  const ThrottleCount count = guard.TakeCount();
  EXPECT_EQ(count.reads, 0);
  EXPECT_EQ(count.discarded, 0);
  EXPECT_EQ(count.unavailable, "NVML was not found");
}

TEST(ThrottleGuard, AReaderThatFailsIsGivenUpAndSaysWhy) {
  int calls = 0;
  ThrottleGuard guard(
      [&]() -> ClockReading {
        if (++calls > 1) throw std::runtime_error("nvmlDeviceGetClockInfo failed: Unknown Error");
        return {0, 1980};
      },
      "");
  EXPECT_EQ(guard.Sample([] { return 1.0; }), 1.0);
  EXPECT_EQ(guard.Sample([] { return 1.0; }), 1.0);
  const ThrottleCount count = guard.TakeCount();
  EXPECT_EQ(count.reads, 1);
  EXPECT_NE(count.unavailable.find("nvmlDeviceGetClockInfo failed"), std::string::npos);
  EXPECT_EQ(calls, 2) << "not read again once it failed";
}

}  // namespace
}  // namespace tuner
