// How close a counted candidate came to the GPU's limits, in the terms of Nsight Compute's speed-of-light
// section: the share of its peak each unit reached (compute: the SM, and the tensor pipes where used;
// memory: DRAM, L2, L1), which side bounds the kernel, and its place on a roofline. Read from the
// counters stored with a measurement (profilers/metric_set.cpp derives them); a record counted by an
// older version, without the SM's share, has none.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tuner::db {

enum class Bound { kCompute, kMemory, kLatency };

// "compute", "memory", "latency".
std::string ToString(Bound bound);

// Below this share on both sides a kernel is latency-bound: it keeps neither the SM nor memory busy
// (Nsight Compute's rule of thumb, 60%).
inline constexpr double kLatencyBelowPct = 60;
// From this share on the unit is at its limit: little is left to gain there (Nsight Compute: 80%).
inline constexpr double kAtTheLimitPct = 80;

// The counters' keys of the profiled range's duration and of the timed launch's (the median the sweep
// measured).
inline constexpr const char* kProfiledMsKey = "profiled_ms";
inline constexpr const char* kTimedMsKey = "timed_ms";
// Where OverTimedLaunch keeps the shares as CUPTI counted them over the profiled range.
inline constexpr const char* kOverProfiledRangeKey = "over_profiled_range";

// counters_json as the hardware pass stores it: the timed median beside the profiled duration, and
// each share of elapsed cycles (SM, DRAM, L2, the busiest memory unit) taken over the timed launch,
// at most 100%. The profiled range of a short kernel lasts longer than its launch (an H100's
// transpose 8192²: 0.31 ms against 0.19 ms) and dilutes those shares; scaled once here, every reader
// (the counters' line, the charts, the speed of light, --json) sees one value. The range's own
// values stay under kOverProfiledRangeKey. Shares of active cycles (L1, the tensor pipes) stand.
std::string OverTimedLaunch(const std::string& counters_json, double timed_ms);

struct UnitShare {
  std::string unit;  // "SM", "tensor pipes", "DRAM", "L2", "L1", "memory pipelines"
  double pct = 0;    // of the unit's peak
};

struct SpeedOfLight {
  std::vector<UnitShare> compute;  // SM, then the tensor pipes where used
  std::vector<UnitShare> memory;   // DRAM, L2, L1 as measured; "memory pipelines" where another is busier
  Bound bound = Bound::kLatency;
  UnitShare limiting;  // the busiest unit of the bounding side (of either side when latency-bound)
};

// The speed of light of counters_json (the shares as stored: over the timed launch since the hardware
// pass takes them so); nullopt without the SM's share or any memory share.
std::optional<SpeedOfLight> SpeedOfLightOf(const std::string& counters_json);

// The headroom in one line: "memory-bound: DRAM 93% of peak, at the limit", "compute-bound: SM 84%
// of peak, at the limit", "latency-bound: SM 31% and DRAM 22% of peak, both below 60%".
std::string HeadroomText(const SpeedOfLight& sol);

// Every measured share: "SM 31%, DRAM 22%, L2 18%, L1 40%".
std::string SharesText(const SpeedOfLight& sol);

// Whether a throughput in `perf_unit` is fairly compared with the device ceiling of its kind (the copy
// bandwidth for GB/s, the FP32 peak for GFLOP/s): not when the counters say the other side bounds the
// kernel (a compute-bound kernel measured in GB/s is far from the copy bandwidth by nature). True
// without counters.
bool CeilingApplies(const std::string& perf_unit, const std::string& counters_json);

// A counted candidate on the roofline: its floating-point operations per DRAM byte and its rate.
struct RooflinePoint {
  std::string precision;  // "FP32" or "FP64": the one with more operations
  double flop_per_byte = 0;
  double gflops = 0;
};

// Its rate over the timed duration where it is stored, else the profiled one; nullopt without
// floating-point operations, DRAM bytes or a duration.
std::optional<RooflinePoint> RooflinePointOf(const std::string& counters_json);

// The roof of one precision: the GPU's peak rate and DRAM bandwidth, as its counters report them.
struct Roof {
  double peak_gflops = 0;
  double dram_gbps = 0;
  double RidgeFlopPerByte() const { return peak_gflops / dram_gbps; }
};

// The roof of `precision` ("FP32", "FP64") in counters_json; nullopt when either peak is missing.
std::optional<Roof> RoofOf(const std::string& counters_json, const std::string& precision);

}  // namespace tuner::db
