#include "search/warm_start.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>

#include "search/retry_policy.h"

namespace tuner {

namespace {

// As the Bayesian strategy scores a failure: twice as slow as the slowest that passed.
const double kFailedPenalty = std::log(2.0);

// One sweep's word on each configuration it measured, by identity: log(time / its best).
std::map<std::string, double> RelativeLogTimes(const std::vector<db::MeasurementRecord>& records) {
  std::optional<double> fastest, slowest;
  for (const db::MeasurementRecord& r : records) {
    if (!IsOk(r.status) || !(r.time_ms_median > 0)) continue;
    const double y = std::log(r.time_ms_median);
    fastest = std::min(fastest.value_or(y), y);
    slowest = std::max(slowest.value_or(y), y);
  }
  std::map<std::string, double> relative;
  if (!fastest) return relative;
  for (const db::MeasurementRecord& r : records) {
    if (r.status == CandidateStatus::kSkipped || NeedsAnotherTry(r)) continue;
    const bool ok = IsOk(r.status) && r.time_ms_median > 0;
    relative[CandidateIdentity(r.params_json)] =
        (ok ? std::log(r.time_ms_median) : *slowest + kFailedPenalty) - *fastest;
  }
  return relative;
}

}  // namespace

WarmStart MakeWarmStart(const std::vector<ParamValues>& candidates,
                        const std::vector<std::vector<db::MeasurementRecord>>& others, std::size_t seed_count) {
  WarmStart warm;
  std::vector<double> sum(candidates.size(), 0);
  std::vector<std::size_t> count(candidates.size(), 0);
  std::map<std::string, std::size_t> index;
  for (std::size_t c = 0; c < candidates.size(); ++c) index[ParamsJson(candidates[c])] = c;
  for (const auto& records : others) {
    const std::map<std::string, double> relative = RelativeLogTimes(records);
    if (relative.empty()) continue;
    ++warm.sweeps;
    for (const auto& [identity, value] : relative) {
      const auto found = index.find(identity);
      if (found == index.end()) continue;  // not a candidate at this size
      sum[found->second] += value;
      ++count[found->second];
    }
  }
  warm.prior.resize(candidates.size());
  std::vector<std::size_t> known;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (count[c] == 0) continue;
    warm.prior[c] = sum[c] / static_cast<double>(count[c]);
    known.push_back(c);
  }
  // The most promising first; of equals, the first in enumeration order.
  std::stable_sort(known.begin(), known.end(), [&](std::size_t a, std::size_t b) { return *warm.prior[a] < *warm.prior[b]; });
  known.resize(std::min(known.size(), seed_count));
  warm.seeds = std::move(known);
  return warm;
}

std::size_t WarmSeedQuota(std::size_t max_evaluations) {
  return max_evaluations == 0 ? kWarmSeeds : std::min(kWarmSeeds, max_evaluations / kWarmSeedBudgetShare);
}

std::vector<std::size_t> SeedsWithinQuota(const WarmStart& warm, std::size_t max_evaluations) {
  std::vector<std::size_t> seeds = warm.seeds;
  seeds.resize(std::min(seeds.size(), WarmSeedQuota(max_evaluations)));
  return seeds;
}

}  // namespace tuner
