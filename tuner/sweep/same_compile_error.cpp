#include "sweep/same_compile_error.h"

#include <algorithm>

#include "compile/compile_failure.h"

namespace tuner {

namespace {

constexpr std::size_t kMostContrasts = 4;

}  // namespace

SameCompileError::SameCompileError(const TemplateSpec& spec, std::size_t suspicious_after)
    : template_name_(spec.name), source_path_(spec.source_path), suspicious_after_(suspicious_after) {
  for (const ParamSpec& p : spec.params)
    if (!p.host && p.values.size() > 1) varying_.push_back(p.name);
}

bool SameCompileError::Add(const Compiled& compiled) {
  if (!armed_ || !compiled.invalid_reason.empty()) return false;
  const CompileResult& c = compiled.compile.result;
  const std::string reason = c.ok ? "" : CompileFailureReason(c.log, source_path_);
  if (c.ok || (failures_ > 0 && reason != reason_)) {
    armed_ = false;
    return false;
  }
  reason_ = reason;
  ++failures_;
  for (const auto& [name, value] : compiled.params) failed_values_[name].insert(value);
  return failures_ >= suspicious_after_ && !contrasted_;
}

std::size_t SameCompileError::Uncovered(const ParamValues& params,
                                        const std::map<std::string, std::set<long long>>& seen) const {
  std::size_t brings = 0;
  for (const auto& [name, value] : params) {
    const auto values = seen.find(name);
    const bool varying = std::find(varying_.begin(), varying_.end(), name) != varying_.end();
    if (varying && (values == seen.end() || (values->second.size() < 2 && !values->second.count(value)))) ++brings;
  }
  return brings;
}

// Greedy: each contrast brings the most parameters that have failed with one value only.
std::vector<ParamValues> SameCompileError::Contrasts(const std::vector<ParamValues>& all) {
  std::vector<ParamValues> contrasts;
  std::map<std::string, std::set<long long>> seen = failed_values_;
  while (contrasts.size() < kMostContrasts) {
    const ParamValues* best = nullptr;
    std::size_t most = 0;
    for (const ParamValues& candidate : all) {
      const std::size_t brings = Uncovered(candidate, seen);
      if (brings > most) most = brings, best = &candidate;
    }
    if (!best) break;
    contrasts.push_back(*best);
    for (const auto& [name, value] : *best) seen[name].insert(value);
  }
  contrasted_ = true;
  return contrasts;
}

void SameCompileError::StopIfConfirmed() const {
  if (!armed_ || failures_ < suspicious_after_) return;
  for (const std::string& name : varying_) {
    const auto values = failed_values_.find(name);
    if (values == failed_values_.end() || values->second.size() < 2) return;
  }
  const std::string fix = LikelyFix(reason_);
  throw SameCompileErrorStop("every candidate of " + template_name_ + " compiled so far (" + std::to_string(failures_) +
                             ", whatever their parameters) failed alike, so the sweep stops: " + reason_ +
                             (fix.empty() ? "" : "; likely fix: " + fix));
}

}  // namespace tuner
