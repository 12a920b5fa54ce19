// Energy per launch from NVML's total-energy counter (millijoules, updated every few to a hundred
// milliseconds): the kernel is launched back to back in short batches over a window long enough for
// the counter's resolution, the window aligned to the counter's updates at both ends.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "measure/nvml_library.h"

namespace tuner {

struct EnergyReading {
  double joules_per_launch = 0;
  double power_w = 0;          // the mean of the power readings taken during the window
  double launch_ms = 0;        // the window's wall time per launch
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

class EnergyMeter {
 public:
  // For the GPU of this CUDA UUID; throws NvmlError when NVML or its energy counter is unavailable.
  EnergyMeter(std::string uuid);

  // `run_batch(n)` launches the kernel n times back to back and waits for them.
  EnergyReading Measure(const std::function<void(long long)>& run_batch, double launch_ms);

 private:
  Nvml nvml_;
  Nvml::Device device_;
  std::chrono::steady_clock::time_point last_end_{};  // of the previous Measure
};

}  // namespace tuner
