// The report's tables as plain-text cells, shared by the HTML and Markdown writers (each escapes
// the cells for its own format).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/report_data.h"

namespace tuner::report {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> numeric;            // per column: right-aligned
  std::vector<std::string> row_status;  // per row, optional: a status to colour the row by
};

// The best candidate of every kernel, GPU and size of the report.
Table SummaryTable(const ReportData& data);
// The best of each run of one kernel, with its ceiling share and resources.
Table BestTable(const KernelReport& kernel);
// The `count` fastest correct candidates of a run.
Table TopTable(const Run& run, std::size_t count);
// Failed, invalid and skipped candidates grouped by status and reason, with a count and examples.
Table FailuresTable(const Run& run);
// Every sweep that produced the rows: tool, NVRTC, driver and runtime versions, dates, GPU UUID.
Table ProvenanceTable(const KernelReport& kernel);

// "3 ok of 48 (12 invalid, 33 skipped)".
std::string StatusSummary(const Run& run);

}  // namespace tuner::report
