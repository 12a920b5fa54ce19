#include "explore/template_resources.h"

#include <algorithm>
#include <set>

#include "base/errors.h"
#include "common/option_values.h"
#include "compile/compile_failure.h"
#include "compile/parallel_compiler.h"
#include "expression/expression.h"
#include "template/arch_specific.h"

namespace tuner {

namespace {

std::string ParamNames(const TemplateSpec& spec) {
  std::string names;
  for (const ParamSpec& p : spec.params) names += (names.empty() ? "" : ", ") + p.name;
  return names.empty() ? "none" : names;
}

std::string DeclaredValues(const ParamSpec& p) {
  std::string values;
  for (long long v : p.values) {
    const std::string label = ValueLabel(p, v);
    values += (values.empty() ? "" : ", ") + std::to_string(v) + (label != std::to_string(v) ? " (" + label + ")" : "");
  }
  return values;
}

// A declared value of `p`, given as the number or its label.
long long DeclaredValue(const TemplateSpec& spec, const ParamSpec& p, const std::string& setting,
                        const std::string& text) {
  for (long long v : p.values)
    if (text == std::to_string(v) || text == ValueLabel(p, v)) return v;
  throw UsageError("--param " + Quoted(setting) + ": " + spec.name + "'s " + p.name + " takes " + DeclaredValues(p));
}

void Set(const TemplateSpec& spec, const std::string& setting, ParamValues* params, std::set<std::string>* given) {
  const std::size_t eq = setting.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == setting.size())
    throw UsageError("--param " + Quoted(setting) + ": expected NAME=VALUE, e.g. --param TILE=32");
  const std::string name = setting.substr(0, eq);
  const auto param =
      std::find_if(spec.params.begin(), spec.params.end(), [&](const ParamSpec& p) { return p.name == name; });
  if (param == spec.params.end())
    throw UsageError("--param " + Quoted(setting) + ": " + spec.name + " has no parameter " + name +
                     "; its parameters: " + ParamNames(spec));
  if (!given->insert(name).second) throw UsageError("--param " + Quoted(setting) + ": " + name + " is given twice");
  const long long value = DeclaredValue(spec, *param, setting, setting.substr(eq + 1));
  for (auto& [known, current] : *params)
    if (known == name) current = value;
}

// Registers and static shared memory come from the CUBIN itself (read from its ELF sections), so
// they are known even when NVRTC's log lacks ptxas's report. The compile runs in an NVRTC process
// of the compile pool, like explore's: a compile that crashes or runs past its deadline is a
// message, not the end of this process, and the cubin is cached.
CompileResult CompileOrThrow(const TemplateSpec& spec, const ParamValues& params, const std::string& arch) {
  ParallelCompiler compiler(1, DefaultCubinCacheDir());
  const CompileResult compiled = compiler.Compile(0, spec, params, spec.kernel, arch).result;
  const std::string reason = CompileFailureReason(compiled.log, spec.source_path);  // "compile: ..."
  if (!compiled.ok)
    throw UsageError("--kernel " + spec.name + ": NVRTC could not compile it for " + arch + " with " +
                     ParamsJson(params) + ": " + reason.substr(reason.find(": ") + 2) +
                     " ('tuner explore' shows every candidate's)");
  return compiled;
}

}  // namespace

ParamValues ParamsFromSettings(const TemplateSpec& spec, const std::vector<std::string>& settings) {
  ParamValues params;
  for (const ParamSpec& p : spec.params) params.emplace_back(p.name, p.values.empty() ? 0 : p.values.front());
  std::set<std::string> given;
  for (const std::string& setting : settings) Set(spec, setting, &params, &given);
  return params;
}

TemplateResources ResourcesFromTemplate(const TemplateSpec& spec, const ParamValues& params, const ProblemSize& size,
                                        const std::string& arch) {
  TemplateResources r;
  r.params = params;
  r.arch = arch;
  const Variables variables = MakeVariables(size, params);
  CandidateArch target;
  try {
    r.geometry = EvaluateLaunch(spec.launch, variables);
    for (const std::string& constraint : spec.constraints)
      if (Evaluate(constraint, variables) == 0) r.violated_constraints.push_back(constraint);
    target = ArchOfCandidate(spec, variables, arch);
  } catch (const ExpressionError& e) {
    throw UsageError("--param: " + spec.name + "'s launch geometry for these values: " + e.what());
  }
  if (!target.invalid_reason.empty())
    throw UsageError("--param: " + spec.name + " with " + ParamsJson(params) + " " + target.invalid_reason);
  r.arch = target.arch;
  const CompileResult compiled = CompileOrThrow(spec, params, target.arch);
  r.info = compiled.info;
  r.kernel.threads_per_block = static_cast<int>(r.geometry.ThreadsPerBlock());
  r.kernel.regs_per_thread = compiled.info.regs_per_thread;
  r.kernel.smem_bytes = static_cast<std::size_t>(compiled.info.static_smem_bytes + r.geometry.shared_bytes);
  return r;
}

}  // namespace tuner
