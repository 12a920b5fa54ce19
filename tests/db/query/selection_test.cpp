#include "db/query/selection.h"

#include <gtest/gtest.h>

#include <cmath>

#include "db_test_util.h"

namespace tuner::db {
namespace {

MeasurementRow Row(const GpuRecord& gpu, const std::string& size_key, double time_ms, bool stale = false) {
  MeasurementRow row;
  row.gpu = gpu;
  row.templ = {"transpose", stale ? "old" : "new", ""};
  row.stale = stale;
  row.size_key = size_key;
  row.measurement = testing::SampleMeasurement(32, time_ms);
  return row;
}

GpuRecord H200(const std::string& uuid) {
  GpuRecord gpu = testing::SampleGpu(uuid, "NVIDIA H200");
  gpu.memory_bytes = 150'000'000'000;
  return gpu;
}

const GpuRecord kCardA = testing::SampleGpu("GPU-A");
const GpuRecord kCardB = testing::SampleGpu("GPU-B");  // same model as A

// The library reads the best rows in another order than `tuner query`: a tie (same distance, same
// time) must go the same way in any order, to the row stored first.
TEST(Selection, TiesGoToTheRowStoredFirstInAnyOrder) {
  MeasurementRow a = Row(kCardA, "4096x4096", 1.0);
  MeasurementRow b = Row(kCardA, "16384x16384", 1.0);  // as far from 8192x8192 in log space
  a.measurement.id = 7;
  b.measurement.id = 3;
  const LookupTarget target{kCardA, {8192, 8192}};
  EXPECT_EQ(SelectBest({a, b}, target).row.measurement.id, 3);
  EXPECT_EQ(SelectBest({b, a}, target).row.measurement.id, 3);
  b.measurement.time_ms_median = 1.5;
  EXPECT_EQ(SelectBest({b, a}, target).row.measurement.id, 7);
}

TEST(SizeKeys, Distance) {
  EXPECT_DOUBLE_EQ(LogDistance({1024, 1024}, {1024, 1024}), 0.0);
  EXPECT_NEAR(LogDistance({2048, 1024}, {1024, 1024}), std::log(2.0), 1e-12);
  EXPECT_TRUE(std::isinf(LogDistance({1024}, {1024, 1024})));
}

TEST(SelectBest, ExactSizeOnThisCard) {
  const std::vector<MeasurementRow> rows = {Row(kCardA, "4096x4096", 1.0), Row(kCardA, "8192x8192", 4.0),
                                            Row(kCardB, "8192x8192", 3.0)};
  const Selection s = SelectBest(rows, {kCardA, {8192, 8192}});
  ASSERT_EQ(s.status, LookupStatus::kFound);
  EXPECT_EQ(s.fallback, Fallback::kExact);
  EXPECT_EQ(s.row.gpu.uuid, "GPU-A");
  EXPECT_DOUBLE_EQ(s.row.measurement.time_ms_median, 4.0);
}

TEST(SelectBest, ModelWithoutUuidTakesTheFastestCard) {
  const std::vector<MeasurementRow> rows = {Row(kCardA, "8192x8192", 4.0), Row(kCardB, "8192x8192", 3.0)};
  GpuRecord model = kCardA;
  model.uuid.clear();
  const Selection s = SelectBest(rows, {model, {8192, 8192}});
  EXPECT_EQ(s.fallback, Fallback::kExact);
  EXPECT_EQ(s.row.gpu.uuid, "GPU-B");
}

TEST(SelectBest, NearestSizeInLogSpacePerDimension) {
  // Asked 5000x5000: 4096x4096 is nearer than 8192x8192 in log space (though not linearly for W*H).
  const std::vector<MeasurementRow> rows = {Row(kCardA, "4096x4096", 1.0), Row(kCardA, "8192x8192", 0.5),
                                            Row(kCardA, "4096x16384", 0.1)};
  const Selection s = SelectBest(rows, {kCardA, {5000, 5000}});
  ASSERT_EQ(s.status, LookupStatus::kFound);
  EXPECT_EQ(s.fallback, Fallback::kNearestSize);
  EXPECT_EQ(s.row.size_key, "4096x4096");
  EXPECT_NE(s.Describe({kCardA, {5000, 5000}}).find("asked 5000x5000"), std::string::npos);
  // 6000 is nearer 8192 (ratio 1.37) than 4096 (ratio 1.46).
  EXPECT_EQ(SelectBest(rows, {kCardA, {6000, 6000}}).row.size_key, "8192x8192");
}

TEST(SelectBest, ThenAnotherCardOfTheModelThenTheArchitecture) {
  std::vector<MeasurementRow> rows = {Row(kCardB, "1024x1024", 2.0), Row(H200("GPU-C"), "8192x8192", 1.0)};
  Selection s = SelectBest(rows, {kCardA, {8192, 8192}});
  EXPECT_EQ(s.fallback, Fallback::kSameModel);
  EXPECT_EQ(s.row.gpu.uuid, "GPU-B");
  rows.erase(rows.begin());
  s = SelectBest(rows, {kCardA, {8192, 8192}});
  EXPECT_EQ(s.fallback, Fallback::kSameArchitecture);
  EXPECT_EQ(s.row.gpu.name, "NVIDIA H200");
  EXPECT_NE(s.Describe({kCardA, {8192, 8192}}).find("same architecture"), std::string::npos);
  GpuRecord ampere = kCardA;
  ampere.cc_major = 8;
  EXPECT_EQ(SelectBest(rows, {ampere, {8192, 8192}}).status, LookupStatus::kNotFound);
}

TEST(SelectBest, StaleResultsAreNeverBestButAreReported) {
  std::vector<MeasurementRow> rows = {Row(kCardA, "8192x8192", 0.1, true)};
  Selection s = SelectBest(rows, {kCardA, {8192, 8192}});
  EXPECT_EQ(s.status, LookupStatus::kOnlyStale);
  EXPECT_NE(s.Describe({kCardA, {8192, 8192}}).find("older version"), std::string::npos);
  rows.push_back(Row(kCardA, "1024x1024", 5.0));  // current, at another size: preferred to stale
  s = SelectBest(rows, {kCardA, {8192, 8192}});
  EXPECT_EQ(s.status, LookupStatus::kFound);
  EXPECT_EQ(s.row.size_key, "1024x1024");
}

TEST(SelectBest, SizesOfAnotherDimensionCountAreIgnored) {
  const Selection s = SelectBest({Row(kCardA, "8192", 1.0)}, {kCardA, {8192, 8192}});
  EXPECT_EQ(s.status, LookupStatus::kNotFound);
}

TEST(ModelsIn, DistinctModelsMatchingAName) {
  const std::vector<MeasurementRow> rows = {Row(kCardA, "1x1", 1), Row(kCardB, "1x1", 1), Row(H200("GPU-C"), "1x1", 1)};
  EXPECT_EQ(ModelsIn(rows).size(), 2u);
  ASSERT_EQ(ModelsIn(rows, "h200").size(), 1u);
  EXPECT_TRUE(ModelsIn(rows, "h200")[0].uuid.empty());
  EXPECT_TRUE(ModelsIn(rows, "A100").empty());
}

}  // namespace
}  // namespace tuner::db
