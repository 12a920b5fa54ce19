// The device `explore` and `occupancy` compute for: a built-in architecture (--arch, no GPU needed)
// or a GPU of this machine (--gpu N). Both options are defined and checked here, before any GPU is
// touched; only ResolveTarget reads a GPU.
#pragma once

#include <optional>
#include <string>

#include "app/cli.h"
#include "occupancy/arch_table.h"

namespace tuner {

void AddTargetOptions(po::options_description& options, const char* gpu_help);  // --arch, --gpu

struct TargetChoice {
  std::optional<ArchTarget> arch;  // --arch
  int gpu = 0;                     // --gpu, or 0; used when arch is empty
};

// Refuses --arch with --gpu, an unknown architecture and a negative GPU index. `default_arch`
// applies when neither is given ("" for GPU 0).
TargetChoice ReadTargetChoice(const po::variables_map& vm, const std::string& default_arch);

struct TargetDevice {
  DeviceLimits limits;
  std::string arch;  // what NVRTC compiles for: "sm_90a" as given to --arch, the GPU's "sm_90"
};

// The table entry, or the GPU's limits (NoGpuError without one, UsageError for a GPU index it lacks).
TargetDevice ResolveTarget(const TargetChoice& choice);

// NVRTC compiles for sm_75 and newer: UsageError starting with `what` for an older device.
void RequireNvrtcArch(const DeviceLimits& device, const std::string& what, const std::string& advice = "");

}  // namespace tuner
