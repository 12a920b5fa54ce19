// The worker's sampling policy, with a fake sample and a fake clock: no GPU.
#include "measure/sampling_policy.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

using Time = std::chrono::steady_clock::time_point;

// Samples of a fixed time, each advancing a fake clock by `step_ms` of wall time.
struct FakeRun {
  double time_ms = 1;
  double step_ms = 0;
  int taken = 0;
  Time clock{};
  double Sample() {
    ++taken;
    clock += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double, std::milli>(step_ms));
    return time_ms;
  }
};

Samples Take(FakeRun& run, const SamplingStart& start, const SamplingPolicy& policy = {}) {
  return TakeSamples(
      policy, start, [&] { return run.Sample(); }, [&] { return run.clock; });
}

TEST(SamplingPolicy, ASteadyCandidateStopsAtTheMinimum) {
  FakeRun run;
  const Samples s = Take(run, {1, 0, false});
  EXPECT_EQ(s.times_ms.size(), 5u);
  EXPECT_EQ(s.note, "");
}

TEST(SamplingPolicy, ANoisyCandidateIsSampledUntilTheMaximum) {
  FakeRun run;
  int i = 0;
  const Samples s = TakeSamples(
      {}, {1, 0, false}, [&] { return 1.0 + (i++ % 2); }, [&] { return run.clock; });
  EXPECT_EQ(s.times_ms.size(), 200u);
}

TEST(SamplingPolicy, TheTimeCapEndsANoisyCandidatesSamplesAfterTheMinimum) {
  FakeRun run;
  run.step_ms = 100;  // the cap, 300 ms, passes after the fourth sample
  int i = 0;
  const Samples s = TakeSamples(
      {}, {1, 0, false},
      [&] {
        run.Sample();
        return 1.0 + (i++ % 2);
      },
      [&] { return run.clock; });
  EXPECT_EQ(s.times_ms.size(), 5u);  // never fewer than the minimum
}

TEST(SamplingPolicy, TheEstimatePassTimesOneLaunchOrTakesALongCheckedOne) {
  FakeRun run;
  run.time_ms = 0.5;
  Samples s = Take(run, {0.9, 0, true});  // short: the checked launch may be mostly loading
  ASSERT_EQ(s.times_ms.size(), 1u);
  EXPECT_EQ(s.times_ms[0], 0.5);
  EXPECT_EQ(run.taken, 1);
  s = Take(run, {7, 0, true});
  EXPECT_EQ(s.times_ms, std::vector<double>{7});
  EXPECT_EQ(run.taken, 1);
  EXPECT_NE(s.note.find("first pass"), std::string::npos);
}

TEST(SamplingPolicy, AHopelessCheckedLaunchIsItsOnlySample) {
  FakeRun run;
  const Samples s = Take(run, {12, 2, false});  // 6x the best and over 2 ms
  EXPECT_EQ(s.times_ms, std::vector<double>{12});
  EXPECT_EQ(run.taken, 0);
  EXPECT_EQ(s.note, "timed once (the checked launch): 6.0x slower than the best so far");
  EXPECT_EQ(Take(run, {1.5, 0.1, false}).times_ms.size(), 1u);  // far slower but short: sampled, once
  EXPECT_EQ(run.taken, 1);
}

TEST(SamplingPolicy, SlowerCandidatesGetFewSamples) {
  FakeRun run;
  run.time_ms = 2;
  Samples s = Take(run, {2, 1, false});  // 2x the best
  EXPECT_EQ(s.times_ms.size(), 3u);
  EXPECT_EQ(s.note, "sampled briefly: 2.0x slower than the best so far");
  run.time_ms = 4;
  s = Take(run, {1.9, 1, false});  // 4x the best
  EXPECT_EQ(s.times_ms.size(), 1u);
  run.time_ms = 1.2;
  EXPECT_EQ(Take(run, {1.2, 1, false}).times_ms.size(), 5u);  // close to the best: timed fully
}

// back_to_back and graph: a batch of about a millisecond, from the first isolated launch's time.
TEST(BatchLaunches, ThePowerOfTwoNearestAMillisecondBetweenOneAndTheCap) {
  const SamplingPolicy policy;
  EXPECT_EQ(BatchLaunches(policy, 0.004), 256);   // a 4 us kernel: 250 launches make 1 ms, 256 the nearest
  EXPECT_EQ(BatchLaunches(policy, 0.0025), 512);  // 2.5 us: 400, nearer 512 than 256 on a log scale
  EXPECT_EQ(BatchLaunches(policy, 0.3), 4);       // 0.3 ms: 3.3 launches
  EXPECT_EQ(BatchLaunches(policy, 0.8), 1);       // rounds to one launch
  EXPECT_EQ(BatchLaunches(policy, 5.0), 1);       // a long kernel is never batched below one launch
  EXPECT_EQ(BatchLaunches(policy, 0.0002), 512);  // 0.2 us: the cap
  EXPECT_EQ(BatchLaunches(policy, 0), 512) << "an event that reads 0 gives the cap";
  EXPECT_EQ(BatchLaunches(policy, -1), 512);
}

TEST(BatchLaunches, AKernelsTimeVaryingByAFewPercentKeepsItsBatch) {
  const SamplingPolicy policy;
  for (double us : {1.8, 1.85, 1.9, 2.0, 2.1}) EXPECT_EQ(BatchLaunches(policy, us * 1e-3), 512) << us << " us";
  for (double us : {6.5, 6.8, 7.0, 7.3}) EXPECT_EQ(BatchLaunches(policy, us * 1e-3), 128) << us << " us";
}

TEST(BatchLaunches, FollowTheTargetAndTheCapOfThePolicy) {
  SamplingPolicy policy;
  policy.batch_ms = 2.0;
  policy.max_batch_launches = 64;
  EXPECT_EQ(BatchLaunches(policy, 0.1), 16);  // 20 launches: 16 the nearest power of two
  EXPECT_EQ(BatchLaunches(policy, 0.001), 64);
}

}  // namespace
}  // namespace tuner
