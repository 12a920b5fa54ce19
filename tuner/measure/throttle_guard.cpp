#include "measure/throttle_guard.h"

#include <algorithm>
#include <stdexcept>

#include "profilers/nvml_library.h"

namespace tuner {

bool LoweredByThrottling(const ClockReading& reading, unsigned highest_mhz) {
  return (reading.reasons & kThrottleReasons) != 0 && reading.sm_mhz < highest_mhz;
}

ThrottleGuard::ThrottleGuard(Reader read, std::string unavailable, int retries)
    : read_(std::move(read)), unavailable_(std::move(unavailable)), retries_(retries) {
  if (!read_ && unavailable_.empty()) unavailable_ = "no clock reader";
}

ThrottleGuard ThrottleGuard::ForGpu(const std::string& uuid) {
  try {
    auto nvml = std::make_shared<Nvml>();
    const Nvml::Device device = nvml->DeviceByUuid(uuid);
    Reader read = [nvml, device] { return ClockReading{nvml->ClockEventReasons(device), nvml->SmClockMhz(device)}; };
    read();  // a GPU that does not report them is known now, not at the first sample
    return ThrottleGuard(std::move(read), "");
  } catch (const std::runtime_error& e) {
    return ThrottleGuard(nullptr, e.what());
  }
}

// One reading: whether it shows throttling that lowered the clock. A reader that fails is given up
// for the rest of the session.
bool ThrottleGuard::Throttled() {
  if (!unavailable_.empty()) return false;
  try {
    const ClockReading reading = read_();
    ++count_.reads;
    highest_mhz_ = std::max(highest_mhz_, reading.sm_mhz);
    return LoweredByThrottling(reading, highest_mhz_);
  } catch (const std::runtime_error& e) {
    unavailable_ = e.what();
    return false;
  }
}

double ThrottleGuard::Sample(const std::function<double()>& sample) {
  for (int attempt = 0;; ++attempt) {
    const bool before = Throttled();
    const double ms = sample();
    const bool after = Throttled();
    if (!(before || after) || attempt == retries_) return ms;
    ++count_.discarded;
  }
}

ThrottleCount ThrottleGuard::TakeCount() {
  ThrottleCount taken = count_;
  taken.unavailable = unavailable_;
  count_ = {};
  return taken;
}

}  // namespace tuner
