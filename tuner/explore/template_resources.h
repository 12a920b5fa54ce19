// The resources of one configuration of a kernel template, for `tuner occupancy --kernel`: threads
// from the template's launch geometry, registers and static shared memory from the cubin NVRTC
// compiles for the architecture (ptxas's report), plus the template's dynamic shared memory.
#pragma once

#include <string>
#include <vector>

#include "compile/compiler.h"
#include "occupancy/occupancy.h"
#include "template/problem_size.h"
#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

struct TemplateResources {
  KernelResources kernel;  // smem_bytes = static (cubin) + dynamic (launch.shared_bytes)
  ParamValues params;      // every parameter, declared order
  LaunchGeometry geometry;
  KernelInfo info;
  std::string arch;                               // "sm_90"
  std::vector<std::string> violated_constraints;  // the configuration is outside the search space
};

// "K=V" settings over the first value of each parameter; V is one of the parameter's declared
// values, as the number or its label. Throws UsageError naming the --param that is malformed, names
// no parameter, a value not declared (listing those that are) or a parameter given twice.
ParamValues ParamsFromSettings(const TemplateSpec& spec, const std::vector<std::string>& settings);

// Compiles spec.kernel with NVRTC for `arch`. Throws UsageError with NVRTC's first error when it does
// not compile (the template is the user's input), and when the launch geometry cannot be evaluated.
TemplateResources ResourcesFromTemplate(const TemplateSpec& spec, const ParamValues& params, const ProblemSize& size,
                                        const std::string& arch);

}  // namespace tuner
