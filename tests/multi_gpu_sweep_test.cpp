#include "multi_gpu_sweep.h"

#include <gtest/gtest.h>

#include "errors.h"

namespace tuner {
namespace {

GpuInfo Gpu(int index, const std::string& name) {
  GpuInfo gpu;
  gpu.index = index;
  gpu.name = name;
  gpu.cc_major = 9;
  gpu.sm_count = 132;
  gpu.memory_bytes = 80LL << 30;
  return gpu;
}

TEST(MultiGpuSweep, GpusOfOneModelShareTheCandidatesOthersTuneFully) {
  SweepOptions base;
  const auto sweeps = ShareByModel(base, {Gpu(0, "NVIDIA H100"), Gpu(1, "NVIDIA H200"), Gpu(2, "NVIDIA H100")});
  ASSERT_EQ(sweeps.size(), 3u);
  EXPECT_EQ(sweeps[0].gpu, 0);
  EXPECT_EQ(sweeps[0].shard, 0u);
  EXPECT_EQ(sweeps[0].shards, 2u);
  EXPECT_EQ(sweeps[1].gpu, 1);
  EXPECT_EQ(sweeps[1].shard, 0u);
  EXPECT_EQ(sweeps[1].shards, 1u);
  EXPECT_EQ(sweeps[2].gpu, 2);
  EXPECT_EQ(sweeps[2].shard, 1u);
  EXPECT_EQ(sweeps[2].shards, 2u);
}

TEST(MultiGpuSweep, MalformedListsAreUsageErrorsBeforeAnyGpuIsLookedFor) {
  for (const char* bad : {"", "0,", "x", "0,0", "-1", "1;2"}) EXPECT_THROW(SelectGpus(bad), UsageError) << bad;
}

TEST(MultiGpuSweep, ModelKeySeparatesModels) {
  EXPECT_EQ(ModelKey(Gpu(0, "NVIDIA H100")), ModelKey(Gpu(3, "NVIDIA H100")));
  EXPECT_NE(ModelKey(Gpu(0, "NVIDIA H100")), ModelKey(Gpu(0, "NVIDIA H200")));
}

}  // namespace
}  // namespace tuner
