#include "cuda/device.h"

#include <cuda_runtime_api.h>

#include "base/errors.h"
#include "cuda/cuda_check.h"
#include "db/query/tuned_config.h"  // GpuUuidText: the UUID as the application library looks it up

namespace tuner {

namespace {

std::string FormatVersion(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

GpuInfo Describe(int index) {
  cudaDeviceProp prop{};
  TUNER_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
  GpuInfo gpu;
  gpu.index = index;
  gpu.name = prop.name;
  gpu.uuid = GpuUuidText(prop.uuid.bytes);
  gpu.cc_major = prop.major;
  gpu.cc_minor = prop.minor;
  gpu.sm_count = prop.multiProcessorCount;
  gpu.memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  gpu.l2_bytes = prop.l2CacheSize;
  int clock_khz = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, index) == cudaSuccess)
    gpu.sm_clock_mhz = clock_khz / 1000;
  return gpu;
}

}  // namespace

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
  if (!found.problem.empty()) return found;
  for (int i = 0; i < count; ++i) found.gpus.push_back(Describe(i));
  return found;
}

GpuInfo RequireGpu(int index) {
  const GpuDiscovery found = DiscoverGpus();
  if (found.gpus.empty()) throw NoGpuError("this command needs a CUDA GPU, but " + found.problem + ".");
  if (index < 0 || index >= static_cast<int>(found.gpus.size()))
    throw UsageError("--gpu " + std::to_string(index) + ": this machine has GPUs 0.." +
                     std::to_string(found.gpus.size() - 1));
  return found.gpus[index];
}

std::string DriverVersion() {
  int version = 0;
  return cudaDriverGetVersion(&version) == cudaSuccess && version > 0 ? FormatVersion(version) : "none";
}

std::string RuntimeVersion() { return FormatVersion(CUDART_VERSION); }

}  // namespace tuner
