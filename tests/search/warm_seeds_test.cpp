// A warm start's seeds on top of a cold search: the strategy proposes what it proposes from a cold
// start, the seeds come first and besides, a seed it proposes itself is not measured twice, and a
// budget holds.
#include "search/warm_seeds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "synthetic_spaces.h"

namespace tuner {
namespace {

using testing::Bowl;
using testing::BowlSpace;
using testing::Drive;

std::vector<std::size_t> Without(std::vector<std::size_t> order, const std::vector<std::size_t>& left_out) {
  order.erase(std::remove_if(order.begin(), order.end(),
                             [&](std::size_t c) { return std::count(left_out.begin(), left_out.end(), c) > 0; }),
              order.end());
  return order;
}

// Seeds from another GPU's sweep: here the bowl's far corner, misleading.
std::shared_ptr<const WarmStart> FarSeeds() {
  auto warm = std::make_shared<WarmStart>();
  warm->sweeps = 1;
  warm->prior.assign(BowlSpace().candidates.size(), 0.0);
  warm->seeds = {0, 1, 2, 3, 4, 5, 6};  // more than the quota: its first kWarmSeeds
  return warm;
}

TEST(WarmSeeds, EveryStrategySearchesAsFromAColdStartWithTheSeedsOnTop) {
  for (const std::string name : {"random", "annealing", "genetic", "bayesian"}) {
    StrategyOptions cold;
    cold.name = name;
    cold.seed = 5;
    StrategyOptions warm = cold;
    warm.warm = FarSeeds();
    const auto cold_strategy = MakeStrategy(cold, BowlSpace().candidates, BowlSpace().params);
    const auto warm_strategy = MakeStrategy(warm, BowlSpace().candidates, BowlSpace().params);
    const std::vector<std::size_t> cold_order = Drive(*cold_strategy, BowlSpace(), Bowl);
    const std::vector<std::size_t> warm_order = Drive(*warm_strategy, BowlSpace(), Bowl);
    const std::vector<std::size_t> seeds(warm.warm->seeds.begin(), warm.warm->seeds.begin() + kWarmSeeds);
    ASSERT_GE(warm_order.size(), seeds.size()) << name;
    EXPECT_EQ(std::vector<std::size_t>(warm_order.begin(), warm_order.begin() + kWarmSeeds), seeds) << name;
    EXPECT_EQ(Without(warm_order, seeds), Without(cold_order, seeds)) << name << ": the cold search, unchanged";
    EXPECT_LE(warm_order.size(), cold_order.size() + kWarmSeeds) << name;
  }
}

TEST(WarmSeeds, UnderABudgetTheSeedsAreAQuarterOfItAndTheBudgetHolds) {
  StrategyOptions options;
  options.name = "bayesian";
  options.max_evaluations = 12;
  options.warm = FarSeeds();
  const auto strategy = MakeStrategy(options, BowlSpace().candidates, BowlSpace().params);
  const std::vector<std::size_t> order = Drive(*strategy, BowlSpace(), Bowl);
  EXPECT_EQ(order.size(), 12u);
  EXPECT_EQ(std::vector<std::size_t>(order.begin(), order.begin() + 3), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(std::count(order.begin(), order.end(), 3u), 0) << "past the quota of 12 / 4";
}

// A seed the cold search proposes itself, while the seed's result is still to come (proposals
// asked for ahead of results): never proposed twice, and its result reaches the search when in.
TEST(WarmSeeds, ASeedTheColdSearchProposesIsNotMeasuredTwice) {
  StrategyOptions in_order;  // brute force: 0, 1, 2, ...
  const auto strategy = WithWarmSeeds(MakeStrategy(in_order, BowlSpace().candidates, BowlSpace().params), {2});
  std::vector<Evaluation> history;
  std::vector<std::size_t> proposed;
  for (int ahead = 0; ahead < 4; ++ahead) proposed.push_back(*strategy->Next(history));
  EXPECT_EQ(proposed, (std::vector<std::size_t>{2, 0, 1, 3}));
  for (const std::size_t c : proposed) history.push_back({c, true, 1.0});
  while (const auto next = strategy->Next(history)) {
    proposed.push_back(*next);
    history.push_back({*next, true, 1.0});
  }
  EXPECT_EQ(proposed.size(), BowlSpace().candidates.size()) << "each candidate once";
}

TEST(WarmSeeds, ASeedStoredAlreadyIsNotProposed) {
  StrategyOptions options;
  options.name = "random";
  options.warm = FarSeeds();
  const auto strategy = MakeStrategy(options, BowlSpace().candidates, BowlSpace().params);
  EXPECT_EQ(strategy->Next({{0, true, 3.0}}), 1u);
}

}  // namespace
}  // namespace tuner
