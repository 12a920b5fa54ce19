// The CUDA GPUs of this machine, found through the runtime without creating a context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tuner {

struct GpuInfo {
  int index = 0;
  std::string name;
  std::string uuid;  // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  int sm_clock_mhz = 0;  // peak
  std::string Arch() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }
};

struct GpuDiscovery {
  std::vector<GpuInfo> gpus;
  std::string problem;  // why there are none: no driver, no device, ...
};

GpuDiscovery DiscoverGpus();

// Throws NoGpuError when no GPU is usable, UsageError when `index` is not one of them.
GpuInfo RequireGpu(int index);

// "13.0" for the driver's CUDA version and for the runtime this binary was built with.
std::string DriverVersion();
std::string RuntimeVersion();

}  // namespace tuner
