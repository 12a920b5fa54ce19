// A guided search's compile threads: jobs run once each, in the order queued; the ones not
// started can be dropped and never run; a job's exception reaches whoever waits for it; the first
// of several jobs to finish can be waited for, and how long each has run is known.
#include "compile/compile_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tuner {
namespace {

// Holds every job until Open(), so that a test knows which jobs have started.
class Gate {
 public:
  void Pass() {
    std::unique_lock<std::mutex> lock(mutex_);
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return open_; });
  }
  void WaitForWaiting(int count) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return waiting_ >= count; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int waiting_ = 0;
  bool open_ = false;
};

TEST(CompileQueue, EveryQueuedJobRunsOnceOnAThreadOfItsOwn) {
  std::vector<std::atomic<int>> runs(50);
  std::atomic<bool> bad_thread{false};
  CompileQueue queue(3, [&](std::size_t key, int thread) {
    if (thread < 0 || thread >= 3) bad_thread = true;
    ++runs[key];
  });
  for (std::size_t k = 50; k-- > 0;) queue.Push(k);
  for (std::size_t k = 0; k < 50; ++k) {
    queue.Wait(k);
    EXPECT_TRUE(queue.Done(k));
  }
  EXPECT_FALSE(bad_thread);
  for (const auto& r : runs) EXPECT_EQ(r, 1);
  EXPECT_EQ(queue.started(), 50u);
  EXPECT_THROW(queue.Push(7), std::logic_error);  // a key is compiled once
  EXPECT_THROW(queue.Wait(99), std::logic_error);
}

TEST(CompileQueue, JobsNotStartedAreDroppedAndNeverRun) {
  Gate gate;
  std::atomic<int> runs{0};
  auto queue = std::make_unique<CompileQueue>(2, [&](std::size_t, int) {
    ++runs;
    gate.Pass();
  });
  for (std::size_t k = 0; k < 6; ++k) queue->Push(k);
  gate.WaitForWaiting(2);  // keys 0 and 1 under way, 2 to 5 queued
  EXPECT_EQ(queue->DropQueued(), 4u);
  EXPECT_EQ(queue->started(), 2u);
  EXPECT_FALSE(queue->Done(0));
  EXPECT_THROW(queue->Wait(4), std::logic_error);  // dropped: nothing to wait for
  gate.Open();
  queue->Wait(0);
  queue->Wait(1);
  queue.reset();
  EXPECT_EQ(runs, 2);
}

TEST(CompileQueue, AJobsExceptionReachesItsWaiterAndTheOthersGoOn) {
  CompileQueue queue(2, [](std::size_t key, int) {
    if (key == 1) throw std::runtime_error("nvrtc crashed");
  });
  for (std::size_t k = 0; k < 3; ++k) queue.Push(k);
  EXPECT_THROW(queue.Wait(1), std::runtime_error);
  queue.Wait(0);
  queue.Wait(2);
}

TEST(CompileQueue, TheFirstOfSeveralJobsToFinishAndHowLongEachRan) {
  Gate gate;
  CompileQueue queue(2, [&](std::size_t key, int) {
    if (key == 0) gate.Pass();  // 0 runs until the gate opens; 1 is done at once
  });
  EXPECT_FALSE(queue.Queued(0));
  EXPECT_EQ(queue.Seconds(0), std::nullopt);  // not started
  queue.Push(0);
  queue.Push(1);
  EXPECT_TRUE(queue.Queued(0));
  EXPECT_EQ(queue.FirstDone({0, 1}), std::optional<std::size_t>(1));
  gate.WaitForWaiting(1);
  EXPECT_EQ(queue.FirstDone({0}, std::chrono::milliseconds(20)), std::nullopt);  // still running
  const double running = *queue.Seconds(0);
  EXPECT_GE(running, 0.015);  // it has run at least as long as the wait above
  gate.Open();
  queue.Wait(0);
  EXPECT_GE(*queue.Seconds(0), running);
  EXPECT_EQ(queue.FirstDone({0, 1}), std::optional<std::size_t>(0));  // both done: the first named
  EXPECT_LT(*queue.Seconds(1), *queue.Seconds(0));
}

TEST(CompileQueue, DestroyedWithJobsQueuedItRunsOnlyThoseUnderWay) {
  std::atomic<int> runs{0};
  {
    CompileQueue queue(1, [&](std::size_t, int) {
      ++runs;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    });
    for (std::size_t k = 0; k < 10; ++k) queue.Push(k);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_LE(runs, 2);
}

}  // namespace
}  // namespace tuner
