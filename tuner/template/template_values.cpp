#include "template/template_values.h"

#include <cfloat>
#include <cmath>

#include "common/option_values.h"
#include "expression/expression.h"
#include "template/default_tolerance.h"
#include "template/pipeline_spec.h"
#include "template/search_space.h"

namespace tuner {

namespace {

constexpr double kMaxBufferBytes = 9007199254740992.0;  // 2^53: byte counts stay exact

// Evaluates `fn` and turns an ExpressionError into the problem of `field`.
template <typename Fn>
std::optional<FieldProblem> Try(const std::string& field, const std::string& at, Fn fn) {
  try {
    std::optional<std::string> problem = fn();
    if (problem) return FieldProblem{field, *problem + " (at " + at + ")"};
  } catch (const ExpressionError& e) {
    return FieldProblem{field, e.what() + std::string(" (at ") + at + ")"};
  }
  return std::nullopt;
}

std::optional<std::string> BufferProblem(const ArgSpec& arg, const Variables& vars) {
  const long long elements = EvaluateInteger(arg.length, vars);
  if (elements <= 0)
    return Quoted(arg.length) + " gives " + std::to_string(elements) + ": a buffer needs at least one element";
  if (static_cast<double>(elements) * static_cast<double>(SizeOf(arg.type)) > kMaxBufferBytes)
    return Quoted(arg.length) + " gives " + std::to_string(elements) + " elements: more than 2^53 bytes";
  return std::nullopt;
}

// A scalar must fit its type: a float within the finite range, a whole number within the integer's
// (64-bit ones: within 2^53, where doubles stay exact).
std::optional<std::string> ScalarProblem(const ArgSpec& arg, const Variables& vars) {
  const ElementType& type = Element(arg.type);
  const double value =
      type.floating ? Evaluate(arg.value, vars) : static_cast<double>(EvaluateInteger(arg.value, vars));
  const double low = type.bytes == 8 && !type.floating ? std::max(type.lowest, -kMaxBufferBytes) : type.lowest;
  const double high = type.bytes == 8 && !type.floating ? kMaxBufferBytes : type.highest;
  if (type.floating && arg.type == ScalarType::kDouble) return std::nullopt;
  if (value < low || value > high)
    return Quoted(arg.value) + " gives " + FormatNumber(value) + ", which does not fit type " + type.name + " (" +
           FormatNumber(low) + " to " + FormatNumber(high) + ")";
  return std::nullopt;
}

std::optional<std::string> ToleranceProblem(const std::string& expression, double limit, const Variables& vars) {
  const double value = Evaluate(expression, vars);
  if (value < 0) return "is " + FormatNumber(value) + ", negative: no output could pass";
  if (value > limit)
    return "is " + FormatNumber(value) + ", above " + FormatNumber(limit) +
           ": a tolerance that wide lets wrong results pass (kernel_templates/README.md says why)";
  return std::nullopt;
}

// The terms each output sums: at least one.
std::optional<std::string> ReductionProblem(const std::string& expression, const Variables& vars) {
  const double value = Evaluate(expression, vars);
  if (!(value >= 1)) return Quoted(expression) + " gives " + FormatNumber(value) + ": a sum has at least one term";
  return std::nullopt;
}

std::optional<std::string> WorkProblem(const std::string& expression, const Variables& vars) {
  const double value = Evaluate(expression, vars);
  if (value <= 0) return Quoted(expression) + " gives " + FormatNumber(value) + ": work must be positive";
  return std::nullopt;
}

// An own-configuration reference must be a configuration the template allows.
std::optional<std::string> ReferenceProblem(const TemplateSpec& spec, const ProblemSize& size) {
  const Variables vars = MakeVariables(size, ReferenceParams(spec));
  EvaluateLaunch(spec.check.launch, vars);
  if (!spec.check.own_configuration) return std::nullopt;
  for (const std::string& constraint : spec.constraints)
    if (Evaluate(constraint, vars) == 0)
      return "the reference configuration " + DescribeParams(ReferenceParams(spec)) + " violates the constraint '" +
             constraint + "'";
  return std::nullopt;
}

}  // namespace

ProblemSize DefaultSize(const TemplateSpec& spec) {
  ProblemSize size;
  for (const SizeSpec& s : spec.sizes) size.values.emplace_back(s.name, s.default_value);
  return size;
}

std::optional<FieldProblem> FindValueProblem(const TemplateSpec& spec, const ProblemSize& size) {
  const Variables vars = MakeVariables(size, {});
  const std::string at = DescribeSizes(size);
  for (std::size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& arg = spec.args[i];
    const std::string field = "arg[" + std::to_string(i) + "]" + (arg.is_buffer ? ".length" : ".value");
    auto problem = Try(field, at, [&] { return arg.is_buffer ? BufferProblem(arg, vars) : ScalarProblem(arg, vars); });
    if (problem) return problem;
  }
  if (!spec.check.reduction.empty())
    if (auto p = Try("check.reduction", at, [&] { return ReductionProblem(spec.check.reduction, vars); })) return p;
  if (auto p = Try("check.atol", at, [&] { return ToleranceProblem(spec.check.atol, kMaxAtol, vars); })) return p;
  if (auto p = Try("check.rtol", at, [&] { return ToleranceProblem(spec.check.rtol, MaxRtol(spec.args), vars); }))
    return p;
  if (auto p = Try("check", at, [&] { return ReferenceProblem(spec, size); })) return p;
  if (!spec.work.bytes.empty())
    if (auto p = Try("work.bytes", at, [&] { return WorkProblem(spec.work.bytes, vars); })) return p;
  if (!spec.work.flops.empty())
    if (auto p = Try("work.flops", at, [&] { return WorkProblem(spec.work.flops, vars); })) return p;
  return FindPipelineProblem(spec, size);
}

void CheckValuesAtSize(const TemplateSpec& spec, const ProblemSize& size) {
  if (const auto p = FindValueProblem(spec, size))
    throw TemplateError(spec.description_path + ": " + p->field + ": " + p->problem);
}

}  // namespace tuner
