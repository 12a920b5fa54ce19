// The built-in table of architectures behind `--arch`: the per-SM and per-block limits that
// cuda_occupancy.h needs, for computing occupancy and compiling without the GPU.
//
// --arch takes exactly the names NVRTC takes for a real architecture: sm_XY, and for sm_90 and newer
// the arch-specific variant sm_XYa, for sm_100 and newer the family variant sm_XYf. A variant is its
// own compile target (its extra instructions are available) with the limits of sm_XY. Other
// spellings (SM_90, compute_90, 9.0, sm90) are refused with the name to use, never guessed.
#pragma once

#include <string>
#include <vector>

#include "occupancy/occupancy.h"

namespace tuner {

struct ArchTarget {
  std::string name;     // "sm_90a": what NVRTC compiles for
  DeviceLimits limits;  // limits.name == name
};

// Throws UsageError naming --arch, the value and the name to use instead, or the known ones.
ArchTarget ParseArch(const std::string& text);

// ParseArch(arch).limits.
DeviceLimits ArchLimits(const std::string& arch);

// The table's architectures, "sm_50" ... "sm_121".
std::vector<std::string> KnownArchs();

// The largest figure of each limit over the table: the real range a custom device's limits and a
// kernel's demands are checked against.
DeviceLimits LargestLimits();

// The most registers a thread can address, on every architecture.
constexpr int kMaxRegsPerThread = 255;

// Every name --arch takes: each architecture followed by its variants ("sm_90", "sm_90a", ...).
std::vector<std::string> AcceptedArchs();

}  // namespace tuner
