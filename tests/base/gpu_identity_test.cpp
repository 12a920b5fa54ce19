// The one identity of a GPU: its sm_XY text, and the store's row and model of a GPU built on it.
#include "base/gpu_identity.h"

#include <gtest/gtest.h>

#include "db/query/gpu_model.h"
#include "db/query/records.h"

namespace tuner {
namespace {

const GpuIdentity kH100{"NVIDIA H100 80GB HBM3", 9, 0, 132, 85'000'000'000, "GPU-1111"};

TEST(GpuIdentity, ItsArchitectureIsTheComputeCapabilityAsNvrtcNamesIt) {
  EXPECT_EQ(kH100.Arch(), "sm_90");
  EXPECT_EQ(ArchName(8, 6), "sm_86");
  EXPECT_EQ(ArchName(12, 1), "sm_121");
}

// The store's row of a GPU and a model are the identity with more, or less: no field of it copied.
TEST(GpuIdentity, TheStoredGpuAndItsModelAreBuiltOnIt) {
  const db::GpuRecord stored{kH100, "13.0", "13.0", 1980};
  EXPECT_EQ(stored.uuid, "GPU-1111");
  EXPECT_EQ(stored.Arch(), "sm_90");
  const db::GpuModel model = db::ModelOf(stored);
  EXPECT_EQ(model.uuid, "");  // any card of the model
  EXPECT_EQ(model.name, kH100.name);
  EXPECT_EQ(model.memory_bytes, kH100.memory_bytes);
  EXPECT_EQ(model, db::ModelOf(kH100));
}

}  // namespace
}  // namespace tuner
