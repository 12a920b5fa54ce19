#include "db/speed_of_light.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "base/percent_text.h"
#include "db/counters.h"

namespace tuner::db {

namespace {

// Below this the tensor pipes count as unused (their share would only lengthen the line).
constexpr double kTensorUsedPct = 1;
// Nsight Compute's memory share is the busiest of every memory unit; where it exceeds the three named
// ones by more than this, another unit (shared memory's pipeline, the crossbar) is the busiest (by
// less, it is one of them counted a little differently, as gpu__dram_throughput against dram__).
constexpr double kOtherMemoryUnitPct = 5;

// The shares counters_json holds (keys of profilers/metric_set.cpp), each a % of its unit's peak.
struct ShareKey {
  const char* key;
  const char* unit;
  Bound side;
};
const ShareKey kShares[] = {
    {"sm_throughput_pct", "SM", Bound::kCompute},    {"tensor_pipe_pct", "tensor pipes", Bound::kCompute},
    {"dram_throughput_pct", "DRAM", Bound::kMemory}, {"l2_throughput_pct", "L2", Bound::kMemory},
    {"l1_throughput_pct", "L1", Bound::kMemory},
};
// The shares of elapsed cycles, which a profiled range longer than the launch dilutes; L1's and the
// tensor pipes' are of active cycles, which it does not.
const char* const kElapsedShares[] = {"sm_throughput_pct", "dram_throughput_pct", "l2_throughput_pct",
                                      "memory_throughput_pct"};

// The busiest unit; the first of equals.
UnitShare Busiest(const std::vector<UnitShare>& shares) {
  UnitShare busiest = shares.front();
  for (const UnitShare& s : shares)
    if (s.pct > busiest.pct) busiest = s;
  return busiest;
}

// Whole percent, rounded down: 59.9% has not reached 60%.
std::string WholePercentBelow(double pct) { return PercentText(std::floor(pct) / 100, 0); }

std::string ShareText(const UnitShare& share) { return share.unit + " " + WholePercentBelow(share.pct); }

}  // namespace

std::string OverTimedLaunch(const std::string& counters_json, double timed_ms) {
  if (counters_json.empty() || !(timed_ms > 0)) return counters_json;
  nlohmann::json json = nlohmann::json::parse(counters_json);
  json[kTimedMsKey] = timed_ms;
  const auto profiled = json.find(kProfiledMsKey);
  if (profiled == json.end() || !profiled->is_number() || !(profiled->get<double>() > 0)) return json.dump();
  const double stretch = profiled->get<double>() / timed_ms;
  nlohmann::json over_range = nlohmann::json::object();
  for (const char* key : kElapsedShares) {
    const auto share = json.find(key);
    if (share == json.end() || !share->is_number()) continue;
    over_range[key] = *share;
    *share = std::min(100.0, share->get<double>() * stretch);
  }
  json[kOverProfiledRangeKey] = over_range;
  return json.dump();
}

std::string ToString(Bound bound) {
  switch (bound) {
    case Bound::kCompute:
      return "compute";
    case Bound::kMemory:
      return "memory";
    case Bound::kLatency:
      return "latency";
  }
  return "latency";
}

std::optional<SpeedOfLight> SpeedOfLightOf(const std::string& counters_json) {
  SpeedOfLight sol;
  for (const ShareKey& share : kShares) {
    const auto pct = CounterValue(counters_json, share.key);
    if (!pct || (share.key == std::string("tensor_pipe_pct") && *pct < kTensorUsedPct)) continue;
    (share.side == Bound::kCompute ? sol.compute : sol.memory).push_back({share.unit, *pct});
  }
  if (sol.compute.empty() || sol.compute.front().unit != "SM" || sol.memory.empty()) return std::nullopt;
  if (const auto all = CounterValue(counters_json, "memory_throughput_pct"))
    if (*all > Busiest(sol.memory).pct + kOtherMemoryUnitPct) sol.memory.push_back({"memory pipelines", *all});
  const UnitShare compute = Busiest(sol.compute), memory = Busiest(sol.memory);
  if (std::max(compute.pct, memory.pct) < kLatencyBelowPct)
    sol.bound = Bound::kLatency;
  else
    sol.bound = compute.pct >= memory.pct ? Bound::kCompute : Bound::kMemory;
  sol.limiting =
      sol.bound == Bound::kMemory || (sol.bound == Bound::kLatency && memory.pct > compute.pct) ? memory : compute;
  return sol;
}

std::string HeadroomText(const SpeedOfLight& sol) {
  if (sol.bound == Bound::kLatency) {
    return "latency-bound: " + ShareText(Busiest(sol.compute)) + " and " + ShareText(Busiest(sol.memory)) +
           " of peak, both below " + WholePercentBelow(kLatencyBelowPct);
  }
  return ToString(sol.bound) + "-bound: " + ShareText(sol.limiting) + " of peak" +
         (sol.limiting.pct >= kAtTheLimitPct ? ", at the limit" : "");
}

std::string SharesText(const SpeedOfLight& sol) {
  std::string text;
  for (const auto* side : {&sol.compute, &sol.memory})
    for (const UnitShare& s : *side) text += (text.empty() ? "" : ", ") + ShareText(s);
  return text;
}

bool CeilingApplies(const std::string& perf_unit, const std::string& counters_json) {
  const auto sol = SpeedOfLightOf(counters_json);
  if (!sol) return true;
  if (perf_unit == "GB/s") return sol->bound != Bound::kCompute;
  if (perf_unit == "GFLOP/s") return sol->bound != Bound::kMemory;
  return true;
}

std::optional<RooflinePoint> RooflinePointOf(const std::string& counters_json) {
  const double fp32 = CounterValue(counters_json, "fp32_flop_count").value_or(0);
  const double fp64 = CounterValue(counters_json, "fp64_flop_count").value_or(0);
  const double bytes = CounterValue(counters_json, "dram_bytes").value_or(0);
  const double profiled_ms = CounterValue(counters_json, kProfiledMsKey).value_or(0);
  const double ms = CounterValue(counters_json, kTimedMsKey).value_or(profiled_ms);
  const double flops = fp32 + fp64;
  if (!(flops > 0) || !(bytes > 0) || !(ms > 0)) return std::nullopt;
  return RooflinePoint{fp64 > fp32 ? "FP64" : "FP32", flops / bytes, flops / ms * 1e-6};
}

std::optional<Roof> RoofOf(const std::string& counters_json, const std::string& precision) {
  const auto peak = CounterValue(counters_json, precision == "FP64" ? "fp64_peak_gflops" : "fp32_peak_gflops");
  const auto dram = CounterValue(counters_json, "dram_peak_gbps");
  if (!peak || !dram || !(*peak > 0) || !(*dram > 0)) return std::nullopt;
  return Roof{*peak, *dram};
}

}  // namespace tuner::db
