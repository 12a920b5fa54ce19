// The [arch_specific] table of a template (kernel_templates/README.md): the candidates that use
// instructions of an architecture-specific target ("sm_90a": wgmma, setmaxnreg; "sm_100f"), which
// NVRTC compiles only for that target and which run only on the GPUs it names.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <vector>

#include "template/description_reader.h"
#include "template/template_spec.h"

namespace tuner {

// Reads [arch_specific] into spec.arch_specific (after the sizes and parameters); `all` are the
// sizes and parameters, `top_level` the keys that belong before the first table.
void ReadArchSpecific(const DescriptionReader& r, const toml::table& root, const Variables& all,
                      const std::vector<std::string>& top_level, TemplateSpec& spec);

// What NVRTC compiles one candidate for, or why the candidate cannot run on the GPU.
struct CandidateArch {
  std::string arch;            // "sm_90", or "sm_90a" for a candidate that needs it
  std::string invalid_reason;  // "needs sm_90a (wgmma): this GPU is sm_80"; empty when it can run
};

// The candidate whose sizes and parameters are `vars`, on a GPU of architecture `gpu_arch` ("sm_90",
// or "sm_90a" as explore's --arch takes it): the GPU's own architecture, or the template's target
// where `when` holds and the GPU is one the target runs on (sm_90a: compute capability 9.0 only;
// sm_100f: 10.0 and the later 10.x of its family). Throws ExpressionError as Evaluate does.
CandidateArch ArchOfCandidate(const TemplateSpec& spec, const Variables& vars, const std::string& gpu_arch);

}  // namespace tuner
