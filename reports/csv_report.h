// The raw measurements as CSV (RFC 4180): one row per stored candidate with its GPU, sweep and
// template version, for spreadsheets and pandas.
#pragma once

#include <string>

#include "reports/report_data.h"

namespace tuner::report {

// Quoted when it holds a comma, a quote, CR or LF; quotes doubled.
std::string CsvField(const std::string& text);

std::string RenderCsv(const ReportData& data);

}  // namespace tuner::report
