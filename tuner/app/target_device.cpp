#include "app/target_device.h"

#include "app/command_options.h"
#include "base/errors.h"
#include "cuda/device.h"

namespace tuner {

namespace {

constexpr int kOldestNvrtcArch = 75;  // NVRTC 13.0 starts at compute_75

}  // namespace

void AddTargetOptions(po::options_description& options, const char* gpu_help) {
  options.add_options()("arch", po::value<std::string>()->value_name("sm_XY"),
                        "a built-in architecture, sm_50 ... sm_121, or a variant compiled with its own instructions "
                        "and sm_XY's limits: sm_XYa (sm_90 and newer), sm_XYf (sm_100 and newer); exact spelling, "
                        "see 'tuner occupancy --list-archs'");
  AddGpuOption(options, gpu_help);
}

TargetChoice ReadTargetChoice(const po::variables_map& vm, const std::string& default_arch) {
  RefuseTogether(vm, "arch", "gpu");
  TargetChoice choice;
  if (vm.count("arch"))
    choice.arch = ParseArch(vm["arch"].as<std::string>());
  else if (const std::optional<int> gpu = GpuOption(vm))
    choice.gpu = *gpu;
  else if (!default_arch.empty())
    choice.arch = ParseArch(default_arch);
  return choice;
}

TargetDevice ResolveTarget(const TargetChoice& choice) {
  if (choice.arch) return {choice.arch->limits, choice.arch->name};
  try {
    const GpuInfo gpu = RequireGpu(choice.gpu);
    return {gpu, gpu.Arch()};
  } catch (const NoGpuError& e) {
    throw NoGpuError(std::string(e.what()) + " Without one, --arch sm_XY computes for a built-in architecture.");
  }
}

void RequireNvrtcArch(const DeviceLimits& device, const std::string& what, const std::string& advice) {
  if (device.cc_major * 10 + device.cc_minor >= kOldestNvrtcArch) return;
  throw UsageError(what + ": NVRTC compiles for sm_75 and newer, not for " + device.name + " (compute capability " +
                   std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor) + ")" +
                   (advice.empty() ? "" : "; " + advice));
}

}  // namespace tuner
