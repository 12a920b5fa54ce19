#include "occupancy/occupancy_curve.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

#include "base/percent_text.h"

namespace tuner {

namespace {

constexpr long long kMaxRegsPerThread = 255;  // Programming Guide; ptxas never allocates more
constexpr long long kSmemStepBytes = 128;     // the finest shared memory allocation granularity

KernelResources With(KernelResources kernel, VaryInput input, long long value) {
  switch (input) {
    case VaryInput::kThreads:
      kernel.threads_per_block = static_cast<int>(value);
      break;
    case VaryInput::kRegisters:
      kernel.regs_per_thread = static_cast<int>(value);
      break;
    case VaryInput::kSharedMemory:
      kernel.smem_bytes = static_cast<std::size_t>(value);
      break;
  }
  return kernel;
}

long long ValueOf(const KernelResources& kernel, VaryInput input) {
  switch (input) {
    case VaryInput::kThreads:
      return kernel.threads_per_block;
    case VaryInput::kRegisters:
      return kernel.regs_per_thread;
    case VaryInput::kSharedMemory:
      return static_cast<long long>(kernel.smem_bytes);
  }
  return 0;
}

std::vector<long long> CurveValues(const DeviceLimits& device, const KernelResources& kernel, VaryInput input) {
  std::vector<long long> values;
  if (input == VaryInput::kThreads)
    for (long long t = device.warp_size; t <= device.max_threads_per_block; t += device.warp_size) values.push_back(t);
  if (input == VaryInput::kRegisters)
    for (long long r = 0; r <= kMaxRegsPerThread; ++r) values.push_back(r);
  if (input == VaryInput::kSharedMemory) {
    const auto limit = static_cast<long long>(std::max(device.smem_per_block_optin_bytes, device.smem_per_block_bytes));
    for (long long s = 0; s <= limit; s += kSmemStepBytes) values.push_back(s);
  }
  values.push_back(ValueOf(kernel, input));
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

// Largest v in [lo, hi] with good(v), for a predicate true up to some point and false after it;
// lo - 1 when good(lo) is false.
long long LargestWhere(long long lo, long long hi, const std::function<bool(long long)>& good) {
  if (hi < lo || !good(lo)) return lo - 1;
  while (lo < hi) {
    const long long mid = lo + (hi - lo + 1) / 2;
    if (good(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

Suggestion MakeSuggestion(const DeviceLimits& device, const KernelResources& kernel, VaryInput input, long long value) {
  const OccupancyResult r = ComputeOccupancy(device, With(kernel, input, value));
  Suggestion s{input, value, r.blocks_per_sm, r.occupancy, ""};
  const std::string gives = " gives " + std::to_string(r.blocks_per_sm) + " block" + (r.blocks_per_sm == 1 ? "" : "s") +
                            " per SM (" + PercentTextSignificant(r.occupancy, 4) + " occupancy)";
  if (input == VaryInput::kRegisters) s.text = "≤ " + std::to_string(value) + " registers per thread" + gives;
  if (input == VaryInput::kSharedMemory)
    s.text = "≤ " + std::to_string(value) + " bytes of shared memory per block" + gives;
  if (input == VaryInput::kThreads) s.text = std::to_string(value) + " threads per block" + gives;
  return s;
}

// Registers or shared memory: fewer never lowers occupancy, so each answer is a binary search.
void SuggestLess(const DeviceLimits& device, const KernelResources& kernel, VaryInput input,
                 std::vector<Suggestion>* out) {
  const long long current = ValueOf(kernel, input);
  if (current <= 0) return;
  auto occupancy = [&](long long v) { return ComputeOccupancy(device, With(kernel, input, v)).occupancy; };
  const double now = occupancy(current), best = occupancy(0);
  if (best <= now) return;
  const long long next = LargestWhere(0, current - 1, [&](long long v) { return occupancy(v) > now; });
  out->push_back(MakeSuggestion(device, kernel, input, next));
  const long long top = LargestWhere(0, current - 1, [&](long long v) { return occupancy(v) >= best; });
  if (top != next) out->push_back(MakeSuggestion(device, kernel, input, top));
}

void SuggestThreads(const DeviceLimits& device, const KernelResources& kernel, std::vector<Suggestion>* out) {
  const double now = ComputeOccupancy(device, kernel).occupancy;
  long long chosen = 0;
  double best = now;
  for (long long t = device.warp_size; t <= device.max_threads_per_block; t += device.warp_size) {
    const double occupancy = ComputeOccupancy(device, With(kernel, VaryInput::kThreads, t)).occupancy;
    const bool nearer = std::llabs(t - kernel.threads_per_block) < std::llabs(chosen - kernel.threads_per_block);
    if (occupancy > best + 1e-12 || (chosen != 0 && occupancy > best - 1e-12 && nearer)) {
      best = occupancy;
      chosen = t;
    }
  }
  if (chosen != 0) out->push_back(MakeSuggestion(device, kernel, VaryInput::kThreads, chosen));
}

}  // namespace

bool VaryInputFromString(const std::string& text, VaryInput* input) {
  if (text == "threads")
    *input = VaryInput::kThreads;
  else if (text == "regs")
    *input = VaryInput::kRegisters;
  else if (text == "smem")
    *input = VaryInput::kSharedMemory;
  else
    return false;
  return true;
}

std::string ToString(VaryInput input) {
  switch (input) {
    case VaryInput::kThreads:
      return "threads_per_block";
    case VaryInput::kRegisters:
      return "regs_per_thread";
    case VaryInput::kSharedMemory:
      return "smem_bytes";
  }
  return "unknown";
}

std::vector<CurvePoint> OccupancyCurve(const DeviceLimits& device, const KernelResources& kernel, VaryInput input) {
  std::vector<CurvePoint> curve;
  for (long long value : CurveValues(device, kernel, input))
    curve.push_back({value, ComputeOccupancy(device, With(kernel, input, value))});
  return curve;
}

Chart CurveChart(const DeviceLimits& device, const KernelResources& kernel, VaryInput input,
                 const std::vector<CurvePoint>& curve) {
  static const char* const kTitles[] = {"block size", "register count per thread", "shared memory per block"};
  static const char* const kLabels[] = {"Threads per block", "Registers per thread", "Shared memory per block"};
  static const char* const kUnits[] = {"", "", "bytes"};
  const int i = static_cast<int>(input);
  Chart chart;
  chart.title = "Impact of varying " + std::string(kTitles[i]) + " on " + device.name;
  chart.x_axis = {kLabels[i], kUnits[i], 0.0, std::nullopt};
  chart.y_axis = {"Occupancy", "%", 0.0, 100.0};
  ChartSeries series{"occupancy", {}, input == VaryInput::kThreads ? SeriesStyle::kLine : SeriesStyle::kStep, ""};
  for (const CurvePoint& p : curve) series.points.push_back({double(p.value), p.result.occupancy * 100.0});
  chart.series.push_back(series);
  const long long value = ValueOf(kernel, input);
  const OccupancyResult now = ComputeOccupancy(device, kernel);
  chart.markers.push_back({{double(value), now.occupancy * 100.0},
                           "this kernel: " + std::to_string(value) + ", " + PercentTextSignificant(now.occupancy, 4)});
  return chart;
}

std::vector<Suggestion> SuggestImprovements(const DeviceLimits& device, const KernelResources& kernel) {
  std::vector<Suggestion> out;
  SuggestLess(device, kernel, VaryInput::kRegisters, &out);
  SuggestLess(device, kernel, VaryInput::kSharedMemory, &out);
  SuggestThreads(device, kernel, &out);
  return out;
}

}  // namespace tuner
