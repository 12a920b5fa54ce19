#include "measure/sample_stats.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(SampleStats, MedianMinMaxAndSpread) {
  const SampleStats s = Summarise({5, 1, 3, 2, 4});
  EXPECT_EQ(s.count, 5);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.spread, (4.0 - 2.0) / 3.0);
  EXPECT_DOUBLE_EQ(Summarise({1, 2, 3, 4}).median, 2.5);
}

TEST(SampleStats, EmptyAndSteady) {
  EXPECT_EQ(Summarise({}).count, 0);
  EXPECT_DOUBLE_EQ(Summarise({2, 2, 2}).spread, 0);
}

}  // namespace
}  // namespace tuner
