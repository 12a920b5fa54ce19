#include "measure/hardware_profiler.h"

#include <chrono>

#include "measure/metric_set.h"

namespace tuner {

nlohmann::json ToJson(const ProfileRequest& request) {
  return {{"op", "profile"}, {"launch", ToJson(request.launch)}, {"gpu", request.gpu}, {"uuid", request.uuid},
          {"counters", request.counters}, {"energy", request.energy}, {"launch_ms", request.launch_ms}};
}

ProfileRequest ProfileFromJson(const nlohmann::json& json) {
  ProfileRequest request;
  request.launch = LaunchFromJson(json.at("launch"));
  request.gpu = json.at("gpu");
  request.uuid = json.at("uuid");
  request.counters = json.at("counters");
  request.energy = json.at("energy");
  request.launch_ms = json.at("launch_ms");
  return request;
}

nlohmann::json HardwareProfiler::Profile(GpuSession& session, const ProfileRequest& request) {
  nlohmann::json reply = {{"ok", true}};
  if (request.counters) reply.update(Counters(session, request));
  if (request.energy) reply.update(Energy(session, request));
  return reply;
}

RangeProfiler& HardwareProfiler::Profiler(int gpu) {
  if (!cupti_) cupti_.emplace(LoadCupti());
  if (!profiler_) profiler_ = std::make_unique<RangeProfiler>(*cupti_, gpu, RawMetrics());
  return *profiler_;
}

nlohmann::json HardwareProfiler::Counters(GpuSession& session, const ProfileRequest& request) {
  if (!counters_unavailable_.empty())
    return {{"counters_unavailable", counters_unavailable_}, {"counters_unavailable_permanent", true}};
  // A refusal (no CUPTI, no permission, an unsupported GPU) holds for the whole process.
  try {
    const auto start = std::chrono::steady_clock::now();
    std::map<std::string, double> raw;
    session.WithCandidate(request.launch, [&](const auto& prepare, const auto& launch) {
      raw = Profiler(request.gpu).Profile(prepare, launch);
    });
    nlohmann::json counters = DeriveCounters(raw);
    counters["passes"] = profiler_->passes();
    counters["collect_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return {{"counters", counters}};
  } catch (const CuptiError& e) {
    profiler_.reset();
    counters_unavailable_ = e.what();
    return {{"counters_unavailable", counters_unavailable_}, {"counters_unavailable_permanent", true}};
  }
}

nlohmann::json HardwareProfiler::Energy(GpuSession& session, const ProfileRequest& request) {
  if (!energy_unavailable_.empty()) return {{"energy_unavailable", energy_unavailable_}, {"energy_unavailable_permanent", true}};
  try {
    if (!energy_) energy_ = std::make_unique<EnergyMeter>(request.uuid);
    EnergyReading reading;
    session.WithCandidate(request.launch, [&](const auto& prepare, const auto& launch) {
      prepare();
      reading = energy_->Measure([&](long long n) {
        for (long long i = 0; i < n; ++i) launch();
        TUNER_CUDA_CHECK(cudaDeviceSynchronize());
      }, request.launch_ms);
    });
    return {{"energy", {{"joules_per_launch", reading.joules_per_launch}, {"power_w", reading.power_w},
                        {"launch_ms", reading.launch_ms}, {"launches", reading.launches},
                        {"window_ms", reading.window_ms}}}};
  } catch (const NvmlError& e) {
    energy_unavailable_ = e.what();
    return {{"energy_unavailable", energy_unavailable_}, {"energy_unavailable_permanent", true}};
  }
}

}  // namespace tuner
