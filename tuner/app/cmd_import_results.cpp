// tuner import kernel-tuner-cache|t4 FILE --template NAME: published results (a Kernel Tuner cache
// or a T4 file, gzipped or not) as a stored sweep of a named GPU model, for simulate and query.
#include <atomic>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "app/incoming_rows.h"
#include "app/stored_template.h"
#include "base/errors.h"
#include "base/number_text.h"
#include "common/content_hash.h"
#include "common/interrupt.h"
#include "common/option_values.h"
#include "db/query/store.h"
#include "db/row_check.h"
#include "exchange/imported_sweep.h"
#include "exchange/kernel_tuner_cache.h"
#include "exchange/t4_results.h"
#include "template/problem_size.h"
#include "template/search_space.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

ImportedResults ReadResults(const std::string& format, const std::string& path) {
  return format == "t4" ? ReadT4Results(path) : ReadKernelTunerCache(path);
}

// As long as `db import` allows: the name is copied into every row.
std::string CheckedGpuModel(const std::string& model, const std::string& from) {
  if (model.size() > db::kMaxGpuNameBytes)
    throw UsageError(from + ": the GPU model " + Quoted(model) + " is longer than " +
                     std::to_string(db::kMaxGpuNameBytes) + " bytes; name it with --gpu-model");
  return model;
}

std::string GpuModel(const po::variables_map& vm, const ImportedResults& results) {
  if (vm.count("gpu-model")) return CheckedGpuModel(vm["gpu-model"].as<std::string>(), "--gpu-model");
  if (results.device_name.empty())
    throw UsageError("the " + results.format + " '" + results.path +
                     "' does not name its GPU; name it with --gpu-model (e.g. --gpu-model \"NVIDIA A100-PCIE-40GB\")");
  return CheckedGpuModel(results.device_name, "the " + results.format + " '" + results.path + "'");
}

// --size; else the file's problem size where the template takes it; else the template's defaults.
std::string SizeKeyFor(const std::optional<TemplateSpec>& spec, const std::string& name, const std::string& size_text,
                       const ImportedResults& results) {
  if (!size_text.empty() || results.problem_size.empty()) return ResolveSizeKey(spec, name, size_text);
  const std::string file_size = SizeKey(results.problem_size);
  if (!spec) return file_size;
  try {
    return ResolveSizeKey(spec, name, file_size);
  } catch (const UsageError&) {
    const std::string defaults = ResolveSizeKey(spec, name, "");
    std::cerr << "tuner import: the file's problem size " << file_size << " does not fit template '" << name
              << "'; stored at its default size " << defaults << " (--size names another)\n";
    return defaults;
  }
}

// The newest stored version of the template, read without creating or changing the database.
std::string StoredTemplateHash(const std::string& db_path, const std::string& name) {
  std::error_code error;
  if (!std::filesystem::exists(db_path, error)) return "";
  return db::Store::Open(db_path, db::OpenMode::kReadOnly).LatestTemplateHash(name);
}

ImportTarget Target(const po::variables_map& vm, const ImportedResults& results, const std::string& db_path,
                    const std::string& command) {
  ImportTarget target;
  target.template_name = vm["template"].as<std::string>();
  target.gpu_model = GpuModel(vm, results);
  target.command = command;
  const std::optional<TemplateSpec> spec = FindTemplateIfAny(TemplateFolders(vm), target.template_name);
  target.size_key = SizeKeyFor(spec, target.template_name, SizeOption(vm), results);
  if (!spec) {
    if (!vm.count("allow-unknown-template"))
      throw UsageError("template " + Quoted(target.template_name) +
                       " is not at hand (--templates DIR names its folder), so the file's parameters and "
                       "configurations cannot be checked against it; import its T1 description first ('tuner "
                       "import t1'), or pass --allow-unknown-template to store them as they are");
    const std::string stored = StoredTemplateHash(db_path, target.template_name);
    target.template_hash = stored.empty() ? ImportedSpaceHash(results) : stored;
    std::cerr
        << "tuner import: template '" << target.template_name
        << "' is not at hand (--templates DIR names its folder); the file's configurations are stored as they are\n";
    return target;
  }
  target.template_hash = spec->hash;
  target.params = spec->params;
  for (const ParamValues& c : EnumerateCandidates(*spec, ParseProblemSize(*spec, target.size_key)))
    target.candidates.insert(ParamsJson(c));
  return target;
}

// The rows with the file and configuration each comes from, checked as `db import` checks its rows.
IncomingRows Incoming(const ImportedResults& results, const std::vector<db::MeasurementRow>& rows) {
  IncomingRows incoming{rows, {}};
  for (const ImportedConfig& config : results.configs)
    incoming.where.push_back("the " + results.format + " " + Quoted(results.path) + ", " + config.place);
  return incoming;
}

std::string CommandText(int argc, char** argv) {
  std::string text = "tuner";
  for (int i = 0; i < argc; ++i) text += std::string(" ") + argv[i];
  return text;
}

struct Counts {
  std::size_t ok = 0, failed = 0;
};

Counts CountOutcomes(const std::vector<db::MeasurementRow>& rows) {
  Counts counts;
  for (const db::MeasurementRow& row : rows) (IsOk(row.measurement.status) ? counts.ok : counts.failed)++;
  return counts;
}

std::string TemplatesHint(const po::variables_map& vm) {
  std::string hint;
  for (const std::string& dir : TemplateFolders(vm)) hint += " --templates " + dir;
  return hint;
}

void Report(const po::variables_map& vm, const ImportedResults& results, const ImportTarget& target,
            const std::vector<db::MeasurementRow>& rows, std::int64_t changed, const std::string& db_path) {
  const Counts counts = CountOutcomes(rows);
  if (JsonOutput(vm)) {
    std::cout << ordered_json{{"file", results.path},
                              {"format", results.format},
                              {"template", target.template_name},
                              {"template_hash", target.template_hash},
                              {"size", target.size_key},
                              {"gpu_model", target.gpu_model},
                              {"gpu_uuid", db::ImportedGpu(target.gpu_model).uuid},
                              {"configurations", rows.size()},
                              {"ok", counts.ok},
                              {"failed", counts.failed},
                              {"rows_changed", changed},
                              {"database", db_path}}
                     .dump(2)
              << "\n";
    return;
  }
  std::cout << "imported " << rows.size() << " configurations (" << counts.ok << " ok, " << counts.failed
            << " failed) of " << results.path << " as a sweep of '" << target.template_name << "' at "
            << target.size_key << " on " << target.gpu_model << " (imported); " << changed << " rows changed in "
            << db_path << "\nreplay it with: tuner simulate " << target.template_name << " --size " << target.size_key
            << " --device \"" << target.gpu_model << "\"" << TemplatesHint(vm) << "\n";
}

}  // namespace

int RunResultsImport(int argc, char** argv) {
  const CommandSpec spec{
      "import",
      "tuner import kernel-tuner-cache|t4 FILE --template NAME [--gpu-model NAME] [--size WxH] [--templates DIR] "
      "[--allow-unknown-template] [--db PATH] [--json]",
      "Store published results (a Kernel Tuner cache file or a T4 results file, gzipped or not) as a sweep of\n"
      "template NAME on the GPU model the file names (or --gpu-model): every configuration with its time,\n"
      "its failure (compile, runtime, invalid) and its compile time, marked as imported. 'tuner simulate'\n"
      "replays it; 'tuner query --device MODEL' answers from it, never for a GPU of this machine. Each row is\n"
      "checked as 'tuner db import' checks its rows (times from 1 ns to a day, names without control\n"
      "characters, the template's parameters and values, each configuration once). A malformed file is\n"
      "refused naming the line and the field, and nothing is stored: the import is one transaction.",
      "tuner import t1 convolution_milo.json -o kernels && tuner import kernel-tuner-cache A100.json.gz "
      "--template convolution_milo --templates kernels"};
  po::options_description options("Options");
  po::positional_options_description positional;
  AddFormatArgument(options, positional, "the format of FILE: kernel-tuner-cache or t4");
  options.add_options()("file", po::value<std::string>()->value_name("FILE")->required(),
                        "the results file (JSON, or gzipped JSON)")(
      "template", po::value<std::string>()->value_name("NAME")->required(),
      "the template the results are of (e.g. one 'tuner import t1' made of the matching T1 file)")(
      "gpu-model", po::value<std::string>()->value_name("NAME"),
      "the GPU model they were measured on (default: the file's device_name)")(
      "allow-unknown-template",
      "store the file's configurations as they are when template NAME is not at hand (their parameters and "
      "values are then not checked against it)");
  AddSizeOption(options, "the problem size (default: the file's, else the template's defaults)");
  AddTemplatesOption(options);
  AddDatabaseOption(options);
  AddJsonOption(options);
  positional.add("file", 1);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  const std::string format = vm["format"].as<std::string>();
  if (format != "kernel-tuner-cache" && format != "t4")
    throw UsageError(Quoted(format) + " is not a results format tuner imports (kernel-tuner-cache, t4)");
  const std::string db_path = DatabasePath(vm);
  db::Store::CheckWritable(db_path);

  if (const std::string problem = db::TemplateNameProblem(vm["template"].as<std::string>()); !problem.empty())
    throw UsageError("--template: " + problem);

  const std::string path = vm["file"].as<std::string>();
  static std::atomic<bool> interrupted{false};  // reading a large file stops at the next piece of it
  StopOnInterrupt(&interrupted);
  const ImportedResults results = ReadResults(format, path);
  const ImportTarget target = Target(vm, results, db_path, CommandText(argc, argv));
  ContentHash content;
  for (const ImportedConfig& c : results.configs) content.Add(c.configuration.dump()).Add(c.place);
  const std::vector<db::MeasurementRow> rows = ImportedSweepRows(results, target, content.Hex());
  CheckIncoming(Incoming(results, rows), format, db_path, TemplateFolders(vm));
  db::Store store = db::Store::Open(db_path, db::OpenMode::kReadWrite);  // only now: nothing is created before
  Report(vm, results, target, rows, store.Import(rows), store.path());
  return kExitOk;
}

}  // namespace tuner
