// The HTML report: one self-contained page (no scripts, fonts or network; a Content-Security-Policy
// forbids them) with inline SVG charts and tables. Every text from the database is escaped.
#pragma once

#include <string>

#include "reports/report_data.h"

namespace tuner::report {

std::string RenderHtml(const ReportData& data);

}  // namespace tuner::report
