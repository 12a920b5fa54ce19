#include "app/command_options.h"

#include <climits>

#include "base/default_paths.h"
#include "base/errors.h"
#include "common/option_values.h"
#include "template/problem_size.h"

namespace tuner {

namespace {

// "base" or "base; note": one wording per option, with what a command adds to it.
std::string WithNote(const std::string& base, const std::string& note) {
  return note.empty() ? base : base + "; " + note;
}

}  // namespace

void AddKernelArgument(po::options_description& options, po::positional_options_description& positional,
                       const char* help) {
  options.add_options()("kernel", po::value<std::string>()->value_name("KERNEL")->required(), help);
  positional.add("kernel", 1);
}

std::string KernelArgument(const po::variables_map& vm) { return vm["kernel"].as<std::string>(); }

void AddFormatArgument(po::options_description& options, po::positional_options_description& positional,
                       const char* help) {
  options.add_options()("format", po::value<std::string>()->value_name("FORMAT")->required(), help);
  positional.add("format", 1);
}

void RequireFormat(const po::variables_map& vm, const char* format, const char* verb) {
  const std::string given = vm["format"].as<std::string>();
  if (given != format) throw UsageError(Quoted(given) + " is not a format tuner " + verb + " (" + format + ")");
}

void AddTemplatesOption(po::options_description& options) {
  options.add_options()("templates", po::value<std::vector<std::string>>()->value_name("DIR")->composing(),
                        "also load templates from this folder (repeatable; see also $TUNER_TEMPLATES)");
}

std::vector<std::string> TemplateFolders(const po::variables_map& vm) {
  return vm.count("templates") ? vm["templates"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

void AddDatabaseOption(po::options_description& options) {
  options.add_options()("db", po::value<std::string>()->value_name("PATH")->default_value(""),
                        "database file (default $TUNER_DB, else under $XDG_DATA_HOME)");
}

std::string DatabasePath(const po::variables_map& vm) { return ResolveDatabasePath(vm["db"].as<std::string>()); }

void AddJsonOption(po::options_description& options) {
  options.add_options()("json", "print one JSON document on stdout");
}

bool JsonOutput(const po::variables_map& vm) { return vm.count("json") > 0; }

void AddSizeOption(po::options_description& options, const char* help) {
  options.add_options()("size", po::value<std::string>()->value_name("WxH"), help);
}

std::string SizeOption(const po::variables_map& vm) {
  if (!vm.count("size")) return "";
  const std::string text = vm["size"].as<std::string>();
  ParseSizeNumbers(text);  // the form; how many numbers the template takes is checked with it
  return text;
}

void AddGpuOption(po::options_description& options, const char* help) {
  options.add_options()("gpu", po::value<std::string>()->value_name("N"), help);
}

std::optional<int> GpuOption(const po::variables_map& vm) {
  if (!vm.count("gpu")) return std::nullopt;
  return ParseGpuIndex("gpu", vm["gpu"].as<std::string>());
}

void AddDeviceOption(po::options_description& options, const std::string& note) {
  options.add_options()("device", po::value<std::string>()->value_name("NAME"),
                        WithNote("only the stored GPU models whose name contains NAME, e.g. H100", note).c_str());
}

std::string DeviceFilter(const po::variables_map& vm) {
  return vm.count("device") ? vm["device"].as<std::string>() : "";
}

void AddOutputFileOption(po::options_description& options, const char* help, const char* default_path) {
  auto* value = po::value<std::string>()->value_name("FILE");
  if (default_path) value->default_value(default_path);
  options.add_options()("output,o", value, help);
}

std::optional<std::string> OutputFile(const po::variables_map& vm) {
  if (!vm.count("output")) return std::nullopt;
  const std::string path = vm["output"].as<std::string>();
  if (path != "-") RequireOutputPath("output", path);
  return path;
}

void AddObjectiveOption(po::options_description& options, const std::string& note) {
  options.add_options()(
      "objective", po::value<std::string>()->value_name("OBJECTIVE")->default_value("time"),
      WithNote("what 'best' means: time, energy (joules per launch) or edp (energy x time)", note).c_str());
}

db::Objective ObjectiveOption(const po::variables_map& vm) {
  return db::ParseObjective(vm["objective"].as<std::string>());
}

void AddTimingOption(po::options_description& options, const char* help) {
  options.add_options()("timing", po::value<std::string>()->value_name("MODE"), help);
}

std::optional<TimingMode> TimingOption(const po::variables_map& vm) {
  if (!vm.count("timing")) return std::nullopt;
  const std::string text = vm["timing"].as<std::string>();
  const std::optional<TimingMode> mode = TimingModeFromText(text);
  if (!mode) throw UsageError("--timing " + Quoted(text) + " is not one of " + TimingModeChoices());
  return mode;
}

void AddBudgetOption(po::options_description& options, const char* help) {
  options.add_options()("budget", po::value<std::string>()->value_name("N")->default_value("0"), help);
}

std::size_t BudgetOption(const po::variables_map& vm) {
  return static_cast<std::size_t>(
      ParseWholeNumber("budget", vm["budget"].as<std::string>(), 0, LLONG_MAX, "0: no limit"));
}

void AddSeedOption(po::options_description& options, const char* default_seed, const char* help) {
  options.add_options()("seed", po::value<std::string>()->value_name("SEED")->default_value(default_seed), help);
}

unsigned long long SeedOption(const po::variables_map& vm) { return ParseSeed("seed", vm["seed"].as<std::string>()); }

}  // namespace tuner
