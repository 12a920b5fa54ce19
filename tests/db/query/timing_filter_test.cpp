// Results of different timing modes are never compared: the best rows of one mode, or of each
// group's most recently tuned mode, and the store's best rows, its lookup and its best per model
// built on that. No GPU.
#include "db/query/timing_filter.h"

#include <gtest/gtest.h>

#include "db_test_util.h"

namespace tuner::db {
namespace {

using testing::SampleGpu;
using testing::SampleMeasurement;
using testing::SampleSweep;
using testing::TempDir;

MeasurementRow Row(const std::string& uuid, const std::string& size, const std::string& mode, int tile, double time_ms,
                   const std::string& measured_at) {
  MeasurementRow row;
  row.gpu = SampleGpu(uuid);
  row.templ = {"transpose", "h", ""};
  row.size_key = size;
  row.measurement = SampleMeasurement(tile, time_ms);
  row.measurement.timing_mode = mode;
  row.measurement.measured_at = measured_at;
  return row;
}

std::vector<int> Tiles(const std::vector<MeasurementRow>& rows) {
  std::vector<int> tiles;
  for (const MeasurementRow& row : rows) tiles.push_back(std::stoi(row.measurement.params_json.substr(8)));
  return tiles;
}

TEST(TimingFilter, AnAskedModeKeepsItsRowsOnly) {
  const std::vector<MeasurementRow> rows = {Row("GPU-1", "1024", "isolated", 16, 0.010, "2026-11-01T00:00:00Z"),
                                            Row("GPU-1", "1024", "graph", 32, 0.004, "2026-11-02T00:00:00Z"),
                                            Row("GPU-1", "2048", "isolated", 64, 0.020, "2026-11-03T00:00:00Z")};
  EXPECT_EQ(Tiles(OneTimingMode(rows, "isolated")), (std::vector<int>{16, 64}));
  EXPECT_EQ(Tiles(OneTimingMode(rows, "graph")), (std::vector<int>{32}));
  EXPECT_TRUE(OneTimingMode(rows, "back_to_back").empty());
}

TEST(TimingFilter, WithoutAModeEachGroupTakesItsMostRecentlyTunedMode) {
  const std::vector<MeasurementRow> rows = {
      Row("GPU-1", "1024", "isolated", 16, 0.010, "2026-11-05T00:00:00Z"),  // tuned isolated last
      Row("GPU-1", "1024", "graph", 32, 0.004, "2026-11-02T00:00:00Z"),
      Row("GPU-1", "2048", "isolated", 64, 0.020, "2026-11-01T00:00:00Z"),
      Row("GPU-1", "2048", "graph", 128, 0.030, "2026-11-04T00:00:00Z"),  // tuned in graph last: slower, still served
      Row("GPU-2", "1024", "back_to_back", 8, 0.006, "2026-11-01T00:00:00Z")};
  EXPECT_EQ(Tiles(OneTimingMode(rows, "")), (std::vector<int>{16, 128, 8}))
      << "the faster graph row of 1024 is never compared with the isolated one";
}

TEST(TimingFilter, OnEqualTimesTheLaterMeasurementDecides) {
  std::vector<MeasurementRow> rows = {Row("GPU-1", "1024", "isolated", 16, 0.010, "2026-11-05T00:00:00Z"),
                                      Row("GPU-1", "1024", "graph", 32, 0.004, "2026-11-05T00:00:00Z")};
  rows[0].measurement.id = 7;
  rows[1].measurement.id = 9;
  EXPECT_EQ(Tiles(OneTimingMode(rows, "")), (std::vector<int>{32}));
}

TEST(TimingFilter, ModelsGroupTheirCards) {
  const std::vector<MeasurementRow> rows = {Row("GPU-1", "1024", "isolated", 16, 0.010, "2026-11-01T00:00:00Z"),
                                            Row("GPU-2", "1024", "graph", 32, 0.004, "2026-11-02T00:00:00Z")};
  EXPECT_EQ(Tiles(OneTimingMode(rows, "")), (std::vector<int>{16, 32})) << "per card: each its own";
  EXPECT_EQ(Tiles(OneTimingMode(rows, "", ModeGroup::kModel)), (std::vector<int>{32})) << "one model: one mode";
}

// The store: a sweep in each mode of the same candidates; every reader of best rows keeps to one mode.
TEST(TimingFilter, TheStoresBestRowsLookupAndModelsNeverMixModes) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  const auto gpu = store.EnsureGpu(SampleGpu("GPU-1"));
  const auto templ = store.EnsureTemplate({"transpose", "h", ""});
  const auto sweep = store.StartSweep(gpu, templ, SampleSweep());
  MeasurementRecord isolated_fast = SampleMeasurement(16, 0.010), isolated_slow = SampleMeasurement(32, 0.012);
  isolated_fast.measured_at = isolated_slow.measured_at = "2026-11-01T00:00:00Z";
  MeasurementRecord graph_fast = SampleMeasurement(64, 0.003), graph_slow = SampleMeasurement(128, 0.005);
  graph_fast.timing_mode = graph_slow.timing_mode = "graph";
  graph_fast.measured_at = graph_slow.measured_at = "2026-11-02T00:00:00Z";
  for (const MeasurementRecord& m : {isolated_fast, isolated_slow, graph_fast, graph_slow})
    store.AddMeasurement(sweep, m);
  ASSERT_EQ(store.Measurements(gpu, templ, SampleSweep().size_key).size(), 4u);
  EXPECT_EQ(Tiles(store.BestPerGpu("transpose", "", "isolated")), (std::vector<int>{16}));
  EXPECT_EQ(Tiles(store.BestPerGpu("transpose", "", "graph")), (std::vector<int>{64}));
  EXPECT_EQ(Tiles(store.BestPerGpu("transpose", "")), (std::vector<int>{64})) << "graph was tuned last";
  EXPECT_EQ(Tiles(store.BestForLookup("transpose")), (std::vector<int>{64}));
  EXPECT_EQ(Tiles(store.BestForLookup("transpose", "isolated")), (std::vector<int>{16}));
  EXPECT_EQ(Tiles(store.BestPerModel("transpose", "", "isolated")), (std::vector<int>{16}));
  EXPECT_TRUE(store.FullCheck().empty());
}

}  // namespace
}  // namespace tuner::db
