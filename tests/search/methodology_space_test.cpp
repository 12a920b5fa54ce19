#include "search/methodology_space.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "methodology_test_space.h"

namespace tuner {
namespace {

// Nine valid candidates, 1 to 9 ms, each evaluation costing 10 ms: the median is 5, the optimum 1.
using testing::kCosts;
using testing::kThreePoints;
using testing::kTimes;

TEST(MethodologySpace, TheTimeRangeRunsBetweenTheCutoffsOfRandomSearch) {
  const MethodologySpace space(kTimes, kCosts, kThreePoints);
  // 0.95: within 1 + 0.05 * 4 = 1.2 only the optimum, 8 of 9 lie above it; the cutoff is the
  // optimum itself, so one fewer: ceil(7 / (10 - 7)) = 3.
  EXPECT_EQ(space.EvaluationsToCutoff(0.95), 3u);
  // 0.01: within 4.96; 5 lie above it: ceil(5 / 5) = 1. 1.0: ceil(8 / 2) = 4 (not one fewer).
  EXPECT_EQ(space.EvaluationsToCutoff(0.01), 1u);
  EXPECT_EQ(space.EvaluationsToCutoff(1.0), 4u);
  EXPECT_EQ(space.TimeRange(), (std::vector<double>{10, 20, 30}));  // evaluations x the median cost
  EXPECT_DOUBLE_EQ(space.Optimum(), 1);
}

TEST(MethodologySpace, RandomSearchIsExpectedAtTheRankOfItsDraws) {
  const MethodologySpace space(kTimes, kCosts, kThreePoints);
  // 10, 20, 30 ms are 1, 2, 3 evaluations, expected at rank round(M * 10 / (M + 1)) of the
  // slowest-first times: 5 (4 ms), round(6.67) = 7 (2 ms), round(7.5) = 8 (to even; 1 ms).
  EXPECT_EQ(space.RandomCurve(), (std::vector<double>{4, 2, 1}));
}

TEST(MethodologySpace, ARangeOfFewerThanTwoEvaluationsIsWidened) {
  // 1 to 5 ms: both cutoffs at one evaluation, so the range starts at none and ends at two.
  const MethodologySpace space({3.0, 5.0, 1.0, 4.0, 2.0}, {10, 10, 10, 10, 10}, kThreePoints);
  EXPECT_EQ(space.TimeRange(), (std::vector<double>{0, 10, 20}));
  EXPECT_THROW(MethodologySpace({2.0, 2.0}, {10, 10}), std::invalid_argument);  // the optimum at once
}

TEST(MethodologySpace, FailedCandidatesAddTheirShareOfCost) {
  // Valid ones cost 10, the failed one 90: 10 + 1/10 x 90 = 19 ms per evaluation, so 30 ms is two
  // evaluations (2 ms expected), not three.
  std::vector<std::optional<double>> times = kTimes;
  std::vector<double> costs = kCosts;
  times.push_back(std::nullopt);
  costs.push_back(90);
  EXPECT_EQ(MethodologySpace(times, costs, kThreePoints).RandomCurve().back(), 2.0);
  EXPECT_DOUBLE_EQ(RoundHalfEven(2.5), 2);
  EXPECT_DOUBLE_EQ(RoundHalfEven(3.5), 4);
  EXPECT_DOUBLE_EQ(RoundHalfEven(-0.5), 0);
}

TEST(MethodologySpace, RefusesASpaceWithoutValidCandidatesOrCosts) {
  EXPECT_THROW(MethodologySpace({std::nullopt}, {10}), std::invalid_argument);
  EXPECT_THROW(MethodologySpace({1.0, 2.0}, {0, 0}), std::invalid_argument);
  EXPECT_THROW(MethodologySpace({1.0, 2.0}, {1}), std::invalid_argument);
}

}  // namespace
}  // namespace tuner
