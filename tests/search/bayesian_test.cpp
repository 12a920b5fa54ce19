// Bayesian optimisation against the other strategies on synthetic landscapes: fewer evaluations
// to the optimum of a smooth one, failures avoided, a stop of its own, and spaces larger than the
// pool it scores. Seeds, budgets, resumes and repeats are covered with every strategy in
// strategy_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <set>

#include "search/candidate_graph.h"
#include "search/search_strategy.h"
#include "synthetic_spaces.h"

namespace tuner {
namespace {

using testing::Bowl;
using testing::BowlSpace;
using testing::MakeSpace;
using testing::Point;
using testing::RunStrategy;
using testing::Space;
using testing::TimeFunction;

// Mean evaluations until the optimum of `time`, over seeds 0..runs-1; a run that never gets there
// counts as the whole space.
double MeanEvaluationsToOptimum(const std::string& name, const Space& space, const TimeFunction& time, int runs) {
  std::size_t optimum = 0;
  for (std::size_t c = 0; c < space.candidates.size(); ++c)
    if (time(Point(space.candidates[c])).value_or(1e300) < time(Point(space.candidates[optimum])).value_or(1e300))
      optimum = c;
  double total = 0;
  for (int seed = 0; seed < runs; ++seed) {
    const std::vector<std::size_t> order = RunStrategy(name, space, time, static_cast<unsigned long long>(seed));
    const auto it = std::find(order.begin(), order.end(), optimum);
    total +=
        it == order.end() ? static_cast<double>(space.candidates.size()) : static_cast<double>(it - order.begin() + 1);
  }
  return total / runs;
}

TEST(Bayesian, FindsTheOptimumOfASmoothLandscapeSoonerThanAnnealingAndGenetic) {
  const Space& space = BowlSpace();
  const double bayesian = MeanEvaluationsToOptimum("bayesian", space, Bowl, 10);
  EXPECT_LT(bayesian, MeanEvaluationsToOptimum("annealing", space, Bowl, 10));
  EXPECT_LT(bayesian, MeanEvaluationsToOptimum("genetic", space, Bowl, 10));
  EXPECT_LT(bayesian, 60);  // of 2304 candidates
}

// The polish's neighbourhood of the first of `order` (in a flat landscape, the best throughout):
// the candidates that differ from it in one parameter, or in two by one value each. How many of
// them `order` did not evaluate within its first `prefix` evaluations.
std::size_t NeighbourhoodLeft(const Space& space, const std::vector<std::size_t>& order, std::size_t prefix) {
  const std::set<std::size_t> seen(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(prefix));
  const auto rank = [&](const std::vector<long long>& p, std::size_t d) {
    const std::vector<long long>& values = space.params[d].values;
    return std::find(values.begin(), values.end(), p[d]) - values.begin();
  };
  const std::vector<long long> first = Point(space.candidates[order.front()]);
  std::size_t left = 0;
  for (std::size_t c = 0; c < space.candidates.size(); ++c) {
    const std::vector<long long> p = Point(space.candidates[c]);
    std::size_t differ = 0, one_step = 0;
    for (std::size_t d = 0; d < p.size(); ++d) {
      differ += p[d] != first[d];
      one_step += std::abs(rank(p, d) - rank(first, d)) == 1;
    }
    left += (differ == 1 || (differ == 2 && one_step == 2)) && !seen.count(c);
  }
  return left;
}

TEST(Bayesian, StopsAfterAHundredEvaluationsWithoutABetterTimeAndPolishesTheBest) {
  const TimeFunction flat = [](const std::vector<long long>&) { return 1.0; };
  // The first is the best (none is better), then 100 no better, then the candidates of its
  // neighbourhood not seen yet.
  const std::vector<std::size_t> order = RunStrategy("bayesian", BowlSpace(), flat, 3);
  EXPECT_EQ(order.size(), 101u + NeighbourhoodLeft(BowlSpace(), order, 101));
  EXPECT_EQ(NeighbourhoodLeft(BowlSpace(), order, order.size()), 0u);
  const Space small = MakeSpace({{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5}});  // 40: patience 20, its minimum
  const std::vector<std::size_t> small_order = RunStrategy("bayesian", small, flat, 3);
  EXPECT_EQ(small_order.size(), 21u + NeighbourhoodLeft(small, small_order, 21));
}

TEST(Bayesian, APatienceGivenStopsItSooner) {
  const TimeFunction flat = [](const std::vector<long long>&) { return 1.0; };
  StrategyOptions options{"bayesian", 0, 3, nullptr};
  options.patience = 30;
  const auto strategy = MakeStrategy(options, BowlSpace().candidates, BowlSpace().params);
  const std::vector<std::size_t> order = testing::Drive(*strategy, BowlSpace(), flat);
  EXPECT_EQ(order.size(), 31u + NeighbourhoodLeft(BowlSpace(), order, 31));  // not 101 and the polish
}

TEST(Bayesian, LearnsWhereCandidatesFailAndAvoidsThem) {
  // Half the space fails (P0 >= 4); the rest is the bowl, its optimum among the passing half.
  const TimeFunction half_fails = [](const std::vector<long long>& p) -> std::optional<double> {
    if (p[0] >= 4) return std::nullopt;
    return Bowl({p[0] + 3, p[1], p[2], p[3]});
  };
  const Space& space = BowlSpace();
  std::size_t failed = 0, proposed = 0;
  for (unsigned long long seed = 0; seed < 5; ++seed) {
    const std::vector<std::size_t> order = RunStrategy("bayesian", space, half_fails, seed, 60);
    for (std::size_t i = 10; i < order.size(); ++i, ++proposed)  // after the random start
      failed += !half_fails(Point(space.candidates[order[i]])).has_value();
  }
  // A quarter: the optimum lies at the edge of the failures, and with a length scale per parameter
  // the model extrapolates the failures along P0 less far (41 of 250 with one scale for all, 51 with
  // its own; half of them fail at random).
  EXPECT_LT(static_cast<double>(failed), 0.25 * static_cast<double>(proposed)) << failed << " of " << proposed;
}

TEST(Bayesian, ASpaceLargerThanItsPoolIsSearchedThroughASeededSample) {
  std::vector<long long> values(30);
  std::iota(values.begin(), values.end(), 0);
  const Space space = MakeSpace({values, values, values});  // 27,000 candidates: more than the 20,000 scored
  const TimeFunction bowl = [](const std::vector<long long>& p) -> std::optional<double> {
    return 1 + std::pow(p[0] - 20.0, 2) + std::pow(p[1] - 7.0, 2) + std::pow(p[2] - 13.0, 2);
  };
  const std::vector<std::size_t> order = RunStrategy("bayesian", space, bowl, 5, 40);
  ASSERT_EQ(order.size(), 40u);
  EXPECT_EQ(std::set<std::size_t>(order.begin(), order.end()).size(), order.size());
  EXPECT_EQ(order, RunStrategy("bayesian", space, bowl, 5, 40));
  double best = 1e300;
  for (const std::size_t c : order) best = std::min(best, *bowl(Point(space.candidates[c])));
  EXPECT_LT(best, 20);  // within a few steps of the optimum (1) after 40 of 27,000
}

// Runs the Bayesian strategy on the bowl with a stopping rule; returns its proposals.
std::vector<std::size_t> RunWithGain(double min_expected_gain, unsigned long long seed) {
  StrategyOptions options{"bayesian", 0, seed, nullptr};
  options.min_expected_gain = min_expected_gain;
  const auto strategy = MakeStrategy(options, BowlSpace().candidates, BowlSpace().params);
  return testing::Drive(*strategy, BowlSpace(), Bowl);
}

double BestOf(const std::vector<std::size_t>& order) {
  double best = 1e300;
  for (const std::size_t c : order) best = std::min(best, *Bowl(Point(BowlSpace().candidates[c])));
  return best;
}

TEST(Bayesian, StopsOnceTheExpectedGainIsBelowItsThresholdWithinOnePercentOfTheOptimum) {
  std::size_t with_rule = 0, without = 0;
  for (unsigned long long seed = 0; seed < 10; ++seed) {
    const std::vector<std::size_t> stopped = RunWithGain(0.005, seed);
    EXPECT_LE(BestOf(stopped), 1.01) << "seed " << seed;  // the optimum is 1 ms
    with_rule += stopped.size();
    without += RunWithGain(0, seed).size();
  }
  EXPECT_LT(with_rule, without);  // the rule stops it before its patience runs out
}

TEST(Bayesian, AGreaterThresholdStopsSoonerButNeverBeforeTwentyEvaluationsWithoutABetterTime) {
  // Expecting no candidate to be 50% faster is true as soon as the model proposes: the rule then
  // waits for 20 evaluations without a better time before the polish through the fastest ends it.
  const std::vector<std::size_t> at_once = RunWithGain(0.5, 1);
  std::size_t last_better = 0, longest_without = 0;
  double best = 1e300;
  for (std::size_t i = 0; i < at_once.size(); ++i) {
    if (const double t = *Bowl(Point(BowlSpace().candidates[at_once[i]])); t < best) best = t, last_better = i;
    longest_without = std::max(longest_without, i - last_better);
  }
  EXPECT_GE(longest_without, 20u);
  EXPECT_LE(RunWithGain(0.05, 1).size(), RunWithGain(0.005, 1).size());
}

TEST(Bayesian, ProposalsAskedForAheadOfTheirResultsSpreadOut) {
  // After 20 results, eight proposals in a row without results: a pending candidate damps its
  // surroundings, so no two are one step apart (without the damping 3 to 9 pairs are, over these seeds).
  for (unsigned long long seed = 0; seed < 6; ++seed) {
    const auto strategy = MakeStrategy({"bayesian", 0, seed, nullptr}, BowlSpace().candidates, BowlSpace().params);
    std::vector<Evaluation> history;
    for (std::size_t k = 0; k < 20; ++k) {
      const std::size_t c = *strategy->Next(history);
      history.push_back({c, true, *Bowl(Point(BowlSpace().candidates[c]))});
    }
    std::vector<std::vector<long long>> batch;
    for (std::size_t k = 0; k < 8; ++k) batch.push_back(Point(BowlSpace().candidates[*strategy->Next(history)]));
    for (std::size_t a = 0; a < batch.size(); ++a)
      for (std::size_t b = a + 1; b < batch.size(); ++b) {
        long long distance = 0;
        for (std::size_t d = 0; d < batch[a].size(); ++d) distance += std::llabs(batch[a][d] - batch[b][d]);
        EXPECT_GT(distance, 1) << "seed " << seed << ": proposals " << a << " and " << b;
      }
  }
}

}  // namespace
}  // namespace tuner

namespace tuner {
namespace {

// When the model stops, the search ends on a local optimum: no neighbour of the best it found is
// left unevaluated, and none is faster. On the bowl that is its optimum, whatever the random start.
TEST(Bayesian, EndsOnALocalOptimumOnceTheModelStops) {
  const CandidateGraph graph(BowlSpace().candidates, BowlSpace().params);
  for (unsigned long long seed = 0; seed < 5; ++seed) {
    const std::vector<std::size_t> order = RunWithGain(0.5, seed);  // the model stops at its first look
    const std::size_t best = *std::min_element(order.begin(), order.end(), [](std::size_t a, std::size_t b) {
      return *Bowl(Point(BowlSpace().candidates[a])) < *Bowl(Point(BowlSpace().candidates[b]));
    });
    const std::set<std::size_t> seen(order.begin(), order.end());
    for (const std::size_t n : graph.Neighbours(best)) EXPECT_TRUE(seen.count(n)) << "seed " << seed;
    EXPECT_DOUBLE_EQ(*Bowl(Point(BowlSpace().candidates[best])), 1.0) << "seed " << seed;
  }
}

}  // namespace
}  // namespace tuner
