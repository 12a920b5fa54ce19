#include "template/arch_specific.h"

#include <regex>

#include "expression/expression.h"

namespace tuner {

namespace {

// "sm_90a" -> 90 and 'a'; "sm_90" -> 90 and '\0'; anything else -> 0.
int ArchNumber(const std::string& arch, char* variant) {
  std::smatch m;
  if (!std::regex_match(arch, m, std::regex(R"(sm_(\d{2,3})([af]?))"))) return 0;
  *variant = m[2].length() ? m[2].str()[0] : '\0';
  return std::stoi(m[1]);
}

// sm_90a code runs on compute capability 9.0 only; sm_100f code on 10.0 and the later 10.x.
bool RunsOn(int target, char variant, int gpu) {
  return variant == 'a' ? gpu == target : gpu / 10 == target / 10 && gpu % 10 >= target % 10;
}

std::string GpusOf(int target, char variant) {
  const std::string base = "sm_" + std::to_string(target);
  return variant == 'a' ? base : base + " and the later sm_" + std::to_string(target / 10) + "x";
}

}  // namespace

void ReadArchSpecific(const DescriptionReader& r, const toml::table& root, const Variables& all,
                      const std::vector<std::string>& top_level, TemplateSpec& spec) {
  const toml::node* node = root.get("arch_specific");
  if (!node) return;
  const toml::table& t = r.Table(*node, "arch_specific");
  r.AllowOnly(t, "arch_specific", {"when", "target", "why"}, top_level);
  if (!t.contains("when"))
    r.Fail(&t, "arch_specific.when", "is required: the condition on the parameters that needs the target");
  spec.arch_specific.when = r.Expression(t.get("when"), "arch_specific.when", all);
  spec.arch_specific.target = r.String(t, "target", "arch_specific.target", true);
  char variant = '\0';
  if (!ArchNumber(spec.arch_specific.target, &variant) || !variant)
    r.Fail(t.get("target"), "arch_specific.target",
           "'" + spec.arch_specific.target +
               "' is no architecture-specific target: write sm_ and the compute capability's digits followed by "
               "'a' (sm_90a, that GPU only) or 'f' (sm_100f, its family)");
  spec.arch_specific.why = r.String(t, "why", "arch_specific.why", false);
}

CandidateArch ArchOfCandidate(const TemplateSpec& spec, const Variables& vars, const std::string& gpu_arch) {
  const ArchSpecificSpec& specific = spec.arch_specific;
  if (specific.when.empty() || Evaluate(specific.when, vars) == 0) return {gpu_arch, ""};
  char variant = '\0', gpu_variant = '\0';
  const int target = ArchNumber(specific.target, &variant), gpu = ArchNumber(gpu_arch, &gpu_variant);
  if (gpu && RunsOn(target, variant, gpu)) return {specific.target, ""};
  const std::string gpu_name = gpu ? "sm_" + std::to_string(gpu) : gpu_arch;
  return {"", "needs " + specific.target + (specific.why.empty() ? "" : " (" + specific.why + ")") + ": this GPU is " +
                  gpu_name + ", and " + specific.target + " code runs only on " + GpusOf(target, variant)};
}

}  // namespace tuner
