#include "search/methodology_space.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tuner {
namespace {

// Five valid candidates, 1 to 5 ms, each evaluation costing 10 ms: the median is 3, the optimum 1.
const std::vector<std::optional<double>> kTimes = {3.0, 5.0, 1.0, 4.0, 2.0};
const std::vector<double> kCosts = {10, 10, 10, 10, 10};

TEST(MethodologySpace, TheTimeRangeRunsBetweenTheCutoffsOfRandomSearch) {
  const MethodologySpace space(kTimes, kCosts, {0.96, 0.01, 3});
  // 0.96: within 1 + 0.04 * 2 = 1.08, only the optimum; 4 of 5 lie above it: ceil(4 / (6 - 4)) = 2.
  EXPECT_EQ(space.EvaluationsToCutoff(0.96), 2u);
  // 0.01: within 2.98; 3 lie above it: ceil(3 / 3) = 1.
  EXPECT_EQ(space.EvaluationsToCutoff(0.01), 1u);
  EXPECT_EQ(space.TimeRange(), (std::vector<double>{10, 15, 20}));  // evaluations x the median cost
  EXPECT_DOUBLE_EQ(space.Optimum(), 1);
}

TEST(MethodologySpace, RandomSearchIsExpectedAtTheRankOfItsDraws) {
  const MethodologySpace space(kTimes, kCosts, {0.96, 0.01, 3});
  // 10, 15, 20 ms are 1, 1.5 (to even: 2) and 2 evaluations; one draw is expected at rank
  // round(1 * 6 / 2) = 3 of the slowest-first times (2 ms), two at round(2 * 6 / 3) = 4 (1 ms);
  // smoothed between the first draws of each count: a line from 2 to 1.
  EXPECT_EQ(space.RandomCurve(), (std::vector<double>{2, 1.5, 1}));
}

TEST(MethodologySpace, FailedCandidatesAddTheirShareOfCost) {
  // Valid ones cost 10, the failed one 40; mean per evaluation 10 + 1/3 * 40 = 23.3: 20 ms is one
  // evaluation, not two.
  const MethodologySpace space({1.0, 2.0, std::nullopt}, {10, 10, 40}, {0.5, 0.01, 2});
  EXPECT_EQ(space.RandomCurve().size(), 2u);
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
