// The one GPU-model identity: a resume, the lookup's fallback and the best per model all compare
// name, compute capability, SM count and memory in bytes.
#include "db/query/gpu_model.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "db/query/store.h"
#include "db_test_util.h"

namespace tuner::db {
namespace {

namespace fs = std::filesystem;
using testing::SampleGpu;
using testing::TempDir;

constexpr std::int64_t kH100Bytes = 85045231616;  // the H100 of tests/fixtures/schema_v4.db

GpuRecord FixtureH100(const std::string& uuid, std::int64_t memory_bytes = kH100Bytes) {
  GpuRecord gpu = SampleGpu(uuid, "NVIDIA H100 80GB HBM3");
  gpu.memory_bytes = memory_bytes;
  return gpu;
}

TEST(GpuModel, EveryFieldCountsButTheCard) {
  const GpuRecord a = FixtureH100("GPU-a");
  EXPECT_TRUE(SameModel(a, FixtureH100("GPU-b")));
  GpuRecord other = a;
  other.driver_version = "12.0";
  other.sm_clock_mhz = 1;
  EXPECT_TRUE(SameModel(a, other));
  for (int field = 0; field < 5; ++field) {
    GpuRecord b = a;
    if (field == 0) b.name = "NVIDIA H200";
    if (field == 1) b.cc_major = 10;
    if (field == 2) b.cc_minor = 1;
    if (field == 3) b.sm_count = 114;
    if (field == 4) b.memory_bytes += 1 << 20;  // the same GiB, other bytes: another model
    EXPECT_FALSE(SameModel(a, b)) << field;
    EXPECT_TRUE(ModelOf(a) < ModelOf(b) || ModelOf(b) < ModelOf(a)) << field;
  }
}

TEST(GpuModel, TextRoundsMemoryDownToGiB) {
  EXPECT_EQ(ModelOf(FixtureH100("GPU-a")).Text(), "NVIDIA H100 80GB HBM3 sm_90 132 SMs 79 GiB");
}

TEST(GpuModel, SqlConditionComparesTheSameFields) {
  EXPECT_EQ(SameModelSql("o", "g"),
            "o.name = g.name AND o.cc_major = g.cc_major AND o.cc_minor = g.cc_minor AND o.sm_count = g.sm_count AND "
            "o.memory_bytes = g.memory_bytes");
}

// A database written before this identity had one name: a new card of a stored model resumes from
// what both stored cards measured; a card whose memory differs by a MiB does not.
TEST(GpuModel, AStoredDatabaseResumesOnANewCardOfItsModel) {
  TempDir dir;
  const std::string path = dir.File("v4.db");
  fs::copy_file(TUNER_FIXTURES_DIR "/schema_v4.db", path);
  Store store = Store::Open(path, OpenMode::kReadWrite);
  const std::int64_t templ = store.EnsureTemplate({"transpose", "new-hash", ""});
  const std::int64_t card = store.EnsureGpu(FixtureH100("GPU-dddd"));
  const std::int64_t near = store.EnsureGpu(FixtureH100("GPU-eeee", kH100Bytes + (1 << 20)));
  EXPECT_TRUE(store.Measurements(card, templ, "8192x8192").empty());
  const std::vector<MeasurementRecord> model = store.ModelMeasurements(card, templ, "8192x8192");
  std::size_t stored_on_h100 = 0;
  for (const MeasurementRow& row : store.ListMeasurements({}))
    if (SameModel(row.gpu, FixtureH100("")) && row.templ.hash == "new-hash" && row.size_key == "8192x8192")
      ++stored_on_h100;
  EXPECT_GT(stored_on_h100, 4u);  // GPU-aaaa's and GPU-bbbb's
  EXPECT_EQ(model.size(), stored_on_h100);
  EXPECT_TRUE(store.ModelMeasurements(near, templ, "8192x8192").empty());
}

TEST(GpuModel, TheBestPerModelGroupsCardsOfOneModel) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  const auto templ = store.EnsureTemplate({"transpose", "h", ""});
  for (const GpuRecord& gpu :
       {FixtureH100("GPU-A"), FixtureH100("GPU-B"), FixtureH100("GPU-C", kH100Bytes + (1 << 20))}) {
    const auto id = store.EnsureGpu(gpu);
    store.AddMeasurement(store.StartSweep(id, templ, testing::SampleSweep()),
                         testing::SampleMeasurement(32, gpu.uuid == "GPU-B" ? 1.0 : 2.0));
  }
  const std::vector<MeasurementRow> best = store.BestPerModel("transpose", "");
  ASSERT_EQ(best.size(), 2u);  // the two H100s of one model, and the one with other memory
  for (const MeasurementRow& row : best) EXPECT_NE(row.gpu.uuid, "GPU-A");
}

}  // namespace
}  // namespace tuner::db
