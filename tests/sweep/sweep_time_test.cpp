#include "sweep/sweep_time.h"

#include <gtest/gtest.h>

#include <thread>

namespace tuner {
namespace {

using Part = SweepClock::Part;

double Sum(const SweepTime& t) { return t.compile_s + t.gpu_s + t.waiting_s + t.overhead_s; }

TEST(SweepTime, ThePartsAddUpToTheWallTime) {
  SweepClock clock;
  {
    auto compile = clock.Time(Part::kCompile);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  {
    auto waiting = clock.Time(Part::kWaiting);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the tuner's own work
  const SweepTime t = clock.Split();
  EXPECT_GE(t.compile_s, 0.030);
  EXPECT_GE(t.waiting_s, 0.010);
  EXPECT_DOUBLE_EQ(t.gpu_s, 0);
  EXPECT_GE(t.overhead_s, 0.020);
  EXPECT_NEAR(Sum(t), t.wall_s, 1e-12);
}

TEST(SweepTime, AWorkerCallIsGpuWorkAsTheWorkerMeasuredItAndTheRestWaiting) {
  SweepClock clock;
  clock.AddWorkerCall(2.0, 0.0);  // no reply: a hang until its deadline, or a crash
  clock.AddWorkerCall(1.0, 1.5);  // the worker's clock ran ahead of ours: never more than the call
  const SweepTime t = clock.Split();
  EXPECT_DOUBLE_EQ(t.gpu_s, 1.0);
  EXPECT_DOUBLE_EQ(t.waiting_s, 2.0);
}

TEST(SweepTime, TheWallTimeIsNeverLessThanThePartsSoOverheadIsNeverNegative) {
  SweepClock clock;
  clock.Add(Part::kGpu, 100);  // more than has passed
  const SweepTime t = clock.Split();
  EXPECT_DOUBLE_EQ(t.wall_s, 100);
  EXPECT_DOUBLE_EQ(t.overhead_s, 0);
  EXPECT_EQ(t.BoundBy(), "gpu");
}

TEST(SweepTime, CompileWorkFromManyThreadsIsSummedApartFromTheParts) {
  SweepClock clock;
  clock.SetCompileThreads(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      for (int k = 0; k < 1000; ++k) clock.Add(Part::kCompileWork, 0.001);
    });
  for (std::thread& t : threads) t.join();
  const SweepTime t = clock.Split();
  EXPECT_NEAR(t.compile_threads_s, 4.0, 1e-6);
  EXPECT_EQ(t.compile_threads, 4);
  EXPECT_DOUBLE_EQ(t.compile_s, 0);  // the measuring thread never waited for them
  EXPECT_LT(t.wall_s, 4.0);
}

TEST(SweepTime, BoundByNamesTheLargestPart) {
  SweepTime t;
  t.compile_s = 5, t.gpu_s = 3, t.waiting_s = 1, t.overhead_s = 0.5, t.wall_s = 9.5;
  EXPECT_EQ(t.BoundBy(), "compile");
  t.gpu_s = 6;
  EXPECT_EQ(t.BoundBy(), "gpu");
  t.waiting_s = 7;
  EXPECT_EQ(t.BoundBy(), "waiting");
  t.overhead_s = 8;
  EXPECT_EQ(t.BoundBy(), "overhead");
}

TEST(SweepTime, JsonHasEveryPartTheBoundAndTheCompileThreads) {
  SweepTime t;
  t.wall_s = 10, t.compile_s = 6, t.gpu_s = 3, t.waiting_s = 0.5, t.overhead_s = 0.5;
  t.compile_threads_s = 40, t.compile_threads = 8;
  const nlohmann::json j = ToJson(t);
  EXPECT_EQ(j.at("wall_s"), 10);
  EXPECT_EQ(j.at("compile_s"), 6);
  EXPECT_EQ(j.at("gpu_s"), 3);
  EXPECT_EQ(j.at("waiting_s"), 0.5);
  EXPECT_EQ(j.at("overhead_s"), 0.5);
  EXPECT_EQ(j.at("bound_by"), "compile");
  EXPECT_EQ(j.at("compile_threads_s"), 40);
  EXPECT_EQ(j.at("compile_threads"), 8);
}

TEST(SweepTime, TheSummaryLineGivesEachPartWithItsShareAndTheVerdict) {
  SweepTime t;
  t.wall_s = 10, t.compile_s = 1, t.gpu_s = 7.5, t.waiting_s = 0.5, t.overhead_s = 1;
  t.compile_threads_s = 12, t.compile_threads = 16;
  EXPECT_EQ(Describe(t),
            "time: 10.0 s: compile 1.0 s (10%), GPU work 7.5 s (75%), waiting 0.5 s (5%), overhead 1.0 s (10%); "
            "GPU-bound; the compiles took 12.0 s on 16 threads");
  t.compile_s = 8, t.gpu_s = 0.5;
  EXPECT_NE(Describe(t).find("; compile-bound;"), std::string::npos);
  t.compile_s = 0, t.overhead_s = 9;
  EXPECT_NE(Describe(t).find("; mostly overhead;"), std::string::npos);
}

}  // namespace
}  // namespace tuner
