#include "app/cli.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <vector>

#include "base/errors.h"
#include "common/option_values.h"

namespace tuner {

namespace {

void PrintHelp(const CommandSpec& spec, const po::options_description& options) {
  std::cout << "Usage: " << spec.usage << "\n\n" << spec.summary << "\n\n" << options;
  if (!spec.example.empty()) std::cout << "\nExample:\n  " << spec.example << "\n";
}

// An option given an empty value ("--db ''", often an unset shell variable) is refused rather than
// read as if it had been left out.
void RefuseEmptyValues(const po::options_description& options, const po::variables_map& vm) {
  for (const auto& [name, value] : vm) {
    const po::option_description* option = options.find_nothrow(name, false);
    if (value.defaulted() || !option || option->semantic()->max_tokens() == 0) continue;  // a flag: no value
    const auto* text = boost::any_cast<std::string>(&value.value());
    const auto* texts = boost::any_cast<std::vector<std::string>>(&value.value());
    if ((text && text->empty()) || (texts && std::find(texts->begin(), texts->end(), "") != texts->end()))
      throw UsageError("--" + name + " '': empty; give a value, or leave --" + name + " out");
  }
}

}  // namespace

bool ParseCommandLine(int argc, char** argv, const CommandSpec& spec, po::options_description options,
                      const po::positional_options_description& positional, po::variables_map* vm) {
  options.add_options()("help,h", "show this help and exit");
  try {
    // argv[0] is the subcommand name; command_line_parser skips it like a program name.
    po::store(po::command_line_parser(argc, argv).options(options).positional(positional).run(), *vm);
    if (vm->count("help")) {
      PrintHelp(spec, options);
      return false;
    }
    po::notify(*vm);
    RefuseEmptyValues(options, *vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see 'tuner " + spec.name + " --help')");
  }
  return true;
}

void RequireWith(const po::variables_map& vm, const char* option, const char* needed) {
  if (vm.count(option) && !vm[option].defaulted() && !vm.count(needed))
    throw UsageError(std::string("--") + option + ": only with --" + needed);
}

void RequireNoFolder(const char* option, const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw UsageError(std::string("--") + option + " " + Quoted(path) + ": is a folder; give a file name");
}

void RequireOutputPath(const char* option, const std::string& path) {
  const std::string prefix = std::string("--") + option + " " + Quoted(path) + ": ";
  if (path.empty()) throw UsageError(prefix + "empty; give a file name");
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  RequireNoFolder(option, path);
  std::error_code error;
  if (!folder.empty() && !std::filesystem::is_directory(folder, error))
    throw UsageError(prefix + "the folder " + Quoted(folder.string()) + " does not exist");
}

void RefuseTogether(const po::variables_map& vm, const char* first, const char* second) {
  const auto given = [&](const char* option) { return vm.count(option) && !vm[option].defaulted(); };
  if (given(first) && given(second))
    throw UsageError(std::string("--") + first + " and --" + second + ": give one of them, not both");
}

bool StdoutIsTerminal() { return isatty(STDOUT_FILENO) != 0; }
bool StderrIsTerminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace tuner
