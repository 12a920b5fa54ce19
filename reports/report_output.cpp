#include "reports/report_output.h"

#include <filesystem>

#include "base/errors.h"
#include "common/option_values.h"
#include "common/same_file.h"
#include "common/whole_file.h"
#include "reports/csv_report.h"
#include "reports/html_report.h"
#include "reports/markdown_report.h"

namespace tuner::report {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> WriteMarkdown(const ReportData& data, const std::string& path,
                                       const std::vector<std::string>& inputs, const std::function<void()>& run_done) {
  const std::string folder = ChartsFolderOf(path);
  const MarkdownReport report = RenderMarkdown(data, fs::path(folder).filename().string(), run_done);
  std::vector<std::string> written{path};
  for (const ChartFile& chart : report.charts)
    written.push_back((fs::path(path).parent_path() / chart.relative_path).string());
  for (const std::string& file : written) RefuseReplacingInputs(file, inputs);
  for (std::size_t i = 0; i < report.charts.size(); ++i)
    WriteWholeFile(written[i + 1], report.charts[i].svg);  // creates the charts folder
  WriteWholeFile(path, report.markdown);
  return written;
}

}  // namespace

ReportFormat ParseFormat(const std::string& text) {
  if (text == "html") return ReportFormat::kHtml;
  if (text == "md" || text == "markdown") return ReportFormat::kMarkdown;
  if (text == "csv") return ReportFormat::kCsv;
  throw UsageError("--format " + Quoted(text) + ": expected html, md or csv");
}

ReportFormat FormatOfPath(const std::string& path) {
  const std::string extension = fs::path(path).extension().string();
  if (extension == ".md" || extension == ".markdown") return ReportFormat::kMarkdown;
  if (extension == ".csv") return ReportFormat::kCsv;
  return ReportFormat::kHtml;
}

std::string DefaultOutputPath(ReportFormat format) {
  switch (format) {
    case ReportFormat::kMarkdown:
      return "report.md";
    case ReportFormat::kCsv:
      return "report.csv";
    case ReportFormat::kHtml:
      break;
  }
  return "report.html";
}

std::string ChartsFolderOf(const std::string& markdown_path) {
  const fs::path path(markdown_path);
  return (path.parent_path() / (path.stem().string() + "-charts")).string();
}

std::vector<std::string> WriteReport(const ReportData& data, ReportFormat format, const std::string& path,
                                     std::ostream& out, const std::vector<std::string>& inputs,
                                     const std::function<void()>& run_done) {
  if (format == ReportFormat::kMarkdown && path != "-") return WriteMarkdown(data, path, inputs, run_done);
  const std::string text = format == ReportFormat::kHtml  ? RenderHtml(data, run_done)
                           : format == ReportFormat::kCsv ? RenderCsv(data)
                                                          : RenderMarkdown(data, "", run_done).markdown;
  if (path == "-") {
    out << text;
    out.flush();
    return {};
  }
  RefuseReplacingInputs(path, inputs);
  WriteWholeFile(path, text);
  return {path};
}

}  // namespace tuner::report
