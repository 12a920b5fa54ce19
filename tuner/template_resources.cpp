#include "template_resources.h"

#include <stdexcept>

#include "errors.h"
#include "expression.h"

namespace tuner {

namespace {

std::string ParamNames(const TemplateSpec& spec) {
  std::string names;
  for (const ParamSpec& p : spec.params) names += (names.empty() ? "" : ", ") + p.name;
  return names.empty() ? "none" : names;
}

void Set(const TemplateSpec& spec, const std::string& setting, ParamValues* params) {
  const std::size_t eq = setting.find('=');
  const std::string name = setting.substr(0, eq);
  long long value = 0;
  std::size_t used = 0;
  try {
    if (eq != std::string::npos) value = std::stoll(setting.substr(eq + 1), &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (eq == std::string::npos || used == 0 || used != setting.size() - eq - 1)
    throw UsageError("--param " + setting + ": expected NAME=INTEGER, e.g. --param TILE=32");
  for (auto& [param, current] : *params)
    if (param == name) {
      current = value;
      return;
    }
  throw UsageError("--param " + setting + ": " + spec.name + " has no parameter " + name + "; its parameters: " +
                   ParamNames(spec));
}

// Registers and static shared memory come from the CUBIN itself (CompileCandidate reads them from
// its ELF sections), so they are known even when NVRTC's log lacks ptxas's report.
CompileResult CompileOrThrow(const TemplateSpec& spec, const ParamValues& params, const std::string& arch) {
  CompileResult compiled = CompileCandidate(spec, params, spec.kernel, arch);
  if (!compiled.ok) throw std::runtime_error("NVRTC could not compile " + spec.name + " for " + arch + ":\n" + compiled.log);
  return compiled;
}

}  // namespace

ParamValues ParamsFromSettings(const TemplateSpec& spec, const std::vector<std::string>& settings) {
  ParamValues params;
  for (const ParamSpec& p : spec.params) params.emplace_back(p.name, p.values.empty() ? 0 : p.values.front());
  for (const std::string& setting : settings) Set(spec, setting, &params);
  return params;
}

std::string ArchOf(const DeviceLimits& device) { return "sm_" + std::to_string(device.cc_major * 10 + device.cc_minor); }

TemplateResources ResourcesFromTemplate(const TemplateSpec& spec, const ParamValues& params, const ProblemSize& size,
                                        const std::string& arch) {
  TemplateResources r;
  r.params = params;
  r.arch = arch;
  const Variables variables = MakeVariables(size, params);
  try {
    r.geometry = EvaluateLaunch(spec.launch, variables);
    for (const std::string& constraint : spec.constraints)
      if (Evaluate(constraint, variables) == 0) r.violated_constraints.push_back(constraint);
  } catch (const ExpressionError& e) {
    throw UsageError("--param: " + spec.name + "'s launch geometry for these values: " + e.what());
  }
  const CompileResult compiled = CompileOrThrow(spec, params, arch);
  r.info = compiled.info;
  r.kernel.threads_per_block = static_cast<int>(r.geometry.ThreadsPerBlock());
  r.kernel.regs_per_thread = compiled.info.regs_per_thread;
  r.kernel.smem_bytes = static_cast<std::size_t>(compiled.info.static_smem_bytes + r.geometry.shared_bytes);
  return r;
}

}  // namespace tuner
