// What "best" means (db/query/best.h): the rule's order on ties, the SQL that keeps best_per_gpu
// and the best_per_model view against the rule, and every place that names a best agreeing on a
// database full of ties: `tuner query`, Store::BestPerModel, the report's data, the dispatch table
// and the application library.
#include "db/query/best.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "cli_runner.h"
#include "db/objective.h"
#include "db/query/size_dispatch.h"
#include "db/query/sqlite.h"
#include "db/query/store.h"
#include "db/query/tuned_config.h"
#include "db_test_util.h"
#include "reports/report_data.h"
#include "template/template_library.h"

namespace tuner {
namespace {

using db::MeasurementRecord;
using db::Objective;
using db::testing::SampleMeasurement;
using db::testing::TempDir;

MeasurementRecord Result(std::int64_t id, double time_ms, double energy_j = 0,
                         CandidateStatus status = CandidateStatus::kOk) {
  MeasurementRecord r = SampleMeasurement(static_cast<int>(id), time_ms);
  r.id = id;
  r.status = status;
  r.energy_j = energy_j;
  return r;
}

bool Before(const MeasurementRecord& a, const MeasurementRecord& b, Objective objective) {
  return db::RanksBefore(db::StandingOf(a, objective), db::StandingOf(b, objective));
}

TEST(Best, EqualTimesGoToTheEarlierStoredMeasurement) {
  EXPECT_TRUE(Before(Result(3, 1.0), Result(7, 1.0), Objective::kTime));
  EXPECT_FALSE(Before(Result(7, 1.0), Result(3, 1.0), Objective::kTime));
  EXPECT_TRUE(Before(Result(7, 0.9), Result(3, 1.0), Objective::kTime));
  EXPECT_FALSE(Before(Result(3, 1.0), Result(3, 1.0), Objective::kTime));  // equal: neither
  EXPECT_TRUE(db::FasterRecord(Result(3, 1.0), Result(7, 1.0)));
}

TEST(Best, EqualEnergyGoesToTheShorterTimeThenTheEarlierMeasurement) {
  for (Objective objective : {Objective::kEnergy, Objective::kEdp}) {
    EXPECT_TRUE(Before(Result(1, 2.0, 0.001), Result(2, 1.0, 0.002), Objective::kEnergy));
    EXPECT_TRUE(Before(Result(9, 1.0, 0.002), Result(2, 2.0, 0.002), Objective::kEnergy));
    EXPECT_TRUE(Before(Result(2, 1.0, 0.002), Result(9, 1.0, 0.002), objective));
    EXPECT_FALSE(Before(Result(9, 1.0, 0.002), Result(2, 1.0, 0.002), objective));
  }
}

TEST(Best, WhatLacksTheObjectivesValueNeverWins) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const MeasurementRecord measured = Result(9, 5.0, 0.009);
  for (const MeasurementRecord& r : {Result(1, 1.0, 0), Result(1, 1.0, nan), Result(1, 1.0, -1)}) {
    EXPECT_FALSE(Before(r, measured, Objective::kEnergy));
    EXPECT_TRUE(Before(measured, r, Objective::kEnergy));
    EXPECT_FALSE(Before(r, measured, Objective::kEdp));
  }
  EXPECT_FALSE(Before(Result(1, nan), Result(9, 5.0), Objective::kTime));
  EXPECT_TRUE(Before(Result(9, 5.0), Result(1, nan), Objective::kTime));
  for (CandidateStatus failed : {CandidateStatus::kWrongResult, CandidateStatus::kFault, CandidateStatus::kTimeout,
                                 CandidateStatus::kInvalid, CandidateStatus::kSkipped}) {
    const MeasurementRecord fast_but_failed = Result(1, 0.1, 0.0001, failed);
    for (Objective objective : {Objective::kTime, Objective::kEnergy, Objective::kEdp}) {
      EXPECT_FALSE(Before(fast_but_failed, measured, objective)) << ToText(failed);
      EXPECT_EQ(db::BestIndex({fast_but_failed, measured}, objective), std::optional<std::size_t>(1));
    }
  }
  EXPECT_FALSE(db::BestIndex({Result(1, 1.0, 0, CandidateStatus::kFault)}, Objective::kTime));
  EXPECT_FALSE(db::BestIndex({Result(1, 1.0)}, Objective::kEnergy));
}

TEST(Best, ABestOfRecordsFollowsTheRuleAndKeepsTheFirstOfEqualOnes) {
  EXPECT_EQ(db::BestIndex({Result(7, 1.0), Result(3, 1.0), Result(5, 2.0)}, Objective::kTime),
            std::optional<std::size_t>(1));
  EXPECT_EQ(db::BestIndex({Result(0, 1.0), Result(0, 1.0)}, Objective::kTime), std::optional<std::size_t>(0));
  EXPECT_EQ(db::BestBy({Result(7, 3.0, 0.001), Result(3, 1.0, 0.001)}, Objective::kEnergy)->id, 3);
}

// Two cards of one model (the second stored first) and one of another model, three sizes, twelve
// candidates whose times take two values only, stored in a scrambled order: ties everywhere.
const db::GpuRecord kCardA = db::testing::SampleGpu("GPU-aaaa");
const db::GpuRecord kCardB = db::testing::SampleGpu("GPU-bbbb");
const db::GpuRecord kOther = db::testing::SampleGpu("GPU-cccc", "NVIDIA H200");

std::string TiedDatabase(const TempDir& dir) {
  const std::string path = dir.File("ties.db");
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const auto templ = store.EnsureTemplate({"transpose", "h", ""});
  for (const db::GpuRecord& gpu : {kCardB, kOther, kCardA})
    for (const char* size : {"1024x1024", "4096x4096", "16384x16384"}) {
      const auto sweep = store.StartSweep(store.EnsureGpu(gpu), templ, db::testing::SampleSweep(size));
      for (int k = 0; k < 12; ++k) {
        const int tile = 1 + (k * 7) % 12;
        MeasurementRecord m = SampleMeasurement(tile, tile % 3 == 0 ? 1.0 : 1.5);
        if (tile == 5) {  // fastest of all, but wrong
          m.status = CandidateStatus::kWrongResult;
          m.time_ms_median = 0.5;
        }
        store.AddMeasurement(sweep, m);
      }
    }
  return path;
}

// The best of each group by the rule, from every row.
template <typename Key>
std::map<Key, db::MeasurementRow> BestByRule(const std::vector<db::MeasurementRow>& rows,
                                             Key (*key)(const db::MeasurementRow&)) {
  std::map<Key, db::MeasurementRow> best;
  for (const db::MeasurementRow& row : rows) {
    if (!IsOk(row.measurement.status)) continue;
    const auto found = best.find(key(row));
    if (found == best.end() || db::FasterRecord(row.measurement, found->second.measurement)) best[key(row)] = row;
  }
  return best;
}

using CardKey = std::tuple<std::string, std::string>;  // uuid, size
CardKey OfCard(const db::MeasurementRow& row) { return {row.gpu.uuid, row.size_key}; }
using ModelKey = std::tuple<std::string, std::string>;  // GPU name, size
ModelKey OfModel(const db::MeasurementRow& row) { return {row.gpu.name, row.size_key}; }

TEST(Best, TheSqlOfBestPerGpuPicksWhatTheRulePicks) {
  TempDir dir;
  db::Store store = db::Store::Open(TiedDatabase(dir), db::OpenMode::kReadOnly);
  const auto by_rule = BestByRule(store.ListMeasurements({}), OfCard);
  const std::vector<db::MeasurementRow> by_sql = store.BestPerGpu("transpose", "");
  ASSERT_EQ(by_sql.size(), by_rule.size());
  for (const db::MeasurementRow& row : by_sql) {
    EXPECT_EQ(row.measurement.id, by_rule.at(OfCard(row)).measurement.id) << row.gpu.uuid << " " << row.size_key;
    EXPECT_EQ(row.measurement.time_ms_median, 1.0);
  }
  EXPECT_TRUE(store.FullCheck().empty());
}

TEST(Best, BestPerModelAndTheDatabasesViewPickWhatTheRulePicks) {
  TempDir dir;
  const std::string path = TiedDatabase(dir);
  db::Store store = db::Store::Open(path, db::OpenMode::kReadOnly);
  const auto by_rule = BestByRule(store.ListMeasurements({}), OfModel);
  const std::vector<db::MeasurementRow> per_model = store.BestPerModel("transpose", "");
  ASSERT_EQ(per_model.size(), by_rule.size());
  for (const db::MeasurementRow& row : per_model) {
    EXPECT_EQ(row.measurement.id, by_rule.at(OfModel(row)).measurement.id) << row.gpu.name << " " << row.size_key;
    if (row.gpu.name == kCardA.name) {  // card B's rows were stored first, though it is named later
      EXPECT_EQ(row.gpu.uuid, kCardB.uuid);
    }
  }
  db::sql::Connection connection(path, db::sql::Connection::Mode::kReadOnly);
  db::sql::Statement view(connection, "SELECT gpu_name, size_key, id FROM best_per_model");
  std::size_t rows = 0;
  for (; view.Step(); ++rows)
    EXPECT_EQ(view.Int64(2), by_rule.at({view.Text(0), view.Text(1)}).measurement.id) << view.Text(0);
  EXPECT_EQ(rows, by_rule.size());
}

TEST(Best, EachObjectivesBestRowsFollowTheRule) {
  TempDir dir;
  const std::string path = TiedDatabase(dir);
  {
    // Equal energy for every candidate of card B: the shorter time wins, then the earlier.
    db::sql::Connection(path, db::sql::Connection::Mode::kReadWrite)
        .Execute(
            "UPDATE measurements SET energy_j = 0.002 WHERE gpu_id = (SELECT id FROM gpus WHERE uuid = "
            "'GPU-bbbb')");
  }
  db::Store store = db::Store::Open(path, db::OpenMode::kReadOnly);
  const std::vector<db::MeasurementRow> rows = store.ListMeasurements({});
  const auto fastest = BestByRule(rows, OfCard);
  const std::vector<db::MeasurementRow> by_energy = db::BestRowsBy(rows, Objective::kEnergy);
  ASSERT_EQ(by_energy.size(), 3u);  // card B's sizes: no energy was measured elsewhere
  for (const db::MeasurementRow& row : by_energy)
    EXPECT_EQ(row.measurement.id, fastest.at(OfCard(row)).measurement.id) << row.size_key;
  const std::vector<db::MeasurementRow> by_time = db::BestRowsBy(rows, Objective::kTime);
  ASSERT_EQ(by_time.size(), fastest.size());
  for (const db::MeasurementRow& row : by_time) EXPECT_EQ(row.measurement.id, fastest.at(OfCard(row)).measurement.id);
}

std::string ShippedHash() { return LoadTemplateLibrary(TemplateSearchDirs({})).Find("transpose").hash; }

// Card B then card A of one model: at 4096x4096 candidates 64 (stored first), 16 and, on card A
// only, 32 tie at 0.5 ms, and a wrong result is faster; at 16384x16384 on card B, 16 (stored
// first) and 64 tie at 2 ms.
std::string QueryDatabase(const TempDir& dir) {
  const std::string path = dir.File("query-ties.db");
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const auto templ = store.EnsureTemplate({"transpose", ShippedHash(), ""});
  const auto card_b = store.EnsureGpu(kCardB), card_a = store.EnsureGpu(kCardA);
  const auto sweep = store.StartSweep(card_b, templ, db::testing::SampleSweep("4096x4096"));
  store.AddMeasurement(sweep, SampleMeasurement(64, 0.5));
  store.AddMeasurement(sweep, SampleMeasurement(16, 0.5));
  store.AddMeasurement(sweep, SampleMeasurement(8, 0.25, "wrong_result"));
  const auto large = store.StartSweep(card_b, templ, db::testing::SampleSweep("16384x16384"));
  store.AddMeasurement(large, SampleMeasurement(16, 2.0));
  store.AddMeasurement(large, SampleMeasurement(64, 2.0));
  store.AddMeasurement(store.StartSweep(card_a, templ, db::testing::SampleSweep("4096x4096")),
                       SampleMeasurement(32, 0.5));
  return path;
}

GpuIdentity Identity(const db::GpuRecord& gpu, bool card) {
  return {gpu.name, gpu.cc_major, gpu.cc_minor, gpu.sm_count, gpu.memory_bytes, card ? gpu.uuid : ""};
}

const report::Run& RunOf(const report::ReportData& data, const std::string& uuid, const std::string& size) {
  for (const report::Run& run : data.kernels.at(0).runs)
    if (std::count(run.cards.begin(), run.cards.end(), uuid) && run.size_key == size) return run;
  throw std::runtime_error("no run of " + uuid + " at " + size);
}

TEST(Best, QueryReportDispatchAndTheLibraryAgreeOnTies) {
  TempDir dir;
  const std::string path = QueryDatabase(dir);
  // tuner query, for the model: the earliest of the tied candidates, on card B.
  const testing::CliResult q = testing::RunTuner("query transpose --device h100 --size 4096x4096 --json --db " + path);
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  const auto best = nlohmann::json::parse(q.out)["results"][0];
  EXPECT_EQ(best["params"]["TILE"], 64);
  EXPECT_EQ(best["from"]["gpu"]["uuid"], kCardB.uuid);
  // The application library, for the model and for each card.
  const TunedConfigs configs = TunedConfigs::Open(path);
  const TunedConfig model = configs.Lookup("transpose", Identity(kCardA, false), {4096, 4096});
  EXPECT_EQ(model.Param("TILE", 0), 64);
  EXPECT_EQ(model.gpu_uuid, kCardB.uuid);
  EXPECT_EQ(configs.Lookup("transpose", Identity(kCardB, true), {4096, 4096}).Param("TILE", 0), 64);
  EXPECT_EQ(configs.Lookup("transpose", Identity(kCardB, true), {16384, 16384}).Param("TILE", 0), 16);
  EXPECT_EQ(configs.Lookup("transpose", Identity(kCardA, true), {4096, 4096}).Param("TILE", 0), 32);
  // The store's best per model.
  db::Store store = db::Store::Open(path, db::OpenMode::kReadOnly);
  const std::vector<db::MeasurementRow> per_model = store.BestPerModel("transpose", "");
  ASSERT_EQ(per_model.size(), 2u);
  for (const db::MeasurementRow& row : per_model) EXPECT_EQ(row.gpu.uuid, kCardB.uuid) << row.size_key;
  // The report's data: each run's best.
  const report::ReportData data =
      report::SelectReportData(store, report::ReportRequest{{"transpose"}, "", {}, false, {}, "", nullptr});
  EXPECT_EQ(report::ParamValue(RunOf(data, kCardB.uuid, "4096x4096").Best()->measurement.params_json, "TILE"), "64");
  EXPECT_EQ(report::ParamValue(RunOf(data, kCardB.uuid, "16384x16384").Best()->measurement.params_json, "TILE"), "16");
  // The dispatch table of card B: each size's winner.
  std::vector<db::MeasurementRow> card_b_rows;
  for (db::MeasurementRow& row : store.ListMeasurements({"transpose", "", "", CandidateStatus::kOk, true}))
    if (row.gpu.uuid == kCardB.uuid) card_b_rows.push_back(std::move(row));
  const db::DispatchTable table = db::BuildDispatchTable(db::TimesBySize(card_b_rows));
  ASSERT_EQ(table.size_keys, (std::vector<std::string>{"4096x4096", "16384x16384"}));
  EXPECT_EQ(table.winners, (std::vector<std::string>{R"({"TILE":64,"ROWS":4})", R"({"TILE":16,"ROWS":4})"}));
}

// A tie stored by its sweep (db/query/tie_rule.h): TILE 64 is the fastest median, but the rule chose
// TILE 16 (fewer registers) among the leaders within their noise, and every place serves it.
TEST(Best, QueryReportDispatchAndTheLibraryServeTheTiesChosenMember) {
  TempDir dir;
  const std::string path = dir.File("tie.db");
  {
    db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
    const auto sweep = store.StartSweep(store.EnsureGpu(kCardB), store.EnsureTemplate({"transpose", ShippedHash(), ""}),
                                        db::testing::SampleSweep("4096x4096"));
    MeasurementRecord fastest = SampleMeasurement(64, 0.500), chosen = SampleMeasurement(16, 0.505);
    fastest.regs_per_thread = 40;
    chosen.regs_per_thread = 32;
    fastest.tie_ms = chosen.tie_ms = 0.5;
    chosen.tie_rank = 1;
    fastest.tie_rank = 2;
    store.AddMeasurement(sweep, fastest);
    store.AddMeasurement(sweep, chosen);
    store.AddMeasurement(sweep, SampleMeasurement(32, 0.9));
  }
  const testing::CliResult q = testing::RunTuner("query transpose --device h100 --size 4096x4096 --json --db " + path);
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  const auto best = nlohmann::json::parse(q.out)["results"][0];
  EXPECT_EQ(best["params"]["TILE"], 16);
  EXPECT_EQ(best["tie_rank"], 1);
  const TunedConfigs configs = TunedConfigs::Open(path);
  EXPECT_EQ(configs.Lookup("transpose", Identity(kCardB, true), {4096, 4096}).Param("TILE", 0), 16);
  EXPECT_EQ(configs.Dispatch("transpose", Identity(kCardB, true), {4096, 4096}).Param("TILE", 0), 16);
  db::Store store = db::Store::Open(path, db::OpenMode::kReadOnly);
  ASSERT_EQ(store.BestPerModel("transpose", "").size(), 1u);
  EXPECT_EQ(report::ParamValue(store.BestPerModel("transpose", "")[0].measurement.params_json, "TILE"), "16");
  const report::ReportData data =
      report::SelectReportData(store, report::ReportRequest{{"transpose"}, "", {}, false, {}, "", nullptr});
  EXPECT_EQ(report::ParamValue(RunOf(data, kCardB.uuid, "4096x4096").Best()->measurement.params_json, "TILE"), "16");
  const db::DispatchTable table = db::BuildDispatchTable(
      db::TimesBySize(store.ListMeasurements({"transpose", "", "", CandidateStatus::kOk, true})));
  EXPECT_EQ(table.winners, (std::vector<std::string>{R"({"TILE":16,"ROWS":4})"}));
}

}  // namespace
}  // namespace tuner
