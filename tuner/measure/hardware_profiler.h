// The worker's counters and energy for a sweep's chosen candidates, after their timing (the `profile`
// request): the counters of all of them in one CUPTI session, their energy in chained windows. CUPTI's
// host side (the metrics' configuration) is built in the background from the `prepare_profiler`
// request on, while the sweep times its candidates; NVML is loaded at the first energy. Where one is
// unavailable the reply says why and the other is still measured.
#pragma once

#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "measure/cupti_library.h"
#include "measure/energy_meter.h"
#include "measure/gpu_session.h"
#include "measure/range_profiler.h"
#include "measure/worker_protocol.h"

namespace tuner {

class HardwareProfiler {
 public:
  ~HardwareProfiler();

  // Starts building CUPTI's configuration for `gpu` in the background (host work only: nothing is
  // enabled on the GPU until the first profile). A failure shows at the first profile.
  void Prepare(int gpu);

  // The counters and energy each candidate asked for, or why either cannot be had, and where the
  // time went. `idle_ms`: how long the GPU sat idle before this request.
  ProfileReply Profile(GpuSession& session, const ProfileRequest& request, double idle_ms);

 private:
  void Counters(GpuSession& session, const ProfileRequest& request, ProfileReply& reply);
  void Energy(GpuSession& session, const ProfileRequest& request, double idle_ms, ProfileReply& reply);
  RangeProfiler& Profiler(int gpu);

  std::optional<CuptiApi> cupti_;
  std::future<std::unique_ptr<RangeProfiler>> preparing_;
  std::unique_ptr<RangeProfiler> profiler_;
  std::string counters_unavailable_;  // set once CUPTI cannot work in this process
  std::unique_ptr<EnergyMeter> energy_;
  std::string energy_unavailable_;
};

}  // namespace tuner
