// Offline exploration: every candidate of a template compiled with NVRTC for an architecture (no
// GPU needed), with its registers, shared memory, spills and occupancy, or its compile error.
#pragma once

#include <string>
#include <vector>

#include "compiler.h"
#include "parallel_compiler.h"
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

// Compiles on `threads` threads (and as many NVRTC processes of `executable`, the tuner binary; ""
// for this process's own) into the cubin cache `cache_dir`.
std::vector<ExploredCandidate> ExploreTemplate(const TemplateSpec& spec, const ProblemSize& size,
                                               const DeviceLimits& device, const std::string& arch,
                                               const std::string& cache_dir, int threads,
                                               const std::string& executable = "");

}  // namespace tuner
