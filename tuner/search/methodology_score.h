// The community's score of a search strategy on a brute-forced space (Willemsen, van Nieuwpoort and
// van Werkhoven 2024, as the `autotuning-methodology` package computes it): its runs' best-so-far
// over tuning time, each evaluation charged the compile and run time the sweep records, fitted
// across the runs, then at each point of the space's time range scored against random search's
// expected best and the optimum, (random - strategy) / (random - optimum), and averaged: 1 is the
// optimum from the start, 0 is random search, below 0 worse than random. As in the package
// (version 1.1.0), the fit takes the runs' points within a margin of the range (10%, more for short
// runs), and past the first run end after the median run end the curve keeps its value.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "search/methodology_space.h"

namespace tuner {

// One run: the candidates in the order it evaluated them.
using CandidateOrder = std::vector<std::size_t>;

// time_ms/cost_ms as MethodologySpace takes them. Differences from the package: the curve is the
// isotonic fit itself, not the mean of a bagged (random) ensemble of such fits; a point where
// random search already has the optimum (within a relative 1e-9) is left out of the mean rather
// than refused; and runs are kept whole where the package cuts those longer than twice the mean
// run. Throws std::invalid_argument as MethodologySpace does, or when no run found a valid
// candidate or has an evaluation in the time range.
double MethodologyScore(const std::vector<std::optional<double>>& time_ms, const std::vector<double>& cost_ms,
                        const std::vector<CandidateOrder>& runs, const MethodologySettings& settings = {});

// The fitted best-so-far of the runs at each point of space.TimeRange() (for tests and plots).
std::vector<double> StrategyCurve(const MethodologySpace& space, const std::vector<std::optional<double>>& time_ms,
                                  const std::vector<double>& cost_ms, const std::vector<CandidateOrder>& runs);

}  // namespace tuner
