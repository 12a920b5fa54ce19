#include "search_space.h"

#include <nlohmann/json.hpp>

namespace tuner {

std::string LaunchGeometry::Json() const {
  return nlohmann::json{{"grid", grid}, {"block", block}, {"shared_bytes", shared_bytes}}.dump();
}

Variables MakeVariables(const ProblemSize& size, const ParamValues& params) {
  Variables vars;
  for (const auto& [name, value] : size.values) vars[name] = static_cast<double>(value);
  for (const auto& [name, value] : params) vars[name] = static_cast<double>(value);
  return vars;
}

namespace {

// The largest grid and block extents per axis, the same on every architecture since compute
// capability 3.0 (CUDA C++ Programming Guide, technical specifications); a larger one would be cut
// short by dim3's unsigned int or refused by the launch.
constexpr std::array<long long, 3> kMaxGrid{2147483647, 65535, 65535};
constexpr std::array<long long, 3> kMaxBlock{1024, 1024, 64};

}  // namespace

LaunchGeometry EvaluateLaunch(const LaunchSpec& launch, const Variables& variables) {
  LaunchGeometry geometry;
  auto fill = [&](const std::vector<std::string>& exprs, std::array<long long, 3>& dims, const std::array<long long, 3>& max) {
    for (std::size_t i = 0; i < exprs.size(); ++i) {
      dims[i] = EvaluateInteger(exprs[i], variables);
      if (dims[i] <= 0) throw ExpressionError(exprs[i], "gives " + std::to_string(dims[i]) + ", not a positive launch extent");
      if (dims[i] > max[i])
        throw ExpressionError(exprs[i], "gives " + std::to_string(dims[i]) + ", above the limit of " + std::to_string(max[i]) +
                                            " for axis " + "xyz"[i]);
    }
  };
  fill(launch.grid, geometry.grid, kMaxGrid);
  fill(launch.block, geometry.block, kMaxBlock);
  geometry.shared_bytes = EvaluateInteger(launch.shared_bytes, variables);
  if (geometry.shared_bytes < 0) throw ExpressionError(launch.shared_bytes, "gives " + std::to_string(geometry.shared_bytes) + " bytes of shared memory");
  return geometry;
}

std::size_t CountCombinations(const TemplateSpec& spec) {
  std::size_t count = 1;
  for (const ParamSpec& p : spec.params) count *= p.values.size();
  return count;
}

namespace {

bool SatisfiesConstraints(const TemplateSpec& spec, const ProblemSize& size, const ParamValues& params) {
  const Variables vars = MakeVariables(size, params);
  for (const std::string& constraint : spec.constraints) {
    try {
      if (Evaluate(constraint, vars) == 0.0) return false;
    } catch (const ExpressionError& e) {
      throw TemplateError(spec.description_path + ": constraint '" + constraint + "' for candidate " + DescribeParams(params) +
                          " (at " + DescribeSizes(size) + "): " + e.problem);
    }
  }
  return true;
}

}  // namespace

std::vector<ParamValues> EnumerateCandidates(const TemplateSpec& spec, const ProblemSize& size) {
  std::vector<ParamValues> candidates;
  std::vector<std::size_t> index(spec.params.size(), 0);
  for (std::size_t n = 0; n < CountCombinations(spec); ++n) {
    ParamValues params;
    for (std::size_t i = 0; i < spec.params.size(); ++i) params.emplace_back(spec.params[i].name, spec.params[i].values[index[i]]);
    if (SatisfiesConstraints(spec, size, params)) candidates.push_back(std::move(params));
    for (std::size_t i = spec.params.size(); i-- > 0;) {  // advance the odometer
      if (++index[i] < spec.params[i].values.size()) break;
      index[i] = 0;
    }
  }
  return candidates;
}

std::string DescribeParams(const ParamValues& params) {
  std::string text;
  for (const auto& [name, value] : params) text += (text.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return text;
}

std::string DescribeSizes(const ProblemSize& size) { return size.values.empty() ? "no sizes" : DescribeParams(size.values); }

std::string ParamsJson(const ParamValues& params) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();  // keeps the declared order
  for (const auto& [name, value] : params) json[name] = value;
  return json.dump();
}

ParamValues ParamsFromJson(const std::string& json) {
  ParamValues params;
  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(json);  // must outlive items()
  for (const auto& [name, value] : parsed.items()) params.emplace_back(name, value.get<long long>());
  return params;
}

ParamValues ReferenceParams(const TemplateSpec& spec) {
  ParamValues params;
  for (const ParamSpec& p : spec.params) params.emplace_back(p.name, spec.check.params.at(p.name));
  return params;
}

}  // namespace tuner
