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

bool StdoutIsTerminal() { return isatty(STDOUT_FILENO) != 0; }
bool StderrIsTerminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace tuner
