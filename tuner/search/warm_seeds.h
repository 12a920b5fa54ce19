// A warm start's seeds on top of a cold search (search/warm_start.h: its quota). The seeds are
// proposed first; the strategy itself is made as for a cold start and runs as it would from one:
// it never sees a seed's result unless it proposes that candidate itself, when it gets the result
// measured already. So a warm search evaluates what the cold search evaluates and the seeds
// besides: a seed that is good here is found at once, and one that is not costs one evaluation,
// never the search's exploration nor its stopping rule (a good seed seen by the strategy made it
// believe it had converged, and stop, where the cold search went on to the optimum).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "search/search_strategy.h"

namespace tuner {

// `cold`: the strategy made without the warm start (its own `first` without the seeds, its budget
// less theirs); `seeds`: those within the quota, the most promising first.
std::unique_ptr<SearchStrategy> WithWarmSeeds(std::unique_ptr<SearchStrategy> cold, std::vector<std::size_t> seeds);

}  // namespace tuner
