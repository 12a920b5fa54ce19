#include "occupancy/device_limits.h"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "base/errors.h"

namespace tuner {

namespace {

std::string Describe(const char* call, cudaError_t error) {
  return std::string(call) + " failed with " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")";
}

int UsableGpuCount() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    cudaGetLastError();  // clear the recorded error so later runtime calls start clean
    throw NoGpuError("no usable CUDA GPU or driver: " + Describe("cudaGetDeviceCount", error) +
                     "; use --arch sm_XY to compute occupancy without a GPU");
  }
  if (count == 0)
    throw NoGpuError("no CUDA GPU found on this machine; use --arch sm_XY to compute occupancy without a GPU");
  return count;
}

}  // namespace

DeviceLimits LimitsFromProperties(const cudaDeviceProp& p) {
  DeviceLimits d;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.warp_size = p.warpSize;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  d.regs_per_sm = p.regsPerMultiprocessor;
  d.regs_per_block = p.regsPerBlock;
  d.smem_per_sm_bytes = p.sharedMemPerMultiprocessor;
  d.smem_per_block_bytes = p.sharedMemPerBlock;
  d.smem_per_block_optin_bytes = p.sharedMemPerBlockOptin;
  d.reserved_smem_per_block_bytes = p.reservedSharedMemPerBlock;
  return d;
}

DeviceLimits LimitsFromGpu(int index) {
  const int count = UsableGpuCount();
  if (index < 0 || index >= count)
    throw UsageError("--gpu " + std::to_string(index) + ": this machine has " + std::to_string(count) +
                     " CUDA GPU(s), numbered 0 to " + std::to_string(count - 1));
  cudaDeviceProp properties{};
  const cudaError_t error = cudaGetDeviceProperties(&properties, index);
  if (error != cudaSuccess)
    throw std::runtime_error(Describe("cudaGetDeviceProperties", error) + " for GPU " + std::to_string(index));
  return LimitsFromProperties(properties);
}

}  // namespace tuner
