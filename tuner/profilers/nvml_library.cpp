#include "profilers/nvml_library.h"

namespace tuner {

namespace {

constexpr int kNvmlSuccess = 0;
constexpr int kNvmlNotSupported = 3;
constexpr int kNvmlNoPermission = 4;
constexpr int kClockSm = 1;                   // NVML_CLOCK_SM

}  // namespace

namespace {

using ReasonsFunction = int (*)(Nvml::Device, unsigned long long*);

// Drivers before 535 know the reasons by their older name only.
ReasonsFunction ClockEventReasonsFunction(const SharedLibrary& library) {
  try {
    return library.Function<ReasonsFunction>("nvmlDeviceGetCurrentClocksEventReasons");
  } catch (const std::runtime_error&) {
    return library.Function<ReasonsFunction>("nvmlDeviceGetCurrentClocksThrottleReasons");
  }
}

SharedLibrary OpenNvml() {
  std::string why_not;
  std::optional<SharedLibrary> library = SharedLibrary::OpenFirst({"libnvidia-ml.so.1"}, &why_not);
  if (!library) throw NvmlError("NVML (libnvidia-ml.so.1, part of the NVIDIA driver) was not found: " + why_not);
  return std::move(*library);
}

}  // namespace

Nvml::Nvml() : library_(OpenNvml()) {
  try {
    shutdown_ = library_.Function<int (*)()>("nvmlShutdown");
    error_string_ = library_.Function<const char* (*)(int)>("nvmlErrorString");
    by_uuid_ = library_.Function<int (*)(const char*, Device*)>("nvmlDeviceGetHandleByUUID");
    energy_ = library_.Function<int (*)(Device, unsigned long long*)>("nvmlDeviceGetTotalEnergyConsumption");
    clock_event_reasons_ = ClockEventReasonsFunction(library_);
    clock_info_ = library_.Function<int (*)(Device, int, unsigned*)>("nvmlDeviceGetClockInfo");
    Check(library_.Function<int (*)()>("nvmlInit_v2")(), "nvmlInit_v2");
  } catch (const NvmlError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw NvmlError(e.what());
  }
}

Nvml::~Nvml() { shutdown_(); }

void Nvml::Check(int result, const char* call) const {
  if (result == kNvmlSuccess) return;
  std::string message = std::string(call) + " failed: " + error_string_(result);
  if (result == kNvmlNotSupported) message += " (this GPU does not report it)";
  if (result == kNvmlNoPermission) message += " (this user may not read it)";
  throw NvmlError(message);
}

Nvml::Device Nvml::DeviceByUuid(const std::string& uuid) const {
  Device device = nullptr;
  Check(by_uuid_(uuid.c_str(), &device), "nvmlDeviceGetHandleByUUID");
  return device;
}

unsigned long long Nvml::TotalEnergyMj(Device device) const {
  unsigned long long millijoules = 0;
  Check(energy_(device, &millijoules), "nvmlDeviceGetTotalEnergyConsumption");
  return millijoules;
}

unsigned long long Nvml::ClockEventReasons(Device device) const {
  unsigned long long reasons = 0;
  Check(clock_event_reasons_(device, &reasons), "nvmlDeviceGetCurrentClocksEventReasons");
  return reasons;
}

unsigned Nvml::SmClockMhz(Device device) const {
  unsigned mhz = 0;
  Check(clock_info_(device, kClockSm, &mhz), "nvmlDeviceGetClockInfo");
  return mhz;
}

}  // namespace tuner
