// The device's measured ceiling a kernel's throughput is compared with: the device-to-device copy
// bandwidth measured in the same sweep for memory-bound kernels (GB/s), the FP32 rate from the SM
// count, FP32 lanes per SM and the SM clock for compute-bound ones (GFLOP/s).
#pragma once

#include <string>

#include "db/query/records.h"

namespace tuner::report {

struct Ceiling {
  double value = 0;     // in unit; 0 when unknown
  std::string unit;     // the kernel's perf_unit: "GB/s" or "GFLOP/s"
  std::string source;   // how it was obtained, for the reader
  std::string missing;  // why it is unknown (value 0)

  bool known() const { return value > 0; }
};

// FP32 lanes per SM of a compute capability (64 on sm_75 and sm_80, 128 on the others NVRTC targets).
int Fp32LanesPerSm(int cc_major, int cc_minor);

// SM count × lanes × 2 (FMA) × SM clock, in GFLOP/s; 0 when the clock or SM count is unknown.
double Fp32PeakGflops(const db::GpuRecord& gpu);

// The ceiling for a kernel measured in `perf_unit` on `gpu` in `sweep`.
Ceiling CeilingFor(const std::string& perf_unit, const db::GpuRecord& gpu, const db::SweepRecord& sweep);

}  // namespace tuner::report
