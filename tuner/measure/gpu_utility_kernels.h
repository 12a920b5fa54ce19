// The worker's own kernels, compiled with NVRTC when it starts: filling buffers with the same
// values FillBuffer gives on the host (so a 1 GiB input costs a millisecond, not a second),
// checking an output against the reference with CompareBuffers' rule (|out - ref| <= atol +
// rtol * |ref|, NaN never passes) without copying it to the host, and the Checksum of a buffer.
#pragma once

#include <cstdint>
#include <string>

#include "cuda/gpu_handles.h"
#include "template/template_spec.h"

namespace tuner {

// The kernels' CUBIN for `arch` ("sm_90"); throws with NVRTC's log. Needs no GPU.
std::string CompileUtilityKernels(const std::string& arch);

class UtilityKernels {
 public:
  explicit UtilityKernels(int gpu);

  void Fill(void* data, ScalarType type, std::size_t count, BufferInit init, unsigned long long seed);

  // Checksum() of buffer_contents.h, computed where the buffer is.
  std::uint64_t Checksum(const void* data, std::size_t bytes);

  // Number of elements that fail the check.
  std::uint64_t CountMismatches(const void* output, const void* reference, ScalarType type, std::size_t count,
                                double atol, double rtol);

 private:
  cudaKernel_t Kernel(const std::string& name) const;

  Library library_;
  DevicePointer counter_;
};

}  // namespace tuner
