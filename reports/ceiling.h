// The device's measured ceiling a kernel's throughput is compared with: the device-to-device copy
// bandwidth measured in the same sweep for memory-bound kernels (GB/s), the FP32 rate from the SM
// count, FP32 lanes per SM and the SM clock for compute-bound ones (GFLOP/s). Where the best
// candidate's counters say the other side bounds it (db/speed_of_light.h), that ceiling is not its
// limit and the run has none; its headroom then speaks in the speed of light's terms.
#pragma once

#include <string>

#include "db/query/records.h"

namespace tuner::report {

struct Ceiling {
  double value = 0;     // in unit; 0 when unknown
  std::string unit;     // the kernel's perf_unit: "GB/s" or "GFLOP/s"
  std::string source;   // how it was obtained, for the reader
  std::string missing;  // why it is unknown (value 0)
  std::string bound;    // the best's speed of light, "compute-bound: SM 58% of peak" ("" when not counted)

  bool known() const { return value > 0; }
};

// FP32 lanes per SM of a compute capability (64 on sm_75 and sm_80, 128 on the others NVRTC targets).
int Fp32LanesPerSm(int cc_major, int cc_minor);

// SM count × lanes × 2 (FMA) × SM clock, in GFLOP/s; 0 when the clock or SM count is unknown.
double Fp32PeakGflops(const db::GpuRecord& gpu);

// The ceiling for a kernel measured in `perf_unit` on `gpu` in `sweep`.
Ceiling CeilingFor(const std::string& perf_unit, const db::GpuRecord& gpu, const db::SweepRecord& sweep);

// `c` for the best candidate `best`: its speed of light in `bound`, and no value where its counters
// say that `c` is not the ceiling that applies (a compute-bound kernel measured in GB/s).
void ApplyBound(Ceiling& c, const db::MeasurementRecord& best);

// The "Of ceiling" column and card: "93% of 3000 GB/s" where the ceiling applies, else the best's
// bound ("compute-bound: SM 58% of peak"), else "unknown".
std::string OfCeilingText(const Ceiling& c, double best_perf_value);

}  // namespace tuner::report
