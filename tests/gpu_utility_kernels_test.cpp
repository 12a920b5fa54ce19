// On a GPU (skipped without one): the worker's fill kernel gives exactly the values FillBuffer
// defines, and its check agrees with CompareBuffers.
#include "gpu_utility_kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "buffer_contents.h"
#include "device.h"

namespace tuner {
namespace {

TEST(UtilityKernelsGpu, FillMatchesTheHostDefinition) {
  const GpuDiscovery found = DiscoverGpus();
  if (found.gpus.empty()) GTEST_SKIP() << "no usable GPU: " << found.problem;
  UtilityKernels kernels(0);
  constexpr std::size_t kCount = 100003;
  for (ScalarType type : {ScalarType::kFloat, ScalarType::kDouble, ScalarType::kInt, ScalarType::kUint,
                          ScalarType::kInt64, ScalarType::kUint64}) {
    for (BufferInit init : {BufferInit::kRandom, BufferInit::kZero, BufferInit::kOne, BufferInit::kIndex, BufferInit::kPoison}) {
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
  const GpuDiscovery found = DiscoverGpus();
  if (found.gpus.empty()) GTEST_SKIP() << "no usable GPU: " << found.problem;
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
  for (double atol : {0.0, 1e-2}) {
    const Comparison host = CompareBuffers(output.data(), reference.data(), ScalarType::kFloat, output.size(), atol, 0);
    EXPECT_EQ(kernels.CountMismatches(out.get(), ref.get(), ScalarType::kFloat, output.size(), atol, 0), host.mismatches) << atol;
  }
}

}  // namespace
}  // namespace tuner
