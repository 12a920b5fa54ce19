// What-if questions on top of ComputeOccupancy: occupancy over one varied input (the three graphs of
// NVIDIA's occupancy calculator) and the changes that would raise occupancy. Every answer comes from
// calling ComputeOccupancy, never from a formula of our own.
#pragma once

#include <string>
#include <vector>

#include "common/svg_chart.h"
#include "occupancy/occupancy.h"

namespace tuner {

enum class VaryInput { kThreads, kRegisters, kSharedMemory };

// "threads", "regs", "smem" (the --vary values); false for anything else.
bool VaryInputFromString(const std::string& text, VaryInput* input);
std::string ToString(VaryInput input);  // "threads_per_block", "regs_per_thread", "smem_bytes"

struct CurvePoint {
  long long value = 0;  // of the varied input
  OccupancyResult result;
};

// Threads: one warp to the block limit in steps of a warp; registers: 0 to 255; shared memory: 0 to
// the per-block opt-in limit in steps of 128 bytes. The kernel's own value is always one of the points.
std::vector<CurvePoint> OccupancyCurve(const DeviceLimits& device, const KernelResources& kernel, VaryInput input);

// Occupancy (%) against the input, the kernel's own point marked.
Chart CurveChart(const DeviceLimits& device, const KernelResources& kernel, VaryInput input,
                 const std::vector<CurvePoint>& curve);

struct Suggestion {
  VaryInput input;
  long long value = 0;  // registers and shared memory: at most this; threads: exactly this
  int blocks_per_sm = 0;
  double occupancy = 0.0;
  std::string text;  // "≤ 40 registers per thread gives 6 blocks per SM (75% occupancy)"
};

// For registers and shared memory the largest value that gives the next higher occupancy and, when
// different, the largest that gives the highest reachable by that input alone; for threads the block
// size nearest the kernel's with the highest occupancy. Empty when nothing single raises occupancy.
std::vector<Suggestion> SuggestImprovements(const DeviceLimits& device, const KernelResources& kernel);

}  // namespace tuner
