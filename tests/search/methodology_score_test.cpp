#include "search/methodology_score.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

#include "methodology_test_space.h"

namespace tuner {
namespace {

// methodology_space_test's space: times 5, 9, 1, 7, 3, 8, 2, 6, 4 ms (candidates 0..8), each
// costing 10 ms; three points of time, 10, 20 and 30 ms, where random search is expected at 4, 2
// and 1 ms (at 30 ms it has the optimum: nothing to score there).
using testing::kCosts;
using testing::kThreePoints;
using testing::kTimes;
constexpr std::size_t kOneMs = 2, kTwoMs = 6, kNineMs = 1, kEightMs = 5, kSevenMs = 3;

TEST(MethodologyScore, TheOptimumFirstScoresOne) {
  EXPECT_DOUBLE_EQ(MethodologyScore(kTimes, kCosts, {{kOneMs, 0, 1}, {kOneMs, kTwoMs}}, kThreePoints), 1.0);
}

TEST(MethodologyScore, CloseToTheOptimumFirstByHand) {
  // 2 ms first, then the optimum: ranks 1 at 10 ms and 0 at 20 ms, so 2, 1, 1 ms; against random's
  // 4, 2, 1: (2 - 4) / (1 - 4) = 2/3 and (1 - 2) / (1 - 2) = 1, a mean of 5/6.
  EXPECT_DOUBLE_EQ(MethodologyScore(kTimes, kCosts, {{kTwoMs, kOneMs}}, kThreePoints), 5.0 / 6);
  const MethodologySpace space(kTimes, kCosts, kThreePoints);
  EXPECT_EQ(StrategyCurve(space, kTimes, kCosts, {{kTwoMs, kOneMs}}), (std::vector<double>{2, 1, 1}));
}

TEST(MethodologyScore, SlowestFirstIsWorseThanRandomByHand) {
  // 9, 8, 7 ms: (9 - 4) / (1 - 4) = -5/3 and (8 - 2) / (1 - 2) = -6, a mean of -23/6.
  EXPECT_DOUBLE_EQ(MethodologyScore(kTimes, kCosts, {{kNineMs, kEightMs, kSevenMs}}, kThreePoints), -23.0 / 6);
}

TEST(MethodologyScore, AFailedEvaluationCostsTimeAndFindsNothing) {
  // A failed candidate costing 10 ms before the optimum: the run's one point is the optimum at
  // 20 ms, which the fit holds over the whole range.
  std::vector<std::optional<double>> times = kTimes;
  std::vector<double> costs = kCosts;
  times.push_back(std::nullopt);
  costs.push_back(10);
  const MethodologySpace space(times, costs, kThreePoints);
  EXPECT_EQ(StrategyCurve(space, times, costs, {{9, kOneMs}}), (std::vector<double>{1, 1, 1}));
  EXPECT_THROW(MethodologyScore(times, costs, {{9}}, kThreePoints), std::invalid_argument);
}

TEST(MethodologyScore, PastTheFirstRunEndAfterTheMedianTheCurveIsHeld) {
  // Five points, 10 to 30 ms. Three runs find 2 ms (rank 1) at once and end at 10 ms; one finds
  // 9 ms, then 2 ms (ends at 20); one 9, 8, then the optimum (ends at 30). Pooled: ranks 3.8 at
  // 10 ms, 4 at 20 (so both 27/7), 0 at 30; at 25 ms half-way, 1.93. Rounded: 4, 4, 4, 2, 0, or 5, 5,
  // 5, 3, 1 ms. The runs end at 10, 10, 10, 20 and 30: past the first end after the median (20 ms)
  // the curve keeps its value at 25 ms, so 30 ms shows 3 ms rather than the optimum.
  const MethodologySettings five_points{0.95, 0.01, 5};
  const MethodologySpace space(kTimes, kCosts, five_points);
  ASSERT_EQ(space.TimeRange(), (std::vector<double>{10, 15, 20, 25, 30}));
  const std::vector<CandidateOrder> runs = {
      {kTwoMs}, {kTwoMs}, {kTwoMs}, {kNineMs, kTwoMs}, {kNineMs, kEightMs, kOneMs}};
  EXPECT_EQ(StrategyCurve(space, kTimes, kCosts, runs), (std::vector<double>{5, 5, 5, 3, 3}));
}

TEST(MethodologyScore, RandomOrdersScoreAboutZero) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> time(1.0, 100.0);
  std::vector<std::optional<double>> times;
  std::vector<double> costs;
  for (int c = 0; c < 400; ++c) {
    times.push_back(time(random));
    costs.push_back(50);
  }
  std::vector<CandidateOrder> runs(300, CandidateOrder(400));
  for (CandidateOrder& run : runs) {
    std::iota(run.begin(), run.end(), 0);
    std::shuffle(run.begin(), run.end(), random);
  }
  const double score = MethodologyScore(times, costs, runs, {0.95, 0.01, 1000});
  EXPECT_NEAR(score, 0.0, 0.1);
  // The same orders with the optimum moved first score far better.
  const std::size_t optimum = static_cast<std::size_t>(std::min_element(times.begin(), times.end()) - times.begin());
  for (CandidateOrder& run : runs) std::iter_swap(run.begin(), std::find(run.begin(), run.end(), optimum));
  EXPECT_DOUBLE_EQ(MethodologyScore(times, costs, runs, {0.95, 0.01, 1000}), 1.0);
}

}  // namespace
}  // namespace tuner
