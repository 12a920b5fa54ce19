#include "template/starter_description.h"

#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "base/errors.h"
#include "common/scratch_folder.h"
#include "common/whole_file.h"
#include "template/source_names.h"
#include "template/template_spec.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

constexpr long long kDefaultSize = 1 << 20;

// A TOML basic string ("..."), escaped by toml++, as the rest of the description writes its strings.
std::string Toml(const std::string& text) {
  std::ostringstream out;
  out << toml::toml_formatter{toml::value<std::string>(text), toml::format_flags::none};
  return out.str();
}

// The kernel file as the description names it: relative to the folder, unless the two share
// nothing but the root (then a path climbing to the root says less than the absolute one).
std::string SourceFrom(const fs::path& folder, const fs::path& kernel_file) {
  const auto [in_folder, in_file] = std::mismatch(folder.begin(), folder.end(), kernel_file.begin(), kernel_file.end());
  if (std::distance(folder.begin(), in_folder) <= 1) return kernel_file.string();
  return kernel_file.lexically_relative(folder).string();
}

bool TakenBy(const std::vector<GuessedParameter>& parameters, const std::string& name) {
  return std::any_of(parameters.begin(), parameters.end(), [&](const GuessedParameter& p) { return p.name == name; });
}

// A name of the block size that the source does not use: it reaches the source as a macro.
std::string FreeBlockName(const std::string& source_text) {
  const std::string code = WithoutComments(source_text);
  for (const char* name : {"BLOCK_SIZE", "BLOCK_THREADS", "TUNER_BLOCK_SIZE"})
    if (MissingFromSource(name, "", code, {}).size() > 0) return name;
  return "TUNER_BLOCK_SIZE_";
}

// The size's name, the block size's parameter and its values: the template's parameters.
void PlanSizeAndBlock(const StarterRequest& request, StarterTemplate& starter) {
  starter.parameters = request.guess.parameters;
  for (const char* name : {"N", "SIZE", "ELEMENTS"})
    if (!TakenBy(starter.parameters, name)) {
      starter.size_name = name;
      break;
    }
  starter.size = kDefaultSize;
  std::string& block = starter.block_parameter;
  block = request.guess.block_parameter;
  if (!block.empty()) return;
  block = FreeBlockName(request.kernel_text);
  for (const long long threads : {128LL, 256LL, 512LL})
    if (threads <= request.guess.max_block_threads) starter.parameters.push_back({block, threads});
  if (!TakenBy(starter.parameters, block)) starter.parameters.push_back({block, request.guess.max_block_threads});
}

std::string Header(const StarterRequest& request, const StarterTemplate& starter, const std::string& source) {
  const KernelGuess& guess = request.guess;
  return "# A first template for " + guess.declaration.name + ", written by `tuner new` from " + request.kernel_file +
         " (line " + std::to_string(guess.declaration.line) +
         ").\n# Each value below is a guess from the kernel's declaration: read the comments, edit what is\n"
         "# wrong, then tune it: tuner tune " +
         request.name + " --templates " + request.folder +
         "\n# The format: kernel_templates/README.md of the tool's sources, or its documentation site.\n"
         "name = " +
         Toml(request.name) + "\nsummary = " +
         Toml(guess.kernel + " of " + fs::path(request.kernel_file).filename().string() +
              " (first template: edit me)") +
         "\nsource = " + Toml(source) + "  # the kernel's file where it is" +
         (fs::path(source).is_absolute() ? "" : " (relative to this file's folder)") +
         "\nkernel = " + Toml(guess.kernel) + "\n# constraints = [\"" + starter.block_parameter +
         " % 32 == 0\"]  # conditions a candidate must meet, over parameters and sizes\n";
}

std::string SizeAndParameters(const StarterTemplate& starter) {
  std::string text =
      "\n# The problem size: every buffer has " + starter.size_name +
      " elements (--size sets it). A kernel of\n"
      "# several dimensions gets one [[size]] each, in the order --size gives them (--size 4096x4096).\n[[size]]\n"
      "name = \"" +
      starter.size_name + "\"\ndefault = " + std::to_string(starter.size) +
      "\n\n# Parameters to tune: add the values to try. Each reaches the source as a macro (-DNAME=value),\n"
      "# or, named in `kernel`, as the template argument.\n";
  std::map<std::string, std::vector<long long>> values;
  std::vector<std::string> order;
  for (const GuessedParameter& p : starter.parameters) {
    if (values[p.name].empty()) order.push_back(p.name);
    values[p.name].push_back(p.value);
  }
  for (const std::string& name : order) {
    text += "[[param]]\nname = \"" + name + "\"\nvalues = [";
    for (std::size_t i = 0; i < values[name].size(); ++i) text += (i ? ", " : "") + std::to_string(values[name][i]);
    text += "]\n";
  }
  return text;
}

std::string Launch(const StarterTemplate& starter) {
  const std::string& block = starter.block_parameter;
  return "\n# One thread per element, a guess: a kernel that loops over its elements, or computes several\n"
         "# per thread, needs another grid. Expressions over sizes and parameters; cdiv rounds up.\n[launch]\n"
         "grid = [\"cdiv(" +
         starter.size_name + ", " + block + ")\"]\nblock = [\"" + block +
         "\"]\nshared_bytes = \"0\"  # dynamic shared memory per block\n";
}

std::string Argument(const GuessedArgument& argument, const std::string& size_name) {
  std::string text = "[[arg]]\nname = \"" + argument.name + "\"  # " + argument.written + "\ntype = \"" +
                     ToString(argument.type) + "\"\n";
  switch (argument.role) {
    case ArgumentRole::kInput:
      return text + "length = \"" + size_name + "\"\ninit = \"random\"\n";
    case ArgumentRole::kOutput:
      return text + "length = \"" + size_name + "\"\noutput = true\n";
    case ArgumentRole::kInOut:
      return text + "length = \"" + size_name + "\"\noutput = true\ninit = \"random\"  # read and written\n";
    case ArgumentRole::kSize:
      return text + "value = \"" + size_name + "\"\n";
    case ArgumentRole::kScalar:
      break;
  }
  return text + "value = \"1\"  # a guess: the value every launch passes, an expression over the sizes\n";
}

std::string Arguments(const StarterRequest& request, const StarterTemplate& starter) {
  std::string text =
      "\n# The kernel's arguments, in its order. A pointer to const is an input: random data that must stay\n"
      "# as it is. One the kernel only assigns to is an output: it starts as poison, so an element no\n"
      "# candidate writes is caught. One it also reads is read and written: it starts from random data.\n";
  for (const GuessedArgument& argument : request.guess.arguments) text += Argument(argument, starter.size_name);
  return text;
}

std::string CheckAndWork(const StarterRequest& request, const StarterTemplate& starter) {
  long long bytes = 0;
  for (const GuessedArgument& a : request.guess.arguments)
    if (a.role == ArgumentRole::kInput || a.role == ArgumentRole::kOutput || a.role == ArgumentRole::kInOut)
      bytes += static_cast<long long>(Element(a.type).bytes) * (a.role == ArgumentRole::kInOut ? 2 : 1);
  return "\n# Every candidate is compared with the first value of each parameter, so a bug they all share\n"
         "# goes unseen (tune warns). Write a simple kernel that computes the same in the source, and name\n"
         "# it instead of `reference`: kernel = \"" +
         request.guess.declaration.name +
         "_reference\". The tolerances follow from the output type;\n"
         "# atol and rtol set them where the kernel rounds differently.\n[check]\n"
         "reference = \"own_configuration\"\n\n"
         "# Each buffer read or written once: results in GB/s. flops = \"...\" instead shows GFLOP/s.\n[work]\n"
         "bytes = \"" +
         std::to_string(bytes) + " * " + starter.size_name + "\"\n";
}

std::string ReplacedAll(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

StarterTemplate StarterDescription(const StarterRequest& request, const std::string& source) {
  StarterTemplate starter;
  PlanSizeAndBlock(request, starter);
  starter.description_path = (fs::path(request.folder) / (request.name + ".toml")).string();
  starter.source = source;
  starter.text = Header(request, starter, source) + SizeAndParameters(starter) + Launch(starter) +
                 Arguments(request, starter) + CheckAndWork(request, starter);
  return starter;
}

StarterTemplate WriteStarterTemplate(const StarterRequest& request) {
  // Both as the file system resolves them: a folder reached through a link names the file from where it is.
  const fs::path kernel_file = fs::weakly_canonical(fs::absolute(request.kernel_file));
  const fs::path folder = fs::weakly_canonical(fs::absolute(request.folder));
  const ScratchFolder staging("tuner-new");
  const StarterTemplate staged = StarterDescription(request, kernel_file.string());
  const fs::path staged_path = staging.path() / (request.name + ".toml");
  WriteWholeFile(staged_path.string(), staged.text);
  try {
    LoadTemplateFile(staged_path.string());
  } catch (const TemplateError& e) {
    throw UsageError("the description written for " + request.guess.kernel + " does not load, so none was written: " +
                     ReplacedAll(e.what(), staged_path.string(), staged.description_path));
  }
  const StarterTemplate starter = StarterDescription(request, SourceFrom(folder, kernel_file));
  WriteWholeFile(starter.description_path, starter.text);
  return starter;
}

}  // namespace tuner
