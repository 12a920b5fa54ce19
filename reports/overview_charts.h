// The charts of one kernel across its runs: the best per GPU and problem size, and the best as a
// share of the device ceiling. Each is absent when the data cannot make it.
#pragma once

#include <optional>

#include "reports/named_chart.h"
#include "reports/report_data.h"

namespace tuner::report {

// Only with more than one current run that has a correct candidate.
std::optional<NamedChart> AcrossChart(const KernelReport& kernel);
// Only where some run's ceiling is known.
std::optional<NamedChart> CeilingChart(const KernelReport& kernel);

}  // namespace tuner::report
