// The worker's own kernels, compiled with NVRTC when it starts: filling buffers with the same
// values FillBuffer gives on the host (so a 1 GiB input costs a millisecond, not a second), and
// checking an output against the reference with CompareBuffers' rule (|out - ref| <= atol +
// rtol * |ref|, NaN never passes) without copying it to the host.
#pragma once

#include <cstdint>

#include "gpu_handles.h"
#include "template_spec.h"

namespace tuner {

class UtilityKernels {
 public:
  explicit UtilityKernels(int gpu);

  void Fill(void* data, ScalarType type, std::size_t count, BufferInit init, unsigned long long seed);

  // Number of elements that fail the check.
  std::uint64_t CountMismatches(const void* output, const void* reference, ScalarType type, std::size_t count,
                                double atol, double rtol);

 private:
  cudaKernel_t Kernel(const std::string& name) const;

  Library library_;
  DevicePointer counter_;
};

}  // namespace tuner
