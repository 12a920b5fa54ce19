#include "search/search_strategy.h"

#include <algorithm>
#include <map>

#include "base/errors.h"
#include "common/option_values.h"
#include "search/annealing.h"
#include "search/bayesian.h"
#include "search/genetic.h"
#include "search/retry_policy.h"
#include "search/strategy_base.h"
#include "search/warm_seeds.h"

namespace tuner {

namespace {

// Every candidate in enumeration order.
class BruteForce : public StrategyBase {
 public:
  using StrategyBase::StrategyBase;

 private:
  std::optional<std::size_t> Propose() override {
    while (cursor_ < CandidateCount() && Visited(cursor_)) ++cursor_;
    if (cursor_ == CandidateCount()) return std::nullopt;
    return cursor_;
  }
  std::size_t cursor_ = 0;
};

// Uniform sampling without replacement.
class RandomSampling : public StrategyBase {
 public:
  using StrategyBase::StrategyBase;

 private:
  std::optional<std::size_t> Propose() override { return RandomUnvisited(); }
};

}  // namespace

const std::vector<std::string>& StrategyNames() {
  static const std::vector<std::string> names = {"brute_force", "random", "annealing", "genetic", "bayesian"};
  return names;
}

bool IsPlannedStrategy(const std::string& name) { return name == "brute_force" || name == "random"; }

namespace {

// The strategy as from a cold start (options.warm is not read).
std::unique_ptr<SearchStrategy> MakeCold(const StrategyOptions& options, const std::vector<ParamValues>& candidates,
                                         const std::vector<ParamSpec>& params) {
  if (options.name == "brute_force") return std::make_unique<BruteForce>(candidates.size(), options);
  if (options.name == "random") return std::make_unique<RandomSampling>(candidates.size(), options);
  if (options.name == "annealing") return MakeAnnealing(CandidateGraph(candidates, params), options);
  if (options.name == "bayesian") return MakeBayesian(CandidateGraph(candidates, params), options);
  return MakeGenetic(CandidateGraph(candidates, params), options);
}

}  // namespace

std::unique_ptr<SearchStrategy> MakeStrategy(const StrategyOptions& options, const std::vector<ParamValues>& candidates,
                                             const std::vector<ParamSpec>& params) {
  RequireStrategyName(options.name);
  if (options.warm && options.warm->prior.size() != candidates.size())
    throw std::invalid_argument("a warm start of " + std::to_string(options.warm->prior.size()) +
                                " candidates for a space of " + std::to_string(candidates.size()));
  StrategyOptions cold = options;
  cold.warm.reset();
  // Brute force measures everything, in enumeration order.
  if (!options.warm || options.name == "brute_force") return MakeCold(cold, candidates, params);
  const std::vector<std::size_t> seeds = SeedsWithinQuota(*options.warm, options.max_evaluations);
  cold.first.erase(std::remove_if(cold.first.begin(), cold.first.end(),
                                  [&](std::size_t c) { return std::count(seeds.begin(), seeds.end(), c) > 0; }),
                   cold.first.end());
  if (cold.max_evaluations > 0) cold.max_evaluations -= seeds.size();  // the quota keeps it above 0
  return WithWarmSeeds(MakeCold(cold, candidates, params), seeds);
}

void RequireStrategyName(const std::string& name, const std::vector<std::string>& also) {
  std::vector<std::string> names = also;
  names.insert(names.end(), StrategyNames().begin(), StrategyNames().end());
  for (const std::string& known : names)
    if (name == known) return;
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  throw UsageError("--strategy " + Quoted(name) + ": unknown search strategy (known: " + known + ")");
}

std::vector<Evaluation> StoredEvaluations(const std::vector<ParamValues>& candidates,
                                          const std::vector<db::MeasurementRecord>& records) {
  std::map<std::string, const db::MeasurementRecord*> by_params;  // keyed the way the sweep writes params
  for (const db::MeasurementRecord& r : records)
    if (r.status != CandidateStatus::kSkipped && !NeedsAnotherTry(r))
      by_params[CandidateIdentity(r.params_json)] = &r;
  std::vector<Evaluation> history;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const auto it = by_params.find(ParamsJson(candidates[c]));
    if (it == by_params.end()) continue;
    const bool ok = IsOk(it->second->status);
    history.push_back({c, ok, ok ? it->second->time_ms_median : 0});
  }
  return history;
}

}  // namespace tuner
