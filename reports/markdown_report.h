// The Markdown report, for terminals and pull requests: the tables, and the charts as SVG files in
// a folder beside the .md that the page links to.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "reports/report_data.h"

namespace tuner::report {

struct ChartFile {
  std::string relative_path;  // "report-charts/transpose-h100-…-candidates.svg"
  std::string svg;
};

struct MarkdownReport {
  std::string markdown;
  std::vector<ChartFile> charts;
};

// Backslash-escapes Markdown's punctuation and '|', turns <, > and & into entities and line breaks
// into spaces, so a cell's text shows as itself (and no HTML from the database is rendered).
std::string MarkdownEscape(const std::string& text);

// charts_folder: the folder the charts are linked from, relative to the .md; empty: no charts.
// `run_done` (if any) is called after each run's section, for progress.
MarkdownReport RenderMarkdown(const ReportData& data, const std::string& charts_folder,
                              const std::function<void()>& run_done = {});

}  // namespace tuner::report
