#include "search/isotonic_regression.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tuner {
namespace {

TEST(DecreasingIsotonicFit, PoolsAdjacentViolatorsAndInterpolatesBetweenPoints) {
  const DecreasingIsotonicFit fit({1, 2, 3, 4}, {5, 3, 4, 1});  // 3 then 4 rises: pooled to 3.5
  EXPECT_DOUBLE_EQ(fit.Predict(1), 5);
  EXPECT_DOUBLE_EQ(fit.Predict(2), 3.5);
  EXPECT_DOUBLE_EQ(fit.Predict(3), 3.5);
  EXPECT_DOUBLE_EQ(fit.Predict(3.5), 2.25);
  EXPECT_DOUBLE_EQ(fit.Predict(1.5), 4.25);
  EXPECT_DOUBLE_EQ(fit.Predict(0), 5);  // clipped at the ends
  EXPECT_DOUBLE_EQ(fit.Predict(10), 1);
}

TEST(DecreasingIsotonicFit, PointsOfOneXArePooledFirstInAnyOrder) {
  const DecreasingIsotonicFit fit({2, 1, 1}, {0, 4, 2});
  EXPECT_DOUBLE_EQ(fit.Predict(1), 3);
  EXPECT_DOUBLE_EQ(fit.Predict(2), 0);
  const DecreasingIsotonicFit rising({1, 2, 3}, {1, 2, 6});  // all pooled: the mean
  EXPECT_DOUBLE_EQ(rising.Predict(1), 3);
  EXPECT_DOUBLE_EQ(rising.Predict(3), 3);
}

TEST(DecreasingIsotonicFit, RefusesNoPoints) {
  EXPECT_THROW(DecreasingIsotonicFit({}, {}), std::invalid_argument);
  EXPECT_THROW(DecreasingIsotonicFit({1}, {1, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace tuner
