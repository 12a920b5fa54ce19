// The charts of one run (GPU card, problem size, template version), built with common/svg_chart.h.
// Their names start with the run ("h100-gpu-1234-8192x8192-"), unique within a kernel.
#pragma once

#include <string>
#include <vector>

#include "reports/named_chart.h"
#include "reports/report_data.h"

namespace tuner::report {

// Colours shared by the charts and the HTML tables' status badges.
const char* StatusColor(const std::string& status);
const char* LimiterColor(const std::string& limiter);

// "transpose: what (H100 · 8192x8192)", and the prefix of a run's chart names.
std::string RunChartTitle(const KernelReport& kernel, const Run& run, const std::string& what);
std::string RunChartPrefix(const Run& run);

// Every candidate of a run, fastest first, coloured by status, the best marked (failures at 0).
NamedChart CandidatesChart(const KernelReport& kernel, const Run& run);
// Throughput against theoretical occupancy, coloured by what limits occupancy; the achieved
// occupancy of the profiled candidates beside it.
NamedChart OccupancyChart(const KernelReport& kernel, const Run& run);
// Throughput for each value of each parameter that takes more than one value.
std::vector<NamedChart> ParameterCharts(const KernelReport& kernel, const Run& run);

}  // namespace tuner::report
