// The worker's counters and energy for a sweep's chosen candidates, after their timing (the `profile`
// request): the counters of all of them in one CUPTI session, their energy in chained windows. From
// the `prepare_profiler` request on, CUPTI is loaded and its host side (the metrics' configuration)
// built, and NVML loaded, in the background while the sweep times its candidates, so the profile
// does not wait for them (otherwise NVML is loaded at the first energy). Where one is unavailable the
// reply says why and the other is still measured.
#pragma once

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "profilers/cupti_library.h"
#include "profilers/energy_meter.h"
#include "measure/gpu_session.h"
#include "profilers/range_profiler.h"
#include "measure/worker_protocol.h"

namespace tuner {

class HardwareProfiler {
 public:
  // Starts loading CUPTI and building its configuration for CUDA device `gpu`, and loading NVML for
  // the GPU of CUDA UUID `uuid`, in the background (host work only: nothing is enabled on the GPU
  // until the first profile). A failure shows at the first profile.
  void Prepare(int gpu, const std::string& uuid);

  // The counters and energy each candidate asked for, or why either cannot be had, and where the
  // time went. `idle_ms`: how long the GPU sat idle before this request.
  ProfileReply Profile(GpuSession& session, const ProfileRequest& request, double idle_ms);

 private:
  void Counters(GpuSession& session, const ProfileRequest& request, ProfileReply& reply);
  void Energy(GpuSession& session, const ProfileRequest& request, double idle_ms, ProfileReply& reply);
  RangeProfiler& Profiler(int gpu);
  EnergyMeter& Meter(const std::string& uuid);

  // CUPTI's entry points and the profiler built on them: it refers to them, so it goes first.
  struct Counting {
    std::unique_ptr<CuptiApi> cupti;
    std::unique_ptr<RangeProfiler> profiler;
  };
  static Counting StartCounting(int gpu, CUcontext context);

  std::future<Counting> preparing_counting_;
  Counting counting_;
  std::string counters_unavailable_;  // set once CUPTI cannot work in this process
  std::future<std::unique_ptr<EnergyMeter>> preparing_energy_;
  std::unique_ptr<EnergyMeter> energy_;
  std::string energy_unavailable_;
};

}  // namespace tuner
