// tuner export t4 KERNEL: one GPU model's stored results of a template as T4, the community's
// results format (t4_export.h).
#include <algorithm>
#include <iostream>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "app/stored_template.h"
#include "base/errors.h"
#include "common/option_values.h"
#include "common/same_file.h"
#include "common/whole_file.h"
#include "db/query/gpu_model.h"
#include "db/query/selection.h"
#include "db/query/store.h"
#include "exchange/t4_export.h"

namespace tuner {

namespace {

// The rows of the template version and size, of the one GPU model that matches --device.
std::vector<db::MeasurementRow> ModelRows(db::Store& store, const std::string& kernel, const std::string& size_key,
                                          const std::string& device, const std::string& hash) {
  db::MeasurementFilter filter;
  filter.template_name = kernel;
  filter.gpu_name = device;
  filter.size_key = size_key;
  std::vector<std::vector<db::MeasurementRow>> models;
  for (db::MeasurementRow& row : store.ListMeasurements(filter)) {
    if (row.templ.hash != hash) continue;
    auto model = std::find_if(models.begin(), models.end(),
                              [&](const auto& rows) { return db::SameModel(rows.front().gpu, row.gpu); });
    if (model == models.end()) model = models.insert(models.end(), std::vector<db::MeasurementRow>{});
    model->push_back(std::move(row));
  }
  if (models.empty()) {
    std::string what = "no results of the current version of " + Quoted(kernel) + " at size " + size_key;
    if (!device.empty()) what += " on a GPU matching " + Quoted(device);
    throw std::runtime_error(what + " are stored in " + store.path() + "; run 'tuner tune " + kernel +
                             "' on a GPU first");
  }
  if (models.size() > 1) {
    std::string names;
    for (const auto& rows : models) names += (names.empty() ? "" : ", ") + Quoted(rows.front().gpu.name);
    throw UsageError("results of " + std::to_string(models.size()) + " GPU models match (" + names +
                     "); a T4 file holds one: choose it with --device");
  }
  return std::move(models.front());
}

}  // namespace

int RunFormatExport(int argc, char** argv) {
  const CommandSpec spec{
      "export", "tuner export t4 KERNEL [--size WxH] [--device NAME] [--output FILE] [--db PATH]",
      "Write one GPU model's stored results of a template (its current version, at one size) as T4, the results\n"
      "format of Kernel Tuner and the autotuning community, to score a run with their methodology: one result per\n"
      "candidate, its stored median time as the objective 'time' in ms. Reads the database only.",
      "tuner export t4 matmul --device H100 -o matmul-h100-t4.json"};
  po::options_description options("Options");
  po::positional_options_description positional;
  AddFormatArgument(options, positional, "the format to write: t4");
  AddKernelArgument(options, positional);
  AddSizeOption(options, "problem size of the stored results; omitted sizes take the template's defaults");
  AddDeviceOption(options, "needed when several models have results");
  AddOutputFileOption(options, "file to write (default: stdout)", "-");
  AddTemplatesOption(options);
  AddDatabaseOption(options);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  RequireFormat(vm, "t4", "exports");
  const std::string kernel = KernelArgument(vm);
  const std::string output = *OutputFile(vm);
  const std::string size_text = SizeOption(vm);
  const std::optional<TemplateSpec> templ = FindTemplateIfAny(TemplateFolders(vm), kernel);
  const std::string size_key = ResolveSizeKey(templ, kernel, size_text);

  db::Store store = db::Store::Open(DatabasePath(vm), db::OpenMode::kReadOnly);
  const std::string hash = templ ? templ->hash : store.LatestTemplateHash(kernel);
  const std::vector<db::MeasurementRow> rows = ModelRows(store, kernel, size_key, DeviceFilter(vm), hash);
  const nlohmann::ordered_json doc = T4Document(rows);
  const std::string text = doc.dump(2) + "\n";
  if (output == "-") {
    std::cout << text << std::flush;
  } else {
    std::vector<std::string> inputs = DatabaseFiles(store.path());
    if (templ) inputs.insert(inputs.end(), {templ->description_path, templ->source_path});
    RefuseReplacingInputs(output, inputs);
    WriteWholeFile(output, text);
  }
  std::cerr << "exported " << doc["results"].size() << " result(s) of " << kernel << " at " << size_key << " on "
            << rows.front().gpu.name << (output == "-" ? "" : " to " + output) << "\n";
  return kExitOk;
}

}  // namespace tuner
