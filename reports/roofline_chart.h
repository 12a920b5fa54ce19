// The roofline of a run: every counted candidate at its arithmetic intensity (floating-point
// operations per DRAM byte, both counted) and its rate, under the GPU's roofs: the DRAM bandwidth's
// slope up to the ridge, then the peak rate of the candidates' precision, both from the counters.
#pragma once

#include <optional>

#include "reports/named_chart.h"
#include "reports/report_data.h"

namespace tuner::report {

// nullopt when no correct candidate of the run has a roofline point (none counted, none doing
// floating-point work, or counted by an older version) or its counters give no roof.
std::optional<NamedChart> RooflineChart(const KernelReport& kernel, const Run& run);

}  // namespace tuner::report
