#include "template/pipeline_spec.h"

#include <algorithm>

#include "expression/expression.h"

namespace tuner {

namespace {

const ArgSpec* FindArg(const TemplateSpec& spec, const std::string& name) {
  const auto arg = std::find_if(spec.args.begin(), spec.args.end(), [&](const ArgSpec& a) { return a.name == name; });
  return arg == spec.args.end() ? nullptr : &*arg;
}

void RefuseHostParamsWithoutPipeline(const DescriptionReader& r, const toml::table& root, const TemplateSpec& spec) {
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    if (!spec.params[i].host) continue;
    const std::string field = "param[" + std::to_string(i) + "].host";
    r.Fail(root.at_path(field).node(), field,
           "'" + spec.params[i].name + "' is a host parameter, but the template has no [pipeline] to use it");
  }
}

void ReadChunked(const DescriptionReader& r, const toml::table& t, TemplateSpec& spec) {
  const toml::node* node = t.get("chunked");
  if (!node)
    r.Fail(&t, "pipeline.chunked", "is required: the buffer arguments split into chunks, e.g. [\"in\", \"out\"]");
  spec.pipeline.chunked = r.Strings(node, "pipeline.chunked", "buffer names");
  if (spec.pipeline.chunked.empty()) r.Fail(node, "pipeline.chunked", "must name at least one buffer argument");
  for (std::size_t i = 0; i < spec.pipeline.chunked.size(); ++i) {
    const std::string& name = spec.pipeline.chunked[i];
    const ArgSpec* arg = FindArg(spec, name);
    if (!arg || !arg->is_buffer) r.Fail(node, "pipeline.chunked", "'" + name + "' is not a buffer argument");
    if (std::count(spec.pipeline.chunked.begin(), spec.pipeline.chunked.begin() + i, name))
      r.Fail(node, "pipeline.chunked", "'" + name + "' is listed twice");
  }
}

// An output the host must restore before every run would be a copy in as well as out: not offered.
void RefuseOutputsWithContents(const DescriptionReader& r, const toml::table& root, const TemplateSpec& spec) {
  for (std::size_t i = 0; i < spec.args.size(); ++i) {
    if (!spec.args[i].output || !StartsFromContents(spec.args[i].init)) continue;
    const std::string field = "arg[" + std::to_string(i) + "].init";
    r.Fail(root.at_path(field).node(), field,
           "an output of a pipeline is initialised with 'poison' or 'zero', not from a file or data of its own");
  }
}

long long Whole(const std::string& expression, const Variables& vars, long long low, long long high,
                const std::string& what) {
  const long long value = EvaluateInteger(expression, vars);
  if (value < low || value > high)
    throw ExpressionError(expression, "gives " + std::to_string(value) + ": " + what + " must be " +
                                          std::to_string(low) + " to " + std::to_string(high));
  return value;
}

ChunkLaunch PlanChunk(const TemplateSpec& spec, Variables vars, long long items) {
  vars[spec.pipeline.size] = static_cast<double>(items);
  ChunkLaunch launch{EvaluateLaunch(spec.launch, vars), {}};
  for (const ArgSpec& arg : spec.args) launch.scalars.push_back(arg.is_buffer ? 0.0 : Evaluate(arg.value, vars));
  return launch;
}

// Elements of a chunked buffer per element of the chunked size, or why there is no such number.
std::optional<std::string> PerItemProblem(const TemplateSpec& spec, const ArgSpec& arg, Variables vars,
                                          long long* per_item) {
  const std::string& size = spec.pipeline.size;
  const long long items = static_cast<long long>(vars.at(size));
  const long long length = EvaluateInteger(arg.length, vars);
  vars[size] = 1;
  *per_item = EvaluateInteger(arg.length, vars);
  if (*per_item >= 1 && length == *per_item * items) return std::nullopt;
  return "'" + arg.name + "' has " + std::to_string(length) + " elements ('" + arg.length +
         "'), not a whole number per element of " + size +
         ": a chunked buffer's length is a multiple of the chunked size, such as '" + size + "' or '3 * " + size + "'";
}

}  // namespace

void ReadPipeline(const DescriptionReader& r, const toml::table& root, const Variables& all,
                  const std::vector<std::string>& top_level, TemplateSpec& spec) {
  const toml::node* node = root.get("pipeline");
  if (!node) return RefuseHostParamsWithoutPipeline(r, root, spec);
  const toml::table& t = r.Table(*node, "pipeline");
  r.AllowOnly(t, "pipeline", {"size", "chunk", "streams", "memory", "order", "chunked"}, top_level);
  PipelineSpec& p = spec.pipeline;
  p.enabled = true;
  p.size = r.String(t, "size", "pipeline.size", true);
  if (std::none_of(spec.sizes.begin(), spec.sizes.end(), [&](const SizeSpec& s) { return s.name == p.size; }))
    r.Fail(t.get("size"), "pipeline.size", "'" + p.size + "' is not one of the template's sizes");
  p.chunk = t.contains("chunk") ? r.Expression(t.get("chunk"), "pipeline.chunk", all) : p.size;
  if (t.contains("streams")) p.streams = r.Expression(t.get("streams"), "pipeline.streams", all);
  if (t.contains("memory")) p.memory = r.Expression(t.get("memory"), "pipeline.memory", all);
  if (t.contains("order")) p.order = r.Expression(t.get("order"), "pipeline.order", all);
  ReadChunked(r, t, spec);
  RefuseOutputsWithContents(r, root, spec);
}

std::optional<FieldProblem> FindPipelineProblem(const TemplateSpec& spec, const ProblemSize& size) {
  if (!spec.pipeline.enabled) return std::nullopt;
  const std::string at = DescribeSizes(size);
  const Variables vars = MakeVariables(size, {});
  try {
    for (const std::string& name : spec.pipeline.chunked) {
      long long per_item = 0;
      if (const auto problem = PerItemProblem(spec, *FindArg(spec, name), vars, &per_item))
        return FieldProblem{"pipeline.chunked", *problem + " (at " + at + ")"};
    }
    PlanPipeline(spec, MakeVariables(size, ReferenceParams(spec)));
  } catch (const ExpressionError& e) {
    return FieldProblem{"pipeline", std::string(e.what()) + " (at " + at + ", reference configuration " +
                                        DescribeParams(ReferenceParams(spec)) + ")"};
  }
  return std::nullopt;
}

ParamValues KernelParams(const TemplateSpec& spec, const ParamValues& params) {
  ParamValues kernel;
  for (const auto& [name, value] : params) {
    const auto param =
        std::find_if(spec.params.begin(), spec.params.end(), [&](const ParamSpec& p) { return p.name == name; });
    if (param == spec.params.end() || !param->host) kernel.emplace_back(name, value);
  }
  return kernel;
}

PipelineRun PlanPipeline(const TemplateSpec& spec, const Variables& vars) {
  PipelineRun run;
  const PipelineSpec& p = spec.pipeline;
  if (!p.enabled) return run;
  run.enabled = true;
  run.items = static_cast<long long>(vars.at(p.size));
  run.streams = static_cast<int>(Whole(p.streams, vars, 1, kMaxStreams, "the number of streams"));
  run.chunk_items = std::min(Whole(p.chunk, vars, 1, kMaxSize, "a chunk's elements"), run.items);
  if (run.Chunks() > kMaxChunks)
    throw ExpressionError(p.chunk, "gives " + std::to_string(run.Chunks()) + " chunks of " +
                                       std::to_string(run.chunk_items) + ": at most " + std::to_string(kMaxChunks) +
                                       " chunks");
  run.memory = static_cast<HostMemory>(
      Whole(p.memory, vars, 0, 3, "memory (0 pageable, 1 pinned, 2 managed, 3 managed and prefetched)"));
  run.order = static_cast<IssueOrder>(Whole(p.order, vars, 0, 1, "order (0 depth-first, 1 breadth-first)"));
  for (const std::string& name : p.chunked) {
    long long per_item = 0;
    const ArgSpec& arg = *FindArg(spec, name);
    if (const auto problem = PerItemProblem(spec, arg, vars, &per_item)) throw ExpressionError(arg.length, *problem);
    run.chunked.push_back({name, per_item});
  }
  run.chunk = PlanChunk(spec, vars, run.chunk_items);
  const long long tail_items = run.items - (run.Chunks() - 1) * run.chunk_items;
  run.tail = PlanChunk(spec, vars, tail_items);
  return run;
}

}  // namespace tuner
