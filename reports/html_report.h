// The HTML report: one self-contained page (no scripts, fonts or network; a Content-Security-Policy
// forbids them) with inline SVG charts and tables. Every text from the database is escaped.
#pragma once

#include <functional>
#include <string>

#include "reports/report_data.h"

namespace tuner::report {

// `run_done` (if any) is called after each run's section, for progress.
std::string RenderHtml(const ReportData& data, const std::function<void()>& run_done = {});

}  // namespace tuner::report
