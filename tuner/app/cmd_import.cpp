// tuner import t1 FILE: a T1 description (the autotuning community's input format) as a template.
#include <atomic>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "base/errors.h"
#include "common/interrupt.h"
#include "common/option_values.h"
#include "common/progress_bar.h"
#include "exchange/t1_import.h"
#include "template/template_library.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

// A template of a shipped name would be refused by every command that needs it.
void RefuseShippedName(const std::string& name) {
  const std::string shipped_dir = ShippedTemplatesDir();
  if (shipped_dir.empty()) return;
  const TemplateLibrary shipped = LoadTemplateLibrary({shipped_dir});
  if (shipped.Lookup(name))
    throw UsageError("template name " + Quoted(name) + " is a shipped template's; give the import another with --name");
}

void PrintText(const ImportedTemplate& imported, const WrittenTemplate& written, const std::string& folder) {
  std::cout << "imported " << imported.origin_path << " as template '" << imported.name
            << "': " << imported.constraints.size() << " constraint(s), " << written.candidates << " candidate(s) at "
            << written.size_key << "\n  " << written.description_path << "\n";
  for (const auto& [python, translated] : imported.constraints)
    std::cout << "  " << python << "  ->  " << translated << "\n";
  for (const std::string& note : imported.notes) std::cout << "note: " << note << "\n";
  std::cout << "tune it with: tuner tune " << imported.name << " --templates " << folder << "\n";
}

ordered_json Json(const ImportedTemplate& imported, const WrittenTemplate& written, const std::string& folder) {
  ordered_json constraints = ordered_json::array();
  for (const auto& [python, translated] : imported.constraints)
    constraints.push_back({{"t1", python}, {"template", translated}});
  return {{"name", imported.name},
          {"t1", imported.origin_path},
          {"description", written.description_path},
          {"folder", folder},
          {"source", imported.source_path},
          {"size", written.size_key},
          {"candidates", written.candidates},
          {"constraints", constraints},
          {"notes", imported.notes}};
}

}  // namespace

int RunFormatImport(int argc, char** argv) {
  // Results files take other options than a T1 description.
  if (argc > 1 && (std::string(argv[1]) == "kernel-tuner-cache" || std::string(argv[1]) == "t4"))
    return RunResultsImport(argc, argv);
  const CommandSpec spec{
      "import",
      "tuner import t1 FILE [--output DIR] [--name NAME] [--kernel-file FILE] [--opencl-header FILE]\n"
      "                     [--output-depends-on PARAM]... [--json]\n"
      "       tuner import kernel-tuner-cache|t4 FILE --template NAME ... (see 'tuner import t4 --help')",
      "Turn a T1 description (the JSON input format of Kernel Tuner, KTT and benchmark_hub) into a template: "
      "NAME.toml\n"
      "and a copy of its kernel source in DIR. Its Python-like conditions become the template's constraints; the\n"
      "candidates are checked against one of its own configurations (T1 has no reference output). Nothing is written\n"
      "when the file cannot be imported.",
      "tuner import t1 convolution.json --output kernels && tuner tune convolution --templates kernels"};
  po::options_description options("Options");
  po::positional_options_description positional;
  AddFormatArgument(options, positional,
                    "the format of FILE: t1 (kernel-tuner-cache and t4: results, see their --help)");
  options.add_options()("file", po::value<std::string>()->value_name("FILE")->required(),
                        "the T1 description (JSON); its KernelFile is taken from its folder")(
      "output,o", po::value<std::string>()->value_name("DIR"),
      "the folder to write into (default: NAME, in the current folder)")(
      "name", po::value<std::string>()->value_name("NAME")->default_value(""),
      "the template's name (default: General.BenchmarkName, else the file's name)")(
      "kernel-file", po::value<std::string>()->value_name("FILE")->default_value(""),
      "the kernel source to use when the description's KernelFile is missing or wrong")(
      "opencl-header", po::value<std::string>()->value_name("FILE")->default_value(""),
      "for an OpenCL kernel: the header that defines OpenCL's qualifiers and work-item functions in CUDA terms, "
      "included first")(
      "output-depends-on", po::value<std::vector<std::string>>()->value_name("PARAM")->composing(),
      "a tuning parameter whose value changes the right output (a stencil's time steps): each candidate is then "
      "checked against the reference run with its value ([check] output_depends_on; repeatable)");
  AddJsonOption(options);
  positional.add("file", 1);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  RequireFormat(vm, "t1", "imports");
  // Ctrl-C stops the count of a large space within a second, and the staging folder goes with it.
  static std::atomic<bool> interrupted{false};
  StopOnInterrupt(&interrupted);

  const T1ImportOptions import_options{
      vm["name"].as<std::string>(), vm["kernel-file"].as<std::string>(), vm["opencl-header"].as<std::string>(),
      vm.count("output-depends-on") ? vm["output-depends-on"].as<std::vector<std::string>>()
                                    : std::vector<std::string>{}};
  const ImportedTemplate imported = ImportT1(vm["file"].as<std::string>(), import_options);
  RefuseShippedName(imported.name);
  const std::string folder = vm.count("output") ? vm["output"].as<std::string>() : imported.name;
  ProgressBar progress(ProgressStyleFor(StderrIsTerminal()), "tuner import: combinations counted", false);
  const WrittenTemplate written = WriteImportedTemplate(imported, folder, &progress);
  progress.Finish();
  if (JsonOutput(vm))
    std::cout << Json(imported, written, folder).dump(2) << "\n";
  else
    PrintText(imported, written, folder);
  return kExitOk;
}

}  // namespace tuner
