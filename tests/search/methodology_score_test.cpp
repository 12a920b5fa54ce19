#include "search/methodology_score.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

namespace tuner {
namespace {

// methodology_space_test's space: times 3, 5, 1, 4, 2 ms (candidates 0..4), each costing 10 ms;
// three points of time, 10, 15 and 20 ms, where random search is expected at 2, 1.5 and 1 ms.
const std::vector<std::optional<double>> kTimes = {3.0, 5.0, 1.0, 4.0, 2.0};
const std::vector<double> kCosts = {10, 10, 10, 10, 10};
const MethodologySettings kThreePoints{0.96, 0.01, 3};

TEST(MethodologyScore, TheOptimumFirstScoresOne) {
  EXPECT_DOUBLE_EQ(MethodologyScore(kTimes, kCosts, {{2, 0, 1}, {2, 4}}, kThreePoints), 1.0);
}

TEST(MethodologyScore, HalfWayFromRandomToTheOptimumByHand) {
  // 2 ms first, then the optimum: ranks 1 at 10 ms and 0 at 20 ms, fitted 1, 0.5 (to even: 0), 0,
  // so 2, 1, 1 ms; against random's 2, 1.5, 1: (2 - 2) / (1 - 2) = 0 and (1 - 1.5) / (1 - 1.5) = 1;
  // at 20 ms random has the optimum too, which leaves nothing to score.
  EXPECT_DOUBLE_EQ(MethodologyScore(kTimes, kCosts, {{4, 2}}, kThreePoints), 0.5);
  const MethodologySpace space(kTimes, kCosts, kThreePoints);
  EXPECT_EQ(StrategyCurve(space, kTimes, kCosts, {{4, 2}}), (std::vector<double>{2, 1, 1}));
}

TEST(MethodologyScore, SlowestFirstIsWorseThanRandomByHand) {
  // 5 ms, then 4: ranks 4 and 3, fitted 4, 3.5 (to even: 4), 3: 5, 5, 4 ms. (5 - 2) / (1 - 2) = -3,
  // (5 - 1.5) / (1 - 1.5) = -7: the mean is -5.
  EXPECT_DOUBLE_EQ(MethodologyScore(kTimes, kCosts, {{1, 3, 0, 4, 2}}, kThreePoints), -5.0);
}

TEST(MethodologyScore, AFailedEvaluationCostsTimeAndFindsNothing) {
  // A failed candidate costing 10 ms before the optimum: at 10 ms the run has nothing yet, and the
  // fit's first point (20 ms, the optimum) stands for the whole range.
  const std::vector<std::optional<double>> times = {3.0, 5.0, 1.0, 4.0, 2.0, std::nullopt};
  const std::vector<double> costs = {10, 10, 10, 10, 10, 10};
  const MethodologySpace space(times, costs, kThreePoints);
  EXPECT_EQ(StrategyCurve(space, times, costs, {{5, 2}}), (std::vector<double>{1, 1, 1}));
  EXPECT_THROW(MethodologyScore(times, costs, {{5}}, kThreePoints), std::invalid_argument);
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
  const double score = MethodologyScore(times, costs, runs, {0.96, 0.01, 1000});
  EXPECT_NEAR(score, 0.0, 0.1);
  // The same orders with the optimum moved first score far better.
  const std::size_t optimum = static_cast<std::size_t>(std::min_element(times.begin(), times.end()) - times.begin());
  for (CandidateOrder& run : runs) std::iter_swap(run.begin(), std::find(run.begin(), run.end(), optimum));
  EXPECT_DOUBLE_EQ(MethodologyScore(times, costs, runs, {0.96, 0.01, 1000}), 1.0);
}

}  // namespace
}  // namespace tuner
