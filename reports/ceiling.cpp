#include "reports/ceiling.h"

#include <type_traits>

#include "reports/report_format.h"

namespace tuner::report {

namespace {

// The ceilings' inputs (SweepRecord::copy_gbps, GpuRecord::sm_clock_mhz) are being added to the
// store; until a database has them they read 0, "unknown".
template <typename T, typename = void>
struct HasCopyGbps : std::false_type {};
template <typename T>
struct HasCopyGbps<T, std::void_t<decltype(T::copy_gbps)>> : std::true_type {};
template <typename T, typename = void>
struct HasSmClock : std::false_type {};
template <typename T>
struct HasSmClock<T, std::void_t<decltype(T::sm_clock_mhz)>> : std::true_type {};

template <typename Sweep>
double CopyGbps(const Sweep& sweep) {
  if constexpr (HasCopyGbps<Sweep>::value) return static_cast<double>(sweep.copy_gbps);
  else return 0;
}

template <typename Gpu>
double SmClockMhz(const Gpu& gpu) {
  if constexpr (HasSmClock<Gpu>::value) return static_cast<double>(gpu.sm_clock_mhz);
  else return 0;
}

}  // namespace

int Fp32LanesPerSm(int cc_major, int cc_minor) {
  if (cc_major == 7 || (cc_major == 8 && cc_minor == 0) || (cc_major == 6 && cc_minor == 0)) return 64;
  return 128;
}

double Fp32PeakGflops(const db::GpuRecord& gpu) {
  const double clock_mhz = SmClockMhz(gpu);
  if (clock_mhz <= 0 || gpu.sm_count <= 0) return 0;
  return gpu.sm_count * Fp32LanesPerSm(gpu.cc_major, gpu.cc_minor) * 2.0 * clock_mhz * 1e-3;
}

Ceiling CeilingFor(const std::string& perf_unit, const db::GpuRecord& gpu, const db::SweepRecord& sweep) {
  Ceiling c;
  c.unit = perf_unit;
  if (perf_unit == "GB/s") {
    c.value = CopyGbps(sweep);
    c.source = "device-to-device copy bandwidth measured in the same sweep";
    if (!c.known()) c.missing = "the sweep stored no copy bandwidth (measured by newer versions of 'tuner tune')";
  } else if (perf_unit == "GFLOP/s") {
    c.value = Fp32PeakGflops(gpu);
    c.source = "FP32 peak: " + std::to_string(gpu.sm_count) + " SMs x " +
               std::to_string(Fp32LanesPerSm(gpu.cc_major, gpu.cc_minor)) + " lanes x 2 (FMA) x " +
               FormatNumber(SmClockMhz(gpu)) + " MHz";
    if (!c.known()) c.missing = "the GPU's SM clock is not stored (recorded by newer versions of 'tuner tune')";
  } else {
    c.missing = "no ceiling is known for throughput in '" + perf_unit + "'";
  }
  return c;
}

}  // namespace tuner::report
