// tuner report: the stored results of one or more kernels as a self-contained HTML page, Markdown
// with SVG charts beside it, or CSV of the raw measurements (reports/).
#include <atomic>
#include <iostream>
#include <map>
#include <optional>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "base/errors.h"
#include "base/number_text.h"
#include "common/interrupt.h"
#include "common/progress_bar.h"
#include "common/same_file.h"
#include "db/query/selection.h"
#include "db/query/store.h"
#include "db/query/imported_gpu.h"
#include "reports/report_data.h"
#include "reports/report_output.h"
#include "template/problem_size.h"
#include "template/template_library.h"

namespace tuner {

namespace {

template <typename T>
T Get(const po::variables_map& vm, const char* name, T fallback) {
  return vm.count(name) ? vm[name].as<T>() : fallback;
}

// --size as a complete size key: with one kernel whose template is at hand, completed with its
// defaults like `tuner tune`; otherwise as given.
std::string ResolveSize(const std::string& text, const std::vector<std::string>& kernels,
                        const TemplateLibrary& library) {
  const std::vector<long long> numbers = ParseSizeNumbers(text);
  if (kernels.size() == 1)
    for (const TemplateSpec& spec : library.templates)
      if (spec.name == kernels.front()) return ParseProblemSize(spec, text).Key();
  return SizeKey(numbers);
}

// The names the templates at hand give their parameters' values (VARIANT 1 = "tiled").
std::map<std::string, report::ValueLabels> Labels(const TemplateLibrary& library) {
  std::map<std::string, report::ValueLabels> labels;
  for (const TemplateSpec& spec : library.templates)
    for (const ParamSpec& param : spec.params)
      for (std::size_t i = 0; i < param.labels.size() && i < param.values.size(); ++i)
        labels[spec.name][param.name][std::to_string(param.values[i])] = param.labels[i];
  return labels;
}

// `inputs` gains the template descriptions read, which the report must not replace.
report::ReportRequest Request(const po::variables_map& vm, std::vector<std::string>* inputs) {
  report::ReportRequest request;
  request.kernels = Get(vm, "kernel", std::vector<std::string>{});
  request.device = DeviceFilter(vm);
  request.include_stale = vm.count("include-stale") > 0;
  request.apart = [](const db::GpuRecord& gpu) { return db::IsImportedGpu(gpu); };
  if (const std::optional<TimingMode> timing = TimingOption(vm)) request.timing_mode = ToText(*timing);
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs(TemplateFolders(vm)));
  request.labels = Labels(library);
  for (const TemplateSpec& spec : library.templates) inputs->push_back(spec.description_path);
  for (const std::string& size : Get(vm, "size", std::vector<std::string>{}))
    request.size_keys.push_back(ResolveSize(size, request.kernels, library));
  return request;
}

void RequireRows(const report::ReportData& data, const report::ReportRequest& request) {
  if (data.CountRows() > 0) return;
  if (data.kernels.empty())
    throw std::runtime_error(data.database_path + " holds no results yet; run 'tuner tune KERNEL' on a GPU first");
  std::string filters;
  if (!request.device.empty()) filters += " GPU matching '" + request.device + "'";
  for (const std::string& size : request.size_keys) filters += " size " + size;
  throw std::runtime_error("no stored measurement matches the filters (" + filters.substr(filters.empty() ? 0 : 1) +
                           "); 'tuner db info' lists what is stored");
}

}  // namespace

int RunReport(int argc, char** argv) {
  const CommandSpec spec{
      "report",
      "tuner report [KERNEL...] [--device NAME] [--size WxH] [--timing MODE] [--format html|md|csv] [-o PATH]",
      "Write a report of the stored results: a self-contained HTML page with charts (default), Markdown\n"
      "with the charts as SVG files in a folder beside it, or CSV of the raw measurements. Without\n"
      "KERNEL, every kernel in the database. Ctrl-C stops it with a line saying what was written (exit 130).",
      "tuner report transpose --device H100 -o transpose.html"};
  po::options_description options("Options");
  options.add_options()("kernel", po::value<std::vector<std::string>>()->value_name("KERNEL")->composing(),
                        "templates to report (default: all stored)");
  AddDeviceOption(options);
  options.add_options()("size", po::value<std::vector<std::string>>()->value_name("WxH")->composing(),
                        "only this problem size (repeatable), e.g. 8192x8192")(
      "format", po::value<std::string>()->value_name("FORMAT"),
      "html, md or csv (default: from -o's extension, else html)");
  AddOutputFileOption(options, "output file, '-' for stdout (default report.html, report.md or report.csv)");
  options.add_options()("include-stale", "also results of older versions of the templates");
  AddTimingOption(options,
                  "only results timed so: isolated, back_to_back or graph (default: each GPU and size in the mode it "
                  "was most recently tuned in; modes are never shown together)");
  AddDatabaseOption(options);
  AddTemplatesOption(options);
  po::positional_options_description positional;
  positional.add("kernel", -1);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  const std::optional<std::string> output = OutputFile(vm);
  const report::ReportFormat format = vm.count("format") ? report::ParseFormat(vm["format"].as<std::string>())
                                      : output           ? report::FormatOfPath(*output)
                                                         : report::ReportFormat::kHtml;
  std::vector<std::string> inputs = DatabaseFiles(DatabasePath(vm));
  const report::ReportRequest request = Request(vm, &inputs);

  static std::atomic<bool> interrupted{false};
  StopOnInterrupt(&interrupted);
  db::Store store = db::Store::Open(DatabasePath(vm), db::OpenMode::kReadOnly);
  const report::ReportData data = report::SelectReportData(store, request);
  if (interrupted) {
    std::cerr << "tuner report: interrupted while reading the database; nothing written\n";
    return kExitInterrupted;
  }
  RequireRows(data, request);
  const std::string path = output.value_or(report::DefaultOutputPath(format));
  ProgressBar progress(ProgressStyleFor(StderrIsTerminal()), "tuner report", false);
  ProgressCounts runs;
  for (const report::KernelReport& kernel : data.kernels) runs.total += kernel.runs.size();
  const std::vector<std::string> written = report::WriteReport(data, format, path, std::cout, inputs, [&] {
    ++runs.done;
    progress.Update(0, runs);
  });
  progress.Finish();
  if (!written.empty())
    std::cerr << "tuner report: wrote " << written.front() << " (" << data.CountRows() << " measurements of "
              << data.kernels.size() << " kernel(s)"
              << (written.size() > 1
                      ? ", " + std::to_string(written.size() - 1) + " charts in " + report::ChartsFolderOf(path)
                      : std::string())
              << ")\n";
  if (!interrupted) return kExitOk;
  std::cerr << "tuner report: interrupted; the report was already being written and is complete\n";
  return kExitInterrupted;
}

}  // namespace tuner
