// A steady-state genetic algorithm over the candidate graph: the population is the fastest
// candidates measured so far; each child mixes two tournament-chosen parents parameter by parameter
// and may move one step along a parameter (mutation). Children that the constraints rule out or
// that were measured already are drawn again; failing that, an unmeasured neighbour of the fastest
// candidates is taken.
#pragma once

#include <memory>

#include "search/candidate_graph.h"
#include "search/search_strategy.h"

namespace tuner {

std::unique_ptr<SearchStrategy> MakeGenetic(CandidateGraph graph, const StrategyOptions& options);

}  // namespace tuner
