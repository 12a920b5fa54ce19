// Writing a report in one of its formats to a file (or stdout), and the charts of a Markdown report
// into a folder beside it.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "reports/report_data.h"

namespace tuner::report {

enum class ReportFormat { kHtml, kMarkdown, kCsv };

// "html", "md" (or "markdown"), "csv"; throws UsageError naming the accepted ones.
ReportFormat ParseFormat(const std::string& text);
// From the file name's extension (.md, .markdown, .csv; anything else is HTML).
ReportFormat FormatOfPath(const std::string& path);
// "report.html", "report.md", "report.csv".
std::string DefaultOutputPath(ReportFormat format);
// A Markdown report's chart folder: "out/report.md" -> "out/report-charts".
std::string ChartsFolderOf(const std::string& markdown_path);

// Writes the report to `path`, or to `out` when path is "-" (Markdown then has no charts). Each file
// is written whole and renamed into place. Returns the paths written; throws std::runtime_error
// naming a path that cannot be written, and UsageError, before writing anything, when a file it
// would write is one of `inputs` (the database the data came from). `run_done` (if any) hears of
// each run rendered.
std::vector<std::string> WriteReport(const ReportData& data, ReportFormat format, const std::string& path,
                                     std::ostream& out, const std::vector<std::string>& inputs = {},
                                     const std::function<void()>& run_done = {});

}  // namespace tuner::report
