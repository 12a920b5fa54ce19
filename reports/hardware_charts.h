// The charts of a run's hardware counters and energy: each counter against the parameter that moves
// it most, and the Pareto front of time against energy per launch.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/named_chart.h"
#include "reports/report_data.h"

namespace tuner::report {

// One chart per counter measured for at least two candidates whose values differ: the counter of
// every profiled candidate at its value of the parameter whose values separate the counter most.
std::vector<NamedChart> CounterCharts(const KernelReport& kernel, const Run& run);

// Time against energy per launch of every candidate with a measured energy, the Pareto front (no
// other candidate is both faster and more frugal) joined; nullopt with fewer than two.
std::optional<NamedChart> ParetoChart(const KernelReport& kernel, const Run& run);

// Indices into `points` (time, energy) of the Pareto front, fastest first.
std::vector<std::size_t> ParetoFront(const std::vector<std::pair<double, double>>& points);

}  // namespace tuner::report
