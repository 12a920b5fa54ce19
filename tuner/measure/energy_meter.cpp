#include "measure/energy_meter.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace tuner {

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kBatchMs = 1.0;
constexpr double kBatchesPerWindow = 50;
constexpr double kMinWindowMs = 50;
constexpr double kMaxWindowMs = 10000;
constexpr double kWarmUpMs = 100;  // clocks and power settle after the GPU sat idle
constexpr double kIdleMs = 200;    // ... longer than this
constexpr double kNoUpdateS = 2.0;  // an energy counter that stands still this long is broken

double MsSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

}  // namespace

long long LaunchesPerBatch(double launch_ms) {
  if (!(launch_ms > 0)) return 1;
  return std::clamp<long long>(static_cast<long long>(std::ceil(kBatchMs / launch_ms)), 1, 100000);
}

double EnergyWindowMs(double batch_ms) {
  return std::clamp(kBatchesPerWindow * batch_ms, kMinWindowMs, kMaxWindowMs);
}

EnergyMeter::EnergyMeter(std::string uuid) : device_(nvml_.DeviceByUuid(uuid)) {
  nvml_.TotalEnergyMj(device_);  // throws where the GPU has no energy counter
}

EnergyReading EnergyMeter::Measure(const std::function<void(long long)>& run_batch, double launch_ms) {
  const long long batch = LaunchesPerBatch(launch_ms);
  EnergyReading reading;
  const double least_ms = EnergyWindowMs(batch * launch_ms);
  // Runs batches until the counter changes; returns its new value.
  const auto until_update = [&](long long* launches, std::vector<double>* power) {
    const auto start = Clock::now();
    const unsigned long long before = nvml_.TotalEnergyMj(device_);
    for (;;) {
      run_batch(batch);
      if (launches) *launches += batch;
      if (power) power->push_back(nvml_.PowerMw(device_) * 1e-3);
      const unsigned long long now = nvml_.TotalEnergyMj(device_);
      if (now != before) return now;
      if (MsSince(start) > kNoUpdateS * 1000) throw NvmlError("the GPU's energy counter did not change for 2 s");
    }
  };
  if (std::chrono::duration<double, std::milli>(Clock::now() - last_end_).count() > kIdleMs)
    for (const auto warm_up = Clock::now(); MsSince(warm_up) < kWarmUpMs;) run_batch(batch);
  const unsigned long long first = until_update(nullptr, nullptr);
  const auto start = Clock::now();
  long long launches = 0;
  std::vector<double> power_w;
  while (MsSince(start) < least_ms) {
    run_batch(batch);
    launches += batch;
    power_w.push_back(nvml_.PowerMw(device_) * 1e-3);
  }
  const unsigned long long last = until_update(&launches, &power_w);
  const double elapsed_ms = MsSince(start);
  reading.window_ms = elapsed_ms;
  reading.launches = launches;
  reading.joules_per_launch = static_cast<double>(last - first) * 1e-3 / static_cast<double>(launches);
  reading.launch_ms = elapsed_ms / static_cast<double>(launches);
  double sum = 0;
  for (double p : power_w) sum += p;
  reading.power_w = sum / static_cast<double>(power_w.size());
  last_end_ = Clock::now();
  return reading;
}

}  // namespace tuner
