// The worker's own kernels compile without a GPU; on a GPU (skipped without one) the fill kernel
// gives exactly the values FillBuffer defines, the checksum is Checksum's, and the check counts
// what CompareBuffers counts.
#include "gpu_utility_kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "buffer_contents.h"
#include "gpu_test_support.h"

namespace tuner {
namespace {

TEST(UtilityKernelsGpu, FillMatchesTheHostDefinition) {
  TUNER_GPU_TEST(1);
  UtilityKernels kernels(0);
  constexpr std::size_t kCount = 100003;
  for (ScalarType type : {ScalarType::kFloat, ScalarType::kDouble, ScalarType::kInt, ScalarType::kUint,
                          ScalarType::kInt64, ScalarType::kUint64}) {
    for (BufferInit init : {BufferInit::kRandom, BufferInit::kZero, BufferInit::kOne, BufferInit::kIndex, BufferInit::kPoison,
                            BufferInit::kRandomInt}) {
      const std::size_t bytes = kCount * SizeOf(type);
      DevicePointer device = DeviceAlloc(bytes);
      kernels.Fill(device.get(), type, kCount, init, 42);
      std::vector<unsigned char> gpu(bytes), host(bytes);
      ASSERT_EQ(cudaMemcpy(gpu.data(), device.get(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
      FillBuffer(host.data(), type, kCount, init, 42);
      EXPECT_EQ(gpu, host) << ToString(type) << " " << ToString(init);
    }
  }
}

TEST(UtilityKernelsGpu, CheckAgreesWithTheHostComparison) {
  TUNER_GPU_TEST(1);
  UtilityKernels kernels(0);
  std::vector<float> reference(4096), output(4096);
  FillBuffer(reference.data(), ScalarType::kFloat, reference.size(), BufferInit::kRandom, 7);
  output = reference;
  output[5] += 1e-3f;
  output[9] = std::nanf("");
  const std::size_t bytes = output.size() * sizeof(float);
  DevicePointer out = DeviceAlloc(bytes), ref = DeviceAlloc(bytes);
  ASSERT_EQ(cudaMemcpy(out.get(), output.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(ref.get(), reference.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  // Exactly: element 5 (off by 1e-3) fails only without tolerance, the NaN at 9 always.
  for (const auto& [atol, expected] : {std::pair{0.0, 2u}, std::pair{1e-2, 1u}}) {
    const Comparison host = CompareBuffers(output.data(), reference.data(), ScalarType::kFloat, output.size(), atol, 0);
    EXPECT_EQ(host.mismatches, expected) << atol;
    EXPECT_EQ(kernels.CountMismatches(out.get(), ref.get(), ScalarType::kFloat, output.size(), atol, 0), expected) << atol;
  }
}

TEST(UtilityKernels, CompileWithoutAGpu) {
  EXPECT_GT(CompileUtilityKernels("sm_90").size(), 1000u);
  EXPECT_THROW(CompileUtilityKernels("sm_1"), std::runtime_error);
}

TEST(UtilityKernelsGpu, ChecksumIsTheHostChecksumAndSeesOneChangedWord) {
  TUNER_GPU_TEST(1);
  UtilityKernels kernels(0);
  for (std::size_t words : {1u, 31u, 4096u, 1000003u}) {
    std::vector<std::uint32_t> host(words);
    FillBuffer(host.data(), ScalarType::kUint, words, BufferInit::kRandom, 3);
    DevicePointer device = DeviceAlloc(words * 4);
    ASSERT_EQ(cudaMemcpy(device.get(), host.data(), words * 4, cudaMemcpyHostToDevice), cudaSuccess);
    const std::uint64_t before = kernels.Checksum(device.get(), words * 4);
    EXPECT_EQ(before, Checksum(host.data(), words * 4)) << words;
    host[words / 2] ^= 1u << 7;
    ASSERT_EQ(cudaMemcpy(device.get(), host.data(), words * 4, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_NE(kernels.Checksum(device.get(), words * 4), before) << words;
    EXPECT_EQ(kernels.Checksum(device.get(), words * 4), Checksum(host.data(), words * 4)) << words;
  }
}

}  // namespace
}  // namespace tuner
