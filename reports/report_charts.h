// The report's charts, built from the selected data with the SVG chart writer (tuner/svg_chart.h).
// Each returns nothing when the data cannot make that chart; the writers say why.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/report_data.h"
#include "tuner/svg_chart.h"

namespace tuner::report {

// A chart with the name it gets as a file ("candidates") and a caption saying how to read it.
struct NamedChart {
  std::string name;
  std::string caption;
  Chart chart;
};

// Colours shared by the charts and the HTML tables' status badges.
const char* StatusColor(const std::string& status);
const char* LimiterColor(const std::string& limiter);

// Every candidate of a run, fastest first, coloured by status, the best marked (failures at 0).
NamedChart CandidatesChart(const KernelReport& kernel, const Run& run);
// Throughput against occupancy, coloured by what limits occupancy.
NamedChart OccupancyChart(const KernelReport& kernel, const Run& run);
// Throughput for each value of each parameter that takes more than one value.
std::vector<NamedChart> ParameterCharts(const KernelReport& kernel, const Run& run);
// The best of each run across GPUs and problem sizes: only with more than one run.
std::optional<NamedChart> AcrossChart(const KernelReport& kernel);
// The best of each run as a percentage of its device ceiling: only where some ceiling is known.
std::optional<NamedChart> CeilingChart(const KernelReport& kernel);

// Every chart of a kernel, in the order the reports show them; runs prefixed "<gpu>-<size>-".
std::vector<NamedChart> KernelCharts(const KernelReport& kernel);

}  // namespace tuner::report
