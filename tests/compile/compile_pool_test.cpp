// The compile threads: every job once, taken in order, each thread its own slot; a job's
// exception reaches the caller who waits for it; stopping mid-way lets the running jobs finish.
#include "compile/compile_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tuner {
namespace {

TEST(CompilePool, EveryJobRunsOnceAndEachThreadTakesItsJobsInOrder) {
  constexpr std::size_t kJobs = 200;
  constexpr int kThreads = 4;
  std::vector<std::vector<std::size_t>> by_slot(kThreads);  // each touched by its own thread only
  std::vector<int> finished(kJobs, 0);
  std::atomic<bool> bad_slot{false};
  {
    CompilePool pool(kJobs, kThreads, [&](std::size_t i, int slot) {
      if (slot < 0 || slot >= kThreads) {
        bad_slot = true;
        return;
      }
      by_slot[slot].push_back(i);
      std::this_thread::sleep_for(std::chrono::microseconds(50 * (i % 7)));
      finished[i] += 1;
    });
    for (std::size_t i = 0; i < kJobs; ++i) {
      pool.WaitFor(i);
      EXPECT_EQ(finished[i], 1) << i;  // done when WaitFor returns
    }
  }
  ASSERT_FALSE(bad_slot);
  std::vector<int> runs(kJobs, 0);
  for (const auto& jobs : by_slot) {
    for (std::size_t k = 1; k < jobs.size(); ++k) EXPECT_LT(jobs[k - 1], jobs[k]);
    for (std::size_t i : jobs) runs[i] += 1;
  }
  for (std::size_t i = 0; i < kJobs; ++i) EXPECT_EQ(runs[i], 1) << i;
}

TEST(CompilePool, OneThreadRunsTheJobsInExactOrder) {
  std::vector<std::size_t> order;
  {
    CompilePool pool(50, 1, [&](std::size_t i, int slot) {
      EXPECT_EQ(slot, 0);
      order.push_back(i);
    });
    pool.WaitFor(49);
  }
  ASSERT_EQ(order.size(), 50u);
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i);
}

TEST(CompilePool, AJobsExceptionIsRethrownToItsWaiterAndTheOthersGoOn) {
  std::atomic<int> ran{0};
  CompilePool pool(10, 3, [&](std::size_t i, int) {
    ++ran;
    if (i == 3) throw std::runtime_error("job three failed");
  });
  for (std::size_t i = 0; i < 10; ++i) {
    if (i == 3) {
      try {
        pool.WaitFor(i);
        ADD_FAILURE() << "expected job three's exception";
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "job three failed");
      }
    } else {
      EXPECT_NO_THROW(pool.WaitFor(i)) << i;
    }
  }
  EXPECT_EQ(ran, 10);
  EXPECT_THROW(pool.WaitFor(3), std::runtime_error);  // again: the error stays the job's
}

TEST(CompilePool, StoppingMidWayFinishesTheRunningJobsAndStartsNoOther) {
  constexpr std::size_t kJobs = 10000;
  std::atomic<int> started{0}, finished{0};
  const auto begin = std::chrono::steady_clock::now();
  {
    CompilePool pool(kJobs, 2, [&](std::size_t, int) {
      ++started;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      ++finished;
    });
    pool.WaitFor(5);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  EXPECT_EQ(started.load(), finished.load());  // nothing runs after the pool is gone
  EXPECT_GE(started.load(), 6);
  EXPECT_LT(started.load(), static_cast<int>(kJobs / 2));  // all of them would take 10 s
  EXPECT_LT(seconds, 5.0);
}

TEST(CompilePool, AWaitWithALimitReturnsWhileTheJobRunsAndCountsWhatFinished) {
  std::atomic<bool> release{false};
  CompilePool pool(2, 1, [&](std::size_t i, int) {
    while (i == 1 && !release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  pool.WaitFor(0);
  EXPECT_FALSE(pool.WaitFor(1, std::chrono::milliseconds(20)));
  EXPECT_EQ(pool.Finished(), 1u);
  release = true;
  EXPECT_TRUE(pool.WaitFor(1, std::chrono::milliseconds(10000)));
  EXPECT_EQ(pool.Finished(), 2u);
}

}  // namespace
}  // namespace tuner
