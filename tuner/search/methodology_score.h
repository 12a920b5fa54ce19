// The community's score of a search strategy on a brute-forced space (Willemsen, van Nieuwpoort and
// van Werkhoven 2024, as the `autotuning-methodology` package computes it): its runs' best-so-far
// over tuning time, each evaluation charged the compile and run time the sweep records, fitted
// across the runs, then at each point of the space's time range scored against random search's
// expected best and the optimum, (random - strategy) / (random - optimum), and averaged: 1 is the
// optimum from the start, 0 is random search, below 0 worse than random.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "search/methodology_space.h"

namespace tuner {

// One run: the candidates in the order it evaluated them.
using CandidateOrder = std::vector<std::size_t>;

// time_ms/cost_ms as MethodologySpace takes them. Differences from the package, both deterministic
// versions of what it draws at random: the curve is the isotonic fit itself, not the mean of a
// bagged ensemble of such fits, and a point where random search already has the optimum (nothing
// to beat, within a relative 1e-9) is left out of the mean rather than made NaN or huge. Throws std::invalid_argument
// as MethodologySpace does, or when no run found a valid candidate.
double MethodologyScore(const std::vector<std::optional<double>>& time_ms, const std::vector<double>& cost_ms,
                        const std::vector<CandidateOrder>& runs, const MethodologySettings& settings = {});

// The fitted best-so-far of the runs at each point of space.TimeRange() (for tests and plots).
std::vector<double> StrategyCurve(const MethodologySpace& space, const std::vector<std::optional<double>>& time_ms,
                                  const std::vector<double>& cost_ms, const std::vector<CandidateOrder>& runs);

}  // namespace tuner
