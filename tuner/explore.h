// Offline exploration: every candidate of a template compiled with NVRTC for an architecture (no
// GPU needed), with its registers, shared memory, spills and occupancy, or its compile error.
#pragma once

#include <string>
#include <vector>

#include "compiler.h"
#include "cubin_cache.h"
#include "occupancy.h"
#include "problem_size.h"
#include "search_space.h"
#include "template_spec.h"

namespace tuner {

struct ExploredCandidate {
  ParamValues params;
  LaunchGeometry geometry;
  std::string invalid_reason;  // the launch cannot work (found before compiling where possible)
  bool compiled = false;
  std::string compile_log;     // the error when !compiled
  KernelInfo info;
  OccupancyResult occupancy;
};

// Compiles on `threads` threads through `cache`.
std::vector<ExploredCandidate> ExploreTemplate(const TemplateSpec& spec, const ProblemSize& size,
                                               const DeviceLimits& device, const std::string& arch,
                                               const CubinCache& cache, int threads);

}  // namespace tuner
