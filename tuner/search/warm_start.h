// A warm start: what other stored sweeps of the same template (other GPU models, other sizes) say
// about this space. Their times, each relative to its own sweep's best and averaged over them, rank
// the configurations; the most promising (the seeds) are evaluated first.
// Its quota, so that warm is never worse than cold: the seeds come on top of the cold search, never
// in its place (tune's first sample stays the cold one, search/first_sample.h; the strategy searches
// as from a cold start, search/warm_seeds.h), at most kWarmSeeds and a quarter of an evaluation
// budget. Seeds from other GPU models guide the search to where they were fast; a misleading one
// costs one evaluation, never the search's exploration.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "db/query/records.h"
#include "template/search_space.h"

namespace tuner {

// How many of the other sweeps' fastest configurations a warm start evaluates first.
inline constexpr std::size_t kWarmSeeds = 5;
// Under a budget, the seeds are at most this share of it (1 / kWarmSeedBudgetShare).
inline constexpr std::size_t kWarmSeedBudgetShare = 4;

struct WarmStart {
  std::size_t sweeps = 0;  // the other sweeps it was made from
  // Per candidate of this space: the mean over the other sweeps that measured it of
  // log(time / that sweep's best), a failed one counted twice as slow as that sweep's slowest;
  // nullopt where none measured it. The seeds are the lowest.
  std::vector<std::optional<double>> prior;
  std::vector<std::size_t> seeds;  // candidates to evaluate first, the most promising first
};

// `others`: each other sweep's stored records (any status; `skipped` ones and those due another try
// are left out). A sweep without an ok record tells nothing and is not counted.
WarmStart MakeWarmStart(const std::vector<ParamValues>& candidates,
                        const std::vector<std::vector<db::MeasurementRecord>>& others,
                        std::size_t seed_count = kWarmSeeds);

// How many seeds a warm start may evaluate under a budget of `max_evaluations` (0: none): kWarmSeeds,
// and at most a quarter of the budget.
std::size_t WarmSeedQuota(std::size_t max_evaluations);
// The seeds within that quota, the most promising first.
std::vector<std::size_t> SeedsWithinQuota(const WarmStart& warm, std::size_t max_evaluations);

}  // namespace tuner
