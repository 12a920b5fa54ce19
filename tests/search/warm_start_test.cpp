// A warm start from other stored sweeps: the prior and seeds it makes of them, every guided strategy
// evaluating the seeds first, and the Bayesian strategy reaching a shifted landscape's optimum sooner
// than from a cold start.
#include "search/warm_start.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "db_test_util.h"
#include "search/simulation.h"

namespace tuner {
namespace {

// A 2-parameter space of 16 x 16 values, in odometer order.
std::vector<ParamSpec> Params() {
  std::vector<long long> values;
  for (long long v = 0; v < 16; ++v) values.push_back(v);
  return {{"X", values, {}}, {"Y", values, {}}};
}

std::vector<ParamValues> Candidates() {
  std::vector<ParamValues> all;
  for (long long x = 0; x < 16; ++x)
    for (long long y = 0; y < 16; ++y) all.push_back({{"X", x}, {"Y", y}});
  return all;
}

// A smooth landscape with its optimum at (ox, oy), `scale` times as slow everywhere, and a ripple
// that differs between GPUs.
double Time(const ParamValues& p, double ox, double oy, double scale, double ripple) {
  const double dx = static_cast<double>(p[0].second) - ox, dy = static_cast<double>(p[1].second) - oy;
  return scale * (1 + 0.02 * (dx * dx + dy * dy) + ripple * std::sin(static_cast<double>(3 * p[0].second + p[1].second)));
}

db::MeasurementRecord Record(const ParamValues& p, double time_ms, CandidateStatus status = CandidateStatus::kOk) {
  db::MeasurementRecord r = db::testing::SampleMeasurement(0, time_ms);
  r.params_json = ParamsJson(p);
  r.status = status;
  return r;
}

std::vector<db::MeasurementRecord> Sweep(double ox, double oy, double scale, double ripple) {
  std::vector<db::MeasurementRecord> records;
  for (const ParamValues& p : Candidates()) records.push_back(Record(p, Time(p, ox, oy, scale, ripple)));
  return records;
}

std::size_t IndexOf(long long x, long long y) { return static_cast<std::size_t>(x * 16 + y); }

TEST(WarmStart, ThePriorIsEachSweepsTimeOverItsBestAveraged) {
  const std::vector<ParamValues> all = Candidates();
  std::vector<db::MeasurementRecord> a = {Record(all[0], 2.0), Record(all[1], 4.0), Record(all[2], 1.0, CandidateStatus::kWrongResult)};
  std::vector<db::MeasurementRecord> b = {Record(all[0], 30.0), Record(all[1], 10.0),
                                          Record(all[3], 5.0, CandidateStatus::kSkipped)};
  std::vector<db::MeasurementRecord> none_ok = {Record(all[4], 1.0, CandidateStatus::kCompileError)};
  const WarmStart warm = MakeWarmStart(all, {a, b, none_ok}, 2);
  EXPECT_EQ(warm.sweeps, 2u) << "a sweep where nothing passed tells nothing";
  ASSERT_EQ(warm.prior.size(), all.size());
  EXPECT_NEAR(*warm.prior[0], (0 + std::log(3.0)) / 2, 1e-12);
  EXPECT_NEAR(*warm.prior[1], (std::log(2.0) + 0) / 2, 1e-12);
  EXPECT_NEAR(*warm.prior[2], std::log(4.0 / 2.0) + std::log(2.0), 1e-12) << "failed: twice the slowest";
  EXPECT_FALSE(warm.prior[3]) << "skipped is no result";
  EXPECT_FALSE(warm.prior[5]) << "measured by none";
  EXPECT_EQ(warm.seeds, (std::vector<std::size_t>{1, 0})) << "the most promising first, at most 2";
}

TEST(WarmStart, ConfigurationsOfAnotherSizeThatAreNoCandidateHereAreLeftOut) {
  const std::vector<ParamValues> all = Candidates();
  std::vector<db::MeasurementRecord> other = {Record({{"X", 99}, {"Y", 0}}, 0.5), Record(all[7], 1.0)};
  const WarmStart warm = MakeWarmStart(all, {other});
  EXPECT_EQ(warm.seeds, (std::vector<std::size_t>{7}));
  EXPECT_NEAR(*warm.prior[7], std::log(2.0), 1e-12) << "relative to the other sweep's own best";
}

TEST(WarmStart, EveryGuidedStrategyEvaluatesTheSeedsFirstAndBruteForceIgnoresThem) {
  const std::vector<ParamValues> all = Candidates();
  auto warm = std::make_shared<WarmStart>(MakeWarmStart(all, {Sweep(12, 3, 5.0, 0)}, 3));
  ASSERT_EQ(warm->seeds.front(), IndexOf(12, 3));
  for (const char* name : {"random", "annealing", "genetic", "bayesian"}) {
    StrategyOptions options;
    options.name = name;
    options.seed = 7;
    options.warm = warm;
    auto strategy = MakeStrategy(options, all, Params());
    std::vector<Evaluation> history;
    for (std::size_t i = 0; i < warm->seeds.size(); ++i) {
      const auto next = strategy->Next(history);
      ASSERT_TRUE(next) << name;
      EXPECT_EQ(*next, warm->seeds[i]) << name << ": seed " << i;
      history.push_back({*next, true, Time(all[*next], 12, 3, 1.0, 0)});
    }
    const auto after = strategy->Next(history);
    ASSERT_TRUE(after) << name;
    EXPECT_EQ(std::count(warm->seeds.begin(), warm->seeds.end(), *after), 0) << name << ": never twice";
  }
  StrategyOptions brute;
  brute.warm = warm;
  EXPECT_EQ(MakeStrategy(brute, all, Params())->Next({}), 0u) << "brute force keeps enumeration order";
}

TEST(WarmStart, UnderABudgetTheSeedsAreAQuarterOfIt) {
  EXPECT_EQ(WarmSeedQuota(0), kWarmSeeds);
  EXPECT_EQ(WarmSeedQuota(12), 3u);
  EXPECT_EQ(WarmSeedQuota(3), 0u);
  EXPECT_EQ(WarmSeedQuota(1000), kWarmSeeds);
  const std::vector<ParamValues> all = Candidates();
  StrategyOptions options;
  options.name = "random";
  options.max_evaluations = 8;
  options.warm = std::make_shared<WarmStart>(MakeWarmStart(all, {Sweep(12, 3, 5.0, 0)}));
  ASSERT_EQ(options.warm->seeds.size(), kWarmSeeds);
  const auto strategy = MakeStrategy(options, all, Params());
  std::vector<Evaluation> history;
  std::vector<std::size_t> proposed;
  while (const auto next = strategy->Next(history)) {
    proposed.push_back(*next);
    history.push_back({*next, true, 1.0});
  }
  ASSERT_EQ(proposed.size(), 8u);
  EXPECT_EQ(proposed[0], options.warm->seeds[0]);
  EXPECT_EQ(proposed[1], options.warm->seeds[1]);
  for (std::size_t s = 2; s < kWarmSeeds; ++s)
    EXPECT_EQ(std::count(proposed.begin(), proposed.end(), options.warm->seeds[s]), 0)
        << "seed " << s << " is past the quota (a chance draw of it is possible but not with this seed)";
}

TEST(WarmStart, ASeedAlreadyStoredIsNotProposedAgain) {
  const std::vector<ParamValues> all = Candidates();
  StrategyOptions options;
  options.name = "random";
  options.warm = std::make_shared<WarmStart>(MakeWarmStart(all, {Sweep(12, 3, 5.0, 0)}, 2));
  auto strategy = MakeStrategy(options, all, Params());
  const std::vector<Evaluation> stored = {{options.warm->seeds[0], true, 1.0}};
  EXPECT_EQ(strategy->Next(stored), options.warm->seeds[1]);
}

TEST(WarmStart, AWarmStartOfAnotherSpaceIsRefused) {
  StrategyOptions options;
  options.name = "bayesian";
  options.warm = std::make_shared<WarmStart>();
  EXPECT_THROW(MakeStrategy(options, Candidates(), Params()), std::invalid_argument);
}

// This GPU's landscape, its optimum at (ox, oy), to replay.
Landscape Truth(double ox, double oy) {
  Landscape truth;
  truth.candidates = Candidates();
  truth.params = Params();
  for (const ParamValues& p : truth.candidates) truth.time_ms.push_back(Time(p, ox, oy, 1.0, 0.01));
  return truth;
}

// Another GPU's landscape: the optimum one step away, everything 3x slower, its own ripple. From it
// the Bayesian strategy comes within 5% in a handful of evaluations; from a cold start it needs more.
TEST(WarmStart, TheBayesianStrategyGetsThereSoonerFromAnotherGpusSweep) {
  const std::vector<ParamValues> all = Candidates();
  const Landscape truth = Truth(9, 4);
  StrategyOptions cold;
  cold.name = "bayesian";
  StrategyOptions warm = cold;
  warm.warm = std::make_shared<WarmStart>(MakeWarmStart(all, {Sweep(10, 4, 3.0, 0.01)}));
  const StrategySummary c = SimulateStrategy(truth, cold, 20);
  const StrategySummary w = SimulateStrategy(truth, warm, 20);
  EXPECT_EQ(w.reached, 20u);
  ASSERT_TRUE(w.mean_to_target && c.mean_to_target);
  EXPECT_LE(*w.mean_to_target, static_cast<double>(kWarmSeeds)) << "a seed is within 5%";
  EXPECT_LT(*w.mean_to_target, *c.mean_to_target);
}

// `tune`'s default searches with a stopping rule (the expected gain below 0.5%). A warm start whose
// seeds lie far from this GPU's optimum (another GPU's optimum at the other corner) must not stop on
// them: the model believes its stop only after 20 evaluations without a better time, and gets there.
TEST(WarmStart, UnderTheStoppingRuleAWarmSearchGoesOnPastMisleadingSeeds) {
  StrategyOptions options;
  options.name = "bayesian";
  options.min_expected_gain = 0.005;
  options.warm = std::make_shared<WarmStart>(MakeWarmStart(Candidates(), {Sweep(2, 2, 3.0, 0.01)}));
  const StrategySummary s = SimulateStrategy(Truth(12, 12), options, 10);
  EXPECT_EQ(s.reached, 10u);
  EXPECT_GT(s.mean_evaluations, static_cast<double>(kWarmSeeds + 20));
  EXPECT_LT(s.mean_best_ratio, 1.01);
}

// Warm never worse than cold: under tune's default search as `tuner simulate` replays it (a
// 16-candidate first sample, proposals 16 ahead, the stopping rule), a warm start keeps the cold
// start's exploration whole and adds its seeds on top, so whether the other GPU's sweep points at
// this optimum, at the far corner or is this landscape upside down, the warm runs come within 1% as
// often as the cold ones, and end as close to the optimum.
TEST(WarmStart, UnderTheDefaultSearchAWarmReplayIsNeverWorseThanACold) {
  const Landscape truth = Truth(12, 11);
  StrategyOptions cold;
  cold.name = "bayesian";
  cold.min_expected_gain = 0.005;
  cold.patience = 20;
  ReplayShape shape;
  shape.first_sample = 16;
  shape.look_ahead = 16;
  std::vector<db::MeasurementRecord> upside_down = Sweep(12, 11, 1.0, 0.01);
  for (db::MeasurementRecord& r : upside_down) r.time_ms_median = 1 / r.time_ms_median;
  const StrategySummary c = SimulateStrategy(truth, cold, 30, 0.01, {}, {}, shape);
  for (const auto& other : {Sweep(11, 11, 3.0, 0.02), Sweep(2, 2, 3.0, 0.01), upside_down}) {
    StrategyOptions warm = cold;
    warm.warm = std::make_shared<WarmStart>(MakeWarmStart(Candidates(), {other}));
    const StrategySummary w = SimulateStrategy(truth, warm, 30, 0.01, {}, {}, shape);
    EXPECT_GE(w.reached, c.reached) << "seeds " << warm.warm->seeds.front();
    EXPECT_LE(w.mean_best_ratio, c.mean_best_ratio + 1e-9) << "seeds " << warm.warm->seeds.front();
  }
}

}  // namespace
}  // namespace tuner
