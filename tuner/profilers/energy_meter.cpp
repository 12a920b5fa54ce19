#include "profilers/energy_meter.h"

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
constexpr double kWarmUpMs = 100;   // clocks and power settle after the GPU sat idle (kEnergyIdleMs)
constexpr double kNoUpdateS = 2.0;  // an energy counter that stands still this long is broken

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

long long LaunchesPerBatch(double launch_ms) {
  if (!(launch_ms > 0)) return 1;
  return std::clamp<long long>(static_cast<long long>(std::ceil(kBatchMs / launch_ms)), 1, 100000);
}

std::size_t BatchesQueued(double batch_ms) {
  constexpr double kQueuedMs = 4;
  if (!(batch_ms > 0)) return 1;
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(kQueuedMs / batch_ms)), 1, kMostBatchesQueued - 1);
}

double EnergyWindowMs(double batch_ms) { return std::clamp(kBatchesPerWindow * batch_ms, kMinWindowMs, kMaxWindowMs); }

EnergyMeter::EnergyMeter(std::string uuid) : device_(nvml_.DeviceByUuid(uuid)) {
  nvml_.TotalEnergyMj(device_);  // throws where the GPU has no energy counter
}

std::vector<EnergyReading> EnergyMeter::Measure(const BatchQueue& queue, const std::vector<double>& launch_ms,
                                                double idle_ms) {
  std::vector<EnergyReading> readings;
  if (launch_ms.empty()) return readings;
  // Queues a batch of `kernel` and waits until only BatchesQueued of it are left to run.
  const auto run = [&](std::size_t kernel, long long launches) {
    queue.enqueue(kernel, launches);
    queue.wait_until_unfinished(BatchesQueued(static_cast<double>(launches) * launch_ms[kernel]));
  };
  // Runs batches of `kernel` until the counter differs from `before`; returns its new value.
  const auto until_update = [&](std::size_t kernel, unsigned long long before,
                                const std::function<void()>& after_batch) {
    const auto start = Clock::now();
    for (;;) {
      run(kernel, LaunchesPerBatch(launch_ms[kernel]));
      if (after_batch) after_batch();
      const unsigned long long now = nvml_.TotalEnergyMj(device_);
      if (now != before) return now;
      if (MsSince(start) > kNoUpdateS * 1000) throw NvmlError("the GPU's energy counter did not change for 2 s");
    }
  };
  if (idle_ms > kEnergyIdleMs)
    for (const auto warm_up = Clock::now(); MsSince(warm_up) < kWarmUpMs;) run(0, LaunchesPerBatch(launch_ms[0]));
  unsigned long long opened = until_update(0, nvml_.TotalEnergyMj(device_), nullptr);
  for (std::size_t kernel = 0; kernel < launch_ms.size(); ++kernel) {
    const long long batch = LaunchesPerBatch(launch_ms[kernel]);
    const double least_ms = EnergyWindowMs(static_cast<double>(batch) * launch_ms[kernel]);
    const auto start = Clock::now();
    long long launches = 0;
    const auto counted = [&] { launches += batch; };
    while (MsSince(start) < least_ms) {
      run(kernel, batch);
      counted();
    }
    const unsigned long long closed = until_update(kernel, nvml_.TotalEnergyMj(device_), counted);
    EnergyReading reading;
    reading.window_ms = MsSince(start);
    reading.launches = launches;
    reading.joules_per_launch = static_cast<double>(closed - opened) * 1e-3 / static_cast<double>(launches);
    reading.launch_ms = reading.window_ms / static_cast<double>(launches);
    reading.power_w = static_cast<double>(closed - opened) / reading.window_ms;  // mJ per ms
    readings.push_back(reading);
    opened = closed;  // the update that closes this window opens the next
  }
  queue.wait_until_unfinished(0);
  return readings;
}

}  // namespace tuner
