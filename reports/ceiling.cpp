#include "reports/ceiling.h"

#include "db/speed_of_light.h"
#include "reports/report_format.h"

namespace tuner::report {

int Fp32LanesPerSm(int cc_major, int cc_minor) {
  if (cc_major == 7 || (cc_major == 8 && cc_minor == 0) || (cc_major == 6 && cc_minor == 0)) return 64;
  return 128;
}

double Fp32PeakGflops(const db::GpuRecord& gpu) {
  const double clock_mhz = gpu.sm_clock_mhz;
  if (clock_mhz <= 0 || gpu.sm_count <= 0) return 0;
  return gpu.sm_count * Fp32LanesPerSm(gpu.cc_major, gpu.cc_minor) * 2.0 * clock_mhz * 1e-3;
}

Ceiling CeilingFor(const std::string& perf_unit, const db::GpuRecord& gpu, const db::SweepRecord& sweep) {
  Ceiling c;
  c.unit = perf_unit;
  if (perf_unit == "GB/s") {
    c.value = sweep.copy_gbps;
    c.source = "device-to-device copy bandwidth measured in the same sweep";
    if (!c.known()) c.missing = "the sweep stored no copy bandwidth (measured by newer versions of 'tuner tune')";
  } else if (perf_unit == "GFLOP/s") {
    c.value = Fp32PeakGflops(gpu);
    c.source = "FP32 peak: " + std::to_string(gpu.sm_count) + " SMs x " +
               std::to_string(Fp32LanesPerSm(gpu.cc_major, gpu.cc_minor)) + " lanes x 2 (FMA) x " +
               std::to_string(gpu.sm_clock_mhz) + " MHz";
    if (!c.known()) c.missing = "the GPU's SM clock is not stored (recorded by newer versions of 'tuner tune')";
  } else {
    c.missing = "no ceiling is known for throughput in '" + perf_unit + "'";
  }
  return c;
}

void ApplyBound(Ceiling& c, const db::MeasurementRecord& best) {
  const auto sol = db::SpeedOfLightOf(best.counters_json);
  if (!sol) return;
  c.bound = db::HeadroomText(*sol);
  if (!c.known() || db::CeilingApplies(c.unit, best.counters_json)) return;
  c.missing = "the best is " + c.bound + ", so the " + c.source + " is not its limit";
  c.value = 0;
}

std::string OfCeilingText(const Ceiling& c, double best_perf_value) {
  if (c.known()) return FormatPercent(best_perf_value / c.value) + " of " + FormatNumber(c.value) + " " + c.unit;
  return c.bound.empty() ? "unknown" : c.bound;
}

}  // namespace tuner::report
