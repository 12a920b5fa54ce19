// The candidates of a sweep on their way to the GPU: each one's launch evaluated and checked with
// the occupancy calculator (one that cannot launch is never compiled), then compiled by an NVRTC
// process of its own (compile/parallel_compiler): ahead of the GPU on the compile threads, or at
// once on the measuring thread. And what the worker is sent for them: a candidate's launch, and
// the setup with the reference kernel, compiled through the same processes.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "compile/parallel_compiler.h"
#include "cuda/device.h"
#include "measure/worker_protocol.h"
#include "occupancy/occupancy.h"
#include "sweep/candidate_record.h"
#include "sweep/sweep_time.h"
#include "template/problem_size.h"
#include "template/template_spec.h"

namespace tuner {

struct CompileSettings {
  int threads = 0;         // compile threads; 0: one per core
  std::string cache_dir;   // compiled kernels; "" for the default
  std::string executable;  // the tuner binary that runs the NVRTC processes; "" for this one
};

class CandidatePipeline {
 public:
  // Candidates for `gpu`, checked against its limits.
  CandidatePipeline(const TemplateSpec& spec, const ProblemSize& size, const GpuInfo& gpu,
                    const CompileSettings& settings, SweepClock& clock);

  int CompileThreads() const { return threads_; }
  const TemplateSpec& spec() const { return spec_; }
  // On compile thread `slot` (in [0, CompileThreads())); counted as compile work.
  Compiled Compile(const ParamValues& params, int slot);
  // On the measuring thread, which waits for it: counted as compile time too.
  Compiled CompileNow(const ParamValues& params);

  // A compiled candidate's launch on the whole problem, with its pipeline's run when the template
  // has one.
  KernelLaunch Launch(const Compiled& compiled) const;
  // The worker's setup: the buffers and the reference kernel, compiled now on the measuring thread.
  // Throws when the reference does not compile.
  SetupRequest Setup();
  // The reference run that checks `candidate`: the one of its group ([check] output_depends_on),
  // compiled on the measuring thread the first time the group is met. Throws as Setup does.
  ReferenceRequest ReferenceFor(const ParamValues& candidate);

 private:
  KernelLaunch MakeLaunch(const Variables& vars, const LaunchGeometry& geometry, const CachedCompile& compile) const;

  const TemplateSpec& spec_;
  const ProblemSize& size_;
  GpuInfo gpu_;
  std::string arch_;
  int threads_;
  SweepClock& clock_;
  ParallelCompiler compiler_;                           // one slot per compile thread, and the measuring thread's last
  std::map<std::string, ReferenceRequest> references_;  // by group, compiled once per sweep
};

}  // namespace tuner
