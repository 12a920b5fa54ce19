#include "template/search_space.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "common/input_limits.h"
#include "common/interrupt.h"

namespace tuner {

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
  auto fill = [&](const std::vector<std::string>& exprs, std::array<long long, 3>& dims,
                  const std::array<long long, 3>& max) {
    for (std::size_t i = 0; i < exprs.size(); ++i) {
      dims[i] = EvaluateInteger(exprs[i], variables);
      if (dims[i] <= 0)
        throw ExpressionError(exprs[i], "gives " + std::to_string(dims[i]) + ", not a positive launch extent");
      if (dims[i] > max[i])
        throw ExpressionError(exprs[i], "gives " + std::to_string(dims[i]) + ", above the limit of " +
                                            std::to_string(max[i]) + " for axis " + "xyz"[i]);
    }
  };
  fill(launch.grid, geometry.grid, kMaxGrid);
  fill(launch.block, geometry.block, kMaxBlock);
  geometry.shared_bytes = EvaluateInteger(launch.shared_bytes, variables);
  if (geometry.shared_bytes < 0)
    throw ExpressionError(launch.shared_bytes,
                          "gives " + std::to_string(geometry.shared_bytes) + " bytes of shared memory");
  return geometry;
}

std::size_t CountCombinations(const TemplateSpec& spec) {
  constexpr std::size_t kMost = std::numeric_limits<std::size_t>::max();
  std::size_t count = 1;
  for (const ParamSpec& p : spec.params) {
    if (p.values.empty()) return 0;
    count = count > kMost / p.values.size() ? kMost : count * p.values.size();  // saturates, never wraps
  }
  return count;
}

namespace {

// Binds the parameters one at a time in declared order and checks each constraint as soon as every
// parameter it reads is bound, so a prefix that fails one is never extended: the work follows the
// valid candidates and their prefixes, not the Cartesian product. Declared order makes the
// candidates come out in odometer order, as a plain enumeration gives them.
class SpaceBuilder {
 public:
  SpaceBuilder(const TemplateSpec& spec, const ProblemSize& size) : spec_(spec), size_(size) {
    storage_.resize(size.values.size() + spec.params.size());
    std::map<std::string, double*> addresses;
    for (std::size_t i = 0; i < size.values.size(); ++i) {
      storage_[i] = static_cast<double>(size.values[i].second);
      addresses[size.values[i].first] = &storage_[i];
    }
    for (std::size_t p = 0; p < spec.params.size(); ++p)
      addresses[spec.params[p].name] = &storage_[size.values.size() + p];
    checks_.resize(spec.params.size() + 1);  // [p + 1]: constraints complete once parameter p is bound
    for (const std::string& constraint : spec.constraints) {
      CompiledExpression compiled = Compile(constraint, addresses);
      checks_[ReadyAfter(compiled)].push_back(std::move(compiled));
    }
  }

  // Calls `emit` with each valid candidate's value indices, in odometer order, until it returns false.
  void Visit(const std::function<bool(const std::vector<std::size_t>&)>& emit) {
    chosen_.assign(spec_.params.size(), 0);
    emit_ = &emit;
    if (Passes(0)) Bind(0);
  }

 private:
  CompiledExpression Compile(const std::string& constraint, const std::map<std::string, double*>& addresses) const {
    try {
      return CompiledExpression(constraint, addresses);
    } catch (const ExpressionError& e) {
      throw TemplateError(spec_.description_path + ": constraint '" + constraint + "': " + e.problem);
    }
  }

  // 0 when it reads no parameter, else one past the last parameter it reads.
  std::size_t ReadyAfter(const CompiledExpression& compiled) const {
    std::size_t ready = 0;
    for (std::size_t p = 0; p < spec_.params.size(); ++p)
      for (const std::string& name : compiled.used_names())
        if (name == spec_.params[p].name) ready = p + 1;
    return ready;
  }

  // Returns false once `emit` asked to stop.
  bool Bind(std::size_t p) {
    if (p == spec_.params.size()) return (*emit_)(chosen_);
    const std::vector<long long>& values = spec_.params[p].values;
    for (std::size_t v = 0; v < values.size(); ++v) {
      CountTry();
      chosen_[p] = v;
      storage_[size_.values.size() + p] = static_cast<double>(values[v]);
      if (Passes(p + 1) && !Bind(p + 1)) return false;
    }
    return true;
  }

  // A space whose constraints prune late can take hours to walk: the combinations tried are bounded,
  // and Ctrl-C is heard every few thousand of them.
  void CountTry() {
    if (++tried_ > max_tried_)
      LimitExceeded(spec_.description_path + ": the candidates at " + DescribeSizes(size_), InputLimit::kCombinations);
    if (tried_ % kTriesBetweenPolls == 0) ThrowIfInterrupted("walking the candidates of " + spec_.description_path);
  }

  // The constraints that become complete with `bound` parameters bound, in declared order.
  bool Passes(std::size_t bound) {
    for (CompiledExpression& check : checks_[bound]) {
      try {
        if (check.Evaluate() == 0.0) return false;
      } catch (const ExpressionError& e) {
        throw TemplateError(spec_.description_path + ": constraint '" + check.text() + "' for " + BoundParams(bound) +
                            " (at " + DescribeSizes(size_) + "): " + e.problem);
      }
    }
    return true;
  }

  // "candidate TILE=0 ROWS=4", or "candidates with TILE=0" while later parameters are unbound.
  std::string BoundParams(std::size_t bound) const {
    ParamValues params;
    for (std::size_t p = 0; p < bound; ++p)
      params.emplace_back(spec_.params[p].name, spec_.params[p].values[chosen_[p]]);
    return (bound == spec_.params.size() ? "candidate " : "candidates with ") + DescribeParams(params);
  }

  const TemplateSpec& spec_;
  const ProblemSize& size_;
  std::vector<double> storage_;  // sizes, then parameters: the compiled constraints read them here
  std::vector<std::vector<CompiledExpression>> checks_;
  std::vector<std::size_t> chosen_;  // value index per parameter
  const std::function<bool(const std::vector<std::size_t>&)>* emit_ = nullptr;
  static constexpr std::size_t kTriesBetweenPolls = 4096;
  std::size_t tried_ = 0;
  const std::size_t max_tried_ = LimitValue(InputLimit::kCombinations);
};

ParamValues ValuesAt(const TemplateSpec& spec, const std::vector<std::size_t>& chosen) {
  ParamValues params;
  params.reserve(chosen.size());
  for (std::size_t p = 0; p < chosen.size(); ++p)
    params.emplace_back(spec.params[p].name, spec.params[p].values[chosen[p]]);
  return params;
}

// The candidate's index among every combination, in odometer order (the last parameter fastest).
std::size_t OdometerPosition(const TemplateSpec& spec, const std::vector<std::size_t>& chosen) {
  std::size_t position = 0;
  for (std::size_t p = 0; p < chosen.size(); ++p) position = position * spec.params[p].values.size() + chosen[p];
  return position;
}

}  // namespace

std::size_t CountCandidates(const TemplateSpec& spec, const ProblemSize& size, std::size_t limit,
                            ProgressBar* progress) {
  const std::size_t combinations = CountCombinations(spec);
  std::size_t count = 0;
  long thousandths = 0;  // of the combinations, when progress last heard: a bar redrawn 1,000 times at most
  SpaceBuilder(spec, size).Visit([&](const std::vector<std::size_t>& chosen) {
    if (progress) {
      const std::size_t behind = OdometerPosition(spec, chosen) + 1;
      const long now = std::lround(1000.0 * static_cast<double>(behind) / static_cast<double>(combinations));
      if (now != thousandths) progress->Update(0, {combinations, behind, 0, 0});
      thousandths = now;
    }
    return ++count < limit;
  });
  if (progress) progress->Update(0, {combinations, combinations, 0, 0});
  return count;
}

// Counted first, so that a space too large to hold is refused without holding any of it, and one
// that is held takes its exact memory.
std::vector<ParamValues> EnumerateCandidates(const TemplateSpec& spec, const ProblemSize& size,
                                             std::size_t max_candidates) {
  const std::size_t count = CountCandidates(spec, size, max_candidates + 1);
  if (count > max_candidates)
    throw TemplateError(spec.description_path + ": more than " + std::to_string(max_candidates) +
                        " valid candidates at " + DescribeSizes(size) + " (of " +
                        std::to_string(CountCombinations(spec)) +
                        " combinations); tune, explore and simulate hold every candidate in memory: add constraints "
                        "or fewer values to narrow the space");
  std::vector<ParamValues> candidates;
  candidates.reserve(count);
  SpaceBuilder(spec, size).Visit([&](const std::vector<std::size_t>& chosen) {
    candidates.push_back(ValuesAt(spec, chosen));
    return true;
  });
  return candidates;
}

std::string DescribeParams(const ParamValues& params) {
  std::string text;
  for (const auto& [name, value] : params) text += (text.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return text;
}

std::string DescribeSizes(const ProblemSize& size) {
  return size.values.empty() ? "no sizes" : DescribeParams(size.values);
}

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

std::string CandidateIdentity(const std::string& stored_params_json) {
  return ParamsJson(ParamsFromJson(stored_params_json));
}

ParamValues ReferenceParams(const TemplateSpec& spec) {
  ParamValues params;
  for (const ParamSpec& p : spec.params) params.emplace_back(p.name, spec.check.params.at(p.name));
  return params;
}

namespace {

bool OutputDependsOn(const TemplateSpec& spec, const std::string& name) {
  return std::count(spec.check.output_depends_on.begin(), spec.check.output_depends_on.end(), name) > 0;
}

}  // namespace

ParamValues ReferenceParamsFor(const TemplateSpec& spec, const ParamValues& candidate) {
  ParamValues params = ReferenceParams(spec);
  for (auto& [name, value] : params)
    if (OutputDependsOn(spec, name))
      for (const auto& [candidate_name, candidate_value] : candidate)
        if (candidate_name == name) value = candidate_value;
  return params;
}

std::string ReferenceGroup(const TemplateSpec& spec, const ParamValues& candidate) {
  ParamValues group;
  for (const auto& [name, value] : candidate)
    if (OutputDependsOn(spec, name)) group.emplace_back(name, value);
  return group.empty() ? "" : DescribeParams(group);
}

}  // namespace tuner
