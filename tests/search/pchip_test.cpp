#include "search/pchip.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tuner {
namespace {

TEST(Pchip, TwoPointsAreAStraightLine) {
  EXPECT_EQ(PchipInterpolate({1, 3}, {2, 1}, {1, 2, 3}), (std::vector<double>{2, 1.5, 1}));
}

TEST(Pchip, MatchesTheSlopesWorkedOutByHand) {
  // Slopes: 1.5 at x=0 (the three-point rule), 0 at x=1 (the data turns flat), 0 at x=2.
  // At 0.5: h00*0 + h10*1*1.5 + h01*1 + h11*1*0 = 0.125*1.5 + 0.5.
  const std::vector<double> v = PchipInterpolate({0, 1, 2}, {0, 1, 1}, {0, 0.5, 1, 1.5, 2});
  EXPECT_DOUBLE_EQ(v[0], 0);
  EXPECT_DOUBLE_EQ(v[1], 0.6875);
  EXPECT_DOUBLE_EQ(v[2], 1);
  EXPECT_DOUBLE_EQ(v[3], 1);  // flat stays flat: no overshoot
  EXPECT_DOUBLE_EQ(v[4], 1);
}

TEST(Pchip, KeepsDecreasingDataDecreasing) {
  const std::vector<double> x = {1, 2, 4, 8, 16}, y = {100, 40, 30, 29, 1};
  std::vector<double> at;
  for (double a = 1; a <= 16; a += 0.25) at.push_back(a);
  const std::vector<double> v = PchipInterpolate(x, y, at);
  for (std::size_t i = 1; i < v.size(); ++i) EXPECT_LE(v[i], v[i - 1]) << at[i];
  EXPECT_DOUBLE_EQ(v.front(), 100);
  EXPECT_DOUBLE_EQ(v.back(), 1);
}

TEST(Pchip, RefusesTooFewOrUnorderedPoints) {
  EXPECT_THROW(PchipInterpolate({1}, {1}, {1}), std::invalid_argument);
  EXPECT_THROW(PchipInterpolate({1, 1}, {1, 2}, {1}), std::invalid_argument);
  EXPECT_THROW(PchipInterpolate({1, 2}, {1, 2}, {3}), std::invalid_argument);
}

}  // namespace
}  // namespace tuner
