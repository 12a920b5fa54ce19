// The few NVML entry points the energy measurement and the throttle accounting need, loaded at run time from the
// driver's libnvidia-ml.so.1 (declared here: the toolkit ships no nvml.h). Only reads: never changes clocks, power
// limits or modes.
#pragma once

#include <stdexcept>
#include <string>

#include "profilers/shared_library.h"

namespace tuner {

struct NvmlError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Nvml {
 public:
  using Device = struct NvmlDevice*;

  // Loads the library and initialises NVML; throws NvmlError saying why not.
  Nvml();
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  // The device of a CUDA UUID ("GPU-…"): NVML numbers GPUs differently under CUDA_VISIBLE_DEVICES.
  Device DeviceByUuid(const std::string& uuid) const;
  // Energy used since the driver loaded, in millijoules (Volta and newer).
  unsigned long long TotalEnergyMj(Device device) const;
  // The clock-event reasons now, a mask of NVML's nvmlClocksEventReason* bits
  // (nvmlDeviceGetCurrentClocksEventReasons; its older name ...ClocksThrottleReasons on older drivers).
  unsigned long long ClockEventReasons(Device device) const;
  // The SM clock now, in MHz (nvmlDeviceGetClockInfo, NVML_CLOCK_SM).
  unsigned SmClockMhz(Device device) const;

 private:
  void Check(int result, const char* call) const;

  SharedLibrary library_;
  int (*shutdown_)();
  const char* (*error_string_)(int);
  int (*by_uuid_)(const char*, Device*);
  int (*energy_)(Device, unsigned long long*);
  int (*clock_event_reasons_)(Device, unsigned long long*);
  int (*clock_info_)(Device, int, unsigned*);
};

}  // namespace tuner
