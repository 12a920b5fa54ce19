// A chart of the report with the name it gets as a file and a caption saying how to read it.
#pragma once

#include <string>

#include "common/svg_chart.h"

namespace tuner::report {

struct NamedChart {
  std::string name;  // "h100-gpu-1234-8192x8192-candidates": letters, digits, '-' and '_'
  std::string caption;
  Chart chart;
};

}  // namespace tuner::report
