// Samples taken while the GPU throttled are discarded and taken again. Around each sample (before and
// after, outside its timed region) NVML's clock-event reasons and the SM clock are read; a sample is
// discarded when a power or thermal reason was set and the SM clock stood below the highest one this
// session has seen, i.e. the throttling lowered the clock. A sample is taken again at most
// `retries` times; the last one is kept whatever it saw, so a GPU that throttles all the time still
// gives a time. Only reads: never changes clocks or limits.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "measure/worker_protocol.h"

namespace tuner {

struct ClockReading {
  unsigned long long reasons = 0;  // nvmlClocksEventReason* bits
  unsigned sm_mhz = 0;
};

// nvmlClocksEventReason{SwPowerCap, HwSlowdown, SwThermalSlowdown, HwThermalSlowdown,
// HwPowerBrakeSlowdown}: the reasons that are power or thermal throttling. Idle, application clocks,
// sync boost and display clocks are not.
inline constexpr unsigned long long kThrottleReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

// Whether `reading` shows power or thermal throttling that lowered the SM clock below `highest_mhz`.
bool LoweredByThrottling(const ClockReading& reading, unsigned highest_mhz);

class ThrottleGuard {
 public:
  using Reader = std::function<ClockReading()>;  // throws std::runtime_error when it cannot read

  // Reads through `read`; `unavailable` non-empty: no reader, and this says why.
  ThrottleGuard(Reader read, std::string unavailable, int retries = 3);
  // NVML for the GPU of this CUDA UUID; missing NVML or a GPU that does not report the reasons makes
  // a guard that discards nothing and says why (the reply carries it; the summary says it once).
  static ThrottleGuard ForGpu(const std::string& uuid);

  // One sample of `sample`, taken again while throttling lowered the clock.
  double Sample(const std::function<double()>& sample);
  // The accounting since the last call.
  ThrottleCount TakeCount();

 private:
  bool Throttled();

  Reader read_;
  std::string unavailable_;
  int retries_;
  unsigned highest_mhz_ = 0;
  ThrottleCount count_;
};

}  // namespace tuner
