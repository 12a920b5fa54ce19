#include "db/query/imported_gpu.h"

#include <gtest/gtest.h>

#include "db/query/gpu_model.h"
#include "db/query/selection.h"
#include "db_test_util.h"

namespace tuner::db {
namespace {

TEST(ImportedGpu, IsItsNameAloneAndNeverARealCard) {
  const GpuRecord gpu = ImportedGpu("NVIDIA H200");
  EXPECT_EQ(gpu.uuid, "imported:NVIDIA H200");
  EXPECT_EQ(gpu.cc_major, 0);
  EXPECT_TRUE(IsImportedGpu(gpu));
  EXPECT_TRUE(IsImportedModel(ModelOf(gpu)));
  const GpuRecord real = testing::SampleGpu("GPU-1", "NVIDIA H200");
  EXPECT_FALSE(IsImportedGpu(real));
  EXPECT_FALSE(IsImportedModel(ModelOf(real)));
  EXPECT_FALSE(IsImportedModel(GpuIdentity{})) << "a GPU that could not be queried is no imported model";
  EXPECT_FALSE(SameModel(gpu, real));
}

// A lookup of size 4096 for `gpu` (a card, or a model: no uuid).
LookupTarget At4096(const GpuIdentity& gpu) {
  LookupTarget target;
  static_cast<GpuIdentity&>(target.gpu) = gpu;
  target.sizes = {4096};
  return target;
}

// The selection never answers for a card (or a model) measured here from an imported model's rows,
// even at its same-architecture fallback, whose architecture the file does not say.
TEST(ImportedGpu, TheSelectionKeepsImportedAndMeasuredApart) {
  std::vector<MeasurementRow> rows(2);
  rows[0].gpu = ImportedGpu("NVIDIA H200");
  rows[0].measurement = testing::SampleMeasurement(128, 0.2);
  rows[1].gpu = testing::SampleGpu("GPU-1", "NVIDIA H200");
  rows[1].measurement = testing::SampleMeasurement(64, 0.333);
  for (MeasurementRow& row : rows) row.size_key = "4096";
  const BestRows best(rows);
  GpuRecord another_card = rows[1].gpu;
  another_card.uuid = "GPU-2";
  GpuRecord other_model = testing::SampleGpu("GPU-3", "NVIDIA H100");
  for (const GpuRecord& gpu : {rows[1].gpu, another_card, other_model}) {
    const Selection s = best.Select(At4096(gpu));
    ASSERT_EQ(s.status, LookupStatus::kFound);
    EXPECT_EQ(s.row.gpu.uuid, "GPU-1");
  }
  const Selection imported = best.Select(At4096(ModelOf(rows[0].gpu)));
  ASSERT_EQ(imported.status, LookupStatus::kFound);
  EXPECT_TRUE(IsImportedGpu(imported.row.gpu));
  EXPECT_EQ(best.Select(At4096(ModelOf(ImportedGpu("NVIDIA A100")))).status, LookupStatus::kNotFound);
  EXPECT_EQ(best.Select(At4096(GpuIdentity{})).status, LookupStatus::kNotFound);
}

}  // namespace
}  // namespace tuner::db
