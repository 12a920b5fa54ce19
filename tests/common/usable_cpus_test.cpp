// The CPUs a process may run on: all of them by default, and only those its affinity mask allows
// (as a Slurm task's --cpus-per-task or taskset leaves it).
#include "common/usable_cpus.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <thread>

namespace tuner {
namespace {

TEST(UsableCpus, AtLeastOneAndNoMoreThanTheMachineHas) {
  EXPECT_GE(UsableCpus(), 1);
  EXPECT_LE(UsableCpus(), static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

TEST(UsableCpus, FollowsTheAffinityMask) {
  cpu_set_t saved;
  ASSERT_EQ(sched_getaffinity(0, sizeof(saved), &saved), 0);
  int first = 0;
  while (!CPU_ISSET(first, &saved)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  EXPECT_EQ(UsableCpus(), 1);
  sched_setaffinity(0, sizeof(saved), &saved);
}

}  // namespace
}  // namespace tuner
