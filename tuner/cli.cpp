#include "cli.h"

#include <unistd.h>

#include <iostream>

#include "errors.h"

namespace tuner {

namespace {

void PrintHelp(const CommandSpec& spec, const po::options_description& options) {
  std::cout << "Usage: " << spec.usage << "\n\n" << spec.summary << "\n\n" << options;
  if (!spec.example.empty()) std::cout << "\nExample:\n  " << spec.example << "\n";
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
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see 'tuner " + spec.name + " --help')");
  }
  return true;
}

void AddTemplatesOption(po::options_description& options) {
  options.add_options()("templates", po::value<std::vector<std::string>>()->composing(),
                        "also load templates from this folder (repeatable; see also $TUNER_TEMPLATES)");
}

void AddDatabaseOption(po::options_description& options) {
  options.add_options()("db", po::value<std::string>()->default_value(""),
                        "database file (default $TUNER_DB, else under $XDG_DATA_HOME)");
}

std::vector<std::string> TemplateFolders(const po::variables_map& vm) {
  return vm.count("templates") ? vm["templates"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

bool StdoutIsTerminal() { return isatty(STDOUT_FILENO) != 0; }
bool StderrIsTerminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace tuner
