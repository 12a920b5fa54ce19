// The worker's counters and energy for one candidate, after its timing (the `profile` request):
// CUPTI and NVML are loaded at the first request; where one is unavailable the reply says why and
// the other is still measured.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "measure/cupti_library.h"
#include "measure/energy_meter.h"
#include "measure/gpu_session.h"
#include "measure/range_profiler.h"
#include "measure/worker_protocol.h"

namespace tuner {

struct ProfileRequest {
  KernelLaunch launch;
  int gpu = 0;
  std::string uuid;       // for NVML
  bool counters = true;
  bool energy = false;
  double launch_ms = 0;   // the candidate's median time, for the energy run's batches
};

nlohmann::json ToJson(const ProfileRequest& request);
ProfileRequest ProfileFromJson(const nlohmann::json& json);

class HardwareProfiler {
 public:
  // {"ok": true, "counters": {...}, "energy": {"joules_per_launch", "power_w", "launch_ms", "launches",
  // "window_ms"}}; instead of either, "counters_unavailable" or
  // "energy_unavailable" with the reason ("…_permanent": true when no later request can succeed).
  nlohmann::json Profile(GpuSession& session, const ProfileRequest& request);

 private:
  nlohmann::json Counters(GpuSession& session, const ProfileRequest& request);
  nlohmann::json Energy(GpuSession& session, const ProfileRequest& request);
  RangeProfiler& Profiler(int gpu);

  std::optional<CuptiApi> cupti_;
  std::unique_ptr<RangeProfiler> profiler_;
  std::string counters_unavailable_;  // set once CUPTI cannot work in this process
  std::unique_ptr<EnergyMeter> energy_;
  std::string energy_unavailable_;
};

}  // namespace tuner
