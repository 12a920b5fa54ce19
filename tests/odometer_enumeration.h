// The straightforward enumeration the search space replaced: every combination of the Cartesian
// product in odometer order, its constraints evaluated in declared order. Kept as the oracle of the
// equivalence tests and the baseline of bench/bench_space.sh.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "expression/expression.h"
#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner::testing {

using Accepts = std::function<bool(const ParamValues&)>;

inline std::vector<ParamValues> OdometerEnumeration(const TemplateSpec& spec, const Accepts& accepts) {
  std::vector<ParamValues> candidates;
  std::vector<std::size_t> index(spec.params.size(), 0);
  for (std::size_t n = 0; n < CountCombinations(spec); ++n) {
    ParamValues params;
    for (std::size_t i = 0; i < spec.params.size(); ++i)
      params.emplace_back(spec.params[i].name, spec.params[i].values[index[i]]);
    if (accepts(params)) candidates.push_back(std::move(params));
    for (std::size_t i = spec.params.size(); i-- > 0;) {  // advance the odometer
      if (++index[i] < spec.params[i].values.size()) break;
      index[i] = 0;
    }
  }
  return candidates;
}

// As tuner did before: every constraint parsed again for every combination (about 45 µs each).
inline std::vector<ParamValues> ParsingOdometerEnumeration(const TemplateSpec& spec, const ProblemSize& size) {
  return OdometerEnumeration(spec, [&](const ParamValues& params) {
    const Variables vars = MakeVariables(size, params);
    for (const std::string& constraint : spec.constraints)
      if (Evaluate(constraint, vars) == 0.0) return false;
    return true;
  });
}

// The same product with each constraint parsed once: fast enough to check spaces of 10^7.
inline std::vector<ParamValues> CompiledOdometerEnumeration(const TemplateSpec& spec, const ProblemSize& size) {
  Variables storage = MakeVariables(size, {});
  for (const ParamSpec& p : spec.params) storage[p.name] = 0;
  std::map<std::string, double*> addresses;
  for (auto& [name, value] : storage) addresses[name] = &value;
  std::vector<CompiledExpression> constraints;
  for (const std::string& constraint : spec.constraints) constraints.emplace_back(constraint, addresses);
  return OdometerEnumeration(spec, [&](const ParamValues& params) {
    for (const auto& [name, value] : params) storage[name] = static_cast<double>(value);
    for (CompiledExpression& constraint : constraints)
      if (constraint.Evaluate() == 0.0) return false;
    return true;
  });
}

}  // namespace tuner::testing
