#include "explore/explore.h"

#include <algorithm>
#include <filesystem>

#include "compile/compile_failure.h"
#include "compile/compile_pool.h"
#include "expression/expression.h"
#include "template/arch_specific.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

ExploredCandidate ExploreOne(const TemplateSpec& spec, const ProblemSize& size, const DeviceLimits& device,
                             const std::string& arch, ParallelCompiler& compiler, int slot, const ParamValues& params) {
  ExploredCandidate c;
  c.params = params;
  CandidateArch target;
  try {
    const Variables vars = MakeVariables(size, params);
    c.geometry = EvaluateLaunch(spec.launch, vars);
    target = ArchOfCandidate(spec, vars, arch);
  } catch (const ExpressionError& e) {
    c.invalid_reason = e.what();
    return c;
  }
  c.invalid_reason = target.invalid_reason;  // not compiled: NVRTC has no such target for this architecture
  if (!c.invalid_reason.empty()) return c;
  const int threads = static_cast<int>(c.geometry.ThreadsPerBlock());
  const auto dynamic_smem = static_cast<std::size_t>(c.geometry.shared_bytes);
  c.invalid_reason = ComputeOccupancy(device, {threads, 0, dynamic_smem}).invalid_reason;
  const CachedCompile compiled = compiler.Compile(slot, spec, params, spec.kernel, target.arch);
  c.compiled = compiled.result.ok;
  if (!c.compiled) {
    // As a stored compile error is: messages about files outside the template's folder left out,
    // control characters escaped.
    c.compile_log = compiled.result.log.empty()
                        ? "NVRTC failed without a log"
                        : LogInsideFolder(compiled.result.log, fs::path(spec.source_path).parent_path().string());
    return c;
  }
  c.info = compiled.result.info;
  c.occupancy = ComputeOccupancy(
      device, {threads, c.info.regs_per_thread, static_cast<std::size_t>(c.info.static_smem_bytes) + dynamic_smem});
  if (c.invalid_reason.empty()) c.invalid_reason = c.occupancy.invalid_reason;
  return c;
}

}  // namespace

std::size_t Exploration::CompileErrors() const {
  return static_cast<std::size_t>(
      std::count_if(explored.begin(), explored.end(), [](const ExploredCandidate& c) { return c.CompileFailed(); }));
}

std::size_t Exploration::Invalid() const {
  return static_cast<std::size_t>(std::count_if(explored.begin(), explored.end(), [](const ExploredCandidate& c) {
    return !c.CompileFailed() && !c.invalid_reason.empty();
  }));
}

Exploration ExploreTemplate(const TemplateSpec& spec, const ProblemSize& size, const DeviceLimits& device,
                            const std::string& arch, const std::string& cache_dir, int threads,
                            const std::string& executable, const std::atomic<bool>* stop, ProgressBar* progress) {
  return ExploreCandidates(spec, EnumerateCandidates(spec, size), size, device, arch, cache_dir, threads, executable,
                           stop, progress);
}

Exploration ExploreCandidates(const TemplateSpec& spec, const std::vector<ParamValues>& candidates,
                              const ProblemSize& size, const DeviceLimits& device, const std::string& arch,
                              const std::string& cache_dir, int threads, const std::string& executable,
                              const std::atomic<bool>* stop, ProgressBar* progress) {
  std::vector<ExploredCandidate> explored(candidates.size());
  std::vector<char> done(candidates.size(), 0);
  std::atomic<std::size_t> done_count{0}, failed_count{0};
  ParallelCompiler compiler(threads, cache_dir, executable);
  {
    CompilePool pool(candidates.size(), threads, [&](std::size_t i, int slot) {
      if (stop && *stop) return;
      explored[i] = ExploreOne(spec, size, device, arch, compiler, slot, candidates[i]);
      done[i] = 1;
      const std::size_t failed = failed_count += explored[i].CompileFailed() ? 1 : 0;
      if (progress) progress->Update(0, {candidates.size(), ++done_count, failed, 0});
    });
    for (std::size_t i = 0; i < candidates.size(); ++i) pool.WaitFor(i);
  }
  Exploration exploration;
  exploration.candidates = candidates.size();
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (done[i]) exploration.explored.push_back(std::move(explored[i]));
  exploration.interrupted = exploration.explored.size() < candidates.size();
  return exploration;
}

bool CompileReference(const TemplateSpec& spec, const ProblemSize& size, const std::string& arch,
                      const std::string& cache_dir, const std::string& executable) {
  if (spec.check.kernel.empty()) return false;
  try {
    const ParamValues params = ReferenceParams(spec);
    const CandidateArch target = ArchOfCandidate(spec, MakeVariables(size, params), arch);
    if (!target.invalid_reason.empty()) return false;
    ParallelCompiler compiler(1, cache_dir, executable);
    return compiler.Compile(0, spec, params, spec.check.kernel, target.arch).result.ok;
  } catch (const ExpressionError&) {
    return false;
  }
}

}  // namespace tuner
