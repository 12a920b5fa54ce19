// Bayesian optimisation: a Gaussian process (gaussian_process.h) models the logarithm of a
// candidate's time from its parameters, each parameter's values placed evenly on [0, 1] in
// ascending order, each with a length scale of its own (length_scales.h). After a few random
// candidates, each next one is the unmeasured candidate of greatest expected improvement over the
// fastest so far. A failed candidate counts as twice as slow as the slowest that passed. The length
// scales and noise are those under which the measurements are most likely, chosen again whenever
// the measurements have grown by half.
// Proposals asked for before earlier ones' results are in avoid the pending candidates' surroundings
// (a sweep compiling ahead). It stops after a stretch without a better time, or, given
// StrategyOptions::min_expected_gain, once no unmeasured candidate is expected to beat the best by
// that fraction and at least 20 evaluations have brought no better time.
#pragma once

#include <memory>

#include "search/candidate_graph.h"
#include "search/search_strategy.h"

namespace tuner {

// The graph gives each candidate's coordinates (its values' ranks); its neighbours are not used.
std::unique_ptr<SearchStrategy> MakeBayesian(CandidateGraph space, const StrategyOptions& options);

}  // namespace tuner
