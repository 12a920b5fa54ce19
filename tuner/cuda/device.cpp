#include "cuda/device.h"

#include <cuda_runtime_api.h>

#include "base/errors.h"
#include "cuda/cuda_check.h"
#include "base/gpu_identity.h"  // GpuFromProperties: the identity as the application library reads it

namespace tuner {

namespace {

std::string FormatVersion(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

GpuInfo Describe(int index) {
  cudaDeviceProp properties{};
  TUNER_CUDA_CHECK(cudaGetDeviceProperties(&properties, index));
  GpuInfo gpu = DescribeGpu(index, properties);
  int clock_khz = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, index) == cudaSuccess)
    gpu.sm_clock_mhz = clock_khz / 1000;
  return gpu;
}

// The GPUs found, or NoGpuError saying why there are none.
std::vector<GpuInfo> UsableGpus() {
  GpuDiscovery found = DiscoverGpus();
  if (found.gpus.empty()) throw NoGpuError("this command needs a CUDA GPU, but " + found.problem + ".");
  return std::move(found.gpus);
}

const GpuInfo& Pick(const std::vector<GpuInfo>& gpus, int index, const char* option) {
  if (index < 0 || index >= static_cast<int>(gpus.size()))
    throw UsageError(std::string(option) + " " + std::to_string(index) + ": this machine has GPUs 0.." +
                     std::to_string(gpus.size() - 1));
  return gpus[index];
}

}  // namespace

GpuInfo DescribeGpu(int index, const cudaDeviceProp& p) {
  GpuInfo gpu;
  static_cast<GpuIdentity&>(gpu) = GpuFromProperties(p);
  gpu.index = index;
  gpu.l2_bytes = p.l2CacheSize;
  gpu.warp_size = p.warpSize;
  gpu.max_threads_per_block = p.maxThreadsPerBlock;
  gpu.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  gpu.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  gpu.regs_per_sm = p.regsPerMultiprocessor;
  gpu.regs_per_block = p.regsPerBlock;
  gpu.smem_per_sm_bytes = p.sharedMemPerMultiprocessor;
  gpu.smem_per_block_bytes = p.sharedMemPerBlock;
  gpu.smem_per_block_optin_bytes = p.sharedMemPerBlockOptin;
  gpu.reserved_smem_per_block_bytes = p.reservedSharedMemPerBlock;
  return gpu;
}

GpuDiscovery DiscoverGpus() {
  GpuDiscovery found;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaErrorInsufficientDriver) {
    found.problem = "no NVIDIA driver is loaded on this machine (or it is older than CUDA " + RuntimeVersion() + ")";
  } else if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0)) {
    found.problem = "the NVIDIA driver reports no CUDA GPU";
  } else if (status != cudaSuccess) {
    found.problem = std::string("CUDA cannot be initialised: ") + cudaGetErrorName(status) + " (" +
                    cudaGetErrorString(status) + ")";
  }
  if (!found.problem.empty()) {
    cudaGetLastError();  // clear the recorded error so later runtime calls start clean
    return found;
  }
  for (int i = 0; i < count; ++i) found.gpus.push_back(Describe(i));
  return found;
}

GpuInfo RequireGpu(int index) { return Pick(UsableGpus(), index, "--gpu"); }

std::vector<GpuInfo> RequireGpus(const std::vector<int>& indices) {
  std::vector<GpuInfo> gpus = UsableGpus();
  if (indices.empty()) return gpus;
  std::vector<GpuInfo> picked;
  for (int index : indices) picked.push_back(Pick(gpus, index, "--gpus"));
  return picked;
}

std::string DriverVersion() {
  int version = 0;
  return cudaDriverGetVersion(&version) == cudaSuccess && version > 0 ? FormatVersion(version) : "none";
}

std::string RuntimeVersion() { return FormatVersion(CUDART_VERSION); }

}  // namespace tuner
