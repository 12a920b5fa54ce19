// The candidates of a template: every combination of parameter values that satisfies the
// constraints, and the launch geometry of each.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/progress_bar.h"
#include "expression/expression.h"
#include "template/launch_types.h"
#include "template/problem_size.h"
#include "template/template_spec.h"

namespace tuner {

using ParamValues = std::vector<std::pair<std::string, long long>>;  // declared order

Variables MakeVariables(const ProblemSize& size, const ParamValues& params);

// Throws ExpressionError when an expression is not a positive whole number where one is needed.
LaunchGeometry EvaluateLaunch(const LaunchSpec& launch, const Variables& variables);

// The most candidates a command holds in memory (with the strategies' bookkeeping, under a
// kilobyte each): real spaces have 10^3 to 10^5, and a space past this is refused rather than
// sampled, before any GPU or database is touched.
constexpr std::size_t kMaxCandidates = 1000000;

// The valid candidates in odometer order (the last parameter varies fastest), built by binding the
// parameters one at a time and checking each constraint, parsed once, as soon as the parameters it
// reads are bound. Throws TemplateError naming the constraint, the candidate (its bound parameters)
// and the sizes when a constraint cannot be evaluated (a division by zero) for a candidate that the
// constraints checked before it accept, and naming the count when there are more than
// `max_candidates`.
std::vector<ParamValues> EnumerateCandidates(const TemplateSpec& spec, const ProblemSize& size,
                                             std::size_t max_candidates = kMaxCandidates);

// How many candidates EnumerateCandidates would give, without holding them; it stops counting at
// `limit`. `progress` (if given) hears how many of the CountCombinations(spec) combinations are
// behind the candidate counted last: a large space pruned by its constraints takes a while.
std::size_t CountCandidates(const TemplateSpec& spec, const ProblemSize& size,
                            std::size_t limit = std::numeric_limits<std::size_t>::max(),
                            ProgressBar* progress = nullptr);

std::size_t CountCombinations(const TemplateSpec& spec);  // saturates at the largest size_t

// {"TILE":64,"ROWS":4,"PAD":1}: the identity of a candidate in the database.
std::string ParamsJson(const ParamValues& params);
ParamValues ParamsFromJson(const std::string& json);
// A stored candidate's identity: its parameters as ParamsJson writes them, whatever spacing the
// database or an imported file holds, so that stored and enumerated candidates compare as text.
std::string CandidateIdentity(const std::string& stored_params_json);

// "TILE=32 ROWS=8": a candidate in a message.
std::string DescribeParams(const ParamValues& params);
// "W=8192 H=4096": a problem size in a message.
std::string DescribeSizes(const ProblemSize& size);

// The reference configuration of a template (check.params).
ParamValues ReferenceParams(const TemplateSpec& spec);

// The reference's configuration for a candidate: ReferenceParams with the candidate's own values of
// the parameters the output depends on ([check] output_depends_on).
ParamValues ReferenceParamsFor(const TemplateSpec& spec, const ParamValues& candidate);

// "T=4": the candidate's values of the parameters its output depends on, the group of candidates
// that one reference run checks; "" when the output depends on none.
std::string ReferenceGroup(const TemplateSpec& spec, const ParamValues& candidate);

}  // namespace tuner
