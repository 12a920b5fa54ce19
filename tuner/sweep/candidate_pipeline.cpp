#include "sweep/candidate_pipeline.h"

#include <algorithm>
#include <stdexcept>

#include "common/usable_cpus.h"
#include "compile/compile_failure.h"
#include "compile/cubin_cache.h"
#include "expression/expression.h"
#include "template/arch_specific.h"
#include "template/pipeline_spec.h"

namespace tuner {

namespace {

int ThreadsOf(const CompileSettings& settings) { return settings.threads > 0 ? settings.threads : UsableCpus(); }

std::string CacheDirOf(const CompileSettings& settings) {
  return settings.cache_dir.empty() ? DefaultCubinCacheDir() : settings.cache_dir;
}

}  // namespace

CandidatePipeline::CandidatePipeline(const TemplateSpec& spec, const ProblemSize& size, const GpuInfo& gpu,
                                     const CompileSettings& settings, SweepClock& clock)
    : spec_(spec),
      size_(size),
      gpu_(gpu),
      arch_(gpu.Arch()),
      threads_(ThreadsOf(settings)),
      clock_(clock),
      compiler_(threads_ + 1, CacheDirOf(settings), settings.executable) {}

Compiled CandidatePipeline::Compile(const ParamValues& params, int slot) {
  const auto working = clock_.Time(SweepClock::Part::kCompileWork);
  Compiled compiled{params, {}, {}, {}};
  CandidateArch target;
  try {
    const Variables vars = MakeVariables(size_, params);
    compiled.geometry = EvaluateLaunch(spec_.launch, vars);
    PlanPipeline(spec_, vars);  // a host-side value out of range makes the candidate invalid
    target = ArchOfCandidate(spec_, vars, arch_);
  } catch (const ExpressionError& e) {
    compiled.invalid_reason = e.what();
    return compiled;
  }
  compiled.invalid_reason = target.invalid_reason;
  if (!compiled.invalid_reason.empty()) return compiled;
  const KernelResources resources{static_cast<int>(compiled.geometry.ThreadsPerBlock()), 0,
                                  static_cast<std::size_t>(compiled.geometry.shared_bytes)};
  compiled.invalid_reason = ComputeOccupancy(gpu_, resources).invalid_reason;
  if (compiled.invalid_reason.empty())
    compiled.compile = compiler_.Compile(slot, spec_, params, spec_.kernel, target.arch);
  return compiled;
}

Compiled CandidatePipeline::CompileNow(const ParamValues& params) {
  const auto compiling = clock_.Time(SweepClock::Part::kCompile);
  return Compile(params, threads_);
}

KernelLaunch CandidatePipeline::MakeLaunch(const Variables& vars, const LaunchGeometry& geometry,
                                           const CachedCompile& compile) const {
  KernelLaunch launch{compile.cubin_path, compile.result.lowered_name, geometry, {}, {}};
  for (const ArgSpec& arg : spec_.args)
    launch.args.push_back(arg.is_buffer ? LaunchArg{arg.name, arg.type, 0, arg.name}
                                        : LaunchArg{"", arg.type, Evaluate(arg.value, vars), arg.name});
  return launch;
}

KernelLaunch CandidatePipeline::Launch(const Compiled& compiled) const {
  const Variables vars = MakeVariables(size_, compiled.params);
  KernelLaunch launch = MakeLaunch(vars, compiled.geometry, compiled.compile);
  launch.pipeline = PlanPipeline(spec_, vars);
  return launch;
}

SetupRequest CandidatePipeline::Setup() {
  const ParamValues params = ReferenceParams(spec_);
  const Variables vars = MakeVariables(size_, params);
  SetupRequest setup;
  setup.gpu = gpu_.index;
  setup.uuid = gpu_.uuid;
  setup.seed = 20261122;
  setup.atol = Evaluate(spec_.check.atol, vars);
  setup.rtol = Evaluate(spec_.check.rtol, vars);
  for (const ArgSpec& arg : spec_.args) {
    const auto expected = spec_.check.expected.find(arg.name);
    if (arg.is_buffer)
      setup.buffers.push_back({arg.name, arg.type, EvaluateInteger(arg.length, vars), arg.init, arg.output, arg.file,
                               expected == spec_.check.expected.end() ? "" : expected->second, arg.accumulate});
  }
  setup.symbols = spec_.symbols;
  if (spec_.check.kernel.empty()) return setup;  // expected files are the whole check
  const ReferenceRequest reference = ReferenceFor(params);
  setup.reference = reference.launch;
  setup.reference_label = reference.label;
  setup.reference_group = reference.group;
  return setup;
}

ReferenceRequest CandidatePipeline::ReferenceFor(const ParamValues& candidate) {
  const std::string group = ReferenceGroup(spec_, candidate);
  const auto known = references_.find(group);
  if (known != references_.end()) return known->second;
  const ParamValues params = ReferenceParamsFor(spec_, candidate);
  const Variables vars = MakeVariables(size_, params);
  const std::string configuration = params.empty() ? "" : " (" + DescribeParams(params) + ")";
  const CandidateArch target = ArchOfCandidate(spec_, vars, arch_);
  if (!target.invalid_reason.empty())
    throw std::runtime_error("the reference configuration of " + spec_.name + configuration + " cannot run here: it " +
                             target.invalid_reason + "; list a configuration every GPU runs first");
  const CachedCompile compiled = compiler_.Compile(threads_, spec_, params, spec_.check.kernel, target.arch);
  if (!compiled.result.ok) {
    const std::string reason = CompileFailureReason(compiled.result.log, spec_.source_path), fix = LikelyFix(reason);
    throw std::runtime_error("the reference kernel '" + spec_.check.kernel + "' of " + spec_.name + configuration +
                             " does not compile, so no candidate" + (group.empty() ? "" : " of " + group) +
                             " can be checked: " + reason + (fix.empty() ? "" : "; likely fix: " + fix));
  }
  ReferenceRequest reference;
  reference.group = group;
  reference.launch = MakeLaunch(vars, EvaluateLaunch(spec_.check.launch, vars), compiled);
  reference.label = "the reference kernel " + spec_.check.kernel + configuration;
  return references_[group] = reference;
}

}  // namespace tuner
