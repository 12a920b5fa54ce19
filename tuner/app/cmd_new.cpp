// tuner new NAME --from FILE --kernel EXPR: a first template description of a kernel, from its declaration.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "base/errors.h"
#include "common/input_file.h"
#include "common/option_values.h"
#include "template/reserved_names.h"
#include "template/starter_description.h"
#include "template/template_library.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxSourceBytes = 16 << 20;

// --templates, else the first folder of $TUNER_TEMPLATES (where the commands look), else here.
std::string OutputFolder(const po::variables_map& vm) {
  if (vm.count("templates")) return vm["templates"].as<std::string>();
  const char* env = std::getenv("TUNER_TEMPLATES");
  const std::string list = env ? env : "";
  const std::string first = list.substr(0, list.find(':'));
  return first.empty() ? "." : first;
}

bool SameFile(const fs::path& a, const fs::path& b) {
  std::error_code error;
  return fs::weakly_canonical(a, error) == fs::weakly_canonical(b, error);
}

// A name another file already has would make both unusable; the file NAME.toml is replaced only with --force.
void RefuseTakenName(const std::string& name, const std::string& folder, bool force) {
  std::error_code error;
  if (fs::exists(folder, error) && !fs::is_directory(folder, error))
    throw UsageError("--templates " + Quoted(folder) + ": is a file; give a folder");
  const fs::path description = fs::path(folder) / (name + ".toml");
  if (fs::exists(description, error) && !force)
    throw UsageError(Quoted(description.string()) + " is there already; give another NAME, or --force to replace it");
  std::vector<std::string> dirs = TemplateSearchDirs({});
  if (fs::is_directory(folder, error)) dirs.insert(dirs.begin(), folder);
  const TemplateLibrary library = LoadTemplateLibrary(dirs);
  if (library.conflicts.count(name)) throw UsageError(library.conflicts.at(name));
  for (const TemplateSpec& spec : library.templates)
    if (spec.name == name && !SameFile(spec.description_path, description))
      throw UsageError("template name " + Quoted(name) + " is taken by " + spec.description_path +
                       "; give another NAME");
}

nlohmann::ordered_json Json(const StarterRequest& request, const StarterTemplate& written) {
  nlohmann::ordered_json params = nlohmann::ordered_json::array(), args = nlohmann::ordered_json::array();
  for (const GuessedParameter& p : written.parameters) params.push_back({{"name", p.name}, {"value", p.value}});
  for (const GuessedArgument& a : request.guess.arguments)
    args.push_back({{"name", a.name}, {"declared", a.written}, {"type", ToString(a.type)}, {"role", ToString(a.role)}});
  return {{"name", request.name},
          {"description", written.description_path},
          {"source", written.source},
          {"kernel", request.guess.kernel},
          {"line", request.guess.declaration.line},
          {"size", {{"name", written.size_name}, {"default", written.size}}},
          {"params", params},
          {"args", args}};
}

void PrintText(const StarterRequest& request, const StarterTemplate& written) {
  std::cout << "wrote " << written.description_path << " for " << request.guess.kernel << " (" << request.kernel_file
            << ":" << request.guess.declaration.line << ")\n";
  for (const GuessedArgument& a : request.guess.arguments)
    std::cout << "  " << a.name << ": " << ToString(a.type) << ", " << ToString(a.role) << "\n";
  std::cout << "edit the guesses its comments point out (sizes, parameters, block size, the check), then:\n"
            << "  tuner tune " << request.name << " --templates " << request.folder << "\n";
}

}  // namespace

int RunNew(int argc, char** argv) {
  const CommandSpec spec{
      "new", "tuner new NAME --from FILE --kernel EXPR [--templates DIR] [--force] [--json]",
      "Write a first template description, DIR/NAME.toml, for a kernel of a CUDA file: its arguments from the\n"
      "kernel's declaration (a pointer to const is an input, one the kernel assigns to an output, one it also reads\n"
      "is read and written; a count such as n is the problem size), its integer template arguments as parameters\n"
      "to tune, one thread per element, a check against its first configuration. Each guess has a comment saying\n"
      "what to edit. The kernel file is referenced where it is, never copied or changed. Nothing is written when\n"
      "the kernel cannot be read.",
      "tuner new saxpy --from src/saxpy.cu --kernel 'saxpy<float, 256>' --templates kernels"};
  po::options_description options("Options");
  options.add_options()("name", po::value<std::string>()->value_name("NAME")->required(),
                        "the template's name (letters, digits and _)")(
      "from", po::value<std::string>()->value_name("FILE")->required(),
      "the CUDA file with the kernel; host code, headers and other kernels may be there too")(
      "kernel", po::value<std::string>()->value_name("EXPR")->required(),
      "the kernel: its name, with its template arguments for a template ('scale<float, 128>')")(
      "templates", po::value<std::string>()->value_name("DIR"),
      "the folder to write NAME.toml into, made when missing (default: the first folder of $TUNER_TEMPLATES, "
      "else the current folder)")("force", po::bool_switch(), "replace DIR/NAME.toml when it is there");
  AddJsonOption(options);
  po::positional_options_description positional;
  positional.add("name", 1);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;

  StarterRequest request;
  request.name = vm["name"].as<std::string>();
  if (!IsIdentifier(request.name))
    throw UsageError("NAME " + Quoted(request.name) +
                     " is not a template name: use letters, digits and '_', "
                     "not starting with a digit");
  request.folder = OutputFolder(vm);
  request.kernel_file = vm["from"].as<std::string>();
  request.kernel_text = ReadInputFile(request.kernel_file, kMaxSourceBytes, "--from");
  request.guess = GuessKernel(request.kernel_file, request.kernel_text, vm["kernel"].as<std::string>());
  RefuseTakenName(request.name, request.folder, vm["force"].as<bool>());
  const StarterTemplate written = WriteStarterTemplate(request);
  if (JsonOutput(vm))
    std::cout << Json(request, written).dump(2) << "\n";
  else
    PrintText(request, written);
  return kExitOk;
}

}  // namespace tuner
