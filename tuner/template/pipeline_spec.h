// The [pipeline] table of a template (kernel_templates/README.md): reading it strictly, checking it
// at a problem size, and planning one candidate's run for the worker.
#pragma once

#include <toml++/toml.h>

#include <optional>
#include <string>
#include <vector>

#include "template/description_reader.h"
#include "template/pipeline_run.h"
#include "template/problem_size.h"
#include "template/search_space.h"
#include "template/template_spec.h"
#include "template/template_values.h"

namespace tuner {

// The most streams and chunks a candidate may ask for: beyond these, issuing the copies costs more
// than any overlap gains.
constexpr int kMaxStreams = 64;
constexpr long long kMaxChunks = 65536;

// Reads [pipeline] into spec.pipeline (after the sizes, parameters and arguments); `all` are the
// sizes and parameters, `top_level` the keys that belong before the first table. A parameter with
// `host = true` in a template without [pipeline] is refused.
void ReadPipeline(const DescriptionReader& r, const toml::table& root, const Variables& all,
                  const std::vector<std::string>& top_level, TemplateSpec& spec);

// At `size`: a chunked buffer whose length is not a whole number of elements per element of the
// chunked size, or a reference configuration whose run cannot be planned.
std::optional<FieldProblem> FindPipelineProblem(const TemplateSpec& spec, const ProblemSize& size);

// The parameters the kernel is compiled with: every one but the host's, so that candidates that
// differ only in how the host moves the data share one compiled kernel.
ParamValues KernelParams(const TemplateSpec& spec, const ParamValues& params);

// The run of the candidate whose sizes and parameters are `vars`; not enabled for a template
// without [pipeline]. Throws ExpressionError for a value out of range (streams, chunk, memory,
// order) or a chunk's launch that is no launch.
PipelineRun PlanPipeline(const TemplateSpec& spec, const Variables& vars);

}  // namespace tuner
