// Shared command-line plumbing for the subcommands: parsing with Boost.Program_options, --help,
// and turning parse errors into UsageError (exit 2).
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace tuner {

namespace po = boost::program_options;

struct CommandSpec {
  std::string name;     // "tune"
  std::string usage;    // "tuner tune KERNEL [options]"
  std::string summary;  // one sentence shown under the usage line
  std::string example;  // one example command line, may be empty
};

// Adds --help to `options`, parses argv (argv[0] is the subcommand name) and fills `vm`.
// Prints help to stdout and returns false when --help was given. Throws UsageError otherwise
// on unknown options, missing values or surplus positional arguments.
bool ParseCommandLine(int argc, char** argv, const CommandSpec& spec, po::options_description options,
                      const po::positional_options_description& positional, po::variables_map* vm);

// Options several commands share, worded once.
void AddTemplatesOption(po::options_description& options);  // --templates DIR (repeatable)
void AddDatabaseOption(po::options_description& options);   // --db PATH
std::vector<std::string> TemplateFolders(const po::variables_map& vm);  // the --templates values

// Whether stdout / stderr is a terminal (progress bars and colours only then).
bool StdoutIsTerminal();
bool StderrIsTerminal();

}  // namespace tuner
