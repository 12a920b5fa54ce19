// Simulated annealing over the candidate graph: from the fastest of a few random samples, a random
// walk that always takes a faster neighbour and a slower one with probability
// exp(-(slower/current - 1) / T), T cooling geometrically with the evaluations. Moves onto
// neighbours already measured cost nothing; when the walk's surroundings are all measured it
// continues from the fastest candidate with an unmeasured neighbour.
#pragma once

#include <memory>

#include "search/candidate_graph.h"
#include "search/search_strategy.h"

namespace tuner {

std::unique_ptr<SearchStrategy> MakeAnnealing(CandidateGraph graph, const StrategyOptions& options);

}  // namespace tuner
