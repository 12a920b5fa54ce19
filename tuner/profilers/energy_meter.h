// Energy per launch from NVML's total-energy counter (millijoules, updated every few to a hundred
// milliseconds): each kernel is launched back to back in short batches over a window long enough for
// the counter's resolution, the window aligned to the counter's updates at both ends. Several kernels'
// windows are chained: the update that closes one window opens the next, so each costs one window.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "profilers/nvml_library.h"

namespace tuner {

struct EnergyReading {
  double joules_per_launch = 0;
  // The counter's mean power over the window (its energy over its time). Not NVML's power readings:
  // they update about every 100 ms on an H100, as often as a window ends, so the few a window sees
  // can belong to the work before it (measured 25-43% off the counter's mean, 2026-11-27).
  double power_w = 0;
  double launch_ms = 0;  // the window's wall time per launch
  long long launches = 0;
  double window_ms = 0;
};

// The batch a launch of `launch_ms` is repeated in: about 1 ms, at least one launch, so that the
// host sees a counter update at most a batch late.
long long LaunchesPerBatch(double launch_ms);

// The least a window runs before it ends at the counter's next update. Both ends are updates of the
// counter, each seen at most one batch late, so the launches counted are off by at most one batch at
// each end: 50 batches keep that under 2 x 1/50 = 4% (under 2% for kernels under a millisecond,
// whose window is one update interval: 100 ms on an H100); 50 ms at least, 10 s at most. The
// counter's quantum, 1 mJ, is under 1% of the tens of joules an H100 uses in 100 ms.
double EnergyWindowMs(double batch_ms);

// The launches an energy run makes: `enqueue(kernel, n)` queues a batch of n launches of one kernel
// without waiting; `wait_until_unfinished(k)` waits until at most the last k queued batches are
// unfinished (0: all done). The meter keeps a few milliseconds of batches queued while the host reads
// NVML (a reading takes about a millisecond), so the GPU never waits between launches.
struct BatchQueue {
  std::function<void(std::size_t kernel, long long launches)> enqueue;
  std::function<void(std::size_t batches)> wait_until_unfinished;
};

// The most batches an energy run keeps queued (the BatchQueue must track this many).
inline constexpr std::size_t kMostBatchesQueued = 8;

// How many batches of `batch_ms` keep about 4 ms queued: at least 1, at most kMostBatchesQueued - 1.
std::size_t BatchesQueued(double batch_ms);

// More than this without GPU work and the clocks must settle again first.
inline constexpr double kEnergyIdleMs = 200;

class EnergyMeter {
 public:
  // For the GPU of this CUDA UUID; throws NvmlError when NVML or its energy counter is unavailable.
  EnergyMeter(std::string uuid);

  // One reading per kernel, kernel k taking about launch_ms[k] a launch, in consecutive windows.
  // The GPU sat idle for `idle_ms` before (more than kEnergyIdleMs: a warm-up first).
  std::vector<EnergyReading> Measure(const BatchQueue& queue, const std::vector<double>& launch_ms, double idle_ms);

 private:
  Nvml nvml_;
  Nvml::Device device_;
};

}  // namespace tuner
