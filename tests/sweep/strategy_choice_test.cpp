// --strategy auto's choice from a brute-force sweep's estimated cost: a small or cached space is
// measured whole, a large one whose compiles take seconds is searched, and the line on stderr says
// which, how long brute force would take and how to have it anyway.
#include "sweep/strategy_choice.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

// `candidates` to measure; a sample of 16 of which `cached` were in the cubin cache and the rest
// took `compile_s` each, on `threads` compile threads.
BruteForceCost Cost(std::size_t candidates, std::size_t cached, double compile_s, int threads) {
  BruteForceCost cost;
  cost.candidates = candidates;
  cost.sampled = 16;
  cost.sample_cached = cached;
  cost.sample_compile_s = compile_s * static_cast<double>(16 - cached);
  cost.compile_threads = threads;
  return cost;
}

TEST(StrategyChoice, ASmallSpaceIsMeasuredWhole) {
  const StrategyChoice choice = ChooseStrategy(Cost(200, 0, 1.0, 16));  // 12.5 s of compiles, 4 s of GPU
  EXPECT_EQ(choice.strategy, "brute_force");
  EXPECT_NEAR(*choice.brute_force_s, 200 * 1.0 / 16 + 200 * kGpuFloorS, 1e-9);
  EXPECT_EQ(choice.reason,
            "200 candidates: brute force about 17s here; measuring all (--strategy bayesian searches instead)");
  EXPECT_EQ(choice.min_expected_gain, 0);
  EXPECT_EQ(choice.patience, 0u);
}

TEST(StrategyChoice, ALargeSpaceOfSlowCompilesIsSearchedAndTheMessageSaysSo) {
  const StrategyChoice choice = ChooseStrategy(Cost(4362, 0, 3.0, 16));  // 818 s of compiles, 87 s of GPU
  EXPECT_EQ(choice.strategy, "bayesian");
  EXPECT_NEAR(*choice.brute_force_s, 4362 * 3.0 / 16 + 4362 * kGpuFloorS, 1e-9);
  EXPECT_EQ(choice.reason,
            "4,362 candidates: brute force about 15m 05s here; searching instead (stops when the expected gain is "
            "below 0.5%); --strategy brute_force measures all");
  EXPECT_DOUBLE_EQ(choice.min_expected_gain, kAutoMinExpectedGain);
  EXPECT_EQ(choice.patience, kAutoPatience);  // 20, not the Bayesian strategy's 100 on this space
}

TEST(StrategyChoice, CachedCompilesCostNothing) {
  // The same space with every sampled compile in the cache: only the GPU's floor is left.
  EXPECT_EQ(ChooseStrategy(Cost(4362, 16, 3.0, 16)).strategy, "brute_force");
  // Half of them cached: half the compile time.
  EXPECT_NEAR(Cost(4362, 8, 3.0, 16).CompileSeconds(), 4362 * 0.5 * 3.0 / 16, 1e-9);
  // More compile threads, less time; the threshold is where the choice turns.
  EXPECT_EQ(ChooseStrategy(Cost(1000, 0, 1.0, 16)).strategy, "brute_force");  // 62.5 + 20 s
  EXPECT_EQ(ChooseStrategy(Cost(1000, 0, 1.0, 4)).strategy, "bayesian");      // 250 + 20 s
  EXPECT_EQ(ChooseStrategy(Cost(1000, 0, 1.0, 16), 60).strategy, "bayesian");
}

TEST(StrategyChoice, AReplayEstimatesFromEveryCandidatesStoredCost) {
  // 4,000 candidates of 1.5 s each on 8 threads: 750 s of compiles, 80 s of GPU floor.
  const BruteForceCost slow = StoredBruteForceCost(std::vector<double>(4000, 1500.0), 8);
  EXPECT_NEAR(slow.Seconds(), 4000 * 1.5 / 8 + 4000 * kGpuFloorS, 1e-6);
  EXPECT_EQ(ChooseStrategy(slow).strategy, "bayesian");
  // 22 quick ones: measured whole.
  EXPECT_EQ(ChooseStrategy(StoredBruteForceCost(std::vector<double>(22, 300.0), 2)).strategy, "brute_force");
  // Costs the store does not know (0) leave the GPU's floor alone.
  EXPECT_NEAR(StoredBruteForceCost(std::vector<double>(1000, 0.0), 4).Seconds(), 1000 * kGpuFloorS, 1e-9);
}

// The sample's compiles still running make the estimate a lower bound: enough to choose a search
// (no need to wait for the slowest compile), never enough to choose brute force.
TEST(StrategyChoice, CompilesStillRunningSettleOnlyASearch) {
  BruteForceCost cost = Cost(4362, 0, 0, 16);
  cost.sample_compile_s = 0;
  cost.sample_running = 16;
  cost.running_s = 0.05;  // 4362 x 0.05 / 16 = 13.6 s of compiles, 87 s of GPU: not yet above 120 s
  EXPECT_FALSE(cost.Settled());
  cost.running_s = 0.5;  // 136 s of compiles at least
  EXPECT_TRUE(cost.Settled());
  const StrategyChoice choice = ChooseStrategy(cost);
  EXPECT_EQ(choice.strategy, "bayesian");
  EXPECT_TRUE(choice.at_least);
  EXPECT_EQ(choice.reason.rfind("4,362 candidates: brute force at least 3m 44s here; searching instead", 0), 0u)
      << choice.reason;
  EXPECT_EQ(ToJson(choice).at("brute_force_estimate_is_lower_bound"), true);
  // A small space: however long the running compiles have run, it waits for them all.
  BruteForceCost small = Cost(200, 0, 0, 16);
  small.sample_running = 4;
  small.running_s = 0.5;
  EXPECT_FALSE(small.Settled());
  small.sample_running = 0;
  EXPECT_TRUE(small.Settled());
  EXPECT_FALSE(ToJson(ChooseStrategy(small)).contains("brute_force_estimate_is_lower_bound"));
}

// A replay's wait for the estimate: a large space settles at the poll after the bound passes the
// threshold, a small one once the slowest sampled compile is done.
TEST(StrategyChoice, AReplayWaitsForTheEstimateAsTuneDoes) {
  const std::vector<double> sample(16, 2.0);
  // 4362 x t / 16 + 87.2 s > 120 s from t = 0.121 s: the poll at 0.2 s.
  EXPECT_NEAR(SettlesAfterS(sample, 4362, 16), 0.2, 1e-9);
  EXPECT_NEAR(SettlesAfterS(sample, 200, 16), 2.0, 1e-9);
  std::vector<double> one_slow(16, 0.3);
  one_slow[5] = 20;
  EXPECT_NEAR(SettlesAfterS(one_slow, 200, 16), 20.0, 1e-9);
  // Fewer threads than compiles: a queued compile counts nothing until it starts.
  EXPECT_NEAR(SettlesAfterS(std::vector<double>(4, 1.0), 100, 2), 2.0, 1e-9);
}

TEST(StrategyChoice, NothingSampledIsTheGpusShareAlone) {
  BruteForceCost none;
  none.candidates = 0;
  EXPECT_EQ(none.Seconds(), 0);
  EXPECT_EQ(ChooseStrategy(none).strategy, "brute_force");
}

TEST(StrategyChoice, TheSampleIsOnePerCompileThreadWithinBounds) {
  EXPECT_EQ(EstimateSampleSize(0), 4u);
  EXPECT_EQ(EstimateSampleSize(2), 4u);
  EXPECT_EQ(EstimateSampleSize(12), 12u);
  EXPECT_EQ(EstimateSampleSize(128), 16u);
}

TEST(StrategyChoice, JsonSaysWhatRanAndWhy) {
  const nlohmann::json searched = ToJson(ChooseStrategy(Cost(4362, 0, 3.0, 16)));
  EXPECT_EQ(searched.at("name"), "bayesian");
  EXPECT_NE(searched.at("reason").get<std::string>().find("searching instead"), std::string::npos);
  EXPECT_GT(searched.at("brute_force_estimate_s").get<double>(), 120);
  EXPECT_DOUBLE_EQ(searched.at("min_expected_gain").get<double>(), 0.005);
  EXPECT_EQ(searched.at("patience"), 20);
  const nlohmann::json shared = ToJson(BruteForceToShare("--gpus"));
  EXPECT_EQ(shared.at("name"), "brute_force");
  EXPECT_EQ(shared.at("reason"), "brute force: --gpus shares out the candidates of a planned strategy only");
  EXPECT_FALSE(shared.contains("brute_force_estimate_s"));
  EXPECT_EQ(ToJson(NamedStrategy("annealing")).at("reason"), "--strategy annealing");
}

}  // namespace
}  // namespace tuner
