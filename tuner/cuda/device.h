// The CUDA GPUs of this machine, found through the runtime without creating a context: each one's
// properties are read once, into its identity and its limits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/device_limits.h"

struct cudaDeviceProp;  // <cuda_runtime_api.h> stays out of this header

namespace tuner {

// A GPU of this machine: its identity and limits (what the store and the occupancy calculator need
// of it), where it is and what the reports' ceilings need.
struct GpuInfo : DeviceLimits {
  int index = 0;
  std::int64_t l2_bytes = 0;
  int sm_clock_mhz = 0;  // peak
};

struct GpuDiscovery {
  std::vector<GpuInfo> gpus;
  std::string problem;  // why there are none: no driver, no device, ...
};

GpuDiscovery DiscoverGpus();

// GPU `index` of this machine. Throws NoGpuError when no GPU is usable, UsageError naming --gpu when
// `index` is not one of them.
GpuInfo RequireGpu(int index);

// GPUs `indices` of this machine, every one when `indices` is empty. Throws as RequireGpu does,
// naming --gpus.
std::vector<GpuInfo> RequireGpus(const std::vector<int>& indices);

// GPU `index` from its properties: the one reading of cudaDeviceProp's fields (the clock is not one).
GpuInfo DescribeGpu(int index, const cudaDeviceProp& properties);

// "13.0" for the driver's CUDA version and for the runtime this binary was built with.
std::string DriverVersion();
std::string RuntimeVersion();

}  // namespace tuner
