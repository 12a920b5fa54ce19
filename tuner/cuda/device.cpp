#include "cuda/device.h"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "common/errors.h"
#include "cuda/cuda_check.h"

namespace tuner {

namespace {

std::string FormatUuid(const cudaUUID_t& uuid) {
  std::string text = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    text += hex;
  }
  return text;
}

std::string FormatVersion(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

GpuInfo Describe(int index) {
  cudaDeviceProp prop{};
  TUNER_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
  GpuInfo gpu;
  gpu.index = index;
  gpu.name = prop.name;
  gpu.uuid = FormatUuid(prop.uuid);
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
