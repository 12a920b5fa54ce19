// The GPUs of this machine: each one's properties read once into its identity and its limits, and
// one message for a GPU that is not there.
#include "cuda/device.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdio>

#include "base/errors.h"

namespace tuner {
namespace {

// An RTX 4090's properties, as far as the tool reads them.
cudaDeviceProp Rtx4090() {
  cudaDeviceProp p{};
  std::snprintf(p.name, sizeof p.name, "%s", "NVIDIA GeForce RTX 4090");
  for (int i = 0; i < 16; ++i) p.uuid.bytes[i] = static_cast<char>(i);
  p.major = 8;
  p.minor = 9;
  p.multiProcessorCount = 128;
  p.totalGlobalMem = 25'393'692'672;
  p.l2CacheSize = 75'497'472;
  p.warpSize = 32;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsPerMultiProcessor = 1536;
  p.maxBlocksPerMultiProcessor = 24;
  p.regsPerMultiprocessor = 65536;
  p.regsPerBlock = 65536;
  p.sharedMemPerMultiprocessor = 102400;
  p.sharedMemPerBlock = 49152;
  p.sharedMemPerBlockOptin = 101376;
  p.reservedSharedMemPerBlock = 1024;
  return p;
}

TEST(Device, OneReadingGivesTheIdentityAndTheLimits) {
  const GpuInfo gpu = DescribeGpu(2, Rtx4090());
  EXPECT_EQ(gpu.index, 2);
  EXPECT_EQ(gpu.name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(gpu.uuid, "GPU-00010203-0405-0607-0809-0a0b0c0d0e0f");
  EXPECT_EQ(gpu.Arch(), "sm_89");
  EXPECT_EQ(gpu.sm_count, 128);
  EXPECT_EQ(gpu.memory_bytes, 25'393'692'672);
  EXPECT_EQ(gpu.l2_bytes, 75'497'472);
  EXPECT_EQ(gpu.warp_size, 32);
  EXPECT_EQ(gpu.max_threads_per_block, 1024);
  EXPECT_EQ(gpu.max_threads_per_sm, 1536);
  EXPECT_EQ(gpu.max_blocks_per_sm, 24);
  EXPECT_EQ(gpu.regs_per_sm, 65536);
  EXPECT_EQ(gpu.regs_per_block, 65536);
  EXPECT_EQ(gpu.smem_per_sm_bytes, 102400u);
  EXPECT_EQ(gpu.smem_per_block_bytes, 49152u);
  EXPECT_EQ(gpu.smem_per_block_optin_bytes, 101376u);
  EXPECT_EQ(gpu.reserved_smem_per_block_bytes, 1024u);
  EXPECT_EQ(gpu.sm_clock_mhz, 0);  // an attribute of its own, read by the discovery
}

bool GpuUsable() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

TEST(Device, WithoutAGpuEveryLookupThrowsNoGpuErrorSayingWhy) {
  if (GpuUsable()) GTEST_SKIP() << "a GPU is present";
  EXPECT_FALSE(DiscoverGpus().problem.empty());
  for (const auto& find : {+[] { RequireGpu(0); }, +[] { RequireGpus({}); }, +[] { RequireGpus({1}); }}) {
    try {
      find();
      ADD_FAILURE() << "a GPU was found";
    } catch (const NoGpuError& e) {
      EXPECT_EQ(std::string(e.what()), "this command needs a CUDA GPU, but " + DiscoverGpus().problem + ".");
    }
  }
}

}  // namespace
}  // namespace tuner
