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
  EXPECT_EQ(choice.patience, kAutoPatience);  // 30, not the Bayesian strategy's 100 on this space
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
  EXPECT_EQ(searched.at("patience"), 30);
  const nlohmann::json shared = ToJson(BruteForceToShare("--gpus"));
  EXPECT_EQ(shared.at("name"), "brute_force");
  EXPECT_EQ(shared.at("reason"), "brute force: --gpus shares out the candidates of a planned strategy only");
  EXPECT_FALSE(shared.contains("brute_force_estimate_s"));
  EXPECT_EQ(ToJson(NamedStrategy("annealing")).at("reason"), "--strategy annealing");
}

}  // namespace
}  // namespace tuner
