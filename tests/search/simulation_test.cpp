// Replaying stored sweeps: landscapes from records, the counts per strategy, and `tuner simulate`
// through the built binary on a temporary database filled through Store.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db/query/store.h"
#include "db_test_util.h"
#include "search/simulation.h"
#include "template/problem_size.h"
#include "template/search_space.h"
#include "template/template_library.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::RunTuner;

const TemplateSpec& Transpose() {
  static const TemplateSpec spec = LoadTemplateLibrary(TemplateSearchDirs({})).Find("transpose");
  return spec;
}

std::vector<ParamValues> TransposeCandidates() {
  return EnumerateCandidates(Transpose(), ParseProblemSize(Transpose(), "8192x8192"));
}

long long Value(const ParamValues& params, const std::string& name) {
  for (const auto& [n, v] : params)
    if (n == name) return v;
  return -1;
}

// Fastest (1.0 ms) at VARIANT 1, TILE 64, ROWS 4, PAD 1, and no other candidate within 5%; the
// naive variant with TILE 16 and ROWS 16 does not compile.
db::MeasurementRecord Synthetic(const ParamValues& params) {
  db::MeasurementRecord r = db::testing::SampleMeasurement(0, 1.0);
  r.params_json = ParamsJson(params);
  const long long variant = Value(params, "VARIANT"), tile = Value(params, "TILE"), rows = Value(params, "ROWS");
  if (variant == 0 && tile == 16 && rows == 16) {
    r.status = CandidateStatus::kCompileError;
    return r;
  }
  r.time_ms_median = 1.0 + 0.5 * (variant == 0) + 0.1 * std::abs(std::log2(static_cast<double>(tile)) - 6) +
                     0.08 * std::abs(std::log2(static_cast<double>(rows)) - 2) +
                     0.2 * (variant == 1 && Value(params, "PAD") == 0);
  return r;
}

std::size_t OptimumPosition() {  // 1-based, in enumeration order
  const std::vector<ParamValues> all = TransposeCandidates();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (ParamsJson(all[i]) == R"({"VARIANT":1,"TILE":64,"ROWS":4,"PAD":1})") return i + 1;
  return 0;
}

std::vector<db::MeasurementRecord> CompleteRecords() {
  std::vector<db::MeasurementRecord> records;
  for (const ParamValues& c : TransposeCandidates()) records.push_back(Synthetic(c));
  return records;
}

// A complete sweep on GPU-1111 and, when asked, one missing a candidate on GPU-2222.
std::string MakeDatabase(const TempDir& dir, bool complete = true, bool partial_second_gpu = false) {
  const std::string path = dir.File("sim.db");
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const auto templ = store.EnsureTemplate({"transpose", Transpose().hash, ""});
  auto fill = [&](const db::GpuRecord& gpu, std::size_t leave_out) {
    const auto sweep = store.StartSweep(store.EnsureGpu(gpu), templ, db::testing::SampleSweep("8192x8192"));
    std::vector<db::MeasurementRecord> records = CompleteRecords();
    records.resize(records.size() - leave_out);
    for (const db::MeasurementRecord& r : records) store.AddMeasurement(sweep, r);
  };
  fill(db::testing::SampleGpu(), complete ? 0 : 1);
  if (partial_second_gpu) fill(db::testing::SampleGpu("GPU-2222", "NVIDIA H200"), 3);
  return path;
}

TEST(Landscape, FromCompleteRecordsKeepsEnumerationOrder) {
  const Landscape l = LandscapeFromRecords(TransposeCandidates(), Transpose().params, CompleteRecords());
  ASSERT_EQ(l.candidates.size(), TransposeCandidates().size());
  EXPECT_EQ(l.OkCount(), l.candidates.size() - 1);
  ASSERT_TRUE(l.Optimum());
  EXPECT_EQ(*l.Optimum() + 1, OptimumPosition());
  EXPECT_DOUBLE_EQ(*l.time_ms[*l.Optimum()], 1.0);
}

TEST(Landscape, MissingOrSkippedCandidatesMakeItIncomplete) {
  std::vector<db::MeasurementRecord> records = CompleteRecords();
  records[3].status = CandidateStatus::kSkipped;
  EXPECT_THROW(LandscapeFromRecords(TransposeCandidates(), Transpose().params, records), IncompleteSweepError);
  records.erase(records.begin() + 3);
  EXPECT_THROW(LandscapeFromRecords(TransposeCandidates(), Transpose().params, records), IncompleteSweepError);
}

TEST(Landscape, WithoutTheTemplateTheStoredCandidatesAreTheSpace) {
  const Landscape l = LandscapeFromRecordsOnly(CompleteRecords());
  EXPECT_EQ(l.candidates.size(), TransposeCandidates().size());
  ASSERT_EQ(l.params.size(), 4u);
  EXPECT_EQ(l.params[1].name, "TILE");
  EXPECT_EQ(l.params[1].values, (std::vector<long long>{16, 32, 64}));
  EXPECT_DOUBLE_EQ(*l.time_ms[*l.Optimum()], 1.0);
  EXPECT_EQ(ParamsJson(l.candidates.front()), R"({"VARIANT":0,"TILE":16,"ROWS":4,"PAD":0})");
  EXPECT_EQ(ParamsJson(l.candidates.back()), R"({"VARIANT":1,"TILE":64,"ROWS":16,"PAD":1})");
}

TEST(Simulation, BruteForceReachesTheOptimumAtItsPositionEveryRun) {
  const Landscape l = LandscapeFromRecords(TransposeCandidates(), Transpose().params, CompleteRecords());
  const StrategySummary s = SimulateStrategy(l, {"brute_force", 0, 0, nullptr}, 5);
  EXPECT_EQ(s.reached, 5u);
  EXPECT_DOUBLE_EQ(*s.median_to_target, static_cast<double>(OptimumPosition()));
  EXPECT_DOUBLE_EQ(s.mean_evaluations, static_cast<double>(l.candidates.size()));
  EXPECT_DOUBLE_EQ(s.mean_best_ratio, 1.0);
}

TEST(Simulation, RandomNeedsAboutHalfTheSpaceForOneGoodCandidate) {
  const Landscape l = LandscapeFromRecords(TransposeCandidates(), Transpose().params, CompleteRecords());
  const StrategySummary s = SimulateStrategy(l, {"random", 0, 100, nullptr}, 400);
  const double expected = (static_cast<double>(l.candidates.size()) + 1) / 2;  // (n + 1) / (k + 1), k = 1
  EXPECT_EQ(s.reached, 400u);
  EXPECT_NEAR(*s.mean_to_target, expected, 1.5);
}

TEST(Simulation, BudgetLimitsHowOftenTheTargetIsReached) {
  const Landscape l = LandscapeFromRecords(TransposeCandidates(), Transpose().params, CompleteRecords());
  const StrategySummary s = SimulateStrategy(l, {"random", 3, 0, nullptr}, 200);
  EXPECT_DOUBLE_EQ(s.mean_evaluations, 3.0);
  EXPECT_GT(s.reached, 0u);
  EXPECT_LT(s.reached, 100u);
  EXPECT_LE(*s.max_to_target, 3u);
}

// tune --strategy auto's shape: its sample first (search/first_sample.h), then the strategy, which
// never proposes a sampled candidate again; proposals made ahead of results are all evaluated.
TEST(Simulation, ARandomSampleComesFirstAndIsNotProposedAgain) {
  const Landscape l = LandscapeFromRecords(TransposeCandidates(), Transpose().params, CompleteRecords());
  const SimulatedRun run = SimulateRun(l, {"brute_force", 0, 7, nullptr}, 0, {5, 1});
  ASSERT_EQ(run.order.size(), l.candidates.size());
  EXPECT_EQ(std::set<std::size_t>(run.order.begin(), run.order.end()).size(), l.candidates.size());
  EXPECT_NE(std::vector<std::size_t>(run.order.begin(), run.order.begin() + 5),
            (std::vector<std::size_t>{0, 1, 2, 3, 4}));  // drawn, not the first five
  EXPECT_EQ(run.order, SimulateRun(l, {"brute_force", 0, 7, nullptr}, 0, {5, 1}).order);  // seeded
}

TEST(Simulation, ALookAheadKeepsEveryProposalAndTheBudget) {
  const Landscape l = LandscapeFromRecords(TransposeCandidates(), Transpose().params, CompleteRecords());
  EXPECT_EQ(SimulateRun(l, {"brute_force", 0, 0, nullptr}, 0, {0, 8}).order,
            SimulateRun(l, {"brute_force", 0, 0, nullptr}, 0).order);  // a planned order does not change
  const SimulatedRun budgeted = SimulateRun(l, {"bayesian", 20, 3, nullptr}, 0, {0, 8});
  EXPECT_EQ(budgeted.evaluations, 20u);
  EXPECT_EQ(std::set<std::size_t>(budgeted.order.begin(), budgeted.order.end()).size(), 20u);
}

// Timed as tune runs a guided search: candidate 0 compiles for 5 s, the others for 0.1 s on four
// threads, and the GPU measures those compiled meanwhile.
TEST(Simulation, ATimedReplayMeasuresWhicheverProposalCompiledFirst) {
  Landscape l = LandscapeFromRecords(TransposeCandidates(), Transpose().params, CompleteRecords());
  l.compile_ms.assign(l.candidates.size(), 100.0);
  l.compile_ms[0] = 5000;
  l.cost_ms = l.compile_ms;  // no GPU time but the floor
  ReplayShape timed;
  timed.look_ahead = 4;
  timed.compile_threads = 4;
  timed.gpu_floor_s = 0.02;
  const SimulatedRun untimed_run = SimulateRun(l, {"brute_force", 0, 0, nullptr}, 0, {0, 4});
  EXPECT_EQ(untimed_run.order.front(), 0u);
  EXPECT_EQ(untimed_run.seconds, 0);
  // Under a budget every proposal is measured; without one, what has not compiled once the strategy
  // stopped is not waited for.
  const SimulatedRun run = SimulateRun(l, {"brute_force", l.candidates.size(), 0, nullptr}, 0, timed);
  ASSERT_EQ(run.order.size(), l.candidates.size());
  EXPECT_LT(SimulateRun(l, {"brute_force", 0, 0, nullptr}, 0, timed).order.size(), l.candidates.size());
  EXPECT_EQ(std::vector<std::size_t>(run.order.begin(), run.order.begin() + 3), (std::vector<std::size_t>{1, 2, 3}));
  const auto zero_at = std::find(run.order.begin(), run.order.end(), 0u) - run.order.begin();
  EXPECT_GT(zero_at, 3);  // measured once compiled, after others compiled later
  EXPECT_GT(run.seconds, 5.0);
  // The search starts once the estimate settled: its first result no sooner.
  timed.first_sample = 2;
  timed.search_starts_s = [](const std::vector<std::size_t>& sample) {
    EXPECT_EQ(sample.size(), 2u);
    return 3.0;
  };
  const SimulatedRun started_late = SimulateRun(l, {"bayesian", 0, 0, nullptr}, 1e9, timed);
  ASSERT_TRUE(started_late.seconds_to_target.has_value());
  EXPECT_NEAR(*started_late.seconds_to_target, 3.02, 1e-9);
}

TEST(SimulateCommand, AutoAsTuneSearchesAndATargetOfOnePercent) {
  TempDir dir;
  const auto r = RunTuner("simulate transpose --strategy auto,random --within 1 --runs 3 --json --db " +
                          MakeDatabase(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(doc["tolerance"].get<double>(), 0.01);
  const auto& sweep = doc["sweeps"][0];
  EXPECT_EQ(sweep["within_1pct"], 1);
  EXPECT_EQ(sweep["strategies"][0]["strategy"], "auto");
  EXPECT_GE(sweep["strategies"][0]["evaluations_mean"].get<double>(), 16.0);  // its sample at least
  EXPECT_TRUE(sweep["strategies"][1].contains("evaluations_to_within_1pct"));
}

TEST(SimulateCommand, JsonPerStrategy) {
  TempDir dir;
  const auto r =
      RunTuner("simulate transpose --size 8192x8192 --runs 10 --seed 3 --json --db " + MakeDatabase(dir, true, true));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("GPU-2222"), std::string::npos) << "the incomplete sweep is named";
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["kernel"], "transpose");
  EXPECT_EQ(doc["runs"], 10);
  EXPECT_EQ(doc["seed"], 3);
  ASSERT_EQ(doc["sweeps"].size(), 1u);
  const auto& sweep = doc["sweeps"][0];
  EXPECT_EQ(sweep["gpu"]["uuid"], "GPU-1111");
  EXPECT_EQ(sweep["candidates"], TransposeCandidates().size());
  EXPECT_EQ(sweep["within_5pct"], 1);
  EXPECT_DOUBLE_EQ(sweep["optimum"]["time_ms"].get<double>(), 1.0);
  EXPECT_EQ(sweep["optimum"]["params"]["TILE"], 64);
  ASSERT_EQ(sweep["strategies"].size(), 5u);
  EXPECT_EQ(sweep["strategies"][4]["strategy"], "bayesian");
  const auto& brute = sweep["strategies"][0];
  EXPECT_EQ(brute["strategy"], "brute_force");
  EXPECT_EQ(brute["reached"], 10);
  EXPECT_DOUBLE_EQ(brute["evaluations_to_within_5pct"]["median"].get<double>(), static_cast<double>(OptimumPosition()));
  for (const auto& s : sweep["strategies"]) {
    EXPECT_EQ(s["runs"], 10);
    EXPECT_TRUE(s.contains("reached_fraction") && s.contains("evaluations_mean") &&
                s.contains("best_over_optimum_mean"));
  }
}

// With another GPU model's sweep stored, --warm-start adds each strategy but brute force started
// from it: the other model's fastest configuration, the optimum here too, comes first.
TEST(SimulateCommand, WarmStartFromAnotherGpuModelsSweep) {
  TempDir dir;
  const std::string path = MakeDatabase(dir);
  {
    db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
    const auto templ = store.EnsureTemplate({"transpose", Transpose().hash, ""});
    const auto sweep = store.StartSweep(store.EnsureGpu(db::testing::SampleGpu("GPU-2222", "NVIDIA H200")), templ,
                                        db::testing::SampleSweep("8192x8192"));
    for (db::MeasurementRecord r : CompleteRecords()) {
      r.time_ms_median *= 0.7;
      store.AddMeasurement(sweep, r);
    }
  }
  const auto r = RunTuner("simulate transpose --device H200 --strategy brute_force,bayesian --runs 5 --warm-start "
                          "--json --db " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warm start from 1 stored sweep (NVIDIA H100 80GB HBM3 8192x8192)"), std::string::npos) << r.err;
  const auto strategies = nlohmann::json::parse(r.out)["sweeps"][0]["strategies"];
  ASSERT_EQ(strategies.size(), 3u) << strategies.dump();
  EXPECT_EQ(strategies[0]["strategy"], "brute_force");
  EXPECT_EQ(strategies[1]["strategy"], "bayesian");
  EXPECT_EQ(strategies[2]["strategy"], "bayesian (warm)");
  EXPECT_EQ(strategies[2]["reached"], 5);
  EXPECT_EQ(strategies[2]["evaluations_to_within_5pct"]["max"], 1);

  TempDir other;
  const auto alone = RunTuner("simulate transpose --device H100 --strategy bayesian --runs 2 --warm-start --json "
                              "--db " + MakeDatabase(other));
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_NE(alone.err.find("no other stored sweep of 'transpose' to start warm from"), std::string::npos) << alone.err;
  EXPECT_EQ(nlohmann::json::parse(alone.out)["sweeps"][0]["strategies"].size(), 1u);
}

// `tune --gpus all` on two cards of one model: each measured its share of the candidates, and both
// the leaders. `simulate` replays the two as one sweep of the model; `--card` replays one card's
// results alone, which are half a sweep.
TEST(SimulateCommand, ASweepSplitAcrossTwoCardsOfOneModelIsOneSweep) {
  TempDir dir;
  const std::string path = dir.File("split.db");
  {
    db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
    const auto templ = store.EnsureTemplate({"transpose", Transpose().hash, ""});
    const auto first = store.StartSweep(store.EnsureGpu(db::testing::SampleGpu("GPU-aaaa")), templ,
                                        db::testing::SampleSweep("8192x8192"));
    const auto second = store.StartSweep(store.EnsureGpu(db::testing::SampleGpu("GPU-bbbb")), templ,
                                         db::testing::SampleSweep("8192x8192"));
    const std::vector<db::MeasurementRecord> records = CompleteRecords();
    for (std::size_t c = 0; c < records.size(); ++c) store.AddMeasurement(c % 2 ? second : first, records[c]);
    db::MeasurementRecord leader = records[OptimumPosition() - 1];
    leader.time_ms_median *= 1.02;  // the other card's own time of the model's leader
    store.AddMeasurement(OptimumPosition() % 2 ? second : first, leader);
  }
  const auto r = RunTuner("simulate transpose --strategy brute_force --runs 2 --json --db " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["sweeps"].size(), 1u) << doc.dump();
  const auto& sweep = doc["sweeps"][0];
  EXPECT_EQ(sweep["candidates"], TransposeCandidates().size());
  EXPECT_EQ(sweep["cards"], nlohmann::json::array({"GPU-aaaa", "GPU-bbbb"}));
  EXPECT_EQ(sweep["gpu"]["uuid"], "") << "the model's sweep, not one card's";
  EXPECT_DOUBLE_EQ(sweep["optimum"]["time_ms"].get<double>(), 1.0) << "of two results, the faster";
  EXPECT_EQ(sweep["strategies"][0]["evaluations_to_within_5pct"]["max"], OptimumPosition());

  const auto text = RunTuner("simulate transpose --strategy random --runs 2 --db " + path);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("(2 cards: GPU-aaaa, GPU-bbbb)"), std::string::npos) << text.out;

  const auto one_card = RunTuner("simulate transpose --card GPU-aaaa --runs 2 --db " + path);
  EXPECT_EQ(one_card.exit_code, 1);
  EXPECT_NE(one_card.err.find("candidates have no stored result"), std::string::npos) << one_card.err;
  EXPECT_NE(one_card.err.find("(GPU-aaaa)"), std::string::npos) << one_card.err;
  const auto no_card = RunTuner("simulate transpose --card GPU-cccc --runs 2 --db " + path);
  EXPECT_EQ(no_card.exit_code, 1);
  EXPECT_NE(no_card.err.find("on the card 'GPU-cccc'"), std::string::npos) << no_card.err;
}

TEST(SimulateCommand, TextTableAndOneStrategyWithBudget) {
  TempDir dir;
  const auto r =
      RunTuner("simulate transpose --strategy annealing,random,bayesian --budget 5 --runs 4 --db " + MakeDatabase(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("annealing"), std::string::npos);
  EXPECT_NE(r.out.find("bayesian"), std::string::npos);
  EXPECT_NE(r.out.find("random"), std::string::npos);
  EXPECT_EQ(r.out.find("brute_force"), std::string::npos);
}

TEST(SimulateCommand, WithoutTheTemplateTheStoredCandidatesAreReplayed) {
  TempDir dir;
  const std::string path = dir.File("foreign.db");
  {
    db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
    const auto sweep =
        store.StartSweep(store.EnsureGpu(db::testing::SampleGpu()), store.EnsureTemplate({"not_here", "h1", ""}),
                         db::testing::SampleSweep("8192x8192"));
    for (const db::MeasurementRecord& r : CompleteRecords()) store.AddMeasurement(sweep, r);
  }
  EXPECT_EQ(RunTuner("simulate not_here --db " + path).exit_code, 2) << "no template, no --size";
  const auto r = RunTuner("simulate not_here --size 8192x8192 --runs 3 --json --db " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("not at hand"), std::string::npos) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["sweeps"][0]["candidates"], TransposeCandidates().size());
  EXPECT_EQ(doc["sweeps"][0]["template_hash"], "h1");
}

TEST(SimulateCommand, BadInputExitsTwo) {
  TempDir dir;
  const std::string db = MakeDatabase(dir);
  for (const std::string args : {"--strategy hill_climbing", "--strategy random,", "--runs 0", "--budget -1",
                                 "--size 8192y8192", "--frobnicate", "--within 101", "--within 1.5"}) {
    const auto r = RunTuner("simulate transpose " + args + " --db " + db);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  EXPECT_EQ(RunTuner("simulate --db " + db).exit_code, 2);
}

TEST(SimulateCommand, NoCompleteSweepExitsOneAndSaysWhy) {
  TempDir dir;
  const auto incomplete = RunTuner("simulate transpose --db " + MakeDatabase(dir, false));
  EXPECT_EQ(incomplete.exit_code, 1);
  EXPECT_NE(
      incomplete.err.find("1 of " + std::to_string(TransposeCandidates().size()) + " candidates have no stored result"),
      std::string::npos)
      << incomplete.err;
  TempDir other;
  const std::string complete = MakeDatabase(other);
  EXPECT_EQ(RunTuner("simulate transpose --device A100 --db " + complete).exit_code, 1);
  EXPECT_EQ(RunTuner("simulate transpose --size 4096x4096 --db " + complete).exit_code, 1);
  TempDir empty;
  { db::Store::Open(empty.File("e.db"), db::OpenMode::kReadWrite); }
  const auto none = RunTuner("simulate transpose --db " + empty.File("e.db"));
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("tuner tune transpose"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace tuner
