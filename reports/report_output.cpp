#include "reports/report_output.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "reports/csv_report.h"
#include "reports/html_report.h"
#include "reports/markdown_report.h"
#include "common/errors.h"
#include "common/option_values.h"

namespace tuner::report {

namespace fs = std::filesystem;

namespace {

void WriteWhole(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) throw std::runtime_error("cannot open " + temporary + " for writing (does the folder exist?)");
    file << text;
    file.close();
    if (!file) throw std::runtime_error("cannot write " + temporary);
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot rename " + temporary + " to " + path + ": " + error.message());
  }
}

std::vector<std::string> WriteMarkdown(const ReportData& data, const std::string& path) {
  const std::string folder = ChartsFolderOf(path);
  const MarkdownReport report = RenderMarkdown(data, fs::path(folder).filename().string());
  std::vector<std::string> written;
  if (!report.charts.empty()) {
    std::error_code error;
    fs::create_directories(folder, error);
    if (error) throw std::runtime_error("cannot create the charts folder " + folder + ": " + error.message());
  }
  for (const ChartFile& chart : report.charts) {
    const std::string chart_path = (fs::path(path).parent_path() / chart.relative_path).string();
    WriteWhole(chart_path, chart.svg);
    written.push_back(chart_path);
  }
  WriteWhole(path, report.markdown);
  written.insert(written.begin(), path);
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
    case ReportFormat::kMarkdown: return "report.md";
    case ReportFormat::kCsv: return "report.csv";
    case ReportFormat::kHtml: break;
  }
  return "report.html";
}

std::string ChartsFolderOf(const std::string& markdown_path) {
  const fs::path path(markdown_path);
  return (path.parent_path() / (path.stem().string() + "-charts")).string();
}

std::vector<std::string> WriteReport(const ReportData& data, ReportFormat format, const std::string& path,
                                     std::ostream& out) {
  if (format == ReportFormat::kMarkdown && path != "-") return WriteMarkdown(data, path);
  const std::string text = format == ReportFormat::kHtml ? RenderHtml(data)
                           : format == ReportFormat::kCsv ? RenderCsv(data)
                                                          : RenderMarkdown(data, "").markdown;
  if (path == "-") {
    out << text;
    out.flush();
    return {};
  }
  WriteWhole(path, text);
  return {path};
}

}  // namespace tuner::report
