// Revalidation (sweep/revalidate.h) against a fixture database, with fake re-measurements: what
// holds is kept, a regression beyond the noise and a failed winner are flagged and their size tuned
// again, a failed leader is never served (the store, `tuner query`, the library), a result is
// measured again in its own timing mode, and a card with nothing stored is refused.
#include "sweep/revalidate.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db/query/tuned_config.h"
#include "db_test_util.h"
#include "template/template_library.h"

namespace tuner {
namespace {

using db::MeasurementRecord;
using db::testing::TempDir;

const TemplateSpec& Transpose() {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library.Find("transpose");
}

const SweepTarget& DefaultTarget() {
  static const SweepTarget target = TargetAtSize(Transpose(), ParseProblemSize(Transpose(), ""));
  return target;
}

const db::GpuRecord kGpu = db::testing::SampleGpu("GPU-1111");

// Candidate k of the template, measured at `time_ms` with a spread of 1%.
MeasurementRecord Candidate(std::size_t k, double time_ms, CandidateStatus status = CandidateStatus::kOk) {
  MeasurementRecord r = db::testing::SampleMeasurement(1, time_ms);
  r.params_json = ParamsJson(DefaultTarget().candidates.at(k));
  r.status = status;
  r.toolchain = "driver 12.8, runtime 12.8, nvrtc 12.8";
  return r;
}

// The fixture: candidates 0..4 of the shipped transpose at its default size, 1.0 ms to 1.4 ms.
std::string Fixture(const TempDir& dir) {
  const std::string path = dir.File("stored.db");
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const auto sweep = store.StartSweep(store.EnsureGpu(kGpu), store.EnsureTemplate({"transpose", Transpose().hash, ""}),
                                      db::testing::SampleSweep(DefaultTarget().size.Key()));
  for (std::size_t k = 0; k < 5; ++k) store.AddMeasurement(sweep, Candidate(k, 1.0 + 0.1 * k));
  return path;
}

// Measures each candidate "again" as `times` says (by its index; a missing one keeps its time),
// storing it like a sweep with the new toolchain; counts the re-tunes.
class FakeRemeasurer : public Remeasurer {
 public:
  FakeRemeasurer(db::Store& store, std::map<std::size_t, MeasurementRecord> again)
      : store_(store), again_(std::move(again)) {}

  std::vector<MeasurementRecord> Leaders(const SweepTarget& leaders, TimingMode timing) override {
    std::vector<MeasurementRecord> measured;
    const auto sweep =
        store_.StartSweep(store_.EnsureGpu(kGpu), store_.EnsureTemplate({"transpose", Transpose().hash, ""}),
                          db::testing::SampleSweep(leaders.size.Key()));
    for (const ParamValues& candidate : leaders.candidates) {
      const std::size_t k = IndexOf(candidate);
      MeasurementRecord r = again_.count(k) ? again_.at(k) : Candidate(k, 1.0 + 0.1 * k);
      r.toolchain = "driver 13.0, runtime 12.8, nvrtc 12.9";
      r.timing_mode = ToText(timing);
      store_.AddMeasurement(sweep, r);
      measured.push_back(r);
      leaders_seen.push_back(k);
    }
    leader_modes.push_back(timing);
    return measured;
  }
  void Retune(const SweepTarget& target, TimingMode timing) override {
    retuned.push_back(target.candidates.size());
    retuned_modes.push_back(timing);
  }

  std::vector<std::size_t> leaders_seen;
  std::vector<TimingMode> leader_modes;  // the mode of each size's leaders measured again
  std::vector<std::size_t> retuned;      // the number of candidates of each re-tune
  std::vector<TimingMode> retuned_modes;

 private:
  static std::size_t IndexOf(const ParamValues& candidate) {
    const auto& all = DefaultTarget().candidates;
    return static_cast<std::size_t>(std::find(all.begin(), all.end(), candidate) - all.begin());
  }
  db::Store& store_;
  std::map<std::size_t, MeasurementRecord> again_;
};

std::vector<MeasurementRecord> Stored(db::Store& store) {
  std::vector<MeasurementRecord> records;
  for (db::MeasurementRow& row : store.ListMeasurements({"transpose", "", "", std::nullopt, false}))
    records.push_back(row.measurement);
  return records;
}

const MeasurementRecord& StoredCandidate(const std::vector<MeasurementRecord>& records, std::size_t k) {
  for (const MeasurementRecord& r : records)
    if (r.params_json == ParamsJson(DefaultTarget().candidates.at(k))) return r;
  throw std::runtime_error("candidate not stored");
}

TEST(Revalidate, WhatHoldsIsKeptAndNothingIsTunedAgain) {
  TempDir dir;
  db::Store store = db::Store::Open(Fixture(dir), db::OpenMode::kReadWrite);
  FakeRemeasurer fake(store, {{0, Candidate(0, 1.005)}});  // within 1% + 1%
  const std::vector<SizeRevalidation> sizes = Revalidate(Transpose(), kGpu.uuid, store, fake);
  ASSERT_EQ(sizes.size(), 1u);
  EXPECT_EQ(fake.leaders_seen, (std::vector<std::size_t>{0, 1, 2}));  // the three leaders, in the template's order
  EXPECT_TRUE(fake.retuned.empty());
  ASSERT_EQ(sizes[0].verdict.leaders.size(), 3u);
  for (const db::LeaderVerdict& v : sizes[0].verdict.leaders) EXPECT_EQ(v.verdict, db::Verdict::kHeld) << v.Text();
  EXPECT_EQ(sizes[0].best_after, ParamsJson(DefaultTarget().candidates[0]));
  const auto records = Stored(store);
  EXPECT_EQ(StoredCandidate(records, 0).revalidation.rfind("held: 1.0000 -> 1.0050 ms", 0), 0u)
      << StoredCandidate(records, 0).revalidation;
  EXPECT_EQ(StoredCandidate(records, 0).toolchain, "driver 13.0, runtime 12.8, nvrtc 12.9");
  EXPECT_EQ(StoredCandidate(records, 3).revalidation, "");  // not a leader: not measured again
  EXPECT_EQ(RevalidationJson(sizes)["sizes"][0]["leaders"][0]["verdict"], "held");
}

TEST(Revalidate, ARegressionBeyondTheNoiseIsFlaggedAndTheSizeTunedAgain) {
  TempDir dir;
  db::Store store = db::Store::Open(Fixture(dir), db::OpenMode::kReadWrite);
  FakeRemeasurer fake(store, {{0, Candidate(0, 1.5)}});
  const std::vector<SizeRevalidation> sizes = Revalidate(Transpose(), kGpu.uuid, store, fake);
  ASSERT_EQ(sizes.size(), 1u);
  EXPECT_EQ(sizes[0].verdict.leaders[0].verdict, db::Verdict::kRegressed);
  EXPECT_EQ(sizes[0].verdict.winner_after, ParamsJson(DefaultTarget().candidates[1]));
  EXPECT_TRUE(sizes[0].retuned);
  EXPECT_EQ(fake.retuned, (std::vector<std::size_t>{DefaultTarget().candidates.size()}));
  EXPECT_EQ(StoredCandidate(Stored(store), 0).revalidation.rfind("regressed: 1.0000 -> 1.5000 ms (+50.0%", 0), 0u);
  EXPECT_EQ(sizes[0].best_after, ParamsJson(DefaultTarget().candidates[1]));  // served now
}

// Another leader measured a little faster than the stored winner, within the noise: they tie, the
// stored choice stands, and nothing is tuned again; beyond the noise the winner changed.
TEST(Revalidate, ALeaderFasterOnlyWithinTheNoiseLeavesTheWinner) {
  for (const auto& [faster_ms, retuned] : {std::pair{1.0, false}, std::pair{0.8, true}}) {
    TempDir dir;
    db::Store store = db::Store::Open(Fixture(dir), db::OpenMode::kReadWrite);
    FakeRemeasurer fake(store, {{0, Candidate(0, 1.01)}, {1, Candidate(1, faster_ms)}});
    const std::vector<SizeRevalidation> sizes = Revalidate(Transpose(), kGpu.uuid, store, fake);
    ASSERT_EQ(sizes.size(), 1u);
    EXPECT_EQ(sizes[0].verdict.winner_after, ParamsJson(DefaultTarget().candidates[1])) << faster_ms;
    EXPECT_EQ(sizes[0].retuned, retuned) << faster_ms;
  }
}

// "Beyond the noise" is the tie's noise (db/query/tie_rule.h): with the tiny IQRs of batched samples
// (0.1%), 1% slower is within the reproducibility floor and holds; 5% slower regressed.
TEST(Revalidate, ARegressionMustExceedTheReproducibilityFloor) {
  MeasurementRecord before = Candidate(0, 1.0), slightly = Candidate(0, 1.01), clearly = Candidate(0, 1.05);
  MeasurementRecord other_before = Candidate(1, 1.02), other_now = Candidate(1, 1.0);
  for (MeasurementRecord* r : {&before, &slightly, &clearly, &other_before, &other_now}) r->time_ms_spread = 0.001;
  EXPECT_EQ(db::Judge(before, slightly).verdict, db::Verdict::kHeld) << db::Judge(before, slightly).Text();
  EXPECT_EQ(db::Judge(before, clearly).verdict, db::Verdict::kRegressed) << db::Judge(before, clearly).Text();
  EXPECT_NE(db::Judge(before, slightly).Text().find("noise 2.0%"), std::string::npos) << db::Judge(before, slightly).Text();
  // Another leader 1% faster than the stored winner now: a tie, the stored choice stands.
  const db::SizeVerdict size = db::JudgeLeaders({before, other_before}, {slightly, other_now});
  EXPECT_EQ(size.winner_after, other_now.params_json);
  EXPECT_FALSE(size.NeedsRetune());
}

TEST(Revalidate, AFailedWinnerIsNeverServed) {
  TempDir dir;
  const std::string path = Fixture(dir);
  {
    db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
    MeasurementRecord wrong = Candidate(0, 0.9, CandidateStatus::kWrongResult);
    wrong.reason = "output differs from the reference at 17";
    FakeRemeasurer fake(store, {{0, wrong}});
    const std::vector<SizeRevalidation> sizes = Revalidate(Transpose(), kGpu.uuid, store, fake);
    ASSERT_EQ(sizes.size(), 1u);
    EXPECT_EQ(sizes[0].verdict.leaders[0].verdict, db::Verdict::kFailed);
    EXPECT_TRUE(sizes[0].retuned);
    EXPECT_EQ(StoredCandidate(Stored(store), 0).revalidation,
              "failed: wrong_result (output differs from the reference at 17)");
  }
  const std::string second = ParamsJson(DefaultTarget().candidates[1]);
  db::Store store = db::Store::Open(path, db::OpenMode::kReadOnly);
  const std::vector<db::MeasurementRow> best = store.BestPerGpu("transpose", "");
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(best[0].measurement.params_json, second);
  std::vector<long long> sizes;
  for (const auto& [name, value] : DefaultTarget().size.values) sizes.push_back(value);
  const TunedConfig config = TunedConfigs::Open(path).Lookup("transpose", kGpu.name, sizes);
  ASSERT_TRUE(config) << config.note;
  EXPECT_EQ(config.params.front().second, nlohmann::json::parse(second).begin().value().get<long long>());
  const testing::CliResult q = testing::RunTuner("query transpose --device h100 --json --db " + path);
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(nlohmann::json::parse(q.out)["results"][0]["params"], nlohmann::json::parse(second));
}

// Results of the same size timed in graph mode (candidates 3 and 4, faster there) are judged apart
// from the isolated ones and measured again in graph mode; a regression there re-tunes in graph mode
// only. --timing isolated leaves them out.
TEST(Revalidate, EachResultIsMeasuredAgainInItsTimingMode) {
  TempDir dir;
  const std::string path = Fixture(dir);
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const auto sweep = store.StartSweep(store.EnsureGpu(kGpu), store.EnsureTemplate({"transpose", Transpose().hash, ""}),
                                      db::testing::SampleSweep(DefaultTarget().size.Key()));
  for (std::size_t k : {3, 4}) {
    MeasurementRecord graph = Candidate(k, 0.2 + 0.1 * k);  // 0.5 and 0.6 ms
    graph.timing_mode = "graph";
    store.AddMeasurement(sweep, graph);
  }
  FakeRemeasurer only_isolated(store, {});
  ASSERT_EQ(Revalidate(Transpose(), kGpu.uuid, store, only_isolated, TimingMode::kIsolated).size(), 1u);
  EXPECT_EQ(only_isolated.leader_modes, (std::vector<TimingMode>{TimingMode::kIsolated}));

  MeasurementRecord slower = Candidate(3, 0.9);
  FakeRemeasurer fake(store, {{3, slower}});
  const std::vector<SizeRevalidation> sizes = Revalidate(Transpose(), kGpu.uuid, store, fake);
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(fake.leader_modes, (std::vector<TimingMode>{TimingMode::kGraph, TimingMode::kIsolated}));
  EXPECT_EQ(sizes[0].timing, TimingMode::kGraph);
  EXPECT_EQ(sizes[0].verdict.leaders.size(), 2u) << "only the graph results are its leaders";
  EXPECT_EQ(sizes[0].verdict.leaders[0].verdict, db::Verdict::kRegressed);
  EXPECT_TRUE(sizes[0].retuned);
  EXPECT_EQ(sizes[1].timing, TimingMode::kIsolated);
  EXPECT_FALSE(sizes[1].retuned) << "the isolated leaders hold";
  EXPECT_EQ(fake.retuned_modes, (std::vector<TimingMode>{TimingMode::kGraph}));
  EXPECT_EQ(RevalidationJson(sizes)["sizes"][0]["timing_mode"], "graph");
  for (const MeasurementRecord& r : Stored(store))
    if (r.params_json == ParamsJson(DefaultTarget().candidates.at(3)) && r.timing_mode == "graph") {
      EXPECT_EQ(r.time_ms_median, 0.9) << "measured again in graph mode";
      EXPECT_EQ(r.revalidation.rfind("regressed: 0.5000 -> 0.9000 ms", 0), 0u) << r.revalidation;
    }
}

TEST(Revalidate, NothingStoredForTheCardIsRefused) {
  TempDir dir;
  db::Store store = db::Store::Open(Fixture(dir), db::OpenMode::kReadWrite);
  FakeRemeasurer fake(store, {});
  EXPECT_THROW(Revalidate(Transpose(), "GPU-other", store, fake), std::runtime_error);
  EXPECT_TRUE(fake.leaders_seen.empty());
}

}  // namespace
}  // namespace tuner
