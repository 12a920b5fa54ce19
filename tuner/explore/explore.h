// Offline exploration: every candidate of a template compiled with NVRTC for an architecture (no
// GPU needed), with its registers, shared memory, spills and occupancy, or why it has none.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "common/progress_bar.h"
#include "compile/compiler.h"
#include "compile/parallel_compiler.h"
#include "occupancy/occupancy.h"
#include "template/problem_size.h"
#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

struct ExploredCandidate {
  ParamValues params;
  LaunchGeometry geometry;
  std::string invalid_reason;  // the launch cannot work (found before compiling where possible)
  bool compiled = false;       // false also when the launch geometry could not be evaluated
  std::string compile_log;     // NVRTC's error, never empty when compiling failed
  KernelInfo info;
  OccupancyResult occupancy;

  bool CompileFailed() const { return !compiled && !compile_log.empty(); }
};

struct Exploration {
  std::size_t candidates = 0;               // in the search space
  std::vector<ExploredCandidate> explored;  // in the space's order; fewer when interrupted
  bool interrupted = false;

  std::size_t CompileErrors() const;  // NVRTC refused them
  std::size_t Invalid() const;        // cannot launch, compiled or not (compile errors apart)
};

// Compiles on `threads` threads (and as many NVRTC processes of `executable`, the tuner binary; ""
// for this process's own) into the cubin cache `cache_dir`. Once `*stop` is set (if given), no
// further compile starts; those under way finish. `progress` (if given) hears of every candidate
// explored, and of those that failed to compile.
Exploration ExploreTemplate(const TemplateSpec& spec, const ProblemSize& size, const DeviceLimits& device,
                            const std::string& arch, const std::string& cache_dir, int threads,
                            const std::string& executable = "", const std::atomic<bool>* stop = nullptr,
                            ProgressBar* progress = nullptr);

// The same for the given candidates of the template only (a sample of a large space).
Exploration ExploreCandidates(const TemplateSpec& spec, const std::vector<ParamValues>& candidates,
                              const ProblemSize& size, const DeviceLimits& device, const std::string& arch,
                              const std::string& cache_dir, int threads, const std::string& executable = "",
                              const std::atomic<bool>* stop = nullptr, ProgressBar* progress = nullptr);

// The reference kernel a sweep checks candidates against (the template's [check] kernel), compiled
// into `cache_dir` as `tune` compiles it, so a precompiled cache holds every compile of a sweep.
// False when the template has none or it does not compile here (tune reports that, not this).
bool CompileReference(const TemplateSpec& spec, const ProblemSize& size, const std::string& arch,
                      const std::string& cache_dir, const std::string& executable = "");

}  // namespace tuner
